"""The end-of-hand audit: open what the rules must check, verify it, leave the rest masked."""

from __future__ import annotations

import pytest

from p2pcards.deal import (
    DecryptError,
    EncodingError,
    ProofError,
    UsageError,
    audit_shares,
    audit_shares_from_wire,
    audit_shares_to_wire,
    open_positions,
    reveal_secret,
    shares_from_secret,
    unmask,
    verify_audit_shares,
    verify_revealed_secret,
)
from p2pcards.deal.group import Point, encode_scalar, point_sum
from p2pcards.deal.hashing import seeded_source

from .helpers import AUDIT_STEP, Table, ctx, make_table

SRC = seeded_source(b"audit")


@pytest.fixture(scope="module")
def table() -> Table:
    return make_table(3, range(9), seed=b"audit")


def _truth(table: Table, position: int) -> int:
    ct = table.deck[position]
    return table.cards.card_of(ct.B - point_sum([ct.A * k.secret for k in table.keys]))


def test_audit_opens_exactly_the_audited_positions(table: Table) -> None:
    audited = [
        0,
        1,
        2,
        6,
        7,
    ]  # say seat 0's and seat 2's hands; positions 3..5 (a folded hand) and 8 stay shut
    by_position: dict[int, dict[int, Point]] = {p: {} for p in audited}
    for seat in range(3):
        c = ctx(seat, AUDIT_STEP)
        wire = audit_shares_to_wire(audit_shares(c, table.keys[seat], table.deck, audited, SRC))
        received = audit_shares_from_wire(wire, len(audited))
        for p, d in verify_audit_shares(c, table.publics[seat], table.deck, audited, received).items():
            by_position[p][seat] = d
    assert open_positions(table.cards, table.deck, audited, by_position, 3) == tuple(
        _truth(table, p) for p in audited
    )
    with pytest.raises(UsageError):  # no shares were published for the folded hand
        open_positions(table.cards, table.deck, [3], by_position, 3)


def test_audit_shares_are_checked_position_by_position(table: Table) -> None:
    c = ctx(1, AUDIT_STEP)
    shares = audit_shares(c, table.keys[1], table.deck, [0, 4], SRC)
    with pytest.raises(ProofError, match="2 shares for 3 positions"):
        verify_audit_shares(c, table.publics[1], table.deck, [0, 4, 5], shares)
    with pytest.raises(ProofError, match="position 0 where 4"):  # the right shares in the wrong order
        verify_audit_shares(c, table.publics[1], table.deck, [4, 0], shares)
    with pytest.raises(ProofError):  # under another seat's key
        verify_audit_shares(c, table.publics[0], table.deck, [0, 4], shares)
    with pytest.raises(UsageError):
        audit_shares(c, table.keys[1], table.deck, [0, 0], SRC)
    with pytest.raises(EncodingError):
        audit_shares_from_wire(audit_shares_to_wire(shares), 3)


def test_revealing_the_hand_secret_instead(table: Table) -> None:
    secret = reveal_secret(table.keys[2])
    key = verify_revealed_secret(table.publics[2], secret, seat=2)
    assert key.secret == table.keys[2].secret
    positions = list(range(9))
    from_secret = shares_from_secret(key, table.deck, positions)
    # with seats 0 and 1 having published their audit shares, seat 2's revealed secret opens everything
    by_position: dict[int, dict[int, Point]] = {p: {2: from_secret[p]} for p in positions}
    for seat in (0, 1):
        c = ctx(seat, AUDIT_STEP)
        got = verify_audit_shares(
            c,
            table.publics[seat],
            table.deck,
            positions,
            audit_shares(c, table.keys[seat], table.deck, positions, SRC),
        )
        for p, d in got.items():
            by_position[p][seat] = d
    assert sorted(open_positions(table.cards, table.deck, positions, by_position, 3)) == list(range(9))
    # a wrong or malformed secret
    with pytest.raises(ProofError) as info:
        verify_revealed_secret(table.publics[2], encode_scalar(table.keys[1].secret), seat=2)
    assert info.value.seat == 2
    for bad in (secret[:-1], bytes(32), b"\xff" * 32, None, 3):
        with pytest.raises(EncodingError):
            verify_revealed_secret(table.publics[2], bad)


def test_an_unaudited_position_cannot_be_opened_from_the_audit(table: Table) -> None:
    audited = [0, 1]
    published = {
        seat: verify_audit_shares(
            ctx(seat, AUDIT_STEP),
            table.publics[seat],
            table.deck,
            audited,
            audit_shares(ctx(seat, AUDIT_STEP), table.keys[seat], table.deck, audited, SRC),
        )
        for seat in range(3)
    }
    # reusing the shares of an audited position on an unaudited one gives no card
    for p in (3, 4, 5):
        with pytest.raises(DecryptError):
            table.cards.card_of(unmask(table.deck[p], [published[s][0] for s in range(3)]))
