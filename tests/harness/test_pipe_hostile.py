"""What a hostile or careless program on the harness pipe cannot do to the harness: print terminal
escapes into its report, take its memory, block it past a stated bound, or leave processes behind."""

from __future__ import annotations

import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from p2pcards.harness.conformance import CASES, run_case, select, to_text

ROGUE = f"{sys.executable} {Path(__file__).with_name('rogue_peer.py')}"


def _printable(text: str) -> bool:
    """Nothing in ``text`` can act on a terminal: no control or format character but the line break."""
    return all(ch == "\n" or unicodedata.category(ch) not in ("Cc", "Cf") for ch in text)


@pytest.mark.parametrize(
    ("mode", "said"),
    [("stderr-escapes", "oops"), ("error-escapes", "answered error: start:"), ("verdict-escapes", "owned")],
)
def test_what_a_program_says_reaches_the_text_report_only_made_safe(mode, said):
    result = run_case(select(CASES, ["1.1.1"])[0], f"{ROGUE} {mode}")
    assert not result.passed
    text = to_text([result], f"{ROGUE} {mode}")
    assert said in text and "owned" in text, text  # its words are shown ...
    assert _printable(text), ascii(text)  # ... and none of them acts on the terminal


@pytest.mark.parametrize("mode", ["stderr-escapes", "verdict-escapes"])
def test_what_a_program_says_reaches_a_harness_games_text_report_only_made_safe(mode):
    done = subprocess.run(
        [sys.executable, "-m", "p2pcards", "harness", "durak", "--peers", "3", "--seeds", "1",
         "--dealer", "seeded", "--peer", f"0={ROGUE} {mode}"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 1, done.stderr
    assert "FAILED seed 1" in done.stdout and "owned" in done.stdout, done.stdout
    assert _printable(done.stdout), ascii(done.stdout)
