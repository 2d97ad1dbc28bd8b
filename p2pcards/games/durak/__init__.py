"""Throw-in Durak ("podkidnoy"), 2-6 players, 36 cards: ``games.load("durak", players=4)``.

Modules: ``actions`` (the action integers and their text forms), ``state`` (one hand), ``match``
(a hand's result and the series), ``rules`` (options and the factory).
"""

from p2pcards.games.durak.match import DurakMatch, DurakResult
from p2pcards.games.durak.rules import Rules
from p2pcards.games.durak.state import DurakState, DurakView

__all__ = ["DurakMatch", "DurakResult", "DurakState", "DurakView", "Rules"]
