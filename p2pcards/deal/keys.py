"""Per-hand keys: commitment, public key with a Schnorr proof of knowledge, joint key.

Each seat draws a fresh secret ``x_i`` per hand.  It first publishes ``key_commitment(ctx, h_i)``; once
every seat has committed it publishes ``h_i = x_i·G`` with a Schnorr proof bound to its context.  The
proof stops rogue keys: a seat that picks ``h_i = X − Σ h_j`` to control the joint key does not know
``log_G h_i`` and so cannot prove it; the commitment round stops it from choosing ``h_i`` after seeing
the others at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2pcards.deal.codec import expect_bytes, expect_list
from p2pcards.deal.context import Context
from p2pcards.deal.errors import EncodingError, ProofError, UsageError
from p2pcards.deal.group import (
    Point,
    Q,
    RandomSource,
    base_mul,
    decode_scalar,
    default_source,
    encode_scalar,
    point_sum,
    random_scalar,
)
from p2pcards.deal.hashing import digest, hash_to_scalar, hedged_nonce

__all__ = [
    "HandKey",
    "KeyAnnouncement",
    "SchnorrProof",
    "announce_key",
    "hand_key_from_secret",
    "joint_key",
    "key_challenge",
    "key_commitment",
    "new_hand_key",
    "verify_key",
    "verify_key_commitment",
]


@dataclass(frozen=True, slots=True)
class HandKey:
    """One seat's key for one hand: the secret ``x`` and ``h = x·G``.  Never sent; repr hides ``x``."""

    secret: int
    public: Point

    def __repr__(self) -> str:
        return f"HandKey(public={self.public.encode().hex()})"


def new_hand_key(source: RandomSource = default_source) -> HandKey:
    x = random_scalar(source)
    return HandKey(x, base_mul(x))


def hand_key_from_secret(secret: int) -> HandKey:
    if type(secret) is not int or not 0 < secret < Q:
        raise UsageError("a hand secret is a scalar in (0, q)")
    return HandKey(secret, base_mul(secret))


def key_commitment(ctx: Context, public: Point) -> bytes:
    """``digest("key-commit", ctx, h)``: published first, so no seat picks its key after seeing others'."""
    ctx.require_seat()
    return digest("key-commit", ctx.encode(), public.encode())


def verify_key_commitment(ctx: Context, commitment: object, public: Point) -> None:
    """Check that ``public`` is the key committed to in ``ctx`` (the commit step's context)."""
    if expect_bytes(commitment, 32, "key commitment") != key_commitment(ctx, public):
        raise ProofError("the public key does not match its commitment", seat=ctx.seat)


@dataclass(frozen=True, slots=True)
class SchnorrProof:
    """Knowledge of ``x`` with ``h = x·G``: ``T = w·G``, ``e = Hq("key", ctx, h, T)``, ``s = w + e·x``."""

    T: Point
    s: int


@dataclass(frozen=True, slots=True)
class KeyAnnouncement:
    """A seat's public key for the hand with its proof.  Wire form: ``[h, T, s]`` (33, 33, 32 bytes)."""

    public: Point
    proof: SchnorrProof

    def to_wire(self) -> list[bytes]:
        return [self.public.encode(), self.proof.T.encode(), encode_scalar(self.proof.s)]

    @staticmethod
    def from_wire(obj: object) -> KeyAnnouncement:
        h, t, s = expect_list(obj, 3, "key announcement")
        try:
            return KeyAnnouncement(
                Point.decode(h), SchnorrProof(Point.decode(t), decode_scalar(s, nonzero=True))
            )
        except EncodingError as exc:
            raise EncodingError(f"key announcement: {exc}") from None


def key_challenge(ctx: Context, public: Point, T: Point) -> int:
    return hash_to_scalar("key", ctx.encode(), public.encode(), T.encode())


def announce_key(ctx: Context, key: HandKey, source: RandomSource = default_source) -> KeyAnnouncement:
    """The seat's public key with a Schnorr proof bound to ``ctx`` (the key step, this seat)."""
    ctx.require_seat()
    w = hedged_nonce(key.secret, source, b"key", ctx.encode(), key.public.encode())
    T = base_mul(w)
    e = key_challenge(ctx, key.public, T)
    return KeyAnnouncement(key.public, SchnorrProof(T, (w + e * key.secret) % Q))


def verify_key(ctx: Context, announcement: KeyAnnouncement) -> Point:
    """Check ``s·G == T + e·h``; return the seat's public key ``h``."""
    h, proof = announcement.public, announcement.proof
    e = key_challenge(ctx, h, proof.T)
    if base_mul(proof.s) != proof.T + e * h:
        raise ProofError("key proof: s·G != T + e·h", seat=ctx.seat)
    return h


def joint_key(publics: Sequence[Point]) -> Point:
    """``H = Σ h_i`` over the verified keys of every seat, in seat order."""
    if not publics:
        raise UsageError("the joint key needs at least one seat's key")
    H = point_sum(publics)
    if H.is_identity:  # impossible with proven keys unless secrets sum to zero (probability 1/q)
        raise ProofError("the joint key is the point at infinity")
    return H
