"""Decryption shares with Chaum–Pedersen proofs, and opening deck positions.

Seat ``j``'s share of the ciphertext ``(A, B)`` is ``d_j = x_j·A``; with the shares of every seat the
card is ``M = B − Σ_j d_j``.  Each published share carries a proof that ``log_G h_j = log_A d_j``, so a
seat cannot publish a wrong share without being named.

When shares are published is the table's decision, never this module's: ``make_share`` is a pure
function the table calls when the rules say a position opens, and not before.

* Deal position ``p`` privately to seat ``o``: every seat in ``seats_to_deal(o, n)`` publishes its share;
  only ``o`` can finish, with its own secret (``open_card(..., own=(o, key))``).
* Reveal position ``p`` to everyone: the seats in ``seats_to_reveal(holder, n)`` publish — the holder
  alone (the others' shares are public since the deal), or every seat for a public position nobody holds.
* Blind Azi: the other seats simply do not call ``make_share`` for a blind seat's positions until that
  seat declares that it looks; the deck stays closed until then because nobody holds every share.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from p2pcards.deal.codec import expect_int, expect_list
from p2pcards.deal.context import Context
from p2pcards.deal.deck import MAX_CARDS, CardTable, Ciphertext, Deck
from p2pcards.deal.errors import EncodingError, ProofError, UsageError
from p2pcards.deal.group import (
    Point,
    Q,
    RandomSource,
    base_mul,
    decode_scalar,
    default_source,
    encode_scalar,
    msm,
    point_sum,
)
from p2pcards.deal.hashing import hash_to_scalar, hedged_nonce, u64
from p2pcards.deal.keys import HandKey

__all__ = [
    "EqualityProof",
    "Share",
    "make_share",
    "open_card",
    "seats_to_deal",
    "seats_to_reveal",
    "share_challenge",
    "unmask",
    "verify_share",
]

_MAX_SEATS: Final = 255


@dataclass(frozen=True, slots=True)
class EqualityProof:
    """Chaum–Pedersen: ``T1 = w·G``, ``T2 = w·A``, ``e = Hq("share", …)``, ``s = w + e·x``."""

    T1: Point
    T2: Point
    s: int


@dataclass(frozen=True, slots=True)
class Share:
    """One seat's decryption share of one position.

    Wire: ``[position, d, T1, T2, s]`` (an int, three 33-byte points, a 32-byte scalar).
    """

    position: int
    d: Point
    proof: EqualityProof

    def to_wire(self) -> list[int | bytes]:
        return [
            self.position,
            self.d.encode(),
            self.proof.T1.encode(),
            self.proof.T2.encode(),
            encode_scalar(self.proof.s),
        ]

    @staticmethod
    def from_wire(obj: object) -> Share:
        position, d, t1, t2, s = expect_list(obj, 5, "share")
        try:
            return Share(
                expect_int(position, 0, MAX_CARDS, "share position"),
                Point.decode(d),
                EqualityProof(Point.decode(t1), Point.decode(t2), decode_scalar(s, nonzero=True)),
            )
        except EncodingError as exc:
            raise EncodingError(f"share: {exc}") from None


def share_challenge(
    ctx: Context, position: int, public: Point, A: Point, d: Point, T1: Point, T2: Point
) -> int:
    """``e = Hq("share", ctx, u64(position), h, A, d, T1, T2)``."""
    return hash_to_scalar(
        "share",
        ctx.encode(),
        u64(position),
        public.encode(),
        A.encode(),
        d.encode(),
        T1.encode(),
        T2.encode(),
    )


def make_share(
    ctx: Context, key: HandKey, deck: Deck, position: int, source: RandomSource = default_source
) -> Share:
    """This seat's share of ``deck[position]`` with its proof, bound to ``ctx`` (this seat, this step)."""
    ctx.require_seat()
    A = deck.position(position).A
    d = A * key.secret
    w = hedged_nonce(key.secret, source, b"share", ctx.encode(), u64(position), A.encode())
    T1, T2 = base_mul(w), A * w
    e = share_challenge(ctx, position, key.public, A, d, T1, T2)
    return Share(position, d, EqualityProof(T1, T2, (w + e * key.secret) % Q))


def verify_share(ctx: Context, public: Point, deck: Deck, position: int, share: Share) -> Point:
    """Check that ``share`` is the share of seat ``ctx.seat`` (key ``public``) for ``deck[position]``.

    Checks ``s·G == T1 + e·h`` and ``s·A == T2 + e·d``; returns ``d``.
    """
    seat = ctx.seat
    if share.position != position:
        wrong = f"a share for position {share.position} where {position} was expected"
        raise ProofError(wrong, seat=seat, position=position)
    A = deck.position(position).A
    T1, T2, s = share.proof.T1, share.proof.T2, share.proof.s
    e = share_challenge(ctx, position, public, A, share.d, T1, T2)
    if base_mul(s) != msm((e,), (public,), plus=(T1,)):
        raise ProofError("share proof: s·G != T1 + e·h", seat=seat, position=position)
    if A * s != msm((e,), (share.d,), plus=(T2,)):
        raise ProofError("share proof: s·A != T2 + e·d", seat=seat, position=position)
    return share.d


def seats_to_deal(owner: int, n_seats: int) -> tuple[int, ...]:
    """The seats that publish shares when a position is dealt privately to ``owner``: all the others."""
    _check_seat(owner, n_seats)
    return tuple(j for j in range(n_seats) if j != owner)


def seats_to_reveal(holder: int | None, n_seats: int) -> tuple[int, ...]:
    """The seats that publish shares to reveal a position: its holder, or every seat if nobody holds it."""
    if holder is None:
        _check_seat(0, n_seats)
        return tuple(range(n_seats))
    _check_seat(holder, n_seats)
    return (holder,)


def _check_seat(seat: int, n_seats: int) -> None:
    if not 1 <= n_seats <= _MAX_SEATS or not 0 <= seat < n_seats:
        raise UsageError(f"no seat {seat} at a table of {n_seats}")


def unmask(ct: Ciphertext, shares: Sequence[Point]) -> Point:
    """``B − Σ d_j``: the card point when ``shares`` holds every seat's share, a random point otherwise."""
    return ct.B - point_sum(shares)


def open_card(
    cards: CardTable,
    ct: Ciphertext,
    shares: Mapping[int, Point],
    seats: int | Sequence[int],
    own: tuple[int, HandKey] | None = None,
) -> int:
    """The card at ``ct`` from verified shares keyed by seat, plus (for a private deal) this seat's own.

    ``seats`` are the seats whose keys mask the deck (a count ``n`` means seats ``0..n−1``): each must
    contribute exactly once, either in ``shares`` or as ``own``.
    Raises ``DecryptError`` if the result is not one of the deck's cards.
    """
    holders = tuple(range(seats)) if isinstance(seats, int) else tuple(seats)
    points: list[Point] = []
    for seat in holders:  # in seat order, never in mapping order
        if own is not None and seat == own[0]:
            if seat in shares:
                raise UsageError(f"seat {seat}'s share is given twice")
            points.append(ct.A * own[1].secret)
        elif seat in shares:
            points.append(shares[seat])
        else:
            raise UsageError(f"seat {seat}'s share is missing")
    if len(shares) + (own is not None and own[0] in holders) != len(holders):
        raise UsageError(f"shares from seats outside the key holders {list(holders)}")
    return cards.card_of(unmask(ct, points))
