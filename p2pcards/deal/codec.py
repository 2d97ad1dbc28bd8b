"""Strict decoding of the plain structures (lists of bytes and ints) that protocol objects travel as.

Whatever msgpack hands us — any type, any nesting, any length — these helpers either return exactly
what was asked for or raise ``EncodingError``; nothing else escapes.
"""

from __future__ import annotations

from p2pcards.deal.errors import EncodingError
from p2pcards.deal.group import POINT_SIZE, SCALAR_SIZE, Point, decode_scalar

__all__ = ["chunks", "expect_bytes", "expect_int", "expect_list", "points_from", "scalars_from"]


def expect_list(obj: object, length: int, what: str) -> list[object]:
    """A list (or tuple, as msgpack may give) of exactly ``length`` items."""
    if not isinstance(obj, list | tuple):
        raise EncodingError(f"{what}: expected a list, got {type(obj).__name__}")
    if len(obj) != length:
        raise EncodingError(f"{what}: expected {length} items, got {len(obj)}")
    return list(obj)


def expect_bytes(obj: object, length: int, what: str) -> bytes:
    if type(obj) is not bytes:
        raise EncodingError(f"{what}: expected bytes, got {type(obj).__name__}")
    if len(obj) != length:
        raise EncodingError(f"{what}: expected {length} bytes, got {len(obj)}")
    return obj


def expect_int(obj: object, lo: int, hi: int, what: str) -> int:
    """An integer in ``[lo, hi)``; ``bool`` is not an integer here."""
    if type(obj) is not int:
        raise EncodingError(f"{what}: expected an integer, got {type(obj).__name__}")
    if not lo <= obj < hi:
        raise EncodingError(f"{what}: {obj} is outside [{lo}, {hi})")
    return obj


def chunks(data: bytes, size: int) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


def points_from(obj: object, count: int, what: str) -> list[Point]:
    """``count`` points packed back to back in one bytes value."""
    data = expect_bytes(obj, count * POINT_SIZE, what)
    try:
        return [Point.decode(c) for c in chunks(data, POINT_SIZE)]
    except EncodingError as exc:
        raise EncodingError(f"{what}: {exc}") from None


def scalars_from(obj: object, count: int, what: str, *, nonzero: bool = False) -> list[int]:
    """``count`` scalars packed back to back in one bytes value."""
    data = expect_bytes(obj, count * SCALAR_SIZE, what)
    try:
        return [decode_scalar(c, nonzero=nonzero) for c in chunks(data, SCALAR_SIZE)]
    except EncodingError as exc:
        raise EncodingError(f"{what}: {exc}") from None
