"""The fault matrix and the byzantine seats over the simulated network (see p2pcards.harness)."""

import pytest

from p2pcards.harness.run import run_game

GAMES = [("durak", 3), ("spades", 4), ("azi", 4)]


@pytest.mark.parametrize(("game", "peers"), GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_fault_at_once_and_the_honest_replicas_still_finish_and_agree(game, peers, seed):
    report = run_game(game, peers=peers, seed=seed, fault_spec="all")
    assert report.passed, report.problems
    assert report.finished and report.agree and report.crashes == []
    assert report.verdicts == ["ok"] * peers


@pytest.mark.parametrize(
    ("game", "peers", "behaviour", "verdict"),
    [
        ("durak", 3, "equivocate", "equivocation"),
        ("spades", 4, "equivocate", "equivocation"),
        ("spades", 4, "bad-proof", "bad-message"),
        ("azi", 4, "bad-proof", "bad-message"),
        ("durak", 4, "bad-share", "bad-message"),
        ("azi", 3, "illegal", "illegal-action"),
        ("durak", 3, "illegal", "illegal-action"),
        ("spades", 4, "renege", "renege"),
        ("spades", 4, "wrong-head", "silent"),
        ("durak", 3, "withhold", "silent"),
    ],
)
def test_every_honest_replica_names_the_cheater(game, peers, behaviour, verdict):
    report = run_game(game, peers=peers, seed=1, fault_spec="none", byzantine={1: behaviour})
    assert report.passed, report.problems
    assert report.verdicts == [f"seat 1 {verdict}"] * (peers - 1)
    assert report.crashes == []


@pytest.mark.parametrize("behaviour", ["equivocate", "bad-share", "renege"])
def test_cheaters_are_named_alike_through_a_faulty_network(behaviour):
    report = run_game("spades", peers=4, seed=3, fault_spec="all", byzantine={2: behaviour})
    assert report.passed, report.problems
    assert len(set(report.verdicts)) == 1


@pytest.mark.parametrize("behaviour", ["foreign", "malformed", "oversized"])
def test_bad_frames_are_refused_against_their_link_and_the_game_goes_on(behaviour):
    report = run_game("durak", peers=3, seed=1, byzantine={0: behaviour})
    assert report.passed, report.problems
    assert report.refused_frames >= 2
    assert report.finished and report.verdicts == ["ok", "ok"]


def test_a_seed_replays_exactly():
    a = run_game("durak", peers=3, seed=5, fault_spec="all")
    b = run_game("durak", peers=3, seed=5, fault_spec="all")
    assert a.to_dict() == b.to_dict()
