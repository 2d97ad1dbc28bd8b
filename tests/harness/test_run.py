"""The harness run itself: it must judge every seed it is given, not crash on one."""

from __future__ import annotations

import pytest

from p2pcards.harness.run import run_game


def test_the_harness_judges_an_equivocation_in_seeded_spades() -> None:
    """``p2pcards harness spades --seed 0 --byzantine 1:equivocate --dealer seeded`` must judge the
    game and pass.  The verdict on seat 1 deals the hand again, and a move the harness scheduled in
    the first attempt (seat 2's, at step 5) must not be asked of whoever is to act at that step of
    the new attempt (seat 3): the harness gives a report, not an error."""
    report = run_game("spades", peers=4, seed=0, byzantine={1: "equivocate"}, dealer="seeded")
    assert report.passed, report.problems


@pytest.mark.parametrize(
    ("game", "peers", "seed", "byzantine", "faults", "dealer"),
    [
        ("durak", 5, 1, {1: "late-equivocate", 3: "bad-share"}, "drop,reorder", "seeded"),
        ("azi", 4, 2, {0: "late-equivocate", 2: "withhold"}, "reorder", "mental"),
    ],
)
def test_the_harness_delivers_a_late_equivocation_before_it_judges(
    game: str, peers: int, seed: int, byzantine: dict[int, str], faults: str, dealer: str
) -> None:
    """``p2pcards harness durak --peers 5 --seed 1 --byzantine 1:late-equivocate,3:bad-share --faults
    drop,reorder --dealer seeded`` and ``p2pcards harness azi --peers 4 --seed 2 --byzantine
    0:late-equivocate,2:withhold --faults reorder`` must both pass.  The match can be over on every
    honest replica before the cheater's second message (or the evidence relayed by the one replica
    that got it) reaches the others; the harness delivers the frames still in flight before it
    judges, and then every honest replica names the cheater."""
    report = run_game(game, peers=peers, seed=seed, byzantine=byzantine, fault_spec=faults, dealer=dealer)
    assert report.passed, report.problems
