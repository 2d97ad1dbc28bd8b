"""Azi at a terminal: the player each "takes the trick" line names is the one the hand's result
credits with that trick, the last trick of a hand included (it is the one nobody leads after)."""

from __future__ import annotations

import os
import re
import sys
from collections import Counter
from pathlib import Path

import pexpect

from p2pcards.store.paths import HOME_ENV
from tests.cli.test_screen_tty import plain

ROOT = Path(__file__).resolve().parents[2]
TAKES = re.compile(r"(\w+) takes? the trick\.")
RESULT = re.compile(r"\(tricks ([^)]*)\)|One trick each: the pot of \d+ is carried over; (.*) play again\.")


def credited(summary: str) -> Counter[str] | None:
    """The tricks each player took by the hand's result line (None: nobody played a trick)."""
    found = RESULT.search(summary)
    if found is None:
        return None
    if found.group(1) is not None:
        return Counter({name.capitalize(): int(n) for name, n in
                        (part.rsplit(" ", 1) for part in found.group(1).split(", "))})
    names = re.split(r", | and ", found.group(2))
    return Counter({name.capitalize(): 1 for name in names})


def test_each_trick_is_given_to_the_player_the_hand_result_credits(tmp_path: Path) -> None:
    env = dict(os.environ, TERM="dumb", NO_COLOR="1", PYTHONPATH=str(ROOT),
               **{HOME_ENV: str(tmp_path / "home")})
    # the seeded deck of seed 1 has azi replays and last tricks taken by a player who did not lead them
    args = ["-m", "p2pcards", "play", "azi", "--players", "4", "--auto", "normal", "-o", "bankroll=100",
            "--seed", "1", "--dealer", "seeded", "--no-save"]
    child = pexpect.spawn(sys.executable, args, env=env, encoding="utf-8", timeout=120,
                          dimensions=(24, 80), cwd=str(ROOT))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    shown = plain(child.before)
    hands = re.split(r"^Hand \d+: ", shown, flags=re.M)[1:]
    checked = 0
    for hand in hands:
        play, _, summary = hand.partition(" over ──")
        expected = credited(summary.split("deck")[0].replace("\n", " "))
        if expected is None:
            continue
        said = Counter(name.capitalize() for name in TAKES.findall(play.replace("\n", " ")))
        assert said == expected, f"the tricks said {dict(said)}, the result {dict(expected)}:\n{hand}"
        checked += 1
    assert checked > 50
