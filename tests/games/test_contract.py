"""The contract every game keeps, checked the same way on all three over random legal playouts."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards import games
from p2pcards.games import CHANCE, TERMINAL, ActionError
from p2pcards.games.base import HandState
from p2pcards.games.playout import fulfil_from
from p2pcards.games.rng import Rng

TABLES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("durak", {"players": 2}),
    ("durak", {"players": 4}),
    ("durak", {"players": 6}),
    ("spades", {}),
    ("azi", {"players": 2}),
    ("azi", {"players": 4, "deal": 4}),
    ("azi", {"players": 6, "blind": False}),
)
SEEDS = st.integers(min_value=0, max_value=2**32)
NOT_ACTIONS: tuple[object, ...] = (True, False, 1.0, 0.0, "3", "0", None, 2**70, -5)


def _states(game: str, options: dict[str, Any], seed: int) -> list[HandState]:
    """Every state at which a seat acts, along one random hand."""
    rules = games.load(game, **options)
    rng = Rng(seed)
    state = rules.new_match(rng.below(rules.players)).new_hand()
    deck = list(rules.deck)
    rng.shuffle(deck)
    out = []
    while state.to_act != TERMINAL:
        if state.to_act == CHANCE:
            fulfil_from(state, deck)
        else:
            out.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize(("game", "options"), TABLES)
@settings(max_examples=8, deadline=None)
@given(seed=SEEDS)
def test_an_action_is_an_int_that_is_not_a_bool(game: str, options: dict[str, Any], seed: int) -> None:
    """Issue 10: ``apply(True)``, ``apply(1.0)``, ``apply("3")`` are refused in every game and phase,
    and refusing them changes nothing."""
    for state in _states(game, options, seed):
        before, legal = state.digest(), state.legal_actions()
        for bad in NOT_ACTIONS:
            with pytest.raises(ActionError):
                state.apply(bad)  # type: ignore[arg-type]
            assert state.reveals(bad) == ()  # type: ignore[arg-type]
        assert state.digest() == before and state.legal_actions() == legal
