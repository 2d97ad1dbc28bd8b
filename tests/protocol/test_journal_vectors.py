"""protocol/vectors/journal/: what a reader finds in a journal and what ``p2pcards verify`` concludes.

The stored file is what the code computes now (``python -m tests.protocol.journal_vectors`` after an
intended change, and review the diff); every reading is also found again by ``spec.scan_journal``,
JOURNAL.md §1 and §3 written again without the store's shortcuts.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from p2pcards.store import JournalCorrupt
from p2pcards.store import journal as jf
from tests.protocol import journal_vectors, kit, spec

STORED: dict[str, Any] = json.loads((journal_vectors.VECTOR_DIR / "cases.json").read_text(encoding="utf-8"))


def test_the_stored_cases_are_what_the_code_concludes(tmp_path: Path) -> None:
    assert sorted(p.name for p in journal_vectors.VECTOR_DIR.iterdir()) == ["cases.json"]
    built = journal_vectors.build(tmp_path / "journal")
    assert journal_vectors.dump(built) == journal_vectors.dump(STORED)


@pytest.mark.parametrize("case", STORED["cases"], ids=[c["why"] for c in STORED["cases"]])
def test_the_document_reads_each_journal_the_same_way(case: dict[str, Any]) -> None:
    data = journal_vectors.apply((kit.KIT_DIR / STORED["base"]).read_bytes(), case["edits"])
    assert len(data) == case["size"]
    found = spec.scan_journal(data)
    records = found["records"]
    named = bool(records) and records[0].startswith(spec.GAME_RECORD_TAG) and len(records[0]) == 54
    if not named:
        assert case["exit"] == 2 and "refused" in case and "messages" not in case
        return
    assert len(records) - 1 == case["messages"]
    assert found["torn"] == (None if case["torn"] is None else tuple(case["torn"]))
    assert found["damage"] == case["damage"]
    if "refused" in case:  # no usable genesis
        assert case["exit"] == 2
        return
    # SPEC §7.5: exit 1 exactly when the journal is not a true and whole record
    failed = found["damage"] is not None or case["refused_records"] or case["after_a_gap"]
    assert (case["exit"] == 1) == bool(failed or case["status"] in ("truncated", "stopped"))


@settings(max_examples=300, deadline=None)
@given(
    records=st.lists(st.binary(min_size=1, max_size=40), min_size=1, max_size=6),
    cut=st.integers(min_value=0, max_value=400),
    flips=st.lists(st.tuples(st.integers(min_value=0, max_value=400), st.integers(1, 255)), max_size=3),
    junk=st.binary(max_size=12),
    hidden=st.one_of(st.none(), st.binary(min_size=1, max_size=20)),
    zeros=st.integers(min_value=0, max_value=20),
)
def test_the_store_reads_any_damaged_journal_as_the_document_says(
    records: list[bytes],
    cut: int,
    flips: list[tuple[int, int]],
    junk: bytes,
    hidden: bytes | None,
    zeros: int,
) -> None:
    # after the (possibly cut or flipped) records: junk, maybe an intact record at any offset, zeros
    tail = junk + (b"" if hidden is None else jf.encode_record(hidden)) + bytes(zeros)
    data = bytearray(jf.HEADER + b"".join(jf.encode_record(r) for r in records))
    for at, mask in flips:
        if len(jf.HEADER) <= at < len(data):
            data[at] ^= mask
    data = data[: max(len(jf.HEADER), len(data) - cut % (len(data) - len(jf.HEADER) + 1))] + tail
    found = spec.scan_journal(bytes(data))
    try:
        scan = jf.parse(bytes(data))
    except JournalCorrupt as exc:
        event("damage")
        assert found["damage"] == exc.offset
        return
    event("torn" if scan.torn else "sound")
    assert found["damage"] is None
    assert found["torn"] == (None if scan.torn is None else (scan.torn.offset, scan.torn.size))
    assert found["records"] == ([jf.GAME_TAG + scan.game_id] if scan.game_id else []) + scan.payloads
