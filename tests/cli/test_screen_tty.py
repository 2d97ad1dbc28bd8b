"""Each game, a whole match at a pseudo-terminal of 80x24: every prompt starts a line of its own,
and each turn (the title, the table, the hand, the moves and the prompt) fits on the screen."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

from p2pcards.store.paths import HOME_ENV

ROOT = Path(__file__).resolve().parents[2]
ROWS, COLUMNS = 24, 80
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
PROMPTS = ["Your move: ", r"how many chips \(\d+-\d+; Enter: back\)\? ", "Match over"]


def plain(text: str) -> str:
    """What the terminal shows, line by line: escape sequences gone, a line cleared by \\r kept last."""
    text = ANSI.sub("", text).replace("\r\n", "\n")
    return "\n".join(line.split("\r")[-1] for line in text.split("\n"))


GAMES = [
    ("durak", ["--players", "3"]),
    ("spades", ["-o", "target=60"]),
    ("azi", ["--players", "3", "-o", "bankroll=30", "-o", "deal=4"]),
]


@pytest.mark.parametrize(("game", "extra"), GAMES)
def test_a_whole_match_at_80x24(game: str, extra: list[str], tmp_path: Path) -> None:
    env = dict(os.environ, TERM="dumb", NO_COLOR="1", PYTHONPATH=str(ROOT), COLUMNS=str(COLUMNS),
               LINES=str(ROWS), **{HOME_ENV: str(tmp_path / "home")})
    args = ["-m", "p2pcards", "play", game, *extra, "--level", "easy", "--seed", "6", "--dealer", "seeded"]
    child = pexpect.spawn(sys.executable, args, env=env, encoding="utf-8", timeout=90,
                          dimensions=(ROWS, COLUMNS), cwd=str(ROOT))
    turns = typed_table = 0
    try:
        while True:
            seen = child.expect(PROMPTS)
            shown = plain(child.before)
            if seen == 2:
                break
            last_line = shown.split("\n")[-1]
            assert last_line.strip() == "", f"a prompt shares its line with {last_line!r}"
            if seen == 1:
                child.sendline(re.search(r"\((\d+)-", child.after).group(1))  # type: ignore[union-attr]
                continue
            turns += 1
            block = shown.split("\n")
            titles = [i for i, line in enumerate(block) if " · your turn" in line]
            if titles:
                screen = block[titles[-1]:]
                assert len(screen) + 1 <= ROWS, "\n".join(screen)
                assert all(len(line) <= COLUMNS for line in screen), "\n".join(screen)
                assert "Your hand:" in "\n".join(screen) and "Your moves:" in "\n".join(screen)
            if typed_table == 0 and titles:
                child.sendline("table")
                typed_table += 1
                continue
            moves = re.findall(r"^\s*(\d+) (\S+)", "\n".join(block[titles[-1]:] if titles else block), re.M)
            raise_entry = [n for n, verb in moves if verb in ("raise", "bet")]
            child.sendline(raise_entry[0] if raise_entry and turns % 3 == 0 else "1")
        child.expect(r"p2pcards verify [0-9a-f]{12}")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert turns > 3


@pytest.mark.parametrize("terminal", [True, False])
def test_a_line_arriving_during_a_prompt_gets_a_line_of_its_own(terminal: bool) -> None:
    import io

    from rich.console import Console

    from p2pcards.cli.terminal import Terminal

    sink = io.StringIO()
    term = Terminal(Console(file=sink, width=80, force_terminal=terminal, color_system=None))
    term.prompt("Your move: ")
    term.say("Hana is connected.")  # from the network, while the player has not answered yet
    shown = plain(sink.getvalue()).split("\n")
    expected = ["Hana is connected.", "Your move: "]
    assert shown == (expected if terminal else ["Your move: ", *expected])
    sink.write("1\n")  # the answer, as the terminal echoes it with its Enter
    term.answered()
    term.say("Hana attacks with 7♥")
    assert plain(sink.getvalue()).split("\n")[-3:] == ["Your move: 1", "Hana attacks with 7♥", ""]
