"""What ``host``, ``join`` and ``resume`` share: running under trio, failures, Ctrl-C, and playing the
seat of this process to the end (its seat record marked finished, its journals closed)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import trio
from rich.text import Text

from p2pcards.cli.common import UsageError, program
from p2pcards.cli.screen.words import with_command
from p2pcards.cli.terminal import Terminal

if TYPE_CHECKING:  # the game's screen and node: imported by whoever plays, not by every command
    from p2pcards.cli.lan import record as records
    from p2pcards.cli.lan.game import LanGame
    from p2pcards.net.node import Node


class LanError(Exception):
    """The command cannot go on (the network, the host, the data directory): exit status 1."""


class Closable(Protocol):
    def close(self) -> None: ...


@dataclass
class Context:
    """What a command knows so far, for the last words after Ctrl-C."""

    out: Terminal
    game_id: bytes | None = None
    finished: bool = False


def _single(exc: BaseException) -> BaseException:
    """The one exception inside nested exception groups (trio wraps what a task raises)."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def run_trio(main: Callable[[Context], Awaitable[int]], out: Terminal, *, interrupted: int = 130) -> int:
    """Run ``main`` under trio: ``UsageError`` goes on to the command line (exit 2), ``LanError`` is
    reported (exit 1), Ctrl-C ends with a word on how to come back (exit ``interrupted``)."""
    context = Context(out)
    try:
        return trio.run(main, context)
    except BaseException as raised:  # unwrapped below; anything else is re-raised as it was
        exc = _single(raised)
        if isinstance(exc, UsageError):
            raise exc from None
        if isinstance(exc, LanError):
            out.error(str(exc))
            return 1
        if isinstance(exc, KeyboardInterrupt):
            out.hide_status()
            _interrupted(context)
            return interrupted
        raise


def _interrupted(context: Context) -> None:
    out = context.out
    out.emit({"event": "interrupted", "game_id": None if context.game_id is None else context.game_id.hex()})
    if out.json:
        return
    out.say()
    if context.game_id is not None and not context.finished:
        short = context.game_id.hex()[:12]
        out.say(with_command("Interrupted. The game is kept: come back to it with",
                              f"{program()} resume {short}", out.console.width, "bold"))
    else:
        out.say(Text("Interrupted.", style="dim"))


async def play_seat(
    game: LanGame,
    nodes: Sequence[Node],
    closables: Sequence[Closable],
    record: records.SeatRecord,
    context: Context,
) -> int:
    """Play this process's nodes to the end of the match (or until the player leaves)."""
    from p2pcards.cli.lan import record as records

    context.game_id = record.game_id
    try:
        code = await game.play(nodes)
        if game.finished:
            context.finished = True
            table = game.table
            end = "stopped" if table.fault is not None else "abandoned" if table.abandoned else "over"
            records.mark_finished(record, end)
        else:
            records.mark_watching(record, game.watching)
        return code
    finally:
        for closable in closables:
            closable.close()

