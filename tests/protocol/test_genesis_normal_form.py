"""SPEC §2: a genesis lists every option in its normal form, value types included."""

import dataclasses

import pytest

from p2pcards.table.genesis import Genesis, GenesisError
from p2pcards.wire import encode
from tests.table.helpers import genesis_for


@pytest.mark.parametrize(
    ("game", "option"),
    [("azi", "blind"), ("azi", "six_on_stage"), ("spades", "jokers"), ("spades", "suicide")],
)
def test_an_integer_written_for_a_boolean_option_is_refused(game: str, option: str) -> None:
    # 1 == True and 0 == False in Python, so a comparison of values alone would take either: that
    # would give one table two encodings, hence two game ids.
    g = genesis_for(game, 4 if game == "spades" else 3, dealer="mental", seed=0)
    options = tuple((k, int(v) if k == option else v) for k, v in g.options)
    with pytest.raises(GenesisError, match=f"option {option} is not in its normal form"):
        dataclasses.replace(g, options=options)
    value = g.to_value() | {"options": [[k, v] for k, v in options]}
    with pytest.raises(GenesisError, match=f"option {option} is not in its normal form"):
        Genesis.decode(encode(value))


def test_the_normal_form_is_accepted() -> None:
    g = genesis_for("azi", 3, dealer="mental", seed=0)
    assert Genesis.decode(g.encode()) == g
