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
    """A public key from its raw 32 bytes (as found in a genesis body); SignatureError if unusable."""
    if not isinstance(data, bytes) or len(data) != KEY_SIZE:
        raise SignatureError(Reason.MALFORMED, "a public key is 32 bytes")
    try:
        return Ed25519PublicKey.from_public_bytes(data)
    except ValueError as exc:
        raise SignatureError(Reason.MALFORMED, f"invalid public key: {exc}") from None


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
