"""A hostile seat cannot crash, stall or exhaust a replica (issue-level tests of the bounds)."""

from __future__ import annotations

import hashlib
from typing import Any

from p2pcards.deal.group import Q
from p2pcards.games.rng import Rng
from p2pcards.table import outputs as out
from p2pcards.table.catchup import RESPONSE_BYTES
from p2pcards.table.dealers import MentalDealer
from p2pcards.table.genesis import make_genesis
from p2pcards.table.replica import UNPLACED_BYTES_PER_PEER, Table
from p2pcards.wire import Envelope, WireError, initial_head, public_bytes, sign
from tests.table.helpers import Room, identities


def _signed(room: Room, seat: int, kind: str, body: Any, step: int = 0, prev: bytes | None = None) -> bytes:
    env = Envelope(
        game_id=room.genesis.game_id,
        step=step,
        seat=seat,
        prev=initial_head(room.genesis.game_id) if prev is None else prev,
        kind=kind,
        body=body,
    )
    return sign(env, identities(len(room.tables))[seat]).data


def _midgame(seed: int = 3) -> Room:
    room = Room.make("durak", 3, dealer="seeded", seed=seed)
    room.start()
    room.run(limit=120)
    return room


def test_catchup_answers_nested_a_thousand_deep_are_refused_flat_with_no_recursion() -> None:
    room = _midgame()
    inner = _signed(room, 1, "catchup_request", {"after": -1})
    depth = 0
    for _ in range(1000):
        try:
            inner = _signed(room, 1, "catchup_response", {"msgs": [inner]})
        except WireError:
            break
        depth += 1
    assert depth >= 900
    t = room.tables[0]
    before = t.digest()
    outputs = t.receive(1, inner)
    reasons = [o.reason for o in outputs if isinstance(o, out.Rejected)]
    assert reasons == ["nested"], "only the first level is opened, and what it holds is refused at once"
    assert t.digest() == before


def test_messages_for_far_steps_are_kept_within_the_byte_budget_and_released() -> None:
    room = _midgame()
    t = room.tables[0]
    for i in range(300):
        prev = hashlib.sha256(i.to_bytes(4, "big")).digest()
        t.receive(1, _signed(room, 1, "share", {"shares": [bytes(60_000)]}, step=500 + i, prev=prev))
    assert 0 < t.unplaced.bytes_of(1) <= UNPLACED_BYTES_PER_PEER
    assert t.unplaced.count() <= UNPLACED_BYTES_PER_PEER // 60_000
    room.run()  # the real game goes on as if nothing happened
    for now in range(0, 5000, 500):
        for i, tb in enumerate(room.tables):
            room.handle(i, tb.tick(now))
        room.run()
    assert all(tb.over for tb in room.tables) and len(room.digests()) == 1


def test_a_replayed_catchup_request_is_answered_once_per_interval_and_within_the_cap() -> None:
    room = Room.make("spades", 4, dealer="seeded", seed=2)
    room.start()
    room.run()
    t = room.tables[0]
    request = _signed(room, 1, "catchup_request", {"after": -1})
    sent = [o for _ in range(1000) for o in t.receive(1, request) if isinstance(o, out.Send)]
    assert len(sent) == 1
    assert len(sent[0].payload) <= RESPONSE_BYTES + 4096
    t.tick(10_000)
    assert len([o for o in t.receive(1, request) if isinstance(o, out.Send)]) == 1


def test_an_observer_ignores_catchup_requests() -> None:
    room = _midgame()
    observer = Table(room.genesis, None, None)
    observer.restore(room.journals[0])
    assert observer.receive(1, _signed(room, 1, "catchup_request", {"after": -1})) == []


def test_booleans_are_not_seats_and_every_replica_stays_in_step() -> None:
    room = _midgame()
    att = room.tables[0].attempt
    assert att is not None
    for body in ({"silent": [False]}, {"silent": [True]}, {"silent": ["1"]}):
        vote = _signed(room, 1, "void_vote", body, step=att.chain.step, prev=att.chain.head)
        for j in (0, 2):
            outputs = room.tables[j].receive(1, vote)
            assert [o.reason for o in outputs if isinstance(o, out.Rejected)] == ["bad vote"]
    room.run()
    assert len({t.digest() for t in room.tables}) == 1


def test_hand_keys_that_cancel_out_are_a_verdict_not_a_crash() -> None:
    """Two seats that collude so that x0 + x1 = 0: the joint key is the identity.  Every replica —
    an observer of the journal too — reaches a verdict instead of raising."""
    ids = identities(2)
    genesis = make_genesis("durak", [(f"p{i}", public_bytes(k)) for i, k in enumerate(ids)], dealer="mental")
    secret = 12345

    def colluding(seat: int) -> Any:
        def factory(hand: int, head: bytes, holders: tuple[int, ...]) -> MentalDealer:
            key = secret if seat == 0 else Q - secret
            return MentalDealer(genesis.game_id, genesis.rules().deck, hand, seat, holders, key=key)

        return factory

    tables = [Table(genesis, i, ids[i], dealer_factory=colluding(i)) for i in range(2)]
    room = Room(genesis, tables, Rng(1), [[], []], [{}, {}], [[], []])
    room.start()
    room.run()
    for i in range(2):
        faults = room.of(i, out.Fault)
        assert faults and faults[0].kind == "bad-message" and "sum to no key" in faults[0].message
    observer = Table(genesis, None, None)
    events = observer.restore(room.journals[0])
    assert any(isinstance(e, out.Fault) and "sum to no key" in e.message for e in events)
