"""The questions open at a LAN seat (``p2pcards.cli.screen.asking``): answered oldest first with the
words they show, passed on to the node, dropped once the table has moved past them, and a silent
seat's deadline counted down.  The replica is a stand-in that answers what the questions read of it
(the step, whom it waits for, who is out); the node records what it was told."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console

from p2pcards.cli.screen import questions
from p2pcards.cli.screen.asking import OpenQuestions
from p2pcards.cli.screen.events import game_screen
from p2pcards.cli.screen.schema import problems
from p2pcards.cli.terminal import Terminal
from p2pcards.table import outputs as out
from p2pcards.table.genesis import make_genesis
from p2pcards.wire import key_from_seed, public_bytes

NAMES = ("You", "Ann", "Bob")


@dataclass
class Chain:
    step: int = 40


@dataclass
class Replica:
    """What the questions read of a ``Table``."""

    chain: Chain = field(default_factory=Chain)
    waiting_for: tuple[int, ...] = (2,)
    seats_out: dict[int, str] = field(default_factory=dict)
    over: bool = False
    stopped: object = None
    hand_number: int = 3
    left_behind: bool = False
    returning: bool = False
    match: object = None
    back: tuple[int, ...] = ()
    votes: list[Any] = field(default_factory=list)
    verdicts: list[out.Fault] = field(default_factory=list)

    def votes_held(self) -> list[Any]:
        return self.votes


@dataclass
class Node:
    told: list[tuple[Any, ...]] = field(default_factory=list)

    def decide_silent(self, go_on: bool) -> None:
        self.told.append(("decide_silent", go_on))

    def admit(self, seat: int, yes: bool) -> None:
        self.told.append(("admit", seat, yes))

    def ask_to_return(self) -> None:
        self.told.append(("ask_to_return",))

    def watch(self) -> None:
        self.told.append(("watch",))


class Seat:
    def __init__(self) -> None:
        genesis = make_genesis("durak", [(n, public_bytes(key_from_seed(bytes([i + 1]) * 32)))
                                         for i, n in enumerate(NAMES)], timeout_ms=300_000)
        self.replica = Replica()
        self.text = io.StringIO()
        self.lines = io.StringIO()
        self.now = 0
        self.screen = game_screen(Terminal(Console(file=self.text, width=80, color_system=None)), genesis, 0,
                                 lambda: self.replica, NAMES)  # type: ignore[arg-type, return-value]
        self.screen.clock = lambda: self.now
        self.json_screen = game_screen(Terminal(json_mode=True, stream=self.lines), genesis, 0,
                                      lambda: self.replica, NAMES)  # type: ignore[arg-type, return-value]
        self.node = Node()
        self.left = False
        self.open = OpenQuestions(self.screen, self.node, self._leave)
        self.json_open = OpenQuestions(self.json_screen, Node(), self._leave)

    def _leave(self) -> None:
        self.left = True

    def events(self) -> list[dict[str, Any]]:
        found = [json.loads(line) for line in self.lines.getvalue().splitlines()]
        assert all(problems(e) == [] for e in found), found
        return found


def silent(auto_at: int = 300_000) -> questions.Question:
    return questions.silent("Bob", False, 300, False, (auto_at // 1000), (2,), 40, auto_at)


def test_an_answer_goes_to_the_oldest_question_and_other_lines_are_left_alone() -> None:
    seat = Seat()
    seat.open.add(silent())
    seat.open.add(questions.admit("Ann", 1))
    assert not seat.open.take("1")  # a move number is not an answer: it is left to the turn
    assert not seat.open.take("table")
    assert seat.open.take("n")
    assert seat.node.told == [("decide_silent", False)]
    assert [q.kind for q in seat.open.open] == [questions.ADMIT]
    assert seat.open.take(" Yes ")
    assert seat.node.told[-1] == ("admit", 1, True) and seat.open.open == []
    assert "You keep waiting for Bob" in seat.text.getvalue()


def test_a_question_is_shown_once_and_told_to_programs_with_its_kind() -> None:
    seat = Seat()
    seat.json_open.add(silent())
    seat.json_open.show()
    seat.json_open.show()
    prompts = [e for e in seat.events() if e["event"] == "prompt"]
    assert len(prompts) == 1 and prompts[0]["question"] == "silent" and prompts[0]["seats"] == [2]
    assert prompts[0]["prompt"].startswith("Go on without Bob? [y = go on, n = keep waiting]")
    assert seat.json_open.take("go")
    assert seat.events()[-1] == {"event": "answer", "question": "silent", "answer": "go", "seats": [2]}


def test_a_silent_seat_that_speaks_after_all_needs_no_answer() -> None:
    seat = Seat()
    seat.open.add(silent())
    seat.open.prune()
    assert len(seat.open.open) == 1  # still silent, still at step 40
    seat.replica.chain.step = 41
    seat.replica.waiting_for = (1,)
    seat.open.prune()
    assert seat.open.open == [] and seat.node.told == []
    assert "Bob answered after all: no need to decide." in seat.text.getvalue()


def test_a_question_the_table_went_past_is_dropped_quietly() -> None:
    seat = Seat()
    seat.open.add(silent())
    seat.open.add(questions.admit("Ann", 1))
    seat.replica.seats_out = {1: "silent", 2: "silent"}  # the table went on without Bob by itself
    seat.replica.chain.step = 50
    seat.open.prune()
    assert [q.kind for q in seat.open.open] == [questions.ADMIT]  # Ann is still out: still asked
    seat.replica.seats_out = {2: "silent"}  # Ann was admitted by the others meanwhile
    seat.open.prune()
    assert seat.open.open == [] and "no need to decide" not in seat.text.getvalue()


def test_asking_to_return_is_sent_once_until_the_others_answer() -> None:
    seat = Seat()
    seat.replica.seats_out = {0: "silent"}
    seat.open.add(questions.come_back(3))
    assert seat.open.take("y")
    seat.open.ask_to_return()  # `return` typed again meanwhile
    assert seat.node.told == [("ask_to_return",)] and seat.open.returning
    seat.replica.seats_out = {}  # dealt in again
    seat.open.prune()
    assert not seat.open.returning


def test_out_of_the_match_leave_ends_the_game_for_the_player() -> None:
    seat = Seat()
    seat.open.add(questions.out_of_match(()))
    assert not seat.open.take("y")  # watch or leave: y is not one of its answers
    assert seat.open.take("l") and seat.left


def test_watching_tells_the_table_so_that_the_screen_follows_the_others() -> None:
    """Issue 30, blocker 1: "watch" used to change nothing but a line on the screen, so the seat's
    replica stayed at the hand it was voted out of and showed no move of the others."""
    seat = Seat()
    seat.replica.seats_out = {0: "silent"}
    seat.open.add(questions.out_of_match(()))
    assert seat.open.take("w") and not seat.left
    seat.open.add(questions.come_back(3))
    assert seat.open.take("n")
    assert seat.node.told == [("watch",), ("watch",)]


def test_a_silent_seat_connected_again_has_no_deadline_counted_down() -> None:
    """Issue 30, blocker 2: the others saw Bob back, yet were told the table goes on without him by
    itself; it does not any more (``Table.back``), and the screen says so instead of counting down."""
    seat = Seat()
    seat.open.add(silent(auto_at=300_000))
    seat.json_screen.clock = lambda: seat.now
    seat.json_open.add(silent(auto_at=300_000))
    seat.now = 200_000
    seat.replica.back = (2,)
    seat.open.countdown()
    seat.json_open.countdown()
    seat.now = 295_000
    seat.open.countdown()
    seat.json_open.countdown()
    text = " ".join(seat.text.getvalue().split())
    assert "Bob is connected again: the table no longer goes on without Bob by itself" in text
    assert "by itself in" not in text
    said = [e for e in seat.events() if e["event"] == "countdown"]
    assert said == [{"event": "countdown", "question": "silent", "seats": [2], "seconds": None, "back": [2]}]
    seat.replica.back = ()  # gone again: the deadline holds again
    seat.open.countdown()
    assert "by itself in 5 s unless you answer" in " ".join(seat.text.getvalue().split())


def test_the_deadline_of_a_silent_seat_is_counted_down() -> None:
    seat = Seat()
    seat.json_screen.clock = lambda: seat.now
    seat.json_open.add(silent(auto_at=300_000))
    for now in range(0, 300_001, 5_000):
        seat.now = now
        seat.json_open.countdown()
    said = [e["seconds"] for e in seat.events() if e["event"] == "countdown"]
    assert said == [120, 60, 30, 10]


def test_a_late_answer_to_a_question_the_table_moved_past_is_told_so_not_read_as_a_move() -> None:
    seat = Seat()
    seat.open.add(silent())
    seat.replica.chain.step = 41
    seat.replica.waiting_for = (1,)
    seat.open.prune()  # Bob answered after all
    assert seat.open.take("y"), "the late y is taken, not left to the turn as a move"
    assert "That question is no longer open (they answered after all)." in seat.text.getvalue()
    assert seat.node.told == []
    assert not seat.open.take("y"), "only the first late answer is taken"


def test_the_question_names_the_seat_awaited_apart_from_those_that_sent_nothing_either() -> None:
    question = questions.silent("Bob", False, 300, True, 300, (1, 2), 40, 300_000, quiet="Ann")
    first = question.lines[0].plain
    assert first == "Bob: the game has waited 5 min, and nothing came from Ann at this step either."
    assert question.prompt.startswith("Go on without Bob and Ann by your own word?")
    assert "does not bind them" in question.lines[1].plain


def test_the_prompt_holds_no_deadline_of_its_own_one_countdown_counts() -> None:
    question = silent(auto_at=300_000)
    assert "by itself" not in question.prompt, "a prompt shown again would show a stale deadline"
    assert [line.plain for line in question.lines][-1] == (
        "The table goes on without them by itself in 5 min unless you answer.")


def test_a_seat_voted_out_in_the_last_hand_of_a_series_is_not_offered_a_next_one() -> None:
    from p2pcards import games
    from p2pcards.cli.screen.going_on import out_question

    seat = Seat()
    seat.replica.seats_out = {0: "silent"}
    seat.replica.match = games.load("durak", players=3, series_hands=1).new_match(0)
    last = out_question(seat.screen)
    assert last is not None and last.kind == questions.OUT
    assert "no next hand" in last.lines[0].plain
    seat.replica.match = games.load("durak", players=3, series_hands=3).new_match(0)
    more = out_question(seat.screen)
    assert more is not None and more.kind == questions.RETURN


def test_a_player_connected_while_the_others_are_asked_is_said_to_be_dealt_out_only_by_a_yes() -> None:
    """Issue 30, item 5: the screen said the table goes on by itself while the slow player, still
    connected, was thinking — and the program did so.  It says what the program does instead: nothing
    against a connected player, unless its person answers y."""
    from p2pcards.cli.screen.going_on import RENDERERS
    from p2pcards.table import outputs as out

    seat = Seat()
    seat.screen.asker = seat.open.add
    seat.json_screen.asker = seat.json_open.add
    seat.json_screen.clock = lambda: seat.now
    seat.replica.back = (2,)
    seat.now = 300_000
    event = out.SilentSeats(40, (2,), 300_000, True, 600_000, True, (2,))
    RENDERERS[out.SilentSeats](seat.screen, event)
    RENDERERS[out.SilentSeats](seat.json_screen, event)
    seat.open.show()
    seat.json_open.show()
    seat.now = 595_000
    seat.open.countdown()
    seat.json_open.countdown()
    text = " ".join(seat.text.getvalue().split())
    assert "The table goes on without them by itself in 5 min only if Bob's laptop has gone quiet by then: " \
           "while it still sends, Bob may be thinking, and your program does not go on without them unless " \
           "you answer y." in text
    assert "unless you answer." not in text and "connected again" not in text  # no countdown for him
    said = [e for e in seat.events() if e["event"] == "silent"]
    assert said and said[0]["connected"] == [2]
    seat.now = 601_000
    seat.open.countdown()
    seat.open.countdown()
    text = " ".join(seat.text.getvalue().split())
    assert text.count("The deadline passed, but Bob is still connected: your program keeps waiting; answer y "
                      "to go on without Bob.") == 1


@dataclass(frozen=True)
class Vote:
    seat: int
    step: int


def test_the_screen_says_when_the_program_went_on_for_its_person() -> None:
    """Issue 30, item 5: what a program does on its person's behalf is said plainly.  The table went
    on without Bob: after this seat's own vote (nobody answered, Bob gone), the screen says the program
    did it; after the others' votes alone, it does not claim so."""
    for own in (True, False):
        seat = Seat()
        seat.open.add(silent())
        seat.replica.votes = [Vote(0, 40)] if own else [Vote(1, 40)]
        seat.replica.seats_out = {2: "silent"}
        seat.replica.chain.step = 41
        seat.replica.waiting_for = (1,)
        seat.open.prune()
        text = " ".join(seat.text.getvalue().split())
        said = "You did not answer, and nothing came from Bob any more: at the deadline your program " \
               "went on without Bob for you."
        assert (said in text) == own, text


def test_the_screen_says_when_the_program_went_on_or_ended_the_match_by_its_persons_word() -> None:
    """Issue 30, item 5 with two voices: no vote can decide, so at the deadline (nobody answered, Bob's
    laptop gone) the program goes on by its person's own word — or, too few players left, ends the
    match.  The screen says the program did it for the person, and why; a verdict not of this seat's
    word is not claimed so."""
    said: dict[tuple[bool, bool], str] = {}
    for own in (True, False):
        for ended in (False, True):
            seat = Seat()
            seat.open.add(silent())
            word = out.Fault(2, 40, "silent", "stayed silent", hand=3, seats=(2,), unconfirmed=own)
            seat.replica.verdicts = [word]
            seat.replica.seats_out = {2: "unconfirmed"}
            seat.replica.over = ended
            seat.replica.chain.step = 41
            seat.replica.waiting_for = (1,)
            seat.open.prune()
            said[own, ended] = " ".join(seat.text.getvalue().split())
    gone = "You did not answer, and nothing came from Bob any more: at the deadline your program "
    assert gone + "went on without Bob for you, by your word alone (half the table: it binds only you)." \
        in said[True, False], said[True, False]
    the_end = gone + "ended the match for you, by your word alone: with Bob gone, too few players were " \
        "left to play on. It is recorded as abandoned here; Bob's laptop, not connected, still holds it " \
        "unfinished."
    assert the_end in said[True, True], said[True, True]
    assert "your program" not in said[False, False] and "your program" not in said[False, True]
