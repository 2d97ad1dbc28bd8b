"""Easy: the beginner's rules of the rules page, nothing more.

* **Bets by counting its trumps and aces** (the six on stage is a trump; the ace of trumps counts
  twice): none — fold; one — open with the minimum or call (up to five antes); two or more — open
  with an ante per count, or raise once by an ante per count beyond the first, and call anything.
* It always looks at its cards first (it never bets blind), never buys into an azi replay, and with
  four cards discards its lowest card.
* **Plays the lowest legal card that can win the trick, else the lowest** (plain cards before
  trumps, low ranks first).  Leading, every card wins the empty trick, so it leads its lowest.
"""

from __future__ import annotations

from p2pcards.ai.azi.common import CALL, FOLD, RAISE, bid_action, lowest, plays, power, trick_best
from p2pcards.games.azi import AziView
from p2pcards.games.azi import actions as act
from p2pcards.games.base import Action, Rules
from p2pcards.games.cards import ACE
from p2pcards.games.rng import Rng

CALL_LIMIT = 5
"""With one trump or ace, Easy calls up to this many antes."""


def count(view: AziView) -> int:
    """Trumps plus aces in the hand (the ace of trumps counts twice)."""
    t, top = view.trump_suit, view.top_card
    return sum((c // 13 == t or c == top) + (c % 13 + 2 == ACE) for c in view.hand)


class EasyPlayer:
    level = "easy"

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        self.rules = rules
        self.rng = Rng(seed)  # not used: Easy is a pure function of the view

    def choose(self, view: AziView) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        ph = view.phase
        if ph == "buy-in":
            return act.DECLINE
        if act.LOOK in legal:
            return act.LOOK
        if ph == "discard":
            t, top = view.trump_suit, view.top_card
            return act.discard(view.hand.index(lowest(view.hand, t, top)))
        if ph == "play":
            return act.play(self.card(view))
        return self.bid(view)

    def bid(self, view: AziView) -> Action:
        me = view.seat
        n = count(view)
        ante = self.rules.option("ante")
        opened = view.level > 0
        if n == 0:
            return act.FOLD
        if n == 1:
            if opened and view.call_cost > CALL_LIMIT * ante:
                return act.FOLD
            return bid_action(view, CALL, 0)
        if not opened:
            return bid_action(view, RAISE, ante * n)
        if view.raises[me] == 0:
            return bid_action(view, RAISE, ante * (n - 1))
        return bid_action(view, CALL, 0) if act.CALL in view.legal_actions or act.ALLIN in \
            view.legal_actions else bid_action(view, FOLD, 0)

    @staticmethod
    def card(view: AziView) -> int:
        t, top = view.trump_suit, view.top_card
        cards = plays(view.legal_actions)
        best, _ = trick_best(view.trick, t, top)
        if view.trick:
            led = view.trick[0][1] // 13
            winners = [c for c in cards if power(c, led, t, top) > best]
            if winners:
                return min(winners, key=lambda c: (power(c, led, t, top), c))
        return lowest(cards, t, top)
