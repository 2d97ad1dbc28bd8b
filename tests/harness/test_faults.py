"""The fault matrix and the byzantine seats over the simulated network (see p2pcards.harness).

Every run is judged by ``run_game``: every honest replica finishes and agrees with the others, none
crashes, none loses a hand it held sealed, no honest seat is named a cheater, and the cheater is
named by every honest replica wherever it signed something that proves it.

Most single cheaters are played by the conformance cases (``test_conformance.py``), where the same
judge holds our in-process replicas and a seat run through the harness pipe alike; what is here are
the scenarios no case plays."""

import pytest

from p2pcards.games import registry
from p2pcards.harness.byzantine import BEHAVIOURS
from p2pcards.harness.conformance import CASES
from p2pcards.harness.network import Faults
from p2pcards.harness.run import run_game

GAMES = [(entry.name, entry.seats) for entry in registry.entries()]
LONGER = {entry.name: dict(entry.longer) for entry in registry.entries()}
"""Matches of several hands (each game's registration's), so that a seat can leave, be voted out and
come back, and sealed hands exist for late attacks to aim at."""


@pytest.mark.parametrize(("game", "peers"), [("durak", 3), ("azi", 4)])  # Spades: case 3.4.1
def test_every_fault_at_once_and_the_honest_replicas_still_finish_and_agree(game, peers):
    report = run_game(game, peers=peers, seed=1, fault_spec="all")
    assert report.passed, report.problems
    assert report.finished and report.agree and report.crashes == []
    assert report.verdicts == ["ok"] * peers


@pytest.mark.parametrize(
    ("game", "peers", "behaviour", "verdict", "dealer"),
    [
        ("durak", 3, "withhold", "silent", "seeded"),
        ("durak", 3, "zero-key", "bad-message", "mental"),  # no case: it reads every other seat's keys
    ],
)
def test_every_honest_replica_names_the_cheater_and_plays_on(game, peers, behaviour, verdict, dealer):
    seat = peers - 1 if behaviour == "zero-key" else 1
    report = run_game(
        game, peers=peers, seed=1, dealer=dealer, byzantine={seat: behaviour}, options=LONGER[game]
    )
    assert report.passed, report.problems
    assert report.verdicts == [f"seat {seat} {verdict}"] * (peers - 1)
    assert report.crashes == [] and report.sealed_lost == 0 and report.honest_convicted == []


def test_a_seat_that_leaves_for_good_is_voted_out_and_the_others_finish():
    for game, peers in GAMES:
        report = run_game(
            game, peers=peers, seed=2, dealer="seeded", fault_spec="leave", options=LONGER[game]
        )
        assert report.passed, (game, report.problems)
        assert report.finished and report.sealed_lost == 0


@pytest.mark.parametrize(
    "game, behaviour", [("durak", "withhold"), ("durak", "wrong-head"), ("spades", "withhold")]
)
def test_when_a_cheater_and_a_seat_that_leaves_leave_too_few_the_honest_seats_end_the_match(game, behaviour):
    """One seat withholds its shares (or binds its moves to a wrong head) and another leaves for
    good: no vote can reach more than half, so the honest seats end the match, naming both."""
    peers = dict(GAMES)[game]
    report = run_game(game, peers=peers, seed=1, fault_spec="leave", byzantine={1: behaviour})
    assert report.passed, report.problems
    assert report.finished and report.sealed_lost == 0


def test_a_weak_identity_key_is_refused_before_any_game():
    report = run_game("durak", peers=3, seed=1, byzantine={1: "weak-key"})
    assert report.passed and "small order" in report.genesis_refused


@pytest.mark.parametrize("behaviour", ["equivocate", "bad-share", "renege"])
def test_cheaters_are_named_alike_through_a_faulty_network(behaviour):
    report = run_game("spades", peers=4, seed=3, fault_spec="all", byzantine={2: behaviour})
    assert report.passed, report.problems
    assert len(set(report.verdicts)) == 1


def test_every_behaviour_is_played_here_or_by_a_conformance_case():
    import ast
    import pathlib

    here = {
        node.value
        for node in ast.walk(ast.parse(pathlib.Path(__file__).read_text()))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    by_cases = {kind for case in CASES for _, kind in case.byzantine}
    untested = sorted(set(BEHAVIOURS) - here - by_cases)
    assert untested == []


def test_a_seed_replays_exactly():
    a = run_game("durak", peers=3, seed=5, fault_spec="all")
    b = run_game("durak", peers=3, seed=5, fault_spec="all")
    assert a.to_dict() == b.to_dict()


@pytest.mark.parametrize("dealer", ["seeded", "mental"])
def test_a_renege_beside_an_open_dummy_names_the_reneging_seat_and_the_game_goes_on(dealer):
    # The open dummy's move is computed from the public history; a renege that the public cards show
    # is found there first, and it is the reneging seat's, never a fault of nobody's.
    report = run_game("spades", peers=4, seed=1, dealer=dealer, byzantine={0: "withhold", 2: "renege"})
    assert report.passed, report.problems
    assert report.verdicts == ["seat 0 silent; seat 2 renege"] * 2


def test_the_crash_fault_may_draw_its_victim_before_its_moment():
    """``victim-first`` is a crash with its two draws in the other order: the same seed kills at
    another moment, so a seed list run both ways tries other crashes (issue 27 asks for both)."""
    assert Faults.parse("victim-first") == Faults(crash=True, victim_first=True)
    assert Faults.parse("all,victim-first").victim_first and not Faults.parse("all").victim_first
    first = run_game("durak", peers=3, seed=5, dealer="seeded", fault_spec="crash")
    other = run_game("durak", peers=3, seed=5, dealer="seeded", fault_spec="victim-first")
    assert first.passed and other.passed, (first.problems, other.problems)
    assert (first.frames, first.sim_ms) != (other.frames, other.sim_ms)


@pytest.mark.parametrize("crash", ["crash", "victim-first"])
def test_a_crash_beside_a_seat_that_rolls_back_convicts_no_honest_seat_in_either_order(crash):
    """Issue 27, class 1, as the harness once showed it: Durak, seed 18, a seat that restarts from an
    older journal, with every fault — the crash's victim drawn first convicted an honest seat."""
    report = run_game("durak", peers=4, seed=18, fault_spec=f"all,{crash}", byzantine={1: "rollback"})
    assert report.passed, report.problems
    assert report.honest_convicted == [] and report.sealed_lost == 0


def test_a_seat_restoring_while_a_cheater_is_away_goes_with_the_half_that_went_on():
    """Four seats: seat 3 restores from its journal while seat 2, a cheater, is away, and waits for its
    answer (no clock ends that wait); seats 0 and 1, half the table, go on without 2 and 3 by their
    word.  Seat 3 consents to that word (half and its consent: more than half, SPEC §6.5) instead of
    waiting for ever, so the honest replicas end alike rather than split."""
    report = run_game("durak", peers=4, seed=4, fault_spec="all", byzantine={2: "return"})
    assert report.passed, report.problems
    assert report.finished and report.agree and report.honest_convicted == []


def test_the_network_model_plays_a_seat_that_comes_back_and_watches_to_the_end() -> None:
    """The harness's simulated network (issue 30): a seat that vanishes, is voted out, and comes back
    to watch rather than return consents to being out, asks nothing, and follows the others to the
    end: the same hands, the same digest, its match over."""
    report = run_game("durak", peers=3, seed=1, byzantine={2: "watch"}, dealer="seeded",
                      options={"series_hands": 12})
    assert report.passed and report.finished and report.agree, report.problems
    assert report.returns == 0 and report.hands_after_leave > 0
    watcher, others = report.ends[2], [report.ends[s] for s in (0, 1)]
    assert watcher.told, "it was told that the others went on without it"
    assert watcher.over and watcher.out == (2,) and not watcher.left_behind
    assert all(o.digest == watcher.digest and o.sealed == watcher.sealed for o in others)
