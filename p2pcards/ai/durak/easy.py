"""Easy: the beginner's rules of the rules page, nothing more.

* attacks with its lowest card (non-trumps before trumps, low ranks first);
* defends with the smallest card that beats (the same order); when it cannot beat, transfers with its
  lowest card of the rank if it may (``transfer=on``), else takes;
* never throws in: in every throw-in round it passes (it only plays the moves named above).
"""

from __future__ import annotations

from p2pcards.ai.durak.common import beaters, lowest
from p2pcards.games.base import UNKNOWN, Action, Rules, View
from p2pcards.games.durak import actions as A
from p2pcards.games.durak.state import DurakView
from p2pcards.games.rng import Rng


class EasyPlayer:
    level = "easy"

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        self.rules = rules
        self.rng = Rng(seed)  # not used: Easy is a pure function of the view

    def choose(self, view: View) -> Action:
        assert isinstance(view, DurakView)
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        t = view.trump_suit
        if view.phase == "lead":
            return A.attack(lowest(view.hand, t))
        if view.phase == "defend":
            for a, d in view.table:
                if d == UNKNOWN:
                    bs = beaters(view.hand, a, t)
                    if bs:
                        return A.beat(a, lowest(bs, t))
                    break
            transfers = [x - A.TRANSFER for x in legal if x >= A.TRANSFER]
            return A.transfer(lowest(transfers, t)) if transfers else A.TAKE
        if view.phase == "throw-in":
            return A.PASS
        return legal[0]
