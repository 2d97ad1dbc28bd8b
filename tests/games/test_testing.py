"""``games.testing``: the helpers the rule tests are written with deal what they are told, by each
game's own layout, and say clearly when a scenario cannot be dealt."""

from __future__ import annotations

import pytest

from p2pcards.games import GameError, load, testing
from p2pcards.games.azi import AziHand
from p2pcards.games.cards import parse_card


def test_deal_puts_the_named_cards_in_the_named_hands_in_every_game() -> None:
    durak = testing.deal("durak", {0: "6C 7C 8C 9C TC JC", 1: "6D 7D 8D 9D TD JD"}, "9S AS", players=2)
    assert sorted(durak.state.hand(0)) == sorted(testing.cards("6C 7C 8C 9C TC JC"))
    assert durak.deck[12] == parse_card("9S") and durak.deck[13] == parse_card("AS")  # trump, then talon
    spades = testing.deal("spades", {2: "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"}, dealer=3)
    assert sorted(spades.state.hand(2)) == list(range(39, 52))
    azi = testing.deal("azi", {1: "AH 6D TD", 2: "7H AD 6S"}, dealer=1, setup={"seats": (1, 2)},
                       players=3, blind=False)
    # dealt from the dealer's left among the seats in the hand, the dealer last: its last card is trump
    assert isinstance(azi.state, AziHand)
    assert azi.state.hand(2) == tuple(testing.cards("7H AD 6S")) and azi.state.trump_card == parse_card("TD")


def test_a_scenario_plays_by_text_and_its_record_passes_the_audit() -> None:
    hand = testing.deal("durak", {0: "6C 7C 8C 9C TC JC", 1: "6D 7D 8D 9D TD JD"}, "9S", players=2,
                        dealer=1)
    hand.play("show none", "show none", "attack 6C", "take")
    assert "pass" in hand.legal and hand.state.to_act == 0
    record = hand.record()
    assert list(record.deck) == hand.deck and record.actions[-1] == (1, "take")
    assert hand.audit().ok
    lines = testing.record(hand.rules, dict(hand.state.setup), hand.deck, "0: show none\n1: show none")
    assert lines.actions == ((0, "show none"), (1, "show none"))


def test_deal_refuses_what_cannot_be_dealt() -> None:
    with pytest.raises(GameError, match="twice"):
        testing.deal("durak", {0: "6C", 1: "6C"}, players=2)
    with pytest.raises(GameError, match="not dealt into this hand"):
        testing.deal("durak", {5: "6C"}, players=2)
    with pytest.raises(GameError, match="is dealt 6 cards, not 7"):
        testing.deal("durak", {0: "6C 7C 8C 9C TC JC QC"}, players=2)
    with pytest.raises(GameError, match="twice, or is not in this game's deck"):
        testing.deal(load("azi"), {0: "2C"})
