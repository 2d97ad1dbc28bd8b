"""Three Tricks' computer players, one per level, as ``GameEntry.players`` names them.

Easy plays its lowest legal card; Normal wins the trick as cheaply as it can and otherwise throws its
lowest card; Hard deals the unseen cards at random (seeded) and plays each of its moves out with
Normal everywhere, until its budget of work units (one per card played in a playout) is spent.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pcards.ai.budget import Work, units_for
from p2pcards.games import CHANCE, TERMINAL, Action, Rules, View
from p2pcards.games.cards import Card, suit_of
from p2pcards.games.rng import Rng
from tests.fourth_game.game import TricksState, TricksView

UNITS_PER_SECOND = 60_000
"""Measured as for the package's games: ``ai.calibrate`` gave 77,000 to 95,000 units a second on the
shared 2-core machine while others worked; the budget is set below the slower runs."""


class EasyPlayer:
    level = "easy"

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        self.rules = rules

    def choose(self, view: View) -> Action:
        return min(view.legal_actions)


def normal_move(legal: Sequence[Action], trick: Sequence[tuple[int, Card]]) -> Action:
    """Lead the highest card; follow with the lowest card that wins the trick, else the lowest."""
    ordered = sorted(legal)
    if not trick:
        return ordered[-1]
    led = suit_of(trick[0][1])
    best = max(c for _, c in trick if suit_of(c) == led)
    winning = [c for c in ordered if suit_of(c) == led and c > best]
    return winning[0] if winning else ordered[0]


class NormalPlayer:
    level = "normal"

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        self.rules = rules

    def choose(self, view: View) -> Action:
        return normal_move(view.legal_actions, view.trick if isinstance(view, TricksView) else ())


class HardPlayer:
    level = "hard"

    def __init__(self, rules: Rules, seed: int = 0, budget: int | None = None) -> None:
        self.rules = rules
        self.rng = Rng(seed)
        self.budget = units_for(rules.name) if budget is None else budget
        self.work = Work(0)
        """The last decision's work (what ``ai.calibrate`` counts)."""

    def choose(self, view: View) -> Action:
        legal = list(view.legal_actions)
        if len(legal) == 1:
            self.work = Work(0)
            return legal[0]
        work = self.work = Work(self.budget)
        totals = [0] * len(legal)
        while not work.over:
            work.begin()
            cards = list(view.unseen_cards)
            self.rng.shuffle(cards)
            for i, a in enumerate(legal):
                state = view.determinize(cards[:len(view.unknown_positions)])
                state.apply(a)
                while state.to_act != TERMINAL:
                    if state.to_act == CHANCE:
                        state.fulfil_known()
                        continue
                    assert isinstance(state, TricksState)
                    state.apply(normal_move(state.legal_actions(), state.trick))
                    work.spend(1)
                result = state.result
                totals[i] += result.tricks[view.seat] if result is not None else 0
                work.spend(1)
        return legal[max(range(len(legal)), key=lambda i: (totals[i], -i))]


PLAYERS = {"easy": EasyPlayer, "normal": NormalPlayer, "hard": HardPlayer}
