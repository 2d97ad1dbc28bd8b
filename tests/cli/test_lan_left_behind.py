"""A LAN seat the others went on without (more than half of the table: it is left behind until it
asks to come back) has no turn at the step it was left at: its screen does not show the old hand as
its turn, a move typed there is not sent, and `return` is told as its one way back (issue #30 item 7:
a resumed Spades player made an open dummy saw the old hand as her turn, and her card went nowhere)."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any, cast

import pytest
import trio
from rich.console import Console

from p2pcards.cli.lan.game import LanGame
from p2pcards.cli.terminal import Terminal
from p2pcards.games import HandState, Rules
from p2pcards.games.base import Match
from p2pcards.local import LocalRoom
from p2pcards.net.node import Node
from p2pcards.table import outputs as out
from p2pcards.table.genesis import Genesis


@dataclass
class Chain:
    step: int = 7


@dataclass
class Replica:
    """What the LAN game reads of its seat's ``Table``."""

    rules: Rules
    state: HandState | None
    match: Match | None
    chain: Chain = field(default_factory=Chain)
    waiting_for: tuple[int, ...] = (0,)
    seats_out: dict[int, str] = field(default_factory=dict)
    over: bool = False
    stopped: object = None
    fault: object = None
    hand_number: int = 0
    left_behind: bool = False
    returning: bool = False
    hands_played: list[Any] = field(default_factory=list)
    verdicts: list[Any] = field(default_factory=list)
    attempt: object = None


@dataclass
class Seat0:
    """What the LAN game reads of its ``Node``, and what it tells it."""

    table: Replica
    genesis: Genesis
    seat: int = 0
    sent: list[str] = field(default_factory=list)
    told: list[str] = field(default_factory=list)
    finished: trio.Event = field(default_factory=trio.Event)

    def now_ms(self) -> int:
        return 0

    async def act(self, text: str) -> None:
        self.sent.append(text)

    def decide_silent(self, go_on: bool) -> None:
        self.told.append(f"decide_silent {go_on}")

    def admit(self, seat: int, yes: bool) -> None:
        self.told.append(f"admit {seat} {yes}")

    def ask_to_return(self) -> None:
        self.told.append("ask_to_return")

    def watch(self) -> None:
        self.told.append("watch")


def said(text: io.StringIO) -> str:
    return " ".join(text.getvalue().split())


@pytest.fixture
def at_a_turn() -> tuple[LanGame, Seat0, out.YourTurn, io.StringIO]:
    room = LocalRoom("durak", players=3, options={"series_hands": 3}, human=0, dealer="seeded", seed=5)
    while True:
        turn = room.run_until_human()
        assert turn is not None
        if len(turn.view.legal_actions) > 1:
            break
        room.human_action(room.rules.action_text(turn.view.legal_actions[0]))
    replica = Replica(room.rules, room.table.state, room.table.match, hand_number=turn.hand)
    room.close()
    node = Seat0(replica, room.genesis)
    text = io.StringIO()
    game = LanGame(cast(Node, node), Terminal(Console(file=text, width=100, color_system=None)), lines=None)
    return game, node, turn, text


async def test_a_seat_left_behind_at_its_turn_loses_the_turn_and_its_move_is_not_sent(
    at_a_turn: tuple[LanGame, Seat0, out.YourTurn, io.StringIO],
) -> None:
    game, node, turn, text = at_a_turn
    game.on_event(turn)
    assert said(text).endswith("Your move:")
    # More than half of the table went on without this seat: it is left behind.
    node.table.left_behind = True
    game.on_event(out.VotesContradicted(7, (1, 2), (0,), True))
    assert game.turn is None
    assert not said(text).endswith("Your move:")
    await game._typed("n")  # only watch, for now
    await game._typed("1")
    assert node.sent == [], "a move at the step the others went past goes nowhere: it is not sent"
    shown = said(text)
    assert "It is not your turn: the others play on without you: type `return` to ask to play again" in shown
    await game._typed("return")
    assert node.told == ["ask_to_return"]


async def test_a_seat_back_to_find_itself_left_behind_is_not_shown_the_old_hand_as_its_turn(
    at_a_turn: tuple[LanGame, Seat0, out.YourTurn, io.StringIO],
) -> None:
    game, node, turn, text = at_a_turn
    node.table.left_behind = True  # what its replica learnt from the others, before the old turn came
    game.on_event(turn)
    assert game.turn is None
    shown = said(text)
    assert "your turn" not in shown and "Your move:" not in shown
    await game._typed("1")
    assert node.sent == []


def test_the_way_back_reads_as_the_only_one() -> None:
    from p2pcards.cli.screen import questions

    line = questions.come_back(3).lines[0].plain
    assert "only if you ask" in line and "`return`" in line


async def test_half_the_table_going_on_from_her_step_leaves_her_behind_and_return_is_the_way_back(
    at_a_turn: tuple[LanGame, Seat0, out.YourTurn, io.StringIO],
) -> None:
    """Two voices: the other one went on by its own word (half the table) from the step this seat is
    at.  Its `return` would bind it to that word (half and its consent), so it is told as a majority's
    decision is: the turn there is gone, a move is not sent, and `return` is the way back."""
    game, node, turn, text = at_a_turn
    game.on_event(turn)
    node.table.left_behind = True
    game.on_event(out.VotesContradicted(7, (1,), (0,), False, True))
    assert game.turn is None
    shown = said(text)
    assert "Boris, half of the table, went on without you at step 7" in shown, shown
    assert "Nothing you play at that step counts any more" in shown
    assert "type `return` to agree and be dealt in again from the next hand" in shown
    assert "binds nobody named" not in shown and "you stay in this game" not in shown
    await game._typed("1")
    assert node.sent == []
    await game._typed("return")
    assert node.told == ["ask_to_return"]


async def test_when_half_the_tables_word_ended_the_match_she_is_told_so_and_asked_to_agree() -> None:
    """Two people: the other's word ended the match (too few players left).  Coming back she reads that
    it ended, not that she may be dealt in again, and is asked to agree to that end."""
    from p2pcards.cli.screen import going_on, questions

    room = LocalRoom("durak", players=2, human=0, dealer="seeded", seed=5)
    turn = room.run_until_human()
    assert turn is not None
    replica = Replica(room.rules, room.table.state, room.table.match, hand_number=turn.hand, left_behind=True)
    room.close()
    node = Seat0(replica, room.genesis)
    text = io.StringIO()
    game = LanGame(cast(Node, node), Terminal(Console(file=text, width=100, color_system=None)), lines=None)
    game.on_event(turn)
    game.on_event(out.VotesContradicted(7, (1,), (0,), False, True))
    shown = said(text)
    assert "half of the table, ended the match without you at step 7" in shown, shown
    assert "too few players were left to play on" in shown and "dealt in again" not in shown, shown
    asked = going_on.out_question(game.screen)
    assert asked is not None and asked.kind == questions.RETURN
    assert asked.prompt.startswith("Agree that the match ended?")
    await game._typed("return")
    assert node.told == ["ask_to_return"]
    shown = said(text)
    assert "You agreed that the match ended without you" in shown and "You asked to play again" not in shown


def test_out_by_half_the_tables_word_and_her_agreement_is_not_told_as_binding_nobody(
    at_a_turn: tuple[LanGame, Seat0, out.YourTurn, io.StringIO],
) -> None:
    game, node, _, text = at_a_turn
    node.table.seats_out = {0: "unconfirmed"}
    game.on_event(out.Fault(0, 7, "silent", "stayed silent", hand=0, seats=(0,), unconfirmed=True))
    shown = said(text)
    assert ("went on without you in hand 1 by their word, and your `return` agreed to it: you are out of "
            "that hand") in shown, shown
    assert "binds nobody named" not in shown


def test_a_seat_caught_up_after_a_restore_is_told_it_plays_on_only_where_it_does(
    at_a_turn: tuple[LanGame, Seat0, out.YourTurn, io.StringIO],
) -> None:
    """Back from the saved game, a seat waits for the others' answers; once they came, it is told it
    plays on — unless what it caught up with left it behind (it plays again only by `return`)."""
    game, node, _, text = at_a_turn
    game.on_event(out.Restoring(7, (1,)))
    game.on_event(out.Restoring(7, ()))
    assert "Caught up: the others sent all they hold, and you play on." in said(text)
    node.table.left_behind = True
    game.on_event(out.Restoring(9, (2,)))
    game.on_event(out.Restoring(9, ()))
    shown = said(text)
    assert shown.count("and you play on") == 1, shown
    assert shown.rstrip().endswith("Caught up: the others sent all they hold."), shown
