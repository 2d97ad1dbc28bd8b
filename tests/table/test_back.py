"""A player whose laptop went quiet at their turn is back (their messages arrive) while the others are
asked whether to go on without them: nobody's answer deals them out (issue 30, blocker 2: the table
went on at the question's deadline with nobody answering, although the player was back)."""

from __future__ import annotations

from p2pcards.table import Table
from p2pcards.table import outputs as out
from p2pcards.table.policy import DISCONNECTED_MS
from p2pcards.wire import SignedMessage
from tests.table.helpers import GateRoom, identities, make_room, never, seeded_source

TIMEOUT_MS = 30_000
"""Longer than the connection clock: the others are asked because the laptop went quiet."""


def _people(n: int) -> tuple[GateRoom, list[tuple[int, out.YourTurn]]]:
    """``n`` people at a Durak table (a person is asked before its seat votes), every move scripted."""
    room = make_room("durak", n, seed=4, timeout_ms=TIMEOUT_MS)
    ids = identities(n)
    room.tables = [Table(room.genesis, i, ids[i], source=seeded_source(f"4/{i}"), person=True)
                   for i in range(n)]
    turns: list[tuple[int, out.YourTurn]] = []
    room.act = lambda i, turn: turns.append((i, turn))  # type: ignore[method-assign]
    room.start()
    room.run()
    return room, turns


def _play(room: GateRoom, turns: list[tuple[int, out.YourTurn]]) -> None:
    seat, turn = turns.pop(0)
    t = room.tables[seat]
    room.handle(seat, t.local_action(t.rules.action_text(turn.view.legal_actions[0])))
    room.run()


def _cut_off(to: int, frm: int, msg: SignedMessage) -> bool:
    return 2 in (to, frm)


def _asked(room: GateRoom, seat: int) -> list[out.SilentSeats]:
    return [e for e in room.of(seat, out.SilentSeats) if e.ask and e.seats == (2,)]


def _silent_at_its_turn_and_asked_about() -> tuple[GateRoom, list[tuple[int, out.YourTurn]], int]:
    """Seat 2's laptop goes quiet at its turn; seats 0 and 1 are asked about it.  Returns the time."""
    room, turns = _people(3)
    while not (turns and turns[0][0] == 2):
        _play(room, turns)
    room.hold = _cut_off
    now = 0
    while not (_asked(room, 0) and _asked(room, 1)):
        room.tick((0, 1), now, now + 500)
        now += 500
        assert now < 4 * DISCONNECTED_MS
    return room, turns, now


def test_a_player_back_while_the_others_are_asked_is_not_dealt_out_by_nobodys_answer() -> None:
    room, turns, now = _silent_at_its_turn_and_asked_about()
    room.hold = never
    room.held = []  # what was lost on the way is lost: the player's program catches up by itself
    deadline = max(e.auto_at or 0 for e in _asked(room, 0) + _asked(room, 1))
    room.tick((0, 1, 2), now, deadline + 3 * TIMEOUT_MS)  # the player is back, connected, thinking
    for seat in (0, 1):
        assert room.tables[seat].seats_out == {}, room.tables[seat].verdicts
        assert room.tables[seat].votes_held() == []
    _play(room, turns)  # the player moves: the question is moot, the hand goes on with them
    assert room.tables[0].seats_out == {} and len(room.digests()) == 1


def test_a_player_who_goes_quiet_again_is_dealt_out_at_the_deadline() -> None:
    """Back, then gone again before anyone answered: the others' programs go on at the deadline."""
    room, _, now = _silent_at_its_turn_and_asked_about()
    room.hold = never
    room.tick((0, 1, 2), now, now + 1_000)
    room.hold = _cut_off
    deadline = max(e.auto_at or 0 for e in _asked(room, 0) + _asked(room, 1))
    now += 1_000
    end = max(deadline, now + DISCONNECTED_MS) + 2 * TIMEOUT_MS
    while not all(room.tables[s].seats_out for s in (0, 1)) and now < end:
        room.tick((0, 1), now, now + 500)
        now += 500
    assert room.tables[0].seats_out == {2: "silent"} and room.tables[1].seats_out == {2: "silent"}
