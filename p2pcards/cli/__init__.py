"""The ``p2pcards`` command line.

Each command's module is imported only when that command runs (``p2pcards --help`` imports them
all): the table, the AI and the screens take most of a second to import, which a player typing
``p2pcards join`` should not wait for before the host even sees the request.

Exit status, for every command: 0 done, 1 the command failed (verification failed, the network or the
data directory failed), 2 bad arguments or bad input, 3 (``play``, ``host``, ``join``, ``resume``) the
input ended before the match did, 130 interrupted with Ctrl-C, 141 the output was closed before the
command was done (``... | head``).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence
from importlib import import_module
from typing import NoReturn

from p2pcards import __version__
from p2pcards.cli.common import UsageError, program, think_time

EXIT_INTERRUPTED = 130
EXIT_CLOSED_OUTPUT = 141
"""As a shell reports a command ended by SIGPIPE: the reader stopped reading (``| head``)."""

COMMANDS = {
    "play": "p2pcards.cli.play",
    "host": "p2pcards.cli.lan.host",
    "join": "p2pcards.cli.lan.join",
    "list": "p2pcards.cli.lan.listing",
    "resume": "p2pcards.cli.lan.resume",
    "games": "p2pcards.cli.games",
    "rules": "p2pcards.cli.rules",
    "verify": "p2pcards.cli.verify",
    "completion": "p2pcards.cli.completion",
    "sim": "p2pcards.cli.sim",
    "bench": "p2pcards.cli.bench",
    "harness": "p2pcards.cli.harness",
    "peer": "p2pcards.cli.peer",
}
"""Each command and the module that registers it, in the order ``--help`` lists them: what players
use first, then what developers of the program and of other implementations use."""


_INVALID = re.compile(r"argument (\S+?)(?:/\S+)?: invalid (int|float|choice)(?: value)?: '(.*?)'(.*)$", re.S)
_WANTED = {"int": "a whole number is needed", "float": "a number is needed"}


class _Parser(argparse.ArgumentParser):
    """argparse, but a value of the wrong kind (``--seed abc``) is one line that says what is
    needed, as every other bad argument is, rather than the usage and argparse's wording."""

    def error(self, message: str) -> NoReturn:
        bad = _INVALID.match(message)
        if bad is not None:
            option, kind, value, rest = bad.groups()
            wanted = _WANTED.get(kind) or "choose one of " + ", ".join(re.findall(r"'([^']*)'", rest))
            what = option if option.startswith("-") else option.lower()  # a positional's metavar
            self.exit(2, f"{self.prog}: error: {what} {value}: {wanted}\n")
        super().error(message)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of ``only`` (the one about to run)."""
    parser = _Parser(
        prog="p2pcards",
        description="Card games for people in one room: no server, no internet, no trusted dealer.",
    )
    parser.add_argument("--version", action="version", version=f"p2pcards {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True
    names = [only] if only is not None else list(COMMANDS)
    registered: set[str] = set()
    for name in names:
        module = COMMANDS[name]
        if module not in registered:
            registered.add(module)
            import_module(module).register(commands)
    resume = commands.choices.get("resume")
    if resume is not None:
        resume.set_defaults(run=resume_any)
        resume.description = (
            "Continue a saved game: an offline game (p2pcards play) where it stopped, or a network game, "
            "whose seat reconnects to the others and catches up. Without GAME_ID, the one unfinished game "
            "(of several, at a terminal, the one you pick).")
    return parser


def resume_any(args: argparse.Namespace) -> int:
    """``p2pcards resume``: an offline game is continued by ``play``, a network game by ``lan``."""
    from p2pcards import store
    from p2pcards.cli import games, play
    from p2pcards.cli.lan import record as lan_records
    from p2pcards.cli.lan import resume as lan_resume

    if args.auto is not None:
        play.check_level(args.auto, "--auto")
    if args.think is not None:
        think_time(args.think, 0)  # a bad --think is named before anything is opened
    if args.game_id is not None:
        game_id = games.pick(args.game_id)
        try:
            offline = games.load_offline(game_id)
        except store.StoreError as exc:
            raise UsageError(str(exc)) from exc
        if offline is not None:
            return play.resume(offline, auto=args.auto, json_mode=args.json, think=args.think)
        return lan_resume.run(args)
    network = {r.game_id for r, _ in lan_records.lan_games() if not r.finished}
    offered = [s for s in games.all_saved()
               if s.unfinished and (s.kind == "offline" or s.game_id in network)]
    if not offered:
        raise UsageError(f"there is no unfinished game to resume (see `{program()} games`)")
    if len(offered) == 1:
        chosen: bytes | None = offered[0].game_id
    elif args.json or not (sys.stdin.isatty() and sys.stdout.isatty()):
        listed = "; ".join(f"{s.game_id.hex()[:12]} ({s.genesis.game if s.genesis else '?'}, "
                           f"{'offline' if s.kind == 'offline' else 'network'})" for s in offered[:12])
        raise UsageError(f"{len(offered)} games are unfinished: {listed}. "
                         f"Name one: {program()} resume GAME_ID")
    else:
        chosen = games.choose(offered, "Resume which game?")
        if chosen is None:
            return 0
    assert chosen is not None
    args.game_id = chosen.hex()
    return resume_any(args)


def _command(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names, if it names one before any option."""
    first = next((a for a in argv if not a.startswith("-")), None)
    if first is None or argv[0] != first:
        return None
    return first if first in COMMANDS else None


def _quiet_closed_output() -> int:
    """The reader of our output went away: say nothing more (not even at exit) and stop."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return EXIT_CLOSED_OUTPUT


def _end_line() -> None:
    try:
        if sys.stderr.isatty():
            sys.stderr.write("\n")
            sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _closed_output(exc: BaseException) -> bool:
    if isinstance(exc, BrokenPipeError):
        return True
    if isinstance(exc, BaseExceptionGroup):
        return all(_closed_output(e) for e in exc.exceptions)
    return False


def main(argv: Sequence[str] | None = None) -> int:
    args_in = list(sys.argv[1:] if argv is None else argv)
    from p2pcards import extensions  # games registered from outside, before any list of games is read

    try:
        extensions.load()
    except extensions.ExtensionError as exc:
        print(f"p2pcards: error: {exc}", file=sys.stderr)
        return 2
    parser = build_parser(_command(args_in))
    args = parser.parse_args(args_in)
    try:
        code: int = args.run(args)
        sys.stdout.flush()  # a closed pipe shows here when the output was short
    except UsageError as exc:
        parser.exit(2, f"p2pcards {args.command}: error: {exc}\n")
    except KeyboardInterrupt:
        # The terminal echoed ^C and the shell's prompt comes next: give it a line of its own (a
        # command that said more, such as how to resume, returned 130 itself).
        _end_line()
        return EXIT_INTERRUPTED
    except BaseException as exc:
        if _closed_output(exc):
            return _quiet_closed_output()
        raise
    return code


if __name__ == "__main__":
    sys.exit(main())
