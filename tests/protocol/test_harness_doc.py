"""protocol/HARNESS.md lists every conformance case as the harness plays it, and names every command
and output of the pipe that the two ends speak."""

import re
from pathlib import Path

from p2pcards.harness import pipe
from p2pcards.harness.conformance import CASES, _setup_line
from p2pcards.table import outputs as out

DOC = Path(__file__).resolve().parents[2] / "protocol" / "HARNESS.md"


def test_every_case_is_listed_in_order_with_its_set_up_and_what_it_demands() -> None:
    row = r"^\| (\d+\.\d+\.\d+) \| (.*) \| (.*) \| (.*) \|$"
    rows = re.findall(row, DOC.read_text(encoding="utf-8"), re.M)
    assert rows == [(c.id, c.title, _setup_line(c), c.must) for c in CASES]


def test_every_output_our_peer_writes_is_specified() -> None:
    text = DOC.read_text(encoding="utf-8")
    specified = set(re.findall(r"^\| `([a-z_]+)` \|", text, re.M))
    samples: list[out.Output] = [
        out.Send(b"", None), out.Persist(b""), out.KeepSecret("master", b""), out.Rejected(1, "r"),
        out.Sealed(0, ()), out.HandVoid(0, ()), out.Seating(0, (), (), ()), out.MatchOver(""),
        out.VotesContradicted(0, (), ()), out.Fault(1, 0, "silent", ""),
    ]
    written = {(pipe.output_record(o) or {}).get("out") for o in samples}
    assert written | {"your_turn", "hand_over", "close", "refused", "error", "report", "done"} <= specified
    assert {"start", "frame", "tick", "act", "return", "report", "stop"} <= specified
