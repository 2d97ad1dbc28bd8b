"""The structure-aware fuzzer of ``Table.receive`` finds nothing (``p2pcards.harness.fuzz``): re-signed
mutations of real frames, nesting of every kind and replays never make a replica raise, never split
the replicas of a game, and never get an innocent seat named."""

import pytest

from p2pcards.games import registry
from p2pcards.harness.fuzz import fuzz


@pytest.mark.parametrize(("game", "peers"), [(entry.name, entry.seats) for entry in registry.entries()])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mutated_frames_find_nothing(game: str, peers: int, seed: int) -> None:
    report = fuzz(game, peers=peers, seed=seed, budget=250, rate=3)
    assert report.mutations > 20, "the match was long enough to be fuzzed"
    assert report.crashes == [], report.crashes[:3]
    assert report.finished and report.agree and report.framed == []


def test_a_run_replays_exactly() -> None:
    a, b = fuzz("durak", seed=7, budget=100), fuzz("durak", seed=7, budget=100)
    assert (a.frames, a.mutations, a.refused) == (b.frames, b.mutations, b.refused)
