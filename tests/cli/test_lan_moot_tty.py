"""A question that became moot, at the host's terminal: a joiner's laptop freezes, the host is asked
whether to go on without it, and then it answers after all.  The screen says so and the question is
gone: it is not written again below that line, nothing but a live question or the move prompt is
asked afterwards, and when the program ends the shell's prompt comes after a line of its own."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pexpect

from tests.cli.test_lan_screen import env_for
from tests.cli.test_screen_tty import COLUMNS, ROOT, ROWS, plain

QUESTION = r"Go on without Bob\? \[y = go on, n = keep waiting\] "


def joiner(home: Path, port: str, name: str, log: Path) -> subprocess.Popen[bytes]:
    args = ["-m", "p2pcards", "join", f"127.0.0.1:{port}", "--name", name, "--auto", "easy",
            "--allow-short-timeout"]
    with open(log, "wb") as sink:
        return subprocess.Popen([sys.executable, *args], env=env_for(home), cwd=ROOT,
                                stdin=subprocess.DEVNULL, stdout=sink, stderr=subprocess.STDOUT)


def test_a_question_that_became_moot_is_not_asked_again(tmp_path: Path) -> None:
    args = ["-m", "p2pcards", "host", "durak", "--players", "3", "--interface", "127.0.0.1", "--port", "0",
            "--no-mdns", "--name", "Hana", "--admit", "all", "--timeout", "5"]
    # a terminal that shows the spinner line (a dumb one does not)
    env = {**env_for(tmp_path / "host"), "TERM": "xterm"}
    child = pexpect.spawn(sys.executable, args, env=env, encoding="utf-8", timeout=60,
                          dimensions=(ROWS, COLUMNS), cwd=str(ROOT))
    others: list[subprocess.Popen[bytes]] = []
    try:
        child.expect(r"p2pcards join 127\.0\.0\.1:(\d+)")
        port = child.match.group(1)
        others.append(joiner(tmp_path / "ann", port, "Ann", tmp_path / "ann.log"))
        child.expect("Ann sits down")
        others.append(joiner(tmp_path / "bob", port, "Bob", tmp_path / "bob.log"))
        child.expect("Your move: ")
        others[1].send_signal(signal.SIGSTOP)  # Bob's laptop freezes: the table soon waits for it
        child.sendline("1")
        waiting = ""
        while child.expect(["Your move: ", QUESTION]) == 0:
            waiting += child.before
            child.sendline("1")
        waiting += child.before
        # the spinner while the table waits for Bob: how long until the host is asked, counted down
        counted = re.findall(r"· (\d+) s \(in (\d+) s you are asked whether to go on without them\)",
                             plain(waiting))
        assert counted, plain(waiting)
        assert all(int(waited) + int(left) in (4, 5, 6) for waited, left in counted), counted
        assert "(after" not in waiting
        others[1].send_signal(signal.SIGCONT)  # ... and Bob's program goes on, and answers
        child.expect("Bob answered after all: no need to decide.")
        # What follows the moot question, up to the next thing the host is asked.  `quit` is typed
        # once: a move prompt asked again below a line that arrived before the program read it is the
        # same prompt, and a second `quit` would answer "Leave the game?".
        after = ""
        typed = False
        while True:
            seen = child.expect(["Your move: ", QUESTION, r"Leave the game\? \[y/N\] ", "Match over"])
            after += child.before + child.after
            if seen != 0:
                break
            if not typed:
                child.sendline("quit")
                typed = True
        assert seen == 2, f"asked again after it became moot:\n{plain(after)}"
        child.sendline("y")
        child.expect(pexpect.EOF)
        rest = plain(child.before)
    finally:
        child.close(force=True)
        for proc in others:
            if proc.poll() is None:
                proc.send_signal(signal.SIGCONT)
                proc.kill()
            proc.wait()
    assert "Go on without Bob" not in plain(after)
    # The program ends on a line of its own: the shell's prompt is not glued to a question.
    assert rest.endswith("\n") and not re.search(r"\[y/n\]|\[y = go on", rest.rstrip("\n").split("\n")[-1])
