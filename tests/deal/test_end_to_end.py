"""Whole hands: keys, a shuffle per seat, every seat verifying everything, private deals, a reveal."""

from __future__ import annotations

import pytest

from p2pcards.deal import (
    Point,
    Share,
    Shuffle,
    open_card,
    seats_to_deal,
    seats_to_reveal,
    verify_share,
    verify_shuffle_chain,
)
from p2pcards.deal.shares import make_share

from .helpers import DEAL_STEP, ctx, make_table

DECKS = {
    27: [c for c in range(52) if c % 13 >= 4][:27],
    36: [c for c in range(52) if c % 13 >= 4],
    52: list(range(52)),
}


@pytest.mark.parametrize(
    ("seats", "size"),
    [(2, 27), (3, 27), (4, 36), (5, 36), (6, 27), (6, 36), (4, 52), (6, 52)],
)
def test_honest_hand(seats: int, size: int) -> None:
    table = make_table(seats, DECKS[size], seed=b"e2e-%d-%d" % (seats, size))
    # Every peer verifies the whole chain (they all compute the same thing; once is enough here),
    # from the wire form the shuffles travel in.
    steps = [(c, Shuffle.from_wire(s.to_wire(), size)) for c, s in table.shuffle_steps()]
    deck = verify_shuffle_chain(table.joint, table.initial, steps)
    assert deck == table.deck

    # Deal round robin: position p to seat p % seats, as many rounds as fit, keeping one card back.
    per_seat = min((size - 1) // seats, 13)
    dealt = {p: p % seats for p in range(per_seat * seats)}
    published: dict[int, dict[int, Point]] = {p: {} for p in range(size)}
    for p, owner in dealt.items():
        for j in seats_to_deal(owner, seats):
            share = Share.from_wire(
                make_share(ctx(j, DEAL_STEP), table.keys[j], deck, p, table.source).to_wire()
            )
            published[p][j] = verify_share(ctx(j, DEAL_STEP), table.publics[j], deck, p, share)
    hands: dict[int, list[int]] = {seat: [] for seat in range(seats)}
    for p, owner in dealt.items():
        hands[owner].append(
            open_card(table.cards, deck[p], published[p], seats, own=(owner, table.keys[owner]))
        )
    every = [c for seat in range(seats) for c in hands[seat]]
    assert len(every) == len(set(every)) == per_seat * seats and set(every) <= set(DECKS[size])
    assert all(len(hands[s]) == per_seat for s in range(seats))

    # The next position is turned up for everyone (a trump nobody holds).
    trump = per_seat * seats
    for j in seats_to_reveal(None, seats):
        share = make_share(ctx(j, DEAL_STEP + 1), table.keys[j], deck, trump, table.source)
        published[trump][j] = verify_share(ctx(j, DEAL_STEP + 1), table.publics[j], deck, trump, share)
    assert open_card(table.cards, deck[trump], published[trump], seats) not in every
