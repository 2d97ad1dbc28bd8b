"""Ed25519 identity keys: loading, raw bytes, and a fingerprint people can compare by eye."""

from __future__ import annotations

import base64
import hashlib

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from .errors import Reason, SignatureError

KEY_SIZE = 32
SIGNATURE_SIZE = 64


def key_from_seed(seed: bytes) -> Ed25519PrivateKey:
    """The private key whose 32-byte seed is ``seed`` (RFC 8032), for tests, vectors and the store."""
    if len(seed) != KEY_SIZE:
        raise ValueError(f"an Ed25519 seed is {KEY_SIZE} bytes, not {len(seed)}")
    return Ed25519PrivateKey.from_private_bytes(seed)


def public_bytes(key: Ed25519PrivateKey | Ed25519PublicKey) -> bytes:
    """The raw 32-byte public key (of a private key, its public half)."""
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return public.public_bytes(Encoding.Raw, PublicFormat.Raw)


def load_public_key(data: bytes) -> Ed25519PublicKey:
    """A public key from its raw 32 bytes (as found in a genesis body); SignatureError if unusable.

    Refused besides malformed input: a non-canonical encoding (y >= p, or x = 0 with the sign bit
    set) and a point of small order.  With a small-order key anyone can forge that seat's
    signatures (R = identity, S = 0 verifies every message), so such a key must never enter a
    genesis, a handshake or the peers file."""
    if not isinstance(data, bytes) or len(data) != KEY_SIZE:
        raise SignatureError(Reason.MALFORMED, "a public key is 32 bytes")
    problem = weak_key_problem(data)
    if problem:
        raise SignatureError(Reason.MALFORMED, f"unusable public key: {problem}")
    try:
        return Ed25519PublicKey.from_public_bytes(data)
    except ValueError as exc:
        raise SignatureError(Reason.MALFORMED, f"invalid public key: {exc}") from None


# Edwards25519: -x^2 + y^2 = 1 + d x^2 y^2 over GF(p).  Only used to vet public keys (decoding and
# multiplying by the cofactor 8), never for signing, so plain integers are fine.
_P = 2**255 - 19
_D = (-121665 * pow(121666, _P - 2, _P)) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)


def _decode_point(data: bytes) -> tuple[int, int] | str:
    y = int.from_bytes(data, "little")
    sign = y >> 255
    y &= (1 << 255) - 1
    if y >= _P:
        return "non-canonical encoding (y >= p)"
    u = (y * y - 1) % _P
    v = (_D * y * y + 1) % _P
    # x = sqrt(u / v), the candidate (u/v)^((p+3)/8) then a fix-up by sqrt(-1) (RFC 8032 5.1.3)
    x = (u * pow(v, 3, _P) * pow(u * pow(v, 7, _P), (_P - 5) // 8, _P)) % _P
    if (v * x * x - u) % _P != 0:
        x = (x * _SQRT_M1) % _P
        if (v * x * x - u) % _P != 0:
            return "not a point of the curve"
    if x == 0 and sign:
        return "non-canonical encoding (x = 0 with the sign bit set)"
    if x & 1 != sign:
        x = _P - x
    return x, y


def _double(pt: tuple[int, int]) -> tuple[int, int]:
    x, y = pt
    xx, yy = x * x % _P, y * y % _P
    dxy = _D * xx * yy % _P
    return (2 * x * y * pow(1 + dxy, _P - 2, _P) % _P, (yy + xx) * pow(1 - dxy, _P - 2, _P) % _P)


def weak_key_problem(data: bytes) -> str:
    """Why these 32 bytes are not a safe Ed25519 public key ("" if they are one)."""
    if len(data) != KEY_SIZE:
        return f"a public key is {KEY_SIZE} bytes"
    pt = _decode_point(data)
    if isinstance(pt, str):
        return pt
    for _ in range(3):  # [8]P: the curve's cofactor kills exactly the points of small order
        pt = _double(pt)
    if pt == (0, 1):
        return "a point of small order (anyone could forge its signatures)"
    return ""


def fingerprint(key: Ed25519PrivateKey | Ed25519PublicKey | bytes) -> str:
    """A short, human-comparable name for a public key: ``ABCD-EFGH-IJKL-MNOP``.

    The first 10 bytes (80 bits) of SHA-256 of the raw public key, in RFC 4648 base32 (no
    padding needed: 80 bits are exactly 16 characters), in groups of four.  80 bits is plenty for
    people comparing keys they were shown (trust on first use), not for anything automatic: code
    compares the full 32 bytes.
    """
    raw = key if isinstance(key, bytes) else public_bytes(key)
    text = base64.b32encode(hashlib.sha256(raw).digest()[:10]).decode("ascii")
    return "-".join(text[i : i + 4] for i in range(0, len(text), 4))
