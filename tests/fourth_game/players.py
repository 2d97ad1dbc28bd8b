"""Three Tricks' computer players, one per level, as ``GameEntry.players`` names them.

Easy plays its lowest legal card; Normal wins the trick as cheaply as it can and otherwise throws its
lowest card; Hard deals the unseen cards at random (seeded) and plays each of its moves out with
Normal everywhere, until its budget of work units (one per card played in a playout) is spent.
"""

from __future__ import annotations

from p2pcards.ai.budget import Work, units_for
from p2pcards.games import CHANCE, TERMINAL, Action, Rules, View
from p2pcards.games.cards import suit_of
from p2pcards.games.rng import Rng
from tests.fourth_game.game import TricksView

UNITS_PER_SECOND = 100_000
"""A playout of this game is a few cards: a round number, since nothing here is measured."""


class EasyPlayer:
    level = "easy"

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        self.rules = rules

    def choose(self, view: View) -> Action:
        return min(view.legal_actions)


class NormalPlayer:
    level = "normal"

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        self.rules = rules

    def choose(self, view: View) -> Action:
        legal = sorted(view.legal_actions)
        trick = view.trick if isinstance(view, TricksView) else ()
        if not trick:
            return legal[-1]
        led = suit_of(trick[0][1])
        best = max(c for _, c in trick if suit_of(c) == led)
        winning = [c for c in legal if suit_of(c) == led and c > best]
        return winning[0] if winning else legal[0]


class HardPlayer:
    level = "hard"

    def __init__(self, rules: Rules, seed: int = 0, budget: int | None = None) -> None:
        self.rules = rules
        self.rng = Rng(seed)
        self.budget = units_for(rules.name) if budget is None else budget
        self.normal = NormalPlayer(rules)

    def choose(self, view: View) -> Action:
        legal = list(view.legal_actions)
        if len(legal) == 1:
            return legal[0]
        work = Work(self.budget)
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
                    state.apply(self.normal.choose(state.view(state.to_act)))
                    work.spend(1)
                result = state.result
                totals[i] += result.tricks[view.seat] if result is not None else 0
                work.spend(1)
        return legal[max(range(len(legal)), key=lambda i: (totals[i], -i))]


PLAYERS = {"easy": EasyPlayer, "normal": NormalPlayer, "hard": HardPlayer}
