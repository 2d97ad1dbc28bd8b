"""What the commands share: game options from the command line, errors, JSON output."""

from __future__ import annotations

import argparse
import functools
import json
import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

from p2pcards import games
from p2pcards.ai.budget import parse_think


class UsageError(Exception):
    """Bad input on the command line: the message says what is wrong and what would be right."""


@functools.cache
def program() -> str:
    """This program as the person at this terminal can type it to run it again: ``p2pcards`` when
    the shell finds it on the PATH, else the way it was started (``.venv/bin/p2pcards`` after the
    README's install, without activating the environment), so that a hint such as "come back with
    ... resume ID" can be typed as shown.  A command meant for another laptop (the host's ``join``
    line) names ``p2pcards`` alone: that laptop's install is its own."""
    found = shutil.which("p2pcards")
    started = sys.argv[0] if sys.argv else ""
    typed_path = Path(started).name == "p2pcards" and os.sep in started
    if found and (not typed_path or _same_file(found, started)):
        return "p2pcards"
    if typed_path:  # not on the PATH, or another install is: the one that runs now, as it was typed
        return shlex.quote(started)
    # ``python -m p2pcards`` (or a program calling ours): the environment's script, else the module
    script = Path(sys.executable).parent / "p2pcards"
    if script.is_file() and os.access(script, os.X_OK):
        return shlex.quote(_typed(script))
    return f"{shlex.quote(sys.executable)} -m p2pcards"


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _typed(path: Path) -> str:
    """``path`` as short as it can be typed from here: relative below the current directory."""
    try:
        below = path.relative_to(Path.cwd())
    except (ValueError, OSError):
        return str(path)
    return str(below) if os.sep in str(below) else f".{os.sep}{below}"


def add_game_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="GAME", help=f"one of: {', '.join(games.GAMES)}")
    parser.add_argument(
        "-o", "--option", action="append", default=[], metavar="NAME=VALUE",
        help="a table option, e.g. -o deal=4 -o ante=20 (see `p2pcards rules GAME`)",
    )


def parse_value(text: str) -> Any:
    lowered = text.strip().lower()
    if lowered in ("on", "true", "yes"):
        return True
    if lowered in ("off", "false", "no"):
        return False
    try:
        return int(lowered)
    except ValueError:
        return text.strip()


def game_options(pairs: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"option {pair!r} must look like NAME=VALUE, e.g. deal=4")
        options[name.strip()] = parse_value(value)
    return options


def load_rules(game: str, options: dict[str, Any]) -> games.Rules:
    try:
        return games.load(game, **options)
    except games.GameError as exc:
        raise UsageError(str(exc)) from exc
    except TypeError as exc:
        raise UsageError(f"bad options for {game}: {exc}") from exc


def print_json(obj: Any) -> None:
    json.dump(obj, sys.stdout, sort_keys=True)
    sys.stdout.write("\n")


def think_time(text: str | None, kept: int) -> int:
    """The think time of the computer players of a resumed game: ``--think`` if given, else the one
    the game was played with (``UsageError`` for a ``--think`` that is not a think time)."""
    if text is None:
        return kept
    try:
        return parse_think(text)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
