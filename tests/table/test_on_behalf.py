"""What a seat's program does on its person's behalf without asking (issue 30, item 5; SPEC §10).

A player whose frames still arrive is connected: a person thinking.  The others' programs ask their
people whether to go on without them, and go on only if a person answers yes — never at the
question's deadline with nobody answering.  A computer seat's frames count for its runner.  (That a
player really gone is dealt out at the deadline with nobody answering is in ``test_back``.)"""

from __future__ import annotations

from p2pcards.table import make_genesis
from p2pcards.table import outputs as out
from p2pcards.wire import public_bytes
from tests.table.helpers import GateRoom, Turns, identities, people_room

TIMEOUT_MS = 30_000


def _people(n: int, computers: tuple[tuple[int, int], ...] = ()) -> tuple[GateRoom, Turns]:
    """A Durak table of ``n`` seats, every one a person's but ``computers`` (seat, runner)."""
    ids = identities(n)
    genesis = make_genesis("durak", [(f"p{i}", public_bytes(k)) for i, k in enumerate(ids)], dealer="seeded",
                           seed=4, timeout_ms=TIMEOUT_MS, computers=computers)
    return people_room(genesis, ids, 4)


def _play(room: GateRoom, turns: Turns) -> int:
    seat, turn = turns.pop(0)
    t = room.tables[seat]
    room.handle(seat, t.local_action(t.rules.action_text(turn.view.legal_actions[0])))
    room.run()
    return seat


def _thinks_past_the_clock(room: GateRoom, turns: Turns, thinker: int) -> None:
    """Play until it is ``thinker``'s turn; then every program runs (the thinker's sends its retries:
    it is connected) for ten move clocks while nobody answers any question."""
    moved: list[int] = []
    while not (moved and turns and turns[0][0] == thinker):
        moved.append(_play(room, turns))
    room.tick(range(len(room.tables)), 0, 10 * TIMEOUT_MS)
    asked = [e for i in range(len(room.tables)) for e in room.of(i, out.SilentSeats) if e.ask]
    assert asked, "the others' people are asked whether to go on"


def _same_result_to_the_end(room: GateRoom, turns: Turns) -> None:
    """The thinker moves at last; the match is played to its end: every laptop holds one result."""
    for _ in range(2_000):
        if not turns:
            break
        _play(room, turns)
    assert all(t.over and t.stopped is None for t in room.tables)
    assert len(room.digests()) == 1
    assert all(t.seats_out == {} and not t.verdicts for t in room.tables)


def test_two_voices_a_connected_host_thinking_is_not_abandoned_by_the_joiners_program() -> None:
    room, turns = _people(2)
    _thinks_past_the_clock(room, turns, 0)
    joiner = room.tables[1]
    assert not joiner.over and joiner.stopped is None and joiner.verdicts == [], joiner.verdicts
    assert not [f for f in room.of(1, out.Fault)], "the joiner's program ended the match by itself"
    _same_result_to_the_end(room, turns)


def test_three_voices_a_connected_host_and_its_computer_player_are_not_voted_out_by_nobodys_answer() -> None:
    room, turns = _people(4, computers=((1, 0),))
    _thinks_past_the_clock(room, turns, 0)
    for seat in range(4):
        assert room.tables[seat].seats_out == {}, (seat, room.tables[seat].verdicts)
        assert room.tables[seat].votes_held() == []
    _same_result_to_the_end(room, turns)


def test_a_person_who_answers_yes_still_goes_on_without_a_connected_player() -> None:
    """Only the person decides against a connected player: a yes is a yes."""
    room, turns = _people(3)
    while not (turns and turns[0][0] == 0):
        _play(room, turns)
    now = 0
    while not all(any(e.ask for e in room.of(i, out.SilentSeats)) for i in (1, 2)):
        room.tick(range(3), now, now + 500)
        now += 500
        assert now < 4 * TIMEOUT_MS
    for i in (1, 2):
        room.handle(i, room.tables[i].decide_silent(True))
    room.run()
    room.tick(range(3), now, now + 5_000)
    assert all(0 in t.seats_out for t in room.tables[1:]), [t.verdicts for t in room.tables]
    assert room.tables[1].digest() == room.tables[2].digest()
