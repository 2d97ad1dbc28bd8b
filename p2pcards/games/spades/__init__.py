"""Partnership Spades: nil and bags, to 500 (rules in ``rules_text/spades.md``)."""

from p2pcards.games.registry import GameEntry
from p2pcards.games.spades.dummy import choose
from p2pcards.games.spades.match import SpadesMatch
from p2pcards.games.spades.rules import Rules
from p2pcards.games.spades.scoring import HandResult, TeamScore, score_hand
from p2pcards.games.spades.state import PHASE_NAMES, SpadesState, SpadesView

GAME = GameEntry(
    name="spades",
    title="Spades",
    rules=Rules,
    phases=PHASE_NAMES,
    tables=({},),
    players="p2pcards.ai.spades",
    rules_page=("p2pcards", "rules_text/spades.md"),
    seats=4,
    longer={"target": 150},
    face="p2pcards.cli.screen.faces.spades",
    dummy=choose,
    renege=("S6",),
)
"""Spades in the one list of games (``games.registry``): a seat that leaves is an open dummy."""

__all__ = ["GAME", "HandResult", "Rules", "SpadesMatch", "SpadesState", "SpadesView", "TeamScore",
           "score_hand"]
