"""Durak's computer players: ``PLAYERS = {"easy": ..., "normal": ..., "hard": ...}``.

Modules: ``easy`` and ``normal`` (rule-based), ``hard`` (determinized search with an exact endgame,
played out on the engine's own states), ``solver`` (the exact endgame), ``common`` (card strength,
the view flattened), ``adapter`` (the tournament adapter).
"""

from p2pcards.ai.durak.easy import EasyPlayer
from p2pcards.ai.durak.hard import HardPlayer
from p2pcards.ai.durak.normal import NormalPlayer

PLAYERS = {"easy": EasyPlayer, "normal": NormalPlayer, "hard": HardPlayer}
UNITS_PER_SECOND = 500_000
"""Work units Hard gets through in one second of one core on the reference machine (``ai.budget``)."""

__all__ = ["PLAYERS", "UNITS_PER_SECOND", "EasyPlayer", "HardPlayer", "NormalPlayer"]

from p2pcards.ai.durak.adapter import DurakAdapter  # noqa: E402
from p2pcards.ai.tournament import register  # noqa: E402

register(DurakAdapter())
