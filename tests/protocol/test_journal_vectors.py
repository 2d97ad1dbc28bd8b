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
