"""Joint coins by commit–reveal: randomness that no single seat controls.

Each seat commits to a fresh 32-byte ``ρ_i``, then, once every commitment is in, reveals it; the coin is
the hash of every reveal in seat order.  A seat that refuses to reveal is at fault (the table decides
what follows).  As long as one seat's ``ρ_i`` is random and it commits before seeing the others', the
coin is unpredictable to every coalition of the others.  The last seat to reveal can still abort after
seeing the result: that is a visible fault, never a silent bias.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from p2pcards.deal.codec import expect_bytes
from p2pcards.deal.context import TABLE, Context
from p2pcards.deal.errors import ProofError, UsageError
from p2pcards.deal.group import RandomSource, default_source, draw_bytes
from p2pcards.deal.hashing import digest, u64

__all__ = [
    "COIN_SIZE",
    "coin_below",
    "coin_commitment",
    "coin_value",
    "new_coin_secret",
    "verify_coin_reveal",
]

COIN_SIZE: Final = 32


def new_coin_secret(source: RandomSource = default_source) -> bytes:
    """A fresh ``ρ_i`` (32 bytes)."""
    return draw_bytes(source, COIN_SIZE)


def coin_commitment(ctx: Context, rho: bytes) -> bytes:
    """``digest("coin-commit", ctx, ρ_i)`` with ``ctx.seat = i``: the seat is bound through the context."""
    ctx.require_seat()
    return digest("coin-commit", ctx.encode(), expect_bytes(rho, COIN_SIZE, "coin secret"))


def verify_coin_reveal(ctx: Context, commitment: object, rho: object) -> bytes:
    """Check a revealed ``ρ_i`` against the commitment seat ``ctx.seat`` made in ``ctx``; return ``ρ_i``."""
    committed = expect_bytes(commitment, 32, "coin commitment")
    value = expect_bytes(rho, COIN_SIZE, "coin reveal")
    if coin_commitment(ctx, value) != committed:
        raise ProofError("the revealed coin secret does not match its commitment", seat=ctx.seat)
    return value


def coin_value(ctx: Context, reveals: Sequence[bytes]) -> bytes:
    """``digest("coin", ctx without seat, ρ_1, …, ρ_n)``: the coin, from every seat's reveal in seat order.

    ``ctx`` is the context of the commit round (its seat field is ignored: the coin belongs to the table).
    """
    if not reveals:
        raise UsageError("a coin needs at least one reveal")
    rhos = [expect_bytes(r, COIN_SIZE, "coin reveal") for r in reveals]
    return digest("coin", ctx.for_seat(TABLE).encode(), *rhos)


def coin_below(coin: bytes, n: int, purpose: bytes = b"") -> int:
    """An unbiased integer in ``[0, n)`` from a coin (e.g. the first dealer: ``coin_below(coin, seats)``).

    Rejection sampling over ``v_k = int(digest("coin-draw", coin, purpose, u64(k)))``, ``k = 0, 1, …``:
    the first ``v_k`` below ``2^256 − (2^256 mod n)`` gives ``v_k mod n``.  ``purpose`` lets one coin
    serve several independent draws.
    """
    expect_bytes(coin, COIN_SIZE, "coin")
    if type(n) is not int or not 0 < n <= 1 << 64:
        raise UsageError("coin_below needs 0 < n <= 2^64")
    limit = (1 << 256) - (1 << 256) % n
    k = 0
    while True:
        v = int.from_bytes(digest("coin-draw", coin, purpose, u64(k)), "big")
        if v < limit:
            return v % n
        k += 1
