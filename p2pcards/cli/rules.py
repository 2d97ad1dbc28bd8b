"""``p2pcards rules GAME``: a game's rules for players, in the terminal."""

from __future__ import annotations

import argparse
from importlib import resources

from rich.console import Console
from rich.markdown import Markdown

from p2pcards import games
from p2pcards.cli.common import UsageError


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("rules", help="print a game's rules", description="Print a game's rules.")
    p.add_argument("game", metavar="GAME", help=f"one of: {', '.join(games.GAMES)}")
    p.add_argument("--plain", action="store_true", help="print the Markdown source, unformatted")
    p.set_defaults(run=run)


def rules_text(game: str) -> str:
    key = game.strip().lower()
    if key not in games.GAMES:
        raise UsageError(f"unknown game {game!r}; the games are: {', '.join(games.GAMES)}")
    return resources.files("p2pcards").joinpath("rules_text", f"{key}.md").read_text(encoding="utf-8")


def run(args: argparse.Namespace) -> int:
    text = rules_text(args.game)
    console = Console()
    if args.plain or not console.is_terminal:
        print(text, end="")
    else:
        with console.pager(styles=True):
            console.print(Markdown(text))
    return 0
