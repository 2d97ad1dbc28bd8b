"""Transfer Durak (``transfer=on``): a scenario test per rule D16-D18; the name carries the rule."""

from __future__ import annotations

import pytest

from p2pcards.games import Deal, IllegalAction, load
from p2pcards.games.cards import card_text
from p2pcards.games.durak import DurakState
from p2pcards.games.durak import actions as A
from tests.games.test_durak import (
    TWO,
    TWO_BOUTS,
    TWO_TALON,
    hand,
    make,
    play,
    settle,
    show_all,
    two_player_bout,
)

# Four players, dealer 3, spades trump (AS turned up); seat 0 leads with the lowest trump (7S).
FOUR_T = ["6C 7S 9H TH JH QH", "6D 6H 8C 8D 9D TD", "7C 7D 8H 9C JD QD", "KC KD KH QC QS KS"]
# Two players, dealer 1, hearts trump (AH turned up); seat 0 leads with the lowest trump (6H).
TWO_T = ["6C 6H 9S TS JS QS", "6D 7H 8C 9C KD KS"]


def four(limit5: bool = False) -> tuple[DurakState, list[int]]:
    st, deck = make(FOUR_T, "AS", transfer=True, first_bout_limit_5=limit5)
    show_all(st, deck)
    assert st.to_act == 0 and st.phase_name == "lead"
    return st, deck


def test_d16_the_defender_may_transfer_with_a_card_of_the_rank_while_nothing_is_beaten() -> None:
    st, deck = four()
    play(st, deck, "attack 6C")
    assert st.legal_texts() == ["beat 6C 8C", "transfer 6D", "transfer 6H", "take"]
    play(st, deck, "transfer 6D")
    # seat 1 is now the main attacker; seat 2 must answer both cards
    assert (st.attacker, st.defender, st.to_act) == (1, 2, 2)
    assert [(card_text(a), d) for a, d in st.table_cards()] == [("6C", -1), ("6D", -1)]
    assert st.view(3).table == tuple((a, -1) for a, _ in st.table_cards())  # public to everyone
    assert "transfer" not in " ".join(st.legal_texts())  # seat 2 holds no 6


def test_d16_once_a_card_of_the_bout_is_beaten_nobody_may_transfer() -> None:
    st, deck = make(["6C 6S 7H 9D TD JD", "6D 8C KS QS JS TS"], "AH", dealer=1, transfer=True)
    show_all(st, deck)
    play(st, deck, "attack 6C", "transfer 6D")
    assert "transfer 6S" in st.legal_texts()
    play(st, deck, "beat 6D 9D")
    assert st.legal_texts() == ["beat 6C 7H", "take"]  # seat 0 still holds 6S
    with pytest.raises(IllegalAction, match="only while no attack card is beaten") as err:
        st.apply_text("transfer 6S")
    assert err.value.rule == "D16"


def test_d16_the_bout_bounces_between_two_players_and_the_first_card_may_be_transferred() -> None:
    st, deck = make(TWO_T, "AH", dealer=1, transfer=True)
    show_all(st, deck)
    assert st.bout == 1 and st.to_act == 0
    play(st, deck, "attack 6C", "transfer 6D")
    assert (st.attacker, st.defender) == (1, 0)
    assert "transfer 6H" in st.legal_texts()
    play(st, deck, "transfer 6H")
    assert (st.attacker, st.defender, st.to_act) == (0, 1, 1) and len(st.table_cards()) == 3


def test_d16_a_transfer_needs_a_new_defender_holding_enough_cards() -> None:
    # two players, the talon empty after two bouts; seat 0 then attacks five times and seat 1 takes
    st, deck = make(TWO, "6S", TWO_TALON, dealer=1, transfer=True)
    show_all(st, deck)
    two_player_bout(st, deck, TWO_BOUTS[0])
    two_player_bout(st, deck, TWO_BOUTS[1])
    assert st.view(0).talon_size == 0 and st.to_act == 0
    for card in ("6S", "7H", "8S", "9H", "TS"):
        play(st, deck, f"attack {card}")
        if card == "7H":
            assert "transfer 7S" in st.legal_texts()  # seat 0 holds 4 cards: enough for 2
        play(st, deck, "take")
        while st.phase_name == "throw-in":
            play(st, deck, "pass")
    assert hand(st, 0) == "JH" and st.to_act == 0
    play(st, deck, "attack JH")
    # seat 1 holds JS, but seat 0 would have to defend 2 cards with none
    assert "JS" in hand(st, 1).split()
    assert not [t for t in st.legal_texts() if t.startswith("transfer")]
    with pytest.raises(IllegalAction, match="too few") as err:
        st.apply_text("transfer JS")
    assert err.value.rule == "D16"


def test_d17_limit_throw_in_order_draw_order_and_next_attacker_follow_the_new_defender() -> None:
    st, deck = four()
    play(st, deck, "attack 6C", "transfer 6D")
    assert st.limit == 6 and st.order == (1, 3, 0)  # the new main attacker first, then from 2's left
    play(st, deck, "beat 6C 7C", "beat 6D 7D")
    assert st.to_act == 1 and st.legal_texts() == ["add 6H", "pass"]  # the last transferrer first
    play(st, deck, "pass")
    assert st.to_act == 3
    play(st, deck, "pass")
    assert st.to_act == 0 and st.legal_texts() == ["add 7S", "pass"]
    st.apply_text("pass")
    # D10 from the new main attacker (seat 1), then seat 0 (it led: it added a card), then the
    # defender; seat 3 holds six cards
    assert st.need == Deal(((1, (25,)), (0, (26,)), (2, (27, 28))))
    settle(st, deck)
    # D11: seat 2, who defended last and beat everything, attacks next
    assert (st.attacker, st.defender) == (2, 3)


def test_d17_after_a_take_the_left_of_the_last_defender_attacks_next() -> None:
    st, deck = four()
    play(st, deck, "attack 6C", "transfer 6D", "take")
    assert st.to_act == 1 and st.legal_texts() == ["add 6H", "pass"]
    play(st, deck, "add 6H")
    while st.phase_name == "throw-in":
        play(st, deck, "pass")
    assert hand(st, 2) == "6C 7C 9C 6D 7D JD QD 6H 8H"
    assert (st.attacker, st.defender) == (3, 0)


def test_d17_the_new_defenders_hand_size_sets_the_limit_and_the_first_bout_cap_still_holds() -> None:
    st, deck = make(TWO_T, "AH", dealer=1, transfer=True)
    show_all(st, deck)
    play(st, deck, "attack 6C")
    assert st.limit == 6
    play(st, deck, "transfer 6D")
    assert st.limit == 5  # seat 0 holds five cards now
    st5, deck5 = four(limit5=True)
    play(st5, deck5, "attack 6C")
    assert st5.limit == 5
    play(st5, deck5, "transfer 6D")
    assert st5.limit == 5  # seat 2 holds six, but this is the first bout


def test_d17_the_bounced_bout_draws_from_the_last_transferrer() -> None:
    st, deck = make(TWO_T, "AH", "7C 7D 7S 8D 8H 8S", dealer=1, transfer=True)
    show_all(st, deck)
    play(st, deck, "attack 6C", "transfer 6D", "transfer 6H", "beat 6C 8C", "beat 6D KD", "beat 6H 7H")
    assert st.to_act == 0 and st.legal_texts() == ["pass"]
    st.apply_text("pass")
    assert st.need == Deal(((0, (13, 14)), (1, (15, 16, 17, 18))))


def test_d18_a_transfer_has_its_own_text_and_is_public() -> None:
    rules = load("durak", transfer=True)
    a = rules.parse_action("transfer 7h")
    assert a == A.transfer(rules.parse_card("7H")) and rules.action_text(a) == "transfer 7H"
    assert rules.parse_action("TRANSFER 10H") == A.transfer(rules.parse_card("TH"))
    st, deck = four()
    play(st, deck, "attack 6C")
    shown = st.reveals(rules.parse_action("transfer 6D"))
    assert shown == (st.pos_of[rules.parse_card("6D")],)
    play(st, deck, "transfer 6D")
    assert st.record().actions[-1] == (1, "transfer 6D")


def test_d18_without_the_option_a_transfer_is_never_offered_nor_taken() -> None:
    st, deck = make(FOUR_T, "AS")
    show_all(st, deck)
    play(st, deck, "attack 6C")
    assert st.legal_texts() == ["beat 6C 8C", "take"]
    with pytest.raises(IllegalAction, match="without transfers") as err:
        st.apply_text("transfer 6D")
    assert err.value.rule == "D16"
