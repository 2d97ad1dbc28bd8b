from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.ai.sampling import sample_assignment
from p2pcards.games.rng import Rng


def suit(c: int) -> int:
    return c // 13


@given(st.integers(0, 2**32), st.integers(0, 3))
@settings(max_examples=50)
def test_a_shown_void_is_respected(seed, void_suit):
    cards = list(range(52))
    groups = [0] * 13 + [1] * 13 + [2] * 13
    out = sample_assignment(Rng(seed), groups, cards, lambda g, c: not (g == 0 and suit(c) == void_suit))
    assert out is not None
    assert len(set(out)) == len(out) == 39
    assert all(suit(c) != void_suit for c in out[:13])


def test_tight_constraints_are_solved_exactly():
    # Group 0 may hold only hearts, group 1 only hearts or clubs: greedy often fails, matching must not.
    hearts = list(range(26, 39))
    clubs = list(range(13))
    groups = [1] * 13 + [0] * 13
    out = sample_assignment(Rng(5), groups, hearts + clubs,
                            lambda g, c: suit(c) == 2 or (g == 1 and suit(c) == 0), tries=0)
    assert out is not None
    assert sorted(out[13:]) == hearts
    assert sorted(out[:13]) == clubs


def test_contradictions_are_reported_not_hidden():
    assert sample_assignment(Rng(1), [0, 0], [1, 2, 3], lambda g, c: c == 1) is None
    assert sample_assignment(Rng(1), [0, 0, 0], [1, 2]) is None


def test_same_seed_same_deal():
    groups = [0] * 5 + [1] * 5
    a = sample_assignment(Rng(9), groups, list(range(20)), lambda g, c: c % 2 == g)
    b = sample_assignment(Rng(9), groups, list(range(20)), lambda g, c: c % 2 == g)
    assert a == b
