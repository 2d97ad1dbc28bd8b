"""The computer players' own process: ``python -m p2pcards.net.worker`` (started by ``net.thinking``).

It holds the computer players of one host process, so that what each remembers survives from one
decision to the next, and answers one decision at a time.  It runs at a lower priority than the
process that started it, so that the host's own seat, its shuffles and its messages get the CPU
first.  It never imports trio and does no networking: it reads requests on standard input and
answers on its standard output, both framed as a 4-byte big-endian length and a pickle.

- ``("choose", number, key, spec, view)``: choose for the computer player ``key`` (made from
  ``spec``, a ``ComputerSpec``, the first time that key is asked); the answer is
  ``(number, "ok", text)`` or ``(number, "error", "TypeName: message")``.
- ``("abandon", number)``: nobody waits for that decision any more (its turn is no longer current).
  If it is being made, the search is interrupted (``SIGUSR1`` to the main thread); if it has not
  begun, it never does.  Its answer is ``(number, "abandoned", "")``, and that computer player is
  made again from its spec next time, since a search stopped half-way may have left it in any state.

The process ends as soon as its input ends (its parent closed the pipe, or died), even in the middle
of a search, so that a search never outlives a host that crashed.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import queue
import signal
import struct
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any, Final, NoReturn

NICENESS: Final = 10
"""How much lower the worker's priority is than its parent's (``nice``)."""
HEADER: Final = struct.Struct(">I")
Chooser = Callable[[Any], str]
MAX_FRAME: Final = 64 * 1024 * 1024


@dataclass(frozen=True)
class ComputerSpec:
    """What a computer player is made from, in any process: the game and its options, the level, its
    seed and its think time (Hard's budget, in milliseconds of work)."""

    game: str
    options: tuple[tuple[str, Any], ...]
    level: str
    seed: int
    think_ms: int

    def make(self) -> Chooser:
        """The player's policy: the AI of ``level``, or uniform random play if that level cannot be
        loaded (an AI module missing or broken must not stop a game)."""
        from p2pcards import games

        rules = games.load(self.game, **dict(self.options))
        chosen: Any
        try:
            from p2pcards.ai import player

            chosen = player(rules, self.level, self.seed, think_ms=self.think_ms)
        except Exception:
            from p2pcards.ai.base import RandomPlayer

            chosen = RandomPlayer(rules, self.seed)

        def choose(view: Any) -> str:
            return rules.action_text(chosen.choose(view))

        return choose


class Abandoned(BaseException):
    """The decision being made was abandoned by the parent (a ``BaseException``, so that no
    ``except Exception`` of a computer player swallows it)."""


def read_frame(stream: IO[bytes]) -> bytes | None:
    head = stream.read(HEADER.size)
    if len(head) < HEADER.size:
        return None
    (size,) = HEADER.unpack(head)
    if size > MAX_FRAME:
        return None
    body = stream.read(size)
    return body if len(body) == size else None


def frame(obj: object) -> bytes:
    body = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(body)) + body


def _lower_priority() -> None:
    with contextlib.suppress(AttributeError, OSError):  # not on this system, or not allowed: as it is
        os.nice(NICENESS)


def serve(requests: IO[bytes], answers: IO[bytes]) -> NoReturn:
    """Answer ``requests`` until they end, then end the process.  A thread reads them, so that an
    abandonment reaches the decision it names while that decision is being made (or before it
    begins), and the end of the input ends the process at once."""
    players: dict[int, Chooser] = {}
    specs: dict[int, ComputerSpec] = {}
    waiting: queue.SimpleQueue[tuple[int, int, ComputerSpec, Any]] = queue.SimpleQueue()
    abandoned: set[int] = set()
    current: list[int | None] = [None]
    main = threading.main_thread().ident
    interrupt = getattr(signal, "SIGUSR1", None)

    def on_signal(_signum: int, _frame: object) -> None:
        if current[0] is not None and current[0] in abandoned:
            raise Abandoned

    def read() -> None:
        try:
            while True:
                raw = read_frame(requests)
                if raw is None:  # the parent closed the pipe, or died
                    return
                message = pickle.loads(raw)
                if message[0] == "abandon":
                    number = int(message[1])
                    abandoned.add(number)
                    if current[0] == number and interrupt is not None and main is not None:
                        signal.pthread_kill(main, interrupt)
                else:
                    waiting.put(tuple(message[1:]))
        finally:
            # Nothing more can be asked (the input ended, or a request could not be read): the
            # process ends now, a search going on with it, whatever the main thread is doing.
            os._exit(0)

    if interrupt is not None:
        signal.signal(interrupt, on_signal)
    threading.Thread(target=read, daemon=True).start()
    while True:
        number, key, spec, view = waiting.get()
        try:
            current[0] = number
            try:
                if number in abandoned:
                    raise Abandoned
                if key not in players or specs[key] != spec:
                    specs[key] = spec
                    players[key] = spec.make()
                answer = (number, "ok", players[key](view))
            finally:
                current[0] = None
        except Abandoned:
            players.pop(key, None)
            answer = (number, "abandoned", "")
        except Exception as exc:
            answer = (number, "error", f"{type(exc).__name__}: {exc}")
        abandoned.discard(number)
        answers.write(frame(answer))
        answers.flush()


def main() -> None:
    # The answers go to the standard output as it was; anything else printed goes to the standard
    # error, so that a stray print cannot break a frame.
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _lower_priority()
    from p2pcards import extensions

    # the games registered from outside (P2PCARDS_GAMES) as in the parent; one that will not load is
    # reported by the decision that needs it, as an unknown game
    with contextlib.suppress(extensions.ExtensionError):
        extensions.load()
    try:
        serve(sys.stdin.buffer, answers)
    finally:  # an answer that cannot be written (the parent is gone): end, never linger
        os._exit(1)


if __name__ == "__main__":
    main()
