"""The harness pipe (``protocol/HARNESS.md``): how the harness runs a seat in another program.

The harness and the program exchange **records** over the program's standard input and output: a
4-byte big-endian length, then a msgpack map with text keys.  The harness sends one command at a
time (``cmd``); the program answers with any number of outputs (``out``) and ends its answer with
``done``, which carries its status.  This module is both sides' codec: what a table's outputs become
on the pipe (the program's side) and what the harness makes of them again.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any, BinaryIO

import msgpack

from p2pcards.table import outputs as out

PIPE_VERSION = 1
MAX_RECORD = 64 * 1024 * 1024
"""A record's largest size: a restored seat's whole journal travels in one ``start``."""
LENGTH = struct.Struct(">I")


class PipeError(Exception):
    """The other side broke the pipe's rules: a record too long, not msgpack, not a map, cut short."""


# --------------------------------------------------------------------------- records


def pack(record: dict[str, Any]) -> bytes:
    body: bytes = msgpack.packb(record, use_bin_type=True)
    if len(body) > MAX_RECORD:
        raise PipeError(f"a record of {len(body)} bytes is over the {MAX_RECORD}-byte limit")
    return LENGTH.pack(len(body)) + body


def unpack(body: bytes) -> dict[str, Any]:
    try:
        value = msgpack.unpackb(body, raw=False, strict_map_key=True, max_bin_len=MAX_RECORD)
    except Exception as exc:  # msgpack raises several kinds; every one means the same here
        raise PipeError(f"a record is not msgpack: {exc}") from exc
    if not isinstance(value, dict):
        raise PipeError(f"a record is a map, not {type(value).__name__}")
    return value


def write_record(stream: BinaryIO, record: dict[str, Any]) -> None:
    stream.write(pack(record))
    stream.flush()


def read_record(stream: BinaryIO) -> dict[str, Any] | None:
    """The next record, or None at a clean end of the stream (no byte of a next record)."""
    head = stream.read(LENGTH.size)
    if not head:
        return None
    if len(head) < LENGTH.size:
        raise PipeError("the stream ended inside a record's length")
    (size,) = LENGTH.unpack(head)
    if size > MAX_RECORD:
        raise PipeError(f"a record of {size} bytes is announced, over the {MAX_RECORD}-byte limit")
    body = stream.read(size)
    if len(body) < size:
        raise PipeError(f"the stream ended inside a record ({len(body)} of {size} bytes)")
    return unpack(body)


# --------------------------------------------------------------------------- the program's side


def output_record(o: out.Output, legal: list[str] | None = None) -> dict[str, Any] | None:
    """What one of a table's outputs is on the pipe; None for what the harness does not need to see
    (screens' events: a state change, whom the table waits for, a question for a person)."""
    if isinstance(o, out.Send):
        return {"out": "send", "payload": o.payload, "to": o.to}
    if isinstance(o, out.Persist):
        return {"out": "persist", "payload": o.payload}
    if isinstance(o, out.KeepSecret):
        return {"out": "keep_secret", "label": o.label, "secret": o.secret}
    if isinstance(o, out.YourTurn):
        return {"out": "your_turn", "hand": o.hand, "legal": legal or []}
    if isinstance(o, out.Fault):
        return {"out": "verdict", **verdict_value(o)}
    if isinstance(o, out.Rejected):
        return {"out": "rejected", "peer": o.peer, "reason": o.reason, "detail": o.detail}
    if isinstance(o, out.HandOver):
        return {"out": "hand_over", "hand": o.hand}
    if isinstance(o, out.Sealed):
        return {"out": "sealed", "hand": o.hand, "seats": list(o.seats)}
    if isinstance(o, out.HandVoid):
        return {"out": "hand_void", "hand": o.hand}
    if isinstance(o, out.Seating):
        return {
            "out": "seating",
            "hand": o.hand,
            "playing": list(o.playing),
            "dummies": list(o.dummies),
            "seats_out": [[s, why] for s, why in o.out],
        }
    if isinstance(o, out.MatchOver):
        return {"out": "match_over", "abandoned": o.abandoned}
    if isinstance(o, out.VotesContradicted):
        return {
            "out": "told",
            "step": o.step,
            "voters": list(o.voters),
            "named": list(o.named),
            "majority": o.majority,
        }
    return None


def verdict_value(f: out.Fault) -> dict[str, Any]:
    return {
        "seat": f.seat,
        "seats": list(f.seats or (f.seat,)),
        "kind": f.kind,
        "step": f.step,
        "hand": f.hand,
        "unconfirmed": f.unconfirmed,
        "message": f.message,
    }


# --------------------------------------------------------------------------- the harness's side


@dataclass(frozen=True)
class Status:
    """What the program says of its replica at the end of every answer (``done``)."""

    step: int = 0
    head: bytes = b""
    over: bool = False
    abandoned: bool = False
    stopped: tuple[int, str] | None = None
    sealed: int = 0
    seats_out: tuple[tuple[int, str], ...] = ()
    left_behind: bool = False
    waiting: tuple[int, ...] = ()
    verdicts: tuple[out.Fault, ...] = field(default=())


def _int(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise PipeError(f"{what} is an integer, not {value!r}")
    return value


def _ints(value: Any, what: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise PipeError(f"{what} is a list of seats, not {value!r}")
    return tuple(_int(v, what) for v in value)


def _bytes(value: Any, what: str) -> bytes:
    if not isinstance(value, bytes):
        raise PipeError(f"{what} is bytes, not {type(value).__name__}")
    return value


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise PipeError(f"{what} is text, not {type(value).__name__}")
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise PipeError(f"{what} is true or false, not {value!r}")
    return value


def read_verdict(v: Any) -> out.Fault:
    if not isinstance(v, dict):
        raise PipeError(f"a verdict is a map, not {v!r}")
    seat = _int(v.get("seat"), "a verdict's seat")
    seats = _ints(v.get("seats", [seat]), "a verdict's seats")
    return out.Fault(
        seat=seat,
        step=_int(v.get("step", -1), "a verdict's step"),
        kind=_text(v.get("kind"), "a verdict's kind"),
        message=_text(v.get("message", ""), "a verdict's message"),
        hand=_int(v.get("hand", -1), "a verdict's hand"),
        seats=seats,
        unconfirmed=_bool(v.get("unconfirmed", False), "a verdict's unconfirmed"),
    )


def read_status(v: Any) -> Status:
    if not isinstance(v, dict):
        raise PipeError(f"a status is a map, not {v!r}")
    stopped = v.get("stopped")
    if stopped is not None:
        if not isinstance(stopped, list) or len(stopped) != 2:
            raise PipeError(f"stopped is [seat, kind] or nil, not {stopped!r}")
        stopped = (_int(stopped[0], "stopped's seat"), _text(stopped[1], "stopped's kind"))
    seats_out = v.get("seats_out", [])
    if not isinstance(seats_out, list) or not all(isinstance(x, list) and len(x) == 2 for x in seats_out):
        raise PipeError(f"seats_out is a list of [seat, why], not {seats_out!r}")
    verdicts = v.get("verdicts", [])
    if not isinstance(verdicts, list):
        raise PipeError(f"verdicts is a list, not {verdicts!r}")
    return Status(
        step=_int(v.get("step"), "the status's step"),
        head=_bytes(v.get("head"), "the status's head"),
        over=_bool(v.get("over"), "over"),
        abandoned=_bool(v.get("abandoned", False), "abandoned"),
        stopped=stopped,
        sealed=_int(v.get("sealed", 0), "sealed"),
        seats_out=tuple((_int(s, "a seat out"), _text(w, "why a seat is out")) for s, w in seats_out),
        left_behind=_bool(v.get("left_behind", False), "left_behind"),
        waiting=_ints(v.get("waiting", []), "waiting"),
        verdicts=tuple(read_verdict(x) for x in verdicts),
    )


@dataclass(frozen=True)
class Turn:
    """The program's seat must move (``your_turn``): the harness chooses among ``legal``."""

    hand: int
    legal: tuple[str, ...]


def read_output(r: dict[str, Any]) -> out.Output | Turn | None:
    """A table output again from an ``out`` record (``your_turn`` becomes a ``Turn``); None for a kind
    the harness does not know, which it ignores as a shell ignores an unknown event."""
    kind = r.get("out")
    if kind == "send":
        to = r.get("to")
        return out.Send(_bytes(r.get("payload"), "a send's payload"), None if to is None else _int(to, "to"))
    if kind == "persist":
        return out.Persist(_bytes(r.get("payload"), "a persist's payload"))
    if kind == "keep_secret":
        return out.KeepSecret(_text(r.get("label"), "a secret's label"), _bytes(r.get("secret"), "a secret"))
    if kind == "your_turn":
        legal = r.get("legal")
        if not isinstance(legal, list) or not legal or not all(isinstance(t, str) for t in legal):
            raise PipeError(f"your_turn's legal is a non-empty list of action texts, not {legal!r}")
        return Turn(_int(r.get("hand"), "your_turn's hand"), tuple(legal))
    if kind == "verdict":
        return read_verdict(r)
    if kind == "rejected":
        peer = r.get("peer")
        return out.Rejected(
            None if peer is None else _int(peer, "a rejection's peer"),
            _text(r.get("reason"), "a rejection's reason"),
            _text(r.get("detail", ""), "a rejection's detail"),
        )
    if kind == "close":
        reason = _text(r.get("reason", ""), "a close's reason")
        return out.Rejected(_int(r.get("peer"), "a close's peer"), "closed", reason)
    if kind == "sealed":
        return out.Sealed(_int(r.get("hand"), "a seal's hand"), _ints(r.get("seats", []), "a seal's seats"))
    if kind == "hand_void":
        return out.HandVoid(_int(r.get("hand"), "a void hand"), ())
    if kind == "seating":
        seats_out = r.get("seats_out", [])
        if not isinstance(seats_out, list):
            raise PipeError("a seating's seats_out is a list")
        return out.Seating(
            _int(r.get("hand"), "a seating's hand"),
            _ints(r.get("playing", []), "a seating's playing"),
            _ints(r.get("dummies", []), "a seating's dummies"),
            tuple((_int(x[0], "a seat out"), _text(x[1], "why")) for x in seats_out),
        )
    if kind == "match_over":
        return out.MatchOver("", _bool(r.get("abandoned", False), "abandoned"))
    if kind == "told":
        return out.VotesContradicted(
            _int(r.get("step"), "told's step"),
            _ints(r.get("voters", []), "told's voters"),
            _ints(r.get("named", []), "told's named"),
            _bool(r.get("majority", False), "told's majority"),
        )
    return None
