"""``p2pcards sim GAME``: play whole matches between computer players and report what happened."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from rich.progress import Progress

from p2pcards.cli.common import UsageError, add_game_argument, game_options, load_rules, print_json
from p2pcards.games.playout import random_hand
from p2pcards.games.rng import Rng

KINDS = ("random",)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "sim", help="play matches between computer players",
        description="Play whole matches between computer players and report the results.",
    )
    add_game_argument(p)
    p.add_argument("--players", default=None, metavar="N|KIND,...",
                   help="the number of players, or one player kind per seat (kinds: random)")
    p.add_argument("--games", type=int, default=10, metavar="N", help="matches to play (default 10)")
    p.add_argument("--seed", type=int, default=1, metavar="S", help="seed (default 1)")
    p.add_argument("--max-hands", type=int, default=2000, metavar="N",
                   help="stop a match after this many hands (default 2000)")
    p.add_argument("--json", action="store_true", help="print the results as one JSON object")
    p.set_defaults(run=run)


def _seats(spec: str | None) -> tuple[int | None, list[str]]:
    if spec is None:
        return None, []
    if spec.strip().isdigit():
        return int(spec), []
    kinds = [k.strip().lower() for k in spec.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise UsageError(f"unknown player kind {unknown[0]!r}; the kinds are: {', '.join(KINDS)}")
    return len(kinds), kinds


def run(args: argparse.Namespace) -> int:
    options = game_options(args.option)
    count, _kinds = _seats(args.players)
    if count is not None:
        options["players"] = count
    if args.games <= 0 or args.max_hands <= 0:
        raise UsageError("--games and --max-hands must be positive")
    rules = load_rules(args.game, options)
    rng = Rng(args.seed)
    matches: list[dict[str, Any]] = []
    started = time.perf_counter()
    with Progress(disable=args.json or not sys.stderr.isatty(), transient=True) as progress:
        task = progress.add_task(f"{rules.name} matches", total=args.games)
        for number in range(args.games):
            match = rules.new_match(rng.below(rules.players))
            hands = 0
            while not match.over and hands < args.max_hands:
                match = match.settle(random_hand(match.new_hand(), rng))
                hands += 1
            matches.append({"match": number + 1, "hands": hands, "finished": match.over,
                            "summary": match.summary()})
            progress.advance(task)
    elapsed = time.perf_counter() - started
    result = {"game": rules.name, "options": dict(rules.options), "seed": args.seed,
              "players": "random", "matches": matches,
              "hands": sum(m["hands"] for m in matches), "seconds": round(elapsed, 3)}
    if args.json:
        print_json(result)
    else:
        _print_table(result)
    return 0


def _print_table(result: dict[str, Any]) -> None:
    opts = ", ".join(f"{k}={v}" for k, v in result["options"].items())
    print(f"{result['game']} ({opts}), random legal players, seed {result['seed']}")
    for m in result["matches"]:
        status = "" if m["finished"] else " (stopped: hand limit)"
        print(f"  match {m['match']:>3}: {m['hands']:>4} hands{status}  {m['summary']}")
    print(f"{len(result['matches'])} matches, {result['hands']} hands in {result['seconds']:.2f} s")


