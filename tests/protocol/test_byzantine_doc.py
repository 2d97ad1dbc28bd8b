"""protocol/BYZANTINE.md describes every hostile seat of the harness, with the outcome it demands."""

import re
from pathlib import Path

from p2pcards.harness.byzantine import ACCIDENTS, BEHAVIOURS, EXPECTED_FAULT, REFUSED

DOC = Path(__file__).resolve().parents[2] / "protocol" / "BYZANTINE.md"


def _rows() -> dict[str, str]:
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        found = re.match(r"\| `([a-z-]+)` \| (.*) \| (.*) \|$", line)
        if found and found.group(1) in BEHAVIOURS:
            rows[found.group(1)] = found.group(3)
    return rows


def test_every_kind_of_the_harness_is_described_once_in_its_order() -> None:
    text = DOC.read_text(encoding="utf-8")
    listed = [k for k in re.findall(r"^\| `([a-z-]+)` \|", text, flags=re.M) if k in BEHAVIOURS]
    assert listed == list(BEHAVIOURS)


def test_each_row_names_the_outcome_the_harness_demands() -> None:
    rows = _rows()
    for kind in BEHAVIOURS:
        outcome = rows[kind]
        for verdict in EXPECTED_FAULT.get(kind, ()):
            assert (f"`convict {verdict}`" if verdict != "silent" else "verdict `silent`") in outcome, kind
        if kind in REFUSED:
            assert "`convict" not in outcome and "nobody" in outcome, kind
        if kind in ACCIDENTS:
            assert outcome.startswith("`accident`"), kind
