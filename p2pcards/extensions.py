"""Games from outside the package: ``P2PCARDS_GAMES`` names modules that register them.

``P2PCARDS_GAMES=pkg.mygame,other.game p2pcards ...`` imports each module before the command runs;
importing one registers its game (``games.registry.register``).  This is how a test's game reaches a
program the test starts (``p2pcards peer --stdio`` under the conformance harness), and how a game
can be tried before it joins the package (``docs/adding-a-game.md``).  It is read by the command line
and by the computer players' process, never by the rules: the rules layer does no I/O.
"""

from __future__ import annotations

import os
from importlib import import_module
from typing import Final

ENV: Final = "P2PCARDS_GAMES"


class ExtensionError(Exception):
    """A module named in ``P2PCARDS_GAMES`` that cannot be imported or refuses to register."""


def load(value: str | None = None) -> tuple[str, ...]:
    """Import every module ``value`` (``P2PCARDS_GAMES`` when None) names, separated by commas; the
    names imported.  ``ExtensionError`` in one line naming the module and why."""
    text = os.environ.get(ENV, "") if value is None else value
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    for name in names:
        try:
            import_module(name)
        except Exception as exc:  # an import error or a refused registration: one line, not a traceback
            why = f"{type(exc).__name__}: {exc}"
            raise ExtensionError(f"{ENV} names {name!r}, which cannot be loaded: {why}") from exc
    return names


__all__ = ["ENV", "ExtensionError", "load"]
