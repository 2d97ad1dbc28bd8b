"""The genesis: every rule of protocol/SPEC.md §2 refuses what breaks it, with a message naming the field."""

from typing import Any

import pytest

from p2pcards.table.genesis import Genesis, GenesisError, Seat, make_genesis
from p2pcards.wire import encode, key_from_seed, public_bytes
from tests.table.helpers import genesis_for

KEYS = [public_bytes(key_from_seed(bytes([i + 1]) * 32)) for i in range(7)]
WEAK = bytes([1]) + bytes(31)
DURAK_2 = (("deck", 36), ("first_bout_limit_5", False), ("jokers", 0), ("players", 2), ("series_hands", 1),
           ("transfer", False))


def durak_options(players: int = 2) -> tuple[tuple[str, Any], ...]:
    return make_genesis("durak", [(f"p{i}", KEYS[i]) for i in range(players)]).options


def base(**change: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "game": "durak",
        "options": durak_options(),
        "seats": (Seat("a", KEYS[0]), Seat("b", KEYS[1])),
    }
    return fields | change


def test_the_game_id_binds_players_options_and_nonce() -> None:
    a = genesis_for("durak", 3)
    assert a.game_id == genesis_for("durak", 3).game_id
    assert a.game_id != genesis_for("durak", 3, first_bout_limit_5=True).game_id
    assert a.game_id != genesis_for("durak", 3, seed=8).game_id
    assert Genesis.decode(a.encode()) == a


def test_options_are_normalised_so_equal_tables_have_equal_ids() -> None:
    seats = [("a", KEYS[0]), ("b", KEYS[1]), ("c", KEYS[2])]
    assert make_genesis("azi", seats, options={"deal": 3}).game_id == make_genesis("azi", seats).game_id


def test_make_genesis_keeps_a_seed_for_the_seeded_dealer_only() -> None:
    seats = [("a", KEYS[0]), ("b", KEYS[1])]
    assert make_genesis("durak", seats, dealer="seeded", seed=9).seed == 9
    assert make_genesis("durak", seats, dealer="mental", seed=9).seed == 0


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "poker"}, "unknown game"),
        ({"seats": (Seat("a", KEYS[0]),)}, "2 to 6 seats"),
        ({"seats": tuple(Seat(f"s{i}", KEYS[i]) for i in range(7))}, "2 to 6 seats"),
        ({"seats": (Seat("a", KEYS[0]), Seat("b", KEYS[0]))}, "same identity key"),
        ({"seats": (Seat("", KEYS[0]), Seat("b", KEYS[1]))}, "1 to 40 characters"),
        ({"seats": (Seat("x" * 41, KEYS[0]), Seat("b", KEYS[1]))}, "1 to 40 characters"),
        ({"seats": (Seat("\x1b[2Jeve", KEYS[0]), Seat("b", KEYS[1]))}, "U\\+001B"),
        ({"seats": (Seat("a\u202eb", KEYS[0]), Seat("b", KEYS[1]))}, "U\\+202E"),
        ({"seats": (Seat("   ", KEYS[0]), Seat("b", KEYS[1]))}, "blank"),

        ({"seats": (Seat("a", KEYS[0][:31]), Seat("b", KEYS[1]))}, "32 bytes"),
        ({"seats": (Seat("a", WEAK), Seat("b", KEYS[1]))}, "small order"),
        ({"seats": (Seat("a", b"\xff" * 32), Seat("b", KEYS[1]))}, "unusable"),
        ({"dealer": "trusted"}, "dealer"),
        ({"seed": -1}, "seed"),
        ({"seed": True}, "seed"),
        ({"seed": 7}, "seed must be 0 with the mental dealer"),
        ({"nonce": b"x" * 33}, "nonce"),
        ({"timeout_ms": 5}, "timeout"),
        ({"timeout_ms": 3_600_001}, "timeout"),
        ({"timeout_ms": True}, "timeout"),
        ({"options": durak_options()[1:]}, "missing"),
        ({"options": tuple(reversed(durak_options()))}, "sorted"),
        ({"options": tuple((k, 1 if v is False else v) for k, v in durak_options())}, "True or False"),

        ({"options": durak_options(3)}, "seats 3"),
        ({"computers": ((1, 1),)}, "run by a person"),
        ({"computers": ((1, 0), (1, 0))}, "twice"),
        ({"computers": ((5, 0),)}, "does not exist"),
        ({"computers": ((1, True),)}, "pair"),
    ],
)
def test_a_bad_genesis_says_which_field_is_wrong(change: dict[str, Any], message: str) -> None:
    with pytest.raises(GenesisError, match=message):
        Genesis(**base(**change))


def test_a_seeded_dealer_may_carry_a_seed_and_computers_may_be_named() -> None:
    g = Genesis(**base(dealer="seeded", seed=7, computers=((1, 0),)))
    assert g.runner_of(1) == 0 and g.runner_of(0) is None
    assert Genesis.decode(g.encode()) == g


@pytest.mark.parametrize(
    "raw",
    [
        b"\x93\x01\x02\x03",
        encode({"game": "durak"}),
        encode({**Genesis(**base()).to_value(), "extra": 1}),
        encode({**Genesis(**base()).to_value(), "seats": [["a", 1], ["b", 2]]}),
    ],
)
def test_garbage_is_not_a_genesis(raw: bytes) -> None:
    with pytest.raises(GenesisError, match="not a genesis"):
        Genesis.decode(raw)
