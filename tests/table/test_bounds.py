"""A hostile seat cannot crash, stall or exhaust a replica: nothing a peer sends makes an honest replica
use unbounded memory, journal or CPU, and a flood does not slow down the rest of the game.

Speed is never asserted by time here: the work is counted (messages journalled, relayed, scanned).
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from p2pcards.deal.group import Q
from p2pcards.games.rng import Rng
from p2pcards.table import outputs as out
from p2pcards.table import replica
from p2pcards.table.catchup import RESPONSE_BYTES
from p2pcards.table.dealers import MentalDealer
from p2pcards.table.genesis import make_genesis
from p2pcards.table.replica import UNPLACED_BYTES_PER_PEER, Table
from p2pcards.table.unplaced import Peer, Unplaced
from p2pcards.wire import Envelope, SignedMessage, WireError, authenticate, initial_head, public_bytes, sign
from tests.table.helpers import Room, identities, make_room, signed_as


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


def test_return_requests_cannot_grow_the_journal_without_bound() -> None:
    """Seat 1 is playing (nobody voted it out) and sends 500 ``return`` requests, each bound to
    another step and head.  What they cost the honest replica must be bounded, however many the
    attacker signs: of the 500, at most six are journalled (``Persist``) and at most six relayed
    (``Send``) — not a journal record and n-1 relays for each 150-byte message."""
    room = make_room("durak", 3, seed=3)
    room.start()
    room.run(limit=120)
    t = room.tables[0]
    journalled = relayed = 0
    for k in range(500):
        head = hashlib.sha256(k.to_bytes(4, "big")).digest()
        for o in t.receive(1, signed_as(room.genesis, 1, "return", {}, k, head)):
            journalled += isinstance(o, out.Persist)
            relayed += isinstance(o, out.Send)
    assert journalled <= 6 and relayed <= 6, f"{journalled} records journalled, {relayed} relays"


class _CountingUnplaced(Unplaced):
    """The unplaced buffer, counting how many held messages each look at it goes through."""

    scanned = 0

    def take(
        self, prev: bytes, step: int | None = None, *, certificates: bool = False
    ) -> list[tuple[Peer, SignedMessage]]:
        _CountingUnplaced.scanned += len(self._by_prev.get(prev, ()))
        return super().take(prev, step, certificates=certificates)


def test_a_future_step_flood_costs_bounded_work_per_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 1 sends small signed messages (149 bytes each) for steps a little ahead, after heads that
    will never come; its 1 MiB budget holds 7,000 of them, this test sends 1,000, and every one is
    held.  The rest of the game must not pay for them on every frame it receives: it still ends, and
    the held messages looked at, counted over the whole game, stay linear in the frames received (at
    most eight looks per frame on average), not quadratic in the flood."""
    monkeypatch.setattr(replica, "Unplaced", _CountingUnplaced)
    room = make_room("durak", 3, seed=3)
    room.start()
    room.run(limit=120)
    t = room.tables[0]
    _CountingUnplaced.scanned = 0
    flood = 1_000
    for k in range(flood):
        head = hashlib.sha256(k.to_bytes(4, "big")).digest()
        t.receive(1, signed_as(room.genesis, 1, "action", {}, t.chain.step + 5 + k % 3, head))
    assert t.unplaced.count() == flood
    frames_before = room.frames
    room.run()
    assert all(tb.over for tb in room.tables)
    frames = flood + room.frames - frames_before
    # Work linear in what arrived: each held message looked at a bounded number of times in all.
    assert _CountingUnplaced.scanned <= 8 * frames, f"{_CountingUnplaced.scanned} looks for {frames} frames"


def test_a_replayed_catchup_answer_is_checked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """DESIGN: "each byte is decoded and each signature checked at most once".  Seat 1 sends, without
    being asked, one catch-up answer holding 300 signed messages that the replica refuses (setup
    steps after other heads), then replays it verbatim four times.  The replays must not check the
    messages inside again: at most one signature check per message inside and one per delivery of
    the answer, 305 in all (so that an answer of 1 MiB replayed in a loop costs the receiver at most
    one check per frame, not thousands)."""
    checked = 0
    real = authenticate

    def counting(*args: Any, **kwargs: Any) -> Any:
        nonlocal checked
        checked += 1
        return real(*args, **kwargs)

    monkeypatch.setattr("p2pcards.table.ingest.authenticate", counting)
    room = make_room("durak", 3, seed=3)
    room.start()
    room.run(limit=120)
    t = room.tables[0]
    inner = [
        signed_as(room.genesis, 1, "coin_commit", bytes(32), 1, hashlib.sha256(k.to_bytes(4, "big")).digest())
        for k in range(300)
    ]
    answer = signed_as(
        room.genesis, 1, "catchup_response", {"msgs": inner}, 0, initial_head(room.genesis.game_id)
    )
    checked = 0
    for _ in range(5):
        t.receive(1, answer)
    assert checked <= len(inner) + 5, f"{checked} signature checks for {len(inner) + 1} distinct messages"
