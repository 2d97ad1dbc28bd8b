"""The one-flaw mutants of our peer that measure the conformance cases (``harness conformance
--mutants``): each rewrites exactly one line, and the score says which cases catch which."""

from __future__ import annotations

import subprocess
import sys

import pytest

from p2pcards.harness import conformance_mutants as cm
from p2pcards.harness.conformance import CASES, select


@pytest.mark.parametrize("mutant", cm.MUTANTS, ids=[m.name for m in cm.MUTANTS])
def test_every_mutant_finds_its_one_line(mutant):
    cm.locate(mutant)  # raises unless the line it changes is there exactly once


def test_a_mutant_is_caught_by_the_first_case_it_fails_and_the_score_counts_per_layer():
    by_name = {m.name: m for m in cm.MUTANTS}
    chosen = [by_name["own-illegal-moves"], by_name["bag-at-eleven"]]
    results = cm.run_mutants(select(CASES, ["2.1.1"]), chosen)
    assert [(r.mutant.name, r.caught_by) for r in results] == [("own-illegal-moves", "2.1.1"),
                                                               ("bag-at-eleven", None)]
    assert "took the illegal move" in results[0].detail
    assert cm.score(results) == {"table": (1, 1), "games": (0, 1), "all": (1, 2)}


def test_a_mutant_is_our_peer_with_one_flaw():
    done = subprocess.run([sys.executable, "-m", "p2pcards.harness.conformance_mutants", "no-such"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "say a mutant: signatures-unchecked, " in done.stderr
