"""Catch-up: a seat that restarts catches up from its peers, whatever else they hold."""

from __future__ import annotations

import pytest

from p2pcards.table import outputs as out
from p2pcards.wire import Equivocation, SignedMessage, initial_head
from tests.table.helpers import make_room, signed_as, verdicts


@pytest.mark.parametrize(
    "padding",
    [
        pytest.param(1024, id="small-evidence"),
        pytest.param(250 * 1024, id="large-evidence"),
    ],
)
def test_a_restarted_seat_catches_up_after_two_cheaters_were_named(padding: int) -> None:
    """Four seats.  Seats 2 and 3 each prove themselves equivocators with two signed ``shuffle``
    messages padded to ``padding`` bytes (a shuffle may be 256 KiB), then go quiet; seats 0 and 1
    play on.  Seat 1 dies while seat 0's move is on its way to it, and restarts from its journal: it
    needs that move from seat 0's catch-up answer.  However large the evidence its peers hold, the
    catch-up answers must bring seat 1 that move: both honest seats finish the match, not abandoned,
    and the only verdicts on either are the two equivocations — neither names the other silent."""
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


def test_one_peers_empty_answer_does_not_make_a_restored_seat_sign_again() -> None:
    """Seat 1 moves at step X, then its laptop is restored from a copy of its journal taken just before
    (issue 11: "a seat whose journal is restored from an older copy").  It asks every peer to catch it
    up and must sign nothing new until it has heard what it said.  Seat 2 answers first, at once and
    empty (a hostile seat, or one that is behind).  One empty answer must not end that wait: should
    seat 1 be asked to move at step X again, its player picks another card here, and a second move
    there would be an equivocation.  No replica, seat 1's own included, may name honest seat 1 a
    cheater."""
    room = make_room("durak", 3, seed=4, series_hands=2)
    turns: list[tuple[int, out.YourTurn]] = []
    room.act = lambda i, turn: turns.append((i, turn))  # type: ignore[method-assign]
    room.start()
    room.run()

    def play(pick: int) -> None:
        seat, turn = turns.pop(0)
        t = room.tables[seat]
        room.handle(seat, t.local_action(t.rules.action_text(turn.view.legal_actions[pick])))
        room.run()

    t1 = room.tables[1]
    while not (
        turns[0][0] == 1
        and t1.attempt is not None
        and t1.chain.step > t1.attempt.start_step + 4
        and len(turns[0][1].view.legal_actions) > 1
    ):
        play(0)
    old_copy = list(room.journals[1])
    play(0)  # seat 1 moves at step X; every replica holds the move
    turns.clear()
    room.restart(1, old_copy)
    empty = signed_as(
        room.genesis, 2, "catchup_response", {"msgs": []}, 0, initial_head(room.genesis.game_id)
    )
    room.deliver(1, 2, empty)
    if turns and turns[0][0] == 1:
        play(-1)  # asked again, the person picks another card
    room.run()
    for s in range(3):
        assert 1 not in room.tables[s].cheaters, f"seat {s}: {verdicts(room.tables[s])}"
