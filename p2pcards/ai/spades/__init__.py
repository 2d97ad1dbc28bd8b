"""Spades' computer players: ``PLAYERS = {"easy": ..., "normal": ..., "hard": ...}``.

Modules: ``easy`` and ``normal`` (rule-based; Normal is also Hard's rollout policy), ``hard``
(determinized search with an exact endgame), ``common`` (card masks and view helpers; the players
read the engine's state and play on it),
``adapter`` (the tournament adapters: one deal, or a game to 500).
"""

from p2pcards.ai.spades.easy import EasyPlayer
from p2pcards.ai.spades.hard import HardPlayer
from p2pcards.ai.spades.normal import NormalPlayer

PLAYERS = {"easy": EasyPlayer, "normal": NormalPlayer, "hard": HardPlayer}
UNITS_PER_SECOND = 300_000
"""Work units Hard gets through in one second of one core on the reference machine (``ai.budget``)."""

__all__ = ["PLAYERS", "UNITS_PER_SECOND", "EasyPlayer", "HardPlayer", "NormalPlayer"]

from p2pcards.ai.spades.adapter import SpadesAdapter, SpadesGameAdapter  # noqa: E402
from p2pcards.ai.tournament import register  # noqa: E402

register(SpadesAdapter())
register(SpadesGameAdapter(), unit="game")
