"""Computer players: for each game, Easy, Normal and Hard.

A computer player sees only a seat's ``View`` (never the full state) and chooses one of its legal
actions.  It is deterministic for a given seed and bounded by iterations, never by the clock.
"""

from __future__ import annotations

from importlib import import_module

from p2pcards.ai.base import LEVELS, Player
from p2pcards.games import GAMES, OptionError, Rules

__all__ = ["LEVELS", "Player", "player"]


def player(rules: Rules, level: str, seed: int = 0) -> Player:
    """A computer player of ``level`` for ``rules``' game, with its own seeded randomness."""
    key = level.strip().lower()
    if key not in LEVELS:
        raise OptionError(f"unknown level {level!r}; the levels are: {', '.join(LEVELS)}")
    if rules.name not in GAMES:
        raise OptionError(f"no computer players for {rules.name!r}")
    module = import_module(f"p2pcards.ai.{rules.name}")
    made: Player = module.PLAYERS[key](rules, seed)
    return made
