"""Partnership Spades: nil and bags, to 500 (rules in ``rules_text/spades.md``)."""

from p2pcards.games.spades.match import SpadesMatch
from p2pcards.games.spades.rules import Rules
from p2pcards.games.spades.scoring import HandResult, TeamScore, score_hand
from p2pcards.games.spades.state import SpadesState, SpadesView

__all__ = ["HandResult", "Rules", "SpadesMatch", "SpadesState", "SpadesView", "TeamScore", "score_hand"]
