"""The model checker: it drives the real replicas through every interleaving of a small table, merges
the states it reaches twice, finds a broken restore (shrunk, printed as a command that replays it),
and refuses bad input with one clear line."""

from __future__ import annotations

import json
import shlex

import pytest

from p2pcards.cli import main
from p2pcards.harness import model_check as mc

NAIVE = ("naive-restore",)


def test_a_restore_that_forgets_what_it_signed_is_found_shrunk_and_replayed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A machine that reads an old copy of its journal back as new frames signs a second move for a
    step it spoke at: its own replica and the others' convict it — an honest seat convicted."""
    report = mc.check("azi", 3, bounds=mc.Bounds(depth=5, cheats=0), reintroduce=NAIVE)
    assert report.invariant == "no-honest-seat-convicted"
    assert report.violation is not None and "equivocation" in report.violation
    assert any(e.startswith("r") and not e.endswith(".0") for e in report.path)  # an older copy
    assert report.path[0].startswith("m") and len(report.path) <= 5
    assert report.replay is not None
    argv = shlex.split(report.replay)
    assert argv[:2] == ["p2pcards", "harness"]
    assert main([*argv[1:], "--json"]) == 1
    replayed = json.loads(capsys.readouterr().out)["model_check"]
    assert (replayed["invariant"], replayed["violation"]) == (report.invariant, report.violation)


def test_a_restart_from_the_whole_journal_convicts_nobody() -> None:
    """The same table, with a cheater's message, restarts only from the whole journal (nothing it
    signed is missing): every interleaving to the depth is explored and nothing breaks."""
    report = mc.check("azi", 3, bounds=mc.Bounds(depth=3, cheats=1, back=0), reintroduce=NAIVE)
    assert report.violation is None and report.exhaustive
    assert report.states > 50 and report.deepest == 3


def test_the_counterexample_is_shrunk_to_what_breaks_the_invariant() -> None:
    root = mc.start("azi", mc.shape_for("azi", 3), 1, {}, NAIVE)
    padded = ["m0.0", "r0.1", "t", "m0.1", "t", "D0.2"]
    invariant, _ = mc.replay(root, padded)
    assert invariant == "no-honest-seat-convicted"
    small = mc.shrink(root, padded, invariant)
    assert small == ["m0.0", "r0.1", "m0.1", "D0.2"]
    assert mc.replay(root, small)[0] == invariant


def test_events_at_different_seats_commute_into_one_state() -> None:
    """State hashing: delivering to seat 0 then seat 1, or seat 1 then seat 0, is one state; the
    copies a search makes are independent of the room they were made from."""
    root = mc.start("azi", mc.shape_for("azi", 3), 1, {})
    after_move = root.copy()
    assert mc.apply(after_move, "m0.0")
    to_1 = next(e for e in mc.events(after_move, mc.Bounds()) if e.startswith("d1.0."))
    to_2 = next((e for e in mc.events(after_move, mc.Bounds()) if e.startswith("d0.2.")), None)
    assert to_2 is not None
    one, other = after_move.copy(), after_move.copy()
    assert mc.apply(one, to_1) and mc.apply(one, to_2)
    assert mc.apply(other, to_2) and mc.apply(other, to_1)
    digest = mc.Search(root, mc.Bounds(), mc.Report("azi", 3, "3", mc.Bounds()), None)._digest
    assert digest(one) == digest(other)
    assert digest(one) != digest(after_move) != digest(root)
    assert root.tables[0].chain.step == after_move.tables[0].chain.step - 1  # the root did not move


def test_a_relayed_old_vote_deals_a_seat_out_only_until_it_holds_what_spends_it() -> None:
    """Seat 0 and the cheater vote seat 1 silent at step 5; seat 1 moves, seat 0 signs on (its vote
    at step 6 spends the old one).  The cheater relays both step-5 votes to seat 1 before seat 0's
    later vote: seat 1 holds a majority's decision, unspent by anything it holds, consents and is out
    for that while — judged by what it holds, that is the rule (SPEC §6.5).  The later vote, once it
    arrives, spends the old one for good: seat 1 is back, with seat 0's state, and its return binds
    it to nothing after a restart from its journal either."""
    root = mc.start("durak", mc.shape_for("durak", 3), 1, {})
    room = mc.clone(root)
    for event in ["t", "m1.0", "D0.1", "t"]:
        assert mc.apply(room, event)
    out_for_a_while = False
    while (link := [e for e in mc.events(room, mc.Bounds()) if e.startswith("d1.2.")]) != []:
        assert mc.apply(room, link[0])  # the invariants hold after every frame
        out_for_a_while |= 1 in room.tables[1].seats_out
    assert out_for_a_while and 1 in room.worded  # the relayed votes dealt it out; it consented
    assert 1 not in room.tables[1].seats_out
    for event in ["D1.0", "D0.1", "r1.0", "t"]:
        mc.apply(room, event)
        assert 1 not in room.tables[1].seats_out
    while between := [e for e in mc.events(room, mc.Bounds()) if e.startswith(("d0.1.", "d1.0."))]:
        assert mc.apply(room, between[0])
        assert 1 not in room.tables[1].seats_out
    assert room.tables[1].digest() == room.tables[0].digest()
    assert mc.replay(root, ["t", "m1.0", "D0.1", "t", "D1.2"]) == (None, None)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--voices", "6"], "--voices must be 3, 4 or 5"),
        (["--depth", "0"], "--depth must be from 1 to 64"),
        (["--cheats", "99"], "--cheats and --restarts must be from 0 to 16"),
        (["--reintroduce", "nothing"], "--reintroduce 'nothing': the broken behaviours are: naive-restore"),
        (["--replay", "m0.0,rm -rf"], "'rm -rf' is not an event"),
        (["--voices", "3", "--explore", "1"], "--model-check goes alone"),
    ],
)
def test_bad_model_check_values_are_refused_clearly(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["harness", "azi", "--model-check", *argv])
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_model_check_options_need_model_check(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["harness", "azi", "--replay", "t"])
    assert "--replay and --reintroduce go with --model-check" in capsys.readouterr().err


def test_a_game_that_cannot_seat_the_table_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["harness", "spades", "--model-check", "--voices", "3"])
    assert "spades cannot be model-checked at 3 voices" in capsys.readouterr().err


def test_a_replay_naming_events_that_never_happen_breaks_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["harness", "azi", "--model-check", "--replay", "d9.9.00000000,m7.3,r5.0,e2.999,t"])
    assert code == 0
    assert "nothing found" in capsys.readouterr().out
