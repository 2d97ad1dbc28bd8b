"""The derivation is order independent: replicas that hold the same messages reach the same state.

The derivation must be a function of the set of messages held, whatever order they arrived in
(DESIGN, "Faults, finality and the game going on"; ``Table`` docstring).  Each test delivers one set
of messages in two orders.
"""

from __future__ import annotations

import pytest

from p2pcards.games.rng import Rng
from p2pcards.table import replica
from p2pcards.wire import SignedMessage
from tests.table.helpers import GateRoom, make_room, observer_of, signed_as, verdicts


def _votes_race_the_last_seal() -> tuple[GateRoom, dict[int, dict[int, bytes]], dict[int, bytes]]:
    """Four seats, a three-hand Durak series.  Seat 3's seal of hand 1 is slow.  Seats 0-2 wait past
    the timeout and vote seat 3 silent at that seal.  Returns the room, the votes held back (by
    receiver, then voter) and seat 3's seal (by receiver)."""
    room = make_room("durak", 4, seed=4, series_hands=3)

    def slow_seal(m: SignedMessage) -> bool:
        return m.seat == 3 and m.kind == "seal" and m.body["hand"] == 1  # type: ignore[index,call-overload]

    room.hold = lambda to, frm, m: slow_seal(m) or (frm == 3 and m.kind == "catchup_response")
    room.start()
    room.run()
    assert [t.waiting_for for t in room.tables[:3]] == [(3,)] * 3, "hands 0-2 wait for seat 3's seal"
    # Seats 0-2 vote; every vote (and every catch-up answer, which would carry them) is held back.
    room.hold = lambda to, frm, m: slow_seal(m) or m.kind in ("catchup_response", "void_vote")
    room.tick((0, 1, 2), 0, 3_000)
    votes: dict[int, dict[int, bytes]] = {}
    seal: dict[int, bytes] = {}
    for to, _frm, payload in room.held:
        m = SignedMessage.from_bytes(payload)
        if m.kind == "void_vote":
            votes.setdefault(to, {})[m.seat] = payload
        elif slow_seal(m):
            seal[to] = payload
    room.held = []
    room.hold = lambda to, frm, m: False
    assert sorted(votes[0]) == [1, 2] and sorted(votes[1]) == [0, 2] and 0 in seal and 1 in seal
    return room, votes, seal


def test_replicas_holding_the_same_seals_and_votes_deal_the_next_hand_alike() -> None:
    """Seat 0 receives the two votes, then seat 3's seal; seat 1 receives seat 3's seal, then the two
    votes.  Seat 1 went on into hand 2 with seat 3 before the votes came, so its vote is spent; once
    the two hold what the other signed meanwhile they must deal hand 2 alike: the same hand number,
    the same seats out and the same digest (else their hand-2 attempts would start from different
    heads and never meet again)."""
    room, votes, seal = _votes_race_the_last_seal()
    for voter in (1, 2):
        room.deliver(0, voter, votes[0][voter])
    room.deliver(0, 3, seal[0])
    room.deliver(1, 3, seal[1])
    for voter in (0, 2):
        room.deliver(1, voter, votes[1][voter])
    room.run()
    t0, t1 = room.tables[0], room.tables[1]
    assert t0.hand_number == t1.hand_number >= 2
    assert t0.seats_out == t1.seats_out, (t0.seats_out, t1.seats_out)
    assert t0.digest() == t1.digest()


def test_an_observer_reaches_one_result_from_one_set_of_seals_and_votes() -> None:
    """The messages of the race above, given to two observers: one sees the votes before seat 3's
    last seal, the other sees the seal first.  One set of messages must give one next hand: both
    observers reach hand 2 with the same seats out."""
    room, votes, seal = _votes_race_the_last_seal()
    journal = room.journals[0]  # everything seat 0 accepted, its own vote last
    assert SignedMessage.from_bytes(journal[-1]).kind == "void_vote"
    the_votes = [journal[-1], votes[0][1], votes[0][2]]
    votes_first = observer_of(room.genesis, [*journal[:-1], *the_votes, seal[0]])
    seal_first = observer_of(room.genesis, [*journal[:-1], seal[0], *the_votes])
    assert votes_first.hand_number == seal_first.hand_number == 2
    assert votes_first.seats_out == seal_first.seats_out, (votes_first.seats_out, seal_first.seats_out)


def test_a_journal_restores_to_the_same_game_in_any_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Table.restore`` takes "accepted messages in any order".  A two-hand series journal, more
    than four times the per-peer budget for messages that fit nowhere yet, is restored by two
    observers: one in order, one shuffled.  The one in order reaches the end and the digest of the
    seat that wrote it, and the shuffled one must reach the same game: as many hands played and the
    same digest, however many records it had to hold before they fitted.  (The budget is lowered
    here so the journal need not be large.)"""
    monkeypatch.setattr(replica, "UNPLACED_BYTES_PER_PEER", 8 * 1024)
    room = make_room("durak", 3, seed=4, series_hands=2)
    room.start()
    room.run()
    journal = room.journals[0]
    assert all(t.over for t in room.tables) and sum(map(len, journal)) > 4 * 8 * 1024
    in_order = observer_of(room.genesis, journal)
    assert in_order.over and in_order.digest() == room.tables[0].digest()
    shuffled = list(journal)
    Rng("review/shuffle").shuffle(shuffled)
    again = observer_of(room.genesis, shuffled)
    assert (len(again.hands_played), again.digest()) == (len(in_order.hands_played), in_order.digest())


def test_a_cheat_in_the_setup_ends_alike_on_every_honest_replica() -> None:
    """Seat 2 signs two coin reveals for step 2: the true one goes to seat 0, a false one to seat 1.
    Seat 1 checks the false one first (a bad coin reveal); seat 0 gets it later, as the second half
    of an equivocation.  Both end up holding the same messages, so both must end alike: stopped on
    both or on neither, over on both or on neither, the same digest, and every verdict on either
    naming seat 2 — never an honest seat named silent."""
    room = make_room("durak", 3, seed=4, series_hands=2)

    def to_seat_1(to: int, frm: int, m: SignedMessage) -> bool:
        return to == 1 and ((m.seat == 2 and m.kind == "coin_reveal") or m.kind == "catchup_response")

    room.hold = to_seat_1
    room.start()
    room.run()
    (true_reveal,) = {p for _, _, p in room.held if SignedMessage.from_bytes(p).kind == "coin_reveal"}
    m = SignedMessage.from_bytes(true_reveal)
    room.hold = lambda to, frm, m: False
    room.release()
    room.queue.appendleft((1, 2, signed_as(room.genesis, 2, "coin_reveal", bytes(32), m.step, m.prev)))
    room.run()
    room.tick((0, 1, 2), 0, 20_000)
    t0, t1 = room.tables[0], room.tables[1]
    assert (t0.stopped is None, t0.over) == (t1.stopped is None, t1.over), (t0.stopped, t1.stopped)
    assert t0.digest() == t1.digest()
    assert all(f.seat == 2 for t in (t0, t1) for f in t.verdicts), (verdicts(t0), verdicts(t1))


def test_a_cheater_equivocating_on_its_seal_cannot_split_the_next_hands_seating() -> None:
    """Four seats.  Seat 3 vanishes and is voted out; it asks to come back while hand 0 is dealt
    again, and every seat still playing admits it in its seal.  Seat 2 signs two seals for that step:
    ``admit [3]`` to seat 0, ``admit []`` to seat 1.  Once each holds both seals, seats 0 and 1 must
    name seat 2 alone a cheater and agree on the next hand's seating whichever seal came first: the
    same seats out and the same digest (else hand 1 would be dealt differently on each, for good)."""
    room = make_room("durak", 4, seed=4, series_hands=4)
    room.start()
    t0 = room.tables[0]
    while room.queue and (t0.attempt is None or t0.chain.step < 6):
        room.run(limit=1)

    def seal_of_2(m: SignedMessage) -> bool:
        return m.seat == 2 and m.kind == "seal" and m.body["hand"] == 0  # type: ignore[index,call-overload]

    room.hold = lambda to, frm, m: (
        3 in (to, frm) or seal_of_2(m) or (m.kind == "catchup_response" and frm == 2)
    )
    room.run()
    asked = False

    def at_the_seal() -> bool:
        att = t0.attempt
        return asked and att is not None and att.complete and att.hand == 0 and sorted(att.seals) == [0, 1]

    for now in range(0, 8_000, 250):
        if at_the_seal():
            break
        for s in (0, 1, 2):
            room.handle(s, room.tables[s].tick(now))
        while room.queue and not at_the_seal():
            room.run(limit=1)
            if not asked and t0.seats_out == {3: "silent"}:
                att = t0.attempt
                assert att is not None
                back = signed_as(room.genesis, 3, "return", {}, att.chain.step, att.chain.head)
                for s in (0, 1, 2):
                    room.deliver(s, 3, back)
                asked = True
    assert at_the_seal()
    (seal,) = {p for _, _, p in room.held if seal_of_2(SignedMessage.from_bytes(p))}
    m = SignedMessage.from_bytes(seal)
    assert m.body["admit"] == (3,)  # type: ignore[index,call-overload]
    twin = signed_as(room.genesis, 2, "seal", {**m.body, "admit": []}, m.step, m.prev)  # type: ignore[dict-item]
    room.held = []
    room.hold = lambda to, frm, m: 3 in (to, frm)
    room.deliver(0, 2, seal)
    room.deliver(1, 2, twin)
    room.run()  # each now holds both seals: seat 2 is named on both
    t1 = room.tables[1]
    assert t0.cheaters == t1.cheaters == (2,)
    assert t0.seats_out == t1.seats_out, (t0.seats_out, t1.seats_out)
    assert t0.digest() == t1.digest()


def test_a_word_at_the_last_seal_counts_whether_it_comes_before_or_after_the_seals() -> None:
    """Seats 0 and 1 go on by their own word at the seal of hand 1, naming seats 2 and 3 silent.  Two
    observers read seat 0's journal: one holds the two abandons before seat 3's slow seal, the other
    after it (when hand 1 is final already and hand 2 being dealt).  One set of messages, one
    outcome: both excuse seats 2 and 3 there and play on without them, unconfirmed."""
    room, _votes, seal = _votes_race_the_last_seal()
    journal = room.journals[0][:-1]  # without seat 0's own vote
    t0 = room.tables[0]
    att = t0.attempt
    assert att is not None and att.complete
    step, prev = att.seal_step, att.seal_prev
    ends = [signed_as(room.genesis, s, "abandon", {"silent": [2, 3]}, step, prev) for s in (0, 1)]
    ends_first = observer_of(room.genesis, [*journal, *ends, seal[0]], perspective=0)
    seal_first = observer_of(room.genesis, [*journal, seal[0], *ends], perspective=0)
    for t in (ends_first, seal_first):
        assert t.seats_out == {2: "unconfirmed", 3: "unconfirmed"} and t.hand_number == 2
        assert sorted(verdicts(t)) == [(2, "silent"), (3, "silent")]
    assert len(ends_first.hands_played) == len(seal_first.hands_played) == 2
    nobody = observer_of(room.genesis, [*journal, seal[0], *ends])
    assert nobody.seats_out == {}, "read as nobody's journal, their word binds nobody"
    assert ends_first.digest() == seal_first.digest()
