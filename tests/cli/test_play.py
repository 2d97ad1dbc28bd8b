"""``p2pcards play``: whole matches with a computer in the player's seat (``--auto --json``), the JSON
input path, bad arguments, reading what a player types, and one game at a pseudo-terminal."""

from __future__ import annotations

import io
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pexpect
import pytest
from rich.console import Console

from p2pcards import games
from p2pcards.cli.play import Session
from p2pcards.cli.screen import describe, menu, words
from p2pcards.cli.screen.faces import face_for
from p2pcards.games.azi.view import AziView
from p2pcards.games.rng import Rng
from p2pcards.local import LocalRoom
from p2pcards.store.paths import HOME_ENV
from tests.cli.running import run

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv(HOME_ENV, str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    return home


def lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


# ============================================================================ whole matches


AUTO = [
    ("durak", ["--players", "3"], "mental"),
    ("spades", ["-o", "target=100"], "seeded"),
    ("azi", ["--players", "3", "-o", "bankroll=30", "-o", "ante=10"], "mental"),
]


@pytest.mark.parametrize(("game", "extra", "dealer"), AUTO)
def test_auto_json_plays_a_whole_match(
    game: str, extra: list[str], dealer: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, text, err = run(capsys, "play", game, *extra, "--auto", "easy", "--level", "easy", "--json",
                          "--seed", "7", "--dealer", dealer)
    assert code == 0, err
    events = lines(text)
    kinds = [e["event"] for e in events]
    assert kinds[0] == "start" and events[0]["game"] == game and events[0]["dealer"] == dealer
    assert kinds.count("match_over") == 1 and kinds[-1] == "saved"
    assert "turn" in kinds and "move" in kinds and "fault" not in kinds
    hand_overs = [e for e in events if e["event"] == "hand_over"]
    assert hand_overs and all(h["audit"]["ok"] for h in hand_overs)
    if dealer == "mental":
        assert all(h["verified"] == describe.VERIFIED for h in hand_overs)
    turns = [e for e in events if e["event"] == "turn"]
    assert all(t["seat"] == 0 and t["legal"] for t in turns)


def test_think_is_the_budget_of_every_hard_player(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from p2pcards import local
    from p2pcards.ai import budget
    from p2pcards.ai import player as ai_player

    budgets: list[int] = []

    def spy(rules: games.Rules, level: str, seed: int) -> Any:
        made = ai_player(rules, level, seed)
        budgets.append(getattr(made, "budget", -1))
        return made

    monkeypatch.setattr(local, "ai_player", spy)
    before = budget.default_think()
    try:
        code, _, err = run(capsys, "play", "durak", "--players", "2", "--auto", "hard", "--level", "hard",
                           "--think", "0.004", "--dealer", "seeded", "--no-save", "--json", "--seed", "3")
    finally:
        budget.set_default_think(before)
    assert code == 0, err
    assert budgets and set(budgets) == {budget.units_for("durak", 4)}


def test_the_saved_game_verifies(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = run(capsys, "play", "durak", "--players", "2", "--auto", "easy", "--json", "--seed", "9")
    assert code == 0
    game_id = lines(text)[-1]["game_id"]
    code, text, err = run(capsys, "verify", game_id[:12], "--json")
    assert code == 0, err
    report = json.loads(text)
    assert report["ok"] and report["finished"] and report["dealer"] == "mental"
    # The same seed again plays the same game but does not write over the saved one.
    again = ("play", "durak", "--players", "2", "--auto", "easy", "--json", "--seed", "9")
    code, text, err = run(capsys, *again)
    assert code == 0 and "will not be saved" in err and lines(text)[-1]["event"] == "match_over"


def test_json_input_reports_mistakes_and_end_of_input_leaves(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("zz\n99\nhelp\n1\n1\n"))
    code, text, _ = run(capsys, "play", "durak", "--players", "2", "--json", "--seed", "1",
                        "--dealer", "seeded", "--level", "easy", "--no-save")
    assert code == 3  # the input ended before the match did
    events = lines(text)
    errors = [e for e in events if e["event"] == "error"]
    assert [e["input"] for e in errors] == ["zz", "99"]
    assert "not a move" in errors[0]["message"] and "no move 99" in errors[1]["message"]
    assert next(e for e in events if e["event"] == "help")["text"].startswith('Answer "Your move"')
    mine = [e for e in events if e["event"] == "move" and e["seat"] == 0]
    assert len(mine) == 2  # a program answers every turn, even one with a single move
    assert events[-1]["event"] == "left" and events[-1]["input_ended"]
    assert "saved" not in [e["event"] for e in events]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["poker"], "unknown game"),
        (["spades", "--players", "3"], "exactly 4"),
        (["durak", "--players", "9"], "--players must be from 2 to 6"),
        (["durak", "--level", "genius"], "--level must be one of"),
        (["durak", "--auto", "genius"], "--auto must be one of"),
        (["durak", "--players", "2", "--seat", "2"], "--seat must be from 0 to 1"),
        (["durak", "-o", "nonsense"], "NAME=VALUE"),
        (["durak", "-o", "colour=red"], "unknown durak option"),
        (["azi", "-o", "ante=0"], "ante"),
        (["durak", "--dealer", "croupier"], "--dealer must be one of"),
        (["durak", "--players", "two"], "--players two: a whole number is needed"),
        (["durak", "--think", "soon"], "--think 'soon': give the seconds"),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_message(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "play", args[0], "--json", "--auto", "easy", *args[1:])
    assert code == 2 and message in err and out == ""


# ============================================================================ reading input


def durak_entries(seed: int = 2) -> tuple[games.Rules, list[menu.Entry]]:
    room = LocalRoom("durak", players=2, human=0, level="easy", dealer="seeded", seed=seed)
    turn = room.run_until_human()
    while turn is not None and not turn.view.legal_actions[0] < 64:  # wait for an attack
        room.human_action(room.rules.action_text(turn.view.legal_actions[0]))
        turn = room.run_until_human()
    assert turn is not None
    return room.rules, menu.build(room.rules, turn.view)


def test_input_by_number_by_move_by_card_and_commands() -> None:
    rules, entries = durak_entries()
    first = entries[0]
    assert menu.resolve("1", entries, rules) == menu.Chosen(first.text)
    assert menu.resolve(f"  {first.text.upper()} ", entries, rules) == menu.Chosen(first.text)
    card = first.text.split()[1]
    assert menu.resolve(card.lower(), entries, rules) == menu.Chosen(first.text)
    symbol = games.cards.card_display(games.cards.parse_card(card))
    assert menu.resolve(symbol, entries, rules) == menu.Chosen(first.text)
    assert menu.resolve("HELP", entries, rules) == menu.Command("help")
    assert menu.resolve("q", entries, rules) == menu.Command("quit")
    assert menu.resolve("rules", entries, rules) == menu.Command("rules")
    assert menu.resolve("Rules  4", entries, rules) == menu.Command("rules", "4")
    assert menu.resolve("rules all", entries, rules) == menu.Command("rules", "all")


def test_input_mistakes_get_an_explanation() -> None:
    rules, entries = durak_entries()
    problems = {raw: menu.resolve(raw, entries, rules) for raw in ("99", "0", "zz", "", "attack", "2c")}
    assert all(isinstance(p, menu.Problem) for p in problems.values())
    assert f"from 1 to {len(entries)}" in problems["99"].message  # type: ignore[union-attr]
    assert "not a move" in problems["zz"].message  # type: ignore[union-attr]
    assert "the forms are" in problems["attack"].message  # type: ignore[union-attr]
    assert "2♣ is not in this game's deck" in problems["2c"].message  # type: ignore[union-attr]
    unheld = next(c for c in rules.deck if all(c not in e.card_ids for e in entries))
    held = menu.resolve(games.cards.card_text(unheld), entries, rules)
    assert isinstance(held, menu.Problem) and "No legal move uses" in held.message


def test_a_card_that_fits_several_moves_asks_for_the_number() -> None:
    entries = [menu.Entry(1, "beat 7H 9H", card_ids=(31, 33)), menu.Entry(2, "beat 8H 9H", card_ids=(32, 33)),
               menu.Entry(3, "take")]
    rules = games.load("durak", players=2)
    answer = menu.resolve("9h", entries, rules)
    assert isinstance(answer, menu.Problem) and "fits 2 moves" in answer.message
    assert menu.resolve("8h 9h", entries, rules) == menu.Chosen("beat 8H 9H")


def test_a_run_of_bets_is_one_entry_that_asks_for_the_amount() -> None:
    room = LocalRoom("azi", players=2, human=0, level="easy", dealer="seeded", seed=3)
    turn = room.run_until_human()
    while turn is not None and not any(a >= 256 for a in turn.view.legal_actions):
        room.human_action(room.rules.action_text(turn.view.legal_actions[-1]))
        turn = room.run_until_human()
    assert turn is not None and isinstance(turn.view, AziView)
    entries = menu.build(room.rules, turn.view)
    run_entry = next(e for e in entries if e.is_run)
    assert len(entries) < 10 and run_entry.low < run_entry.high
    picked = menu.resolve(str(run_entry.number), entries, room.rules)
    assert picked == menu.NeedAmount(run_entry)
    lowest = menu.Chosen(f"{run_entry.verb} {run_entry.low}")
    assert menu.resolve_amount(str(run_entry.low), run_entry) == lowest
    assert isinstance(menu.resolve_amount(str(run_entry.high + 1), run_entry), menu.Problem)
    typed = menu.resolve(f"{run_entry.verb} {run_entry.high}", entries, room.rules)
    assert typed == menu.Chosen(f"{run_entry.verb} {run_entry.high}")


def test_engine_summaries_get_the_players_names() -> None:
    names = ("You", "Anna", "Boris")
    named = words.with_names("seat 2 wins 30; seat 0 gets 5 back", names)
    assert named == "Boris wins 30; you get 5 back"
    assert words.with_names("seats 0, 1 and 2 went out", names) == "You, Anna and Boris went out"
    # Mid-sentence "you", cards with their suit symbols, as everywhere else on the screen.
    assert words.with_names("not allowed: seat 0 must bid", names) == "not allowed: you must bid"
    assert words.with_names("KC is not a trump (D2)", names) == "K♣ is not a trump (D2)"


def test_your_seat_is_your_seat_inside_a_sentence() -> None:
    """A Spades seat dealt again as an open dummy reads its own line as "with your seat", never
    "with Your seat" (the possessive of ``You`` is ``Your`` at a sentence's start only)."""
    face = face_for("spades", ("You", "Anna", "Boris", "Clara"), 0)
    line = describe.void_line(2, face.dealt_again((0,))).plain
    assert line == ("Hand 3 is void: nothing of it counts, and it is dealt again, with your seat as an open "
                    "dummy.")
    assert words.you_case("Your seat is an open dummy. Your cards, and You win") == (
        "Your seat is an open dummy. Your cards, and you win")


def test_the_deal_and_the_shuffle_progress_speak_of_people() -> None:
    names = ("You", "Anna")
    assert describe.deal_line(0, 2, "mental") == (
        "Hand 1: the deck was shuffled by both seats (2 proofs of shuffle checked).")
    assert "all 3 seats" in describe.deal_line(0, 3, "mental")
    assert describe.progress("shuffle", (0,), names, 0) == (
        "hand 1: Your proof of shuffle verified; Anna shuffles")
    assert describe.progress("shuffle", (1,), ("Anna", "You"), 0).endswith("dealing")
    assert describe.progress("key_reveal", (0, 1), names, 0) == "hand 1: You shuffle the deck"


# ============================================================================ the screen, scripted


SCRIPTED = [
    ("durak", 6, {}),
    ("spades", 4, {"target": 60}),
    ("azi", 6, {"bankroll": 30, "deal": 4}),
]


@pytest.mark.parametrize(("game", "players", "options"), SCRIPTED)
def test_a_scripted_player_sees_every_screen_of_a_whole_match(
    game: str, players: int, options: dict[str, Any]
) -> None:
    room = LocalRoom(game, players=players, options=options, human=1, level="random", dealer="seeded", seed=4)
    rng = Rng(4)
    typed: list[str] = []

    def read(prompt: str) -> str:
        turn = room.turn
        assert turn is not None
        entries = menu.build(room.rules, turn.view)
        entry = entries[rng.below(len(entries))]
        answer = ("zz", "table", str(entry.number))[min(rng.below(8), 2)]
        if prompt.startswith(("Bet", "Raise")):
            answer = str(entry.low)
        typed.append(answer)
        return answer

    screen = io.StringIO()
    session = Session(room, console=Console(file=screen, width=80, color_system=None), read=read)
    assert session.play() == 0 and room.over
    text = screen.getvalue()
    assert text.count("your turn") >= typed.count("table") + 1
    assert "Your hand:" in text and "Your moves:" in text and "▶" in text
    assert "is not a move" in text or "zz" not in typed
    assert text.count(describe.SEEDED) == text.count(" over ─") - 1  # every hand's audit line
    assert "Match over" in text


# ============================================================================ at a terminal


SUIT_LETTERS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
MOVE_LINE = re.compile(r"^\s*(\d+) (\S+(?: \S+)?)", re.MULTILINE)


def as_letters(card: str) -> str:
    return card[:-1] + SUIT_LETTERS[card[-1]]


def test_a_hand_at_a_pseudo_terminal(tmp_path: Path) -> None:
    env = dict(os.environ, TERM="dumb", NO_COLOR="1", PYTHONPATH=str(ROOT),
               **{HOME_ENV: str(tmp_path / "home")})
    args = ["-m", "p2pcards", "play", "durak", "--players", "2", "--level", "easy", "--seed", "3"]
    child = pexpect.spawn(
        sys.executable, args, env=env, encoding="utf-8", timeout=60, dimensions=(50, 110), cwd=str(ROOT),
    )
    try:
        child.expect("Durak — 2 players, offline")
        child.expect("Every seat is a peer with its own key")
        by_number = by_card = 0
        mistakes_made = False
        while True:
            seen = child.expect(["Your move: ", "Hand 1 over"])
            if seen == 1:
                break
            screen = child.before
            assert "Your hand:" in screen and "Your moves:" in screen and "▶ You" in screen
            moves = screen.split("Your moves:")[-1]
            listed = MOVE_LINE.findall(moves)
            assert listed, moves
            if not mistakes_made:
                child.sendline("99")
                child.expect(f"There is no move 99: choose a number from 1 to {len(listed)}")
                child.expect("Your move: ")
                child.sendline("zz")
                child.expect("'zz' is not a move, a move number or a card")
                child.expect("Your move: ")
                mistakes_made = True
            attacks = [text for _, text in listed if text.startswith(("attack ", "add "))]
            if attacks and by_card < 2:
                card = attacks[-1].split()[1]
                child.sendline(as_letters(card))
                child.expect(re.escape(card))  # the move played, in the log of moves
                by_card += 1
            else:
                child.sendline("1")
                by_number += 1
        child.expect("deck verified: every seat shuffled with a valid proof; no renege")
        child.expect("Match over")
        child.expect("p2pcards verify [0-9a-f]{12}")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert by_number > 0 and by_card > 0
