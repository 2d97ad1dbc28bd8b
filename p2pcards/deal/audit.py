"""The end-of-hand audit: opening the positions the rules must check, and nothing more.

Two ways to open them, both checkable by every replica:

* each seat publishes its shares of the audited positions with Chaum–Pedersen proofs
  (``audit_shares`` / ``verify_audit_shares``), which opens exactly those positions; or
* a seat whose every position may be opened reveals its hand secret ``x_i`` itself
  (``verify_revealed_secret``), checked by ``x_i·G == h_i``; its shares are then computed by anyone.

Positions never audited (a folded Azi hand, the discards) stay masked: nobody ever holds all of their
shares.  ``open_positions`` combines the shares and names the cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from p2pcards.deal.codec import expect_list
from p2pcards.deal.context import Context
from p2pcards.deal.deck import CardTable, Deck
from p2pcards.deal.errors import EncodingError, ProofError, UsageError
from p2pcards.deal.group import Point, RandomSource, base_mul, decode_scalar, default_source, encode_scalar
from p2pcards.deal.keys import HandKey
from p2pcards.deal.shares import Share, make_share, open_card, verify_share

__all__ = [
    "audit_shares",
    "audit_shares_from_wire",
    "audit_shares_to_wire",
    "open_positions",
    "reveal_secret",
    "shares_from_secret",
    "verify_audit_shares",
    "verify_revealed_secret",
]


def _distinct(positions: Sequence[int]) -> tuple[int, ...]:
    pos = tuple(positions)
    if len(set(pos)) != len(pos):
        raise UsageError("an audit names each position once")
    return pos


def audit_shares(
    ctx: Context, key: HandKey, deck: Deck, positions: Sequence[int], source: RandomSource = default_source
) -> tuple[Share, ...]:
    """This seat's shares (with proofs) of ``positions``, in that order."""
    return tuple(make_share(ctx, key, deck, p, source) for p in _distinct(positions))


def audit_shares_to_wire(shares: Sequence[Share]) -> list[list[int | bytes]]:
    return [s.to_wire() for s in shares]


def audit_shares_from_wire(obj: object, count: int) -> tuple[Share, ...]:
    """Decode exactly ``count`` shares (the table knows how many positions it audits)."""
    return tuple(Share.from_wire(item) for item in expect_list(obj, count, "audit shares"))


def verify_audit_shares(
    ctx: Context, public: Point, deck: Deck, positions: Sequence[int], shares: Sequence[Share]
) -> dict[int, Point]:
    """Check seat ``ctx.seat``'s shares of exactly ``positions`` (in that order); return position → ``d``."""
    pos = _distinct(positions)
    if len(shares) != len(pos):
        raise ProofError(f"audit: {len(shares)} shares for {len(pos)} positions", seat=ctx.seat)
    return {p: verify_share(ctx, public, deck, p, share) for p, share in zip(pos, shares, strict=True)}


def reveal_secret(key: HandKey) -> bytes:
    """The hand secret as published after the hand (only when every position of this seat may open)."""
    return encode_scalar(key.secret)


def verify_revealed_secret(public: Point, secret: object, seat: int | None = None) -> HandKey:
    """Check a revealed ``x_i`` against the seat's key: ``x_i·G == h_i``."""
    try:
        x = decode_scalar(secret, nonzero=True)
    except EncodingError as exc:
        raise EncodingError(f"revealed secret: {exc}") from None
    if base_mul(x) != public:
        raise ProofError("revealed secret: x·G != h", seat=seat)
    return HandKey(x, public)


def shares_from_secret(key: HandKey, deck: Deck, positions: Sequence[int]) -> dict[int, Point]:
    """The shares of a seat whose secret is known (revealed and verified): ``d = x·A``, no proof needed."""
    return {p: deck.position(p).A * key.secret for p in _distinct(positions)}


def open_positions(
    cards: CardTable,
    deck: Deck,
    positions: Sequence[int],
    shares: Mapping[int, Mapping[int, Point]],
    n_seats: int,
) -> tuple[int, ...]:
    """The cards at ``positions`` from verified shares, ``shares[position][seat]``, every seat present."""
    out = []
    for p in _distinct(positions):
        if p not in shares:
            raise UsageError(f"no shares for position {p}")
        out.append(open_card(cards, deck.position(p), shares[p], n_seats))
    return tuple(out)
