import hashlib
import re
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.wire import (
    CERTIFICATE_KINDS,
    KINDS,
    MAX_MESSAGE_SIZE,
    MESSAGE_TAG,
    SIGNATURE_TAG,
    TRANSPORT_KINDS,
    EncodeError,
    Envelope,
    EnvelopeError,
    Reason,
    SignatureError,
    SignedMessage,
    WireError,
    encode,
    fingerprint,
    key_from_seed,
    load_public_key,
    message_hash,
    public_bytes,
    verify,
)

from .helpers import GAME, HEAD0, PRIVATE, PUBLIC, message, values


def test_sign_parse_verify_round_trip() -> None:
    msg = message(3, 2, kind="action", body={"action": "play AS", "n": [1, 2]})
    again = SignedMessage.from_bytes(msg.data)
    assert again == msg and hash(again) == hash(msg)
    assert again.envelope == msg.envelope
    assert again.body == {"action": "play AS", "n": (1, 2)}
    assert (again.game_id, again.step, again.seat, again.prev, again.kind) == (GAME, 3, 2, HEAD0, "action")
    assert again.to_bytes() == msg.data == encode([msg.raw, msg.signature])
    verify(again, PUBLIC[2])
    with pytest.raises(SignatureError) as info:
        verify(again, PUBLIC[3])
    assert info.value.reason is Reason.BAD_SIGNATURE


@settings(max_examples=60)
@given(
    st.integers(0, 2**63 - 1),
    st.integers(0, 5),
    st.binary(min_size=32, max_size=32),
    st.sampled_from(sorted(KINDS)),
    values,
)
def test_any_envelope_round_trips(step: int, seat: int, prev: bytes, kind: str, body: Any) -> None:
    try:
        msg = message(step, seat, prev, kind, body)
    except EnvelopeError as exc:  # a big body for a small kind
        assert exc.reason is Reason.TOO_LARGE and len(encode(body)) > KINDS[kind] - 200
        return
    again = SignedMessage.from_bytes(msg.data)
    assert again == msg and again.envelope == msg.envelope and again.raw == msg.raw
    verify(again, PUBLIC[seat])


def test_the_signature_covers_the_tagged_raw_bytes() -> None:
    msg = message(0, 0)
    PUBLIC[0].verify(msg.signature, SIGNATURE_TAG + msg.raw)
    assert msg.raw == Envelope.from_raw(msg.raw).encode()
    assert msg.raw == encode([1, GAME, 0, 0, HEAD0, "action", None])


def test_message_hash_is_tagged_sha256_of_raw_and_ignores_the_signature() -> None:
    msg = message(1, 1, body=b"x")
    assert message_hash(msg) == msg.hash == hashlib.sha256(MESSAGE_TAG + msg.raw).digest()
    # Ed25519 signing in cryptography is deterministic: same envelope, same message.
    assert message(1, 1, body=b"x") == msg


def test_local_and_decoded_envelopes_compare_equal() -> None:
    local = Envelope(game_id=GAME, step=1, seat=0, prev=HEAD0, kind="share", body={"b": [1], "a": b""})
    assert Envelope.from_raw(local.encode()) == local
    assert local.body == {"a": b"", "b": (1,)}


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"game_id": b"short"}, Reason.MALFORMED),
        ({"prev": b"\x00" * 31}, Reason.MALFORMED),
        ({"step": -1}, Reason.MALFORMED),
        ({"step": 2**63}, Reason.MALFORMED),
        ({"seat": 6}, Reason.MALFORMED),
        ({"seat": True}, Reason.MALFORMED),
        ({"kind": 5}, Reason.MALFORMED),
        ({"version": 2}, Reason.UNSUPPORTED_VERSION),
    ],
)
def test_envelope_fields_are_validated(fields: dict[str, object], reason: Reason) -> None:
    base: dict[str, object] = {"game_id": GAME, "step": 0, "seat": 0, "prev": HEAD0, "kind": "action"}
    with pytest.raises(EnvelopeError) as info:
        Envelope(**{**base, **fields})  # type: ignore[arg-type]
    assert info.value.reason is reason


def test_bodies_outside_the_subset_are_refused() -> None:
    with pytest.raises(EncodeError):
        Envelope(game_id=GAME, step=0, seat=0, prev=HEAD0, kind="action", body=0.5)  # type: ignore[arg-type]


def _resign(fields: list[object], key: Ed25519PrivateKey = PRIVATE[0]) -> bytes:
    """A correctly signed message with an arbitrary (possibly invalid) envelope array."""
    raw = encode(fields)
    return encode([raw, key.sign(SIGNATURE_TAG + raw)])


GOOD = [1, GAME, 0, 0, HEAD0, "action", None]


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (encode([encode(GOOD)]), Reason.MALFORMED),  # no signature
        (encode([encode(GOOD), b"\x00" * 63]), Reason.MALFORMED),  # short signature
        (encode(["raw", b"\x00" * 64]), Reason.MALFORMED),  # raw as str
        (encode([encode(GOOD) + b"\xc0", b"\x00" * 64]), Reason.MALFORMED),  # trailing byte in raw
        (_resign(GOOD[:6]), Reason.MALFORMED),  # six fields
        (_resign([*GOOD, None]), Reason.MALFORMED),  # eight fields
        (_resign({"version": 1}), Reason.MALFORMED),  # type: ignore[arg-type]
        (_resign([True, *GOOD[1:]]), Reason.MALFORMED),  # bool version
        (_resign([2, *GOOD[1:]]), Reason.UNSUPPORTED_VERSION),
        (_resign([2]), Reason.UNSUPPORTED_VERSION),  # a later version may change the layout
        (_resign([-1, "anything"]), Reason.UNSUPPORTED_VERSION),
        (_resign([1, GAME[:31], *GOOD[2:]]), Reason.MALFORMED),
        (_resign([1, GAME, -1, *GOOD[3:]]), Reason.MALFORMED),
        (_resign([1, GAME, 0, 6, *GOOD[4:]]), Reason.MALFORMED),
        (_resign([1, GAME, 0, 0, "head", *GOOD[5:]]), Reason.MALFORMED),
        (_resign([*GOOD[:5], b"action", None]), Reason.MALFORMED),
        (_resign([*GOOD[:5], "telepathy", None]), Reason.UNKNOWN_KIND),
        (_resign([*GOOD[:5], "action", b"x" * 5000]), Reason.TOO_LARGE),
    ],
)
def test_from_bytes_names_the_reason(data: bytes, reason: Reason) -> None:
    with pytest.raises(WireError) as info:
        SignedMessage.from_bytes(data)
    assert info.value.reason is reason


def test_per_kind_limits_apply_to_the_whole_signed_message() -> None:
    limit = KINDS["action"]
    overhead = len(message(0, 0, body=b"").data)
    fits = message(0, 0, body=b"x" * (limit - overhead - 2))  # bin16 header: 2 more bytes
    assert len(fits.data) == limit
    assert SignedMessage.from_bytes(fits.data) == fits
    with pytest.raises(EnvelopeError) as info:
        message(0, 0, body=b"x" * (limit - overhead - 1))
    assert info.value.reason is Reason.TOO_LARGE
    # A shuffle may be larger than an action.
    message(0, 0, kind="shuffle", body=b"x" * (limit * 2))
    with pytest.raises(EnvelopeError) as unknown:
        message(0, 0, kind="telepathy")
    assert unknown.value.reason is Reason.UNKNOWN_KIND
    assert SignedMessage.from_bytes(fits.data, kinds={"action": limit + 1}) == fits
    with pytest.raises(WireError):
        SignedMessage.from_bytes(fits.data, kinds={"action": limit - 1})


def test_kind_registry() -> None:
    needed = {
        "genesis", "key_commit", "key_reveal", "shuffle", "share", "action", "reveal", "audit", "seal",
        "coin_commit", "coin_reveal", "void_vote", "abandon", "return", "evidence", "catchup_request",
        "catchup_response",
    }  # fmt: skip
    assert needed == set(KINDS)
    assert set(KINDS) >= TRANSPORT_KINDS | CERTIFICATE_KINDS
    assert not TRANSPORT_KINDS & CERTIFICATE_KINDS
    assert max(KINDS.values()) == MAX_MESSAGE_SIZE
    # Evidence must be able to carry two of the largest step messages.
    largest_step = max(v for k, v in KINDS.items() if k not in TRANSPORT_KINDS and k != "evidence")
    assert KINDS["evidence"] >= 2 * largest_step + 100
    with pytest.raises(TypeError):
        KINDS["new"] = 1  # type: ignore[index]


def test_keys_and_fingerprints() -> None:
    # RFC 8032, test 1: the seed 9d61... has the public key d75a...
    key = key_from_seed(bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"))
    raw = public_bytes(key)
    assert raw.hex() == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
    assert public_bytes(load_public_key(raw)) == raw == public_bytes(key.public_key())
    fp = fingerprint(key)
    assert re.fullmatch(r"[A-Z2-7]{4}(-[A-Z2-7]{4}){3}", fp)
    assert fp == fingerprint(raw) == fingerprint(key.public_key())
    assert fp != fingerprint(PRIVATE[0])
    with pytest.raises(ValueError):
        key_from_seed(b"short")
    for bad in (b"\x00" * 31, "not bytes"):
        with pytest.raises(SignatureError):
            load_public_key(bad)  # type: ignore[arg-type]


def test_a_malleated_signature_is_refused() -> None:
    # S + L verifies in lax Ed25519 implementations; RFC 8032 (and OpenSSL) require S < L.  If it
    # were accepted, anyone could mint a second valid signature for a relayed message.
    msg = message(0, 0)
    order = 2**252 + 27742317777372353535851937790883648493
    s = int.from_bytes(msg.signature[32:], "little") + order
    forged = msg.signature[:32] + s.to_bytes(32, "little")
    twin = SignedMessage.from_bytes(encode([msg.raw, forged]))
    with pytest.raises(SignatureError):
        verify(twin, PUBLIC[0])
