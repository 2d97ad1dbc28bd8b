"""The session vectors (protocol/vectors/session/) are what the code computes, and what the documents say.

``test_stored_vectors_are_current`` rebuilds every file with the code (python -m tests.protocol.vectors
after an intended change, and review the diff); the other tests recompute, from ``spec.py`` (the
documents' formulas written again), what the files claim.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from p2pcards import games
from p2pcards.table.genesis import Genesis, GenesisError
from tests.protocol import kit, spec
from tests.protocol.vectors import BUILDERS, VECTOR_DIR, dump
from tests.wire.refcodec import ref_encode


def _load(name: str) -> Any:
    return json.loads((VECTOR_DIR / name).read_text(encoding="utf-8"))


def test_the_folder_holds_every_vector_file_and_nothing_else() -> None:
    assert sorted(p.name for p in VECTOR_DIR.iterdir()) == sorted(BUILDERS)


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_stored_vectors_are_current(name: str) -> None:
    assert (VECTOR_DIR / name).read_text(encoding="utf-8") == dump(BUILDERS[name]())


def test_genesis_vectors_from_the_document() -> None:
    v = _load("genesis.json")
    for case in v["valid"]:
        raw = bytes.fromhex(case["genesis"])
        value = case["value"]
        plain = {
            "computers": value["computers"], "dealer": value["dealer"], "game": value["game"],
            "nonce": bytes.fromhex(value["nonce"]), "options": value["options"],
            "seats": [[name, bytes.fromhex(key)] for name, key in value["seats"]], "seed": value["seed"],
            "timeout_ms": value["timeout_ms"],
        }  # fmt: skip
        assert ref_encode(plain) == raw
        assert spec.game_id(raw).hex() == case["game_id"] == Genesis.decode(raw).game_id.hex()
        assert spec.initial_head(spec.game_id(raw)).hex() == case["initial_head"]
    for case in v["refused"]:
        with pytest.raises(GenesisError) as caught:
            Genesis.decode(bytes.fromhex(case["genesis"]))
        if case["exact"]:
            assert str(caught.value) == case["error"], case["why"]
        else:
            # the rule's own words are normative, the decoder's or the engine's after them informative
            assert str(caught.value).split(":")[0] == case["error"].split(":")[0], case["why"]


def test_seeded_vectors_from_the_document() -> None:
    v = _load("seeded.json")
    for stream in v["streams"]:
        seed = stream["seed"]
        rng = spec.SplitMix64(int(seed) if seed.isdigit() else seed)
        assert str(rng.state) == stream["state"]
        assert [str(rng.next64()) for _ in stream["next64"]] == stream["next64"]
    for draw in v["below"]:
        rng = spec.SplitMix64(int(draw["seed"]))
        for value, used in zip(draw["values"], draw["next64_used"], strict=True):
            before = rng.outputs
            assert rng.below(int(draw["bound"])) == value
            assert rng.outputs - before == used
    assert any(used > 1 for d in v["below"] for used in d["next64_used"]), "a draw that rejects"
    for deck in v["decks"]:
        cards = games.load(deck["game"], players=4).deck
        assert spec.seeded_deck(cards, int(deck["seed"]), deck["hand"]) == deck["deck"]
        assert sorted(deck["deck"]) == list(cards)
    for coin in v["coins"]:
        assert [spec.seeded_coin(int(coin["seed"]), i).hex() for i in range(coin["seats"])] == coin["rho"]


def test_start_head_vectors_from_the_document() -> None:
    v = _load("start_heads.json")
    boundary = bytes.fromhex(v["boundary"])
    for case in v["cases"]:
        assert spec.start_head(boundary, case["changes"]).hex() == case["start_head"], case["why"]
        if case["changes"]:
            ordered = sorted(case["changes"], key=spec.change_key)
            value = [[c[0], c[1], c[2], bytes.fromhex(c[3])] if len(c) == 4 else c for c in ordered]
            assert ref_encode(value).hex() == case["encoded"]


def test_seal_vector_from_the_document() -> None:
    r = _load("seals.json")["result"]
    standings = _tuples(r["standings"])
    digest = bytes.fromhex(r["hand_digest"])
    assert spec.canonical((r["hand"], digest, standings, r["over"])).hex() == r["canonical"]
    assert spec.seal_result(r["hand"], digest, standings, r["over"]).hex() == r["result"]
    assert spec.seal_head(bytes.fromhex(r["seal_prev"])).hex() == r["seal_head"]


def _tuples(value: Any) -> Any:
    return tuple(_tuples(x) for x in value) if isinstance(value, list) else value


@pytest.mark.parametrize("name", ["votes.json", "abandon.json", "return.json", "evidence.json", "seals.json",
                                  "catchup.json"])  # fmt: skip
def test_every_refusal_reason_is_one_the_documents_list(name: str) -> None:
    reasons = {"bad vote", "bad abandon", "bad return", "bad evidence", "malformed", "nested"}
    for case in _load(name)["cases"]:
        refused = case["outcome"]["refused"]
        assert refused is None or refused[0] in reasons, case["why"]


def test_table_digest_vectors_from_the_document() -> None:
    v = _load("table_digest.json")
    for game in v["games"]:
        doc = json.loads((kit.KIT_DIR / f"{game['kit']}.json").read_text(encoding="utf-8"))
        setup_head = [e for e in doc["trace"] if e["type"] == "step" and e["hand"] == -1][-1]["head"]
        points = game["points"]
        for p in points:
            cur = p["current"]
            if "setup_head" in cur:
                current = bytes.fromhex(cur["setup_head"])
            else:
                parts = cur["attempt"]
                keys = ("start_head", "head", "hand_digest")
                current = spec.attempt_digest(*(bytes.fromhex(parts[k]) for k in keys))
            boundary = None if p["boundary"] is None else bytes.fromhex(p["boundary"])
            stopped = None if p["stopped"] is None else tuple(p["stopped"])
            out = [tuple(o) for o in p["out"]]
            finals = [bytes.fromhex(f) for f in p["finals"]]
            digest = spec.table_digest(finals, boundary, current, out, p["over"], p["abandoned"], stopped)
            assert digest.hex() == p["digest"], (game["kit"], p["records"])
        # right after step 2: S_0 is the boundary, and the first attempt is being played before any step
        first = next(p for p in points if p["boundary"] is not None)
        assert first["boundary"] == setup_head
        assert first["current"]["attempt"]["start_head"] == first["current"]["attempt"]["head"] == setup_head
        end = points[-1]
        if not end["abandoned"]:  # ended at a seal: the last seal head, the setup head, the last deal's out
            assert end["boundary"] == spec.seal_head(bytes.fromhex(end["finals"][-1])).hex()
            assert end["current"] == {"setup_head": setup_head}
            assert end["out"] == points[-2]["out"]


def test_fault_vectors_name_the_kind_of_spec_5_8() -> None:
    for case in _load("faults.json")["cases"]:
        kinds = [v[1] for v in case["outcome"]["verdicts"]]
        said = [k for k in ("bad-proof", "bad-message") if case["why"].endswith(k)]
        assert kinds == said, case["why"]
        assert all(v[0] == case["from"] for v in case["outcome"]["verdicts"])  # the signer is named
