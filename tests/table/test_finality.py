"""Sealed hands are final and verdicts are true (the trust model of the design, issue-level tests)."""

from __future__ import annotations

from typing import Any

import pytest

from p2pcards.table import outputs as out
from p2pcards.wire import Envelope, Equivocation, SignedMessage, initial_head, sign
from tests.table.helpers import Room, identities


def _finished(game: str = "durak", n: int = 3, dealer: str = "seeded", seed: int = 4) -> Room:
    room = Room.make(game, n, dealer=dealer, seed=seed)
    room.start()
    room.run()
    assert all(t.over for t in room.tables)
    return room


def _signed(room: Room, seat: int, kind: str, body: Any, step: int, prev: bytes) -> bytes:
    env = Envelope(game_id=room.genesis.game_id, step=step, seat=seat, prev=prev, kind=kind, body=body)
    return sign(env, identities(len(room.tables))[seat]).data


def _an_action_of(room: Room, seat: int) -> SignedMessage:
    for payload in room.journals[seat]:
        msg = SignedMessage.from_bytes(payload)
        if msg.kind == "action" and msg.seat == seat:
            return msg
    raise AssertionError(f"seat {seat} never moved")


def _deliver_to_all(room: Room, payload: bytes, frm: int) -> None:
    for j in range(len(room.tables)):
        if j != frm:
            room.queue.append((j, frm, payload))
    room.run()


def test_every_hand_ends_with_every_seats_seal_before_it_counts() -> None:
    room = _finished("spades", 4, seed=3)
    for i in range(4):
        sealed = room.of(i, out.Sealed)
        overs = room.of(i, out.HandOver)
        assert [s.hand for s in sealed] == [h.hand for h in overs] == list(range(len(overs)))
        assert all(s.seats == (0, 1, 2, 3) for s in sealed)
        assert len(room.tables[i].hands_played) == len(sealed)
    seals = [SignedMessage.from_bytes(p) for p in room.journals[0]]
    assert sum(m.kind == "seal" for m in seals) == 4 * len(room.of(0, out.Sealed))


def test_a_late_second_message_for_a_sealed_step_names_its_signer_and_erases_nothing() -> None:
    room = _finished("durak", 3, seed=4)
    before = [(len(t.hands_played), t.digest()) for t in room.tables]
    first = _an_action_of(room, 2)
    twin = _signed(room, 2, "action", {"a": "take", "pos": [], "shares": []}, first.step, first.prev)
    assert twin != first.data
    _deliver_to_all(room, twin, 2)
    for i in (0, 1):
        t = room.tables[i]
        assert (len(t.hands_played), t.digest()) == before[i], "a sealed hand was taken away"
        assert t.over and t.cheaters == (2,)
        (fault,) = [f for f in t.verdicts if f.seat == 2]
        assert fault.kind == "equivocation" and fault.step == first.step


def test_evidence_relayed_by_anyone_convicts_the_signer_never_the_relayer() -> None:
    room = _finished("durak", 3, seed=5)
    first = _an_action_of(room, 1)
    twin = SignedMessage.from_bytes(
        _signed(room, 1, "action", {"a": "pass", "pos": [], "shares": []}, first.step, first.prev)
    )
    evidence = Equivocation.of(first, twin).to_body()
    # Seat 0 relays it, at step 0, after the match: only seat 1 signed the conflicting messages.
    relayed = _signed(room, 0, "evidence", evidence, 0, initial_head(room.genesis.game_id))
    room.handle(2, room.tables[2].receive(0, relayed))
    room.run()
    for i in range(3):
        assert room.tables[i].cheaters == (1,), i
    assert all(f.seat == 1 for t in room.tables for f in t.verdicts)


def test_forged_evidence_is_refused_and_convicts_nobody() -> None:
    room = _finished("durak", 3, seed=5)
    zeros = [SignedMessage.from_bytes(p) for p in room.journals[0]]
    zeros = [m for m in zeros if m.seat == 0 and m.kind in ("action", "share")][:2]
    forged = _signed(
        room,
        1,
        "evidence",
        Equivocation.of(zeros[0], zeros[1]).to_body(),
        0,
        initial_head(room.genesis.game_id),
    )
    outputs = room.tables[2].receive(1, forged)
    assert [o.reason for o in outputs if isinstance(o, out.Rejected)] == ["bad evidence"]
    assert room.tables[2].cheaters == ()


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ({"silent": [0]}, "final"),  # a step of a sealed hand
        ({"silent": [False]}, "seat numbers"),
        ({"silent": [True]}, "seat numbers"),
        ({"silent": []}, "at least one"),
        ({"silent": [2, 1]}, "ascending"),
        ({"silent": [9]}, "ascending"),
        ({"silent": [0], "extra": 1}, "exactly the keys"),
    ],
)
def test_votes_about_sealed_hands_or_not_naming_seats_are_refused(body: Any, why: str) -> None:
    room = _finished("durak", 3, seed=6)
    first = _an_action_of(room, 0)
    vote = _signed(room, 1, "void_vote", body, first.step, first.prev)
    t = room.tables[2]
    before = (t.digest(), len(t.hands_played), t.verdicts[:])
    outputs = t.receive(1, vote)
    (refusal,) = [o for o in outputs if isinstance(o, out.Rejected)]
    assert refusal.reason == "bad vote" and why in refusal.detail
    assert (t.digest(), len(t.hands_played), t.verdicts) == before


def test_a_vote_in_the_hand_being_played_must_name_awaited_seats_fewer_than_half() -> None:
    room = Room.make("durak", 4, dealer="seeded", seed=8)
    room.act = lambda i, turn: None  # type: ignore[method-assign]  # nobody moves: the hand waits
    room.start()
    room.run()
    t = room.tables[0]
    att = t.attempt
    assert att is not None and att.awaiting == "action"
    (mover,) = att.awaited_at(att.step)
    others = [s for s in range(4) if s != mover]
    step, head = att.chain.step, att.chain.head
    cases = [
        (others[0], {"silent": sorted([mover, others[1]])}, "fewer than half"),
        (others[0], {"silent": [others[1]]}, "not all awaited"),
        (others[0], {"silent": [others[0]]}, "never itself"),
    ]
    for voter, body, why in cases:
        outputs = t.receive(voter, _signed(room, voter, "void_vote", body, step, head))
        (refusal,) = [o for o in outputs if isinstance(o, out.Rejected)]
        assert refusal.reason == "bad vote" and why in refusal.detail, refusal
    # A vote for a step nobody has reached is held, not counted, and not a verdict.
    t.receive(others[0], _signed(room, others[0], "void_vote", {"silent": [mover]}, step + 78, head))
    assert t.verdicts == [] and t.attempt is att


def test_a_seat_restored_from_an_old_copy_of_its_journal_never_equivocates() -> None:
    room = Room.make("spades", 4, dealer="mental", seed=2)
    room.start()
    room.run(limit=400)
    seat = 2
    old = list(room.journals[seat][: len(room.journals[seat]) // 2])
    from p2pcards.table.replica import Table

    revived = Table(room.genesis, seat, identities(4)[seat], secrets=room.secrets[seat])
    room.tables[seat] = revived
    room.journals[seat] = old
    room.handle(seat, revived.restore(old))
    for now in range(0, 20_000, 500):
        for i, t in enumerate(room.tables):
            room.handle(i, t.tick(now))
        room.run()
    assert all(t.over for t in room.tables)
    assert len(room.digests()) == 1
    assert all(t.verdicts == [] for t in room.tables)
