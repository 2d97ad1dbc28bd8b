"""What a new player meets on first use, the way the best command-line programs do it: the rules in a
pager that shows colours (as git runs ``less``), a waiting line that keeps whom the game waits for, moves
listed in the hand's order, the amount of a raise asked again, names that cannot be taken for each other,
the game's own help, plain errors, Ctrl-C that leaves the shell's prompt on a line of its own, a game
nobody played not kept, ``resume`` that offers a choice, aligned columns and shell completion."""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from p2pcards import games
from p2pcards.cli import pager as pager_mod
from p2pcards.cli.lan.join import nobody_at
from p2pcards.cli.play import Session
from p2pcards.cli.screen import cards as cv
from p2pcards.cli.screen import faces, menu
from p2pcards.cli.screen.faces.azi import Face as AziFace
from p2pcards.cli.screen.helptext import help_text
from p2pcards.cli.screen.screen import status_line
from p2pcards.games.azi.match import AziMatch
from p2pcards.local import LocalRoom
from p2pcards.net.link import DEFAULT_PORT, connection_problem
from p2pcards.net.lobby import computer_names, resembles
from p2pcards.store.paths import HOME_ENV
from tests.cli.running import run

ROOT = Path(__file__).resolve().parents[2]
FINGERPRINT = re.compile(r"[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}")


@pytest.fixture(autouse=True)
def _private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv(HOME_ENV, str(home))
    return home




def p2pcards(home: Path, *args: str, **kw: Any) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1", **{HOME_ENV: str(home)})
    return subprocess.Popen([sys.executable, "-m", "p2pcards", *args], env=env, cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


# ============================================================================ the pager


def test_the_pager_is_run_as_git_runs_it_with_less_showing_colours(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    env: dict[str, str] = {}
    assert pager_mod.pager_command(env) == "less"
    assert pager_mod.pager_environment(env)["LESS"] == "FRX"  # R: colours, not raw ESC[1;4m
    assert pager_mod.pager_environment({"LESS": "-S"})["LESS"] == "-S"  # the player's own is kept
    assert pager_mod.pager_command({"PAGER": "most"}) == "most"
    assert pager_mod.pager_command({"PAGER": "most", "P2PCARDS_PAGER": "more"}) == "more"
    assert pager_mod.pager_command({"PAGER": ""}) is None
    assert pager_mod.pager_command({"PAGER": "cat"}) is None
    # What the pager is given, and in which environment.
    seen, less = tmp_path / "seen", tmp_path / "less"
    monkeypatch.setenv("PAGER", f"sh -c 'echo \"$LESS\" > {less}; cat > {seen}'")
    monkeypatch.delenv("LESS", raising=False)
    pager_mod.GitLikePager().show("\x1b[1mbold\x1b[0m\n")
    assert less.read_text().strip() == "FRX" and seen.read_text() == "\x1b[1mbold\x1b[0m\n"


def test_a_pager_that_cannot_run_prints_the_text(monkeypatch: pytest.MonkeyPatch,
                                                capfd: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PAGER", "no-such-pager-anywhere")
    pager_mod.GitLikePager().show("the rules\n")
    assert "the rules" in capfd.readouterr().out


# ============================================================================ the waiting line


def test_the_waiting_line_keeps_whom_the_game_waits_for_first_and_cuts_the_moves() -> None:
    moves = "Hana shows their lowest trump 8♦ · Bob attacks with 6♣ · Hana beats 6♣ with 7♣ · Bob passes"
    waiting = "Waiting for Ann · 12 s (after 2 min you are asked whether to go on without them)"
    for width in (60, 100, 200):
        line = status_line(waiting + "…", moves, width - 3)
        assert len(line) <= width - 3
        assert line.startswith(waiting[: width - 8]), line
    wide = status_line("Waiting for Ann · 12 s…", moves, 97)
    assert wide.startswith("Waiting for Ann · 12 s…") and wide.endswith("Bob passes")
    assert status_line("", moves, 40).startswith("…") and status_line("", moves, 40).endswith("Bob passes")


# ============================================================================ the menu


@pytest.mark.parametrize(("game", "players"), [("durak", 2), ("spades", 4), ("azi", 3)])
def test_the_moves_are_listed_in_the_order_the_hand_is_shown(game: str, players: int) -> None:
    room = LocalRoom(game, players=players, human=0, level="easy", dealer="seeded", seed=7)
    names = ["You", *("Anna", "Boris", "Clara")[: players - 1]]
    face = faces.face_for(game, names, 0)
    checked = 0
    turn = room.run_until_human()
    while turn is not None and checked < 12:
        view = turn.view
        entries = menu.build(room.rules, view, face)
        shown = cv.sorted_hand(view.hand, face.hand_suit(view))
        positions = [next(shown.index(c) for c in e.card_ids if c in shown)
                     for e in entries if any(c in shown for c in e.card_ids)]
        assert positions == sorted(positions), (game, [e.text for e in entries], shown)
        checked += len(positions) > 1
        room.human_action(entries[-1].text if not entries[-1].is_run else f"{entries[-1].verb} "
                          f"{entries[-1].low}")
        turn = room.run_until_human()
    assert checked


def test_with_one_move_the_menu_never_says_from_1_to_1() -> None:
    rules = games.load("durak", players=2)
    entries = [menu.Entry(1, "take")]
    for raw in ("7", "zz", ""):
        problem = menu.resolve(raw, entries, rules)
        assert isinstance(problem, menu.Problem) and "1 to 1" not in problem.message, problem


def test_a_raise_out_of_range_asks_for_the_amount_again(capsys: pytest.CaptureFixture[str]) -> None:
    room = LocalRoom("azi", players=2, human=0, level="easy", dealer="seeded", seed=3)
    asked: list[str] = []
    answers = iter(["5000", "-3", "lots"])

    def read(prompt: str) -> str:
        asked.append(prompt)
        if "how many chips" in prompt:
            return next(answers, "q")
        if prompt.startswith("Your move"):
            turn = room.turn
            assert turn is not None
            run = next((e for e in menu.build(room.rules, turn.view) if e.is_run), None)
            return run.verb if run is not None else "1"
        return "y" if prompt.startswith("Leave") else "n"  # leave, and keep nothing

    screen = io.StringIO()
    session = Session(room, console=Console(file=screen, width=80, color_system=None), read=read)
    session.play()
    room.close()
    amounts = [i for i, p in enumerate(asked) if "how many chips" in p]
    assert len(amounts) >= 4, asked  # three wrong answers, each asked again, then `q`
    assert all(asked[i + 1] == asked[i] for i in amounts[:3]), asked
    assert "A whole number from" in screen.getvalue()


# ============================================================================ words


def test_computer_players_names_never_resemble_a_persons_at_the_table() -> None:
    assert resembles("Ann", "Anna") and resembles("lena", "Elena") and resembles("Dmitry", "Dmitri")
    assert not resembles("Bob", "Boris") and not resembles("Ivan", "Irina")
    for people in (["Ann"], ["Hana", "Ann", "Bob"], ["Lena", "Dima", "Olya", "Klara", "Galya"]):
        chosen = computer_names(people, 6 - len(people))
        assert len(set(chosen)) == 6 - len(people)
        assert not any(resembles(c, p) for c in chosen for p in people), (people, chosen)
    assert computer_names(["Ann"], 1) == ["Boris"]


def test_each_game_s_help_speaks_only_of_its_own_moves() -> None:
    durak = help_text("durak", lan=False)
    assert "ante" not in durak and "raise" not in durak and "beat 7h 9h" in durak
    assert "ante" in help_text("azi", lan=True) and "raise" in help_text("azi", lan=False)
    assert "bid nil" in help_text("spades", lan=True) and "Durak" not in help_text("spades", lan=True)


def test_the_azi_end_names_the_winner_and_lists_the_chips_highest_first() -> None:
    rules = games.load("azi", players=4)
    match = rules.new_match()
    assert isinstance(match, AziMatch)
    ended = match._replace(stacks=(300, 1180, 5, 515), stopped=True)
    lines = [t.plain for t in AziFace(("You", "Hana", "Dmitri", "Anna"), 0).match_result(ended, "")]
    assert lines[0] == "Hana wins the match, with 1180 chips."
    assert lines[1] == "Chips: Hana 1180, Anna 515, you 300, Dmitri 5 (out)"


def test_a_connection_error_is_said_in_words() -> None:
    assert connection_problem(TimeoutError(110, "Connection timed out")) == "connection timed out"
    assert "Errno" not in connection_problem(ConnectionResetError(104, "Connection reset by peer"))
    # trio's "all attempts to connect failed" carries each address's error in a group: the first says why
    tried = OSError("all attempts to connect to 10.0.0.9:47474 failed")
    tried.__cause__ = ExceptionGroup("all attempts", [ConnectionRefusedError(111, "Connection refused")])
    assert connection_problem(tried) == "connection refused"


def test_an_address_where_nothing_answers_says_what_was_tried_and_what_next() -> None:
    said = nobody_at("10.77.0.9", f"no answer from 10.77.0.9:{DEFAULT_PORT} within 5 s", 2)
    assert f"port {DEFAULT_PORT} gave no answer within 5 s" in said
    assert "within 2 s" in said and "with its port" in said and "still running" in said
    refused = nobody_at("10.77.0.9", f"cannot connect to 10.77.0.9:{DEFAULT_PORT}: connection refused", 2)
    assert f"nothing listens on port {DEFAULT_PORT}" in refused


# ============================================================================ Ctrl-C, pipes, resume


def test_ctrl_c_prints_no_stray_word_and_ends_the_line(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(self: LocalRoom) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(LocalRoom, "start", interrupted)
    code, out, err = run(capsys, "play", "durak", "--players", "2", "--level", "easy", "--no-save")
    assert code == 130 and err == ""
    assert out.endswith("Interrupted.\n")  # on a line of its own: the shell's prompt comes next


def test_a_game_whose_output_was_closed_before_anyone_played_is_not_kept(_private_home: Path,
                                                                        capsys: pytest.CaptureFixture[str]
                                                                        ) -> None:
    proc = p2pcards(_private_home, "play", "spades", "--auto", "easy", "--json")
    assert proc.stdout is not None and proc.stderr is not None
    for _ in range(3):
        proc.stdout.readline()
    proc.stdout.close()  # `| head -3`
    err = proc.stderr.read()
    assert proc.wait(120) in (0, 141) and "Traceback" not in err
    code, out, _ = run(capsys, "games", "list", "--json")
    assert code == 0 and json.loads(out)["games"] == []
    code, _, err = run(capsys, "resume")
    assert code == 2 and "there is no unfinished game" in err


def test_resume_offers_a_choice_of_the_unfinished_games(capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    for seed in ("1", "2"):
        room_args = ["play", "durak", "--players", "2", "--dealer", "seeded", "--seed", seed]
        typed = iter(["quit", "y", "y"])
        monkeypatch.setattr("builtins.input", lambda prompt="", typed=typed: next(typed))
        run(capsys, *room_args)
    code, out, err = run(capsys, "resume")  # not at a terminal: told which there are
    assert code == 2 and "2 games are unfinished" in err
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    asked: list[str] = []

    def answer(prompt: str = "") -> str:
        asked.append(prompt)
        return {1: "7", 2: ""}.get(len(asked), "")

    monkeypatch.setattr("builtins.input", answer)
    code, out, err = run(capsys, "resume")
    assert code == 0 and asked[0].startswith("Resume which game? Type its number (1 to 2)")
    assert " 1  " in out and " 2  " in out and "There is no game 7" in out


def test_verify_and_games_show_line_up_their_columns(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "durak", "--players", "3", "--auto", "easy", "--json",
                       "--dealer", "seeded", "--seed", "3")
    game_id = next(json.loads(line)["game_id"] for line in out.splitlines() if '"game_id"' in line)[:12]
    for argv in (["verify", game_id], ["games", "show", game_id]):
        code, out, _ = run(capsys, *argv)
        seats = [line for line in out.splitlines() if line.startswith("seat ")]
        columns = {line.index(m.group(0)) for line in seats if (m := FINGERPRINT.search(line))}
        assert code == 0 and len(seats) == 3 and len(columns) == 1, out
        labels = {len(m.group(0)) for line in out.splitlines() if (m := re.match(r"^\S+(?: \d+)?\s+", line))}
        assert labels == {9}, out  # every value starts in the tenth column


# ============================================================================ shell completion


def completions(script: str, *words: str, home: Path) -> list[str]:
    """What bash offers after ``words`` (the last is the word being completed)."""
    quoted = " ".join(shlex.quote(w) for w in words)
    program = (f"{script}\nCOMP_WORDS=({quoted}); COMP_CWORD=$((${{#COMP_WORDS[@]}}-1)); _p2pcards; "
               'printf "%s\\n" "${COMPREPLY[@]}"')
    bin_dir = home / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    launcher = bin_dir / "p2pcards"
    launcher.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m p2pcards \"$@\"\n")
    launcher.chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}", PYTHONPATH=str(ROOT),
               **{HOME_ENV: str(home)})
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return [w for w in done.stdout.splitlines() if w]


def test_bash_completes_commands_games_options_values_and_saved_games(
    capsys: pytest.CaptureFixture[str], _private_home: Path
) -> None:
    code, script, _ = run(capsys, "completion", "bash")
    assert code == 0 and "complete -F _p2pcards p2pcards" in script
    assert completions(script, "p2pcards", "pl", home=_private_home) == ["play"]
    assert completions(script, "p2pcards", "play", "sp", home=_private_home) == ["spades"]
    assert completions(script, "p2pcards", "play", "durak", "--le", home=_private_home) == ["--level"]
    assert completions(script, "p2pcards", "host", "azi", "--auto", "", home=_private_home) == [
        "easy", "normal", "hard"]
    # -o offers the table options, the variants too
    assert completions(script, "p2pcards", "play", "durak", "-o", "tr", home=_private_home) == [
        "transfer=off", "transfer=on"]
    assert completions(script, "p2pcards", "host", "durak", "--option", "dec", home=_private_home) == [
        "deck=36", "deck=52"]
    assert "ante=" in completions(script, "p2pcards", "play", "azi", "-o", "", home=_private_home)
    after_option = completions(script, "p2pcards", "play", "--players", "3", "", home=_private_home)
    assert after_option == list(games.GAMES)
    code, out, _ = run(capsys, "play", "durak", "--players", "2", "--auto", "easy", "--json",
                       "--dealer", "seeded", "--seed", "9")
    game_id = next(json.loads(line)["game_id"] for line in out.splitlines() if '"game_id"' in line)[:12]
    assert completions(script, "p2pcards", "games", "show", "", home=_private_home) == [game_id]
    assert completions(script, "p2pcards", "resume", "", home=_private_home) == []  # it is finished
    for shell in ("zsh", "fish"):
        code, text, _ = run(capsys, "completion", shell)
        assert code == 0 and "p2pcards completion --ids" in text


# ============================================================================ the screen of a game


def test_the_cards_drawn_are_said_before_the_turn_not_after_the_move() -> None:
    room = LocalRoom("durak", players=3, human=0, level="easy", dealer="seeded", seed=11,
                     options={"series_hands": 2})
    screen = io.StringIO()
    answered: list[int] = []

    def read(prompt: str) -> str:
        answered.append(len(screen.getvalue()))
        return "1" if prompt.startswith("Your move") else "n"

    session = Session(room, console=Console(file=screen, width=80, color_system=None), read=read)
    assert session.play() == 0
    text = screen.getvalue()
    assert "From the talon: " in text
    assert "From the talon: You" not in text  # "you" inside the sentence, as everywhere else
    for at in answered:  # what comes right after the player's answer is never the draw before it
        after = text[at:].lstrip("\n").split("\n", 1)[0]
        assert not after.startswith("From the talon"), after
    lines = text.splitlines()
    forced = [i for i, line in enumerate(lines) if line.startswith("Your only move: ")]
    assert forced  # the lowest trump shown, at the start of a hand
    for i in forced:  # said once, not again as the next line
        assert not lines[i + 1].startswith(lines[i].removeprefix("Your only move: ")), lines[i:i + 2]


def test_a_new_hand_and_a_hand_dealt_again_forget_the_last_bout() -> None:
    room = LocalRoom("durak", players=2, human=0, level="easy", dealer="seeded", seed=2)
    face = faces.face_for("durak", ["You", "Anna"], 0)
    face.last_bout = (((1, 2),), "beaten off")  # type: ignore[attr-defined]
    face.new_hand()
    assert face.last_bout is None  # type: ignore[attr-defined]
    room.close()


def test_the_intro_says_plainly_what_the_host_s_laptop_can_see() -> None:
    from p2pcards.cli.lan.game import laptop, who_sees
    from p2pcards.table.genesis import make_genesis
    from p2pcards.wire import key_from_seed, public_bytes

    keys = [public_bytes(key_from_seed(bytes([i]) * 32)) for i in range(4)]
    genesis = make_genesis("durak", list(zip(["Hana", "Ann", "Anna", "Boris"], keys, strict=True)),
                           options={"players": 4}, nonce=b"n" * 16, computers=((2, 0), (3, 0)))
    names = ["Hana", "You", "Anna", "Boris"]
    said = who_sees(genesis, names, 1)
    assert said == ("Each laptop sees only the cards of its own seat. Hana's laptop also sees the cards of "
                    "Anna and Boris, the computer players it runs.")
    assert laptop(genesis, names, 1, 2) == "Hana's laptop" and laptop(genesis, ["You", *names[1:]], 0, 3) == (
        "your laptop")


def test_the_durak_table_marks_a_seat_dealt_out_instead_of_showing_it_with_no_cards() -> None:
    from io import StringIO

    from rich.console import Console

    from p2pcards import games

    rules = games.load("durak", players=3)
    state = rules.new_match(0).new_hand()
    face = faces.face_for("durak", ["You", "Bob", "Clara"], 0)
    face.away = {1: "silent", 2: "unconfirmed"}
    printed = StringIO()
    console = Console(file=printed, width=100, color_system=None)
    for part in face.table(state.view(0)):
        console.print(part)
    text = printed.getvalue()
    bob = next(line for line in text.splitlines() if "Bob" in line)
    clara = next(line for line in text.splitlines() if "Clara" in line)
    assert "voted out" in bob and "card" not in bob
    assert "left behind (unconfirmed)" in clara and "card" not in clara
