"""Leaving for good, at terminals: a player who types ``quit`` is told what leaving does (the others
are told and may go on without them; ``resume`` brings them back), and every other screen says that
the player left, not that a connection was lost as after a crash."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pexpect

from tests.cli.test_lan_screen import env_for
from tests.cli.test_screen_tty import COLUMNS, ROOT, ROWS, plain


def test_a_player_who_quits_is_said_to_have_left_on_every_screen(tmp_path: Path) -> None:
    args = ["-m", "p2pcards", "host", "durak", "--players", "3", "--interface", "127.0.0.1", "--port", "0",
            "--no-mdns", "--name", "Hana", "--admit", "all", "--auto", "easy"]
    host = pexpect.spawn(sys.executable, args, env=env_for(tmp_path / "hana"), encoding="utf-8", timeout=60,
                         dimensions=(ROWS, COLUMNS), cwd=str(ROOT))
    ann: pexpect.spawn | None = None
    bob: subprocess.Popen[bytes] | None = None
    try:
        host.expect(r"p2pcards join 127\.0\.0\.1:(\d+)")
        port = host.match.group(1)
        ann = pexpect.spawn(sys.executable, ["-m", "p2pcards", "join", f"127.0.0.1:{port}", "--name", "Ann"],
                            env=env_for(tmp_path / "ann"), encoding="utf-8", timeout=60,
                            dimensions=(ROWS, COLUMNS), cwd=str(ROOT))
        host.expect("Ann sits down")
        with open(tmp_path / "bob.log", "wb") as sink:
            bob = subprocess.Popen([sys.executable, "-m", "p2pcards", "join", f"127.0.0.1:{port}", "--name",
                                    "Bob", "--auto", "easy"], env=env_for(tmp_path / "bob"), cwd=ROOT,
                                   stdin=subprocess.DEVNULL, stdout=sink, stderr=subprocess.STDOUT)
        ann.expect("Your move: ")  # the hand is being played: whoever leaves now is missed
        ann.sendline("quit")
        ann.expect(r"Leave the game\? \[y/N\] ")
        asked = " ".join(plain(ann.before).split())
        assert "the others are told that you left, and they may go on without you" in asked, asked
        assert "the others wait for you" not in asked
        ann.sendline("y")
        ann.expect(pexpect.EOF)
        left = " ".join(plain(ann.before).split())
        assert "You left the table. The others were told that you left." in left, left
        assert "resume" in left

        host.expect(r"Ann left the game \(quit\)\. When the game waits for Ann, ")
        assert "Lost the connection to Ann" not in plain(host.before)
    finally:
        host.close(force=True)
        if ann is not None:
            ann.close(force=True)
        if bob is not None:
            bob.kill()
            bob.wait()
    assert bob is not None
    seen = (tmp_path / "bob.log").read_text()
    assert "Ann left the game (quit)" in " ".join(seen.split()), seen
    assert "Lost the connection to Ann" not in seen
