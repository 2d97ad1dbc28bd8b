"""Computer players think in a process of their own, so that their thinking never holds up the table.

A search is CPU-bound Python: in a thread it would hold the interpreter lock against the trio thread,
which proves and verifies shuffles, draws the screen and sends what the host's seats owe.  So every
computer seat of a process hands its decisions to one ``Thinker``: a worker process
(``p2pcards.net.worker``) that holds all of that process's computer players, so that what each
remembers survives between decisions, and that runs at a lower priority (``nice``), so that the
process's own table work wins the CPU.

- **Lazy.**  The worker starts at the first decision, not before (a table of people never starts one).
- **Shared.**  One per trio run (``shared``): every ``Node`` that has a ``ComputerChooser`` holds it
  while it runs; when the last one stops (the game ended, was cancelled or crashed) the worker is
  killed and reaped.  The worker also ends by itself when its parent dies (``worker``).
- **One decision at a time.**  Requests are answered in order.  A decision whose turn is no longer
  current is abandoned: the caller is cancelled at once, and the worker is told to drop the search,
  so the next decision does not queue behind a stale one.
- **Failures.**  What a computer player raises comes back as ``ThinkerError`` with its type and
  message; a worker that died comes back as ``ThinkerGone``, and the next decision starts a new
  one (its players are made again from their specs); ``ThinkerUnavailable`` if none can be started.

The worker is in the same session as its parent on purpose: with the scheduler's autogroups, a
process in a session of its own would get a full share of the CPU whatever its nice value.
"""

from __future__ import annotations

import contextlib
import pickle
import subprocess
import sys
from collections.abc import Sequence
from typing import Final

import trio

from p2pcards.games import View
from p2pcards.net.worker import HEADER, MAX_FRAME, ComputerSpec, frame

REAP_WAIT: Final = 2.0
"""Seconds to wait for a killed worker to be reaped."""

__all__ = ["ComputerSpec", "Thinker", "ThinkerError", "ThinkerGone", "ThinkerUnavailable", "shared"]


class ThinkerError(Exception):
    """A decision failed in the worker: the player raised (``TypeName: message``) or the worker died."""


class ThinkerGone(ThinkerError):
    """The worker died during the decision (the next one starts another)."""


class ThinkerUnavailable(ThinkerError):
    """No worker could be started (the system refused a process)."""


class Thinker:
    """The worker process of the computer players of one trio run (see the module docstring)."""

    def __init__(self, command: Sequence[str] | None = None) -> None:
        self.command = list(command) if command is not None else [sys.executable, "-m", "p2pcards.net.worker"]
        self.process: trio.Process | None = None
        self.started = 0
        """Worker processes started so far (a worker that died is replaced at the next decision)."""
        self.users = 0
        self._lock = trio.Lock()
        self._buffer = bytearray()
        self._number = 0

    # ------------------------------------------------------------------ lifetime

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def hold(self) -> None:
        self.users += 1

    async def release(self) -> None:
        """One user fewer; the last one stops the worker."""
        self.users -= 1
        if self.users <= 0:
            self.users = 0
            await self.aclose()

    async def aclose(self) -> None:
        """Kill the worker (if it runs) and reap it; safe to call when cancelled."""
        process, self.process = self.process, None
        self._buffer.clear()
        if process is None:
            return
        with trio.CancelScope(shield=True):
            if process.stdin is not None:
                await trio.aclose_forcefully(process.stdin)
            if process.returncode is None:
                process.kill()
            with trio.move_on_after(REAP_WAIT):
                await process.wait()
            if process.stdout is not None:
                await trio.aclose_forcefully(process.stdout)

    async def _start(self) -> trio.Process:
        if self.process is not None and self.process.returncode is None:
            return self.process
        await self.aclose()
        # Not a new session (see the module docstring); its Ctrl-C is ignored by the worker itself.
        try:
            process = await trio.lowlevel.open_process(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            )
        except OSError as exc:
            raise ThinkerUnavailable(f"the computer players' process cannot be started ({exc})") from exc
        self.process = process
        self.started += 1
        return process

    # ------------------------------------------------------------------ deciding

    async def choose(self, key: int, spec: ComputerSpec, view: View) -> str:
        """The text of the action computer player ``key`` (made from ``spec``) chooses in ``view``."""
        async with self._lock:
            process = await self._start()
            assert process.stdin is not None
            self._number += 1
            number = self._number
            try:
                payload = frame(("choose", number, key, spec, view))
            except Exception as exc:  # pickling the view: a bug, reported as the player's failure
                raise ThinkerError(f"the view cannot be sent to the computer players' process "
                                   f"({type(exc).__name__}: {exc})") from exc
            try:
                await process.stdin.send_all(payload)
            except trio.Cancelled:
                await self.aclose()  # a request sent in part: the pipe is out of step, start afresh
                raise
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                raise ThinkerGone(await self._gone()) from None
            try:
                while True:
                    answer = await self._read()
                    if answer is None:
                        raise ThinkerGone(await self._gone())
                    got, status, text = answer
                    if got == number:  # older answers are those of abandoned decisions
                        break
            except trio.Cancelled:
                await self._abandon(number)
                raise
        if status == "ok":
            return str(text)
        if status == "abandoned":
            raise ThinkerError("the decision was abandoned")
        raise ThinkerError(str(text))

    async def _abandon(self, number: int) -> None:
        """Nobody waits for answer ``number`` any more: tell the worker to drop that decision (its
        answer, when it comes, is skipped by the next ``choose``)."""
        process = self.process
        if process is None or process.stdin is None:
            return
        with trio.CancelScope(shield=True):
            with trio.move_on_after(REAP_WAIT) as late:
                # If it died meanwhile, the next decision starts another.
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                    await process.stdin.send_all(frame(("abandon", number)))
            if late.cancelled_caught:
                await self.aclose()  # its input is full, so it is stuck: start afresh

    async def _read(self) -> tuple[int, str, str] | None:
        """The next answer, or None when the worker's output ended.  The bytes read so far are kept
        in ``_buffer``, so a read that is cancelled loses nothing."""
        process = self.process
        assert process is not None and process.stdout is not None
        while True:
            if len(self._buffer) >= HEADER.size:
                (size,) = HEADER.unpack_from(self._buffer)
                if size > MAX_FRAME:
                    return None
                if len(self._buffer) >= HEADER.size + size:
                    body = bytes(self._buffer[HEADER.size:HEADER.size + size])
                    del self._buffer[:HEADER.size + size]
                    number, status, text = pickle.loads(body)
                    return int(number), str(status), str(text)
            try:
                data = await process.stdout.receive_some(65536)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                return None
            if not data:
                return None
            self._buffer += data

    async def _gone(self) -> str:
        process = self.process
        code = None
        if process is not None:
            with trio.move_on_after(REAP_WAIT):
                code = await process.wait()
        await self.aclose()
        how = "" if code is None else f" (exit status {code})"
        return f"the computer players' process ended{how}"


_SHARED: trio.lowlevel.RunVar[Thinker] = trio.lowlevel.RunVar("p2pcards.thinker")


def shared() -> Thinker:
    """The thinker of this trio run (made at the first call)."""
    try:
        return _SHARED.get()
    except LookupError:
        thinker = Thinker()
        _SHARED.set(thinker)
        return thinker
