import enum
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pcards.wire import MAX_DEPTH, DecodeError, EncodeError, Reason, WireError, canonical, decode, encode

from .helpers import values
from .refcodec import ref_encode


@given(values)
def test_round_trip_is_canonical_and_matches_the_reference_encoder(value: Any) -> None:
    data = encode(value)
    assert data == ref_encode(value)  # the byte-level rules of WIRE.md, written independently
    decoded = decode(data, max_size=len(data))
    assert decoded == canonical(value)
    assert encode(decoded) == data


@given(st.dictionaries(st.text(max_size=6), st.integers(0, 9), min_size=2, max_size=8), st.randoms())
def test_map_encoding_ignores_insertion_order(mapping: dict[str, int], rnd: Any) -> None:
    items = list(mapping.items())
    rnd.shuffle(items)
    assert encode(dict(items)) == encode(mapping)


def test_known_encodings() -> None:
    assert encode(None) == b"\xc0"
    assert encode([True, False]) == b"\x92\xc3\xc2"
    assert encode(127) == b"\x7f"
    assert encode(128) == b"\xcc\x80"
    assert encode(-32) == b"\xe0"
    assert encode(-33) == b"\xd0\xdf"
    assert encode(2**64 - 1) == b"\xcf" + b"\xff" * 8
    assert encode(-(2**63)) == b"\xd3\x80" + b"\x00" * 7
    assert encode(b"ab") == b"\xc4\x02ab"
    assert encode("ab") == b"\xa2ab"
    assert encode({"b": 1, "a": 2}) == b"\x82\xa1a\x02\xa1b\x01"
    # Keys sort by UTF-8 bytes: "Z" (5a) < "a" (61) < "é" (c3 a9).
    assert encode({"é": 0, "a": 0, "Z": 0}) == b"\x83\xa1Z\x00\xa1a\x00\xa2\xc3\xa9\x00"


def test_canonical_python_form() -> None:
    class Seat(enum.IntEnum):
        NORTH = 2

    class Kind(enum.StrEnum):
        PLAY = "play"

    value = canonical({"z": [1, [2]], "a": bytearray(b"x"), "k": Kind.PLAY, "s": Seat.NORTH})
    assert value == {"a": b"x", "k": "play", "s": 2, "z": (1, (2,))}
    assert isinstance(value, dict) and list(value) == ["a", "k", "s", "z"]
    assert type(value["k"]) is str and type(value["s"]) is int


@pytest.mark.parametrize(
    "value",
    [
        1.5,
        2**64,
        -(2**63) - 1,
        {1: "int key"},
        {b"k": "bytes key"},
        {"\ud800": "surrogate key"},
        "\udfff",
        {1, 2},
        object(),
    ],
)
def test_values_outside_the_subset_are_refused(value: object) -> None:
    with pytest.raises(EncodeError):
        encode(value)


def test_nesting_limit() -> None:
    deep: object = None
    for _ in range(MAX_DEPTH):
        deep = [deep]
    assert decode(encode(deep)) == canonical(deep)
    with pytest.raises(EncodeError):
        encode([deep])
    # The same depth arriving from a peer is a decode error, not a RecursionError.
    with pytest.raises(DecodeError):
        decode(b"\x91" * (MAX_DEPTH + 1) + b"\xc0")
    with pytest.raises(DecodeError):
        decode(b"\x91" * 100_000 + b"\xc0", max_size=200_000)


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"", "empty"),
        (b"\xcc\x01", "1 as uint8 instead of a fixint"),
        (b"\xd0\x01", "1 as int8"),
        (b"\xd1\xff\xff", "-1 as int16"),
        (b"\xcd\x00\xff", "255 as uint16"),
        (b"\xd9\x01a", "short string as str8"),
        (b"\xc5\x00\x01a", "short bin as bin16"),
        (b"\xdc\x00\x01\xc0", "short array as array16"),
        (b"\xde\x00\x01\xa1a\xc0", "short map as map16"),
        (b"\x82\xa1b\xc0\xa1a\xc0", "unsorted map keys"),
        (b"\x82\xa1a\xc0\xa1a\xc3", "duplicate map keys"),
        (b"\x81\xc4\x01a\xc0", "bin map key"),
        (b"\x81\x01\xc0", "int map key"),
        (b"\xca\x3f\xc0\x00\x00", "float32"),
        (b"\xcb\x3f\xf8\x00\x00\x00\x00\x00\x00", "float64"),
        (b"\xd4\x01\x00", "fixext1"),
        (b"\xd6\xff\x00\x00\x00\x00", "timestamp ext"),
        (b"\xc7\x00\x05", "ext8 of length 0"),
        (b"\xc1", "never-used byte"),
        (b"\xa2\xc3\x28", "invalid UTF-8"),
        (b"\xa3\xed\xa0\x80", "UTF-8 of a surrogate"),
        (b"\xc0\xc0", "trailing bytes"),
        (b"\x92\xc0", "truncated array"),
        (b"\xc4\x05ab", "truncated bin"),
        (b"\xdd\xff\xff\xff\xff", "array header claiming 2**32 - 1 items"),
        (b"\xdf\xff\xff\xff\xff", "map header claiming 2**32 - 1 pairs"),
        (b"\xc6\xff\xff\xff\xff", "bin header claiming 4 GiB"),
        (b"\xdb\xff\xff\xff\xff", "str header claiming 4 GiB"),
    ],
)
def test_malformed_and_non_canonical_input_is_refused(data: bytes, why: str) -> None:
    with pytest.raises(DecodeError) as info:
        decode(data)
    assert info.value.reason is Reason.MALFORMED, why


def test_size_limit_is_checked_first() -> None:
    with pytest.raises(DecodeError) as info:
        decode(encode(b"x" * 100), max_size=50)
    assert info.value.reason is Reason.TOO_LARGE


@given(st.binary(max_size=200))
def test_random_bytes_raise_only_wire_errors(data: bytes) -> None:
    try:
        value = decode(data)
    except WireError:
        return
    assert encode(value) == data  # whatever decodes is canonical
