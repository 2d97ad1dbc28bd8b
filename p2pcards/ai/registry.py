"""Each registered game's computer players, found through its registration (``games.registry``).

A game's entry names the module of its players (``GameEntry.players``); the module defines

* ``PLAYERS``: a factory per level, ``{"easy": ..., "normal": ..., "hard": ...}``, each called as
  ``factory(rules, seed)``, Hard's as ``factory(rules, seed, budget=units)``;
* ``UNITS_PER_SECOND``: the work units Hard gets through in one second of one core on the
  reference machine (``ai.budget``, docs/ai.md), a positive whole number.

The rules layer cannot import this layer, so it cannot check the module when the game is
registered; this layer checks it whole the first time anything asks for the game's players (any
level, or Hard's budget), and refuses it with an ``OptionError`` that names the game, the module
and what is missing: never a ``KeyError`` the first time Hard plays.  ``tests/test_registry.py``
resolves every registered game's parts, so a gap fails the suite before anyone plays.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from p2pcards.ai.base import LEVELS, Player
from p2pcards.games import OptionError
from p2pcards.games.registry import GameEntry, entry

PlayerFactory = Callable[..., Player]


@dataclass(frozen=True)
class GamePlayers:
    """One game's computer players, checked complete."""

    game: str
    levels: Mapping[str, PlayerFactory]
    units_per_second: int


_resolved: dict[str, tuple[GameEntry, GamePlayers]] = {}
"""By game, with the entry resolved: an entry registered again under the same name is checked afresh."""


def players_of(game: str) -> GamePlayers:
    """The computer players of ``game``; ``OptionError`` if the game is unknown or its players module
    is missing or incomplete."""
    e = entry(game)
    found = _resolved.get(e.name)
    if found is None or found[0] is not e:
        found = (e, _resolve(e))
        _resolved[e.name] = found
    return found[1]


def _resolve(e: GameEntry) -> GamePlayers:
    where = f"the computer players of {e.name} ({e.players})"
    try:
        module = import_module(e.players)
    except ImportError as exc:
        raise OptionError(f"{where} cannot be imported: {exc}") from exc
    made: Any = getattr(module, "PLAYERS", None)
    if not isinstance(made, Mapping):
        raise OptionError(f"{where} define no PLAYERS: a factory per level ({', '.join(LEVELS)})")
    missing = [level for level in LEVELS if not callable(made.get(level))]
    if missing:
        raise OptionError(f"{where} have no {' and no '.join(missing)} player in PLAYERS")
    units: Any = getattr(module, "UNITS_PER_SECOND", None)
    if units.__class__ is not int or units <= 0:
        raise OptionError(f"{where} give Hard no budget: UNITS_PER_SECOND must be a positive whole number")
    return GamePlayers(e.name, {level: made[level] for level in LEVELS}, units)


__all__ = ["GamePlayers", "PlayerFactory", "players_of"]
