"""``p2pcards peer --stdio``: one seat of a harness game, driven through the harness pipe.

This is how ``p2pcards harness GAME --peer SEAT=COMMAND`` and ``harness conformance`` run our own
replica as a separate program, exactly as they run anyone else's (``protocol/HARNESS.md``).
"""

from __future__ import annotations

import argparse
import sys

from p2pcards.cli.common import UsageError


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "peer",
        help="run one seat for the protocol harness, over standard input and output",
        description="Run one seat of a harness game: read the harness's commands on standard input "
        "and answer on standard output, as protocol/HARNESS.md says. Used by "
        "'p2pcards harness GAME --peer SEAT=\"p2pcards peer --stdio\"' and 'p2pcards harness conformance'.",
    )
    p.add_argument("--stdio", action="store_true", help="speak the harness pipe on standard input and output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not args.stdio:
        raise UsageError("say --stdio: the harness pipe is the one way this command talks")
    if sys.stdin.isatty():
        raise UsageError("standard input is a terminal: this command is run by 'p2pcards harness', "
                         "which speaks binary records to it (protocol/HARNESS.md)")
    from p2pcards.harness.pipe import PipeError
    from p2pcards.harness.pipe_peer import serve

    try:
        return serve(sys.stdin.buffer, sys.stdout.buffer)
    except PipeError as exc:
        print(f"p2pcards peer: the harness pipe broke its rules: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0  # the harness went away in mid-answer: there is nobody left to answer
    except Exception as exc:  # one line for the harness's report, never a traceback
        print(f"p2pcards peer: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
