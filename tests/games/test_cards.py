import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pcards.games.cards import (
    ACE,
    HEARTS,
    SPADES,
    CardError,
    card,
    card_display,
    card_text,
    deck_of,
    parse_card,
    rank_of,
    suit_of,
)


def test_ids_are_suit_major_and_cover_52_cards():
    assert card(2, 0) == 0
    assert card(ACE, SPADES) == 51
    assert sorted(card(r, s) for s in range(4) for r in range(2, 15)) == list(range(52))


@given(st.integers(0, 51))
def test_text_round_trips(c):
    assert parse_card(card_text(c)) == c
    assert parse_card(card_display(c)) == c
    assert parse_card(card_text(c).lower()) == c
    assert card(rank_of(c), suit_of(c)) == c


@pytest.mark.parametrize("text", ["10H", "th", "TH", " 10h ", "10♥"])
def test_ten_is_read_in_every_form(text):
    assert parse_card(text) == card(10, HEARTS)


def test_text_and_display_forms():
    assert card_text(card(10, HEARTS)) == "TH"
    assert card_display(card(10, HEARTS)) == "10♥"
    assert card_text(card(ACE, SPADES)) == "AS"


@pytest.mark.parametrize("text", ["", "A", "1H", "11S", "AX", "ZZ", "10", "♠"])
def test_nonsense_gets_a_clear_error(text):
    with pytest.raises(CardError, match="not a card"):
        parse_card(text)


def test_a_card_outside_the_deck_is_refused():
    short = deck_of(range(6, 15), range(4))
    assert len(short) == 36
    with pytest.raises(CardError, match="not in this game's deck"):
        parse_card("2C", short)
