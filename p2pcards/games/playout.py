"""Random legal playouts with a seeded dealer: for simulations, benchmarks and property tests."""

from __future__ import annotations

from collections.abc import Sequence

from p2pcards.games.base import CHANCE, TERMINAL, Deal, Disclose, HandState, Match, Reveal
from p2pcards.games.cards import Card
from p2pcards.games.rng import Rng


def fulfil_from(state: HandState, deck: Sequence[Card]) -> None:
    """Fulfil the state's need with full information from a known deck order."""
    need = state.need
    assert need is not None
    ps = need.positions() if isinstance(need, Deal) else need.positions
    state.fulfil({p: deck[p] for p in ps})


def random_hand(state: HandState, rng: Rng) -> HandState:
    """Play ``state`` to its end: a shuffled deck for the needs, a uniform legal action per turn."""
    deck = list(state.rules.deck)
    rng.shuffle(deck)
    while True:
        to_act = state.to_act
        if to_act >= 0:
            state.apply(rng.choice(state.legal_actions()))
        elif to_act == CHANCE:
            fulfil_from(state, deck)
        else:
            assert to_act == TERMINAL
            return state


def random_match(match: Match, rng: Rng, max_hands: int = 10_000) -> tuple[Match, int]:
    """Play a whole match at random; returns the finished match and the number of hands played."""
    hands = 0
    while not match.over and hands < max_hands:
        match = match.settle(random_hand(match.new_hand(), rng))
        hands += 1
    return match, hands


def learned_by(seat: int, state: HandState, deck: Sequence[Card]) -> dict[int, Card]:
    """The values that ``seat``'s replica learns when the state's need is fulfilled: its own dealt
    cards (if disclosed), its disclosed cards, and every revealed card."""
    need = state.need
    if isinstance(need, Deal):
        if not need.disclose:
            return {}
        return {p: deck[p] for s, ps in need.hands if s == seat for p in ps}
    if isinstance(need, Disclose):
        return {p: deck[p] for p in need.positions} if need.seat == seat else {}
    assert isinstance(need, Reveal)
    return {p: deck[p] for p in need.positions}
