"""What every computer player is, and the randomness it may use."""

from __future__ import annotations

from typing import Protocol

from p2pcards.games import Action, Rules, View
from p2pcards.games.rng import Rng

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")


class Player(Protocol):
    """Chooses an action for the seat whose view it is given.

    Constructed as ``Cls(rules, seed)``.  ``choose`` must return one of ``view.legal_actions`` and
    may only use the view (and what the player itself remembers of earlier views of the same seat,
    which is all public or its own).  The same seed and the same views give the same choices.
    """

    level: str

    def choose(self, view: View) -> Action: ...


class RandomPlayer:
    """Uniform over the legal actions: a baseline and a test opponent."""

    level = "random"

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        self.rules = rules
        self.rng = Rng(seed)

    def choose(self, view: View) -> Action:
        return self.rng.choice(view.legal_actions)
