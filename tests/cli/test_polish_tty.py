"""Small things a person meets at a terminal: the wording of an error, a bad number on the command
line, the order of the commands in the help."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pexpect
import pytest

from tests.cli.test_lan_screen import env_for
from tests.cli.test_screen_tty import COLUMNS, ROOT, ROWS, plain


def at_terminal(home: Path, *args: str) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-m", "p2pcards", *args], env=env_for(home), encoding="utf-8",
                         timeout=60, dimensions=(ROWS, COLUMNS), cwd=str(ROOT))


def ran(home: Path, *args: str) -> tuple[int, str]:
    child = at_terminal(home, *args)
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus or 0, plain(child.before)


def test_a_spades_bid_without_a_number_says_how_to_write_a_move_with_its_words_intact(tmp_path: Path) -> None:
    child = at_terminal(tmp_path, "play", "spades", "--level", "easy", "--dealer", "seeded", "--seed", "3",
                        "--no-save")
    try:
        child.expect("Your move: ")
        child.sendline("bid")
        child.expect("Your move: ")
        said = " ".join(plain(child.before).split())
        assert "or play <card> such as play A♠, play 10♥" in said, said
        child.sendline("quit")
        child.expect(r"\[y/N\] ")
        child.sendline("y")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)


@pytest.mark.parametrize(("args", "said"), [
    (("play", "durak", "--seed", "abc"), "p2pcards play: error: --seed abc: a whole number is needed"),
    (("host", "durak", "--timeout", "abc"), "p2pcards host: error: --timeout abc: a number is needed"),
    (("join", "x", "--timeout", "1m"), "p2pcards join: error: --timeout 1m: a number is needed"),
    (("host", "durak", "--admit", "some"), "p2pcards host: error: --admit some: choose one of ask, all"),
])
def test_a_number_of_the_wrong_kind_is_one_line_that_says_what_is_needed(
    args: tuple[str, ...], said: str, tmp_path: Path
) -> None:
    code, shown = ran(tmp_path, *args)
    assert code == 2
    assert shown.strip() == said


def test_the_help_lists_what_players_use_before_what_developers_use(tmp_path: Path) -> None:
    code, shown = ran(tmp_path, "--help")
    assert code == 0
    commands = [line.split()[0] for line in shown.split("\n") if line.startswith("    ") and line.split()]
    players, developers = ["play", "host", "join", "list", "resume"], ["sim", "bench", "harness", "peer"]
    assert max(commands.index(c) for c in players) < min(commands.index(c) for c in developers), commands
    code, shown = ran(tmp_path, "bench", "--help")
    assert code == 0 and "record the results" not in shown
    assert "docs/performance.md" in shown  # where the measured tables are, to read


def test_the_host_is_asked_before_quit_closes_the_table_on_everyone(tmp_path: Path) -> None:
    child = at_terminal(tmp_path / "hana", "host", "durak", "--players", "3", "--interface", "127.0.0.1",
                        "--port", "0", "--no-mdns", "--name", "Hana")
    try:
        child.expect(r"p2pcards join 127\.0\.0\.1:(\d+)")
        port = child.match.group(1)
        child.expect("2 seats to fill")
        ann = at_terminal(tmp_path / "ann", "join", f"127.0.0.1:{port}", "--name", "Ann")
        child.expect(r"Admit Ann .*\[y/n\] ")
        child.sendline("y")
        child.expect("Ann sits down")
        child.sendline("quit")
        child.expect(r"Close the table\? Ann must leave it too\. \[y/N\] ")
        child.sendline("n")
        child.expect("The table stays open.")
        child.sendline("who")
        child.expect("Seated: Hana \\(you\\), Ann")
        child.sendline("quit")
        child.expect(r"Close the table\? ")
        child.sendline("y")
        child.expect("The table is closed")
        child.expect(pexpect.EOF)
        ann.expect(pexpect.EOF)
        ann.close(force=True)
    finally:
        child.close(force=True)


def test_a_spades_match_lost_at_the_floor_says_so(tmp_path: Path) -> None:
    # seed 4: You & Clara fail their contract in the first hand and fall to -60
    code, shown = ran(tmp_path, "play", "spades", "--auto", "easy", "-o", "floor=-30", "--dealer", "seeded",
                      "--seed", "4", "--no-save")
    assert code == 0
    assert "Boris & Dmitri win (You & Clara fell to -30 or below)." in " ".join(shown.split()), shown


def test_a_player_out_of_chips_is_told_in_words_about_them(tmp_path: Path) -> None:
    code, shown = ran(tmp_path, "play", "azi", "--players", "3", "--auto", "easy", "-o", "bankroll=30",
                      "--dealer", "seeded", "--seed", "2", "--no-save")
    said = " ".join(shown.split())
    assert code == 0
    assert "you are out of the match (rule A15); your 0 chips stay in the standings." in said, said
    assert "Clara is out of the match (rule A15); Clara's 0 chips stay in the standings." in said, said
    assert "they stay in the standings" not in said


def test_the_rows_of_a_harness_summary_are_aligned(tmp_path: Path) -> None:
    code, shown = ran(tmp_path, "harness", "durak", "--seeds", "1", "--peers", "2")
    assert code == 0
    rows = [line for line in shown.split("\n") if line.startswith("  ") and not line.startswith("  all ")]
    assert len(rows) >= 8
    columns = {len(re.match(r"  (\S+(?: \S+)*)\s+", row).group(0)) for row in rows}  # type: ignore[union-attr]
    assert len(columns) == 1, "\n".join(rows)


def test_games_and_the_resume_picker_fit_80_columns(tmp_path: Path) -> None:
    for game in ("durak", "azi"):  # two unfinished games of six players with long names
        child = at_terminal(tmp_path, "play", game, "--players", "6", "--level", "easy", "--dealer", "seeded",
                            "--seed", "3")
        child.expect("Your move: ")
        child.sendline("quit")
        child.expect(r"\[y/N\] ")
        child.sendline("y")
        child.expect(r"\[Y/n\] ")
        child.sendline("")
        child.expect(pexpect.EOF)
        child.close()
    code, listed = ran(tmp_path, "games")
    assert code == 0 and listed.count("unfinished") >= 3, listed
    assert all(len(line) <= COLUMNS for line in listed.split("\n")), listed
    assert "  azi\n" in listed and "with You, Boris, Clara, Dmitri, Elena, Farid" in listed
    child = at_terminal(tmp_path, "resume")
    child.expect(r"Resume which game\? ")
    picker = plain(child.before)
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert " 1  " in picker and " 2  " in picker, picker
    assert all(len(line) <= COLUMNS for line in picker.split("\n")), picker


def test_the_table_is_drawn_again_after_the_rules_pager(tmp_path: Path) -> None:
    args = ["-m", "p2pcards", "play", "durak", "--players", "2", "--level", "easy", "--dealer", "seeded",
            "--seed", "3", "--no-save"]
    child = pexpect.spawn(sys.executable, args,
                          env={**env_for(tmp_path), "PAGER": "cat"}, encoding="utf-8", timeout=60,
                          dimensions=(ROWS, COLUMNS), cwd=str(ROOT))
    try:
        child.expect("Your move: ")
        child.sendline("rules")
        child.expect("Your move: ")
        after_rules = plain(child.before).split("What you type")[-1]
        assert "· your turn" in after_rules and "Your moves:" in after_rules, after_rules
        child.sendline("quit")
        child.expect(r"\[y/N\] ")
        child.sendline("y")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)


def test_a_joiner_sees_the_move_clock_before_asking_for_a_seat(tmp_path: Path) -> None:
    host = at_terminal(tmp_path / "hana", "host", "durak", "--players", "2", "--interface", "127.0.0.1",
                       "--port", "0", "--no-mdns", "--name", "Hana", "--timeout", "90")
    try:
        host.expect(r"p2pcards join 127\.0\.0\.1:(\d+)")
        port = host.match.group(1)
        ann = at_terminal(tmp_path / "ann", "join", f"127.0.0.1:{port}", "--name", "Ann")
        ann.expect("Asking ")
        before = " ".join(plain(ann.before).split())
        assert "Move clock: 1 min 30 s to think over a move" in before, before
        ann.close(force=True)
    finally:
        host.close(force=True)
