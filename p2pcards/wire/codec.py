"""Canonical msgpack: one value, one encoding.

Signatures cover bytes, and the hash chain covers bytes, so a value must have exactly one encoding:
otherwise two replicas could hold "the same" message under two different hashes, and a re-encoded
message would no longer match its signature.  We therefore use a small, fixed subset of msgpack:

========  ======================================================  =======================
Python    msgpack                                                 note
========  ======================================================  =======================
None      nil ``c0``
bool      false ``c2`` / true ``c3``
int       shortest of fixint, uint8..uint64 (n >= 0),             -2**63 <= n < 2**64
          negative fixint, int8..int64 (n < 0)
bytes     shortest of bin8 / bin16 / bin32
str       shortest of fixstr / str8 / str16 / str32 (UTF-8)       lone surrogates refused
tuple     shortest of fixarray / array16 / array32                lists are accepted too
dict      shortest of fixmap / map16 / map32                      str keys, sorted by their
                                                                  UTF-8 bytes, no duplicates
========  ======================================================  =======================

Nothing else: no float (its rounding is a determinism hazard), no ext types (including the
timestamp), no raw/str8 for bytes.  Containers nest at most :data:`MAX_DEPTH` deep.

Decoding is strict: every msgpack length is bounded by the size of the input before anything is
allocated, and the decoded value is re-encoded and compared with the input, which rejects every
non-canonical form (a long int header, unsorted or duplicate map keys, str8 for a short string...)
without a separate rule for each.  Decoded arrays are tuples, so decoded values are immutable except
for maps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, NoReturn

import msgpack

from .errors import DecodeError, EncodeError, Reason

# What decode() and canonical() return (recursive): the canonical Python form of a wire value.
Value = None | bool | int | bytes | str | tuple["Value", ...] | dict[str, "Value"]
# What encode() and Envelope bodies accept: lists too, any mapping with str keys, bytes-likes.
Encodable = (
    None
    | bool
    | int
    | str
    | bytes
    | bytearray
    | memoryview
    | Sequence["Encodable"]
    | Mapping[str, "Encodable"]
)

MAX_DEPTH: Final = 32
"""At most this many arrays/maps nested inside each other (keeps every walk far from recursion limits)."""

DEFAULT_MAX_SIZE: Final = 64 * 1024
"""Largest input decode() accepts unless told otherwise."""

_INT_MIN: Final = -(2**63)
_INT_MAX: Final = 2**64 - 1


def canonical(value: object) -> Value:
    """``value`` in its canonical Python form: tuples for arrays, key-sorted dicts, exact types.

    Accepts any sequence (list, tuple) for arrays, any mapping with str keys for maps, bytes-like
    objects for bytes, and int/str subclasses (IntEnum, StrEnum) for convenience;
    ``decode(encode(v)) == canonical(v)`` for every encodable ``v``.
    Raises :class:`EncodeError` for anything outside the subset.
    """
    return _canonical(value, 0)


def _canonical(value: object, depth: int) -> Value:
    # bool before int: bool is a subclass of int and has its own msgpack type.
    if value is None or value is True or value is False:
        return value
    if isinstance(value, int):
        if not _INT_MIN <= value <= _INT_MAX:
            raise EncodeError(f"integer out of the 64-bit range: {value}")
        return int(value)
    if isinstance(value, str):
        _utf8(value)
        return str.__str__(value)  # an exact str even for a StrEnum member
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    if isinstance(value, Sequence):  # str and bytes were handled above
        _check_depth(depth)
        return tuple(_canonical(item, depth + 1) for item in value)
    if isinstance(value, Mapping):
        _check_depth(depth)
        items: list[tuple[bytes, str, Value]] = []
        for key, item in value.items():
            if not isinstance(key, str):
                raise EncodeError(f"map keys must be str, not {type(key).__name__}")
            items.append((_utf8(key), str.__str__(key), _canonical(item, depth + 1)))
        # Sorting by UTF-8 bytes is what another implementation can reproduce exactly (it is also
        # code point order, since UTF-8 preserves it).  Python dicts keep insertion order, which
        # is the order msgpack writes them in.
        items.sort(key=lambda entry: entry[0])
        return {key: item for _, key, item in items}
    raise EncodeError(f"type {type(value).__name__} is outside the wire subset")


def _check_depth(depth: int) -> None:
    if depth >= MAX_DEPTH:
        raise EncodeError(f"containers nested deeper than {MAX_DEPTH}")


def _utf8(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:  # lone surrogates have no UTF-8 form
        raise EncodeError("string is not encodable as UTF-8") from exc


def encode(value: object) -> bytes:
    """The canonical msgpack encoding of ``value`` (see the module docstring for the subset)."""
    # msgpack-python already writes the shortest header for every int, str, bin, array and map;
    # canonical() supplies the rest (exact types, sorted keys, range and depth checks).
    packed: bytes = msgpack.packb(canonical(value), use_bin_type=True)
    return packed


def _refuse_ext(code: int, data: bytes) -> NoReturn:
    raise ValueError(f"ext type {code} refused")


def decode(data: bytes, *, max_size: int = DEFAULT_MAX_SIZE) -> Value:
    """Decode exactly one canonical value from ``data``; raise :class:`DecodeError` otherwise."""
    if not isinstance(data, bytes):
        raise DecodeError(f"expected bytes, not {type(data).__name__}")
    size = len(data)
    if size == 0:
        raise DecodeError("empty input")
    if size > max_size:
        raise DecodeError(f"{size} bytes exceed the limit of {max_size}", Reason.TOO_LARGE)
    # Every length msgpack announces is bounded by what the input could possibly hold, so a
    # header claiming 2**32 elements is refused before anything is allocated for them.
    unpacker = msgpack.Unpacker(
        raw=False,
        use_list=False,
        strict_map_key=True,
        ext_hook=_refuse_ext,
        max_buffer_size=size,
        max_bin_len=size,
        max_str_len=size,
        max_array_len=size,
        max_map_len=size // 2,
        max_ext_len=0,
    )
    try:
        unpacker.feed(data)
        value = unpacker.unpack()
        consumed = unpacker.tell()
    except Exception as exc:
        # This is the trust boundary: msgpack signals bad input with several exception types
        # (ValueError, UnicodeDecodeError, OutOfData, StackError, ...); all of them mean "malformed".
        raise DecodeError(f"not msgpack: {type(exc).__name__}: {exc}") from None
    if consumed != size:
        raise DecodeError(f"{size - consumed} trailing bytes")
    try:
        again = encode(value)
    except EncodeError as exc:  # a float, a bytes map key, nesting too deep...
        raise DecodeError(exc.detail) from None
    if again != data:
        raise DecodeError("non-canonical encoding")
    # Having re-encoded to the same bytes, the value is already canonical (exact types, tuples,
    # dicts in sorted key order).
    result: Value = value
    return result
