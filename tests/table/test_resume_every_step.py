"""Kill a peer at every step of a hand and restart it from its journal: the game ends the same."""

from __future__ import annotations

from p2pcards.table import outputs as out
from p2pcards.table.replica import Table
from tests.table.helpers import Room, identities


class FirstMoveRoom(Room):
    """Every seat plays its first legal move, so a run depends on nothing but the deal."""

    def act(self, i: int, turn: out.YourTurn) -> None:
        t = self.tables[i]
        self.handle(i, t.local_action(t.rules.action_text(turn.view.legal_actions[0])))


def _play(kill_at: int | None) -> FirstMoveRoom:
    room = FirstMoveRoom.make("durak", 2, dealer="seeded", seed=3)
    room.start()
    if kill_at is not None:
        while room.queue and room.tables[1].chain.step < kill_at:
            room.run(limit=1)
        # Seat 1 dies: its memory and every frame on its way to it are lost; its journal is not.
        room.queue = type(room.queue)((j, i, p) for j, i, p in room.queue if j != 1)
        revived = Table(room.genesis, 1, identities(2)[1], secrets=room.secrets[1])
        room.tables[1] = revived
        room.handle(1, revived.restore(list(room.journals[1])))
    room.run()
    return room


def test_killed_at_any_step_of_a_hand_a_peer_resumes_and_the_game_ends_the_same():
    baseline = _play(None)
    assert all(t.over for t in baseline.tables)
    final = baseline.tables[0].digest()
    steps = baseline.tables[0].chain.step
    for kill_at in range(steps):
        room = _play(kill_at)
        assert all(t.over for t in room.tables), f"killed at step {kill_at}: the game did not finish"
        assert {t.digest() for t in room.tables} == {final}, f"killed at step {kill_at}: another ending"
