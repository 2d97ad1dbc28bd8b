"""Helpers shared by the Azi tests: decks built for a scenario, and replicas driven in lockstep."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from p2pcards import games
from p2pcards.games import CHANCE, TERMINAL, testing
from p2pcards.games.azi import AziHand, AziRules
from p2pcards.games.azi import actions as act
from p2pcards.games.azi.config import AziConfig
from p2pcards.games.base import Action
from p2pcards.games.cards import Card, parse_card
from p2pcards.games.playout import fulfil_from, learned_by
from p2pcards.games.rng import Rng

Policy = Callable[[AziHand, Rng], Action]

AZI_HANDS = {0: "AH 6D 10D", 1: "7H AD 6S", 2: "8H 7D 9S"}
"""Three players, dealer 2, spades trump (9S turned up): seats 0, 1 and 2 can take a trick each."""


def rules(**options: Any) -> AziRules:
    r = games.load("azi", **options)
    assert isinstance(r, AziRules)
    return r


def C(text: str) -> Card:
    return parse_card(text)


def cards(text: str) -> list[Card]:
    return [C(t) for t in text.split()]


def deck_for(r: AziConfig, dealer: int, hands: Mapping[int, str],
             seats: Sequence[int] | None = None) -> list[Card]:
    """A deck order that deals ``hands`` (seat -> "AH 6D 10D", in dealt order) to the seats in the hand
    (``seats``, default: the seats of ``hands``), laid out by the engine's own deal for those seats."""
    in_hand = tuple(sorted(hands) if seats is None else seats)
    hand = testing.deal(r, hands, dealer=dealer, setup={"seats": in_hand})
    assert sorted(hand.deck) == sorted(r.deck), "a scenario deals a card twice or one outside the deck"
    return hand.deck


def drive(state: AziHand, deck: Sequence[Card]) -> AziHand:
    """Fulfil every need with full information until a seat must act or the hand is over."""
    while state.to_act == CHANCE:
        fulfil_from(state, deck)
    return state


def play(state: AziHand, deck: Sequence[Card], *texts: str) -> AziHand:
    """Apply actions in text form (fulfilling needs around them)."""
    drive(state, deck)
    for t in texts:
        state.apply_text(t)
        drive(state, deck)
    return state


def start(r: AziConfig, deck: Sequence[Card], **setup: Any) -> AziHand:
    return drive(AziHand(r, setup), deck)


def verb_policy(state: AziHand, rng: Rng) -> Action:
    """A random legal action, the verb first (so folds, calls and plays are as likely as a raise),
    with small amounts more likely than large ones."""
    legal = state.legal_actions()
    groups: dict[str, list[Action]] = {}
    for a in legal:
        key = act.text(a).split()[0]
        groups.setdefault(key, []).append(a)
    keys = sorted(groups)
    if "fold" in groups and len(keys) > 1 and rng.below(3):
        keys.remove("fold")
    group = groups[rng.choice(keys)]
    if act.is_amount(group[0]) and rng.below(2):
        return group[min(len(group) - 1, rng.below(3))]
    return rng.choice(group)


class Lockstep:
    """A full-information replica and one partial replica per seat, driven together."""

    def __init__(self, r: AziConfig, setup: Mapping[str, Any], deck: Sequence[Card]) -> None:
        self.rules = r
        self.deck = list(deck)
        self.full = AziHand(r, setup)
        self.parts = [AziHand(r, setup) for _ in range(r.n)]

    def step(self, policy: Policy, rng: Rng) -> None:
        """Fulfil the need, or let the seat to act choose from its own replica."""
        full = self.full
        if full.to_act == CHANCE:
            for s, p in enumerate(self.parts):
                p.fulfil(learned_by(s, full, self.deck))
            fulfil_from(full, self.deck)
            return
        self.act(policy(self.parts[full.to_act], rng))

    def deal(self) -> None:
        """Fulfil needs until a seat must act."""
        while self.full.to_act == CHANCE:
            self.step(verb_policy, Rng(0))

    def act(self, a: Action) -> None:
        actor = self.full.to_act
        shown = self.parts[actor].reveals(a)
        assert shown == self.full.reveals(a)
        for p in self.parts:
            for pos in shown:
                p.observe(pos, self.deck[pos])
            p.apply(a)
        self.full.apply(a)

    @property
    def over(self) -> bool:
        return self.full.to_act == TERMINAL


def test_deck_for_deals_the_chosen_cards_clockwise_from_the_dealers_left() -> None:
    r = rules(players=3, blind=False)
    deck = deck_for(r, 2, {0: "AH 6D 10D", 1: "7H AD 6S", 2: "8H 7D 9S"})
    st = start(r, deck, dealer=2)
    assert [sorted(st.card_at[p] for p in st.hands[s]) for s in range(3)] == [
        sorted(cards("AH 6D 10D")), sorted(cards("7H AD 6S")), sorted(cards("8H 7D 9S"))]
