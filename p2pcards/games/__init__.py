"""The pure rules of Durak, Spades and Azi behind one contract (see ``base``)."""

from __future__ import annotations

from importlib import import_module
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

GAMES: tuple[str, ...] = ("durak", "spades", "azi")

__all__ = [
    "CHANCE", "GAMES", "TERMINAL", "UNKNOWN", "Action", "ActionError", "AuditResult", "Deal",
    "Disclose", "FulfilError", "GameError", "HandRecord", "HandState", "IllegalAction", "Match",
    "Need", "OptionError", "Reveal", "Rules", "SeatStanding", "Standings", "View", "is_action", "load",
]


def load(name: str, **options: Any) -> Rules:
    """The rules of ``name`` with ``options`` (each game's module documents its options)."""
    key = name.strip().lower()
    if key not in GAMES:
        raise OptionError(f"unknown game {name!r}; the games are: {', '.join(GAMES)}")
    module = import_module(f"p2pcards.games.{key}")
    rules: Rules = module.Rules(**options)
    return rules
