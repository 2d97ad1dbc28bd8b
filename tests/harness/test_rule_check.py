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
from p2pcards.table.seating import start_head


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


CLASS_2 = "m0,D*,v0-3,v1-3,v2-3,D*,v1-0,v2-0,D0,q0,c3.a0.c3d4d0.012,d0.661749"
"""Issue 27's class 2 over two attempts (shape ``4o``: the cheater moves second): seat 0 moves; the
three honest seats vote the cheater silent at step 1, and deal the second attempt without it; there
seats 1 and 2 vote seat 0 silent at step 0, and seat 0 returns to that decision; the cheater's abandon at
step 0 of the first attempt, naming the three honest voices (unspent: everyone who signed later there
is named), reaches seat 0."""


@pytest.mark.parametrize(
    ("names", "broken"),
    [
        ((), False),
        (("consent-by-step",), False),
        (("minority-binds",), False),
        (("consent-by-step", "minority-binds"), True),
    ],
)
def test_a_return_by_step_number_lets_a_lone_abandon_of_the_first_attempt_bind(
    names: tuple[str, ...], broken: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    """Class 2 as the issue tells it: the return in the second attempt, read as consent to anything at
    or before its step number, accepts the cheater's abandon in the first — but only with class 4's fix
    undone too: today's ``binds`` takes a decision naming a voice only if it is a majority's or half
    the table's, and the lone abandon is neither."""
    bounds = rc.Bounds(steps=2, attempts=2, cheats=1)
    report = rc.run_replay("durak", "4o", bounds, CLASS_2.split(","), names)
    if not broken:
        assert report.violation is None, report.to_dict()
        return
    assert report.invariant == "a-decision-binds-only-by-majority"
    assert report.violation == ("voice 0's replica takes a word at step 0 (head c3d4d0) naming [0, 1, 2], "
                                "signed by [3]")
    # Shrunk: no event of it can go.
    with rc.reintroduced(names):
        assert rc.shrink(rc.Checker(rc.SHAPES["4o"], bounds), CLASS_2.split(","), report.invariant) == (
            CLASS_2.split(","))
    _replays(report, capsys)


def test_a_decision_deals_the_next_attempt_without_the_seats_it_names() -> None:
    """After the majority's decision, each replica that takes it deals the hand again without seat 0,
    from the head ``seating.start_head`` gives, its steps numbered from the hand's start: there seat 1
    moves first, and the claims of the first attempt are still read (the decision stays taken)."""
    checker = rc.Checker(rc.SHAPES["3"], rc.Bounds(attempts=2))
    st = checker.start()
    for want in ["v1-0", "c2.v0", "D*"]:
        st = next(s for e, s in checker.events(st) if e.startswith(want))
    vw = checker.view(1, st.held[1])
    assert [d.silent for _, d, _ in vw.path] == [(0,)] and vw.taken is None
    assert vw.att.deal.start == start_head(rc.START, [claims.change_of(vw.path[0][1])])
    assert vw.att.deal.holders == (1, 2) and vw.att.step == 0 and vw.att.turn[:2] == (1, 2)
    moved = dict(checker.events(st))
    assert "m1" in moved and ("s", 0, vw.att.deal.start, 1, 0) in moved["m1"].held[1]


@pytest.mark.parametrize("attempts", [1, 2])
def test_the_rule_as_it_is_breaks_nothing_in_a_bounded_check(attempts: int) -> None:
    report = rc.check("3", rc.Bounds(depth=6, cheats=1, attempts=attempts))
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
    ("shape", "bounds"),
    [
        ("3", rc.Bounds(depth=6)),
        ("3", rc.Bounds(depth=5, attempts=2)),
        ("4", rc.Bounds(depth=4, steps=2)),
        ("5w", rc.Bounds(depth=4, steps=2)),
    ],
)
def test_lazy_deliveries_judge_every_held_set_that_every_delivery_at_every_moment_does(
    shape: str, bounds: rc.Bounds
) -> None:
    """The reduction cuts paths, never what is judged: every (voice, held set) a replica reaches, and
    every set of messages signed, with every delivery tried at every moment is reached with deliveries
    only right before an event that reads them — in fewer states."""
    reached = []
    for lazy in (True, False):
        b = rc.Bounds(depth=bounds.depth, steps=bounds.steps, attempts=bounds.attempts, lazy=lazy)
        checker = rc.Checker(rc.SHAPES[shape], b)
        report = rc.Report(shape, b)
        search = rc.Search(checker, report, None)
        search.run()
        assert report.violation is None and report.exhaustive
        reached.append((checker.judged, {st.signed for st in search.seen}, report.states))
    (lazy_held, lazy_signed, lazy_states), (all_held, all_signed, all_states) = reached
    assert lazy_held == all_held and lazy_signed == all_signed
    assert lazy_states < all_states


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
