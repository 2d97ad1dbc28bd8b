"""Throw-in Durak ("podkidnoy"), 2-6 players, 36 cards: ``games.load("durak", players=4)``.

Modules, each importing only those before it: ``actions`` (the action integers and their text
forms), ``config`` (options, deck, vocabulary), ``result`` (how a hand ended), ``state`` (one hand,
with the deck layout for any set of seats), ``match`` (the series and its seating), ``rules`` (the
factories).
"""

from p2pcards.games.durak.match import DurakMatch
from p2pcards.games.durak.result import DurakResult
from p2pcards.games.durak.rules import Rules
from p2pcards.games.durak.state import DurakState, DurakView

__all__ = ["DurakMatch", "DurakResult", "DurakState", "DurakView", "Rules"]
