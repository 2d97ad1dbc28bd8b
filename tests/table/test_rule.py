"""The rule of SPEC §6.5 and §9.6 on the whole replica, one scenario per way it once broke.

Never double-sign (a seat restored from an old copy of its journal), consent names a decision (a
``return`` accepts one majority decision, never a minority's word), every voice spends (an old vote
is never completed once the table went on, whoever signed it), and a seat named by a minority alone
is never told that the others play on without it.
"""

from __future__ import annotations

from p2pcards.games import ActionError
from p2pcards.table import outputs as out
from p2pcards.wire import SignedMessage
from tests.table.helpers import GateRoom, make_room, observer_of, signed_as, verdicts


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


# ============================================================================ consent names a decision


def _vote(room: GateRoom, voters: tuple[int, ...], silent: list[int], step: int, head: bytes,
          to: tuple[int, ...]) -> None:
    for voter in voters:
        vote = signed_as(room.genesis, voter, "void_vote", {"silent": silent}, step, head)
        for s in to:
            room.deliver(s, voter, vote)
    room.run()


def test_a_return_consents_to_one_majority_decision_never_to_a_lone_abandon() -> None:
    """Four seats, seat 3 a cheater.  Seat 3 goes silent at step Y and the three others vote it out; in
    the hand dealt again, seat 2 is slow and seats 0 and 1 — a majority of the three voices left —
    vote it out; seat 2 consents with a ``return``.  Then seat 3 signs an abandon at a step before Y
    of the first attempt, naming seats 0, 1 and 2.  That abandon is seat 3's word alone: seat 2
    consented to the majority's decision, to nothing else, so its replica must neither end its match
    nor play another attempt than the others — read live or from its journal."""
    room = make_room("durak", 4, seed=4, series_hands=3)
    turns = _scripted(room)
    room.start()
    room.run()
    t0, t2 = room.tables[0], room.tables[2]
    earlier: tuple[int, bytes] | None = None
    while not (turns and turns[0][0] == 3 and earlier is not None):
        if turns and turns[0][0] != 3:
            earlier = (t0.chain.step, t0.chain.head)
        _play(room, turns)
    first = t0.attempt
    assert earlier is not None and first is not None and not first.signed_after(earlier[0], 3)
    turns.clear()
    _vote(room, (0, 1, 2), [3], t0.chain.step, t0.chain.head, to=(0, 1, 2))
    assert t0.seats_out == {3: "silent"} and t0.attempt is not first
    while not (turns and turns[0][0] == 2 and t0.chain.step > earlier[0]):
        _play(room, turns)
    turns.clear()
    _vote(room, (0, 1), [2], t0.chain.step, t0.chain.head, to=(0, 1, 2))
    assert t2.left_behind and t0.seats_out == {2: "silent", 3: "silent"}
    room.handle(2, t2.ask_to_return())
    room.run()
    assert t2.seats_out == t0.seats_out and t2.digest() == t0.digest()
    lone = signed_as(room.genesis, 3, "abandon", {"silent": [0, 1, 2]}, *earlier)
    for s in (0, 1, 2):
        room.deliver(s, 3, lone)
    room.run()
    assert not t2.over and not t2.abandoned, verdicts(t2)
    assert t2.seats_out == t0.seats_out and t2.digest() == t0.digest()
    assert observer_of(room.genesis, room.journals[2], perspective=2).digest() == t2.digest()


# ============================================================================ a minority's word


def test_a_seat_named_by_a_lone_abandon_is_not_told_to_come_back() -> None:
    """Three seats; while seat 0 thinks, the cheater (seat 1) signs an abandon naming seats 0 and 2.
    That binds seat 1 alone: seats 0 and 2 are told (``VotesContradicted``, not a majority), but not
    left behind — their screens must not offer ``return`` — and ``return`` changes nothing."""
    room = make_room("durak", 3, seed=4)
    turns = _scripted(room)
    room.start()
    room.run()
    t0 = room.tables[0]
    while not (turns and turns[0][0] == 0):
        _play(room, turns)
    end = signed_as(room.genesis, 1, "abandon", {"silent": [0, 2]}, t0.chain.step, t0.chain.head)
    for s in (0, 2):
        told = room.deliver(s, 1, end)
        assert any(isinstance(o, out.VotesContradicted) and not o.majority for o in told)
        assert not room.tables[s].left_behind
    assert room.tables[0].ask_to_return() == []
    _play(room, turns)
    assert not t0.over and t0.seats_out == {} and t0.verdicts == []


# ============================================================================ every voice spends


def test_an_old_vote_of_watchers_is_never_completed_once_the_table_went_on() -> None:
    """Azi, five seats, three of them out of chips and watching.  Two honest watchers vote a slow
    player silent; the player then plays on with the other for several steps; the cheating watcher
    then completes the old vote.  The table went on past that step: the vote is spent, whoever
    signed it, and no replica voids the hand or deals the player out."""
    room = make_room("azi", 5, seed=1, bankroll=3, ante=1)
    turns = _scripted(room)
    room.start()
    room.run()
    t0 = room.tables[0]

    def keep_playing() -> None:
        """Play a card, call or check before anything else: the hand goes on."""
        seat, turn = turns[0]
        texts = [room.tables[seat].rules.action_text(a) for a in turn.view.legal_actions]
        for word in ("play", "call", "check", "bet"):
            picks = [k for k, text in enumerate(texts) if text.startswith(word)]
            if picks:
                _play(room, turns, picks[0])
                return
        _play(room, turns)

    for _ in range(200):
        att = t0.attempt
        two_play = att is not None and len(att.holders) == 2 and len(att.at_table) == 5
        if two_play and att is not None and att.chain.step > att.start_step + 2:
            break
        keep_playing()
    att = t0.attempt
    assert att is not None and len(att.holders) == 2 and len(att.at_table) == 5, "two play, three watch"
    watchers = [s for s in range(5) if s not in att.holders]
    slow = turns[0][0]
    step, head = t0.chain.step, t0.chain.head
    for w in watchers[:2]:
        vote = signed_as(room.genesis, w, "void_vote", {"silent": [slow]}, step, head)
        for s in range(5):
            room.deliver(s, w, vote)
    for _ in range(3):
        keep_playing()
    assert t0.attempt is att and t0.chain.step > step + 2, "the table went on in the same hand"
    late = signed_as(room.genesis, watchers[2], "void_vote", {"silent": [slow]}, step, head)
    for s in range(5):
        room.deliver(s, watchers[2], late)
    room.run()
    for s in range(5):
        t = room.tables[s]
        assert slow not in t.seats_out and not t.over, f"seat {s}: {verdicts(t)}"
    assert len(room.digests()) == 1


def test_a_restored_seat_waiting_for_an_away_peer_still_signs_what_cannot_differ() -> None:
    """Mental dealer, three seats.  Seat 1 signs its key commitment for hand 0, which reaches seat 2
    alone; seat 2 goes away and seat 1 restarts from the journal copy taken before it.  While it
    waits for seat 2 it must not move or vote, but a key commitment is the same bytes whenever it is
    signed (SPEC §12): it signs it again, seat 0 gets it, and when seat 2 comes back with the first
    copy nobody is named a cheater."""
    room = make_room("durak", 3, dealer="mental", seed=4)
    room.act = lambda i, turn: None  # type: ignore[method-assign]
    setup = ("genesis", "coin_commit", "coin_reveal")
    room.hold = lambda to, frm, m: (frm == 2 and m.kind not in setup) or (
        m.seat == 1 and m.kind == "key_commit" and to != 2
    )
    room.start()
    for _ in range(10_000):
        if any(SignedMessage.from_bytes(p).kind == "key_commit" for p in room.journals[1]):
            break
        room.run(limit=1)
    old_copy = [p for p in room.journals[1] if SignedMessage.from_bytes(p).kind != "key_commit"]
    room.run()
    att = room.tables[0].attempt
    assert att is not None and not att.holds(att.start_step, 1)
    room.hold = lambda to, frm, m: 2 in (to, frm)
    room.restart(1, old_copy)
    room.run()
    room.tick((0, 1), 0, 1_500)
    t1 = room.tables[1]
    assert t1.waiting_for == (1, 2) or 1 not in t1.waiting_for
    assert [o.seats for o in room.events[1] if isinstance(o, out.Restoring)][-1] == (2,)
    assert att.holds(att.start_step, 1), "seat 0 got seat 1's key commitment again"
    room.hold = lambda to, frm, m: False
    room.release()
    room.run()
    assert [t.cheaters for t in room.tables] == [(), (), ()]


def test_a_restored_seat_votes_again_in_the_same_bytes_so_a_silent_peer_stops_nothing() -> None:
    """Three seats; the step awaits seat 2, which stays silent and keeps its catch-up answers back.
    Seat 1 votes it silent; that vote reaches seat 2 alone, and seat 1's laptop loses the write: it
    restarts from the journal copy taken before it.  Waiting for seat 2's answer it may sign nothing
    that could differ, but a vote at a step that awaits one other voice names that voice whenever it
    is signed (``claims.repeats``): it votes again, in the same bytes, with seat 0 they are more than
    half, and the table goes on without seat 2.  When seat 2 shows the first copy, nobody is named a
    cheater.  (Before, the restored seat signed no vote: one silent peer stopped the table.)"""
    room = make_room("durak", 3, seed=4, series_hands=2)
    turns = _scripted(room)
    room.start()
    room.run()
    while not ((att := room.tables[0].attempt) is not None and att.missing == (2,) and att.step > 8):
        _play(room, turns)
    turns.clear()
    step = att.step
    old_copy = list(room.journals[1])
    # Seat 2 sends nothing; seats 0 and 1 hear nothing of each other (a vote also travels in catch-up
    # answers, and is relayed).
    room.hold = lambda to, frm, m: frm == 2 or {to, frm} == {0, 1}
    room.tick((0, 1), 0, 6_000)

    def votes_of_seat_1(journal: list[bytes]) -> list[bytes]:
        return [p for p in journal if (m := SignedMessage.from_bytes(p)).kind == "void_vote" and m.seat == 1]

    (first,) = votes_of_seat_1(room.journals[1])
    assert SignedMessage.from_bytes(first).step == step
    room.held = [h for h in room.held if SignedMessage.from_bytes(h[2]).seat != 1]  # lost with the laptop
    room.hold = lambda to, frm, m: 2 in (to, frm)
    room.restart(1, old_copy)
    room.release()
    room.run()
    room.tick((0, 1), 6_000, 12_000)
    t0, t1 = room.tables[0], room.tables[1]
    assert t1.waiting_for != (), "seat 2 never answered: seat 1 still waits"
    assert votes_of_seat_1(room.journals[1]) == [first], "it voted again, the same message"
    assert t0.seats_out.get(2) == "silent" and t1.seats_out.get(2) == "silent", "and they went on"
    room.hold = lambda to, frm, m: False
    room.deliver(0, 2, first)
    room.release()
    room.run()
    assert [t.cheaters for t in room.tables] == [(), (), ()]
