"""``p2pcards bench WHAT``: measured speed, for docs/performance.md."""

from __future__ import annotations

import argparse
from importlib import import_module

from p2pcards.cli.common import UsageError, print_json

SUITES = {
    "engine": "p2pcards.bench.engine",
    "deal": "p2pcards.bench.deal",
    "table": "p2pcards.bench.table",
    "net": "p2pcards.bench.net",
    "think": "p2pcards.bench.think",
}


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "bench", help="measure speed",
        description="Measure speed on this machine: the rule engines (engine), the mental-poker dealer "
                    "(deal), a whole hand through the stack (table), the network (net), and how much a "
                    "thinking computer player holds up the host's table (think). docs/performance.md "
                    "shows the tables measured so far, with the commands that made them.",
    )
    p.add_argument("suite", metavar="WHAT", help=f"one of: {', '.join(SUITES)}")
    p.add_argument("--json", action="store_true", help="print the results as one JSON object")
    p.add_argument("--seconds", type=float, default=3.0, help="time per case for `engine` (default 3)")
    p.add_argument("--repeat", type=int, default=3,
                   help="runs per case of `deal`, `table` and `think` (default 3)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.suite not in SUITES:
        raise UsageError(f"unknown benchmark {args.suite!r}; choose one of: {', '.join(SUITES)}")
    if args.seconds <= 0 or args.repeat <= 0:
        raise UsageError("--seconds and --repeat must be positive")
    module = import_module(SUITES[args.suite])
    result = module.run(args.seconds) if args.suite == "engine" else module.run(args.repeat)
    if args.json:
        print_json(result)
    else:
        print(module.format_table(result))
    return 0
