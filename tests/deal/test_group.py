"""The group wrapper, hashing and the context: strict encodings, total arithmetic, domain separation."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pcards.deal import Context, EncodingError, UsageError
from p2pcards.deal.group import (
    LAMBDA,
    G,
    Point,
    Q,
    base_mul,
    decode_scalar,
    encode_scalar,
    msm,
    point_sum,
    random_below,
    random_scalar,
    split_short,
)
from p2pcards.deal.hashing import (
    digest,
    frame,
    hash_to_curve,
    hash_to_curve_counter,
    hash_to_scalar,
    seeded_source,
)

# x = 0 is not on secp256k1 (7 is not a square mod p) and x = p is out of range: both must fail to decode.
P_FIELD = 2**256 - 2**32 - 977
G_HEX = "0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"


def test_base_point_is_the_standard_one() -> None:
    assert G.encode().hex() == G_HEX
    assert base_mul(1) == G
    assert Point.decode(bytes.fromhex(G_HEX)) == G


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\x00",  # SEC1's encoding of the point at infinity
        bytes(33),
        b"\x02" + bytes(32),  # x = 0: not on the curve
        b"\x02" + P_FIELD.to_bytes(32, "big"),  # x = p: out of range
        b"\x02" + (2**256 - 1).to_bytes(32, "big"),
        b"\x04" + bytes.fromhex(G_HEX)[1:] * 2,  # uncompressed encodings are not accepted
        bytes.fromhex(G_HEX)[:32],  # truncated
        bytes.fromhex(G_HEX) + b"\x00",  # too long
        b"\x05" + bytes.fromhex(G_HEX)[1:],  # bad prefix
    ],
)
def test_invalid_points_are_rejected(data: bytes) -> None:
    with pytest.raises(EncodingError):
        Point.decode(data)


@pytest.mark.parametrize("obj", [None, 3, "02" * 33, bytearray(bytes.fromhex(G_HEX)), [bytes.fromhex(G_HEX)]])
def test_points_must_be_bytes(obj: object) -> None:
    with pytest.raises(EncodingError):
        Point.decode(obj)


@given(st.binary(min_size=0, max_size=40))
def test_any_bytes_decode_to_a_point_or_encoding_error(data: bytes) -> None:
    try:
        p = Point.decode(data)
    except EncodingError:
        return
    assert p.encode() == data  # canonical: only one encoding per point


def test_the_identity_has_no_encoding_and_arithmetic_is_total() -> None:
    zero = G - G
    assert zero.is_identity
    assert zero == 0 * G and zero == Q * G
    assert zero + G == G and G + zero == G and -zero == zero
    assert point_sum([]) == zero and msm([], []) == zero
    assert zero != G
    with pytest.raises(EncodingError):
        zero.encode()


@given(st.integers(min_value=1, max_value=Q - 1), st.integers(min_value=1, max_value=Q - 1))
def test_arithmetic_agrees_with_scalars(a: int, b: int) -> None:
    P = base_mul(a)
    assert P + base_mul(b) == base_mul(a + b)
    assert b * P == base_mul(a * b)
    assert base_mul(Q - a) == -P
    assert P - P == G - G
    assert msm([a, b], [G, P], base=3, plus=[G]) == base_mul(a + b * a + 3 + 1)


def test_scalars_are_strict() -> None:
    assert decode_scalar(encode_scalar(Q - 1)) == Q - 1
    assert decode_scalar(bytes(32)) == 0
    for bad in (
        Q.to_bytes(32, "big"),
        (2**256 - 1).to_bytes(32, "big"),
        bytes(31),
        bytes(33),
        5,
        None,
        "00" * 32,
    ):
        with pytest.raises(EncodingError):
            decode_scalar(bad)
    with pytest.raises(EncodingError):
        decode_scalar(bytes(32), nonzero=True)
    with pytest.raises(UsageError):
        encode_scalar(Q)


def test_randomness_comes_only_from_the_source() -> None:
    a, b = seeded_source(b"s"), seeded_source(b"s")
    assert [random_scalar(a) for _ in range(3)] == [random_scalar(b) for _ in range(3)]
    assert random_scalar(seeded_source(b"t")) != random_scalar(seeded_source(b"s"))
    with pytest.raises(UsageError):
        random_scalar(lambda n: b"short")
    draws = [random_below(3, a) for _ in range(300)]
    assert set(draws) == {0, 1, 2}
    # a source that only produces values above the acceptance limit is rejected, not biased:
    stream = iter([b"\xff" * 32, (7).to_bytes(32, "big")])
    assert random_below(3, lambda n: next(stream)) == 1


def test_hash_to_curve_is_try_and_increment() -> None:
    label = b"p2pcards/card/0"
    point, ctr = hash_to_curve_counter(label)
    assert point == hash_to_curve(label)
    assert point.encode() == b"\x02" + hashlib.sha256(label + ctr.to_bytes(4, "big")).digest()
    for earlier in range(ctr):  # every earlier counter gave an x that is not on the curve
        with pytest.raises(EncodingError):
            Point.decode(b"\x02" + hashlib.sha256(label + earlier.to_bytes(4, "big")).digest())


def test_frame_is_injective_on_the_split_of_parts() -> None:
    assert frame("t", b"ab", b"c") != frame("t", b"a", b"bc")
    assert frame("t", b"abc") != frame("t", b"ab", b"c")
    assert frame("t", b"") != frame("t")
    assert digest("a", b"x") != digest("b", b"x")
    assert frame("key", b"x") == b"\x00\x00\x00\x14p2pcards/deal/v1/key\x00\x00\x00\x01x"


@given(st.lists(st.binary(max_size=6), max_size=4), st.lists(st.binary(max_size=6), max_size=4))
def test_frames_differ_whenever_parts_differ(a: list[bytes], b: list[bytes]) -> None:
    assert (frame("t", *a) == frame("t", *b)) == (a == b)


def test_hash_to_scalar_is_wide_and_reduced() -> None:
    m = frame("x", b"1")
    wide = hashlib.sha256(m + b"\x00").digest() + hashlib.sha256(m + b"\x01").digest()
    assert hash_to_scalar("x", b"1") == int.from_bytes(wide, "big") % Q


def test_context_encoding_is_canonical_and_checked() -> None:
    c = Context(game_id=b"g", hand=2, seat=3, step=4)
    assert c.encode() == (
        (1).to_bytes(8, "big") + (1).to_bytes(4, "big") + b"g" + (2).to_bytes(8, "big")
        + (3).to_bytes(8, "big") + (4).to_bytes(8, "big")
    )  # fmt: skip
    assert c.for_seat(None).encode()[-16:-8] == b"\xff" * 8
    encodings = {
        c.encode(),
        c.for_seat(4).encode(),
        c.at_step(5).encode(),
        Context(game_id=b"g", hand=3, seat=3, step=4).encode(),
        Context(game_id=b"h", hand=2, seat=3, step=4).encode(),
        Context(game_id=b"g", hand=2, seat=3, step=4, version=2).encode(),
    }
    assert len(encodings) == 6
    for bad in (
        {"game_id": b"", "hand": 0, "seat": 0, "step": 0},
        {"game_id": b"x" * 256, "hand": 0, "seat": 0, "step": 0},
        {"game_id": "g", "hand": 0, "seat": 0, "step": 0},
        {"game_id": b"g", "hand": -1, "seat": 0, "step": 0},
        {"game_id": b"g", "hand": 0, "seat": 2**64 - 1, "step": 0},
        {"game_id": b"g", "hand": 0, "seat": 0, "step": True},
    ):
        with pytest.raises(UsageError):
            Context(**bad)  # type: ignore[arg-type]


def test_lambda_is_the_endomorphism_of_secp256k1() -> None:
    """λ·(x, y) = (β·x, y): the constant is the cube root of unity libsecp256k1 splits scalars with."""
    p = 2**256 - 2**32 - 977
    beta = 0x7AE96A2B657C07106E64479EAC3434E99CF0497512F58995C1396C28719501EE
    assert pow(LAMBDA, 3, Q) == 1 and LAMBDA % Q != 1
    for point in (G, base_mul(12345)):
        x = int.from_bytes(point.encode()[1:], "big")
        image = (point * LAMBDA).encode()
        assert image[0] == point.encode()[0] and int.from_bytes(image[1:], "big") == beta * x % p


def test_short_scalars_are_distinct_and_checked() -> None:
    seen = {split_short(a, b) for a in (0, 1, 2**63, 2**64 - 1) for b in (0, 1, 2**63, 2**64 - 1)}
    assert len(seen) == 16
    assert split_short(5, 0) == 5 and split_short(0, 1) == LAMBDA
    assert split_short(3, 7) * G == 3 * G + 7 * (LAMBDA * G)
    for bad in ((-1, 0), (0, 2**64)):
        with pytest.raises(UsageError):
            split_short(*bad)
