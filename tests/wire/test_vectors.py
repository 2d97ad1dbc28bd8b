"""The stored protocol vectors are what the code computes, and check out independently."""

import hashlib
import json
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from p2pcards.wire import (
    Accepted,
    Chain,
    FrameDecoder,
    FrameError,
    Rejected,
    SignedMessage,
    WireError,
    accept,
    decode,
    encode,
    load_public_key,
)

from .refcodec import ref_encode
from .vectors import VECTOR_DIR, build, dump, untagged

BUILT = build()


def _load(name: str) -> Any:
    return json.loads((VECTOR_DIR / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(BUILT))
def test_stored_vectors_are_current(name: str) -> None:
    # If this fails after an intended change: python -m tests.wire.vectors, and review the diff.
    assert (VECTOR_DIR / name).read_text(encoding="utf-8") == dump(BUILT[name])


def test_codec_vectors() -> None:
    vectors = _load("codec.json")
    for case in vectors["valid"]:
        value, data = untagged(case["value"]), bytes.fromhex(case["hex"])
        assert encode(value) == ref_encode(value) == data
        assert decode(data) == value
    for case in vectors["invalid"]:
        with pytest.raises(WireError):
            decode(bytes.fromhex(case["hex"]))


def test_envelope_vector_independently() -> None:
    v = _load("envelope.json")
    key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(v["seed"]))
    public = key.public_key()
    assert public.public_bytes(Encoding.Raw, PublicFormat.Raw).hex() == v["public_key"]
    e = v["envelope"]
    fields = [e["version"], bytes.fromhex(e["game_id"]), e["step"], e["seat"], bytes.fromhex(e["prev"]),
              e["kind"], untagged(e["body"])]  # fmt: skip
    raw, signature = bytes.fromhex(v["raw"]), bytes.fromhex(v["signature"])
    assert ref_encode(fields) == raw
    tag = bytes.fromhex(v["signature_tag"])
    public.verify(signature, tag + raw)
    assert key.sign(tag + raw) == signature  # Ed25519 is deterministic
    assert hashlib.sha256(bytes.fromhex(v["message_tag"]) + raw).hexdigest() == v["message_hash"]
    assert ref_encode([raw, signature]).hex() == v["message"]
    msg = SignedMessage.from_bytes(bytes.fromhex(v["message"]))
    assert msg.hash.hex() == v["message_hash"]


def test_frame_vector() -> None:
    v = _load("frame.json")
    payload, frame = bytes.fromhex(v["payload"]), bytes.fromhex(v["frame"])
    assert frame == len(payload).to_bytes(4, "big") + payload
    assert FrameDecoder(len(payload)).feed(frame) == [payload]
    for case in v["refused_headers"]:
        with pytest.raises(FrameError):
            FrameDecoder().feed(bytes.fromhex(case["hex"]))


def test_chain_vector_independently() -> None:
    v = _load("chain.json")
    head = hashlib.sha256(bytes.fromhex(v["genesis_tag"]) + bytes.fromhex(v["game_id"])).digest()
    assert head.hex() == v["initial_head"]
    keys = {int(s): Ed25519PublicKey.from_public_bytes(bytes.fromhex(k)) for s, k in v["public_keys"].items()}
    for step in v["steps"]:
        assert step["prev"] == head.hex()
        if step["seal"]:
            head = hashlib.sha256(bytes.fromhex(v["seal_tag"]) + head).digest()
            assert head.hex() == step["head"]
            continue
        hashes = b""
        seats = [m["seat"] for m in step["messages_in_seat_order"]]
        assert seats == sorted(step["arrival_order"])
        for m in step["messages_in_seat_order"]:
            msg = SignedMessage.from_bytes(bytes.fromhex(m["message"]))
            assert (msg.seat, msg.step, msg.prev) == (m["seat"], step["number"], head)
            keys[msg.seat].verify(msg.signature, b"p2pcards/wire/v1/signature\x00" + msg.raw)
            assert hashlib.sha256(b"p2pcards/wire/v1/message\x00" + msg.raw).hexdigest() == m["message_hash"]
            hashes += bytes.fromhex(m["message_hash"])
        head = hashlib.sha256(bytes.fromhex(v["head_tag"]) + head + hashes).digest()
        assert head.hex() == step["head"]
    assert [c["outcome"] for c in v["late"]] == ["old step", "Equivocation"]


def test_acceptance_vectors() -> None:
    v = _load("acceptance.json")
    x = v["expect"]
    keys = {int(s): load_public_key(bytes.fromhex(k)) for s, k in x["public_keys"].items()}
    seen = set()
    for case in v["cases"]:
        verdict = accept(
            bytes.fromhex(case["message"]),
            game_id=bytes.fromhex(x["game_id"]),
            step=x["step"],
            prev=bytes.fromhex(x["prev"]),
            awaited=x["awaited"],
            keys=keys,
        )
        reason = verdict.reason.value if isinstance(verdict, Rejected) else None
        assert reason == case["reason"], case["name"]
        seen.add(reason)
    # Every reason a message (rather than a frame header) can get is covered.
    assert seen == {None, "malformed", "unsupported version", "unknown kind", "too large", "another game",
                    "unknown seat", "bad signature", "not a step", "old step", "future step", "wrong head",
                    "not awaited"}  # fmt: skip


def test_a_chain_gives_the_same_reasons_as_the_acceptance_vectors() -> None:
    v = _load("acceptance.json")
    keys = {int(s): load_public_key(bytes.fromhex(k)) for s, k in v["expect"]["public_keys"].items()}
    x = v["expect"]
    for case in v["cases"]:
        chain = Chain(
            bytes.fromhex(x["game_id"]), keys, start_step=x["step"], start_head=bytes.fromhex(x["prev"])
        )
        chain.expect(x["awaited"])
        outcome = chain.offer(bytes.fromhex(case["message"]))
        assert isinstance(outcome, Rejected | Accepted)
        reason = outcome.reason.value if isinstance(outcome, Rejected) else None
        assert reason == case["reason"], case["name"]
