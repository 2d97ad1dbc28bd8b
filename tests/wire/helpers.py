"""Fixed keys, a fixed game and message factories shared by the wire tests."""

from __future__ import annotations

import hashlib

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from hypothesis import strategies as st

from p2pcards.wire import Encodable, Envelope, SignedMessage, initial_head, key_from_seed, sign

# Seat i's key comes from the seed (i + 1) repeated: reproducible, distinct, obviously fake.
PRIVATE: dict[int, Ed25519PrivateKey] = {seat: key_from_seed(bytes([seat + 1]) * 32) for seat in range(6)}
PUBLIC: dict[int, Ed25519PublicKey] = {seat: key.public_key() for seat, key in PRIVATE.items()}
GAME = hashlib.sha256(b"p2pcards test game").digest()
OTHER_GAME = hashlib.sha256(b"p2pcards another game").digest()
HEAD0 = initial_head(GAME)


def message(
    step: int,
    seat: int,
    prev: bytes = HEAD0,
    kind: str = "action",
    body: Encodable = None,
    *,
    game: bytes = GAME,
    key: Ed25519PrivateKey | None = None,
) -> SignedMessage:
    envelope = Envelope(game_id=game, step=step, seat=seat, prev=prev, kind=kind, body=body)
    return sign(envelope, key if key is not None else PRIVATE[seat])


# Any value of the wire subset (as a local caller would pass it: lists and dicts).
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.binary(max_size=300)
    | st.text(max_size=40)
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=20) | st.dictionaries(st.text(max_size=10), inner, max_size=20),
    max_leaves=60,
)
