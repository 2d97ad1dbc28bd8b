"""The one-flaw mutants of our peer that measure the conformance cases (``harness conformance
--mutants``): each rewrites exactly one line, provably changes what that code does, and the score says
which cases catch which."""

from __future__ import annotations

import subprocess
import sys

import pytest

from p2pcards.harness import conformance_mutants as cm
from p2pcards.harness.conformance import CASES, select


@pytest.mark.parametrize("mutant", cm.MUTANTS, ids=[m.name for m in cm.MUTANTS])
def test_every_mutant_changes_what_its_one_line_does(mutant):
    # The line is there exactly once (locate raises otherwise), and a direct call through it answers
    # differently once it is rewritten: no mutant is equivalent by a line that never runs.
    original = cm.locate(mutant)[3]
    ours, theirs = cm.proven(mutant)
    assert ours != theirs, f"{mutant.name}: its proof answers {ours!r} either way"
    # And our code is ours again afterwards.
    assert cm.locate(mutant)[3] is original


def test_the_mutants_cover_every_layer_with_distinct_names():
    names = [m.name for m in cm.MUTANTS]
    assert len(names) == len(set(names)) and len(names) >= 35
    assert {m.layer for m in cm.MUTANTS} == set(cm.LAYERS)
    known = {c.id for c in CASES}
    assert all(set(m.likely) <= known for m in cm.MUTANTS)


def test_a_mutant_is_caught_by_the_first_case_it_fails_and_the_score_counts_per_layer():
    by_name = {m.name: m for m in cm.MUTANTS}
    chosen = [by_name["own-illegal-moves"], by_name["bag-at-eleven"]]
    results = cm.run_mutants(select(CASES, ["2.1.1"]), chosen, processes=2)
    assert [(r.mutant.name, r.caught_by) for r in results] == [("own-illegal-moves", "2.1.1"),
                                                               ("bag-at-eleven", None)]
    assert "took the illegal move" in results[0].detail
    assert cm.score(results) == {"table": (1, 1), "games": (0, 1), "all": (1, 2)}


def test_the_cases_a_flaw_is_about_are_tried_first():
    by_name = {m.name: m for m in cm.MUTANTS}
    order = cm.order_for(by_name["signatures-unchecked"], select(CASES, ["1.1.1", "5.1"]))
    assert [c.id for c in order][:2] == ["5.1.4", "1.1.1"]


CAUGHT = [
    ("non-canonical-accepted", "5.4.1", "in a non-canonical msgpack encoding must be refused as 'malformed'"),
    ("out-of-turn-taken", "5.4.2", "the program failed"),
    ("zero-length-frame", "5.4.5", "a frame of length 0 breaks WIRE.md §3"),
    ("frames-before-close-dropped", "5.4.6", "whole frame before a bad length in the same bytes must be"),
    ("old-step-held", "5.4.4", "must be refused as 'old step'"),
    ("no-catchup-wait", "3.2.3", "two moves for one step (an equivocation of its own)"),
    ("taken-without-consent", "3.3.3", "the program never said so (told, with majority)"),
    ("half-is-majority", "5.3.6", "our replicas named the program's seat"),
    ("others-abandon-binds", "5.3.7", "the program ended (over, by its own word, seats out)"),
    ("votes-per-key", "5.3.8", "the program ended (over, by its own word, seats out)"),
    ("votes-never-spent", "5.3.9", "the program ended (over, by its own word, seats out)"),
    ("tie-at-target-ends", "1.6.2", "seat 2 (the program) named seat 0 bad-message"),
    ("equivocation-unnoticed", "4.1.5", "never named it for equivocation"),
    ("watcher-vote-refused", "1.7.3", "the program has seat 2 out as None; our replica in seat 1, with the "
     "watcher's vote counted, as 'silent'"),
]


@pytest.mark.parametrize(("name", "case_id", "said"), CAUGHT, ids=[c[0] for c in CAUGHT])
def test_a_case_played_move_by_move_catches_the_flaw_it_is_about(name, case_id, said):
    from p2pcards.harness.conformance import run_case

    (mutant,) = [m for m in cm.MUTANTS if m.name == name]
    (case,) = select(CASES, [case_id])
    result = run_case(case, cm.command(mutant))
    assert not result.passed and said in result.detail, result.detail


def test_a_mutant_is_our_peer_with_one_flaw():
    done = subprocess.run([sys.executable, "-m", "p2pcards.harness.conformance_mutants", "no-such"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "say a mutant: signatures-unchecked, " in done.stderr
