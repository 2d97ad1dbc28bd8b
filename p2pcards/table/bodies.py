"""The bodies of the session's messages, read strictly.

Every body a peer sends is checked here for its exact shape before the table looks at it: the keys
of a map (no more, no fewer), the type of every value (an integer is never a boolean), seat lists
ascending and in range.  Each reader returns the typed value or raises ``BodyError`` with the reason
a receiver reports (``protocol/SPEC.md`` lists them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


class BodyError(ValueError):
    """A body that does not have the shape its kind requires."""


def is_int(value: object) -> bool:
    """An integer of the wire: ``bool`` is an ``int`` in Python, never on the wire."""
    return isinstance(value, int) and not isinstance(value, bool)


def _map(body: Any, keys: tuple[str, ...], what: str) -> Mapping[str, Any]:
    if not isinstance(body, dict) or tuple(sorted(body)) != tuple(sorted(keys)):
        if not keys:
            raise BodyError(f"{what} is an empty map")
        raise BodyError(f"{what} is a map with exactly the keys {', '.join(sorted(keys))}")
    return body


def seat_list(value: Any, n: int, what: str) -> tuple[int, ...]:
    """Distinct seat numbers of a table of ``n``, ascending."""
    if not isinstance(value, (list, tuple)) or not all(is_int(v) for v in value):
        raise BodyError(f"{what} is an array of seat numbers")
    seats = tuple(int(v) for v in value)
    if list(seats) != sorted(set(seats)) or not all(0 <= s < n for s in seats):
        raise BodyError(f"{what} lists distinct seats of 0..{n - 1}, ascending")
    return seats


def bytes32(body: Any, what: str) -> bytes:
    if not isinstance(body, bytes) or len(body) != 32:
        raise BodyError(f"{what} is 32 bytes")
    return body


@dataclass(frozen=True)
class ActionBody:
    text: str
    positions: tuple[int, ...]
    shares: Any


def action_body(body: Any) -> ActionBody:
    m = _map(body, ("a", "pos", "shares"), "an action")
    text, raw = m["a"], m["pos"]
    if not isinstance(text, str) or not 1 <= len(text) <= 64:
        raise BodyError("an action's text is a string of 1 to 64 characters")
    if not isinstance(raw, (list, tuple)) or not all(is_int(p) and p >= 0 for p in raw):
        raise BodyError("the positions an action shows are an array of positions")
    positions = tuple(int(p) for p in raw)
    if list(positions) != sorted(set(positions)):
        raise BodyError("the positions an action shows are distinct and ascending")
    if not isinstance(m["shares"], (list, tuple)):
        raise BodyError("an action's shares are an array")
    return ActionBody(text, positions, m["shares"])


def shares_body(body: Any) -> Any:
    m = _map(body, ("shares",), "a share message")
    if not isinstance(m["shares"], (list, tuple)):
        raise BodyError("a share message is {shares: [...]}")
    return m["shares"]


@dataclass(frozen=True)
class SealBody:
    hand: int
    result: bytes
    over: bool
    admit: tuple[int, ...]


def seal_body(body: Any, n: int) -> SealBody:
    m = _map(body, ("admit", "hand", "over", "result"), "a seal")
    if not is_int(m["hand"]) or m["hand"] < 0:
        raise BodyError("a seal's hand is a hand number")
    if not isinstance(m["over"], bool):
        raise BodyError("a seal's over is a boolean")
    return SealBody(
        int(m["hand"]),
        bytes32(m["result"], "a seal's result"),
        m["over"],
        seat_list(m["admit"], n, "a seal's admit"),
    )


def silent_body(body: Any, n: int, what: str) -> tuple[int, ...]:
    """The seats a vote (or an abandon) names silent: at least one."""
    m = _map(body, ("silent",), what)
    seats = seat_list(m["silent"], n, f"{what}'s silent seats")
    if not seats:
        raise BodyError(f"{what} names at least one silent seat")
    return seats


def return_body(body: Any) -> None:
    _map(body, (), "a return request")


def catchup_request_body(body: Any) -> int:
    m = _map(body, ("after",), "a catch-up request")
    after = m["after"]
    if not is_int(after) or after < -1:
        raise BodyError("a catch-up request's after is a step number or -1")
    return int(after)


def catchup_response_body(body: Any) -> tuple[bytes, ...]:
    m = _map(body, ("msgs",), "a catch-up response")
    msgs = m["msgs"]
    if not isinstance(msgs, (list, tuple)) or not all(isinstance(x, bytes) for x in msgs):
        raise BodyError("a catch-up response's msgs are an array of messages")
    return tuple(msgs)
