"""Azi's "how many chips?" at a terminal, offline and at a table on the network: Enter or ``back``
goes back to the list of moves, a word that is no amount is an error line and the same question
again, and an amount in range is the move."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pexpect
import pytest

from tests.cli.test_lan_screen import env_for
from tests.cli.test_screen_tty import COLUMNS, ROOT, ROWS, plain

AMOUNT = r"(Raise|Bet) how many chips \((\d+)-(\d+)[^)]*\)\? "
MOVE = "Your move: "
COMMANDS = {
    "play": ["play", "azi", "--players", "2", "--level", "easy", "--dealer", "seeded", "--seed", "4"],
    "host": ["host", "azi", "--players", "2", "--interface", "127.0.0.1", "--port", "0", "--no-mdns",
             "--name", "Hana", "--bots", "easy", "--dealer", "seeded"],
}


@pytest.mark.parametrize("where", list(COMMANDS))
def test_the_amount_of_a_raise_has_a_way_back_to_the_moves(where: str, tmp_path: Path) -> None:
    child = pexpect.spawn(sys.executable, ["-m", "p2pcards", *COMMANDS[where]], env=env_for(tmp_path),
                          encoding="utf-8", timeout=60, dimensions=(ROWS, COLUMNS), cwd=str(ROOT))
    try:
        if where == "host":
            child.expect("seat to fill")
            child.sendline("start")
        for _ in range(40):  # turns until one offers a bet or a raise
            child.expect(MOVE)
            moves = re.findall(r"^\s*(\d+) (bet|raise)\b", plain(child.before), re.M)
            if moves:
                break
            child.sendline("1")
        else:
            pytest.fail("no turn offered a bet or a raise")
        number = moves[0][0]
        for back in ("", "back"):
            child.sendline(number)
            child.expect(AMOUNT)
            child.sendline(back)
            assert child.expect([MOVE, AMOUNT]) == 0, f"{back!r} did not go back to the moves"
        child.sendline(number)
        child.expect(AMOUNT)
        low = int(child.match.group(2))
        child.sendline("abc")
        assert child.expect([AMOUNT, MOVE]) == 0, "a word that is no amount left the question"
        assert f"A whole number from {low} to" in plain(child.before)
        child.sendline(str(low))
        child.expect(rf"You (bet|raise) {low}\b")
        child.sendline("quit")
        child.expect(r"\[y/N\] ")
        child.sendline("y")
        if where == "play":
            child.expect(r"\[Y/n\] ")
            child.sendline("n")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
