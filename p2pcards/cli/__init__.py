"""The ``p2pcards`` command line.

Each command's module is imported only when that command runs (``p2pcards --help`` imports them
all): the table, the AI and the screens take most of a second to import, which a player typing
``p2pcards join`` should not wait for before the host even sees the request.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module

from p2pcards import __version__
from p2pcards.cli.common import UsageError

COMMANDS = {
    "play": "p2pcards.cli.play",
    "sim": "p2pcards.cli.sim",
    "harness": "p2pcards.cli.harness",
    "rules": "p2pcards.cli.rules",
    "bench": "p2pcards.cli.bench",
    "verify": "p2pcards.cli.verify",
    "host": "p2pcards.cli.lan.host",
    "join": "p2pcards.cli.lan.join",
    "list": "p2pcards.cli.lan.listing",
    "resume": "p2pcards.cli.lan.resume",
}
"""Each command and the module that registers it, in the order ``--help`` lists them."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of ``only`` (the one about to run)."""
    parser = argparse.ArgumentParser(
        prog="p2pcards",
        description="Card games for people in one room: no server, no internet, no trusted dealer.",
    )
    parser.add_argument("--version", action="version", version=f"p2pcards {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    names = [only] if only is not None else list(COMMANDS)
    registered: set[str] = set()
    for name in names:
        module = COMMANDS[name]
        if module not in registered:
            registered.add(module)
            import_module(module).register(commands)
    return parser


def _command(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names, if it names one before any option."""
    first = next((a for a in argv if not a.startswith("-")), None)
    if first is None or argv[0] != first:
        return None
    return first if first in COMMANDS else None


def main(argv: Sequence[str] | None = None) -> int:
    args_in = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(_command(args_in))
    args = parser.parse_args(args_in)
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
