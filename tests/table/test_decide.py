"""The votes and what they decide: verdicts are true, no replica names its own seat, and the game goes on.

Each test is a scenario a cheating majority, a slow laptop or a restart can produce, and checks the
promise of DESIGN ("Faults, finality and the game going on") that an honest player relies on in it.
"""

from __future__ import annotations

import contextlib

from p2pcards.games import ActionError
from p2pcards.table import outputs as out
from p2pcards.table.attempt import Attempt
from p2pcards.table.replica import Table
from p2pcards.wire import SignedMessage
from tests.table.helpers import GateRoom, make_room, observer_of, signed_as, verdicts


def _first_moves(room: GateRoom) -> list[tuple[int, out.YourTurn]]:
    """Nobody moves by itself: the test plays every move (the first legal one)."""
    turns: list[tuple[int, out.YourTurn]] = []
    room.act = lambda i, turn: turns.append((i, turn))  # type: ignore[method-assign]
    return turns


def _play_first(room: GateRoom, turns: list[tuple[int, out.YourTurn]]) -> int:
    seat, turn = turns.pop(0)
    t = room.tables[seat]
    room.handle(seat, t.local_action(t.rules.action_text(turn.view.legal_actions[0])))
    room.run()
    return seat


def _to_the_turn_of(seat: int, room: GateRoom, into: int = 4) -> list[tuple[int, out.YourTurn]]:
    """Start ``room`` with every move played by the test, and play until it is ``seat``'s turn more
    than ``into`` steps into a hand (``into=-1``: its first turn); the turns still to play."""
    turns = _first_moves(room)
    room.start()
    room.run()
    t = room.tables[seat]
    while not (turns[0][0] == seat and t.attempt is not None and t.chain.step > t.attempt.start_step + into):
        _play_first(room, turns)
    return turns


def test_no_replica_records_its_own_seat_silent_at_a_step_it_played() -> None:
    """Seats 1 and 2 collude against seat 0 in a 3-seat Durak hand.  Seat 0 moves at step X; seat 1
    is awaited next and never moves.  Instead 1 and 2 vote that seat 0 was silent at step X — the
    step seat 0 just played, which its own replica holds.  The voters sent nothing after X, so
    nothing of theirs 'shows' they had seat 0's move.  Seat 0's own replica must refuse the votes
    (DESIGN: "No replica ever convicts its own seat"; "a replica that holds the named seat's message
    for that step refuses the vote"): it records no verdict against seat 0 and does not take seat 0
    out of the game."""
    room = make_room("durak", 3, seed=4)
    turns = _to_the_turn_of(0, room)
    t0 = room.tables[0]
    step, head = t0.chain.step, t0.chain.head
    _play_first(room, turns)
    assert t0.chain.step > step and 0 not in t0.waiting_for, "seat 0's move was taken at step X"
    for voter in (1, 2):
        room.deliver(0, voter, signed_as(room.genesis, voter, "void_vote", {"silent": [0]}, step, head))
    assert 0 not in t0.seats_out, f"seat 0 took itself out: {verdicts(t0)}"
    assert all(f.seat != 0 for f in t0.verdicts), verdicts(t0)


def _at_the_seal(n: int, slow: tuple[int, ...], at: int) -> tuple[GateRoom, Table, Attempt]:
    """An ``n``-seat Durak series at the seal of hand 0, the seals of ``slow`` held back: the room,
    seat ``at``'s replica and its complete attempt."""
    room = make_room("durak", n, seed=4, series_hands=2)
    room.hold = lambda to, frm, m: frm in slow and m.kind in ("seal", "catchup_response")
    room.start()
    room.run()
    table = room.tables[at]
    att = table.attempt
    assert att is not None and att.complete
    return room, table, att


def test_no_replica_records_its_own_seat_silent_at_a_seal_it_signed() -> None:
    """Seat 0 signs the seal of hand 0; seats 1 and 2 hold their seals back, vote that seat 0 was
    silent at the seal step, then seal.  Seat 0's replica holds its own seal for that step, so it
    must refuse those votes (DESIGN: "No replica ever convicts its own seat"): once every seal is in,
    it does not name seat 0 silent at that seal, and seat 0 stays in the game for hand 1."""
    room, t0, att = _at_the_seal(3, slow=(1, 2), at=0)
    assert t0.waiting_for == (1, 2)
    for voter in (1, 2):
        vote = signed_as(room.genesis, voter, "void_vote", {"silent": [0]}, att.seal_step, att.seal_prev)
        room.deliver(0, voter, vote)
    for s in (1, 2):
        other = room.tables[s].attempt
        assert other is not None
        room.deliver(0, s, other.seals[s].data)
    assert (0, "silent") not in verdicts(t0)
    assert 0 not in t0.seats_out


def _split_votes_at_the_seal() -> GateRoom:
    """Five seats; at the seal of hand 0 seat 3 vanishes for good and seat 4's seal is slow: it
    reaches seat 1 at once and the others only after they voted.  Seats 0 and 2 vote {3, 4}, seats 1
    and 4 vote {3}; then seat 4's seal reaches everyone."""
    room = make_room("durak", 5, seed=4, series_hands=3)

    def hold(to: int, frm: int, m: SignedMessage) -> bool:
        if 3 in (to, frm) and (m.kind == "catchup_response" or (m.seat == 3 and m.kind == "seal")):
            return True  # seat 3 is gone from its seal on
        slow = (m.kind == "seal" and m.seat == 4) or (m.kind == "catchup_response" and frm in (1, 4))
        return slow and to != 1

    room.hold = hold
    room.start()
    room.run()
    room.tick((0, 1, 2, 4), 0, 6_000)
    held = room.tables[0].votes_held()
    named = {v.seat: v.body["silent"] for v in held}  # type: ignore[index,call-overload]
    assert named == {0: (3, 4), 1: (3,), 2: (3, 4), 4: (3,)}, named
    room.hold = lambda to, frm, m: 3 in (to, frm)
    room.release()
    room.run()
    return room


def test_the_game_goes_on_when_honest_votes_named_different_silent_seats() -> None:
    """Seat 3 is gone for good; seat 4 was merely slow.  Every honest seat now holds seat 4's seal
    and waits for seat 3 alone, while the votes already cast disagree (``{3, 4}`` by two seats,
    ``{3}`` by two).  The game must go on all the same (DESIGN, "The game goes on"): within ten times
    the timeout each of the four honest seats is past hand 0 (or its match is over)."""
    room = _split_votes_at_the_seal()
    room.tick((0, 1, 2, 4), 6_000, 40_000)  # ten times the timeout
    for s in (0, 1, 2, 4):
        t = room.tables[s]
        assert t.hand_number >= 1 or t.over, f"seat {s} still waits at hand 0 for {t.waiting_for}"


def test_a_restarted_seat_never_equivocates_with_its_own_earlier_vote() -> None:
    """After the split votes above, honest seat 0 restarts from its complete journal and the clock
    runs past the timeout.  Its journal holds the vote it signed at that step, naming ``{3, 4}``; a
    second vote there, naming only seat 3 now that seat 4's seal has arrived, would be an
    equivocation.  A restart must never make an honest seat equivocate: no replica, seat 0's own
    included, names seat 0 a cheater."""
    room = _split_votes_at_the_seal()
    room.restart(0)
    room.run()
    room.tick((0, 1, 2, 4), 6_000, 20_000)
    for s in (0, 1, 2, 4):
        assert 0 not in room.tables[s].cheaters, f"seat {s}: {verdicts(room.tables[s])}"


def test_a_vote_is_spent_once_its_voter_plays_on_and_the_late_seat_is_never_dealt_out() -> None:
    """Three seats.  Seat 2's move at step X is late: seats 0 and 1 wait past the timeout and vote it
    silent (their votes are slow too).  Then seat 2's move arrives, and the next to move — a voter
    that has not yet seen the other's vote — plays on in the attempt with seat 2.  That voter's vote
    is spent (it signed something later): when the votes land they are one live vote of three and
    decide nothing, so no replica deals seat 2 out, and the three finish the series together."""
    room = make_room("durak", 3, seed=4, series_hands=2)
    turns = _to_the_turn_of(2, room)
    t2 = room.tables[2]
    room.hold = lambda to, frm, m: (
        (m.seat == 2 and m.kind == "action") or m.kind in ("void_vote", "catchup_response")
    )
    room.tick((0, 1), 0, 3_000)  # seats 0 and 1 vote seat 2 silent
    room.hold = lambda to, frm, m: m.kind in ("void_vote", "catchup_response")
    _play_first(room, turns)  # seat 2's late move reaches everyone; the votes are still on their way
    (mover, _), *_ = turns
    assert mover in (0, 1), "the next move is a voter's"
    _play_first(room, turns)  # the voter plays on in the attempt with seat 2
    room.hold = lambda to, frm, m: False
    room.release()
    room.run()
    assert [room.tables[s].seats_out for s in (0, 1, 2)] == [{}, {}, {}]
    for now in range(3_000, 10_000, 1_000):
        while turns:
            with contextlib.suppress(ActionError):  # a turn of an attempt voided meanwhile
                _play_first(room, turns)
        room.tick((0, 1, 2), now, now + 1_000, every=1_000)
    assert all(room.tables[s].over and room.tables[s].verdicts == [] for s in (0, 1, 2))
    assert len({room.tables[s].digest() for s in (0, 1, 2)}) == 1
    assert t2.hands_played and len(t2.hands_played) == len(room.tables[0].hands_played)


def test_the_last_of_two_cannot_blame_the_other_for_its_own_silence() -> None:
    """Two players.  Seat 0 moves at step X; seat 1 is awaited at X+1.  Instead of moving, seat 1 at
    once signs an ``abandon`` naming seat 0 silent at step X.  Seat 0's replica holds its own move
    for X, so it must refuse that blame (DESIGN: "No replica ever convicts its own seat"): it records
    no verdict naming seat 0 silent — the seat that stopped answering is seat 1."""
    room = make_room("durak", 2, seed=4, series_hands=2)
    turns = _to_the_turn_of(0, room)
    t0 = room.tables[0]
    step, head = t0.chain.step, t0.chain.head
    _play_first(room, turns)
    assert t0.waiting_for == (1,)
    room.deliver(0, 1, signed_as(room.genesis, 1, "abandon", {"silent": [0]}, step, head))
    assert (0, "silent") not in verdicts(t0)


def test_the_last_of_two_can_end_the_match_when_the_other_vanishes_at_the_seal() -> None:
    """Two players.  Seat 1 vanishes for good once hand 0 is played, before it seals.  DESIGN: "with
    two players left and one silent, the other may end the match alone (recorded as abandoned)".
    Seat 0 waits past twice the timeout and signs its ``abandon``, and that ends the match: within
    fifteen times the timeout seat 0's match is over and recorded as abandoned."""
    room = make_room("durak", 2, seed=4, series_hands=3)

    def gone_at_the_seal(to: int, frm: int, m: SignedMessage) -> bool:
        if frm != 1 or m.kind not in ("seal", "catchup_response"):
            return False
        return m.kind == "catchup_response" or m.body["hand"] == 0  # type: ignore[index,call-overload]

    room.hold = gone_at_the_seal
    room.start()
    room.run()
    t0 = room.tables[0]
    assert t0.attempt is not None and t0.attempt.complete and t0.waiting_for == (1,)
    room.hold = lambda to, frm, m: 1 in (to, frm)
    room.tick((0,), 0, 30_000)  # fifteen times the timeout
    assert t0.over and t0.abandoned, f"seat 0 still waits at hand {t0.hand_number} for {t0.waiting_for}"


def test_one_request_to_come_back_admits_a_seat_once() -> None:
    """Three seats, a four-hand series.  Seat 2 vanishes in hand 0 and is voted out; it sends one
    ``return`` request and is gone again.  The others admit it at the next seal, as they should, and
    it is voted out again in hand 1.  One request must admit it once, not at every later seal (which
    would deal each hand with seat 2, wait a whole timeout, void it and deal it again): the series is
    played out, four hands, with at most two hands voided."""
    room = make_room("durak", 3, seed=4, series_hands=4)
    room.start()
    t0 = room.tables[0]
    while room.queue and (t0.attempt is None or t0.chain.step < 6):
        room.run(limit=1)
    room.hold = lambda to, frm, m: 2 in (to, frm)
    room.run()
    asked = False
    for now in range(0, 60_000, 250):
        for s in (0, 1):
            room.handle(s, room.tables[s].tick(now))
        while room.queue and (asked or t0.seats_out != {2: "silent"}):
            room.run(limit=1)
        if not asked and t0.seats_out == {2: "silent"}:
            back = signed_as(room.genesis, 2, "return", {}, t0.chain.step, t0.chain.head)
            for s in (0, 1):
                room.deliver(s, 2, back)
            asked = True
        if t0.over:
            break
    assert asked and t0.over and len(t0.hands_played) == 4
    voids = [v.hand for v in room.of(0, out.HandVoid)]
    assert len(voids) <= 2, f"hands voided: {voids}; verdicts: {verdicts(t0)}"


def test_one_seat_cannot_end_a_four_seat_match_by_naming_two_others_silent() -> None:
    """Four seats; at the seal of hand 0 seat 0 at once signs an ``abandon`` naming seats 2 and 3
    silent, before their seals reach seat 1.  Half the table named is not enough: the match ends only
    when every seat not named signed the same end, and seat 1 did not: seat 1 neither ends the match
    nor records a verdict, and once the seals arrive seats 1, 2 and 3 play on into hand 1, none of
    them abandoned and seat 2 named silent by none."""
    room, t1, att = _at_the_seal(4, slow=(2, 3), at=1)
    assert set(t1.waiting_for) >= {2, 3}
    end = signed_as(room.genesis, 0, "abandon", {"silent": [2, 3]}, att.seal_step, att.seal_prev)
    room.deliver(1, 0, end)
    assert not t1.over and not t1.verdicts
    room.hold = lambda to, frm, m: False
    room.release()
    room.run()
    for t in room.tables[1:]:
        assert not t.abandoned and (2, "silent") not in verdicts(t) and t.hand_number >= 1


def test_one_seat_of_three_cannot_end_the_match_while_another_is_thinking() -> None:
    """Three seats.  While seat 0 thinks over its move, seat 1 signs an ``abandon`` naming seats 0 and
    2 silent (half the table or more, and every seat not named — seat 1 alone — signed it).  Seats 0
    and 2 are here: neither takes an end naming its own seat, nor names anyone; they play on."""
    room = make_room("durak", 3, seed=4, series_hands=2)
    turns = _to_the_turn_of(0, room, into=-1)
    t0 = room.tables[0]
    assert t0.waiting_for == (0,)
    end = signed_as(room.genesis, 1, "abandon", {"silent": [0, 2]}, t0.chain.step, t0.chain.head)
    told = {seat: room.deliver(seat, 1, end) for seat in (0, 2)}
    for seat in (0, 2):
        t = room.tables[seat]
        assert not t.over and not t.verdicts, verdicts(t)
        assert any(isinstance(o, out.VotesContradicted) for o in told[seat]), "the seat is told"
    _play_first(room, turns)
    assert room.tables[0].waiting_for != (0,)


def test_a_minority_cannot_end_the_match_through_a_seat_that_restarted() -> None:
    """Three seats, seat 2 a cheater.  Seat 0 restarts while seat 1 thinks over its move; seat 2 signs
    an end naming seats 0 and 1 at the open step.  Its word binds only its own voice: neither the
    restarted seat nor the thinking one takes it, both are told, and the game goes on when seat 1
    moves.  Read as seat 0's journal or as nobody's, the end binds nobody either."""
    room = make_room("durak", 3, seed=4)
    turns = _to_the_turn_of(1, room)
    t1 = room.tables[1]
    step, head = t1.chain.step, t1.chain.head
    t0 = room.restart(0)
    end = signed_as(room.genesis, 2, "abandon", {"silent": [0, 1]}, step, head)
    for s in (0, 1):
        room.deliver(s, 2, end)
    room.run()
    for t in (t0, t1):
        assert not t.over and t.seats_out == {} and t.verdicts == []
        assert not t.left_behind, "a minority's word leaves nobody behind"
    told = room.of(1, out.VotesContradicted)
    assert told[-1].voters == (2,) and not told[-1].majority
    _play_first(room, turns)
    assert t0.chain.step > step and t1.chain.step > step, "seat 1 moved and both went on"
    assert not observer_of(room.genesis, room.journals[0], perspective=0).over
    assert not observer_of(room.genesis, room.journals[0]).over


def test_an_old_vote_cannot_be_completed_by_a_cheater_once_its_voter_went_on() -> None:
    """Three seats.  Seat 1 votes seat 0 silent at step X (seat 0 was slow); seat 0 then plays and seat
    1 plays on after it.  Later the cheater, seat 2, adds its vote for step X: seat 1's vote is spent,
    so one live vote of three decides nothing and seat 0 is dealt out nowhere."""
    room = make_room("durak", 3, seed=4)
    turns = _to_the_turn_of(0, room)
    t0 = room.tables[0]
    step, head = t0.chain.step, t0.chain.head
    early = signed_as(room.genesis, 1, "void_vote", {"silent": [0]}, step, head)
    for s in (0, 2):
        room.deliver(s, 1, early)
    room.handle(1, room.tables[1].receive(None, early))
    t1 = room.tables[1]
    while turns and not (t1.attempt is not None and t1.attempt.signed_after(step, 1)):
        _play_first(room, turns)
    assert t1.attempt is not None and t1.attempt.signed_after(step, 1), "seat 1 played on after step X"
    late = signed_as(room.genesis, 2, "void_vote", {"silent": [0]}, step, head)
    for s in (0, 1):
        room.deliver(s, 2, late)
    room.run()
    for s in (0, 1):
        assert room.tables[s].seats_out == {} and room.tables[s].verdicts == [], verdicts(room.tables[s])
