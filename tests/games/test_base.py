import pytest

from p2pcards import games
from p2pcards.games.base import ActionError, HandRecord, canonical


def test_canonical_encoding_is_unambiguous():
    assert canonical((1, "1")) != canonical(("1", 1))
    assert canonical(["ab", "c"]) != canonical(["a", "bc"])
    assert canonical((True, None, b"x", -5)) == canonical([True, None, b"x", -5])
    with pytest.raises(TypeError):
        canonical(1.5)


def test_record_survives_a_plain_dict_round_trip():
    rec = HandRecord("spades", (("players", 4),), (("dealer", 2), ("seats", (0, 1, 2, 3))),
                     (5, -1, 7), ((1, "bid 3"),))
    assert HandRecord.from_dict(rec.to_dict()) == rec


def test_a_broken_record_is_refused_clearly():
    with pytest.raises(games.GameError, match="not a hand record"):
        HandRecord.from_dict({"game": "spades"})


def test_unknown_game_names_the_games():
    with pytest.raises(games.OptionError, match="durak, spades, azi"):
        games.load("poker")


def test_action_errors_name_the_rule_and_the_legal_moves():
    err = ActionError("must follow suit", seat=2, rule="S6", legal=["play 2H", "play 9H"])
    assert str(err) == "must follow suit (S6); legal now: play 2H, play 9H"
    assert err.seat == 2 and err.rule == "S6"
