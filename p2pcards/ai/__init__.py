"""Computer players: for each game, Easy, Normal and Hard.

A computer player sees only a seat's ``View`` (never the full state) and chooses one of its legal
actions.  It is deterministic for a given seed and bounded by iterations, never by the clock: Hard's
think time is a count of work units (``ai.budget``).
"""

from __future__ import annotations

from p2pcards.ai.base import LEVELS, Player
from p2pcards.ai.budget import units_for
from p2pcards.ai.registry import players_of
from p2pcards.games import OptionError, Rules

__all__ = ["LEVELS", "Player", "player"]


def player(rules: Rules, level: str, seed: int = 0, think_ms: int | None = None) -> Player:
    """A computer player of ``level`` for ``rules``' game, with its own seeded randomness.

    Hard thinks for ``think_ms`` milliseconds' worth of work units (the process default when None:
    ``budget.set_default_think``); the other levels do not search."""
    key = level.strip().lower()
    if key not in LEVELS:
        raise OptionError(f"unknown level {level!r}; the levels are: {', '.join(LEVELS)}")
    try:
        levels = players_of(rules.name).levels
    except OptionError as exc:
        raise OptionError(f"no computer players for {rules.name!r}: {exc}") from exc
    if key == "hard":
        hard: Player = levels[key](rules, seed, budget=units_for(rules.name, think_ms))
        return hard
    made: Player = levels[key](rules, seed)
    return made
