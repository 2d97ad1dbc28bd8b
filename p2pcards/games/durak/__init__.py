"""Throw-in Durak ("podkidnoy"), 2-6 players, 36 cards: ``games.load("durak", players=4)``.

Modules, each importing only those before it: ``actions`` (the action integers and their text
forms), ``config`` (options, deck, vocabulary), ``result`` (how a hand ended), ``state`` (one hand,
with the deck layout for any set of seats), ``match`` (the series and its seating), ``rules`` (the
factories).
"""

from p2pcards.games.durak.match import DurakMatch
from p2pcards.games.durak.result import DurakResult
from p2pcards.games.durak.rules import Rules
from p2pcards.games.durak.state import PHASE_NAMES, DurakState, DurakView
from p2pcards.games.registry import GameEntry

GAME = GameEntry(
    name="durak",
    title="Durak",
    rules=Rules,
    phases=PHASE_NAMES,
    tables=({"players": 2}, {"players": 4}, {"players": 6}, {"players": 3, "transfer": True},
            {"players": 6, "deck": 52, "transfer": True}),
    players="p2pcards.ai.durak",
    rules_page=("p2pcards", "rules_text/durak.md"),
    seats=3,
    longer={"series_hands": 3},
    face="p2pcards.cli.screen.faces.durak",
    choices={"deck": (36, 52)},
)
"""Durak in the one list of games (``games.registry``)."""

__all__ = ["GAME", "DurakMatch", "DurakResult", "DurakState", "DurakView", "Rules"]
