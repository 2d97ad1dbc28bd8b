"""Builds protocol/vectors/journal/cases.json: how a reader reads a journal (JOURNAL.md) and what
``p2pcards verify`` concludes from it (SPEC §7.5).

Each case starts from a journal of the conformance kit and applies edits, in order, to its bytes; the
reading and the verdict are what the code reaches now.  Regenerate with
``python -m tests.protocol.journal_vectors``; ``test_journal_vectors.py`` checks the stored file against
the code, and the readings against the documents (``spec.scan_journal``).
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any

from p2pcards.cli.common import UsageError
from p2pcards.cli.verify import read_journal, verify
from p2pcards.wire import Envelope, SignedMessage, initial_head, sign
from tests.protocol import kit

VECTOR_DIR = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "journal"
BASE = "azi-seeded"
Edit = dict[str, Any]


def record(payload: bytes) -> bytes:
    return len(payload).to_bytes(4, "big") + payload + zlib.crc32(payload).to_bytes(4, "big")


def offsets(data: bytes) -> list[int]:
    """The offset of every record of a sound journal (the game record is record 0)."""
    found, k = [], 5
    while k < len(data):
        found.append(k)
        k += 8 + int.from_bytes(data[k : k + 4], "big")
    return found


def apply(data: bytes, edits: list[Edit]) -> bytes:
    """The edits of a case, as the file documents them."""
    for e in edits:
        at = offsets(data)
        if "cut" in e:
            data = data[: e["cut"]]
        elif "append" in e:
            data += bytes.fromhex(e["append"])
        elif "zeros" in e:
            data += bytes(e["zeros"])
        elif "xor" in e:
            k = e["xor"]
            data = data[:k] + bytes([data[k] ^ e["mask"]]) + data[k + 1 :]
        elif "remove_record" in e:
            i = e["remove_record"]
            ends = [*at, len(data)]
            data = data[: ends[i]] + data[ends[i + 1] :]
        elif "insert_record" in e:
            k = [*at, len(data)][e["insert_record"]]
            data = data[:k] + record(bytes.fromhex(e["payload"])) + data[k:]
        else:
            raise ValueError(f"unknown edit {e}")
    return data


def outcome(data: bytes, tmp: Path) -> dict[str, Any]:
    """What our reader finds in ``data`` and what ``p2pcards verify`` concludes."""
    tmp.write_bytes(data)
    try:
        scan, damaged = read_journal(tmp)
    except UsageError as exc:
        return {"refused": str(exc).removeprefix(f"{tmp}: "), "exit": 2}
    reading: dict[str, Any] = {"messages": len(scan.payloads),
                               "torn": None if scan.torn is None else [scan.torn.offset, scan.torn.size],
                               "damage": None}  # fmt: skip
    if damaged:
        reading["damage"] = int(damaged.split("offset ")[1].split(":")[0])
    try:
        report = verify(tmp, scan, damaged=damaged)
    except UsageError as exc:
        return {**reading, "refused": str(exc).removeprefix(f"{tmp}: "), "exit": 2}
    refused: dict[str, int] = {}
    for r in report.refused:
        refused[r.reason] = refused.get(r.reason, 0) + 1
    return {**reading, "status": report.status, "refused_records": dict(sorted(refused.items())),
            "after_a_gap": report.unplaced, "exit": report.exit_status}  # fmt: skip


def cases() -> list[tuple[str, list[Edit]]]:
    doc, genesis, payloads = kit.load(BASE)
    data = (kit.KIT_DIR / doc["journal"]).read_bytes()
    at = offsets(data)
    last, size = at[-1], len(data)
    key = kit.identities_of(kit.scenario(BASE))[1]
    request = sign(Envelope(game_id=genesis.game_id, step=0, seat=1, prev=initial_head(genesis.game_id),
                            kind="catchup_request", body={"after": -1}), key).data  # fmt: skip
    answer = sign(Envelope(game_id=genesis.game_id, step=0, seat=1, prev=initial_head(genesis.game_id),
                           kind="catchup_response", body={"msgs": [payloads[20]]}), key).data  # fmt: skip
    assert SignedMessage.from_bytes(request).kind == "catchup_request"
    tail = record(b"an intact record")
    return [
        ("the kit journal as it is", []),
        ("the game record removed: refused as a whole", [{"remove_record": 0}]),
        ("the header alone", [{"cut": 5}]),
        ("the header and the game record: no genesis", [{"cut": at[1]}]),
        ("cut in the middle of the last record: a torn tail", [{"cut": last + 11}]),
        ("cut inside the last record's length", [{"cut": last + 2}]),
        ("the last record's CRC does not match: a torn tail", [{"xor": size - 1, "mask": 1}]),
        ("4096 zeros after the last record: a torn tail", [{"zeros": 4096}]),
        ("a bad CRC in the middle: damage at that record", [{"xor": at[10] + 20, "mask": 0x40}]),
        ("a length that swallows the records after it: damage", [{"xor": at[len(at) - 3] + 2, "mask": 0x01}]),
        ("garbage, then an intact record two bytes in (not where a record would start): damage",
         [{"append": "ffff" + tail.hex()}]),
        ("garbage that no intact record follows: a torn tail", [{"append": "0000ff" + tail.hex()[:-2]}]),
        ("more than one record's worth of bytes after a bad length: damage",
         [{"append": "00000000" + "ab" * (1_048_576 + 8)}]),
        ("a catchup_request of seat 1 journaled after record 20: refused as a record, the rest verifies",
         [{"insert_record": 21, "payload": request.hex()}]),
        ("a catchup_response journaled: refused, its messages not taken",
         [{"cut": at[15]}, {"insert_record": 15, "payload": answer.hex()}]),
        ("a setup record missing, the journal cut in the first hand: a gap",
         [{"cut": at[16]}, {"remove_record": 4}]),
        ("cut in the first hand: unfinished, a clean cut", [{"cut": at[16]}]),
    ]  # fmt: skip


def build(tmp: Path) -> dict[str, Any]:
    doc, _, _ = kit.load(BASE)
    data = (kit.KIT_DIR / doc["journal"]).read_bytes()
    built = []
    for why, edits in cases():
        built.append({"why": why, "edits": edits, "size": len(apply(data, edits)),
                      **outcome(apply(data, edits), tmp)})  # fmt: skip
    return {
        "description": "Journals (JOURNAL.md) made from the kit journal named by base by applying edits "
        "in order to its bytes, each with what a reader finds and what p2pcards verify concludes (SPEC "
        "§7.5). Edits: cut (keep the first N bytes), append (hex bytes), zeros (append N zero bytes), xor "
        "(the byte at that offset with mask), remove_record (the i-th record, 0 the game record: its "
        "length, payload and CRC), insert_record (a record of payload, with its length and CRC, before "
        "the i-th record; i = the count of records appends it). Record offsets are taken afresh before "
        "each edit. messages: the records read before the first bad one, the game record apart; torn: "
        "[offset, size] of a torn tail; damage: the offset of the bad record an intact one follows; "
        "refused: a journal refused as a whole (exit 2, the words after the file name); exit: the exit "
        "status of p2pcards verify; status: what it says of the match; refused_records: the reasons of "
        "the records it refused; after_a_gap: the records that fit no step the log reaches.",
        "base": f"{BASE}.journal",
        "cases": built,
    }


def dump(obj: Any) -> str:
    return json.dumps(obj, indent=1, ensure_ascii=False) + "\n"


def main() -> None:
    import tempfile

    VECTOR_DIR.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        text = dump(build(Path(tmp) / "journal"))
    (VECTOR_DIR / "cases.json").write_text(text, encoding="utf-8")
    print("wrote", VECTOR_DIR / "cases.json")


if __name__ == "__main__":
    main()
