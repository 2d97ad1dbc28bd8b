"""Azi: a three-trick betting game for 2-6 players with a 27-card deck (rules A1-A16).

Options (``games.load("azi", **options)``): ``players`` 2-6 (4), ``deal`` 3 or 4 (3), ``ante`` (10),
``bankroll`` (1000), ``blind`` (on), ``six_on_stage`` (on), ``azi_buy_in`` (on), ``hands`` (0: no
limit).
Actions are listed in ``actions``; the flow of a hand in ``hand``; the play of the tricks, and its
search copy, in ``play``.
"""

from p2pcards.games.azi.hand import AziHand
from p2pcards.games.azi.match import AziMatch
from p2pcards.games.azi.result import AziResult, settle_pot
from p2pcards.games.azi.rules import AziRules
from p2pcards.games.azi.view import AziView

Rules = AziRules

__all__ = ["AziHand", "AziMatch", "AziResult", "AziRules", "AziView", "Rules", "settle_pot"]
