"""What a hostile or careless program on the harness pipe cannot do to the harness: print terminal
escapes into its report, take its memory, block it past a stated bound, or leave processes behind."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from p2pcards.harness import pipe_table
from p2pcards.harness.conformance import CASES, run_case, select, to_text
from p2pcards.harness.run import run_game

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


def _problems(mode: str, *args: str) -> list[str]:
    report = run_game("durak", peers=2, seed=1, dealer="seeded", pipe={0: " ".join([ROGUE, mode, *args])})
    assert not report.passed
    return report.problems


def test_a_record_over_the_bound_of_one_record_is_refused_by_its_length_alone():
    problems = _problems("big-answer", "2000000")
    assert any(f"the bound of one record is {pipe_table.MAX_OUTPUT_RECORD}" in p for p in problems), problems


def test_an_answer_over_the_bound_of_one_answer_fails_the_run_naming_the_bound(monkeypatch):
    monkeypatch.setattr(pipe_table, "MAX_ANSWER_BYTES", 1 << 20)
    problems = _problems("big-answer", "200000")  # 16 records of 200 kB in one answer
    assert any("an answer of over 1048576 bytes (the bound of one answer)" in p for p in problems), problems


def test_a_run_over_the_bound_of_one_run_fails_naming_the_bound(monkeypatch):
    monkeypatch.setattr(pipe_table, "MAX_RUN_BYTES", 2 << 20)
    problems = _problems("big-run", "100000")  # 100 kB in every answer
    assert any("over 2097152 bytes written in one run (the bound of a run)" in p for p in problems), problems


def test_a_program_that_never_reads_its_input_is_given_up_on_at_the_deadline(monkeypatch):
    monkeypatch.setattr(pipe_table, "ANSWER_SECONDS", 1)
    problems = _problems("never-reads")
    assert any("the program took no command within 1 s (it does not read its standard input)" in p
               for p in problems), problems


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("then", ["exit", "hang"])
def test_every_process_the_program_started_is_gone_when_its_run_ends(tmp_path, monkeypatch, then):
    monkeypatch.setattr(pipe_table, "ANSWER_SECONDS", 2)
    pid_file = tmp_path / "helpers"
    try:
        _problems("helpers", str(pid_file), then)
        pids = [int(p) for p in pid_file.read_text().split()]
        assert len(pids) == 2
        # One helper in the program's process group, one in a session of its own: both are gone.
        assert [pid for pid in pids if _alive(pid)] == []
    finally:
        for pid in [int(p) for p in pid_file.read_text().split()] if pid_file.exists() else []:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
