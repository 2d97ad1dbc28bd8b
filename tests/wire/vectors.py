"""Builds the language-neutral test vectors in protocol/vectors/wire/.

Regenerate with ``python -m tests.wire.vectors`` from the repository root; ``test_vectors.py``
checks that the stored files equal what the code computes, and re-derives the hashes and
signatures independently.

Values in JSON use a tagged form, since JSON has no bytes and no 64-bit integers:
``{"nil": null}``, ``{"bool": true}``, ``{"int": "-5"}`` (decimal string), ``{"bin": "<hex>"}``,
``{"str": "text"}``, ``{"array": [...]}``, ``{"map": [["key", <value>], ...]}`` (in encoded order).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from p2pcards.wire import (
    GENESIS_TAG,
    HEAD_TAG,
    KINDS,
    MESSAGE_TAG,
    PROTOCOL_VERSION,
    SEAL_TAG,
    SIGNATURE_TAG,
    Chain,
    Envelope,
    Rejected,
    SignedMessage,
    Value,
    accept,
    encode,
    encode_frame,
    fingerprint,
    initial_head,
    key_from_seed,
    public_bytes,
    sign,
)

VECTOR_DIR = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "wire"

# RFC 8032 section 7.1, test 1: an implementation can check its Ed25519 against the RFC first.
RFC8032_SEED = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
SEAT_SEEDS = {seat: bytes([seat + 1]) * 32 for seat in range(3)}
GAME_ID = hashlib.sha256(b"p2pcards/vectors/game").digest()
GENESIS_STANDIN = b"the genesis bytes (a stand-in: this game id is no genesis's hash)"
"""Step 0's body.  In a game it is the genesis whose hash is the game id (SPEC §2, §3); the wire layer
never reads a body, and the vectors' game id is made up."""


def tagged(value: Value) -> Any:
    if value is None:
        return {"nil": None}
    if isinstance(value, bool):
        return {"bool": value}
    if isinstance(value, int):
        return {"int": str(value)}
    if isinstance(value, bytes):
        return {"bin": value.hex()}
    if isinstance(value, str):
        return {"str": value}
    if isinstance(value, tuple):
        return {"array": [tagged(v) for v in value]}
    return {"map": [[k, tagged(v)] for k, v in value.items()]}


def untagged(obj: Any) -> Value:
    ((tag, inner),) = obj.items()
    if tag == "nil":
        return None
    if tag == "bool":
        return bool(inner)
    if tag == "int":
        return int(inner)
    if tag == "bin":
        return bytes.fromhex(inner)
    if tag == "str":
        return str(inner)
    if tag == "array":
        return tuple(untagged(v) for v in inner)
    if tag == "map":
        return {k: untagged(v) for k, v in inner}
    raise ValueError(tag)


CODEC_VALID: list[Value] = [
    None, False, True,
    0, 127, 128, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**64 - 1,
    -1, -32, -33, -128, -129, -32768, -32769, -(2**31), -(2**31) - 1, -(2**63),
    b"", b"\x00\xff", b"x" * 255, b"x" * 256,
    "", "AS", "x" * 31, "x" * 32, "x" * 255, "x" * 256, "10♥",
    (), (1, (2, 3)), tuple(range(15)), tuple(range(16)),
    {}, {"a": 1, "b": (True, None)}, {"Z": 0, "a": 0, "é": 0},
    {f"k{i:02}": i for i in range(16)},
]  # fmt: skip

CODEC_INVALID: list[tuple[str, str]] = [
    ("cc01", "1 as uint8 (not the shortest form)"),
    ("d0ff", "-1 as int8 (not the shortest form)"),
    ("cd00ff", "255 as uint16"),
    ("d90161", "a 1-byte string as str8"),
    ("c5000161", "a 1-byte bin as bin16"),
    ("dc0001c0", "a 1-element array as array16"),
    ("82a162c0a161c0", "map keys not sorted"),
    ("82a161c0a161c3", "duplicate map key"),
    ("81c40161c0", "bin map key"),
    ("8101c0", "integer map key"),
    ("cb3ff8000000000000", "float64"),
    ("ca3fc00000", "float32"),
    ("d40100", "ext type (fixext 1)"),
    ("d6ff00000000", "timestamp ext"),
    ("c1", "never-used byte"),
    ("a2c328", "invalid UTF-8"),
    ("c0c0", "trailing bytes"),
    ("92c0", "truncated array"),
    ("ddffffffff", "array header announcing 2**32 - 1 elements"),
    ("91" * 33 + "c0", "33 nested arrays (the limit is 32)"),
]


def codec_vectors() -> dict[str, Any]:
    return {
        "description": "Canonical msgpack subset: each valid value has exactly these bytes; each invalid "
        "input must be refused (reason: malformed).",
        "valid": [{"value": tagged(v), "hex": encode(v).hex()} for v in CODEC_VALID],
        "invalid": [{"hex": h, "why": why} for h, why in CODEC_INVALID],
    }


def _envelope_message() -> tuple[Envelope, SignedMessage]:
    key = key_from_seed(RFC8032_SEED)
    prev = initial_head(GAME_ID)
    body: Value = {"a": "play AS", "pos": (12,), "shares": ()}  # SPEC §5.5, the seeded dealer's
    envelope = Envelope(game_id=GAME_ID, step=7, seat=2, prev=prev, kind="action", body=body)
    return envelope, sign(envelope, key)


def envelope_vectors() -> dict[str, Any]:
    envelope, msg = _envelope_message()
    key = key_from_seed(RFC8032_SEED)
    return {
        "description": "A signed envelope.  signature = Ed25519(seed, signature_tag || raw); "
        "message_hash = SHA-256(message_tag || raw); message = the frame payload [raw, signature].",
        "seed": RFC8032_SEED.hex(),
        "public_key": public_bytes(key).hex(),
        "fingerprint": fingerprint(key),
        "envelope": {
            "version": envelope.version,
            "game_id": envelope.game_id.hex(),
            "step": envelope.step,
            "seat": envelope.seat,
            "prev": envelope.prev.hex(),
            "kind": envelope.kind,
            "body": tagged(envelope.value),
        },
        "signature_tag": SIGNATURE_TAG.hex(),
        "raw": msg.raw.hex(),
        "signature": msg.signature.hex(),
        "message_tag": MESSAGE_TAG.hex(),
        "message_hash": msg.hash.hex(),
        "message": msg.data.hex(),
    }


def frame_vectors() -> dict[str, Any]:
    _, msg = _envelope_message()
    return {
        "description": "A frame is a 4-byte big-endian payload length, then the payload (one message).",
        "payload": msg.data.hex(),
        "frame": encode_frame(msg.data).hex(),
        "refused_headers": [
            {"hex": "00000000", "why": "empty frame (malformed)"},
            {"hex": "40000000", "why": "1 GiB announced: too large, refused before reading the payload"},
        ],
    }


def _seat_keys() -> dict[int, Any]:
    return {seat: key_from_seed(seed) for seat, seed in SEAT_SEEDS.items()}


def _chain_messages() -> tuple[Chain, list[tuple[SignedMessage, ...]]]:
    """Step 0: seat 0 alone (genesis).  Step 1: a round of seats 0-2 arriving as 2, 0, 1.  Step 2: a
    seal round of seats 0-2, whose head covers the head before it only."""
    keys = _seat_keys()
    publics = {seat: key.public_key() for seat, key in keys.items()}
    chain = Chain(GAME_ID, publics)
    chain.expect({0})
    genesis = sign(
        Envelope(game_id=GAME_ID, step=0, seat=0, prev=chain.head, kind="genesis", body=GENESIS_STANDIN),
        keys[0],
    )
    chain.offer(genesis)
    head1 = chain.head
    chain.expect({0, 1, 2})
    commits = {
        seat: sign(
            Envelope(game_id=GAME_ID, step=1, seat=seat, prev=head1, kind="key_commit",
                     body=hashlib.sha256(bytes([seat])).digest()),
            keys[seat],
        )
        for seat in (2, 0, 1)
    }  # fmt: skip
    arrivals = tuple(commits[seat] for seat in (2, 0, 1))
    for msg in arrivals:
        chain.offer(msg)
    head2 = chain.head
    chain.expect({0, 1, 2}, seal=True)
    seals = tuple(
        sign(Envelope(game_id=GAME_ID, step=2, seat=seat, prev=head2, kind="seal",
                      body=_seal_body(b"the result")), keys[seat])
        for seat in (1, 2, 0)
    )  # fmt: skip
    for msg in seals:
        chain.offer(msg)
    return chain, [(genesis,), arrivals, seals]


def _seal_body(text: bytes) -> Value:
    """A seal's body as SPEC §5.7 gives it (its result a stand-in: the wire layer never reads it)."""
    return {"admit": (), "hand": 0, "over": False, "result": hashlib.sha256(text).digest()}


def _late_messages(chain: Chain) -> list[tuple[str, SignedMessage]]:
    """Seat 1 signs another seal for step 2: after another head it is refused, after the same head it is
    equivocation."""
    key = _seat_keys()[1]
    sealed = chain.steps[2]
    body = _seal_body(b"another result")
    return [
        ("another head: old step, not equivocation", sign(Envelope(
            game_id=GAME_ID, step=2, seat=1, prev=hashlib.sha256(b"elsewhere").digest(), kind="seal",
            body=body), key)),
        ("the same head: equivocation", sign(Envelope(
            game_id=GAME_ID, step=2, seat=1, prev=sealed.prev, kind="seal", body=body), key)),
    ]  # fmt: skip


def chain_vectors() -> dict[str, Any]:
    chain, arrivals = _chain_messages()
    steps = []
    for step, arrived in zip(chain.steps, arrivals, strict=True):
        steps.append(
            {
                "number": step.number,
                "seal": step.messages[0].kind == "seal",
                "prev": step.prev.hex(),
                "arrival_order": [m.seat for m in arrived],
                "messages_in_seat_order": [
                    {"seat": m.seat, "message": m.data.hex(), "message_hash": m.hash.hex()}
                    for m in step.messages
                ],
                "head": step.head.hex(),
            }
        )
    late = []
    for why, msg in _late_messages(chain):
        outcome = chain.offer(msg)
        named = outcome.reason.value if isinstance(outcome, Rejected) else type(outcome).__name__
        late.append({"why": why, "message": msg.data.hex(), "outcome": named})
    return {
        "description": "initial_head = SHA-256(genesis_tag || game_id); the head after a step = "
        "SHA-256(head_tag || prev head || message hashes in seat order); after a seal step = "
        "SHA-256(seal_tag || prev head).",
        "game_id": GAME_ID.hex(),
        "genesis_tag": GENESIS_TAG.hex(),
        "head_tag": HEAD_TAG.hex(),
        "seal_tag": SEAL_TAG.hex(),
        "public_keys": {str(s): public_bytes(k).hex() for s, k in _seat_keys().items()},
        "initial_head": initial_head(GAME_ID).hex(),
        "steps": steps,
        "late": late,
    }


def acceptance_vectors() -> dict[str, Any]:
    """One message per check, each failing exactly that check, against one expectation."""
    keys = _seat_keys()
    publics = {seat: key.public_key() for seat, key in keys.items()}
    chain, _ = _chain_messages()
    head, step = chain.head, chain.step
    other_game = hashlib.sha256(b"p2pcards/vectors/another game").digest()

    def signed(fields: list[Any], seat: int = 1) -> bytes:
        raw = encode(fields)
        return encode([raw, keys[seat].sign(SIGNATURE_TAG + raw)])

    def env(**changes: Any) -> list[Any]:
        fields = {"version": PROTOCOL_VERSION, "game_id": GAME_ID, "step": step, "seat": 1, "prev": head,
                  "kind": "action", "body": {"a": "take", "pos": (), "shares": ()}}  # fmt: skip
        fields.update(changes)
        return list(fields.values())

    good = signed(env())
    cases = [
        ("accepted", good),
        ("not msgpack", b"\xc1"),
        ("non-canonical outer array", b"\xdc\x00\x02" + good[1:]),
        ("signature of 63 bytes", encode([SignedMessage.from_bytes(good).raw, b"\x00" * 63])),
        ("envelope of 6 fields", signed(env()[:6])),
        ("version 2", signed(env(version=2))),
        ("unknown kind", signed(env(kind="telepathy"))),
        ("action over 4096 bytes", signed(env(body=b"x" * KINDS["action"]))),
        ("another game", signed(env(game_id=other_game))),
        ("seat without a key", signed(env(seat=3), seat=0)),
        ("signed by another seat", signed(env(), seat=2)),
        ("catch-up request", signed(env(kind="catchup_request"))),
        ("void vote (a certificate)", signed(env(kind="void_vote", body={"silent": [0]}))),
        ("old step", signed(env(step=step - 1))),
        ("future step", signed(env(step=step + 1))),
        ("wrong head", signed(env(prev=b"\x00" * 32))),
        ("seat 2 is not awaited", signed(env(seat=2), seat=2)),
    ]
    results = []
    for name, data in cases:
        verdict = accept(data, game_id=GAME_ID, step=step, prev=head, awaited={0, 1}, keys=publics)
        reason = verdict.reason.value if isinstance(verdict, Rejected) else None
        results.append({"name": name, "message": data.hex(), "reason": reason})
    return {
        "description": "accept() against one expectation; reason null means accepted.  Each case fails "
        "exactly one check; the checks run in the order of WIRE.md.",
        "expect": {
            "game_id": GAME_ID.hex(),
            "step": step,
            "prev": head.hex(),
            "awaited": [0, 1],
            "public_keys": {str(s): public_bytes(k).hex() for s, k in keys.items()},
        },
        "cases": results,
    }


def build() -> dict[str, Any]:
    return {
        "codec.json": codec_vectors(),
        "envelope.json": envelope_vectors(),
        "frame.json": frame_vectors(),
        "chain.json": chain_vectors(),
        "acceptance.json": acceptance_vectors(),
    }


def dump(obj: Any) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    VECTOR_DIR.mkdir(parents=True, exist_ok=True)
    for name, obj in build().items():
        (VECTOR_DIR / name).write_text(dump(obj), encoding="utf-8")
        print("wrote", VECTOR_DIR / name)


if __name__ == "__main__":
    main()
