"""The pure rules of Durak, Spades and Azi behind one contract (see ``base``), and the one list of
games (``registry``): a game is what is registered there."""

from __future__ import annotations

from typing import Any

from p2pcards.games.base import (
    CHANCE,
    TERMINAL,
    UNKNOWN,
    Action,
    ActionError,
    AuditResult,
    Deal,
    Disclose,
    FulfilError,
    GameError,
    HandRecord,
    HandState,
    IllegalAction,
    Match,
    Need,
    OptionError,
    Reveal,
    Rules,
    SeatStanding,
    Standings,
    View,
    is_action,
)
from p2pcards.games.registry import GameEntry, Names, entry

GAMES: Names = Names()
"""The names of the registered games (``registry``), read afresh at each use."""

__all__ = [
    "CHANCE", "GAMES", "TERMINAL", "UNKNOWN", "Action", "ActionError", "AuditResult", "Deal",
    "Disclose", "FulfilError", "GameEntry", "GameError", "HandRecord", "HandState", "IllegalAction", "Match",
    "Need", "OptionError", "Reveal", "Rules", "SeatStanding", "Standings", "View", "is_action", "load",
]


def load(name: str, **options: Any) -> Rules:
    """The rules of ``name`` with ``options`` (each game's module documents its options)."""
    return entry(name).load(**options)
