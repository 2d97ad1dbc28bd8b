"""Spades with two people (issue 30, item 7): Hana hosts with two computer players, Ann joins from her own
laptop (each in a network namespace).  Ann's laptop dies at her turn; Hana's program goes on without her
by its own word — half the table.  Ann resumes at her terminal: she is told the others went on without
her, the old hand is not shown as her turn, and `return` (her agreement to their word) is her way back:
she is dealt in again from the next hand the players still at the table seal after her request arrives
(she catches up first), and plays it.  At the end, `verify` on both laptops gives the
same status and standings."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pexpect
import pytest

from tests.cli.test_lan_screen import env_for
from tests.cli.test_screen_tty import COLUMNS, ROOT, ROWS, plain
from tests.net.netns import Lan, lan_fixture

MOVE = "Your move: "
TIMEOUT_S = 12
"""The move clock.  Ann's laptop is gone after the connection clock (10 s), and Hana's program goes on
by itself one move clock after asking; a player still connected is never dealt out by nobody's answer."""
BACK = r"Ask to play again\? \[y = ask, n = only watch; `return` asks later\] "


@pytest.fixture
def lan2() -> Iterator[Lan]:
    yield from lan_fixture(2, "half")


def spawn(home: Path, prefix: list[str], *args: str) -> pexpect.spawn:
    argv = [*prefix, sys.executable, "-m", "p2pcards", *args]
    return pexpect.spawn(argv[0], argv[1:], env=env_for(home), encoding="utf-8", timeout=60,
                         dimensions=(ROWS, COLUMNS), cwd=str(ROOT))


class JsonLog:
    """A program whose JSON events go to a file (never a pipe nobody reads: a host that cannot write
    stops playing), and the events seen so far."""

    def __init__(self, argv: list[str], home: Path, log: Path) -> None:
        self.log = log
        with open(log, "wb") as sink:
            self.proc = subprocess.Popen(argv, env=env_for(home), cwd=str(ROOT), stdout=sink,
                                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def until(self, pattern: str, timeout: float = 120) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while True:
            ended = self.proc.poll() is not None
            text = self.log.read_text(errors="replace")
            found = re.search(pattern, text)
            if found is not None:
                return found
            assert not ended and time.monotonic() < deadline, f"no {pattern!r} in: {text[-3000:]}"
            time.sleep(0.2)


def verified(home: Path, game_id: str) -> dict[str, Any]:
    journal = str(home / "games" / game_id / "journal")
    done = subprocess.run([sys.executable, "-m", "p2pcards", "verify", journal, "--json"], env=env_for(home),
                          cwd=str(ROOT), capture_output=True, timeout=120, check=False)
    assert done.returncode in (0, 1), done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_back_after_the_host_went_on_by_its_own_word_ann_returns_and_both_laptops_agree(
    lan2: Lan, tmp_path: Path
) -> None:
    one, two = lan2.hosts
    children: list[pexpect.spawn] = []
    hosts: list[JsonLog] = []
    try:
        # A match long enough that Ann, back, plays a hand or more to its end.
        hosting = ("host", "spades", "-o", "target=300", "-o", "floor=-1000", "--name", "Hana", "--interface",
                   one.address, "--no-mdns", "--admit", "all", "--bots", "easy", "--auto", "easy", "--json",
                   "--wait-for", "1", "--timeout", str(TIMEOUT_S))
        host = JsonLog([*one.command(), sys.executable, "-m", "p2pcards", *hosting], tmp_path / "hana",
                       tmp_path / "hana.log")
        hosts.append(host)
        port = host.until(r'"port": (\d+)').group(1)
        address = f"{one.address}:{port}"
        ann = spawn(tmp_path / "ann", two.command(), "join", address, "--name", "Ann", "--interface",
                    two.address, "--allow-short-timeout")
        children.append(ann)
        game_id = host.until(r'"event": "start".*?"game_id": "([0-9a-f]+)"').group(1)
        for _ in range(3):
            ann.expect(MOVE)
            ann.sendline("1")
        ann.expect(MOVE)
        ann.kill(9)  # Ann's laptop dies at her turn
        ann.close(force=True)
        # Hana's program goes on without her by its own word: Ann's seat is out, an open dummy.
        host.until(r'"event": "seating".*?"why": "unconfirmed"')

        back = spawn(tmp_path / "ann", two.command(), "resume")
        children.append(back)
        back.expect(r"half of the table, went on\s+without you", timeout=60)
        back.expect(BACK)
        said = " ".join(plain(back.before).split())
        assert "Nothing you play at that step counts any more" in said, said
        assert "binds nobody named" not in said, said
        back.sendline("return")
        back.expect(r"dealt\s+in\s+again\s+from\s+hand\s+(\d+)", timeout=180)
        # She plays the hand she is dealt in at, and the match to its end.
        moves = 0
        while back.expect([MOVE, r"Match over"], timeout=120) == 0:
            back.sendline("1")
            moves += 1
        assert moves >= 13, "she played the hands after her return"
        back.expect(pexpect.EOF, timeout=60)
        host.until(r'"event": "match_over"')
        assert host.proc.wait(timeout=60) == 0
    finally:
        for child in children:
            child.close(force=True)
        for h in hosts:
            if h.proc.poll() is None:
                h.proc.kill()
                h.proc.wait()
    hana, ann_verdict = verified(tmp_path / "hana", game_id), verified(tmp_path / "ann", game_id)
    assert hana["status"] == ann_verdict["status"] == "finished", (hana["status"], ann_verdict["status"])
    assert hana["match"] == ann_verdict["match"] and hana["seats_out"] == ann_verdict["seats_out"]
    assert re.fullmatch(r"[0-9a-f]+", game_id)
