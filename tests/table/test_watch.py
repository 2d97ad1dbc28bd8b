"""A seat the others voted out watches them play on (SPEC §6.5: watching is consent to the majority's
decision, never a request to be dealt in again; issue 30, blocker 1: a watcher saw nothing, ended
with standings all 0 and a match unfinished for ever)."""

from __future__ import annotations

from p2pcards.table import outputs as out
from tests.table.helpers import GateRoom, make_room, observer_of, signed_as


def _scripted(room: GateRoom) -> list[tuple[int, out.YourTurn]]:
    turns: list[tuple[int, out.YourTurn]] = []
    room.act = lambda i, turn: turns.append((i, turn))  # type: ignore[method-assign]
    return turns


def _play(room: GateRoom, turns: list[tuple[int, out.YourTurn]]) -> None:
    seat, turn = turns.pop(0)
    t = room.tables[seat]
    room.handle(seat, t.local_action(t.rules.action_text(turn.view.legal_actions[0])))
    room.run()


def _voted_out_at_its_turn(series_hands: int) -> tuple[GateRoom, list[tuple[int, out.YourTurn]]]:
    """Three people; seat 2 is silent at its turn and seats 0 and 1 (a majority) vote it out."""
    room = make_room("durak", 3, seed=4, series_hands=series_hands)
    turns = _scripted(room)
    room.start()
    room.run()
    t0 = room.tables[0]
    while not (turns and turns[0][0] == 2 and t0.chain.step > 8):
        _play(room, turns)
    turns.clear()
    for voter in (0, 1):
        vote = signed_as(room.genesis, voter, "void_vote", {"silent": [2]}, t0.chain.step, t0.chain.head)
        for s in (0, 1, 2):
            room.deliver(s, voter, vote)
    room.run()
    assert room.tables[2].left_behind and t0.seats_out == {2: "silent"}
    return room, turns


def test_a_watcher_follows_the_others_to_the_end_of_the_match_without_asking_back() -> None:
    room, turns = _voted_out_at_its_turn(series_hands=2)
    t0, t2 = room.tables[0], room.tables[2]
    watched = t2.watch()
    # The consent is this voice's alone: sent to the table it would read as a request to come back.
    signed = [o.payload for o in watched if isinstance(o, out.Persist) and o.own]
    assert len(signed) == 1
    assert not any(isinstance(o, out.Send) and o.payload in signed for o in watched)
    room.handle(2, watched)
    room.run()
    assert not t2.left_behind and not t2.returning
    assert t2.seats_out == t0.seats_out and t2.digest() == t0.digest()
    assert t2.attempt is not None and 2 not in t2.attempt.active  # no turn of its own to show
    while not t0.over:
        assert turns and all(seat != 2 for seat, _ in turns)
        _play(room, turns)
    assert t2.over and t2.digest() == t0.digest()
    assert t2.match is not None and t0.match is not None
    assert t2.match.standings() == t0.match.standings()
    assert len(room.of(2, out.HandOver)) == len(room.of(0, out.HandOver))
    assert not room.of(0, out.ReturnAsked) and not room.of(1, out.ReturnAsked)
    assert observer_of(room.genesis, room.journals[2], perspective=2).digest() == t2.digest()


def test_asking_back_after_watching_is_a_request_at_the_hand_being_played() -> None:
    """Watching consents to being out, not to staying out: `return` later deals the seat in again."""
    room, turns = _voted_out_at_its_turn(series_hands=3)
    t0, t2 = room.tables[0], room.tables[2]
    room.handle(2, t2.watch())
    room.run()
    room.handle(2, t2.ask_to_return())
    room.run()
    assert t2.returning
    while t0.hand_number == 0:
        _play(room, turns)
    assert t0.seats_out == {} and t0.attempt is not None and 2 in t0.attempt.active
    assert t2.digest() == t0.digest()


def test_watching_after_a_minoritys_word_signs_nothing() -> None:
    """A lone abandon binds its signer alone: the seat it names is not left behind, and watching
    consents to nothing (its replica keeps its own view of the game)."""
    room = make_room("durak", 3, seed=4)
    turns = _scripted(room)
    room.start()
    room.run()
    t0 = room.tables[0]
    while not (turns and turns[0][0] == 0):
        _play(room, turns)
    lone = signed_as(room.genesis, 1, "abandon", {"silent": [0, 2]}, t0.chain.step, t0.chain.head)
    room.deliver(0, 1, lone)
    journal = len(room.journals[0])
    assert t0.watch() == [] and len(room.journals[0]) == journal and not t0.left_behind
