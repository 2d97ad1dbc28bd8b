"""SPEC §5.5: an action's `a` is exactly its text form; any other spelling is an illegal action."""

from dataclasses import dataclass, field

import pytest

from p2pcards.table import outputs as out
from p2pcards.wire import Envelope, sign
from tests.table.helpers import Room, identities


@dataclass
class OneSpelling(Room):
    """Seat 1 writes its first move its own way; every other move is the usual random one."""

    spelling: dict[str, str] = field(default_factory=dict)
    done: bool = False

    def act(self, i: int, turn: out.YourTurn) -> None:
        table = self.tables[i]
        if i != 1 or self.done:
            super().act(i, turn)
            return
        self.done = True
        att = table.attempt
        assert att is not None
        action = table.rules.action_text(turn.view.legal_actions[0])
        text = self.spelling.get(action, action.upper())
        body = {"a": text, "pos": [], "shares": []}
        env = Envelope(game_id=table.game_id, step=att.chain.step, seat=1, prev=att.chain.head,
                       kind="action", body=body)  # fmt: skip
        payload = sign(env, identities(len(self.tables))[1]).data
        for j in range(len(self.tables)):
            self.queue.append((j, 1, payload))


@pytest.mark.parametrize(("game", "players", "spelling"), [
    ("spades", 4, {"bid nil": "bid 0"}),
    ("spades", 4, {}),  # in capitals: "BID NIL", "BID 3"
    ("azi", 3, {}),  # "FOLD", "BET 10"
])  # fmt: skip
def test_a_move_not_written_in_its_text_form_names_its_seat(
    game: str, players: int, spelling: dict[str, str]
) -> None:
    room = OneSpelling.make(game, players, dealer="seeded", seed=7)
    room.spelling = spelling
    room.start()
    room.run()
    assert room.done
    for seat in (0, 2):
        faults = [f for f in room.of(seat, out.Fault) if f.kind == "illegal-action"]
        assert faults and faults[0].seat == 1, room.of(seat, out.Fault)
        assert "text form" in faults[0].message
