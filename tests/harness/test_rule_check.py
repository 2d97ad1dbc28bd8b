"""The rule checker: it drives the production rule code (``claims``, ``held``, ``policy``) over every
state of a small abstract table, finds each of issue 27's rule fixes undone (shrunk, replayable), finds
nothing on the rule as it is, and refuses bad input with one clear line."""

from __future__ import annotations

import json
import shlex

import pytest

from p2pcards.cli import main
from p2pcards.harness import rule_check as rc
from p2pcards.table import claims, held


def _found(shape: str, name: str, bounds: rc.Bounds) -> rc.Report:
    report = rc.check(shape, bounds, (name,))
    assert report.violation is not None, report.to_dict()
    assert report.replay is not None and rc.replay_command(
        "durak", shape, bounds, (name,), report.path
    ) == report.replay
    return report


def _replays(report: rc.Report, capsys: pytest.CaptureFixture[str]) -> None:
    """The printed command replays the same violation."""
    assert report.replay is not None
    argv = shlex.split(report.replay)
    assert argv[:2] == ["p2pcards", "harness"]
    assert main([*argv[1:], "--json"]) == 1
    replayed = json.loads(capsys.readouterr().out)["rule_check"]
    assert (replayed["invariant"], replayed["violation"]) == (report.invariant, report.violation)


def test_a_restore_that_signs_without_waiting_double_signs(capsys: pytest.CaptureFixture[str]) -> None:
    """Class 1: a machine back from the copy before its move moves again, otherwise."""
    report = _found("3", "sign-without-waiting", rc.Bounds(depth=4, cheats=0))
    assert report.invariant == "never-double-sign"
    assert report.path == ["m0", "d1.aefd7c", "r0.1", "m0"]
    _replays(report, capsys)


def test_a_vote_spent_only_by_its_signers_moves_is_completed_late(capsys: pytest.CaptureFixture[str]) -> None:
    """Class 3: seat 0 moved, seat 1 (not holding the move) and the cheater vote it silent at step 0;
    the cheater signed on at step 1, which spends both votes — unless only step messages count."""
    report = _found("3", "spent-by-signer", rc.Bounds(depth=5, steps=2, cheats=2))
    assert report.invariant == "every-voice-spends"
    assert len(report.path) <= 5 and report.path[-1].startswith("D1")
    _replays(report, capsys)


def test_a_minoritys_word_binds_a_seat_that_consented_to_something_else(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Class 4: seat 1 returns to the majority's decision at step 1; the cheater's later move spends that
    decision, and seat 0's lone abandon at the same step — a minority's word — would bind seat 1."""
    report = _found("3", "minority-binds", rc.Bounds(depth=9, cheats=2))
    assert report.invariant == "a-decision-binds-only-by-majority"
    assert "q1" in report.path
    _replays(report, capsys)


def test_the_rule_as_it_is_breaks_nothing_in_a_bounded_check() -> None:
    report = rc.check("3", rc.Bounds(depth=6, cheats=1))
    assert report.violation is None and report.exhaustive, report.to_dict()
    assert report.states > 5_000 and report.deepest == 6
    # The functions the reintroductions replace are back.
    assert claims.restore_wait((1,), 3, (), ()) == (1,)
    assert held.latest.__module__ == "p2pcards.table.held"


@pytest.mark.parametrize(
    ("shape", "path"),
    [
        ("3", "v1-0,c2.v0,D*,q0,d1,r0.1,A0*"),
        ("4", "v1-0,v2-0,c3.v0,D*,q0,d1,r0.1,A0*"),
    ],
)
def test_one_whole_cycle_is_a_path_of_the_depth_the_docs_give(shape: str, path: str) -> None:
    """A vote by a majority, the decision, the named seat's return, a restart from the copy before it,
    and its catch-up: 7 events at 3 voices, 8 at 4 — each one possible where it comes, and nothing
    broken on the way.  (Events are matched by their beginning: a message's id is its hash.)"""
    checker = rc.Checker(rc.SHAPES[shape], rc.Bounds())
    st = checker.start()
    for want in path.split(","):
        nxt = next((s for e, s in checker.events(st) if e.startswith(want)), None)
        assert nxt is not None, want
        checker.check(nxt, st)
        st = nxt
    views = [checker.view(v, st.held[v]) for v in checker.honest]
    assert all(vw.taken is not None and vw.taken.silent == (0,) for vw in views)
    assert st.wait[0] is None and ("q", 0, rc.START, 0) in st.held[0]


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["--shape", "7"], "with --rule-check the shapes are: 3, 4, 5, 5c, 5w"),
        (["--reintroduce", "naive-restore"], "with --rule-check the broken behaviours are"),
        (["--replay", "m0,zz"], "'zz' is not an event"),
        (["--steps", "0"], "--steps must be from 1 to 16"),
        (["--model-check"], "--rule-check goes alone"),
    ],
)
def test_bad_values_are_refused_in_one_line(argv: list[str], error: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["harness", "durak", "--rule-check", *argv])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert error in err and "\n" not in err and "Traceback" not in err


def test_a_replay_whose_event_cannot_happen_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """Seat 1 is not awaited at step 0: its move cannot be the first event."""
    with pytest.raises(SystemExit) as exc:
        main(["harness", "durak", "--rule-check", "--replay", "m0,m1"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "event 2 (m1) cannot happen there" in err and "\n" not in err
