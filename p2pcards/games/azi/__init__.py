"""Azi: a three-trick betting game for 2-6 players with a 27-card deck (rules A1-A16).

Options (``games.load("azi", **options)``): ``players`` 2-6 (4), ``deal`` 3 or 4 (3), ``ante`` (10),
``bankroll`` (1000), ``blind`` (on), ``six_on_stage`` (on), ``azi_buy_in`` (on), ``hands`` (0: no
limit).
Actions are listed in ``actions``; the flow of a hand in ``hand``; the play of the tricks, and its
search copy, in ``play``.
"""

from p2pcards.games.azi.hand import PHASE_NAMES, AziHand
from p2pcards.games.azi.match import AziMatch
from p2pcards.games.azi.result import AziResult, settle_pot
from p2pcards.games.azi.rules import AziRules
from p2pcards.games.azi.view import AziView
from p2pcards.games.registry import GameEntry

Rules = AziRules

GAME = GameEntry(
    name="azi",
    title="Azi",
    rules=AziRules,
    phases=PHASE_NAMES,
    tables=({"players": 2}, {"players": 4, "deal": 4}, {"players": 6, "blind": False}),
    players="p2pcards.ai.azi",
    rules_page=("p2pcards", "rules_text/azi.md"),
    seats=4,
    longer={"hands": 5},
    face="p2pcards.cli.screen.faces.azi",
    renege=("A10",),
    choices={"deal": (3, 4)},
)
"""Azi in the one list of games (``games.registry``)."""

__all__ = ["GAME", "AziHand", "AziMatch", "AziResult", "AziRules", "AziView", "Rules", "settle_pot"]
