"""SPEC §5.7: what a seal signs is a function of specified values only."""

import pytest

from p2pcards.table import bodies
from tests.protocol import spec
from tests.table.helpers import Room


@pytest.mark.parametrize(("game", "players", "options"), [("durak", 2, {}), ("azi", 3, {"hands": 1})])
def test_the_seal_signs_the_hand_digest_and_the_encoded_standings(
    game: str, players: int, options: dict[str, int]
) -> None:
    room = Room.make(game, players, dealer="seeded", seed=7, **options)
    room.start()
    room.run()
    table = room.tables[0]
    assert table.over and table.finals
    for hand, attempt in table.finals:
        assert attempt.settled is not None
        standings = attempt.settled.standings().encode()
        expected = spec.seal_result(hand, attempt.state.digest(), standings, attempt.settled.over)
        for seat, seal in attempt.seals.items():
            body = bodies.seal_body(seal.body, players)
            assert body.result == expected, f"seat {seat}'s seal of hand {hand}"
            assert body.hand == hand and body.over == attempt.settled.over
