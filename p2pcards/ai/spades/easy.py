"""Easy: the beginner's rules of the rules page, nothing more.

* bids the number of its aces and kings (at least 1: Easy never bids nil);
* with blind nil (S16) never bids it: it looks at its cards first;
* plays the lowest legal card (by rank; among equal ranks the lower suit, spades last).
"""

from __future__ import annotations

from p2pcards.games.base import Action, Rules
from p2pcards.games.rng import Rng
from p2pcards.games.spades.state import BID0, BLIND_NIL, LOOK, SpadesView


def easy_bid(hand: tuple[int, ...] | list[int]) -> int:
    """Aces and kings counted, at least 1."""
    return max(1, sum(1 for c in hand if c % 13 >= 11))


class EasyPlayer:
    level = "easy"

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        self.rules = rules
        self.rng = Rng(seed)  # not used: Easy is a pure function of the view

    def choose(self, view: SpadesView) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        if legal[0] == BLIND_NIL:
            return LOOK
        if legal[0] >= BID0:
            return BID0 + easy_bid(view.hand)
        return min(legal, key=lambda c: (c % 13, c >= 39, c))
