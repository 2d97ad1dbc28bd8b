"""Decryption shares with Chaum–Pedersen proofs: dealing, revealing, secrecy, every cheat."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2pcards.deal import (
    DealError,
    DecryptError,
    EncodingError,
    ProofError,
    Share,
    UsageError,
    card_point,
    card_table,
    make_share,
    open_card,
    seats_to_deal,
    seats_to_reveal,
    unmask,
    verify_share,
)
from p2pcards.deal.group import Q, point_sum
from p2pcards.deal.hashing import seeded_source

from .helpers import DEAL_STEP, Table, ctx, flip, make_table
from .reference import SHARE_ALTERATIONS, ref_make_share

SRC = seeded_source(b"shares")


@pytest.fixture(scope="module")
def table() -> Table:
    return make_table(4, range(12), seed=b"shares")


def _shares(table: Table, position: int, seats: tuple[int, ...]) -> dict[int, Share]:
    return {j: make_share(ctx(j, DEAL_STEP), table.keys[j], table.deck, position, SRC) for j in seats}


def _true_card(table: Table, position: int) -> int:
    ct = table.deck[position]
    return table.cards.card_of(ct.B - point_sum([ct.A * k.secret for k in table.keys]))


def test_deal_privately_then_reveal(table: Table) -> None:
    position, owner = 5, 2
    assert seats_to_deal(owner, 4) == (0, 1, 3)
    published = _shares(table, position, seats_to_deal(owner, 4))
    verified = {
        j: verify_share(ctx(j, DEAL_STEP), table.publics[j], table.deck, position, s)
        for j, s in published.items()
    }
    card = open_card(table.cards, table.deck[position], verified, 4, own=(owner, table.keys[owner]))
    assert card == _true_card(table, position)
    # (nobody else can finish without the owner's share: test_secrecy_one_share_missing_gives_no_card)
    # when the owner reveals it (plays the card): its one share opens it for everyone
    assert seats_to_reveal(owner, 4) == (owner,)
    own = make_share(ctx(owner, DEAL_STEP + 1), table.keys[owner], table.deck, position, SRC)
    verified[owner] = verify_share(ctx(owner, DEAL_STEP + 1), table.publics[owner], table.deck, position, own)
    assert open_card(table.cards, table.deck[position], verified, 4) == card


def test_public_position_nobody_holds(table: Table) -> None:
    position = 11
    assert seats_to_reveal(None, 4) == (0, 1, 2, 3)
    published = _shares(table, position, seats_to_reveal(None, 4))
    verified = {
        j: verify_share(ctx(j, DEAL_STEP), table.publics[j], table.deck, position, s)
        for j, s in published.items()
    }
    assert open_card(table.cards, table.deck[position], verified, 4) == _true_card(table, position)


def test_secrecy_one_share_missing_gives_no_card(table: Table) -> None:
    """Everything public except the owner's share: no other seat can get a card out of the position."""
    every_card = {card_point(c) for c in range(52)}
    for position, owner in ((0, 0), (3, 1), (7, 3)):
        others = _shares(table, position, seats_to_deal(owner, 4))
        ct = table.deck[position]
        without_owner = unmask(ct, [s.d for s in others.values()])
        assert without_owner not in every_card
        for k in seats_to_deal(owner, 4):  # a seat "finishing" with its own secret again
            guess = unmask(ct, [*(s.d for s in others.values()), ct.A * table.keys[k].secret])
            assert guess not in every_card
            with pytest.raises(DecryptError):
                table.cards.card_of(guess)


def test_the_reference_formula_is_the_library_one(table: Table) -> None:
    share = make_share(ctx(1, DEAL_STEP), table.keys[1], table.deck, 4, SRC)
    from p2pcards.deal.shares import share_challenge

    A = table.deck[4].A
    e = share_challenge(ctx(1, DEAL_STEP), 4, table.publics[1], A, share.d, share.proof.T1, share.proof.T2)
    w = (share.proof.s - e * table.keys[1].secret) % Q
    assert ref_make_share(ctx(1, DEAL_STEP), table.keys[1], table.deck, 4, w) == share


@pytest.mark.parametrize("alter", SHARE_ALTERATIONS)
def test_every_term_of_the_share_proof_matters(table: Table, alter: str) -> None:
    share = ref_make_share(ctx(1, DEAL_STEP), table.keys[1], table.deck, 4, 987654321, alter)
    with pytest.raises(ProofError, match="share proof") as info:
        verify_share(ctx(1, DEAL_STEP), table.publics[1], table.deck, 4, share)
    assert (info.value.seat, info.value.position) == (1, 4)


def test_wrong_shares_are_rejected(table: Table) -> None:
    share = make_share(ctx(1, DEAL_STEP), table.keys[1], table.deck, 4, SRC)
    with pytest.raises(ProofError, match="position 4 where 5"):  # the share of another position
        verify_share(ctx(1, DEAL_STEP), table.publics[1], table.deck, 5, share)
    relabelled = Share(5, share.d, share.proof)  # ... relabelled as the expected one
    with pytest.raises(ProofError):
        verify_share(ctx(1, DEAL_STEP), table.publics[1], table.deck, 5, relabelled)
    with pytest.raises(ProofError):  # claimed to be another seat's
        verify_share(ctx(2, DEAL_STEP), table.publics[2], table.deck, 4, share)
    with pytest.raises(ProofError):  # replayed at another step
        verify_share(ctx(1, DEAL_STEP + 1), table.publics[1], table.deck, 4, share)
    with pytest.raises(ProofError):  # on another deck
        verify_share(ctx(1, DEAL_STEP), table.publics[1], table.shuffles[0].deck, 4, share)
    with pytest.raises(EncodingError):  # a position the deck does not have
        verify_share(ctx(1, DEAL_STEP), table.publics[1], table.deck, 12, Share(12, share.d, share.proof))


def test_open_card_insists_on_one_share_per_seat(table: Table) -> None:
    s = {j: sh.d for j, sh in _shares(table, 2, (0, 1, 2, 3)).items()}
    ct = table.deck[2]
    assert open_card(table.cards, ct, s, 4) == _true_card(table, 2)
    with pytest.raises(UsageError, match="missing"):
        open_card(table.cards, ct, {0: s[0], 1: s[1], 2: s[2]}, 4)
    with pytest.raises(UsageError, match="twice"):
        open_card(table.cards, ct, s, 4, own=(0, table.keys[0]))
    with pytest.raises(UsageError, match="outside"):
        open_card(table.cards, ct, {**s, 7: s[0]}, 4)
    for bad in ((4, 4), (-1, 4), (0, 0)):
        with pytest.raises(UsageError):
            seats_to_deal(*bad)
    with pytest.raises(DecryptError):  # a different deck's card table
        open_card(card_table([40, 41]), ct, s, 4)


def test_wire_round_trip_and_strict_decoding(table: Table) -> None:
    share = make_share(ctx(1, DEAL_STEP), table.keys[1], table.deck, 4, SRC)
    wire = share.to_wire()
    assert Share.from_wire(wire) == share
    d = share.d.encode()
    bad: list[object] = [
        None, wire[:4], [*wire, 0], ["4", *wire[1:]], [True, *wire[1:]], [-1, *wire[1:]], [52, *wire[1:]],
        [4, d[:-1], *wire[2:]], [4, bytes(33), *wire[2:]], [*wire[:4], bytes(32)], [*wire[:4], b"\xff" * 32],
    ]  # fmt: skip
    for b in bad:
        with pytest.raises(EncodingError):
            Share.from_wire(b)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.integers(1, 4), index=st.integers(0, 40), mask=st.integers(1, 255))
def test_any_flipped_byte_is_rejected(table: Table, field: int, index: int, mask: int) -> None:
    share = make_share(ctx(1, DEAL_STEP), table.keys[1], table.deck, 4, seeded_source(b"f"))
    wire = share.to_wire()
    value = wire[field]
    assert isinstance(value, bytes)
    wire[field] = flip(value, index, mask)
    with pytest.raises(DealError):
        verify_share(ctx(1, DEAL_STEP), table.publics[1], table.deck, 4, Share.from_wire(wire))
