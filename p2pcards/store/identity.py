"""This player's identity: an Ed25519 key, created on first use and kept private.

The file holds the 32 raw bytes of the key's seed (RFC 8032), mode 0600.  It is created atomically
(a private temporary file, fsynced, then linked into place), so a crash never leaves a truncated key
and two first runs at once agree on one key.  A key file that other users could read is refused
rather than used: whoever reads it can sign moves as this player.
"""

from __future__ import annotations

import os
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pcards import wire

from . import paths
from .errors import StoreError
from .files import PRIVATE_MODE, atomic_create, check_private

SEED_SIZE = 32


def load_or_create(home: Path | str | None = None) -> Ed25519PrivateKey:
    """The identity key of this data directory, created (with a fresh random seed) if there is none."""
    path = paths.identity_path(home)
    # Checked every time, not only on creation: a data directory others can write to is refused.
    paths.ensure_private_dir(path.parent)
    if not path.exists():
        # If another process won the race, its key is the one; ours is discarded unseen.
        atomic_create(path, os.urandom(SEED_SIZE), mode=PRIVATE_MODE)
    return load(path)


def load(path: Path) -> Ed25519PrivateKey:
    """The identity key stored at ``path``; ``StoreError`` (naming the file and the fix) if unusable."""
    check_private(path, "identity key")
    try:
        seed = path.read_bytes()
    except FileNotFoundError:
        raise StoreError(path, "no identity key here") from None
    if len(seed) != SEED_SIZE:
        raise StoreError(
            path,
            f"an identity key file holds exactly {SEED_SIZE} bytes, this one {len(seed)}; "
            "it is damaged or not ours (move it away to create a new identity: peers will see a new key)",
        )
    return wire.key_from_seed(seed)


def public_key(home: Path | str | None = None) -> bytes:
    """The raw 32-byte public key of this data directory's identity (created if needed)."""
    return wire.public_bytes(load_or_create(home))


def fingerprint(home: Path | str | None = None) -> str:
    """The identity's fingerprint (``ABCD-EFGH-IJKL-MNOP``), what players read aloud to each other."""
    return wire.fingerprint(load_or_create(home))
