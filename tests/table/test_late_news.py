"""News that comes late, on the whole replica: a proof against a seat long dealt out, a hand the others
played to its end after a verdict this replica never took, a restored seat whose match ended by what
it held so far, a consent its runner signed that never reached a computer player.  Every honest
replica that holds the same messages reaches the same state, in whatever order they came (SPEC §7),
and one that lacks some keeps asking for them.
"""

from __future__ import annotations

import pytest

from p2pcards.table import bodies, derive
from p2pcards.table import outputs as out
from p2pcards.table.attempt import Attempt
from p2pcards.table.replica import Table
from p2pcards.wire import CERTIFICATE_KINDS, SignedMessage, initial_head
from tests.table.helpers import GateRoom, Room, make_room, observer_of, signed_as
from tests.table.test_rule import _play, _scripted


def _voted_out_then_caught() -> tuple[GateRoom, bytes]:
    """Durak, three seats, two hands.  Seat 2 falls silent at its move in hand 0 and seats 0 and 1
    (a majority) vote it out; they play the hand to its end without it and hand 1 begins.  Then a
    second, different message of seat 2 for a step of hand 0 it signed before reaches seat 0, which
    convicts it.  Returns the room and that message."""
    room = make_room("durak", 3, seed=4, series_hands=2)
    turns = _scripted(room)
    room.start()
    room.run()
    for _ in range(3):
        _play(room, turns)
    signed = [
        m
        for m in map(SignedMessage.from_bytes, room.journals[0])
        if m.seat == 2 and m.step >= 3 and m.kind not in CERTIFICATE_KINDS
    ]
    room.hold = lambda to, frm, m: 2 in (to, frm)
    turns.clear()
    room.tick([0, 1], 0, 2_500)
    t0 = room.tables[0]
    assert t0.seats_out == {2: "silent"} and t0.hand_number == 0
    while t0.hand_number == 0:
        _play(room, turns)
    assert len(t0.finals) == 1 and t0.seats_out == {2: "silent"}
    last = signed[-1]
    again = signed_as(room.genesis, 2, last.kind, {"again": 1}, last.step, last.prev)
    room.deliver(0, 2, again)
    room.run()
    assert t0.cheaters == (2,)
    return room, again


def test_a_seat_dealt_out_in_an_earlier_hand_and_convicted_later_is_out_as_a_cheater() -> None:
    """SPEC §7.6: a seat voted silent and convicted later is out as ``cheat``.  The replica that
    convicted it during hand 1 once kept saying ``silent`` (what hand 0 carried), while one that
    held the proof before it closed hand 0 — the same messages — said ``cheat``."""
    room, _ = _voted_out_then_caught()
    t0 = room.tables[0]
    assert t0.seats_out == {2: "cheat"}
    restored = observer_of(room.genesis, room.journals[0], perspective=0)
    assert restored.seats_out == {2: "cheat"}
    assert restored.digest() == t0.digest()


def test_a_hand_played_to_its_end_after_a_vote_counts_where_the_proof_came_first() -> None:
    """The others took the majority's vote against seat 2 and played hand 0 to its end before seat 2
    was convicted.  A replica that holds the proof first deals hand 0 again without the cheater: it
    must still find the hand that was played after the vote (a complete attempt wins, SPEC §7.1),
    though the cheater found in the attempt before it came first — once it never looked for it, and
    stayed in hand 0 for ever."""
    room, _ = _voted_out_then_caught()
    t0 = room.tables[0]
    journal = room.journals[0]
    proofs = [p for p in journal if SignedMessage.from_bytes(p).kind == "evidence"]
    assert proofs
    proof_first = observer_of(room.genesis, proofs + [p for p in journal if p not in proofs], perspective=0)
    assert len(proof_first.finals) == 1 and proof_first.hand_number == 1
    assert proof_first.digest() == t0.digest()


def test_a_restored_seat_whose_match_is_over_still_asks_the_peer_it_waits_for() -> None:
    """A seat restored after the match ended; what it asked of seat 2 and seat 2's answer are lost.
    Its match is over by what it holds, but what it lacks could be a hand from which the match goes
    on (SPEC §7.5): it asks again at its retries, and the wait ends with seat 2's answer."""
    room = make_room("durak", 3, seed=4, series_hands=1)
    room.start()
    room.run()
    assert room.tables[1].over
    room.hold = lambda to, frm, m: 2 in (to, frm)
    t1 = room.restart(1)
    room.run()
    room.held.clear()  # lost on the way
    room.hold = lambda to, frm, m: False
    assert t1.over and list(t1.restoring_from) == [2]
    room.tick([1], 0, 3_000)
    assert not t1.restoring_from
    assert t1.digest() == room.tables[0].digest()


def _answer(table: Table, asker: int) -> list[bytes]:
    """What ``table`` answers a catch-up request of seat ``asker``."""
    game_id = table.genesis.game_id
    request = signed_as(table.genesis, asker, "catchup_request", {"after": 2}, 0, initial_head(game_id))
    answers = [
        o for o in table.receive(asker, request) if isinstance(o, out.Send) and o.to == asker
    ]
    [answer] = answers
    return list(bodies.catchup_response_body(SignedMessage.from_bytes(answer.payload).body))


def test_a_voices_consent_reaches_its_computer_player_in_catch_up_and_nobody_else() -> None:
    """Spades, seat 0's machine also plays seat 1.  Seat 0's return is its voice's consent, which binds
    seat 1's replica too; sent once to seat 1, it may be lost on the way, and then seat 1 never takes
    the decision its voice accepted (it stayed in a hand the others had ended).  So seat 0 serves its
    consents in catch-up to its own computer player — and to nobody else, where a consent would
    read as a request to be dealt in again."""
    room = Room.make("spades", 4, computers=((1, 0),))
    room.start()
    room.run()
    t0 = room.tables[0]
    head = t0.chain.head
    consent = signed_as(room.genesis, 0, "return", {}, t0.chain.step, head)
    room.handle(0, t0.receive(None, consent))
    assert consent in room.journals[0]
    assert consent in _answer(t0, 1)
    assert consent not in _answer(t0, 2)


def test_a_hand_played_to_its_end_along_one_of_a_cheaters_two_versions_is_found_from_either() -> None:
    """Seat 2 signs a second version of one of its moves of a hand the table played to its end along
    the first.  A replica that holds both — a seat restored from an old copy of its journal, which
    the cheater told the second version first, or ``verify`` reading the journal in another order —
    once followed whichever came first and lost the hand the others sealed: now it finds that hand
    along either version (SPEC §7.1), and reaches the others' state."""
    room = make_room("durak", 3, seed=4, series_hands=1)
    room.start()
    room.run()
    t0 = room.tables[0]
    assert t0.over and len(t0.finals) == 1
    moves = [m for m in map(SignedMessage.from_bytes, room.journals[0]) if m.seat == 2 and m.kind == "action"]
    first = moves[len(moves) // 2]
    second = signed_as(room.genesis, 2, first.kind, {"again": 1}, first.step, first.prev)
    room.deliver(0, 2, second)
    room.run()
    assert t0.cheaters == (2,) and len(t0.finals) == 1
    second_first = observer_of(room.genesis, [second, *room.journals[0]], perspective=0)
    assert len(second_first.finals) == 1 and second_first.over
    assert second_first.digest() == t0.digest()


def test_a_cheater_signing_many_second_versions_costs_a_bounded_number_of_replays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each second version may be the one the others played on, so the attempt is played along it
    again — at most ``MAX_FORKS`` times a hand, whatever the cheater signs: a version costs it
    nothing, a replay costs every replica a hand's checks."""
    room = make_room("durak", 3, seed=4, series_hands=1)
    room.start()
    room.run()
    t0 = room.tables[0]
    moves = [m for m in map(SignedMessage.from_bytes, room.journals[0]) if m.seat == 2 and m.kind == "action"]
    assert len(moves) > derive.MAX_FORKS + 2
    versions = [signed_as(room.genesis, 2, m.kind, {"again": 1}, m.step, m.prev) for m in moves]
    replays: list[bytes] = []
    fork = derive.Derivation._fork

    def counted(self: derive.Derivation, att: Attempt, key: bytes, alt: SignedMessage) -> None:
        replays.append(key)
        fork(self, att, key, alt)

    monkeypatch.setattr(derive.Derivation, "_fork", counted)
    reader = observer_of(room.genesis, [*versions, *room.journals[0]], perspective=0)
    assert len(replays) == derive.MAX_FORKS
    assert reader.cheaters == (2,)

    # A few, each told first, are all replayed past: the hand the table sealed is found.
    replays.clear()
    few = versions[:3]
    reader = observer_of(room.genesis, [*few, *room.journals[0]], perspective=0)
    assert len(replays) == 3
    assert len(reader.finals) == 1 and reader.over
    assert reader.digest() == observer_of(room.genesis, room.journals[0], perspective=0).digest()
    assert [a.seal_prev for _, a in reader.finals] == [a.seal_prev for _, a in t0.finals]
