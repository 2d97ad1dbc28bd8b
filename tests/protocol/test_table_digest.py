"""SPEC §7.6: the table digest is a function of specified values, encoded canonically."""

from p2pcards.table.replica import Table
from tests.protocol import spec
from tests.table.helpers import Room, genesis_for, identities


def test_the_digest_of_a_table_that_has_not_started() -> None:
    g = genesis_for("durak", 3)
    table = Table(g, 0, identities(3)[0])
    start = spec.initial_head(g.game_id)
    assert table.digest() == spec.table_digest([], None, start, [], False, False, None)


def test_the_digest_of_a_finished_match_and_of_the_hand_being_played() -> None:
    room = Room.make("durak", 3, dealer="seeded", seed=7, series_hands=2)
    room.start()
    table = room.tables[1]
    while not (table.finals and table.attempt is not None and table.attempt.chain.steps):
        assert room.queue, "the match ended before its second hand"
        room.run(limit=1)  # stop in the middle of the second hand
    att = table.attempt
    finals = [a.seal_prev for _, a in table.finals]
    boundary = spec.seal_head(finals[-1])
    current = spec.attempt_digest(att.start_head, att.head, att.state.digest())
    assert table.digest() == spec.table_digest(finals, boundary, current, [], False, False, None)
    room.run()
    assert table.over and len({t.digest() for t in room.tables}) == 1
    finals = [a.seal_prev for _, a in table.finals]
    out = sorted(table.seats_out.items())
    expected = spec.table_digest(finals, spec.seal_head(finals[-1]), table.chain.head, out, True, False, None)
    assert table.digest() == expected
