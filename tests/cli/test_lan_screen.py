"""The host at a terminal (a pseudo-terminal): a known name arriving with another key is flagged
loudly and refused, the next player is admitted, and the host plays the hand by typing."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect

from p2pcards.store import Peers
from p2pcards.store.identity import load
from p2pcards.store.paths import HOME_ENV
from p2pcards.wire import fingerprint, key_from_seed, public_bytes

ROOT = Path(__file__).resolve().parents[2]
SUIT_LETTERS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
MOVE_LINE = re.compile(r"^\s*(\d+) (\S+(?: \S+)?)", re.MULTILINE)


def env_for(home: Path) -> dict[str, str]:
    env = dict(os.environ, TERM="dumb", NO_COLOR="1", PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    env[HOME_ENV] = str(home)
    env.pop("XDG_DATA_HOME", None)
    return env


def joiner(home: Path, port: str, name: str, log: Path) -> subprocess.Popen[bytes]:
    args = ["-m", "p2pcards", "join", f"127.0.0.1:{port}", "--name", name, "--auto", "easy",
            "--allow-short-timeout"]
    with open(log, "wb") as sink:
        return subprocess.Popen([sys.executable, *args], env=env_for(home), cwd=ROOT,
                                stdin=subprocess.DEVNULL, stdout=sink, stderr=subprocess.STDOUT)


def test_the_host_admits_by_fingerprint_and_plays_at_the_keyboard(tmp_path: Path) -> None:
    host_home = tmp_path / "host"
    Peers(host_home).remember("Ann", public_bytes(key_from_seed(b"\x01" * 32)))  # Ann, as once met
    args = ["-m", "p2pcards", "host", "durak", "--players", "2", "--interface", "127.0.0.1", "--port", "0",
            "--name", "Hana"]
    child = pexpect.spawn(sys.executable, args, env=env_for(host_home), encoding="utf-8", timeout=30,
                          dimensions=(50, 110), cwd=str(ROOT))
    others: list[subprocess.Popen[bytes]] = []
    try:
        child.expect(r"p2pcards join 127\.0\.0\.1:(\d+)")
        port = child.match.group(1)
        child.expect("1 seat to fill")
        # Somebody calling themselves Ann, with a key that is not Ann's.
        others.append(joiner(tmp_path / "not-ann", port, "Ann", tmp_path / "ann.log"))
        child.expect("WARNING: 'Ann' arrives with a DIFFERENT KEY than before")
        child.expect(r"Admit Ann \(([A-Z2-7-]{19})\)\? \[y/n\] ")
        child.sendline("n")
        child.expect("Ann was refused")
        assert others[0].wait(20) == 1
        assert "not admitted" in (tmp_path / "ann.log").read_text()

        others.append(joiner(tmp_path / "bob", port, "Bob", tmp_path / "bob.log"))
        child.expect(r"#2 Bob asks to sit at your table\s+key ([A-Z2-7-]{19})\s+\(new")
        child.expect(r"Admit Bob .*\[y/n\] ")
        child.sendline("y")
        child.expect("Bob sits down")
        child.expect("Durak — 2 players, on the local network")
        typed_card = False
        moves = 0
        while True:
            if child.expect(["Your move: ", "Hand 1 over"]) == 1:
                break
            screen = child.before
            assert "Your hand:" in screen and "Your moves:" in screen
            listed = MOVE_LINE.findall(screen.split("Your moves:")[-1])
            attacks = [text for _, text in listed if text.startswith(("attack ", "add "))]
            if attacks and not typed_card:
                card = attacks[-1].split()[1]
                child.sendline(card[:-1] + SUIT_LETTERS[card[-1]])  # a card as letters: 7h
                child.expect(re.escape(card))
                typed_card = True
            else:
                child.sendline("1")
            moves += 1
        child.expect("deck verified: every seat shuffled with a valid proof; no renege")
        child.expect("Match over")
        child.expect("p2pcards verify [0-9a-f]{12}")
        child.expect(pexpect.EOF)
        others[1].wait(60)  # Bob's program ends by itself too, maybe a moment after the host's
    finally:
        child.close(force=True)
        for proc in others:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
    assert child.exitstatus == 0
    assert others[1].returncode == 0, (tmp_path / "bob.log").read_text()
    assert moves > 0
    # Trust on first use: Bob is remembered now; Ann's old key was kept, not replaced.
    known = Peers(host_home).all()
    assert set(known) == {"Ann", "Bob"} and known["Ann"] == public_bytes(key_from_seed(b"\x01" * 32))


PROMPT = re.compile(r"Admit (\S+) \(([A-Z2-7-]{19})\)\? \[y/n\] ")


def test_in_the_lobby_no_prompt_shares_a_line_and_a_changed_key_shows_each_fingerprint_whole(
    tmp_path: Path,
) -> None:
    """80x24, as most terminals open: Jun's request arrives while the host is asked about Ivan."""
    host_home = tmp_path / "host"
    before = key_from_seed(b"\x07" * 32)
    Peers(host_home).remember("Ivan", public_bytes(before))  # an Ivan met before, with another key
    args = ["-m", "p2pcards", "host", "durak", "--players", "3", "--interface", "127.0.0.1", "--port", "0",
            "--name", "Hana"]
    log = io.StringIO()
    child = pexpect.spawn(sys.executable, args, env=env_for(host_home), encoding="utf-8", timeout=30,
                          dimensions=(24, 80), cwd=str(ROOT))
    child.logfile_read = log
    others: list[subprocess.Popen[bytes]] = []
    try:
        child.expect(r"p2pcards join 127\.0\.0\.1:(\d+)")
        port = child.match.group(1)
        child.expect("2 seats to fill")
        others.append(joiner(tmp_path / "ivan", port, "Ivan", tmp_path / "ivan.log"))
        child.expect(PROMPT)
        assert child.match.group(1) == "Ivan"
        others.append(joiner(tmp_path / "jun", port, "Jun", tmp_path / "jun.log"))
        child.expect("#2 Jun asks to sit at your table")
        child.expect(PROMPT)  # asked again, below Jun's request
        assert child.match.group(1) == "Ivan"
        child.sendline("n")
        child.expect("Ivan was refused")
        child.expect(PROMPT)
        assert child.match.group(1) == "Jun"
        child.sendline("quit")
        child.expect(r"Close the table\? \[y/N\] ")
        child.sendline("y")
        child.expect("The table is closed")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
        for proc in others:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
    # A prompt a line interrupts is cleared from its line (a carriage return and an erase-line)
    screen = log.getvalue().replace("\x1b[2K", "")
    lines = [line.rstrip() for line in screen.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    asked = [line for line in lines if "[y/n]" in line]
    assert len(asked) >= 3
    for line in asked:  # a prompt alone on its line, with at most the answer typed after it
        assert re.fullmatch(r"Admit \S+ \([A-Z2-7-]{19}\)\? \[y/n\]( (y|n|quit))?", line), line
    assert any(line.startswith("#2 Jun asks") for line in lines)
    # The warning about Ivan's key: each fingerprint whole, on a line of its own.
    ivan = fingerprint(load(tmp_path / "ivan" / "identity.key"))
    keys = [line.split()[-1] for line in lines if line.strip().startswith(("key now:", "key before:"))]
    assert keys == [ivan, fingerprint(before)]
