"""The group: secp256k1 through coincurve (libsecp256k1), wrapped so that nothing else touches it.

Points travel as 33-byte SEC1 compressed encodings and scalars as 32-byte big-endian integers.
Decoding is strict (exact type, exact length, on the curve, in range) and raises ``EncodingError``;
the group has prime order, so every point that decodes is a valid group element.

Inside the package a ``Point`` may also be the identity (the result of ``0·P`` or ``P + (−P)``): it
never arrives from the wire and can never be encoded, but making the arithmetic total keeps the
verifiers free of special cases (an equation that lands on the identity simply fails to compare
equal to a decoded point).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, final

from coincurve import PublicKey

from p2pcards.deal.errors import EncodingError, UsageError

__all__ = [
    "LAMBDA",
    "POINT_SIZE",
    "SCALAR_SIZE",
    "G",
    "Point",
    "Q",
    "RandomSource",
    "base_mul",
    "decode_scalar",
    "default_source",
    "draw_bytes",
    "encode_scalar",
    "msm",
    "point_sum",
    "random_below",
    "random_scalar",
    "split_short",
]

#: The order of secp256k1's group (and of G).
Q: Final = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
#: The cube root of unity mod q of secp256k1's endomorphism: ``LAMBDA·(x, y) = (β·x, y)``.
LAMBDA: Final = 0x5363AD4CC05C30E0A5261C028812645A122E22EA20816678DF02967C1B23BD72
POINT_SIZE: Final = 33
SCALAR_SIZE: Final = 32

#: Where fresh secrets come from: ``source(n)`` returns ``n`` unpredictable bytes.
RandomSource = Callable[[int], bytes]
default_source: Final[RandomSource] = secrets.token_bytes


@final
class Point:
    """A group element; the identity only as the result of arithmetic, never from the wire."""

    __slots__ = ("_enc", "_key")

    def __init__(self, key: Any, enc: bytes | None = None) -> None:
        # ``key`` is a coincurve PublicKey, or None for the identity.  Use decode()/base_mul().
        self._key = key
        self._enc = enc

    @staticmethod
    def decode(data: object) -> Point:
        """The point encoded by ``data`` (33 bytes, prefix 02 or 03, x on the curve)."""
        if type(data) is not bytes:
            raise EncodingError(f"a point must be bytes, not {type(data).__name__}")
        if len(data) != POINT_SIZE or data[0] not in (2, 3):
            raise EncodingError(f"a point is 33 bytes starting with 02 or 03, got {len(data)} bytes")
        try:
            key = PublicKey(data)
        except ValueError:
            raise EncodingError("bytes that are not a point of secp256k1") from None
        return Point(key, data)

    @property
    def is_identity(self) -> bool:
        return self._key is None

    def encode(self) -> bytes:
        if self._enc is None:
            if self._key is None:
                raise EncodingError("the point at infinity has no encoding")
            self._enc = self._key.format()
        return self._enc

    def __add__(self, other: Point) -> Point:
        return point_sum((self, other))

    def __neg__(self) -> Point:
        if self._key is None:
            return self
        # −(x, y) = (x, −y): flip the parity byte, which costs a decode, not a multiplication.
        enc = self.encode()
        return Point.decode(bytes((enc[0] ^ 1,)) + enc[1:])

    def __sub__(self, other: Point) -> Point:
        return point_sum((self, -other))

    def __mul__(self, k: int) -> Point:
        k %= Q
        if k == 0 or self._key is None:
            return IDENTITY
        return Point(self._key.multiply(k.to_bytes(32, "big")))

    __rmul__ = __mul__

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Point):
            return NotImplemented
        if self._key is None or other._key is None:
            return self._key is None and other._key is None
        return self.encode() == other.encode()

    def __hash__(self) -> int:
        return hash(None if self._key is None else self.encode())

    def __repr__(self) -> str:
        return "Point(identity)" if self._key is None else f"Point({self.encode().hex()})"


IDENTITY: Final = Point(None)
#: The standard base point of secp256k1.
G: Final = Point(PublicKey.from_valid_secret((1).to_bytes(32, "big")))


def base_mul(k: int) -> Point:
    """``k·G`` with libsecp256k1's precomputed table (cheaper than a variable-base multiplication)."""
    k %= Q
    if k == 0:
        return IDENTITY
    return Point(PublicKey.from_valid_secret(k.to_bytes(32, "big")))


def point_sum(points: Iterable[Point]) -> Point:
    """The sum of ``points`` in one libsecp256k1 call."""
    keys = [p._key for p in points if p._key is not None]
    if not keys:
        return IDENTITY
    if len(keys) == 1:
        return Point(keys[0])
    try:
        return Point(PublicKey.combine_keys(keys))
    except ValueError:  # the only failure of combine: the sum is the point at infinity
        return IDENTITY


def msm(scalars: Sequence[int], points: Sequence[Point], base: int = 0, plus: Sequence[Point] = ()) -> Point:
    """``base·G + Σ scalars[i]·points[i] + Σ plus``: one multiplication per term, then a single sum.

    This is the only hot loop of the package (the shuffle prover and verifier are built from it), so
    it talks to coincurve directly: a variable-base multiplication per term, ``base·G`` with the
    precomputed table, and every addition in one ``combine_keys`` call.
    """
    if len(scalars) != len(points):
        raise UsageError("msm needs as many scalars as points")
    keys = [p._key for p in plus if p._key is not None]
    for k, p in zip(scalars, points, strict=True):
        k %= Q
        if k and p._key is not None:
            keys.append(p._key.multiply(k.to_bytes(32, "big")))
    base %= Q
    if base:
        keys.append(PublicKey.from_valid_secret(base.to_bytes(32, "big")))
    if not keys:
        return IDENTITY
    if len(keys) == 1:
        return Point(keys[0])
    try:
        return Point(PublicKey.combine_keys(keys))
    except ValueError:  # the sum is the point at infinity
        return IDENTITY


def split_short(a: int, b: int) -> int:
    """``a + λ·b mod q`` for ``a, b < 2^64``: a scalar that libsecp256k1 multiplies at the cost of a
    64-bit one.

    libsecp256k1 splits every scalar ``k`` as ``k1 + λ·k2`` with halves of about 128 bits, so a plain
    128-bit scalar costs nearly as much as a full one; a scalar built from 64-bit halves splits back into
    them and costs about half.  Distinct pairs give distinct scalars (a non-zero ``(a, b)`` with
    ``a + λ·b ≡ 0`` has a half of at least 2^126), so these scalars form a set of 2^128 elements.
    """
    if not (0 <= a < 1 << 64 and 0 <= b < 1 << 64):
        raise UsageError("split_short takes two 64-bit halves")
    return (a + LAMBDA * b) % Q


def encode_scalar(k: int) -> bytes:
    if not 0 <= k < Q:
        raise UsageError("a scalar is an integer in [0, q)")
    return k.to_bytes(SCALAR_SIZE, "big")


def decode_scalar(data: object, *, nonzero: bool = False) -> int:
    """The scalar encoded by ``data``: 32 bytes big-endian, below q (and not zero if ``nonzero``)."""
    if type(data) is not bytes:
        raise EncodingError(f"a scalar must be bytes, not {type(data).__name__}")
    if len(data) != SCALAR_SIZE:
        raise EncodingError(f"a scalar is 32 bytes, got {len(data)}")
    k = int.from_bytes(data, "big")
    if k >= Q:
        raise EncodingError("a scalar must be below the group order")
    if nonzero and k == 0:
        raise EncodingError("this scalar must not be zero")
    return k


def draw_bytes(source: RandomSource, n: int) -> bytes:
    """Exactly ``n`` bytes from ``source`` (a source that returns anything else is a local bug)."""
    data = source(n)
    if type(data) is not bytes or len(data) != n:
        raise UsageError(f"the random source must return exactly {n} bytes")
    return data


def random_scalar(source: RandomSource = default_source) -> int:
    """A uniform non-zero scalar: 64 bytes reduced mod q (bias below 2^-250), drawn again on zero."""
    while True:
        k = int.from_bytes(draw_bytes(source, 64), "big") % Q
        if k:
            return k


def random_below(n: int, source: RandomSource = default_source) -> int:
    """A uniform integer in [0, n) by rejection sampling on 32-byte draws."""
    if not 0 < n <= 1 << 64:
        raise UsageError("random_below needs 0 < n <= 2^64")
    limit = (1 << 256) - (1 << 256) % n
    while True:
        v = int.from_bytes(draw_bytes(source, 32), "big")
        if v < limit:
            return v % n
