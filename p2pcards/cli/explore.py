"""``p2pcards harness GAME --explore N``: the exploring adversary of ``p2pcards.harness.explore``."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from rich.progress import Progress

from p2pcards.cli.common import UsageError, print_json
from p2pcards.games import GameError
from p2pcards.harness.explore import SHAPES, explore, shapes_for
from p2pcards.harness.explore_room import Shape
from p2pcards.table.genesis import GenesisError

MAX_SEED = 2**63 - 1


def parse_schedule(text: str) -> list[int]:
    """``3,0,7``: choices, each a number from 0 (an empty text is the empty schedule)."""
    if not text.strip():
        return []
    choices = []
    for part in text.split(","):
        word = part.strip()
        if not word.isdigit():
            raise UsageError(f"--schedule: {word!r} is not a choice; write numbers from 0, e.g. 3,0,7")
        choices.append(int(word))
    return choices


def _shapes(args: argparse.Namespace, options: dict[str, Any]) -> list[Shape]:
    fit = shapes_for(args.game, options)
    if args.shape is None:
        if not fit:
            raise UsageError(
                f"{args.game} fits none of the shapes explored ({', '.join(s.name for s in SHAPES)})"
            )
        return fit
    chosen = [s for s in SHAPES if s.name == args.shape]
    if not chosen:
        raise UsageError(f"unknown shape {args.shape!r}; the shapes are: {', '.join(s.name for s in SHAPES)}")
    if chosen[0] not in fit:
        raise UsageError(f"{args.game} cannot be played by {chosen[0].seats} seats")
    return chosen


def run_explore(args: argparse.Namespace, options: dict[str, Any]) -> int:
    if args.explore <= 0:
        raise UsageError("--explore must be positive")
    if not 0 <= args.explore_seed <= MAX_SEED - args.explore:
        raise UsageError(f"--explore-seed must be from 0 to {MAX_SEED - args.explore}")
    schedule = parse_schedule(args.schedule) if args.schedule is not None else None
    if schedule is not None and args.explore != 1:
        raise UsageError("--schedule replays one schedule: give --explore 1")
    shapes = _shapes(args, options)
    started = time.perf_counter()
    with Progress(disable=args.json or not sys.stderr.isatty(), transient=True) as progress:
        task = progress.add_task(f"exploring {args.game}", total=args.explore * len(shapes))
        try:
            reports = explore(
                args.game,
                schedules=args.explore,
                seed=args.explore_seed,
                options=options,
                shapes=shapes,
                schedule=schedule,
                progress=lambda: progress.advance(task),
            )
        except (GameError, GenesisError) as exc:
            raise UsageError(str(exc)) from exc
    seconds = round(time.perf_counter() - started, 2)
    found = sum(len(r.violations) for r in reports)
    if args.json:
        print_json({"explore": [r.to_dict() for r in reports], "violations": found, "seconds": seconds})
        return 1 if found else 0
    print(f"{args.game}, explored from seed {args.explore_seed}, {args.explore} schedules per shape")
    print("  shape  seats  cheaters  schedules  deliveries checked  violations")
    for r in reports:
        shape = next(s for s in SHAPES if s.name == r.shape)
        print(
            f"  {r.shape:<5}  {shape.seats:>5}  {len(shape.cheaters):>8}  {r.schedules:>9}  "
            f"{r.deliveries:>18}  {len(r.violations):>10}"
        )
    for r in reports:
        for v in r.violations:
            print(
                f"  VIOLATION ({r.shape}, seed {v['seed']}, {len(v['schedule'])} choices): {v['violation']}"
            )
            print(f"    replay: {v['replay']}")
    print(f"  time {seconds} s")
    if not found:
        print("  nothing found")
    return 1 if found else 0
