"""``p2pcards peer --stdio``: our replica as a seat the harness runs through its pipe (HARNESS.md).

It reads the harness's commands from standard input and answers each on standard output, as any
other implementation would: frames arrive as the bytes of a connection, so framing, the size limit
and a garbled stream are this side's to handle, and a connection it closes is said so (``close``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, BinaryIO

from p2pcards.games import ActionError
from p2pcards.harness.pipe import (
    PIPE_VERSION,
    PipeError,
    output_record,
    read_record,
    verdict_value,
    write_record,
)
from p2pcards.table import outputs as out
from p2pcards.table.genesis import Genesis, GenesisError
from p2pcards.table.replica import Table
from p2pcards.table.secrets import MASTER, MASTER_SIZE
from p2pcards.wire import MAX_MESSAGE_SIZE, FrameDecoder, WireError, key_from_seed, public_bytes
from p2pcards.wire.keys import KEY_SIZE

MakeTable = Callable[..., Table]


class _Entropy:
    """The harness's entropy (``start``'s ``entropy``) as a stream of bytes, so that a run replays
    exactly; a real game draws from the operating system instead."""

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._count = 0

    def __call__(self, n: int) -> bytes:
        self._count += 1
        return hashlib.shake_256(self._seed + self._count.to_bytes(8, "big")).digest(n)


class PipePeer:
    def __init__(self, stdout: BinaryIO, make_table: MakeTable = Table) -> None:
        self._stdout = stdout
        self._make_table = make_table
        self.table: Table | None = None
        self._decoders: dict[int, FrameDecoder] = {}

    # ------------------------------------------------------------------ answers

    def _emit(self, record: dict[str, Any]) -> None:
        write_record(self._stdout, record)

    def _carry(self, outputs: list[out.Output]) -> None:
        for o in outputs:
            legal = None
            if isinstance(o, out.YourTurn):
                assert self.table is not None
                legal = [self.table.rules.action_text(a) for a in o.view.legal_actions]
            record = output_record(o, legal)
            if record is not None:
                self._emit(record)

    def _done(self) -> None:
        self._emit({"out": "done", "status": self.status()})

    def status(self) -> dict[str, Any] | None:
        t = self.table
        if t is None:
            return None
        return {
            "step": t.chain.step,
            "head": t.chain.head,
            "over": t.over,
            "abandoned": t.abandoned,
            "stopped": None if t.stopped is None else [t.stopped.seat, t.stopped.kind],
            "sealed": len(t.hands_played),
            "seats_out": [[s, why] for s, why in sorted(t.seats_out.items())],
            "left_behind": t.left_behind,
            "waiting": list(t.waiting_for),
            "verdicts": [verdict_value(f) for f in t.verdicts],
        }

    # ------------------------------------------------------------------ commands

    def handle(self, record: dict[str, Any]) -> bool:
        """Answer one command; False once told to stop."""
        cmd = record.get("cmd")
        if cmd == "stop":
            return False
        if cmd == "start":
            self._start(record)
        elif self.table is None:
            self._emit({"out": "error", "reason": f"{cmd!r} before start"})
        elif cmd == "frame":
            self._frame(record)
        elif cmd == "tick":
            now = _int(record, "now")
            if now < 0:
                raise PipeError(f"tick's now is a time in ms from 0, not {now}")
            self._carry(self.table.tick(now))
        elif cmd == "act":
            self._act(record)
        elif cmd == "return":
            self._carry(self.table.ask_to_return())
        elif cmd == "report":
            self._emit({"out": "report", "digest": self.table.digest(), "status": self.status()})
        else:
            self._emit({"out": "error", "reason": f"unknown command {cmd!r}"})
        self._done()
        return True

    def _start(self, r: dict[str, Any]) -> None:
        if self.table is not None:
            # The harness starts a new process for every run of a seat (HARNESS.md §2): a second
            # start in one process would throw away a replica that may have spoken.
            raise PipeError("a second start: one run of the program plays one seat, started once")
        if r.get("version") != PIPE_VERSION:
            why = f"pipe version {r.get('version')!r}; this peer speaks {PIPE_VERSION}"
            self._emit({"out": "refused", "reason": why})
            return
        try:
            genesis = Genesis.decode(_bytes(r, "genesis"))
        except GenesisError as exc:
            self._emit({"out": "refused", "reason": f"genesis: {exc}"})
            return
        seat = _seat(r, "seat", len(genesis.seats))
        identity = key_from_seed(_sized(r, "identity", KEY_SIZE))
        if public_bytes(identity) != genesis.seats[seat].key:
            raise PipeError(f"start's identity is not the key of seat {seat} in the genesis")
        entropy = _sized(r, "entropy", ENTROPY_SIZE)
        secrets = _secrets(r.get("secrets"))
        journal = _journal(r.get("journal"))
        self.table = self._make_table(
            genesis, seat, identity, source=_Entropy(entropy), secrets=secrets
        )
        self._carry(self.table.restore(journal) if journal else self.table.start())

    def _frame(self, r: dict[str, Any]) -> None:
        assert self.table is not None and self.table.seat is not None
        peer = _seat(r, "from", self.table.n)
        if peer == self.table.seat:
            raise PipeError(f"frame's from is another seat than the program's own ({peer})")
        decoder = self._decoders.setdefault(peer, FrameDecoder(MAX_MESSAGE_SIZE))
        try:
            payloads = decoder.feed(_bytes(r, "data"))
        except WireError as exc:
            # The frames that came whole before the bad length are intact (WIRE.md §3); then the
            # connection is closed, and the next bytes from that peer open a new one.
            for payload in getattr(exc, "frames", []):
                self._carry(self.table.receive(peer, payload))
            del self._decoders[peer]
            self._emit({"out": "close", "peer": peer, "reason": str(exc)})
            return
        for payload in payloads:
            self._carry(self.table.receive(peer, payload))

    def _act(self, r: dict[str, Any]) -> None:
        assert self.table is not None
        try:
            outputs = self.table.local_action(_text(r, "text"))
        except ActionError as exc:
            self._emit({"out": "refused", "reason": str(exc)})
            return
        self._carry(outputs)


ENTROPY_SIZE = 32
MAX_TEXT = 4_096
"""The longest action text taken from the harness (the longest legal one is a few dozen characters)."""


def _seat(r: dict[str, Any], key: str, n: int) -> int:
    v = _int(r, key)
    if not 0 <= v < n:
        raise PipeError(f"{r.get('cmd')}'s {key} is a seat of the table, 0 to {n - 1}, not {v}")
    return v


def _sized(r: dict[str, Any], key: str, size: int) -> bytes:
    v = _bytes(r, key)
    if len(v) != size:
        raise PipeError(f"{r.get('cmd')}'s {key} is {size} bytes, not {len(v)}")
    return v


def _secrets(value: Any) -> dict[str, bytes]:
    """``start``'s secrets: a map of text labels to bytes, the master secret 32 bytes (SPEC §12)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise PipeError(f"start's secrets is a map of label to bytes, not {type(value).__name__}")
    kept: dict[str, bytes] = {}
    for label, secret in value.items():
        if not isinstance(label, str) or not isinstance(secret, bytes):
            raise PipeError(f"start's secrets maps text labels to bytes, not {type(label).__name__} "
                            f"to {type(secret).__name__}")
        kept[label] = secret
    master = kept.get(MASTER)
    if master is not None and len(master) != MASTER_SIZE:
        raise PipeError(f"start's secrets: {MASTER!r} is {MASTER_SIZE} bytes, not {len(master)}")
    return kept


def _journal(value: Any) -> list[bytes]:
    """``start``'s journal: a list of messages (bytes), none longer than a message may be."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise PipeError(f"start's journal is a list of messages, not {type(value).__name__}")
    for i, payload in enumerate(value):
        if not isinstance(payload, bytes):
            raise PipeError(f"start's journal holds messages as bytes; entry {i} is {type(payload).__name__}")
        if len(payload) > MAX_MESSAGE_SIZE:
            raise PipeError(f"start's journal entry {i} is {len(payload)} bytes, over the "
                            f"{MAX_MESSAGE_SIZE}-byte limit of a message")
    return list(value)


def _int(r: dict[str, Any], key: str) -> int:
    v = r.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise PipeError(f"{r.get('cmd')}'s {key} is an integer")
    return v


def _bytes(r: dict[str, Any], key: str) -> bytes:
    v = r.get(key)
    if not isinstance(v, bytes):
        raise PipeError(f"{r.get('cmd')}'s {key} is bytes")
    return v


def _text(r: dict[str, Any], key: str) -> str:
    v = r.get(key)
    if not isinstance(v, str):
        raise PipeError(f"{r.get('cmd')}'s {key} is text")
    if len(v) > MAX_TEXT:
        raise PipeError(f"{r.get('cmd')}'s {key} is at most {MAX_TEXT} characters, not {len(v)}")
    return v


def serve(stdin: BinaryIO, stdout: BinaryIO, make_table: MakeTable = Table) -> int:
    """Answer the harness until it says ``stop`` or closes the pipe (then 0); ``PipeError`` on a record
    that breaks the pipe's rules."""
    peer = PipePeer(stdout, make_table)
    while True:
        record = read_record(stdin)
        if record is None or not peer.handle(record):
            return 0
