"""Azi's computer players: ``PLAYERS = {"easy": ..., "normal": ..., "hard": ...}``.

Modules: ``easy`` and ``normal`` (rule-based), ``hard`` (sampling of the unseen cards weighted by
what the bets reveal, exact play of the three tricks on each sample), ``solver`` (the exact play,
on the engine's play copy), ``common`` (card strength, the view flattened, Normal's estimate and
bidding rule), ``adapter`` (the tournament adapter: chips won per hand).
"""

from p2pcards.ai.azi.easy import EasyPlayer
from p2pcards.ai.azi.hard import HardPlayer
from p2pcards.ai.azi.normal import NormalPlayer

PLAYERS = {"easy": EasyPlayer, "normal": NormalPlayer, "hard": HardPlayer}
UNITS_PER_SECOND = 350_000
"""Work units Hard gets through in one second of one core on the reference machine (``ai.budget``)."""

__all__ = ["PLAYERS", "UNITS_PER_SECOND", "EasyPlayer", "HardPlayer", "NormalPlayer"]

from p2pcards.ai.azi.adapter import AziAdapter  # noqa: E402
from p2pcards.ai.tournament import register  # noqa: E402

register(AziAdapter())
