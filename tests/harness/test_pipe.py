"""The harness pipe (protocol/HARNESS.md) from both ends: a seat run by another program plays a whole
game, and a program that breaks the pipe's rules is reported, never hangs the harness, and is gone
when the game is."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from p2pcards.harness import pipe_table
from p2pcards.harness.pipe import PipeError, pack, read_output, read_status
from p2pcards.harness.run import run_game

OURS = f"{sys.executable} -m p2pcards peer --stdio"


def _python(code: str) -> str:
    return f"{sys.executable} -c {code!r}"


def test_a_harness_game_with_a_piped_seat_from_the_command_line():
    done = subprocess.run(
        [sys.executable, "-m", "p2pcards", "harness", "durak", "--peers", "3", "--seeds", "1",
         "--dealer", "seeded", "--peer", f"1={OURS}", "--json"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    (game,) = json.loads(done.stdout)["games"]
    assert game["passed"] and game["finished"] and game["agree"] and game["verdicts"] == ["ok"] * 3


def test_every_program_is_gone_when_the_game_is(monkeypatch):
    started: list[pipe_table.PipeProcess] = []
    real = pipe_table.PipeProcess.__init__

    def spy(self, *args, **kwargs):
        real(self, *args, **kwargs)
        started.append(self)

    monkeypatch.setattr(pipe_table.PipeProcess, "__init__", spy)
    report = run_game("durak", peers=3, seed=1, dealer="seeded", fault_spec="crash", crash_seat=0,
                      pipe={0: OURS, 2: OURS}, options={"series_hands": 3})
    assert report.passed, report.problems
    assert report.restarted == [0] and len(started) == 3  # seat 0 twice: killed and started again
    assert all(p.proc.poll() is not None for p in started)


@pytest.mark.parametrize(
    ("program", "said"),
    [
        (_python("import sys; sys.exit(3)"), "the program "),
        (_python("import sys; sys.stdout.buffer.write(b'\\x00\\x00\\x00\\x02ab'); sys.stdout.flush()"),
         "not msgpack"),
        (_python("import sys; sys.stdout.buffer.write(b'\\xff\\xff\\xff\\xff'); sys.stdout.flush()"),
         "announced a record of 4294967295 bytes"),
        (_python("import sys; print('oops', file=sys.stderr); sys.exit(1)"), "its last words: oops"),
    ],
)
def test_a_program_that_breaks_the_pipe_is_reported(program, said):
    report = run_game("durak", peers=2, seed=1, dealer="seeded", pipe={0: program})
    assert not report.passed
    assert any(said in p for p in report.problems), report.problems


@pytest.mark.parametrize(
    ("code", "said"),
    [
        ("import sys; sys.stdout.buffer.write(b'\\x00\\x00\\x00\\x02ab')", "a record is not msgpack"),
        ("import sys; sys.stdout.buffer.write(b'\\xff\\xff\\xff\\xff')", "announced a record of 4294967295"),
        ("import sys; print('oops', file=sys.stderr); sys.exit(1)", "its last words: oops"),
        # Its standard output ends before its standard error says why: both are read to their end.
        ("import os, sys, time; os.close(1); time.sleep(0.3); print('oops', file=sys.stderr)",
         "its last words: oops"),
    ],
)
def test_what_a_program_wrote_before_it_went_is_read_whenever_it_went(code, said):
    # The program has exited before the harness writes its first command: the write finds the pipe
    # broken, and the report is still what the program wrote (not a race between the two pipes).
    process = pipe_table.PipeProcess(_python(code))
    try:
        process.proc.wait(timeout=30)
        with pytest.raises(pipe_table.PeerFailed, match=said):
            process.exchange({"cmd": "report"})
    finally:
        process.kill()


def test_a_program_that_never_answers_is_given_up_on(monkeypatch):
    monkeypatch.setattr(pipe_table, "ANSWER_SECONDS", 0.5)
    report = run_game("durak", peers=2, seed=1, dealer="seeded",
                      pipe={0: _python("import time; time.sleep(60)")})
    assert any("no answer within 0.5 s" in p for p in report.problems), report.problems


def test_a_command_that_does_not_exist_is_reported():
    report = run_game("durak", peers=2, seed=1, dealer="seeded", pipe={0: "/no/such/program --stdio"})
    assert any("cannot start '/no/such/program --stdio'" in p for p in report.problems), report.problems


def test_what_a_program_says_is_checked_field_by_field():
    with pytest.raises(PipeError, match="your_turn's legal is a non-empty list"):
        read_output({"out": "your_turn", "hand": 0, "legal": []})
    with pytest.raises(PipeError, match="a send's payload is bytes"):
        read_output({"out": "send", "payload": "text", "to": None})
    with pytest.raises(PipeError, match="over is true or false"):
        read_status({"step": 1, "head": b"h", "over": 1})
    with pytest.raises(PipeError, match="a verdict's seat is an integer"):
        read_status({"step": 1, "head": b"h", "over": False, "verdicts": [{"seat": True, "kind": "silent"}]})
    assert read_output({"out": "something new"}) is None  # a kind it does not know is ignored


def _peer(stdin: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "p2pcards", "peer", *args], input=stdin,
                          capture_output=True, timeout=60)


def test_our_peer_refuses_a_broken_pipe_with_a_message_and_status_2():
    done = _peer(b"\x00\x00\x00\x03abc", "--stdio")
    assert done.returncode == 2
    assert b"the harness pipe broke its rules: a record is not msgpack" in done.stderr
    assert _peer(pack({"cmd": "tick", "now": 0}), "--stdio").stdout.startswith(b"\x00")  # "before start"


def test_our_peer_needs_stdio():
    done = _peer(b"", )
    assert done.returncode == 2 and b"say --stdio" in done.stderr


def test_a_program_that_babbles_without_end_is_cut_off(monkeypatch):
    monkeypatch.setattr(pipe_table, "MAX_ANSWER_RECORDS", 1000)
    babble = _python(
        "import itertools, sys, msgpack; r = msgpack.packb({'out': 'rejected', 'reason': 'x'}); "
        "f = sys.stdout.buffer; [f.write(len(r).to_bytes(4, 'big') + r) for _ in itertools.count()]"
    )
    report = run_game("durak", peers=2, seed=1, dealer="seeded", pipe={0: babble})
    assert any("an answer of over 1000 records without done" in p for p in report.problems), report.problems


def test_a_program_that_refuses_to_start_fails_the_run_at_once(tmp_path):
    program = tmp_path / "refuses.py"
    program.write_text(
        "import sys, msgpack\n"
        "def say(r):\n"
        "    body = msgpack.packb(r)\n"
        "    sys.stdout.buffer.write(len(body).to_bytes(4, 'big') + body)\n"
        "    sys.stdout.buffer.flush()\n"
        "n = int.from_bytes(sys.stdin.buffer.read(4), 'big')\n"
        "sys.stdin.buffer.read(n)\n"
        "say({'out': 'refused', 'reason': 'not today'})\n"
        "say({'out': 'done', 'status': None})\n"
        "sys.stdin.buffer.read()\n"
    )
    report = run_game("durak", peers=2, seed=1, dealer="seeded", pipe={0: f"{sys.executable} {program}"})
    assert report.problems[0] == "seat 0 (piped) failed: the program refused to start: not today"
    assert report.sim_ms < 1_000  # stopped there, not at the end of the harness's clock
