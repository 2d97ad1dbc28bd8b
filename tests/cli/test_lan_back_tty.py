"""A player back while the others are asked about them (issue 30, blocker 2): Bob's laptop dies at his
turn, Ann (a person at her terminal) is asked whether to go on without him, and Bob comes back with
``resume`` before anyone answers.  Ann's screen says he is connected again instead of counting down,
the table does not go on without him at the question's deadline, and his move makes the question moot;
his own screen counts down no fresh move clock."""

from __future__ import annotations

import sys
from pathlib import Path

import pexpect

from tests.cli.test_lan_screen import env_for
from tests.cli.test_screen_tty import COLUMNS, ROOT, ROWS, plain

QUESTION = r"Go on without Bob\? \[y = go on, n = keep waiting\] "
TIMEOUT_S = 12
"""The move clock: longer than the connection clock (10 s), so Ann is asked because Bob's laptop went
quiet, and the question's deadline is 12 s after that."""


def spawn(home: Path, *args: str) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-m", "p2pcards", *args], env=env_for(home), encoding="utf-8",
                         timeout=60, dimensions=(ROWS, COLUMNS), cwd=str(ROOT))


def test_a_player_back_while_the_others_are_asked_is_not_dealt_out_by_nobodys_answer(tmp_path: Path) -> None:
    children: list[pexpect.spawn] = []
    try:
        host = spawn(tmp_path / "hana", "host", "durak", "--players", "3", "--interface", "127.0.0.1",
                     "--port", "0", "--no-mdns", "--name", "Hana", "--admit", "all", "--auto", "easy",
                     "--timeout", str(TIMEOUT_S))
        children.append(host)
        host.expect(r"p2pcards join 127\.0\.0\.1:(\d+)")
        joining = ("join", f"127.0.0.1:{host.match.group(1)}", "--allow-short-timeout")
        ann = spawn(tmp_path / "ann", *joining, "--name", "Ann")
        children.append(ann)
        host.expect("Ann sits down")
        bob = spawn(tmp_path / "bob", *joining, "--name", "Bob")
        children.append(bob)
        while bob.isalive():
            if ann.expect(["Your move: ", pexpect.TIMEOUT], timeout=0.3) == 0:
                ann.sendline("1")
            if bob.expect(["Your move: ", pexpect.TIMEOUT], timeout=0.3) == 0:
                bob.kill(9)  # Bob's laptop dies at his turn
                bob.close(force=True)
        while ann.expect([QUESTION, "Your move: "], timeout=40) == 1:
            ann.sendline("1")  # a turn Ann has while the game also waits for Bob (Durak's throw-ins)
        back = spawn(tmp_path / "bob", "resume")
        children.append(back)
        ann.expect(r"Bob is connected again: the table no\s+longer goes on without Bob by itself",
                   timeout=40)
        back.expect("Your move: ")
        # Past the question's deadline (12 s after it was asked), nobody having answered:
        assert ann.expect([r"Bob was voted out", pexpect.TIMEOUT], timeout=TIMEOUT_S + 4) == 1
        said = " ".join(plain(ann.before).split())
        assert "by itself in" not in said, said
        back.sendline("1")
        ann.expect(r"Bob answered after all")
        bob_said = " ".join(plain(back.before).split())
        assert "Your move clock:" not in bob_said, bob_said
        for child in (ann, back):
            child.sendline("quit")
            child.expect(r"\[y/N\] ")
            child.sendline("y")
            child.expect(pexpect.EOF)
    finally:
        for child in children:
            child.close(force=True)
