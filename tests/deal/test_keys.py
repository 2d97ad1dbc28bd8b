"""Per-hand keys: commitment, Schnorr proof bound to its context, joint key, rogue keys."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.deal import (
    DealError,
    EncodingError,
    KeyAnnouncement,
    ProofError,
    UsageError,
    announce_key,
    joint_key,
    key_commitment,
    new_hand_key,
    verify_key,
    verify_key_commitment,
)
from p2pcards.deal.group import G, Point, Q, base_mul, random_scalar
from p2pcards.deal.hashing import seeded_source
from p2pcards.deal.keys import SchnorrProof, hand_key_from_secret

from .helpers import ctx, flip
from .reference import KEY_ALTERATIONS, ref_announce_key

SRC = seeded_source(b"keys")


def test_honest_key_round() -> None:
    key = new_hand_key(SRC)
    assert key.public == base_mul(key.secret)
    commitment = key_commitment(ctx(2, 1), key.public)
    ann = announce_key(ctx(2, 2), key, SRC)
    verify_key_commitment(ctx(2, 1), commitment, ann.public)
    assert verify_key(ctx(2, 2), ann) == key.public
    assert "secret" not in repr(key) and str(key.secret) not in repr(key)


def test_reference_prover_matches_and_is_accepted() -> None:
    key = new_hand_key(SRC)
    w = random_scalar(SRC)
    verify_key(ctx(), ref_announce_key(ctx(), key, w))


@pytest.mark.parametrize("alter", KEY_ALTERATIONS)
def test_every_term_of_the_key_proof_matters(alter: str) -> None:
    key = new_hand_key(SRC)
    ann = ref_announce_key(ctx(), key, random_scalar(SRC), alter)
    with pytest.raises(ProofError, match="key proof"):
        verify_key(ctx(), ann)


@pytest.mark.parametrize(
    "other",
    [ctx(seat=1), ctx(step=11), ctx(hand=2), ctx(game=b"other-game"), ctx().for_seat(None)],
    ids=["seat", "step", "hand", "game", "table"],
)
def test_key_proof_is_bound_to_its_context(other: object) -> None:
    key = new_hand_key(SRC)
    ann = announce_key(ctx(), key, SRC)
    with pytest.raises(ProofError) as info:
        verify_key(other, ann)  # type: ignore[arg-type]
    assert "s·G != T + e·h" in str(info.value)


def test_commitment_binds_key_seat_and_step() -> None:
    key, other = new_hand_key(SRC), new_hand_key(SRC)
    commitment = key_commitment(ctx(0, 1), key.public)
    for c, h in ((ctx(0, 1), other.public), (ctx(1, 1), key.public), (ctx(0, 2), key.public)):
        with pytest.raises(ProofError, match="commitment"):
            verify_key_commitment(c, commitment, h)
    with pytest.raises(UsageError):
        key_commitment(ctx(None), key.public)
    for malformed in (commitment[:-1], None, commitment.hex()):
        with pytest.raises(EncodingError):
            verify_key_commitment(ctx(0, 1), malformed, key.public)


def test_rogue_key_cannot_be_proved() -> None:
    """Seat 2 wants H = X for an X whose log it knows: h_2 = X − h_0 − h_1. Without log h_2, no proof."""
    honest = [new_hand_key(SRC) for _ in range(2)]
    x = random_scalar(SRC)
    rogue = base_mul(x) - honest[0].public - honest[1].public
    assert joint_key([honest[0].public, honest[1].public, rogue]) == base_mul(x)
    # Its best tries: a proof made with the key it controls, a random (T, s), another seat's proof.
    own = announce_key(ctx(2), hand_key_from_secret(x), SRC)
    attempts = [
        KeyAnnouncement(rogue, own.proof),
        KeyAnnouncement(rogue, SchnorrProof(base_mul(random_scalar(SRC)), random_scalar(SRC))),
        KeyAnnouncement(rogue, announce_key(ctx(2), honest[0], SRC).proof),
    ]
    # ... and the classic forgery without a challenge: pick s, e, set T = s·G − e·h; the hash decides e.
    s, e = random_scalar(SRC), random_scalar(SRC)
    attempts.append(KeyAnnouncement(rogue, SchnorrProof(base_mul(s) - e * rogue, s)))
    for ann in attempts:
        with pytest.raises(ProofError):
            verify_key(ctx(2), ann)


def test_joint_key() -> None:
    keys = [new_hand_key(SRC) for _ in range(3)]
    assert joint_key([k.public for k in keys]) == base_mul(sum(k.secret for k in keys))
    with pytest.raises(UsageError):
        joint_key([])
    k = keys[0].public
    with pytest.raises(ProofError):
        joint_key([k, -k])


def test_wire_round_trip_and_strict_decoding() -> None:
    ann = announce_key(ctx(), new_hand_key(SRC), SRC)
    wire = ann.to_wire()
    assert [len(b) for b in wire] == [33, 33, 32]
    assert KeyAnnouncement.from_wire(wire) == ann
    assert KeyAnnouncement.from_wire(tuple(wire)) == ann
    h, t, s = wire
    bad_wires: list[object] = [
        None, b"".join(wire), wire[:2], [*wire, b""], [h, t, bytes(32)], [h[:-1], t, s], [h, b"\x00" * 33, s],
        [h, t, Q.to_bytes(32, "big")], [1, 2, 3], {"h": h},
    ]  # fmt: skip
    for bad in bad_wires:
        with pytest.raises(EncodingError):
            KeyAnnouncement.from_wire(bad)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=97), st.integers(min_value=1, max_value=255))
def test_any_flipped_byte_is_rejected_with_a_typed_error(index: int, mask: int) -> None:
    key = hand_key_from_secret(12345)
    ann = announce_key(ctx(), key, seeded_source(b"flip"))
    blob = b"".join(ann.to_wire())
    blob = flip(blob, index, mask)
    with pytest.raises(DealError):
        verify_key(ctx(), KeyAnnouncement.from_wire([blob[:33], blob[33:66], blob[66:]]))


def test_hand_key_from_secret_checks_range() -> None:
    for bad in (0, Q, -1):
        with pytest.raises(UsageError):
            hand_key_from_secret(bad)
    assert hand_key_from_secret(1).public == G
    assert isinstance(hand_key_from_secret(2).public, Point)
