"""``p2pcards rules GAME``: a game's rules for players, in the terminal."""

from __future__ import annotations

import argparse
from importlib import resources

from rich.console import Console
from rich.markdown import Markdown

from p2pcards import games
from p2pcards.cli.common import UsageError
from p2pcards.cli.pager import page
from p2pcards.games import registry


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("rules", help="print a game's rules", description="Print a game's rules.")
    p.add_argument("game", metavar="GAME", help=f"one of: {', '.join(games.GAMES)}")
    p.add_argument("--plain", action="store_true", help="print the Markdown source, unformatted")
    p.set_defaults(run=run)


def rules_text(game: str) -> str:
    try:
        package, path = registry.entry(game).rules_page  # its registration says where its page is
    except games.OptionError as exc:
        raise UsageError(str(exc)) from None
    return resources.files(package).joinpath(path).read_text(encoding="utf-8")


def sections(text: str) -> list[tuple[str, str]]:
    """The rules' ``##`` sections, in order, as (heading, Markdown of the section with its heading);
    what comes before the first one (the title and introduction) is the first, under the title."""
    parts: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("## ") or not parts:
            parts.append((line.lstrip("# ").strip(), [line]))
        else:
            parts[-1][1].append(line)
    return [(heading, "\n".join(lines).strip() + "\n") for heading, lines in parts]


def rules_page(game: str, arg: str) -> str:
    """What ``rules`` shows inside a game, as Markdown: with no ``arg`` the numbered list of sections,
    with a number that section, with ``all`` the whole text.  One screen at a time, so that nothing
    scrolls off while the table goes on; an unknown number says which there are."""
    text = rules_text(game)
    parts = sections(text)
    if arg == "all":
        return text
    if arg.isdigit():
        number = int(arg)
        if 1 <= number <= len(parts):
            return parts[number - 1][1]
        return f"There is no section {number} of the rules: `rules` lists sections 1 to {len(parts)}.\n"
    # the first part is the title and what the game is: named so, not by the game's name alone
    headings = [f"About {h}" if i == 0 else h for i, (h, _) in enumerate(parts)]
    listed = "\n".join(f"{i}. {heading}" for i, heading in enumerate(headings, 1))
    return f"{listed}\n\nType `rules N` to read section N, `rules all` for everything.\n"


def run(args: argparse.Namespace) -> int:
    text = rules_text(args.game)
    console = Console()
    if args.plain or not console.is_terminal:
        print(text, end="")
    else:
        page(console, Markdown(text))
    return 0
