"""Review of the bounds: nothing a peer sends makes an honest replica use unbounded memory, journal
or CPU, and a flood does not slow down the rest of the game.

Speed is never asserted by time here: the work is counted (messages journalled, relayed, scanned).
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from p2pcards.table import outputs as out
from p2pcards.table import replica
from p2pcards.table.unplaced import Peer, Unplaced
from p2pcards.wire import SignedMessage, authenticate, initial_head
from tests.table.review_drivers import make_room, signed_as


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

    monkeypatch.setattr("p2pcards.table.replica.authenticate", counting)
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
