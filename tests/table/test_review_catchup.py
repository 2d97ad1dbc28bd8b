"""Review of catch-up: a seat that restarts catches up from its peers, whatever else they hold."""

from __future__ import annotations

import pytest

from p2pcards.wire import Equivocation, SignedMessage, initial_head
from tests.table.review_drivers import make_room, signed_as, verdicts


@pytest.mark.parametrize(
    "padding",
    [
        pytest.param(1024, id="small-evidence"),
        pytest.param(
            250 * 1024,
            id="large-evidence",
            marks=pytest.mark.xfail(
                strict=True,
                reason="_history_after puts every evidence ever held first in every answer, and "
                "catchup.batch cuts an answer at RESPONSE_BYTES without skipping: two 513 KiB "
                "evidences fill every answer, so no step is ever served",
            ),
        ),
    ],
)
def test_a_restarted_seat_catches_up_after_two_cheaters_were_named(padding: int) -> None:
    """Four seats.  Seats 2 and 3 each prove themselves equivocators with two signed ``shuffle``
    messages padded to ``padding`` bytes (a shuffle may be 256 KiB), then go quiet; seats 0 and 1
    play on.  Seat 1 dies while seat 0's move is on its way to it, and restarts from its journal: it
    needs that move from seat 0's catch-up answer.  With large evidence every answer holds the first
    evidence and nothing else (768 KB, re-sent every second): seat 1 never gets the move, and after
    twice the timeout each of the two honest seats ends the match naming the other silent."""
    room = make_room("durak", 4, seed=5)
    muted: set[int] = set()
    room.hold = lambda to, frm, m: bool(muted & {to, frm})
    room.start()
    t0 = room.tables[0]
    while t0.attempt is None or t0.chain.step < t0.attempt.start_step + 3:
        room.run(limit=1)
    room.run(limit=20)
    for cheat in (2, 3):
        pair = [
            SignedMessage.from_bytes(
                signed_as(room.genesis, cheat, "shuffle", {key: bytes(padding)}, 10**6, bytes(32))
            )
            for key in ("x", "y")
        ]
        body = Equivocation.of(*pair).to_body()
        evidence = signed_as(room.genesis, cheat, "evidence", body, 0, initial_head(room.genesis.game_id))
        for honest in (0, 1):
            room.deliver(honest, cheat, evidence)
    muted |= {2, 3}
    assert [t.cheaters for t in room.tables[:2]] == [(2, 3), (2, 3)]
    # Play on until seat 0 has moved and its move is on its way to seat 1.
    while True:
        room.run(limit=1)
        nxt = room.queue[0] if room.queue else None
        if (
            nxt is not None
            and nxt[:2] == (1, 0)
            and SignedMessage.from_bytes(nxt[2]).kind == "action"
            and t0.chain.step > t0.attempt.start_step + 6
        ):
            break
    room.restart(1)
    room.run()
    room.tick((0, 1), 0, 30_000)
    for s in (0, 1):
        t = room.tables[s]
        assert t.over and not t.abandoned, f"seat {s}: over={t.over} abandoned={t.abandoned}"
        assert sorted(verdicts(t)) == [(2, "equivocation"), (3, "equivocation")], verdicts(t)
