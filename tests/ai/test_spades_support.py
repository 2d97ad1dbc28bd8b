"""Chosen Spades deals for the computer players' tests (helpers only: no tests here)."""

from __future__ import annotations

from p2pcards.games import Deal, load
from p2pcards.games.cards import parse_card
from p2pcards.games.spades import Rules, SpadesState
from p2pcards.games.spades.state import trick_winner


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def spades(**options: object) -> Rules:
    rules = load("spades", **options)
    assert isinstance(rules, Rules)
    return rules


def deck_for(hands: dict[int, list[int]], dealer: int) -> list[int]:
    """A deck order dealing exactly ``hands`` (seat -> 13 cards), one at a time from the dealer's left."""
    deck = [-1] * 52
    for seat, cs in hands.items():
        assert len(cs) == 13, (seat, len(cs))
        for i, p in enumerate(range((seat - dealer - 1) % 4, 52, 4)):
            deck[p] = cs[i]
    assert sorted(deck) == list(range(52))
    return deck


def complete(hands: dict[int, str]) -> dict[int, list[int]]:
    """Hands given as text for some seats; every other seat gets 13 of the cards nobody holds, in order."""
    given = {seat: cards(t) for seat, t in hands.items()}
    rest = sorted(set(range(52)) - {c for cs in given.values() for c in cs})
    for seat in range(4):
        if seat not in given:
            given[seat], rest = rest[:13], rest[13:]
    return given


def deal(hands: dict[int, list[int]], dealer: int, bids: list[int] | tuple[int, ...] = (),
         rules: Rules | None = None, **setup: object) -> SpadesState:
    """A full-information hand dealt from ``hands``, with ``bids`` made (in bidding order)."""
    rules = rules or spades()
    deck = deck_for(hands, dealer)
    state = rules.new_hand({"dealer": dealer, **setup})
    need = state.need
    assert isinstance(need, Deal)
    state.fulfil({p: deck[p] for p in need.positions()})
    for b in bids:
        state.apply(52 + b)
    return state


def after_tricks(end: dict[int, str], tricks: list[str], dealer: int, bids: list[int],
                 rules: Rules | None = None) -> SpadesState:
    """A hand whose first tricks are ``tricks`` (each four cards in play order, led by the winner of
    the trick before) and whose seats hold ``end`` afterwards."""
    hands = {s: cards(end[s]) for s in range(4)}
    plays: list[int] = []
    leader = (dealer + 1) % 4
    for t in tricks:
        cs = cards(t)
        seats = [(leader + i) % 4 for i in range(4)]
        for s, c in zip(seats, cs, strict=True):
            hands[s].append(c)
            plays.append(c)
        leader = trick_winner(list(zip(seats, cs, strict=True)))
    state = deal({s: sorted(h) for s, h in hands.items()}, dealer, bids, rules)
    for c in plays:
        state.apply(c)
    return state


FILLER = ["2C 3C 4C 5C", "6C 7C 8C 9C", "2D 3D 4D 5D", "6D 7D 8D 9D", "2H 3H 4H 5H", "6H 7H 8H 9H",
          "TH JH QH 2S", "3S 4S 5S 6S", "TS 7S 8S 9S"]
"""Nine tricks, dealer 3: won by seats 3, 2, 1, 0, 3, 2, 1 (ruffing the hearts: seat 1 is void in
hearts, spades are broken), 0, 0; seat 0 leads the tenth.  Tricks: seat 0 three, the others two."""

END = {0: "AS KS AH KH", 1: "QS JS TC JC", 2: "QC KC AC TD", 3: "JD QD KD AD"}
"""The last four tricks' cards after ``FILLER``: seat 0 holds the top spades and the last hearts."""
