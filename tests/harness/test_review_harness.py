"""Review of the harness itself: it must judge every seed it is given, not crash on one."""

from __future__ import annotations

from p2pcards.harness.run import run_game


def test_the_harness_judges_an_equivocation_in_seeded_spades() -> None:
    """``p2pcards harness spades --seed 0 --byzantine 1:equivocate --dealer seeded`` stops with
    "error: below() needs a positive bound" instead of a report: seat 2's move was scheduled at
    step 5 of the first attempt, the verdict dealt the hand again, and at step 5 of the new attempt
    seat 3 is to act."""
    report = run_game("spades", peers=4, seed=0, byzantine={1: "equivocate"}, dealer="seeded")
    assert report.passed, report.problems
