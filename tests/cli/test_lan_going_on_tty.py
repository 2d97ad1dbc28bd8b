"""A person at the host's terminal (a pseudo-terminal of 80x24) when a player's laptop dies: they are
asked, on a line of its own, whether to go on without that player, with the player's name, how long
they have been silent and how long until the table goes on by itself; the answer goes on, and the
screen says who was removed and why.  Every prompt starts a line of its own, whatever arrives."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pexpect

from tests.cli.test_lan_screen import env_for
from tests.cli.test_screen_tty import COLUMNS, ROOT, ROWS, plain

PROMPTS = [
    "Your move: ",
    r"Go on without Bob\? \[y = go on, n = keep waiting\](?: \(by itself in [^)]*\))? ",
    "Match over",
]


def joiner(home: Path, port: str, name: str, log: Path) -> subprocess.Popen[bytes]:
    args = ["-m", "p2pcards", "join", f"127.0.0.1:{port}", "--name", name, "--auto", "easy",
            "--allow-short-timeout"]
    with open(log, "wb") as sink:
        return subprocess.Popen([sys.executable, *args], env=env_for(home), cwd=ROOT,
                                stdin=subprocess.DEVNULL, stdout=sink, stderr=subprocess.STDOUT)


def test_the_host_is_asked_about_a_silent_player_on_a_line_of_its_own(tmp_path: Path) -> None:
    args = ["-m", "p2pcards", "host", "durak", "--players", "3", "--interface", "127.0.0.1", "--port", "0",
            "--name", "Hana", "--admit", "all", "--timeout", "5"]
    env = {**env_for(tmp_path / "host"), "COLUMNS": str(COLUMNS), "LINES": str(ROWS)}
    child = pexpect.spawn(sys.executable, args, env=env, encoding="utf-8", timeout=60,
                          dimensions=(ROWS, COLUMNS), cwd=str(ROOT))
    others: list[subprocess.Popen[bytes]] = []
    shown: list[str] = []
    asked = 0
    try:
        child.expect(r"p2pcards join 127\.0\.0\.1:(\d+)")
        port = child.match.group(1)
        others.append(joiner(tmp_path / "ann", port, "Ann", tmp_path / "ann.log"))
        child.expect("Ann sits down")
        others.append(joiner(tmp_path / "bob", port, "Bob", tmp_path / "bob.log"))
        while True:
            seen = child.expect(PROMPTS)
            text = plain(child.before)
            shown.append(text + (child.after if seen < 2 else ""))
            if seen == 2:
                break
            last_line = text.split("\n")[-1]
            assert last_line.strip() == "", f"a prompt shares its line with {last_line!r}"
            if seen == 1:
                asked += 1
                assert "Bob has not answered for 5 s." in text
                assert re.search(r"by itself in \d+ s", child.after) or "by itself in" in text
                child.sendline("y")
                continue
            if others[1].poll() is None and "Ann" in text:
                others[1].send_signal(signal.SIGKILL)  # Bob's laptop dies in the middle of the hand
                others[1].wait()
            child.sendline("1")
        child.expect(pexpect.EOF)
    finally:
        child.close()
        for proc in others:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
    screen = "\n".join(shown)
    assert asked == 1
    assert "Going on without them voids this hand" in screen
    assert "Bob was voted out in hand 1: silent past the move clock (5 s) or disconnected" in screen
    assert "is void: nothing of it counts, and it is dealt again without Bob." in screen
    assert "The game stopped" not in screen
    assert child.exitstatus == 0
