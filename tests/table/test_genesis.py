import pytest

from p2pcards.table.genesis import Genesis, GenesisError, Seat, make_genesis
from tests.table.helpers import genesis_for


def test_the_game_id_binds_players_options_and_nonce():
    a = genesis_for("durak", 3)
    assert a.game_id == genesis_for("durak", 3).game_id
    assert a.game_id != genesis_for("durak", 3, first_bout_limit_5=True).game_id
    assert a.game_id != genesis_for("durak", 3, seed=8).game_id
    assert Genesis.decode(a.encode()) == a


def test_options_are_normalised_so_equal_tables_have_equal_ids():
    keys = [bytes([i]) * 32 for i in range(1, 4)]
    a = make_genesis("azi", [("a", keys[0]), ("b", keys[1]), ("c", keys[2])], options={"deal": 3})
    b = make_genesis("azi", [("a", keys[0]), ("b", keys[1]), ("c", keys[2])], options={})
    assert a.game_id == b.game_id


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "poker"}, "unknown game"),
        ({"seats": (Seat("a", b"\x01" * 32),)}, "2 to 6 seats"),
        ({"seats": (Seat("a", b"\x01" * 32), Seat("b", b"\x01" * 32))}, "same identity key"),
        ({"seats": (Seat("", b"\x01" * 32), Seat("b", b"\x02" * 32))}, "name"),
        ({"seats": (Seat("a", b"\x01" * 31), Seat("b", b"\x02" * 32))}, "32 bytes"),
        ({"dealer": "trusted"}, "dealer"),
        ({"timeout_ms": 5}, "timeout"),
    ],
)
def test_a_bad_genesis_says_which_field_is_wrong(change, message):
    base = {
        "game": "durak",
        "options": (("first_bout_limit_5", False), ("players", 2), ("series_hands", 1)),
        "seats": (Seat("a", b"\x01" * 32), Seat("b", b"\x02" * 32)),
    }
    with pytest.raises(GenesisError, match=message):
        Genesis(**(base | change))


def test_a_genesis_whose_seat_count_does_not_fit_the_options_is_refused():
    with pytest.raises(GenesisError, match="seats 4"):
        Genesis("spades", (("players", 4),), (Seat("a", b"\x01" * 32), Seat("b", b"\x02" * 32)))


def test_garbage_is_not_a_genesis():
    with pytest.raises(GenesisError, match="not a genesis"):
        Genesis.decode(b"\x93\x01\x02\x03")
