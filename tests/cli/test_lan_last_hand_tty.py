"""A player back with ``resume``: dealt out in the last hand of a match, there is no next hand
to be dealt in at, and no line of the screen offers one (not the question, not the table's line of
whom the game waits for, not ``return``); back at their own turn, their screen does not count down a
move clock that starts afresh while the others' has been running."""

from __future__ import annotations

import sys
from pathlib import Path

import pexpect

from tests.cli.test_lan_screen import env_for
from tests.cli.test_screen_tty import COLUMNS, ROOT, ROWS, plain

WATCH_OR_LEAVE = r"Watch the others play on, or leave\? \[w = watch, l = leave\] "


def spawn(home: Path, *args: str) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-m", "p2pcards", *args], env=env_for(home), encoding="utf-8",
                         timeout=60, dimensions=(ROWS, COLUMNS), cwd=str(ROOT))


def bob_dies_at_his_turn(tmp_path: Path, timeout: str, children: list[pexpect.spawn]) -> pexpect.spawn:
    """Hana hosts a one-hand Durak series with a ``timeout`` move clock; Ann (a computer) and Bob
    join; Bob's laptop dies at his first turn.  Every program started is added to ``children``."""
    host = spawn(tmp_path / "hana", "host", "durak", "--players", "3", "--interface", "127.0.0.1", "--port",
                 "0", "--no-mdns", "--name", "Hana", "--admit", "all", "--auto", "easy", "--timeout", timeout)
    children.append(host)
    host.expect(r"p2pcards join 127\.0\.0\.1:(\d+)")
    port = host.match.group(1)
    joining = ("join", f"127.0.0.1:{port}", "--allow-short-timeout")
    ann = spawn(tmp_path / "ann", *joining, "--name", "Ann", "--auto", "easy")
    children.append(ann)
    host.expect("Ann sits down")
    bob = spawn(tmp_path / "bob", *joining, "--name", "Bob")
    children.append(bob)
    bob.expect("Your move: ")
    bob.kill(9)
    return host


def test_a_player_back_in_the_last_hand_is_offered_no_next_hand(tmp_path: Path) -> None:
    children: list[pexpect.spawn] = []
    try:
        host = bob_dies_at_his_turn(tmp_path, "5", children)  # in the only hand of the series
        host.expect("Bob was voted out in hand 1")
        back = spawn(tmp_path / "bob", "resume")
        children.append(back)
        back.expect(WATCH_OR_LEAVE)
        said = " ".join(plain(back.before).split())
        assert "there is no next hand" in said and "from the next hand" not in said, said
        back.sendline("table")
        back.expect(r"Durak · hand \d+ · ([^\r\n]*)")  # its title says whom the game waits for
        waiting = back.match.group(1)
        assert "return" not in waiting and "play again" not in waiting, waiting
        back.expect(WATCH_OR_LEAVE)
        back.sendline("return")
        assert back.expect([r"there is no next hand to be dealt\s+in at", "You asked to play again"]) == 0
        back.expect(WATCH_OR_LEAVE)
        back.sendline("l")
        back.expect(pexpect.EOF)
    finally:
        for child in children:
            child.close(force=True)


def test_a_player_back_in_the_last_hand_who_watches_sees_it_to_its_end(tmp_path: Path) -> None:
    """Issue 30, blocker 1: `w` used to show nothing (the seat's replica stayed at the hand it was voted
    out of, its turn and all); the match then stayed unfinished in `games` for ever."""
    children: list[pexpect.spawn] = []
    try:
        host = bob_dies_at_his_turn(tmp_path, "5", children)
        host.expect("Bob was voted out in hand 1")
        back = spawn(tmp_path / "bob", "resume")
        children.append(back)
        back.expect(WATCH_OR_LEAVE)
        back.sendline("w")
        back.expect("Match over")
        back.expect(pexpect.EOF)
        said = " ".join(plain(back.before).split())
        assert "Lost the connection" not in said and "Your move" not in said, said
        listing = spawn(tmp_path / "bob", "games")
        children.append(listing)
        listing.expect(pexpect.EOF)
        line = next(row for row in plain(listing.before).split("\n") if "durak" in row.lower())
        assert "finished" in line and "unfinished" not in line, line
    finally:
        for child in children:
            child.close(force=True)


def test_a_player_back_at_their_turn_is_not_shown_a_fresh_move_clock(tmp_path: Path) -> None:
    """The others have waited for Bob's move since before his program was back: his screen does not
    count down a clock of its own that starts afresh (the others' would run out first)."""
    children: list[pexpect.spawn] = []
    try:
        bob_dies_at_his_turn(tmp_path, "20", children)  # and he is back at once
        back = spawn(tmp_path / "bob", "resume")
        children.append(back)
        back.expect("Your move: ")
        back.expect(r"Move now to stay\s+in the hand\.")
        said = " ".join(plain(back.before).split())
        assert "Your move clock: 20 s left" not in said and "since before you were back" in said, said
        back.sendline("quit")
        back.expect(r"\[y/N\] ")
        back.sendline("y")
        back.expect(pexpect.EOF)
    finally:
        for child in children:
            child.close(force=True)
