"""Hashing with domain separation: digests, hash-to-scalar, hash-to-curve, and a seeded byte source.

Every hash of the protocol is ``SHA-256(frame(tag, parts...))`` where ``frame`` length-prefixes the tag
and each part (4-byte big-endian length), so no two different lists of parts can collide by
concatenation and no hash of one purpose can be replayed as a hash of another.
"""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Final

from p2pcards.deal.errors import EncodingError, UsageError
from p2pcards.deal.group import Point, Q, RandomSource, draw_bytes, encode_scalar, split_short

__all__ = [
    "TAG_PREFIX",
    "digest",
    "frame",
    "hash_to_curve",
    "hash_to_curve_counter",
    "hash_to_scalar",
    "hash_to_weights",
    "hedged_nonce",
    "seeded_source",
    "u64",
]

#: Every domain tag is this prefix followed by the purpose, e.g. ``p2pcards/deal/v1/key``.
TAG_PREFIX: Final = b"p2pcards/deal/v1/"


def u64(n: int) -> bytes:
    """An integer as 8 bytes big-endian (every integer the protocol hashes is encoded this way)."""
    if not 0 <= n < 1 << 64:
        raise UsageError("an integer to hash must lie in [0, 2^64)")
    return n.to_bytes(8, "big")


def frame(tag: str, *parts: bytes) -> bytes:
    """``len(T)‖T‖len(p1)‖p1‖…`` with ``T = TAG_PREFIX + tag`` and 4-byte big-endian lengths."""
    t = TAG_PREFIX + tag.encode("ascii")
    out = [len(t).to_bytes(4, "big"), t]
    for p in parts:
        out.append(len(p).to_bytes(4, "big"))
        out.append(p)
    return b"".join(out)


def digest(tag: str, *parts: bytes) -> bytes:
    """``SHA-256(frame(tag, parts))``: 32 bytes."""
    return hashlib.sha256(frame(tag, *parts)).digest()


def hash_to_scalar(tag: str, *parts: bytes) -> int:
    """``int(SHA-256(m‖00) ‖ SHA-256(m‖01)) mod q`` with ``m = frame(tag, parts)``.

    Reducing 512 bits keeps the bias of the result below 2^-250.
    """
    h = hashlib.sha256(frame(tag, *parts))
    h1 = h.copy()
    h.update(b"\x00")
    h1.update(b"\x01")
    return int.from_bytes(h.digest() + h1.digest(), "big") % Q


def hash_to_weights(count: int, tag: str, *parts: bytes) -> list[int]:
    """``count`` weights of a batched check (see shuffle.py), each from 16 bytes of SHAKE-256 of
    ``frame(tag, parts)``: the piece's two 8-byte big-endian halves ``a, b`` give ``a + λ·b mod q``.

    2^128 possible values, so a false batch passes with probability about 2^-127 (protocol/DEAL.md
    §7.4); and built from 64-bit halves (``split_short``), so a multiplication by a weight costs about
    half a full one.
    """
    out = hashlib.shake_256(frame(tag, *parts)).digest(16 * count)
    return [
        split_short(int.from_bytes(out[i : i + 8], "big"), int.from_bytes(out[i + 8 : i + 16], "big"))
        for i in range(0, len(out), 16)
    ]


def hedged_nonce(secret: int, source: RandomSource, *binding: bytes) -> int:
    """A proof nonce from fresh randomness *and* the secret and statement it is used with.

    ``w = Hq("nonce", secret, 32 fresh bytes, binding...)``: as unpredictable as the source when the
    source is good, and still never repeated across different statements when it is not (a repeated
    nonce with one secret would reveal that secret).
    """
    while True:
        w = hash_to_scalar("nonce", encode_scalar(secret), draw_bytes(source, 32), *binding)
        if w:
            return w


def hash_to_curve_counter(label: bytes) -> tuple[Point, int]:
    """Try-and-increment: the first ``ctr`` for which ``02 ‖ SHA-256(label ‖ u32(ctr))`` is a point.

    The x-coordinate comes out of a hash, so nobody knows the discrete logarithm of the result with
    respect to G or to any other point derived this way.  Returns the point and the counter used.
    """
    for ctr in range(1 << 32):
        x = hashlib.sha256(label + ctr.to_bytes(4, "big")).digest()
        candidate = b"\x02" + x
        try:
            return Point.decode(candidate), ctr
        except EncodingError:  # not on the curve (about half of all x): try the next counter
            continue
    raise AssertionError("unreachable: half of all x-coordinates are on the curve")  # pragma: no cover


@cache
def hash_to_curve(label: bytes) -> Point:
    """The point of ``label`` (see ``hash_to_curve_counter``); cached, labels are public constants."""
    return hash_to_curve_counter(label)[0]


class _SeededSource:
    __slots__ = ("_block", "_buffer", "_prefix")

    def __init__(self, seed: bytes) -> None:
        self._prefix = hashlib.sha256(frame("seeded-source", seed))
        self._block = 0
        self._buffer = b""

    def __call__(self, n: int) -> bytes:
        while len(self._buffer) < n:
            h = self._prefix.copy()
            h.update(u64(self._block))
            self._buffer += h.digest()
            self._block += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out


def seeded_source(seed: bytes) -> RandomSource:
    """A deterministic byte stream for tests and test vectors: NEVER use it to play a real hand.

    The stream is ``B_0 ‖ B_1 ‖ …`` consumed in order,
    ``B_k = SHA-256(frame("seeded-source", seed) ‖ u64(k))``.
    """
    return _SeededSource(bytes(seed))
