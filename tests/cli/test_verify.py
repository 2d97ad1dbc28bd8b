"""``p2pcards verify``: real journals verify (exit 0), true ones that convict a seat say so (exit 3),
tampered, cut or hostile ones are caught (exit 1), bad input is refused with a clear message (exit 2);
never a traceback."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from p2pcards.cli.verify import HandVerdict, Report, as_json, print_text
from p2pcards.games import AuditResult
from p2pcards.store import journal as jf
from p2pcards.store.paths import HOME_ENV
from p2pcards.table.outputs import Fault
from p2pcards.wire import Encodable, Envelope, SignedMessage, initial_head, sign
from tests.cli import running
from tests.store.games import SETUPS, played, played_longer, records, rewrite, seat_key, tamper


@pytest.fixture(autouse=True)
def _private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv(HOME_ENV, str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    return home


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    return running.run(capsys, "verify", *args)


def copy_journal(tmp_path: Path, game: str = "durak", seat: int = 1, *, longer: bool = False) -> Path:
    target = tmp_path / f"{game}-{seat}.journal"
    source = played_longer(game) if longer else played(game)
    shutil.copyfile(source.journal(seat), target)
    return target


def signed(seat: int, game_id: bytes, kind: str, body: Encodable, step: int, prev: bytes) -> bytes:
    env = Envelope(game_id=game_id, step=step, seat=seat, prev=prev, kind=kind, body=body)
    return sign(env, seat_key(seat)).data


def forge(honest: SignedMessage, body: Encodable) -> bytes:
    """A second message signed by the same seat for the same step and head."""
    return signed(honest.seat, honest.game_id, honest.kind, body, honest.step, honest.prev)


# ---------------------------------------------------------------------------- honest journals


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_every_seats_journal_verifies_to_the_same_verdicts(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    p = played(game)
    n = len(p.tables)
    live = [
        {
            "hand": h.hand,
            "summary": h.summary,
            "sealed_by": list(range(n)),
            "dealt_again": 0,
            "audit": {"ok": True, "seat": None, "rule": None, "move": None, "message": ""},
        }
        for h in p.hand_overs(0)
    ]
    assert len(live) == 1 and all(t.over and t.verdicts == [] for t in p.tables)
    for seat in range(n):
        code, text, _ = run(capsys, str(p.journal(seat)), "--json")
        doc = json.loads(text)
        assert code == 0 and doc["ok"] and doc["problems"] == [], doc
        assert doc["hands"] == live
        assert doc["status"] == "finished" and doc["verdicts"] == [] and doc["refused"]["count"] == 0
        assert doc["match"] == next(e.summary for e in p.events[seat] if type(e).__name__ == "MatchOver")
        assert doc["game"] == game and doc["game_id"] == p.genesis.game_id.hex()
        assert [s["name"] for s in doc["seats"]] == [f"p{i}" for i in range(n)]


def test_the_text_report_counts_hands_from_one_and_names_the_seats(
    capsys: pytest.CaptureFixture[str],
) -> None:
    p = played("durak")
    code, text, _ = run(capsys, str(p.journal(0)))
    assert code == 0, text
    assert "hand 1   " in text and "hand 0 " not in text
    assert "audit passed; sealed by p0, p1, p2" in text
    assert "match    finished, sealed by every seat:" in text and "verdict  OK" in text
    assert p.genesis.game_id.hex() in text and "cheated" not in text


def test_a_game_directory_or_a_saved_game_id(capsys: pytest.CaptureFixture[str], _private_home: Path) -> None:
    p = played("durak")
    assert run(capsys, str(p.journal(0).parent))[0] == 0
    shutil.copytree(p.homes[0], _private_home)
    code, text, _ = run(capsys, p.genesis.game_id.hex()[:10])
    assert code == 0 and str(_private_home) in text


def test_a_torn_tail_is_noted_and_the_rest_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_journal(tmp_path)
    with path.open("ab") as f:
        f.write(jf.encode_record(b"half a record")[:9])
    code, text, _ = run(capsys, str(path))
    assert code == 0 and "incomplete record" in text and "verdict  OK" in text


def test_an_unfinished_game_verifies_so_far(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = copy_journal(tmp_path)
    payloads = jf.read(path).payloads
    rewrite(path, payloads[:40])
    code, text, _ = run(capsys, str(path))
    assert code == 0 and "match    not finished: hand 1 in progress, the log stops at step" in text


def test_a_journal_cut_right_after_a_seal_is_truncated_not_unfinished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_journal(tmp_path, longer=True)
    payloads = jf.read(path).payloads
    msgs = [SignedMessage.from_bytes(p) for p in payloads]
    seal_at = [i for i, m in enumerate(msgs) if m.kind == "seal"]
    first_hand_sealed = seal_at[2]  # three seats: the third seal completes hand 1
    rewrite(path, payloads[: first_hand_sealed + 1])
    code, text, _ = run(capsys, str(path), "--json")
    doc = json.loads(text)
    assert code == 1 and doc["status"] == "truncated" and len(doc["hands"]) == 1
    code, text, _ = run(capsys, str(path))
    assert "truncated after the seal of hand 1" in text and "verdict  FAILED" in text


# ---------------------------------------------------------------------------- tampering and cheats


@pytest.mark.parametrize("where", ["signature", "body"])
def test_a_tampered_message_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    path = copy_journal(tmp_path)
    payloads = jf.read(path).payloads
    victim = len(payloads) // 2
    original = payloads[victim]
    index = len(original) - 1 if where == "signature" else len(original) // 2
    payloads[victim] = tamper(original, index)
    rewrite(path, payloads)  # the CRCs are right: only the signatures can tell
    assert jf.read(path).payloads[victim] != original
    code, text, _ = run(capsys, str(path), "--json")
    doc = json.loads(text)
    assert code == 1 and not doc["ok"]
    assert doc["refused"]["count"] >= 1 and doc["refused"]["reasons"]
    assert not doc["finished"]
    code, text, _ = run(capsys, str(path))
    assert code == 1 and "refused  " in text and "verdict  FAILED" in text


def test_a_tampered_genesis_message_still_names_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_journal(tmp_path)
    payloads = jf.read(path).payloads
    payloads[0] = tamper(payloads[0], len(payloads[0]) - 1)  # its signature
    rewrite(path, payloads)
    code, text, _ = run(capsys, str(path))
    assert code == 1 and "bad signature" in text and "game     durak" in text


def test_a_late_second_message_names_its_signer_and_the_sealed_hand_stands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_journal(tmp_path)
    payloads = jf.read(path).payloads
    honest = [m for m in map(SignedMessage.from_bytes, payloads) if m.kind == "action"][-5]
    assert isinstance(honest.body, dict)
    rewrite(path, [*payloads, forge(honest, {**honest.body, "extra": 1})])
    code, text, _ = run(capsys, str(path), "--json")
    doc = json.loads(text)
    assert code == 3 and doc["exit_status"] == 3, "a true record that caught a cheater, not a damaged one"
    assert doc["status"] == "finished" and len(doc["hands"]) == 1 and doc["refused"]["count"] == 0
    (verdict,) = doc["verdicts"]
    assert (verdict["seat"], verdict["kind"], verdict["step"]) == (honest.seat, "equivocation", honest.step)
    code, text, _ = run(capsys, str(path))
    assert f"p{honest.seat} cheated in hand 1 (equivocation, step {honest.step})" in text
    assert "audit passed" in text, "the sealed hand is not taken away"
    assert f"verdict  TRUE RECORD, IT CONVICTS: every record checks out; p{honest.seat} cheated" in text


def test_a_cheater_in_a_damaged_journal_is_a_failure_not_a_conviction(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_journal(tmp_path)
    payloads = jf.read(path).payloads
    honest = [m for m in map(SignedMessage.from_bytes, payloads) if m.kind == "action"][-5]
    assert isinstance(honest.body, dict)
    forged = tamper(payloads[-1], len(payloads[-1]) - 1)  # a signature that does not verify
    rewrite(path, [*payloads, forge(honest, {**honest.body, "extra": 1}), forged])
    code, text, _ = run(capsys, str(path), "--json")
    doc = json.loads(text)
    assert code == 1 and doc["refused"]["count"] >= 1 and doc["verdicts"]


def test_votes_that_contradict_the_log_are_shown_and_convict_nobody(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_journal(tmp_path)
    payloads = jf.read(path).payloads
    played_step = next(
        m for m in map(SignedMessage.from_bytes, payloads) if m.kind == "action" and m.seat == 0
    )
    votes = [
        signed(v, played_step.game_id, "void_vote", {"silent": [0]}, played_step.step, played_step.prev)
        for v in (1, 2)
    ]
    rewrite(path, [*payloads, *votes])
    code, text, _ = run(capsys, str(path), "--json")
    doc = json.loads(text)
    # votes for a step of a hand already final are refused: no true journal holds them
    assert doc["refused"]["reasons"] == {"bad vote": 2}
    assert code == 1 and sorted(c["voter"] for c in doc["contradicting_votes"]) == [1, 2]
    assert doc["status"] == "finished" and doc["verdicts"] == [], "nobody is convicted by a false vote"
    code, text, _ = run(capsys, str(path))
    assert "p1 voted p0 silent at step" in text and "p2 voted p0 silent at step" in text
    assert "contradict" not in text.split("verdict ")[-1], "the votes are shown, not counted against anyone"


def test_a_missing_record_is_a_gap(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = copy_journal(tmp_path)
    payloads = jf.read(path).payloads
    del payloads[60]
    rewrite(path, payloads)
    code, text, _ = run(capsys, str(path))
    assert code == 1 and "gap      " in text and "verdict  FAILED" in text


def test_an_unfinished_journal_missing_a_setup_record_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_journal(tmp_path)
    payloads = jf.read(path).payloads
    (commit,) = [i for i, p in enumerate(payloads) if SignedMessage.from_bytes(p).kind == "coin_commit"][:1]
    rewrite(path, [p for i, p in enumerate(payloads[:40]) if i != commit])
    code, text, _ = run(capsys, str(path), "--json")
    doc = json.loads(text)
    assert code == 1 and doc["status"] == "unfinished" and doc["unplaced"] > 0


def test_a_transport_message_in_a_journal_is_refused_and_not_acted_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_journal(tmp_path)
    payloads = jf.read(path).payloads
    game_id = SignedMessage.from_bytes(payloads[0]).game_id
    request = signed(2, game_id, "catchup_request", {"after": -1}, 0, initial_head(game_id))
    answer = signed(2, game_id, "catchup_response", {"msgs": [payloads[45]]}, 0, initial_head(game_id))
    rewrite(path, [*payloads[:40], request, answer])
    code, text, _ = run(capsys, str(path), "--json")
    doc = json.loads(text)
    assert code == 1 and doc["refused"]["reasons"] == {"not journaled": 2}
    assert doc["refused"]["records"][0]["detail"] == "a catchup_request is never journaled"
    rewrite(path, payloads[:40])
    code, cut, _ = run(capsys, str(path), "--json")
    assert code == 0 and json.loads(cut)["step"] == doc["step"], "the answer's message was not taken"


def test_a_flipped_byte_inside_the_journal_fails_verification(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corrupt = copy_journal(tmp_path)
    offset, _ = records(corrupt)[5]
    data = bytearray(corrupt.read_bytes())
    data[offset + 20] ^= 0x40
    corrupt.write_bytes(bytes(data))
    code, text, err = run(capsys, str(corrupt))
    assert code == 1 and err == ""
    assert f"corrupt record at byte offset {offset}" in text and "verdict  FAILED" in text


def test_a_hostile_journal_never_ends_in_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_journal(tmp_path)
    payloads = jf.read(path).payloads
    game_id = SignedMessage.from_bytes(payloads[0]).game_id
    inner = signed(1, game_id, "catchup_request", {"after": -1}, 0, initial_head(game_id))
    for _ in range(800):
        inner = signed(1, game_id, "catchup_response", {"msgs": [inner]}, 0, initial_head(game_id))
    hostile = [
        inner,
        b"\x93\x01\x02",
        signed(1, game_id, "void_vote", {"silent": [False]}, 5, bytes(32)),
        signed(2, game_id, "evidence", {"type": "equivocation", "a": b"x", "b": b"y"}, 0, bytes(32)),
    ]
    rewrite(path, [*payloads[:50], *hostile, *payloads[50:]])
    code, text, err = run(capsys, str(path))
    assert code == 1 and "Traceback" not in err + text and "verdict  FAILED" in text


# ---------------------------------------------------------------------------- bad input


def test_bad_input_exits_2_with_a_clear_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases: list[tuple[Path, str]] = []
    cases.append((tmp_path / "nowhere", "no such file or directory"))
    (tmp_path / "empty-dir").mkdir()
    cases.append((tmp_path / "empty-dir", "directory without a journal"))
    (tmp_path / "notes.txt").write_text("hello")
    cases.append((tmp_path / "notes.txt", "not a p2pcards journal"))
    (tmp_path / "header-only").write_bytes(jf.HEADER)
    cases.append((tmp_path / "header-only", "the journal is empty"))
    (tmp_path / "no-message").write_bytes(jf.header(bytes(32)))
    cases.append((tmp_path / "no-message", "no usable genesis: the journal is empty"))
    (tmp_path / "junk").write_bytes(jf.header(bytes(32)) + jf.encode_record(b"\x92junk"))
    cases.append((tmp_path / "junk", "no usable genesis"))
    without = copy_journal(tmp_path)
    without.write_bytes(jf.HEADER + b"".join(jf.encode_record(p) for p in jf.read(without).payloads))
    cases.append((without, "its first record is not the game record"))
    for path, words in cases:
        code, out, err = run(capsys, str(path))
        assert code == 2 and out == "", path
        assert words in err and "p2pcards verify: error:" in err, err


# ---------------------------------------------------------------------------- the report's wording


def test_a_failed_audit_is_reported_with_the_players_name_rule_and_move(
    capsys: pytest.CaptureFixture[str],
) -> None:
    p = played("spades")
    audit = AuditResult(ok=False, seat=3, rule="S6", step=14, message="did not follow suit")
    report = Report(
        Path("j"), p.genesis, 84, None, hands=[HandVerdict(0, "bids 1 2 3 4", audit, (0, 1, 2, 3))]
    )
    report.verdicts = [Fault(3, 80, "renege", str(audit), hand=0, seats=(3,))]
    print_text(report)
    text = capsys.readouterr().out
    assert "hand 1   bids 1 2 3 4" in text
    assert "AUDIT FAILED: p3 broke S6 at move 14: did not follow suit" in text
    assert "p3 cheated in hand 1 (renege, step 80)" in text and "verdict  TRUE RECORD, IT CONVICTS" in text
    doc = as_json(report)
    assert doc["hands"][0]["audit"] == {
        "ok": False,
        "seat": 3,
        "rule": "S6",
        "move": 14,
        "message": "did not follow suit",
    }
    assert not doc["ok"] and doc["exit_status"] == 3 and doc["verdicts"][0]["kind"] == "renege"


def _seat_2_ends(tmp_path: Path) -> tuple[Path, Path, SignedMessage]:
    """Seat 2 of three signs an end naming seats 0 and 1 while seat 0 thinks over its move: seat 1's
    journal and seat 2's own, both holding it, and the move seat 0 had not yet made."""
    path = copy_journal(tmp_path)  # seat 1's journal
    payloads = jf.read(path).payloads
    msgs = [SignedMessage.from_bytes(p) for p in payloads]
    i = next(k for k, m in enumerate(msgs) if m.kind == "action" and m.seat == 0 and m.step > 12)
    thinking = msgs[i]
    end = signed(2, thinking.game_id, "abandon", {"silent": [0, 1]}, thinking.step, thinking.prev)
    rewrite(path, [*payloads[:i], end])
    genesis = [k for k, m in enumerate(msgs[:i]) if m.kind == "genesis"]
    own_first = [payloads[k] for k in genesis if msgs[k].seat == 2]
    rest = [p for k, p in enumerate(payloads[:i]) if not (k in genesis and msgs[k].seat == 2)]
    theirs = tmp_path / "seat2.journal"
    shutil.copyfile(path, theirs)
    rewrite(theirs, [*own_first, *rest, end])
    return path, theirs, thinking


def test_one_seats_end_naming_both_others_is_its_word_alone_in_every_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Read as seat 1's journal the match is unfinished (seat 2's word binds nobody named); read as
    seat 2's own it is abandoned by seat 2 alone — never a finished match — and both report the same
    signed fact."""
    path, theirs, thinking = _seat_2_ends(tmp_path)
    code, text, _ = run(capsys, str(path), "--json")
    as_seat_1 = json.loads(text)
    assert (code, as_seat_1["status"], as_seat_1["finished"]) == (0, "unfinished", False)
    word = [{"seat": 2, "step": thinking.step, "named": [0, 1], "consented": False}]
    assert as_seat_1["unconfirmed"] == word and as_seat_1["verdicts"] == []

    code, text, _ = run(capsys, str(theirs), "--json")
    as_seat_2 = json.loads(text)
    assert (as_seat_2["status"], as_seat_2["finished"]) == ("abandoned", False)
    assert as_seat_2["unconfirmed"] == word
    code, text, _ = run(capsys, str(theirs))
    assert "went on without p0, p1" in text and "unconfirmed" in text


def test_an_abandon_is_reported_once_as_its_signers_word_never_as_a_vote(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seat 2's own journal, after its abandon naming seats 0 and 1: nobody voted, so no line says
    "voted out"; the one decision is one verdict line, and the JSON verdicts say the same."""
    _, theirs, thinking = _seat_2_ends(tmp_path)
    code, text, _ = run(capsys, str(theirs))
    assert code == 0
    lines = [line for line in text.splitlines() if line.startswith("verdict ")]
    assert "voted out" not in text
    assert len(lines) == len(set(lines))
    [decision] = [line for line in lines if "p0, p1" in line]
    assert "p2 continued without p0, p1 by half the table or fewer (unconfirmed" in decision
    assert decision.endswith(f"in hand 1, at step {thinking.step}")

    code, text, _ = run(capsys, str(theirs), "--json")
    [verdict] = json.loads(text)["verdicts"]
    assert (verdict["kind"], verdict["seats"], verdict["step"]) == ("silent", [0, 1], thinking.step)
    assert (verdict["unconfirmed"], verdict["by"]) == (True, [2])


def test_a_restoring_seats_consent_to_half_the_tables_word_is_what_its_journal_proves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Durak, four seats: seat 3 restores while seat 2, a cheater, keeps its answer back; seats 0 and 1,
    half the table, go on without 2 and 3 by their word, and seat 3 consents to it (SPEC §6.5, half
    and consent).  Its journal proves that word bound seat 3 — it is out of that hand — never that
    the word binds nobody named; the others' journals still say it binds nobody named."""
    from p2pcards.cli.harness import write_journals
    from p2pcards.harness.run import run_game

    report = run_game("durak", peers=4, seed=4, fault_spec="all", byzantine={2: "return"})
    assert report.passed, report.problems
    write_journals(tmp_path, "durak", report)
    restored = tmp_path / "durak-seed4-seat3.journal"
    code, text, _ = run(capsys, str(restored))
    assert code == 0
    [decision] = [line for line in text.splitlines() if line.startswith("verdict ") and "seat 2" in line]
    assert "seat 0, seat 1, half the table, continued without seat 2, seat 3 by their word" in decision
    assert "seat 3, whose journal this is, consented to it while restoring, so it binds seat 3" in decision
    assert "binding on nobody named" not in text
    code, text, _ = run(capsys, str(restored), "--json")
    doc = json.loads(text)
    [verdict] = doc["verdicts"]
    assert (verdict["seats"], verdict["by"], verdict["unconfirmed"], verdict["consented"]) == (
        [2, 3], [0, 1], True, True)
    assert "nobody named" not in verdict["message"] and "consented" in verdict["message"]
    assert [(w["seat"], w["consented"]) for w in doc["unconfirmed"]] == [(0, True), (1, True)]
    assert doc["seats_out"] == {"2": "unconfirmed", "3": "unconfirmed"}

    code, text, _ = run(capsys, str(tmp_path / "durak-seed4-seat0.journal"), "--json")
    doc = json.loads(text)
    assert [v["consented"] for v in doc["verdicts"]] == [False]
    assert all(not w["consented"] for w in doc["unconfirmed"])
