"""Whatever arrives on a link, a table refuses it cleanly and its state does not move."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2pcards.table import outputs as out
from p2pcards.table.replica import Table
from tests.table.helpers import Room

ROOM = Room.make("durak", 3, dealer="seeded", seed=1)
ROOM.start()
ROOM.run(limit=400)
VALID = list(ROOM.journals[0])


def _fresh_copy() -> Table:
    room = Room.make("durak", 3, dealer="seeded", seed=1)
    room.start()
    room.run(limit=400)
    return room.tables[0]


TABLE = _fresh_copy()


def _flip(frame: bytes, at: int, mask: int) -> bytes:
    i = at % len(frame)
    return frame[:i] + bytes([frame[i] ^ mask]) + frame[i + 1 :]


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    st.one_of(
        st.binary(max_size=300),
        st.builds(_flip, st.sampled_from(VALID), st.integers(0, 10_000), st.integers(1, 255)),
    )
)
def test_random_and_mutated_frames_are_refused_and_change_nothing(payload):
    before = (TABLE.digest(), TABLE.chain.step, TABLE.fault)
    outputs = TABLE.receive(1, payload)
    assert (TABLE.digest(), TABLE.chain.step, TABLE.fault) == before
    assert not any(isinstance(o, (out.Persist, out.Fault)) for o in outputs)
