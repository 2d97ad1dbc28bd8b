"""The conformance judge cannot be fooled by a program that does nothing and says it did: one that runs
a real replica for the setup and then plays no card (``idle_peer.py``) fails every case in which it is
asked to play, whatever it claims in its status; our own peer passes them all (test_conformance.py).

Here a sample runs: 19 (mode, case) pairs in three modes (``SWEEP``: 17 cases, from 14 of the case
groups); the whole sweep, every case (74 today) for one mode, is
``p2pcards harness conformance --peer 'python tests/harness/idle_peer.py MODE'``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from p2pcards.harness.conformance import CASES, run_case, select

IDLE = f"{sys.executable} {Path(__file__).with_name('idle_peer.py')}"

SWEEP = [
    ("abandon-claims", "1.1.1"), ("abandon-claims", "1.3.2"), ("abandon-claims", "2.1.1"),
    ("abandon-claims", "4.3.1"), ("abandon-claims", "4.4.2"), ("abandon-claims", "5.1.3"),
    ("abandon-claims", "5.3.4"),
    ("abandon", "1.4.1"), ("abandon", "3.1.3"), ("abandon", "4.1.2"),
    ("abandon-claims", "1.7.1"), ("abandon", "1.7.2"), ("abandon", "1.7.3"),
    ("follow", "1.2.1"), ("follow", "1.7.3"), ("follow", "3.3.2"), ("follow", "4.1.1"), ("follow", "5.3.4"),
    ("follow", "5.4.1"),
]


@pytest.mark.parametrize(("mode", "case_id"), SWEEP, ids=[f"{m}-{c}" for m, c in SWEEP])
def test_a_program_that_plays_no_card_fails_every_case_that_asks_it_to_play(mode, case_id):
    (case,) = select(CASES, [case_id])
    result = run_case(case, f"{IDLE} {mode}")
    assert not result.passed, result.detail
    # The root cause comes first, before what followed from it.
    first = f"seat {case.under[0]} (the program) made no move of its own"
    assert result.detail.startswith(first), result.detail


def test_a_program_that_claims_every_verdict_is_told_which_it_should_not_have_reached():
    (case,) = select(CASES, ["4.1.1"])
    result = run_case(case, f"{IDLE} abandon-claims")
    claimed = ("seat 2 (the program) named seat 1 bad-message, seat 1 bad-proof, seat 1 equivocation, "
               "seat 1 illegal-action, seat 1 renege, seat 1 silent, which none of our replicas did")
    assert claimed in result.detail
    assert "seat 2 (the program) ended the match by its own word (abandoned); our replicas ended the match " \
        "over" in result.detail
