"""An independent encoder written from protocol/WIRE.md alone (no msgpack library).

The tests check that the real codec produces exactly these bytes, which keeps WIRE.md honest:
another implementation that follows the document byte by byte interoperates.
"""

from __future__ import annotations

import struct


def ref_encode(value: object) -> bytes:
    if value is None:
        return b"\xc0"
    if value is False:
        return b"\xc2"
    if value is True:
        return b"\xc3"
    if isinstance(value, int):
        return _int(value)
    if isinstance(value, bytes):
        return _header(len(value), None, 0xC4) + value
    if isinstance(value, str):
        data = value.encode("utf-8")
        return _header(len(data), 0xA0 if len(data) < 32 else None, 0xD9) + data
    if isinstance(value, list | tuple):
        return _container(len(value), 0x90, 0xDC) + b"".join(ref_encode(v) for v in value)
    if isinstance(value, dict):
        items = sorted((k.encode("utf-8"), v) for k, v in value.items())
        body = b"".join(ref_encode(k.decode("utf-8")) + ref_encode(v) for k, v in items)
        return _container(len(value), 0x80, 0xDE) + body
    raise TypeError(type(value))


def _int(n: int) -> bytes:
    if 0 <= n <= 0x7F:
        return bytes([n])
    if -32 <= n < 0:
        return struct.pack(">b", n)
    if n >= 0:
        for code, fmt, top in (
            (0xCC, ">B", 2**8),
            (0xCD, ">H", 2**16),
            (0xCE, ">I", 2**32),
            (0xCF, ">Q", 2**64),
        ):
            if n < top:
                return bytes([code]) + struct.pack(fmt, n)
    for code, fmt, low in (
        (0xD0, ">b", -(2**7)),
        (0xD1, ">h", -(2**15)),
        (0xD2, ">i", -(2**31)),
        (0xD3, ">q", -(2**63)),
    ):
        if n >= low:
            return bytes([code]) + struct.pack(fmt, n)
    raise OverflowError(n)


def _header(length: int, fix: int | None, code8: int) -> bytes:
    """bin (code8 = c4) or str (code8 = d9): fix form if any, then 8/16/32-bit lengths."""
    if fix is not None:
        return bytes([fix | length])
    if length < 2**8:
        return bytes([code8, length])
    if length < 2**16:
        return bytes([code8 + 1]) + struct.pack(">H", length)
    return bytes([code8 + 2]) + struct.pack(">I", length)


def _container(length: int, fix: int, code16: int) -> bytes:
    if length < 16:
        return bytes([fix | length])
    if length < 2**16:
        return bytes([code16]) + struct.pack(">H", length)
    return bytes([code16 + 1]) + struct.pack(">I", length)
