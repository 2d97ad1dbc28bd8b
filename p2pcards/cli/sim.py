"""``p2pcards sim GAME``: tournaments between computer players, with a results table.

``--players`` names who sits down: levels (``easy``, ``normal``, ``hard``) or ``random``, one per entry,
e.g. ``--players hard,normal``; a bare number N means N random players.  Without it the game's
adapter decides (Durak: Normal in every seat of the table).  Each of ``--games`` deals is played once,
the seats rotating from deal to deal, or with ``--duplicate`` once per seating, so every entry gets
the same cards.  Every unit is played through the replicated table, as a game offline is: each seat
a peer with its own key and signed log, the cards dealt by the seeded dealer (a known deck order per
deal) instead of mental poker.  See ``p2pcards.ai.tournament`` and docs/ai.md.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from p2pcards.ai.budget import DEFAULT_THINK_MS, parse_think
from p2pcards.ai.tournament import KINDS, Config, Report, format_report, kind_think, plan
from p2pcards.cli.common import UsageError, add_game_argument, game_options, print_json
from p2pcards.games import GAMES, GameError
from p2pcards.sim import run as run_tournament


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "sim", help="play tournaments between computer players",
        description="Play computer players against each other through the replicated table (every "
                    "seat a peer signing its moves, the cards from a seeded deck) and report wins, "
                    "win rates with 95% intervals and decision times.",
    )
    add_game_argument(p)
    p.add_argument("--players", default=None, metavar="KIND,...|N",
                   help=f"one kind per player ({', '.join(KINDS)}), e.g. hard,normal; or a number of "
                        "random players (default: the game's choice, Normal players for durak)")
    p.add_argument("--games", type=int, default=10, metavar="N",
                   help="deals to play (default 10); with --duplicate each is played once per seating")
    p.add_argument("--seed", type=int, default=1, metavar="S",
                   help="seed of the deals and players (default 1)")
    p.add_argument("--duplicate", action="store_true",
                   help="play every deal again with the players' seats swapped (rotated)")
    p.add_argument("--jobs", type=int, default=1, metavar="J",
                   help="processes to use (default 1); the results do not depend on it")
    p.add_argument("--unit", default=None, metavar="NAME",
                   help="another unit of play, where the game's players offer one (e.g. spades: game)")
    p.add_argument("--max-hands", type=int, default=2000, metavar="N",
                   help="stop a unit of play after this many hands (default 2000)")
    p.add_argument("--think", default=None, metavar="SECONDS",
                   help="how long Hard thinks per decision, counted as work so results do not depend on "
                        "the machine (default 1; an entry hard@SECONDS has its own)")
    p.add_argument("--json", action="store_true", help="print the results as one JSON object")
    p.set_defaults(run=run)


def parse_players(spec: str | None) -> tuple[tuple[str, ...], int | None]:
    """``(kinds, count of random players)`` from ``--players``."""
    if spec is None:
        return (), None
    text = spec.strip()
    if text.isdigit():
        count = int(text)
        if count <= 0:
            raise UsageError("--players needs at least one player")
        return ("random",) * count, count
    kinds = tuple(k.strip().lower() for k in text.split(","))
    if not kinds or any(not k for k in kinds):
        raise UsageError(f"--players {spec!r}: name one kind per player, separated by commas, "
                         f"e.g. hard,normal (kinds: {', '.join(KINDS)})")
    for k in kinds:
        try:
            kind_think(k)
        except GameError as exc:
            raise UsageError(str(exc)) from None
    return kinds, None


def config_from(args: argparse.Namespace) -> Config:
    game = args.game.strip().lower()
    if game not in GAMES:
        raise UsageError(f"unknown game {args.game!r}; the games are: {', '.join(GAMES)}")
    kinds, _count = parse_players(args.players)
    if args.games <= 0:
        raise UsageError("--games must be a positive number")
    if args.jobs <= 0:
        raise UsageError("--jobs must be a positive number")
    if args.max_hands <= 0:
        raise UsageError("--max-hands must be a positive number")
    try:
        think = DEFAULT_THINK_MS if args.think is None else parse_think(args.think)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    options = game_options(args.option)
    return Config(game, kinds, games=args.games, seed=args.seed, duplicate=args.duplicate, jobs=args.jobs,
                  options=tuple(sorted(options.items())), max_hands=args.max_hands, unit=args.unit,
                  think_ms=think)


def run(args: argparse.Namespace) -> int:
    config = config_from(args)
    try:
        p = plan(config)  # checks the options and players before anything is played
    except GameError as exc:
        raise UsageError(str(exc)) from exc
    except TypeError as exc:
        raise UsageError(f"bad options for {config.game}: {exc}") from exc
    show = not args.json and sys.stderr.isatty()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, disable=not show, transient=True) as progress:
        task = progress.add_task(f"{p.rules.name}: {','.join(p.kinds)}", total=p.units)
        report = run_tournament(config, progress=lambda units: progress.advance(task, units))
    if args.json:
        print_json(report_json(report))
    else:
        print(format_report(report))
    return 0


def report_json(report: Report) -> dict[str, Any]:
    return report.to_dict()
