"""The rule of SPEC §6.5 and §9.6 on the whole replica, one scenario per way it once broke.

Never double-sign: a seat restored from an old copy of its journal signs nothing new until its peers
said what they hold of it.
"""

from __future__ import annotations

from p2pcards.games import ActionError
from p2pcards.table import outputs as out
from p2pcards.wire import SignedMessage
from tests.table.review_drivers import GateRoom, make_room, observer_of, verdicts


def _scripted(room: GateRoom) -> list[tuple[int, out.YourTurn]]:
    """Nobody moves by itself: the test plays every move."""
    turns: list[tuple[int, out.YourTurn]] = []
    room.act = lambda i, turn: turns.append((i, turn))  # type: ignore[method-assign]
    return turns


def _play(room: GateRoom, turns: list[tuple[int, out.YourTurn]], pick: int = 0) -> int:
    seat, turn = turns.pop(0)
    t = room.tables[seat]
    room.handle(seat, t.local_action(t.rules.action_text(turn.view.legal_actions[pick])))
    room.run()
    return seat


def _to_a_choice_of(seat: int, room: GateRoom, turns: list[tuple[int, out.YourTurn]]) -> None:
    """Play until it is ``seat``'s turn a few steps into a hand, with more than one legal move."""
    t = room.tables[seat]
    while not (
        turns
        and turns[0][0] == seat
        and t.attempt is not None
        and t.chain.step > t.attempt.start_step + 4
        and len(turns[0][1].view.legal_actions) > 1
    ):
        _play(room, turns)


# ============================================================================ never double-sign


def _restored_behind_its_move(n: int, keeper: int) -> tuple[GateRoom, int]:
    """``n`` seats.  Seat 1 moves at step X; the move reaches seat ``keeper`` alone, and then nothing
    more comes from ``keeper`` (away, or a cheater keeping its catch-up answers back).  Seat 1's
    laptop loses its last write: it restarts from the copy of its journal taken before the move,
    and the clock runs well past ``CATCHUP_GRACE_MS``.  Its person, asked to move at X again, would
    pick another card."""
    room = make_room("durak", n, seed=4, series_hands=2)
    turns = _scripted(room)
    room.start()
    room.run()
    _to_a_choice_of(1, room, turns)
    t1 = room.tables[1]
    step = t1.chain.step
    old_copy = list(room.journals[1])
    room.hold = lambda to, frm, m: m.seat == 1 and m.kind == "action" and to != keeper
    _play(room, turns)  # seat 1 moves at step X: only the keeper gets it
    turns.clear()
    room.hold = lambda to, frm, m: keeper in (to, frm)
    room.restart(1, old_copy)
    room.run()
    room.tick([s for s in range(n) if s != keeper], 0, 8_000)
    if turns and turns[0][0] == 1:
        _play(room, turns, pick=-1)  # asked again, its person picks another card
    return room, step


def test_a_restored_seat_waits_for_an_away_peer_instead_of_signing_again() -> None:
    """Three honest seats; seat 2 got seat 1's move and is away.  The restored seat must not sign at
    step X again while a peer that may hold its move has not answered: it tells its person whom it
    waits for, refuses a move, and once seat 2 is back goes on with its earlier move.  Nobody — its
    own replica included — names it a cheater."""
    room, step = _restored_behind_its_move(3, keeper=2)
    t1 = room.tables[1]
    waits = [o for o in room.events[1] if isinstance(o, out.Restoring)]
    assert waits and 2 in waits[-1].seats, "the seat tells its person whom it waits for"
    try:
        room.handle(1, t1.local_action("take"))
    except ActionError as exc:
        assert "restarted" in str(exc)
    else:
        raise AssertionError("a restored seat took a move before its peers said what it signed")
    room.hold = lambda to, frm, m: False
    room.release()
    room.run()
    assert t1.chain.step > step, "its earlier move came back and it went on"
    for s in range(3):
        assert room.tables[s].cheaters == (), f"seat {s}: {verdicts(room.tables[s])}"
    assert observer_of(room.genesis, room.journals[1], perspective=1).cheaters == ()


def test_a_cheater_cannot_make_a_restored_seat_sign_again_by_keeping_its_answer_back() -> None:
    """Two seats; seat 0, a cheater, got seat 1's move, keeps its catch-up answers back, and once seat
    1 was asked to move again sends the earlier move.  Seat 1 must have signed nothing at step X in
    between: its own replica, and its journal read by ``verify``, convict nobody."""
    room, step = _restored_behind_its_move(2, keeper=0)
    t0_copy = room.tables[0]
    (earlier,) = [
        m for m in room.journals[0] if (msg := SignedMessage.from_bytes(m)).seat == 1 and msg.step == step
    ]
    room.deliver(1, 0, earlier)
    room.run()
    assert room.tables[1].cheaters == (), verdicts(room.tables[1])
    assert observer_of(room.genesis, room.journals[1], perspective=1).cheaters == ()
    assert t0_copy.cheaters == ()
