"""Review of the harness itself: it must judge every seed it is given, not crash on one."""

from __future__ import annotations

import pytest

from p2pcards.harness.run import run_game


def test_the_harness_judges_an_equivocation_in_seeded_spades() -> None:
    """``p2pcards harness spades --seed 0 --byzantine 1:equivocate --dealer seeded`` stops with
    "error: below() needs a positive bound" instead of a report: seat 2's move was scheduled at
    step 5 of the first attempt, the verdict dealt the hand again, and at step 5 of the new attempt
    seat 3 is to act."""
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
    0:late-equivocate,2:withhold --faults reorder`` both report FAILED "should be named ... by every
    honest replica": the match is over on every honest replica before the cheater's second message
    (or the evidence relayed by the one replica that got it) reaches the others, and the simulation
    ends with those frames still queued (55 and 26 pending deliveries).  Delivering them afterwards,
    every honest replica names the cheater: the tables are not at fault here, the judge is."""
    report = run_game(game, peers=peers, seed=seed, byzantine=byzantine, fault_spec=faults, dealer=dealer)
    assert report.passed, report.problems
