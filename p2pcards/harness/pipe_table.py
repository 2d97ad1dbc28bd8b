"""A seat of the simulated table run by another program, through the harness pipe (HARNESS.md).

``PipeTable`` stands where an in-process ``Table`` would: the simulated network calls it the same
way, and it turns each call into one command and the program's answer back into outputs.  The
program is started with ``start``'s secrets and journal, so a crash is a kill and a restart.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shlex
import subprocess
from collections import deque
from dataclasses import dataclass
from typing import Any

from p2pcards.games import ActionError
from p2pcards.harness.pipe import (
    LENGTH,
    MAX_RECORD,
    PIPE_VERSION,
    PipeError,
    Status,
    Turn,
    pack,
    read_output,
    read_status,
    unpack,
)
from p2pcards.table import outputs as out
from p2pcards.table.genesis import Genesis

ANSWER_SECONDS = 60
"""How long the program may take over one answer (a shuffle proof of a slow implementation)."""
STDERR_KEPT = 4_000
MAX_ANSWER_RECORDS = 100_000
"""The most outputs one answer may hold (a catch-up answer holds a few hundred): past it, the program
is taken to be babbling, and its answer is refused rather than held in memory without end."""


class PeerFailed(Exception):
    """The program under test broke the pipe: it died, answered garbage or took too long."""


@dataclass(frozen=True)
class _Chain:
    step: int
    head: bytes


@dataclass(frozen=True)
class _Stopped:
    seat: int
    kind: str


class PipeProcess:
    """One run of the program: records in, records out, its standard error kept for the report."""

    def __init__(self, command: str, *, answer_seconds: float | None = None) -> None:
        self.command = command
        self.answer_seconds = ANSWER_SECONDS if answer_seconds is None else answer_seconds
        try:
            self.proc = subprocess.Popen(
                shlex.split(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        except OSError as exc:
            raise PeerFailed(f"cannot start {command!r}: {exc}") from exc
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self._out_fd = self.proc.stdout.fileno()
        self._err_fd = self.proc.stderr.fileno()
        os.set_blocking(self._out_fd, False)
        os.set_blocking(self._err_fd, False)
        self._buffer = bytearray()
        self._records: deque[dict[str, Any]] = deque()
        self.stderr = bytearray()
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._out_fd, selectors.EVENT_READ, "out")
        self._selector.register(self._err_fd, selectors.EVENT_READ, "err")

    def send(self, record: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(pack(record))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise PeerFailed(f"the program is gone ({self._exit()}){self._stderr_tail()}") from exc

    def answer(self) -> list[dict[str, Any]]:
        """Every record up to and including ``done``, within ``answer_seconds`` in all."""
        import time  # a bound on a real process's answer, never part of a simulated run's outcome

        deadline = time.monotonic() + self.answer_seconds
        records: list[dict[str, Any]] = []
        while len(records) < MAX_ANSWER_RECORDS:
            record = self._next(deadline)
            records.append(record)
            if record.get("out") == "done":
                return records
        raise PeerFailed(f"an answer of over {MAX_ANSWER_RECORDS} records without done")

    def _next(self, deadline: float) -> dict[str, Any]:
        import time

        while not self._records:
            left = deadline - time.monotonic()
            if left <= 0:
                raise PeerFailed(f"no answer within {self.answer_seconds} s{self._stderr_tail()}")
            events = self._selector.select(left)
            for key, _ in events:
                chunk = os.read(key.fd, 1 << 16)
                if key.data == "err":
                    self.stderr += chunk
                    del self.stderr[:-STDERR_KEPT]
                    if not chunk:
                        self._selector.unregister(key.fd)
                    continue
                if not chunk:
                    raise PeerFailed(f"the program ended in mid-answer ({self._exit()}){self._stderr_tail()}")
                self._buffer += chunk
                self._split()
        return self._records.popleft()

    def _split(self) -> None:
        while len(self._buffer) >= LENGTH.size:
            (size,) = LENGTH.unpack(self._buffer[: LENGTH.size])
            if size > MAX_RECORD:
                raise PeerFailed(f"the program announced a record of {size} bytes (limit {MAX_RECORD})")
            if len(self._buffer) < LENGTH.size + size:
                return
            body = bytes(self._buffer[LENGTH.size : LENGTH.size + size])
            del self._buffer[: LENGTH.size + size]
            try:
                self._records.append(unpack(body))
            except PipeError as exc:
                raise PeerFailed(str(exc)) from exc

    def _exit(self) -> str:
        code = self.proc.poll()
        return "still running" if code is None else f"exit status {code}"

    def _stderr_tail(self) -> str:
        text = bytes(self.stderr).decode("utf-8", "replace").strip()
        return f"; its last words: {text[-600:]}" if text else ""

    def close(self) -> None:
        """Say stop, then make sure: a program that lingers is killed."""
        if self.proc.poll() is None:
            try:
                self.send({"cmd": "stop"})
                self.proc.stdin.close()  # type: ignore[union-attr]
            except (PeerFailed, OSError):
                pass
            try:
                self.proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.kill()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        self._selector.close()


class PipeTable:
    """The harness's handle on a seat run by another program, shaped as the network expects a table."""

    def __init__(
        self,
        genesis: Genesis,
        seat: int,
        command: str,
        *,
        identity_seed: bytes,
        entropy: bytes,
        secrets: dict[str, bytes],
        raw_genesis: bytes | None = None,
    ) -> None:
        self.genesis = genesis
        self.seat = seat
        self.command = command
        self._start = {
            "cmd": "start",
            "version": PIPE_VERSION,
            "seat": seat,
            "genesis": raw_genesis if raw_genesis is not None else genesis.encode(),
            "identity": identity_seed,
            "entropy": entropy,
            "secrets": dict(secrets),
        }
        self.behaviour: str | None = None
        """``return``: the network takes this seat away for a while, then restarts it (``away_seat``)."""
        self.failed: str | None = None
        """How the program broke the pipe, once it did: it is stopped, and nothing more is asked of it."""
        try:
            self.process: PipeProcess | None = PipeProcess(command)
        except PeerFailed as exc:
            self.process = None
            self.failed = str(exc)
        self.status = Status()
        self.turn: Turn | None = None
        self.refusal: str | None = None
        """Why the program refused the command being answered (a genesis, an illegal move), if it did."""
        self.sent_on_refusal: list[str] = []
        """Commands refused (an illegal move) in whose answer the program still sent something."""
        self.errors: list[str] = []
        """What the program reported as ``error``: a command it could not take."""
        self.sent_on_start = 0
        """Messages sent in the answer to a ``start`` the program refused."""
        self.accepted_illegal: list[str] = []
        """Moves the rules forbid that the program took (``probe_illegal``)."""

    # ------------------------------------------------------------------ the table's interface

    def start(self) -> list[out.Output]:
        return self._begin([])

    def restore(self, journal: list[bytes]) -> list[out.Output]:
        return self._begin(list(journal))

    def _begin(self, journal: list[bytes]) -> list[out.Output]:
        outputs, reason = self._refusable(self._start | {"journal": journal})
        if reason is not None:
            # A table it would not start at is a failed run: nothing more is asked of it.
            self._fail(PeerFailed(f"the program refused to start: {reason}"))
        return outputs

    def refuses_start(self) -> str | None:
        """Start the program and return why it refused (None if it started): for a genesis no peer
        may sign."""
        outputs, reason = self._refusable(self._start | {"journal": []})
        self.sent_on_start = sum(isinstance(o, out.Send) for o in outputs)
        return reason

    def _refusable(self, command: dict[str, Any]) -> tuple[list[out.Output], str | None]:
        """The outputs of a command the program may refuse, and why it refused (None if it did not)."""
        self.refusal = None
        outputs = self._call(command)
        reason, self.refusal = self.refusal, None
        return outputs, reason

    def tick(self, now: int) -> list[out.Output]:
        return self._call({"cmd": "tick", "now": now})

    def receive_frame(self, peer: int, data: bytes) -> list[out.Output]:
        return self._call({"cmd": "frame", "from": peer, "data": data})

    def local_action(self, text: str) -> list[out.Output]:
        outputs, reason = self._refusable({"cmd": "act", "text": text})
        if reason is not None:
            if any(isinstance(o, out.Send) for o in outputs):
                self.sent_on_refusal.append(text)
            raise ActionError(reason)
        return outputs

    def ask_to_return(self) -> list[out.Output]:
        return self._call({"cmd": "return"})

    def digest(self) -> bytes:
        """The program's table digest; 32 zero bytes once it failed (its failure is the report)."""
        try:
            return self._report()
        except PeerFailed as exc:
            self._fail(exc)
            return bytes(32)

    def _report(self) -> bytes:
        digest = b""
        for r in self._exchange({"cmd": "report"}):
            if r.get("out") == "report":
                value = r.get("digest")
                if not isinstance(value, bytes) or len(value) != 32:
                    raise PeerFailed(f"a report's digest is 32 bytes, not {value!r}")
                digest = value
            self._take_status(r)
        if not digest:
            raise PeerFailed("the program answered report without a report")
        return digest

    @property
    def chain(self) -> _Chain:
        return _Chain(self.status.step, self.status.head)

    @property
    def over(self) -> bool:
        return self.status.over

    @property
    def abandoned(self) -> bool:
        return self.status.abandoned

    @property
    def stopped(self) -> _Stopped | None:
        s = self.status.stopped
        return None if s is None else _Stopped(*s)

    @property
    def hands_played(self) -> tuple[int, ...]:
        """The hands it holds sealed (only their number is known here)."""
        return tuple(range(self.status.sealed))

    @property
    def seats_out(self) -> dict[int, str]:
        return dict(self.status.seats_out)

    @property
    def left_behind(self) -> bool:
        return self.status.left_behind

    @property
    def waiting_for(self) -> tuple[int, ...]:
        return self.status.waiting

    @property
    def verdicts(self) -> list[out.Fault]:
        return list(self.status.verdicts)

    # ------------------------------------------------------------------ the pipe

    def _exchange(self, command: dict[str, Any]) -> list[dict[str, Any]]:
        if self.process is None or self.failed is not None:
            raise PeerFailed(self.failed or "the program is stopped")
        self.process.send(command)
        return self.process.answer()

    def _fail(self, exc: PeerFailed) -> None:
        if self.failed is None:
            self.failed = str(exc)
        if self.process is not None:
            self.process.kill()

    def _call(self, command: dict[str, Any]) -> list[out.Output]:
        """The outputs of one command; none once the program failed (it is asked nothing more)."""
        if self.failed is not None:
            return []
        try:
            return self._outputs(command)
        except PeerFailed as exc:
            self._fail(exc)
            return []

    def _outputs(self, command: dict[str, Any]) -> list[out.Output]:
        outputs: list[out.Output] = []
        for r in self._exchange(command):
            kind = r.get("out")
            if kind == "refused":
                self.refusal = str(r.get("reason", ""))
                continue
            if kind == "error":
                self.errors.append(f"{command.get('cmd')}: {r.get('reason')}")
                continue
            if self._take_status(r):
                continue
            try:
                o = read_output(r)
            except PipeError as exc:
                raise PeerFailed(f"answering {command.get('cmd')}: {exc}") from exc
            if isinstance(o, Turn):
                self.turn = o
                outputs.append(out.YourTurn(o.hand, None))  # type: ignore[arg-type]
            elif o is not None:
                outputs.append(o)
        return outputs

    def _take_status(self, r: dict[str, Any]) -> bool:
        if r.get("out") not in ("done", "report"):
            return False
        value = r.get("status")
        if value is not None:
            try:
                self.status = read_status(value)
            except PipeError as exc:
                raise PeerFailed(f"its status: {exc}") from exc
        return True

    def close(self) -> None:
        if self.process is not None:
            self.process.close()

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
