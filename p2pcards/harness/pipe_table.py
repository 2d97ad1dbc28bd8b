"""A seat of the simulated table run by another program, through the harness pipe (HARNESS.md).

``PipeTable`` stands where an in-process ``Table`` would: the simulated network calls it the same
way, and it turns each call into one command and the program's answer back into outputs.  The
program is started with ``start``'s secrets and journal, so a crash is a kill and a restart.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import sys
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from p2pcards.games import ActionError
from p2pcards.harness.pipe import (
    LENGTH,
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
from p2pcards.wire import MAX_MESSAGE_SIZE, encode_frame

ANSWER_SECONDS = 60
"""How long the program may take over one command: taking it (a write to its standard input) and
answering it (a shuffle proof of a slow implementation), in all."""
STOP_SECONDS = 3
"""How long a program told to stop may take to exit before it is killed."""
GONE_SECONDS = 2
"""How long the harness reads what a program that went away had written, before it reports how it
went (its pipes close as it exits; a helper holding them open costs at most this)."""
STDERR_KEPT = 4_000
STDERR_SHOWN = 600
MAX_ANSWER_RECORDS = 100_000
"""The most outputs one answer may hold (a catch-up answer holds a few hundred): past it, the program
is taken to be babbling, and its answer is refused rather than held in memory without end."""
MAX_OUTPUT_RECORD = MAX_MESSAGE_SIZE + 64 * 1024
"""The largest record the program may write: a ``send`` of the largest message, with room to spare
(the harness's own records may be larger: a restored seat's journal travels in one ``start``)."""
MAX_ANSWER_BYTES = 64 * 1024 * 1024
"""The most bytes one answer may take (ours: under 1 MiB, a catch-up answer after a restart)."""
MAX_RUN_BYTES = 512 * 1024 * 1024
"""The most bytes one run of the program may write on its standard output (ours: a few MiB for the
longest case)."""
SUPERVISOR = Path(__file__).with_name("pipe_supervisor.py")


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
    """One run of the program: records in, records out, its standard error kept for the report.

    Every write to the program and every read from it is under the command's deadline, and the bytes
    it may write are bounded per record, per answer and per run; the program runs under a supervisor
    (``pipe_supervisor``) that ends every process it started when its run ends."""

    def __init__(self, command: str, *, answer_seconds: float | None = None) -> None:
        self.command = command
        self.answer_seconds = ANSWER_SECONDS if answer_seconds is None else answer_seconds
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise PeerFailed(f"cannot start {command!r}: {exc}") from exc
        if not argv or shutil.which(argv[0]) is None:
            raise PeerFailed(f"cannot start {command!r}: no such program")
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-I", "-S", str(SUPERVISOR), str(os.getpid()), *argv],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as exc:
            raise PeerFailed(f"cannot start {command!r}: {exc}") from exc
        assert self.proc.stdin is not None and self.proc.stdout is not None and self.proc.stderr is not None
        self._in_fd = self.proc.stdin.fileno()
        self._out_fd = self.proc.stdout.fileno()
        self._err_fd = self.proc.stderr.fileno()
        for fd in (self._in_fd, self._out_fd, self._err_fd):
            os.set_blocking(fd, False)
        self._buffer = bytearray()
        self._records: deque[dict[str, Any]] = deque()
        self.stderr = bytearray()
        self.read_bytes = 0
        """Every byte the program wrote on its standard output in this run."""
        self.largest_answer = 0
        self._answer_bytes = 0
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._out_fd, selectors.EVENT_READ, "out")
        self._selector.register(self._err_fd, selectors.EVENT_READ, "err")
        self._writing = False

    def exchange(self, record: dict[str, Any]) -> list[dict[str, Any]]:
        """Send one command and return its answer: every record up to and including ``done``, all
        within ``answer_seconds``."""
        deadline = _now() + self.answer_seconds
        self._write(pack(record), deadline)
        return self._answer(deadline)

    def send(self, record: dict[str, Any]) -> None:
        """Send a command that is not answered (``stop``), within ``answer_seconds``."""
        self._write(pack(record), _now() + self.answer_seconds)

    def _write(self, data: bytes, deadline: float) -> None:
        view = memoryview(data)
        self._selector.register(self._in_fd, selectors.EVENT_WRITE, "in")
        self._writing = True
        try:
            while view:
                # Reading on meanwhile: a program that writes before it reads must not block on a
                # full pipe while the harness waits for it to read.
                for key in self._wait(deadline, "take a command"):
                    if key.data != "in":
                        self._read(key)
                        continue
                    try:
                        n = os.write(self._in_fd, view)
                    except BlockingIOError:
                        continue
                    except OSError as exc:  # BrokenPipeError above all: it stopped reading for good
                        raise self._gone("the program is gone") from exc
                    view = view[n:]
        finally:
            with contextlib.suppress(KeyError):
                self._selector.unregister(self._in_fd)
            self._writing = False

    def _answer(self, deadline: float) -> list[dict[str, Any]]:
        self._answer_bytes = len(self._buffer)
        records: list[dict[str, Any]] = []
        while len(records) < MAX_ANSWER_RECORDS:
            while not self._records:
                for key in self._wait(deadline, "answer"):
                    self._read(key)
            record = self._records.popleft()
            records.append(record)
            if record.get("out") == "done":
                self.largest_answer = max(self.largest_answer, self._answer_bytes)
                return records
        raise PeerFailed(f"an answer of over {MAX_ANSWER_RECORDS} records without done")

    def _wait(self, deadline: float, what: str) -> list[selectors.SelectorKey]:
        left = deadline - _now()
        events = self._selector.select(left) if left > 0 else []
        if not events:
            if what == "answer":
                raise PeerFailed(f"no answer within {self.answer_seconds} s{self._stderr_tail()}")
            raise PeerFailed(
                f"the program took no command within {self.answer_seconds} s (it does not read its "
                f"standard input){self._stderr_tail()}"
            )
        return [key for key, _ in events]

    def _read(self, key: selectors.SelectorKey) -> None:
        try:
            chunk = os.read(key.fd, 1 << 16)
        except BlockingIOError:
            return
        if key.data == "err":
            self.stderr += chunk
            del self.stderr[:-STDERR_KEPT]
            if not chunk:
                self._selector.unregister(key.fd)
            return
        if not chunk:
            self._selector.unregister(key.fd)
            raise self._gone("the program ended in mid-answer")
        self._take(chunk)

    def _take(self, chunk: bytes) -> None:
        self.read_bytes += len(chunk)
        self._answer_bytes += len(chunk)
        if self._answer_bytes > MAX_ANSWER_BYTES:
            raise PeerFailed(f"an answer of over {MAX_ANSWER_BYTES} bytes (the bound of one answer)")
        if self.read_bytes > MAX_RUN_BYTES:
            raise PeerFailed(f"over {MAX_RUN_BYTES} bytes written in one run (the bound of a run)")
        self._buffer += chunk
        self._split()

    def _split(self) -> None:
        while len(self._buffer) >= LENGTH.size:
            (size,) = LENGTH.unpack(self._buffer[: LENGTH.size])
            if size > MAX_OUTPUT_RECORD:
                raise PeerFailed(
                    f"the program announced a record of {size} bytes (the bound of one record is "
                    f"{MAX_OUTPUT_RECORD})"
                )
            if len(self._buffer) < LENGTH.size + size:
                return
            body = bytes(self._buffer[LENGTH.size : LENGTH.size + size])
            del self._buffer[: LENGTH.size + size]
            try:
                self._records.append(unpack(body))
            except PipeError as exc:
                raise PeerFailed(str(exc)) from exc

    def _gone(self, what: str) -> PeerFailed:
        """The program stopped reading or writing. What it wrote before it went is read to its end
        first — a record out of shape in it is the root cause, and is what the harness reports — and
        so is its standard error, whichever of the pipes the harness happened to see close first."""
        deadline = _now() + GONE_SECONDS
        with contextlib.suppress(KeyError):
            self._selector.unregister(self._in_fd)  # nothing more is written to it
        while self._selector.get_map():
            left = deadline - _now()
            events = self._selector.select(left) if left > 0 else []
            if not events:
                break
            for key, _ in events:
                try:
                    chunk = os.read(key.fd, 1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:
                    self._selector.unregister(key.fd)
                elif key.data == "err":
                    self.stderr += chunk
                    del self.stderr[:-STDERR_KEPT]
                else:
                    self._take(chunk)  # raises PeerFailed at a record out of shape or over a bound
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=max(0.0, deadline - _now()))  # its supervisor ends what it left behind
        return PeerFailed(f"{what} ({self._exit()}){self._stderr_tail()}")

    def _exit(self) -> str:
        code = self.proc.poll()
        return "still running" if code is None else f"exit status {code}"

    def _stderr_tail(self) -> str:
        text = bytes(self.stderr).decode("utf-8", "replace").strip()
        return f"; its last words: {text[-STDERR_SHOWN:]}" if text else ""

    def close(self) -> None:
        """Say stop, then make sure: a program that lingers is killed."""
        if self.proc.poll() is None:
            try:
                self._write(pack({"cmd": "stop"}), _now() + STOP_SECONDS)
                self.proc.stdin.close()  # type: ignore[union-attr]
            except (PeerFailed, OSError):
                pass
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=STOP_SECONDS)
        self.kill()

    def kill(self) -> None:
        """End the run: the supervisor ends the program and everything it started, then itself."""
        if self.proc.poll() is None:
            with contextlib.suppress(OSError):
                self.proc.terminate()
            try:
                self.proc.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                # The supervisor itself is stuck: its own process group goes.
                with contextlib.suppress(OSError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        self._selector.close()


def _now() -> float:
    import time  # a bound on a real process's answer, never part of a simulated run's outcome

    return time.monotonic()


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
        self.sent_before_persist: list[str] = []
        """Commands in whose answer (or later) the program journaled a message it had already sent."""
        self._persisted: set[bytes] = set()
        self._sent_first: set[bytes] = set()
        """Hashes of what it sent and had not journaled (only looked up, never iterated)."""
        self.last_command = ""
        """The last command sent, for the report of a failed case (``frame from 1, 412 bytes``)."""
        self.last_answer = ""
        """The kinds of the records of its answer, in order."""

    # ------------------------------------------------------------------ the table's interface

    def start(self) -> list[out.Output]:
        return self._begin([])

    def restore(self, journal: list[bytes]) -> list[out.Output]:
        self._persisted.update(hashlib.sha256(p).digest() for p in journal)
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

    def receive(self, peer: int | None, payload: bytes) -> list[out.Output]:
        """A payload as a replica takes it: framed as the program reads it off its connection (it
        reads frames only from a link, so a payload from no peer is not given to it)."""
        return [] if peer is None else self.receive_frame(peer, encode_frame(payload))

    def local_action(self, text: str) -> list[out.Output]:
        outputs, reason = self._refusable({"cmd": "act", "text": text})
        if reason is not None:
            if any(isinstance(o, out.Send) for o in outputs):
                self.sent_on_refusal.append(text)
            raise ActionError(reason)
        return outputs

    def ask_to_return(self) -> list[out.Output]:
        return self._call({"cmd": "return"})

    def decide_silent(self, go_on: bool) -> list[out.Output]:
        """Nothing to ask: the pipe has no person's answers (the program decides as a computer seat)."""
        return []

    def admit(self, seat: int, yes: bool) -> list[out.Output]:
        """As ``decide_silent``: the program admits or refuses a return by itself."""
        return []

    def watch(self) -> list[out.Output]:
        """As ``decide_silent``: the program left behind asks to come back or watches by itself."""
        return []

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
        if command.get("cmd") == "report":
            return self.process.exchange(command)  # the judge's question, not the game's last word
        self.last_command = _command_text(command)
        self.last_answer = "(no answer)"
        answer = self.process.exchange(command)
        self.last_answer = ", ".join(_answer_text(r) for r in answer)
        return answer

    def stderr_tail(self) -> str:
        """The end of what the program wrote on its standard error (raw: shown only made safe)."""
        if self.process is None:
            return ""
        return bytes(self.process.stderr).decode("utf-8", "replace").strip()[-STDERR_SHOWN:]

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
                self._check_order(o, command)
                outputs.append(o)
        return outputs

    def _check_order(self, o: out.Output, command: dict[str, Any]) -> None:
        """SPEC §13 as far as the harness sees it: a message the program journals was not sent before
        (a send may be journaled never: a catch-up request is not; but not after)."""
        if isinstance(o, out.Send):
            digest = hashlib.sha256(o.payload).digest()
            if digest not in self._persisted:
                self._sent_first.add(digest)
        elif isinstance(o, out.Persist):
            digest = hashlib.sha256(o.payload).digest()
            self._persisted.add(digest)
            if digest in self._sent_first and len(self.sent_before_persist) < 5:
                self._sent_first.discard(digest)
                self.sent_before_persist.append(_command_text(command))

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


def _command_text(command: dict[str, Any]) -> str:
    cmd = command.get("cmd")
    if cmd == "frame":
        return f"frame from seat {command.get('from')}, {len(command.get('data') or b'')} bytes"
    if cmd == "tick":
        return f"tick at {command.get('now')} ms"
    if cmd == "act":
        return f"act {command.get('text')!r}"
    if cmd == "start":
        return f"start as seat {command.get('seat')} with a journal of {len(command.get('journal') or [])}"
    return str(cmd)


def _answer_text(r: dict[str, Any]) -> str:
    kind = str(r.get("out"))
    if kind in ("refused", "error"):
        return f"{kind} ({r.get('reason')})"
    if kind == "done" and isinstance(r.get("status"), dict):
        return f"done at step {r['status'].get('step')}"
    return kind
