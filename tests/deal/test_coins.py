"""Joint coins by commit–reveal, and unbiased draws from a coin."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pcards.deal import (
    EncodingError,
    ProofError,
    UsageError,
    coin_below,
    coin_commitment,
    coin_value,
    new_coin_secret,
    verify_coin_reveal,
)
from p2pcards.deal.hashing import digest, seeded_source, u64

from .helpers import ctx

SRC = seeded_source(b"coins")


def _round(n: int) -> tuple[list[bytes], list[bytes]]:
    rhos = [new_coin_secret(SRC) for _ in range(n)]
    return rhos, [coin_commitment(ctx(i, 5), r) for i, r in enumerate(rhos)]


def test_honest_coin() -> None:
    rhos, commits = _round(4)
    revealed = [verify_coin_reveal(ctx(i, 5), commits[i], rhos[i]) for i in range(4)]
    coin = coin_value(ctx(0, 5), revealed)
    assert coin == digest("coin", ctx(None, 5).encode(), *rhos)
    assert coin_value(ctx(3, 5), revealed) == coin  # the seat of the context does not matter
    assert coin_value(ctx(0, 6), revealed) != coin  # the step (and game, hand) does
    changed = [revealed[0], revealed[1], new_coin_secret(SRC), revealed[3]]
    assert coin_value(ctx(0, 5), changed) != coin  # any one seat changes the coin
    assert coin_value(ctx(0, 5), [revealed[1], revealed[0], *revealed[2:]]) != coin  # seat order matters


def test_a_wrong_reveal_names_the_seat() -> None:
    rhos, commits = _round(3)
    with pytest.raises(ProofError) as info:
        verify_coin_reveal(ctx(1, 5), commits[1], rhos[2])
    assert info.value.seat == 1
    with pytest.raises(ProofError):  # the commitment binds the seat ...
        verify_coin_reveal(ctx(2, 5), commits[1], rhos[1])
    with pytest.raises(ProofError):  # ... and the step
        verify_coin_reveal(ctx(1, 6), commits[1], rhos[1])
    for bad in (rhos[1][:-1], rhos[1] + b"\x00", None, 5, list(rhos[1])):
        with pytest.raises(EncodingError):
            verify_coin_reveal(ctx(1, 5), commits[1], bad)


def test_coin_below_is_the_documented_rejection_sampling() -> None:
    coin = bytes(range(32))
    v0 = int.from_bytes(digest("coin-draw", coin, b"", u64(0)), "big")
    assert coin_below(coin, 6) == v0 % 6
    v1 = int.from_bytes(digest("coin-draw", coin, b"trump", u64(0)), "big")
    assert coin_below(coin, 2**64, b"trump") == v1 % 2**64  # another purpose, another draw
    assert coin_below(coin, 1) == 0
    assert 0 <= coin_below(coin, 2**64) < 2**64
    for bad in (0, -3, 2**64 + 1):
        with pytest.raises(UsageError):
            coin_below(coin, bad)
    with pytest.raises(EncodingError):
        coin_below(coin[:31], 6)


@given(st.binary(min_size=32, max_size=32), st.integers(1, 1000))
def test_coin_below_is_in_range_and_deterministic(coin: bytes, n: int) -> None:
    assert coin_below(coin, n) == coin_below(coin, n) < n


def test_coin_below_covers_every_value() -> None:
    seen = {coin_below(new_coin_secret(SRC), 6) for _ in range(200)}
    assert seen == set(range(6))
    with pytest.raises(UsageError):
        coin_value(ctx(), [])
    with pytest.raises(UsageError):
        coin_commitment(ctx(None), bytes(32))
