"""The seat controller: what a typed line means at a seat, offline and on the LAN alike — a move, a
command, an answer to the open question, a mistake — and what is asked next; and the offline game
reading it the way the LAN game does (``quit`` works at every prompt, a question included)."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from rich.console import Console

from p2pcards.cli.play import Session
from p2pcards.cli.screen import menu, questions
from p2pcards.cli.screen.events import game_screen
from p2pcards.cli.seat import (
    LEAVE_PROMPT,
    MOVE_PROMPT,
    RETURN,
    Again,
    Answer,
    Late,
    Leave,
    Move,
    Problem,
    Seat,
)
from p2pcards.cli.terminal import Terminal
from p2pcards.local import LocalRoom
from p2pcards.table import outputs as out


def seat_at(game: str, **options: int) -> tuple[Seat, LocalRoom, out.YourTurn, io.StringIO]:
    """A seat of ``game`` at its person's first turn (begun: the table and the moves shown)."""
    room = LocalRoom(game, players=3, options=dict(options), human=0, level="random", dealer="seeded",
                     seed=5)
    text = io.StringIO()
    screen = game_screen(Terminal(Console(file=text, width=80, color_system=None)), room.genesis, 0,
                         lambda: room.table, room.names)
    seat = Seat(screen, lan=False)
    while True:
        turn = room.run_until_human()
        assert turn is not None
        forced = seat.begin(turn)
        if forced is None:  # more than one move: the person chooses
            return seat, room, turn, text
        assert seat.turn is None  # the only move there is is made without asking
        room.human_action(forced)


@pytest.fixture
def durak() -> Iterator[tuple[Seat, LocalRoom, out.YourTurn, io.StringIO]]:
    made = seat_at("durak")
    yield made
    made[1].close()


def test_a_number_a_command_and_a_typo_at_the_turn(durak) -> None:
    seat, _, turn, text = durak
    assert "Your moves:" in text.getvalue()
    assert seat.prompt() == MOVE_PROMPT
    first = seat.entries[0]
    assert seat.read("1") == Move(first.text)
    assert seat.read("table") == menu.Command("table")
    assert seat.read("return") == RETURN
    assert isinstance(seat.read("zz"), Problem)
    assert seat.turn is turn  # none of these ends the turn: only the move sent does
    assert seat.moved() is turn and seat.turn is None and seat.prompt() is None


def test_quit_asks_and_only_yes_leaves(durak) -> None:
    seat = durak[0]
    seat.command(menu.Command("quit"), lambda: "")
    assert seat.prompt() == LEAVE_PROMPT
    assert seat.read("1") == Again("Carry on, then.")  # not a move: the answer to "Leave the game?"
    assert seat.prompt() == MOVE_PROMPT
    seat.command(menu.Command("quit"), lambda: "")
    assert seat.read(" Y ") == Leave()


def test_the_open_question_is_answered_first_and_a_move_is_left_to_the_turn(durak) -> None:
    seat = durak[0]
    question = questions.come_back(0)
    assert seat.prompt(question) == question.prompt
    asked = seat.read("1", question)
    assert isinstance(asked, Move)  # a move's number answers no question
    answer = seat.read(" Return ", question)
    assert isinstance(answer, Answer) and answer.question is question and answer.meaning == "ask"
    # A late answer to a question the table has moved past is told so, not read as a move.
    assert seat.read("return", None, (question, "back")) == Late("back")


def test_between_turns_commands_work_and_a_move_is_not_taken() -> None:
    seat, room, _, _ = seat_at("durak")
    try:
        seat.moved()
        assert seat.read("1", not_your_turn="It is not your turn: Anna is thinking.") == \
            Problem("It is not your turn: Anna is thinking.")
        assert seat.read("help") == menu.Command("help")
        assert seat.read("") == Again()
        question = questions.out_of_match(())
        assert seat.read("1", question) == Problem(question.hint)
    finally:
        room.close()


def test_an_amount_is_asked_again_until_it_is_one_and_enter_goes_back() -> None:
    seat, room, _, _ = seat_at("azi", bankroll=100)
    try:
        runs = [e for e in seat.entries if e.is_run]
        assert runs, [e.text for e in seat.entries]
        entry = runs[0]
        assert seat.read(str(entry.number)) == Again()
        assert seat.prompt() == menu.amount_prompt(entry)
        assert isinstance(seat.read("abc"), Problem)
        assert seat.prompt() == menu.amount_prompt(entry)  # still asked
        assert seat.read("") == Again() and seat.prompt() == MOVE_PROMPT  # back to the moves
        assert seat.read(str(entry.number)) == Again()
        assert seat.read(str(entry.low)) == Move(f"{entry.verb} {entry.low}")
    finally:
        room.close()


def test_offline_return_is_told_what_the_lan_game_tells_a_seat_that_plays() -> None:
    """``return`` (to be dealt in again) is a command at every seat: offline, where the person is
    never dealt out, it is told there is nothing to come back to, as at a LAN seat that plays (it was
    read as a move offline, and refused as one)."""
    room = LocalRoom("durak", players=3, human=0, level="random", dealer="seeded", seed=5)
    typed = iter(["return", "quit", "y"])
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        return next(typed)

    screen = io.StringIO()
    session = Session(room, console=Console(file=screen, width=80, color_system=None), read=read)
    try:
        assert session.play() == 0
    finally:
        room.close()
    assert asked == [MOVE_PROMPT, MOVE_PROMPT, LEAVE_PROMPT]
    said = " ".join(screen.getvalue().split())
    assert "You are playing: there is nothing to come back to." in said
    assert "You left the table." in said
