"""The conformance kit (protocol/vectors/kit/): every stored game is what the code derives from it.

For each recorded game the journal is read as JOURNAL.md says (not with the store's reader), and an
observer replica derives the trace again from it, which must equal the stored trace entry by entry:
a change to the code that another implementation would notice fails here.  The heads, seal heads and
start heads of the trace are then recomputed from the documents (``spec.py``), and ``p2pcards verify``
must accept the journal.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import pytest

from p2pcards.cli.verify import verify
from p2pcards.store import journal as journal_file
from p2pcards.table.genesis import Genesis
from p2pcards.wire import CERTIFICATE_KINDS, Envelope, SignedMessage, key_from_seed, public_bytes, sign
from tests.protocol import kit, spec

NAMES = [s.name for s in kit.SCENARIOS]


def test_the_kit_holds_every_scenario_and_nothing_else() -> None:
    stored = sorted(p.name for p in kit.KIT_DIR.iterdir())
    assert stored == sorted([f"{n}.json" for n in NAMES] + [f"{n}.journal" for n in NAMES])


@pytest.fixture(scope="module", params=NAMES)
def recorded(request: pytest.FixtureRequest) -> tuple[kit.Scenario, dict[str, Any], Genesis, list[bytes]]:
    s = kit.scenario(request.param)
    doc = json.loads((kit.KIT_DIR / f"{s.name}.json").read_text(encoding="utf-8"))
    data = (kit.KIT_DIR / doc["journal"]).read_bytes()
    game_id, payloads = spec.read_journal(data)
    genesis_bytes = bytes.fromhex(doc["genesis"])
    assert game_id == spec.game_id(genesis_bytes) == bytes.fromhex(doc["game_id"])
    return s, doc, Genesis.decode(genesis_bytes), payloads


def test_the_code_derives_exactly_the_stored_trace(
    recorded: tuple[kit.Scenario, dict[str, Any], Genesis, list[bytes]],
) -> None:
    # If this fails after an intended change to the protocol: python -m tests.protocol.kit, review the diff.
    s, _, genesis, payloads = recorded
    rebuilt = kit.describe(s, genesis, payloads, kit.trace(genesis, payloads))
    assert kit.dump(rebuilt) == (kit.KIT_DIR / f"{s.name}.json").read_text(encoding="utf-8")


def test_heads_and_start_heads_follow_the_documents(
    recorded: tuple[kit.Scenario, dict[str, Any], Genesis, list[bytes]],
) -> None:
    _, doc, genesis, payloads = recorded
    by_step: dict[tuple[int, str], dict[int, SignedMessage]] = defaultdict(dict)
    for payload in payloads:
        msg = SignedMessage.from_bytes(payload)
        if msg.kind not in CERTIFICATE_KINDS:
            by_step[(msg.step, msg.prev.hex())][msg.seat] = msg
    setup_head = ""
    seal_heads: dict[int, str] = {}
    last: dict[int, str] = {}
    """Per attempt, the head its next step follows."""
    head = spec.initial_head(genesis.game_id).hex()
    for entry in doc["trace"]:
        kind = entry["type"]
        if kind == "step":
            msgs = by_step[(entry["step"], entry["prev"])]
            hashes = [spec.message_hash(msgs[seat].raw) for seat in entry["seats"]]
            assert entry["seats"] == sorted(entry["seats"]) and set(entry["seats"]) == set(entry["awaited"])
            assert entry["head"] == spec.step_head(bytes.fromhex(entry["prev"]), hashes).hex()
            if entry["hand"] == -1:
                assert entry["prev"] == head
                head = setup_head = entry["head"]
            else:
                assert entry["prev"] == last[entry["attempt"]]
                last[entry["attempt"]] = entry["head"]
        elif kind == "seal":
            assert entry["prev"] == last[entry["attempt"]]
            assert entry["head"] == spec.seal_head(bytes.fromhex(entry["prev"])).hex()
            seal_heads[entry["hand"]] = entry["head"]
            standings = _tuples(entry["standings"])
            digest = bytes.fromhex(entry["hand_digest"])
            result = spec.seal_result(entry["hand"], digest, standings, entry["over"])
            assert entry["result"] == result.hex()
        elif kind == "attempt":
            boundary = setup_head if entry["hand"] == 0 else seal_heads[entry["hand"] - 1]
            assert entry["boundary"] == boundary
            assert entry["start_head"] == spec.start_head(bytes.fromhex(boundary), entry["changes"]).hex()
            last[entry["attempt"]] = entry["start_head"]


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def test_verify_accepts_every_kit_journal(
    recorded: tuple[kit.Scenario, dict[str, Any], Genesis, list[bytes]],
) -> None:
    _, doc, _, _ = recorded
    path = kit.KIT_DIR / doc["journal"]
    report = verify(path, journal_file.read(path))
    expected = "abandoned" if doc["abandoned"] else "finished"
    assert report.status == expected
    assert report.refused == [] and report.unplaced == 0 and not report.damaged
    named = sorted({v.seat for v in report.verdicts})
    assert named == sorted(int(seat) for seat in doc["byzantine"])


def test_every_seats_signing_key_is_published(
    recorded: tuple[kit.Scenario, dict[str, Any], Genesis, list[bytes]],
) -> None:
    # So that hostile messages of any seat can be built against the kit, a cheater's included.
    _, doc, genesis, payloads = recorded
    assert [k["seat"] for k in doc["keys"]] == list(range(len(genesis.seats)))
    signed_again = 0
    for entry in doc["keys"]:
        key = key_from_seed(bytes.fromhex(entry["seed"]))
        assert public_bytes(key).hex() == entry["public"] == genesis.seats[entry["seat"]].key.hex()
        for payload in payloads:
            msg = SignedMessage.from_bytes(payload)
            if msg.seat == entry["seat"] and msg.kind == "genesis":
                env = Envelope(game_id=msg.game_id, step=0, seat=msg.seat, prev=msg.prev, kind="genesis",
                               body=msg.body)
                assert sign(env, key).data == payload  # Ed25519 signs deterministically
                signed_again += 1
    assert signed_again == len(genesis.seats)
