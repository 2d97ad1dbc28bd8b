"""The ``p2pcards`` command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from p2pcards import __version__
from p2pcards.cli import bench, harness, lan, play, rules, sim, verify
from p2pcards.cli.common import UsageError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="p2pcards",
        description="Card games for people in one room: no server, no internet, no trusted dealer.",
    )
    parser.add_argument("--version", action="version", version=f"p2pcards {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    for module in (play, sim, harness, rules, bench, verify, lan):
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
    except UsageError as exc:
        parser.exit(2, f"p2pcards {args.command}: error: {exc}\n")
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
