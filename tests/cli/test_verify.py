"""``p2pcards verify``: real journals verify (exit 0), tampered ones are caught (exit 1), bad input
is refused with a clear message (exit 2)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from p2pcards.cli import main
from p2pcards.cli.verify import HandVerdict, Report, as_json, print_text
from p2pcards.games import AuditResult
from p2pcards.store import journal as jf
from p2pcards.store.paths import HOME_ENV
from p2pcards.table.outputs import Fault
from p2pcards.wire import Encodable, Envelope, SignedMessage, sign
from tests.store.games import SETUPS, played, records, rewrite, seat_key, tamper


@pytest.fixture(autouse=True)
def _private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv(HOME_ENV, str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    return home


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(["verify", *args])
    except SystemExit as exc:  # argparse / UsageError: parser.exit
        code = int(exc.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def copy_journal(tmp_path: Path, game: str = "durak", seat: int = 1) -> Path:
    target = tmp_path / f"{game}-{seat}.journal"
    shutil.copyfile(played(game).journal(seat), target)
    return target


# ---------------------------------------------------------------------------- honest journals


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_every_seats_journal_verifies_to_the_same_verdicts(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    p = played(game)
    live = [
        {"hand": h.hand, "summary": h.summary, "audit": {"ok": True, "seat": None, "rule": None, "move": None,
                                                         "message": ""}}
        for h in p.hand_overs(0)
    ]
    assert len(live) == 1 and all(t.over and t.fault is None for t in p.tables)
    for seat in range(len(p.tables)):
        code, text, _ = run(capsys, str(p.journal(seat)), "--json")
        doc = json.loads(text)
        assert code == 0 and doc["ok"] and doc["problems"] == [], doc
        assert doc["hands"] == live
        assert doc["finished"] and doc["fault"] is None and doc["refused"]["count"] == 0
        assert doc["match"] == next(e.summary for e in p.events[seat] if type(e).__name__ == "MatchOver")
        assert doc["game"] == game and doc["game_id"] == p.genesis.game_id.hex()
        assert [s["name"] for s in doc["seats"]] == [f"p{i}" for i in range(len(p.tables))]


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_the_text_report(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    p = played(game)
    code, text, _ = run(capsys, str(p.journal(0)))
    assert code == 0, text
    summary = p.hand_overs(0)[0].summary.splitlines()[0]
    assert f"hand 0   {summary}" in text and "audit passed" in text
    assert "match    finished:" in text and "verdict  OK" in text
    assert p.genesis.game_id.hex() in text and "fault" not in text


def test_a_game_directory_or_a_saved_game_id(
    capsys: pytest.CaptureFixture[str], _private_home: Path
) -> None:
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
    assert code == 0 and "match    not finished: the log stops at step" in text


# ---------------------------------------------------------------------------- tampering


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


def forge(honest: SignedMessage, body: Encodable) -> bytes:
    """A second message signed by the same seat for the same step and head."""
    envelope = Envelope(
        game_id=honest.game_id, step=honest.step, seat=honest.seat, prev=honest.prev, kind=honest.kind,
        body=body,
    )
    return sign(envelope, seat_key(honest.seat)).data


def test_equivocation_is_a_fault(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = copy_journal(tmp_path)
    payloads = jf.read(path).payloads
    honest = next(
        m for m in map(SignedMessage.from_bytes, payloads) if m.kind == "coin_commit" and m.seat == 2
    )
    rewrite(path, [*payloads, forge(honest, b"\x07" * 32)])
    code, text, _ = run(capsys, str(path), "--json")
    doc = json.loads(text)
    assert code == 1 and doc["fault"]["kind"] == "equivocation" and doc["fault"]["seat"] == 2
    assert doc["fault"]["step"] == honest.step and not doc["ok"] and not doc["finished"]
    code, text, _ = run(capsys, str(path))
    assert code == 1 and "fault    seat 2 at fault (equivocation)" in text


def test_equivocation_found_after_the_hand_voids_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_journal(tmp_path)
    payloads = jf.read(path).payloads
    honest = [m for m in map(SignedMessage.from_bytes, payloads) if m.kind == "action"][-5]
    assert isinstance(honest.body, dict)
    rewrite(path, [*payloads, forge(honest, {**honest.body, "extra": 1})])
    code, text, _ = run(capsys, str(path))
    assert code == 1 and "hand 0   void:" in text and "audit passed" not in text
    assert f"seat {honest.seat} at fault (equivocation) at step {honest.step}" in text


def test_a_missing_record_is_a_gap(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = copy_journal(tmp_path)
    payloads = jf.read(path).payloads
    del payloads[60]
    rewrite(path, payloads)
    code, text, _ = run(capsys, str(path))
    assert code == 1 and "gap      " in text and "verdict  FAILED" in text


# ---------------------------------------------------------------------------- bad input


def test_bad_input_exits_2_with_a_clear_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases: list[tuple[Path, str]] = []
    cases.append((tmp_path / "nowhere", "no such file or directory"))
    (tmp_path / "empty-dir").mkdir()
    cases.append((tmp_path / "empty-dir", "directory without a journal"))
    (tmp_path / "notes.txt").write_text("hello")
    cases.append((tmp_path / "notes.txt", "not a p2pcards journal"))
    (tmp_path / "header-only").write_bytes(jf.HEADER)
    cases.append((tmp_path / "header-only", "no usable genesis: the journal is empty"))
    (tmp_path / "junk").write_bytes(jf.HEADER + jf.encode_record(b"\x92junk"))
    cases.append((tmp_path / "junk", "no usable genesis"))
    corrupt = copy_journal(tmp_path)
    offset, _ = records(corrupt)[5]
    data = bytearray(corrupt.read_bytes())
    data[offset + 20] ^= 0x40
    corrupt.write_bytes(bytes(data))
    cases.append((corrupt, f"corrupt record at byte offset {offset}"))
    for path, words in cases:
        code, out, err = run(capsys, str(path))
        assert code == 2 and out == "", path
        assert words in err and "p2pcards verify: error:" in err, err


# ---------------------------------------------------------------------------- the report's wording


def test_a_failed_audit_is_reported_with_seat_rule_and_move(capsys: pytest.CaptureFixture[str]) -> None:
    p = played("spades")
    audit = AuditResult(ok=False, seat=3, rule="S6", step=14, message="did not follow suit")
    report = Report(Path("j"), p.genesis, 84, None, hands=[HandVerdict(0, "bids 1 2 3 4", audit)])
    report.fault = Fault(3, 80, "renege", str(audit))
    print_text(report)
    text = capsys.readouterr().out
    assert "hand 0   bids 1 2 3 4" in text
    assert "AUDIT FAILED: seat 3 broke S6 at move 14: did not follow suit" in text
    assert "fault    seat 3 at fault (renege) at step 80" in text and "verdict  FAILED" in text
    doc = as_json(report)
    assert doc["hands"][0]["audit"] == {
        "ok": False, "seat": 3, "rule": "S6", "move": 14, "message": "did not follow suit"
    }
    assert not doc["ok"] and doc["fault"]["kind"] == "renege"
