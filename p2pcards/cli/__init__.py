"""The ``p2pcards`` command line.

Exit status, for every command: 0 done, 1 the command failed (a fault stopped the game, verification
failed, the network or the data directory failed), 2 bad arguments or bad input, 3 (``play``,
``host``, ``join``, ``resume``) the input ended before the match did, 130 interrupted with Ctrl-C,
141 the output was closed before the command was done (``... | head``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from p2pcards import __version__, store
from p2pcards.cli import bench, games, harness, lan, play, rules, sim, verify
from p2pcards.cli.common import UsageError

EXIT_INTERRUPTED = 130
EXIT_CLOSED_OUTPUT = 141
"""As a shell reports a command ended by SIGPIPE: the reader stopped reading (``| head``)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="p2pcards",
        description="Card games for people in one room: no server, no internet, no trusted dealer.",
    )
    parser.add_argument("--version", action="version", version=f"p2pcards {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    for module in (play, sim, harness, rules, bench, verify, lan, games):
        module.register(commands)
    commands.choices["resume"].set_defaults(run=resume_any)
    commands.choices["resume"].description = (
        "Continue a saved game: an offline game (p2pcards play) where it stopped, or a network game, "
        "whose seat reconnects to the others and catches up. Without GAME_ID, the one unfinished game.")
    return parser


def resume_any(args: argparse.Namespace) -> int:
    """``p2pcards resume``: an offline game is continued by ``play``, a network game by ``lan``."""
    from p2pcards.cli.lan import record as lan_records
    from p2pcards.cli.lan import resume as lan_resume

    if args.auto is not None:
        play.check_level(args.auto, "--auto")
    if args.game_id is not None:
        game_id = games.pick(args.game_id)
        try:
            offline = games.load_offline(game_id)
        except store.StoreError as exc:
            raise UsageError(str(exc)) from exc
        if offline is not None:
            return play.resume(offline, auto=args.auto, json_mode=args.json)
        return lan_resume.run(args)
    waiting = [s for s in games.all_saved() if s.kind == "offline" and s.unfinished]
    network = [r for r, _ in lan_records.lan_games() if not r.finished]
    if len(waiting) == 1 and not network:
        record = games.load_offline(waiting[0].game_id)
        assert record is not None
        return play.resume(record, auto=args.auto, json_mode=args.json)
    if waiting and (network or len(waiting) > 1):
        listed = "; ".join(f"{s.game_id.hex()[:12]} ({s.genesis.game if s.genesis else '?'}, offline)"
                           for s in waiting[:6])
        listed += "".join(f"; {r.game_id.hex()[:12]} ({r.genesis.game}, network)" for r in network[:6])
        raise UsageError(f"{len(waiting) + len(network)} games are unfinished: {listed}. "
                         "Name one: p2pcards resume GAME_ID")
    if not network:
        raise UsageError("there is no unfinished game to resume (see `p2pcards games`)")
    return lan_resume.run(args)


def _quiet_closed_output() -> int:
    """The reader of our output went away: say nothing more (not even at exit) and stop."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return EXIT_CLOSED_OUTPUT


def _closed_output(exc: BaseException) -> bool:
    if isinstance(exc, BrokenPipeError):
        return True
    if isinstance(exc, BaseExceptionGroup):
        return all(_closed_output(e) for e in exc.exceptions)
    return False


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
        sys.stdout.flush()  # a closed pipe shows here when the output was short
    except UsageError as exc:
        parser.exit(2, f"p2pcards {args.command}: error: {exc}\n")
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BaseException as exc:
        if _closed_output(exc):
            return _quiet_closed_output()
        raise
    return code


if __name__ == "__main__":
    sys.exit(main())
