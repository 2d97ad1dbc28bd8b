"""Scenario tests for Durak: one or more per numbered rule (D1-D14), options and bad input.

Hands are built from a chosen deck order with ``games.testing``: each seat's cards go to the
positions the engine's deal gives it, then the face-up trump (position 6n) and the talon after it
(in drawing order).
"""

from __future__ import annotations

from typing import Any

import pytest

from p2pcards.games import (
    CHANCE,
    TERMINAL,
    UNKNOWN,
    ActionError,
    Deal,
    FulfilError,
    GameError,
    IllegalAction,
    OptionError,
    Reveal,
    load,
    testing,
)
from p2pcards.games.cards import HEARTS, SPADES, card_text, parse_card
from p2pcards.games.durak import DurakMatch, DurakResult, DurakState
from p2pcards.games.playout import fulfil_from, learned_by
from p2pcards.games.rng import Rng

# ----------------------------------------------------------------------------- helpers


def cards(text: str) -> list[int]:
    return [parse_card(w) for w in text.split()]


def make(hands: list[str], trump: str = "", talon: str = "", *, dealer: int | None = None,
         **options: Any) -> tuple[DurakState, list[int]]:
    """A hand dealt from a chosen deck order, stopped at the first seat to act (the trump showing)."""
    n = len(hands)
    hand = testing.deal("durak", dict(enumerate(hands)), f"{trump} {talon}",
                        dealer=n - 1 if dealer is None else dealer, players=n, **options)
    assert isinstance(hand.state, DurakState)
    if trump:
        assert hand.deck[6 * n] == parse_card(trump)
    return hand.state, hand.deck


def settle(state: DurakState, deck: list[int]) -> None:
    while state.to_act == CHANCE:
        fulfil_from(state, deck)


def play(state: DurakState, deck: list[int], *texts: str) -> None:
    for text in texts:
        assert text in state.legal_texts(), f"{text!r} not legal; legal: {state.legal_texts()}"
        state.apply_text(text)
        settle(state, deck)


def show_all(state: DurakState, deck: list[int]) -> None:
    while state.phase_name == "show":
        play(state, deck, state.legal_texts()[0])


def first_legal_to_end(state: DurakState, deck: list[int]) -> list[int]:
    """Play the first legal action until the end; returns the seats that acted."""
    seats = []
    while state.to_act != TERMINAL:
        seats.append(state.to_act)
        state.apply(state.legal_actions()[0])
        settle(state, deck)
    return seats


def table(state: DurakState) -> list[tuple[str, str]]:
    return [(card_text(a), card_text(d) if d != UNKNOWN else "") for a, d in state.table_cards()]


def hand(state: DurakState, seat: int) -> str:
    return " ".join(card_text(c) for c in sorted(state.hand_cards(seat)))


# A 4-player deal, dealer 3 (seat 0 receives first); trump spades (9S face up).
FOUR = ["7S 6C 6D 9H TH JH", "8C 8D AS KS QS JS", "6H 7C 7D 7H 9C 9D", "8H QC QD QH KC KD"]

# A 5-player deal, dealer 4; trump spades (9S face up); the talon is TS JS QS KS AS.
FIVE = ["6S 7C 7D 9H TH AH", "8C 8D QH KH AC AD", "7H 6C 6D 6H JC JD", "9C 9D TC TD JH QC",
        "8H KC QD KD 7S 8S"]

# A 6-player deal, dealer 5 whose last card AH is turned up: trump hearts, no talon.
SIX = ["6H 6C 7C 8C 9C TC", "7H 8H 9H TH JH QH", "6D 6S JC QC KC AC", "9D TS 7D 7S 8D 8S",
       "9S KH AD AS KS QS", "TD JD QD KD JS AH"]

# Two players, dealer 1, trump spades (6S face up, drawn last).  Three bouts of six attack cards, each
# beaten in full, use the whole deck; the talon holds the second and third bouts' hands.
TWO = ["6C 7D 8C 9D TC JD", "7C 8D 9C TD JC QD"]
TWO_TALON = ("KD KH AC QS KS AS " "6D 6H KC AD QC AH " "7S 8H 9S TH JS QH " "7H 8S 9H TS JH")
TWO_BOUTS = [
    ("6C 7C", "7D 8D", "8C 9C", "9D TD", "TC JC", "JD QD"),
    ("6D KD", "6H KH", "KC AC", "AD QS", "QC KS", "AH AS"),
    ("6S 7S", "7H 8H", "8S 9S", "9H TH", "TS JS", "JH QH"),
]


def two_player_bout(state: DurakState, deck: list[int], pairs: tuple[str, ...], *, take_last: bool = False
                    ) -> None:
    attacker = state.to_act
    for i, pair in enumerate(pairs):
        a, d = pair.split()
        play(state, deck, f"attack {a}" if i == 0 else f"add {a}")
        if take_last and i == len(pairs) - 1:
            play(state, deck, "take")
        else:
            play(state, deck, f"beat {a} {d}")
        if i < len(pairs) - 1:
            assert state.to_act == attacker


# ----------------------------------------------------------------------------- D1


def test_d1_deck_is_36_cards_six_to_ace() -> None:
    rules = load("durak")
    assert len(rules.deck) == 36
    assert {card_text(c)[0] for c in rules.deck} == set("6789TJQKA")
    assert rules.players == 4
    for n in range(2, 7):
        assert load("durak", players=n).players == n
    for bad in (1, 7, 0):
        with pytest.raises(OptionError, match="2 to 6 players"):
            load("durak", players=bad)


def test_d1_deck_52_has_ranks_two_to_ace_where_two_is_lowest() -> None:
    rules = load("durak", deck=52)
    assert len(rules.deck) == 52 and {card_text(c)[0] for c in rules.deck} == set("23456789TJQKA")
    for n in range(2, 7):
        assert load("durak", players=n, deck=52).players == n
    # nobody holds a spade, so the dealer's left (seat 0) leads
    st, deck = make(["2C 4C 3D 6D 7D 8D", "3C 2H 3H 4H 5H 6H"], "2S", dealer=1, deck=52)
    show_all(st, deck)
    play(st, deck, "attack 2C")
    assert st.legal_texts() == ["beat 2C 3C", "take"]
    play(st, deck, "beat 2C 3C")
    assert st.legal_texts() == ["add 3D", "pass"]  # a 3 is on the table
    play(st, deck, "add 3D")
    assert st.legal_texts() == ["take"]


def test_d1_higher_same_suit_or_trump_beats() -> None:
    st, deck = make(FOUR, "9S")
    show_all(st, deck)
    play(st, deck, "attack 6C")
    # defender holds 8C 8D AS KS QS JS: 8C (higher club) and every trump beat 6C, 8D does not
    assert st.legal_texts() == ["beat 6C 8C", "beat 6C JS", "beat 6C QS", "beat 6C KS", "beat 6C AS", "take"]
    before = st.digest()
    with pytest.raises(IllegalAction) as err:
        st.apply_text("beat 6C 8D")
    assert err.value.rule == "D1" and err.value.seat == 1
    assert st.digest() == before


def test_d1_only_a_higher_trump_beats_a_trump() -> None:
    st, deck = make(["6S 7S 6C 6D 6H 7C", "8S AC AD AH KC KD"], "9S", dealer=1)
    show_all(st, deck)
    assert st.to_act == 0
    play(st, deck, "attack 7S")
    assert st.legal_texts() == ["beat 7S 8S", "take"]
    with pytest.raises(IllegalAction, match="does not beat"):
        st.apply_text("beat 7S AC")


# ----------------------------------------------------------------------------- D2


def test_d2_deal_six_each_from_dealers_left_then_trump_under_talon() -> None:
    rules = load("durak", players=4)
    st = rules.new_hand({"dealer": 2, "hand": 0})
    assert isinstance(st, DurakState)
    need = st.need
    assert st.to_act == CHANCE and isinstance(need, Deal) and need.disclose
    # one card at a time clockwise from the dealer's left: seat 3 gets positions 0, 4, 8, ...
    assert need.hands == (
        (3, (0, 4, 8, 12, 16, 20)), (0, (1, 5, 9, 13, 17, 21)),
        (1, (2, 6, 10, 14, 18, 22)), (2, (3, 7, 11, 15, 19, 23)),
    )
    deck = list(rules.deck)
    fulfil_from(st, deck)
    assert st.need == Reveal((24,))
    fulfil_from(st, deck)
    view = st.view(0)
    assert view.trump == deck[24] and view.trump_suit == deck[24] // 13
    assert view.talon_size == 12  # eleven face down plus the face-up trump
    assert dict(st.zones())["trump"] == (24,)
    assert len(dict(st.zones())["talon"]) == 11


def test_d2_deck_52_with_six_players_turns_up_the_next_card_under_a_talon() -> None:
    rules = load("durak", players=6, deck=52)
    st = rules.new_hand({"dealer": 5, "hand": 0})
    assert isinstance(st, DurakState)
    deck = list(rules.deck)
    fulfil_from(st, deck)
    assert st.need == Reveal((36,))  # D2 unchanged: the card after the deal, not the dealer's last
    fulfil_from(st, deck)
    assert st.view(0).talon_size == 16 and dict(st.zones())["trump"] == (36,)
    assert all(len(st.hands[s]) == 6 for s in range(6))


def test_d2_trump_is_the_last_card_drawn() -> None:
    st, deck = make(TWO, "6S", TWO_TALON, dealer=1)
    show_all(st, deck)
    two_player_bout(st, deck, TWO_BOUTS[0])
    two_player_bout(st, deck, TWO_BOUTS[1])
    # the second draw emptied the talon: seat 0, the defender, drew last and got the face-up 6S
    assert st.view(0).talon_size == 0
    assert "6S" in hand(st, 0).split()
    assert 12 in st.hands[0]  # position 6n


def test_d2_six_players_dealer_last_card_is_trump_and_stays_in_hand() -> None:
    st, _ = make(SIX)
    assert st.need is None and st.to_act == 0
    view = st.view(2)
    assert view.trump == parse_card("AH") and view.trump_suit == HEARTS
    assert view.talon_size == 0 and dict(st.zones())["talon"] == ()
    assert parse_card("AH") in view.known_cards[5]
    assert 35 in st.hands[5] and len(st.hands[5]) == 6


# ----------------------------------------------------------------------------- D3


def test_d3_lowest_trump_shown_leads() -> None:
    st, deck = make(FOUR, "9S")
    assert st.phase_name == "show"
    assert [st.to_act, st.legal_texts()] == [0, ["show 7S"]]
    play(st, deck, "show 7S")
    assert [st.to_act, st.legal_texts()] == [1, ["show JS"]]
    play(st, deck, "show JS", "show none", "show none")
    assert st.phase_name == "lead" and st.to_act == 0
    assert st.view(3).defender == 1


def test_d3_nobody_holds_a_trump_left_of_dealer_leads() -> None:
    st, deck = make(TWO, "6S", TWO_TALON, dealer=1)
    assert st.legal_texts() == ["show none"]
    play(st, deck, "show none", "show none")
    assert st.to_act == 0 and st.phase_name == "lead"


def test_d3_shown_trump_stays_in_hand_and_is_public() -> None:
    st, deck = make(FOUR, "9S")
    show_all(st, deck)
    view = st.view(2)
    assert view.known_cards[0] == (parse_card("7S"),)
    assert view.known_cards[1] == (parse_card("JS"),)
    assert view.known_cards[2] == () and view.known_cards[3] == ()
    assert st.view(3).hand_sizes == (6, 6, 6, 6)
    # the shown card is revealed by the action, so a replica that never saw it learns it
    assert st.reveals(st.rules.parse_action("attack 7S")) == (0,)


def test_d3_lying_about_trumps_is_illegal_with_full_information() -> None:
    st, deck = make(FOUR, "9S")
    before = st.digest()
    with pytest.raises(IllegalAction) as err:
        st.apply_text("show none")
    assert err.value.rule == "D3" and err.value.seat == 0
    assert "show 7S" in str(err.value)
    play(st, deck, "show 7S")
    with pytest.raises(IllegalAction, match="not seat 1's lowest trump") as err:
        st.apply_text("show AS")
    assert err.value.rule == "D3" and err.value.seat == 1
    with pytest.raises(IllegalAction, match="not a trump"):
        st.apply_text("show 8C")
    with pytest.raises(IllegalAction, match="not in seat 1's hand"):
        st.apply_text("show 6S")
    assert st.moves_applied == 1 and before != st.digest()


def test_d3_partial_replica_accepts_a_hidden_lie_and_the_audit_names_it() -> None:
    full, deck = make(FOUR, "9S")
    rules = full.rules
    mine = rules.new_hand(dict(full.setup))
    while mine.to_act == CHANCE:
        mine.fulfil(learned_by(2, mine, deck))
    play(full, deck, "show 7S")
    mine.observe(0, parse_card("7S"))
    mine.apply_text("show 7S")
    mine.apply_text("show none")  # seat 1 holds JS: seat 2's replica cannot tell
    record = mine.record()
    full_deck = tuple(deck)
    verdict = rules.audit(type(record)(record.game, record.options, record.setup, full_deck, record.actions))
    assert not verdict.ok
    assert verdict.seat == 1 and verdict.rule == "D3" and verdict.step == 1


# ----------------------------------------------------------------------------- D4


def test_d4_main_attacker_leads_one_card_defender_is_next() -> None:
    st, deck = make(FOUR, "9S")
    show_all(st, deck)
    assert st.legal_texts() == ["attack 6C", "attack 6D", "attack 9H", "attack TH", "attack JH", "attack 7S"]
    with pytest.raises(IllegalAction) as err:
        st.apply_text("pass")
    assert err.value.rule == "D4"
    with pytest.raises(IllegalAction, match="not in seat 0's hand"):
        st.apply_text("attack 8C")
    play(st, deck, "attack 6C")
    assert st.to_act == 1 and st.phase_name == "defend"
    assert table(st) == [("6C", "")]


# ----------------------------------------------------------------------------- D5


def test_d5_defender_beats_a_named_card_or_takes() -> None:
    st, deck = make(FOUR, "9S")
    show_all(st, deck)
    play(st, deck, "attack 6C")
    assert "take" in st.legal_texts()
    before = st.digest()
    with pytest.raises(IllegalAction, match="not an unbeaten attack card") as err:
        st.apply_text("beat 6D 8D")
    assert err.value.rule == "D5"
    with pytest.raises(IllegalAction) as err:
        st.apply_text("add 6C")
    assert err.value.rule == "D5"
    assert st.digest() == before
    play(st, deck, "beat 6C 8C")
    assert table(st) == [("6C", "8C")]
    play(st, deck, "add 6D")
    with pytest.raises(IllegalAction, match="not an unbeaten attack card"):
        st.apply_text("beat 6C 8D")
    assert st.legal_texts() == ["beat 6D 8D", "beat 6D JS", "beat 6D QS", "beat 6D KS", "beat 6D AS", "take"]


def test_d5_taking_is_allowed_even_when_a_card_could_beat() -> None:
    st, deck = make(FOUR, "9S")
    show_all(st, deck)
    play(st, deck, "attack 6C", "take")
    assert st.view(0).taking


# ----------------------------------------------------------------------------- D6


def test_d6_throw_in_order_main_attacker_then_clockwise_from_defender_left() -> None:
    st, deck = make(FOUR, "9S")
    show_all(st, deck)
    play(st, deck, "attack 6C", "beat 6C 8C")
    assert st.to_act == 0 and st.legal_texts() == ["add 6D", "pass"]
    play(st, deck, "pass")
    assert st.to_act == 2 and st.legal_texts() == ["add 6H", "pass"]
    play(st, deck, "add 6H")
    assert st.to_act == 1 and st.phase_name == "defend"  # the defender's turn comes again
    play(st, deck, "beat 6H JS")
    assert st.to_act == 0  # a new round starts from the main attacker
    play(st, deck, "pass")
    assert st.to_act == 2 and st.legal_texts() == ["pass"]  # 7C 7D 7H 9C 9D: nothing to add
    play(st, deck, "pass")
    assert st.to_act == 3 and st.legal_texts() == ["add 8H", "pass"]
    play(st, deck, "pass")
    # every attacker passed in one round: the bout is over and the defender attacks next
    assert st.phase_name == "lead" and st.to_act == 1


def test_d6_added_card_rank_must_be_on_the_table() -> None:
    st, deck = make(FOUR, "9S")
    show_all(st, deck)
    play(st, deck, "attack 6C", "beat 6C 8C")
    before = st.digest()
    with pytest.raises(IllegalAction, match="no 9 is on the table") as err:
        st.apply_text("add 9H")
    assert err.value.rule == "D6" and err.value.seat == 0
    with pytest.raises(IllegalAction) as err:
        st.apply_text("take")
    assert err.value.rule == "D6"
    assert st.digest() == before


def test_d6_defender_never_throws_in() -> None:
    st, deck = make(FIVE, "9S", "TS JS QS KS AS")
    show_all(st, deck)
    turns = []
    for text in ("attack 7C", "beat 7C 8C", "add 7D", "beat 7D 8D", "pass", "add 7H", "beat 7H QH",
                 "pass", "pass", "pass", "add 8H", "beat 8H KH", "pass", "pass", "pass", "pass"):
        turns.append((st.to_act, st.phase_name))
        play(st, deck, text)
    assert [s for s, _ in turns] == [0, 1, 0, 1, 0, 2, 1, 0, 2, 3, 4, 1, 0, 2, 3, 4]
    assert {phase for s, phase in turns if s == 1} == {"defend"}


# ----------------------------------------------------------------------------- D7


def test_d7_attack_limit_is_six() -> None:
    st, deck = make(SIX)
    show_all(st, deck)
    assert st.view(0).limit == 6
    for a, d in (("6C", "7H"), ("7C", "8H"), ("8C", "9H"), ("9C", "TH"), ("TC", "JH"), ("6H", "QH")):
        play(st, deck, f"attack {a}" if a == "6C" else f"add {a}", f"beat {a} {d}")
    assert st.bout == 2  # six attack cards: the bout is over


def test_d7_first_bout_limit_5_option() -> None:
    st, deck = make(SIX, first_bout_limit_5=True)
    show_all(st, deck)
    assert st.view(0).limit == 5
    for a, d in (("6C", "7H"), ("7C", "8H"), ("8C", "9H"), ("9C", "TH"), ("TC", "JH")):
        play(st, deck, f"attack {a}" if a == "6C" else f"add {a}", f"beat {a} {d}")
    # nobody is asked to add a sixth card although seat 0 still holds 6H
    assert st.bout == 2 and hand(st, 0) == "6H"
    assert st.attacker == 1 and st.to_act == 1


def test_d7_attack_limit_is_defender_hand_size() -> None:
    st, deck = six_after_two_bouts()
    assert (st.attacker, st.defender) == (3, 4)
    assert st.view(0).hand_sizes[4] == 5 and st.view(0).limit == 5
    play(st, deck, "attack 7D", "beat 7D AD", "add 7S", "beat 7S KS", "pass", "add KD", "beat KD KH",
         "pass", "add AH")
    assert st.legal_texts() == ["take"]
    play(st, deck, "take", "pass", "pass")
    assert st.to_act == 2 and st.legal_texts() == ["add KC", "add AC", "pass"]
    play(st, deck, "add KC")
    # five attack cards reached the limit: seat 2 is not asked again for its AC, the defender picks up
    assert st.bout == 4 and st.phase_name == "lead"
    assert hand(st, 2) == "JC QC AC 6S"


def six_after_two_bouts() -> tuple[DurakState, list[int]]:
    st, deck = make(SIX)
    show_all(st, deck)
    for a, d in (("6C", "7H"), ("7C", "8H"), ("8C", "9H"), ("9C", "TH"), ("TC", "JH"), ("6H", "QH")):
        play(st, deck, f"attack {a}" if a == "6C" else f"add {a}", f"beat {a} {d}")
    play(st, deck, "attack 6D", "beat 6D 9D", "pass", "add 9S", "beat 9S TS", "pass")
    assert st.legal_texts() == ["pass"]
    play(st, deck, "pass", "pass")
    return st, deck


# ----------------------------------------------------------------------------- D8


def test_d8_after_take_throw_ins_go_on_and_defender_picks_up_everything() -> None:
    st, deck = make(FOUR, "9S")
    show_all(st, deck)
    play(st, deck, "attack 6C", "beat 6C 8C", "add 6D", "take")
    assert st.to_act == 0 and st.legal_texts() == ["pass"]
    play(st, deck, "pass")
    assert st.to_act == 2
    play(st, deck, "add 6H")
    assert st.to_act == 3  # the defender does not act again: the round goes on
    play(st, deck, "add 8H")
    seats = []
    for _ in range(3):  # a round with a card added is followed by another, from the main attacker
        seats.append(st.to_act)
        play(st, deck, "pass")
    assert seats == [0, 2, 3]
    assert sorted(st.hand_cards(1)) == sorted(cards("8D AS KS QS JS 6C 8C 6D 6H 8H"))
    # taken cards stay public
    assert sorted(st.view(3).known_cards[1]) == sorted(cards("JS 6C 8C 6D 6H 8H"))
    assert st.table_cards() == []


def test_d8_taken_hand_stays_known_on_partial_replicas() -> None:
    full, deck = make(FOUR, "9S")
    mine = full.rules.new_hand(dict(full.setup))
    assert isinstance(mine, DurakState)
    while mine.to_act == CHANCE:
        mine.fulfil(learned_by(3, mine, deck))
    for text in ("show 7S", "show JS", "show none", "show none", "attack 6C", "beat 6C 8C", "add 6D",
                 "take", "pass", "pass", "pass"):
        action = full.rules.parse_action(text)
        for p in full.reveals(action):
            mine.observe(p, deck[p])
        full.apply(action)
        mine.apply(action)
        while full.to_act == CHANCE:
            mine.fulfil(learned_by(3, full, deck))
            fulfil_from(full, deck)
        assert mine.digest() == full.digest()
    assert sorted(mine.view(3).known_cards[1]) == sorted(cards("JS 6C 8C 6D"))
    assert mine.view(3).hand_sizes[1] == 8


# ----------------------------------------------------------------------------- D9


def test_d9_all_beaten_and_attackers_finished_goes_to_discard() -> None:
    st, deck = make(FOUR, "9S")
    show_all(st, deck)
    play(st, deck, "attack 6C", "beat 6C 8C", "pass", "add 6H", "beat 6H JS", "pass", "pass", "pass")
    view = st.view(2)
    assert sorted(view.discard) == sorted(cards("6C 8C 6H JS"))
    assert dict(st.zones())["discard"] == tuple(st.discard) and len(st.discard) == 4
    assert view.table == ()


def test_d9_defender_without_cards_ends_the_bout() -> None:
    st, deck = make(SIX)
    show_all(st, deck)
    for a, d in (("6C", "7H"), ("7C", "8H"), ("8C", "9H"), ("9C", "TH"), ("TC", "JH")):
        play(st, deck, f"attack {a}" if a == "6C" else f"add {a}", f"beat {a} {d}")
    play(st, deck, "add 6H", "beat 6H QH")
    assert st.hand_cards(1) == [] and st.bout == 2 and len(st.discard) == 12


# ----------------------------------------------------------------------------- D10


def test_d10_draw_order_attacker_adders_clockwise_then_defender() -> None:
    st, deck = make(FIVE, "9S", "TS JS QS KS AS")
    show_all(st, deck)
    play(st, deck, "attack 7C", "beat 7C 8C", "add 7D", "beat 7D 8D", "pass", "add 7H", "beat 7H QH",
         "pass", "pass", "pass", "add 8H", "beat 8H KH", "pass", "pass", "pass")
    st.apply_text("pass")
    # main attacker, then the adders (seats 2 and 4) clockwise, then seat 3 (full), then the defender;
    # the talon (five cards and the face-up trump, drawn last) runs out before the defender is full
    assert st.need == Deal(((0, (31, 32)), (2, (33,)), (4, (34,)), (1, (35, 30))))
    settle(st, deck)
    assert hand(st, 0) == "9H TH AH 6S TS JS"
    assert hand(st, 1) == "AC AD 9S AS"
    assert st.view(3).talon_size == 0
    assert st.view(3).known_cards[1] == (parse_card("9S"),)  # the drawn trump is public


def test_d10_takers_draw_nothing_with_six_or_more() -> None:
    st, deck = make(FOUR, "9S")
    show_all(st, deck)
    play(st, deck, "attack 6C", "beat 6C 8C", "add 6D", "take", "pass", "add 6H", "add 8H", "pass",
         "pass")
    st.apply_text("pass")
    assert st.need == Deal(((0, (25, 26)), (2, (27,)), (3, (28,))))


# ----------------------------------------------------------------------------- D11


def test_d11_defender_who_beat_everything_attacks_next() -> None:
    st, deck = make(FOUR, "9S")
    show_all(st, deck)
    play(st, deck, "attack 6C", "beat 6C 8C", "pass", "pass", "pass")
    assert (st.attacker, st.defender, st.to_act) == (1, 2, 1)


def test_d11_after_a_take_the_defenders_left_attacks() -> None:
    st, deck = make(FOUR, "9S")
    show_all(st, deck)
    play(st, deck, "attack 6C", "take", "pass", "pass", "pass")
    assert (st.attacker, st.defender, st.to_act) == (2, 3, 2)


def test_d11_next_attacker_skips_players_who_are_out() -> None:
    st, deck = make(SIX)
    show_all(st, deck)
    for a, d in (("6C", "7H"), ("7C", "8H"), ("8C", "9H"), ("9C", "TH"), ("TC", "JH"), ("6H", "QH")):
        play(st, deck, f"attack {a}" if a == "6C" else f"add {a}", f"beat {a} {d}")
    # the defender (seat 1) beat everything but is out: seat 2 attacks seat 3
    assert (st.attacker, st.defender, st.to_act) == (2, 3, 2)
    st7, deck7 = six_after_two_bouts()
    play(st7, deck7, "attack 7D", "beat 7D AD", "add 7S", "beat 7S KS", "pass", "add KD", "beat KD KH",
         "pass", "add AH", "take", "pass", "pass", "add KC")
    # seat 4 took: seat 5 attacks and, seats 0 and 1 being out, seat 2 defends
    assert (st7.attacker, st7.defender) == (5, 2)


# ----------------------------------------------------------------------------- D12 / D13


def test_d12_players_out_together_share_a_place_and_never_act_again() -> None:
    st, deck = make(SIX)
    show_all(st, deck)
    for a, d in (("6C", "7H"), ("7C", "8H"), ("8C", "9H"), ("9C", "TH"), ("TC", "JH"), ("6H", "QH")):
        play(st, deck, f"attack {a}" if a == "6C" else f"add {a}", f"beat {a} {d}")
    assert st.view(4).out_order == ((0, 1),)
    assert st.order == (2, 4, 5)  # seats 0 and 1 are skipped in the throw-in order too
    seats = first_legal_to_end(st, deck)
    assert 0 not in seats and 1 not in seats
    result = st.result
    assert isinstance(result, DurakResult)
    assert result.out_order[0] == (0, 1)
    assert result.place_of(0) == result.place_of(1) == 1
    assert result.durak is not None and result.durak not in (0, 1)
    assert sorted([*(s for g in result.out_order for s in g), result.durak]) == list(range(6))


def test_d12_player_out_only_once_the_talon_is_empty() -> None:
    st, deck = make(TWO, "6S", TWO_TALON, dealer=1)
    show_all(st, deck)
    two_player_bout(st, deck, TWO_BOUTS[0])
    # both emptied their hands, but the talon refilled them: nobody is out
    assert st.view(0).out_order == () and st.view(0).hand_sizes == (6, 6)


def test_d13_last_player_holding_cards_is_the_durak() -> None:
    st, deck = make(TWO, "6S", TWO_TALON, dealer=1)
    show_all(st, deck)
    two_player_bout(st, deck, TWO_BOUTS[0])
    two_player_bout(st, deck, TWO_BOUTS[1])
    two_player_bout(st, deck, TWO_BOUTS[2], take_last=True)
    assert st.to_act == TERMINAL
    result = st.result
    assert result is not None
    assert result.out_order == ((0,),) and result.durak == 1
    assert result.summary() == "seat 0 went out first; seat 1 is the durak."


def test_d13_everyone_out_in_the_same_bout_is_a_draw() -> None:
    st, deck = make(TWO, "6S", TWO_TALON, dealer=1)
    show_all(st, deck)
    for pairs in TWO_BOUTS:
        two_player_bout(st, deck, pairs)
    assert st.to_act == TERMINAL and st.legal_actions() == []
    result = st.result
    assert result is not None
    assert result.durak is None and result.draw and result.out_order == ((0, 1),)
    assert "draw" in result.summary()
    assert result.points() == (0, 0)
    with pytest.raises(ActionError, match="hand is over"):
        st.apply_text("pass")


# ----------------------------------------------------------------------------- D15


def _always_take(players: int, dealer: int, seed: int, beat_in: tuple[int, ...] = (),
                 ) -> tuple[DurakState, list[tuple[bool, int]]]:
    """Issue 10's hand: "take" when legal, else "pass", else the first legal move (and in the bouts
    numbered in ``beat_in``, the defender's first legal move instead of a take).  Returns the end
    state and, per bout, whether the defender took and how many cards were drawn after it."""
    rules = load("durak", players=players)
    deck = list(rules.deck)
    Rng(seed).shuffle(deck)
    st = rules.new_hand({"dealer": dealer, "hand": 0})
    assert isinstance(st, DurakState)
    bouts: list[tuple[bool, int]] = []
    took, talon, bout = False, -1, 0
    for _ in range(100_000):
        if st.to_act == TERMINAL:
            break
        if st.to_act == CHANCE:
            fulfil_from(st, deck)
            continue
        if st.bout != bout:  # a new bout: close the previous one
            if bout:
                bouts.append((took, talon - len(st.talon)))
            took, talon, bout = False, len(st.talon), st.bout
        texts = st.legal_texts()
        text = "take" if "take" in texts else "pass" if "pass" in texts else texts[0]
        if st.bout in beat_in and st.to_act == st.defender:
            text = texts[0]
        took = took or text == "take"
        st.apply_text(text)
    assert st.to_act == TERMINAL, "the hand never ended"
    bouts.append((took, talon - len(st.talon)))
    return st, bouts


def test_d15_thirty_bouts_of_takes_with_nothing_drawn_end_the_hand_as_a_draw() -> None:
    st, bouts = _always_take(3, 0, 5)
    result = st.result
    assert result is not None and result.stalled and result.draw and result.durak is None
    # the hand ended right after the 30th stalled bout in a row, and not one bout earlier
    assert all(took and drawn == 0 for took, drawn in bouts[-30:])
    run = 0
    for took, drawn in bouts[:-1]:
        run = run + 1 if took and drawn == 0 else 0
        assert run < 30
    assert not any(pts < 0 for pts in result.points())  # no durak, nobody loses a point
    assert "draw" in result.summary()


def test_d15_a_bout_won_by_the_defender_restarts_the_count() -> None:
    _, straight = _always_take(3, 0, 5)
    st, bouts = _always_take(3, 0, 5, beat_in=(25,))
    # the same hand, but in bout 25 the defender beats: 23 stalled bouts do not count any more
    assert len(straight) == 32 and not bouts[24][0]
    assert st.result is not None and st.result.stalled
    assert len(bouts) > 25 + 30 and all(took and drawn == 0 for took, drawn in bouts[-30:])


def test_d15_a_thirtieth_stalled_bout_that_leaves_one_player_holding_cards_makes_them_durak() -> None:
    # two players; B (the first attacker) attacks until the talon is empty and A always takes, B throwing
    # in a pair when one card is left, so A ends with 31 cards; A beats B's next card, then attacks
    # with one card per bout and B always takes: the 30th of those stalled bouts is A's last card
    rules = load("durak", players=2)
    deck = list(rules.deck)
    Rng(3).shuffle(deck)
    st = rules.new_hand({"dealer": 0, "hand": 0})
    assert isinstance(st, DurakState)
    settle(st, deck)
    show_all(st, deck)
    b = st.attacker
    a = 1 - b
    counted = False
    while st.to_act != TERMINAL:
        texts, talon, seat = st.legal_texts(), len(st.talon), st.to_act
        if st.phase_name == "lead":
            low = sorted(st.hand_cards(seat))
            if talon == 1:
                low = [c for c in low if sum(1 for x in low if x % 13 == c % 13) > 1]
            text = f"attack {card_text(low[0])}"
        elif st.phase_name == "defend":
            text = "take" if talon or seat == b else texts[0]
        else:
            adds = [t for t in texts if t.startswith("add")]
            text = adds[0] if talon == 1 and st.taking and adds and len(st.att) == 1 else "pass"
        play(st, deck, text)
        if talon == 0 and st.phase_name == "lead" and st.to_act == a and st.stalled == 0:
            assert len(st.hands[a]) == 30 and len(st.hands[b]) == 4
            counted = True
    result = st.result
    assert counted and st.stalled == 30  # the bout that ended the hand was the 30th stalled one in a row
    assert result is not None and result.out_order == ((a,),)
    assert result.durak == b and not result.stalled and not result.draw
    assert result.points()[b] == -1 and result.points()[a] == 1
    assert "is the durak" in result.summary()


# ----------------------------------------------------------------------------- D14


def test_d14_series_scores_first_out_plus_one_durak_minus_one() -> None:
    assert DurakResult(4, ((2,), (0, 3)), 1).points() == (0, -1, 1, 0)
    assert DurakResult(4, ((2, 3), (0,)), 1).points() == (0, -1, 1, 1)
    assert DurakResult(4, ((2,), (0, 1, 3)), None).points() == (0, 0, 1, 0)


def test_d14_series_running_totals_and_durak_deals_next() -> None:
    rules = load("durak", players=2, series_hands=3)
    match = rules.new_match(1)
    assert isinstance(match, DurakMatch) and not match.over and match.dealer == 1
    # hand 1: seat 1 is the durak and deals the next hand
    st = match.new_hand()
    assert st.setup == (("dealer", 1), ("hand", 0))
    _, deck = make(TWO, "6S", TWO_TALON, dealer=1)
    settle(st, deck)
    show_all(st, deck)
    two_player_bout(st, deck, TWO_BOUTS[0])
    two_player_bout(st, deck, TWO_BOUTS[1])
    two_player_bout(st, deck, TWO_BOUTS[2], take_last=True)
    m2 = match.settle(st)
    assert m2.scores == (1, -1) and m2.dealer == 1 and m2.hands_played == 1
    assert match.scores == (0, 0)  # the old match is untouched
    assert "seat 0 +1, seat 1 -1" in m2.summary()
    # hand 2: a draw; nobody scores and the deal passes left
    st2 = m2.new_hand()
    settle(st2, deck)
    show_all(st2, deck)
    for pairs in TWO_BOUTS:
        two_player_bout(st2, deck, pairs)
    m3 = m2.settle(st2)
    assert m3.scores == (1, -1) and m3.dealer == 0 and not m3.over
    with pytest.raises(GameError, match="next hand"):
        m3.settle(st2)
    st3 = m3.new_hand()
    with pytest.raises(GameError, match="not over"):
        m3.settle(st3)


def test_d14_series_ends_after_series_hands() -> None:
    from p2pcards.games.playout import random_match
    from p2pcards.games.rng import Rng

    rules = load("durak", players=3, series_hands=4)
    match, hands = random_match(rules.new_match(0), Rng(7))
    assert isinstance(match, DurakMatch)
    assert match.over and hands == 4 and len(match.results) == 4
    assert sum(match.scores) == sum(sum(r.points()) for r in match.results)
    assert "over" in match.summary()
    with pytest.raises(GameError, match="over"):
        match.new_hand()
    single = load("durak").new_match(0)
    assert isinstance(single, DurakMatch) and single.series_hands == 1


# ----------------------------------------------------------------------------- options


def test_options_defaults_sorted_and_checked() -> None:
    rules = load("durak")
    assert rules.options == (("first_bout_limit_5", False), ("players", 4), ("series_hands", 1))
    assert load("durak", transfer=False, jokers=False, deck=36).options == rules.options
    # a variant is recorded only when it is on: tables of the default rules keep their options
    assert load("durak", deck=52).options == (
        ("deck", 52), ("first_bout_limit_5", False), ("players", 4), ("series_hands", 1))
    for bad in (40, True, "52", 0):
        with pytest.raises(OptionError, match=r"^durak option 'deck' is 36 or 52, not "):
            load("durak", deck=bad)
    with pytest.raises(OptionError, match=r"unknown durak option 'deck_52'; the options are: deck, "):
        load("durak", deck_52=True)
    assert load("durak", transfer=True).options == (
        ("first_bout_limit_5", False), ("players", 4), ("series_hands", 1), ("transfer", True))
    with pytest.raises(OptionError, match=r"^durak option 'transfer' is True or False$"):
        load("durak", transfer="on")
    for locked in ("jokers",):
        # the message names no version number (ours is not 1.0): it says what the variant is
        with pytest.raises(OptionError, match=r"is a locked variant this version does not play: it can "
                                              r"only be off$") as refused:
            load("durak", **{locked: True})
        assert repr(locked) in str(refused.value) and "1.0" not in str(refused.value)
    with pytest.raises(OptionError, match=r"unknown durak option 'trumps'.*players"):
        load("durak", trumps=2)
    with pytest.raises(OptionError):
        load("durak", players="4")
    with pytest.raises(OptionError):
        load("durak", players=True)
    with pytest.raises(OptionError):
        load("durak", first_bout_limit_5=1)
    with pytest.raises(OptionError):
        load("durak", series_hands=0)


def test_setup_recreates_the_hand() -> None:
    rules = load("durak", players=3)
    st = rules.new_match(2).new_hand()
    assert rules.new_hand(dict(st.setup)).digest() == st.digest()
    with pytest.raises(GameError):
        rules.new_hand({"dealer": 3})
    with pytest.raises(GameError):
        rules.new_hand({"dealer": 0, "stack": 5})
    with pytest.raises(GameError):
        rules.new_match(5)


# ----------------------------------------------------------------------------- text forms and bad input


def test_action_text_forms_round_trip() -> None:
    rules = load("durak")
    for text in ("attack 7H", "add TD", "beat 7H 9H", "take", "pass", "show 6S", "show none"):
        assert rules.action_text(rules.parse_action(text)) == text
    assert rules.parse_action("BEAT 10h 10s") == rules.parse_action("beat TH TS")
    assert rules.parse_action("beat 7h with 9h") == rules.parse_action("beat 7H 9H")
    assert rules.parse_action("attack A♠") == rules.parse_action("attack as")


@pytest.mark.parametrize("text", ["", "play 7H", "attack", "attack 5H", "attack 2C", "beat 7H", "show",
                                  "take 7H", "add 7H 8H", "attack 7X"])
def test_malformed_actions_name_the_forms(text: str) -> None:
    rules = load("durak")
    with pytest.raises(ActionError, match="the forms are"):
        rules.parse_action(text)


def test_bad_action_integers_are_refused() -> None:
    rules = load("durak")
    st, _ = make(FOUR, "9S")
    before = st.digest()
    for bad in (-5, 195, 255, 10_000, 0):  # 0 is "attack 2C": not in the deck
        with pytest.raises(ActionError):
            st.apply(bad)
        with pytest.raises(ActionError):
            rules.action_text(bad)
    assert st.digest() == before and st.moves_applied == 0


def test_illegal_action_lists_the_legal_ones_and_changes_nothing() -> None:
    st, deck = make(FOUR, "9S")
    show_all(st, deck)
    before = (st.digest(), st.clone().zones(), st.legal_texts())
    with pytest.raises(IllegalAction) as err:
        st.apply_text("attack 8C")
    assert "legal now: attack 6C, attack 6D" in str(err.value)
    assert (st.digest(), st.zones(), st.legal_texts()) == before


def test_acting_while_chance_or_over_is_refused() -> None:
    st = load("durak").new_hand({"dealer": 0})
    assert st.legal_actions() == [] and st.to_act == CHANCE
    with pytest.raises(ActionError, match="dealt or revealed first"):
        st.apply_text("pass")


def test_fulfil_checks_positions_cards_and_duplicates() -> None:
    rules = load("durak", players=2)
    st = rules.new_hand({"dealer": 1})
    assert isinstance(st, DurakState)
    before = st.digest()
    with pytest.raises(FulfilError, match="not part of this deal"):
        st.fulfil({12: parse_card("6S")})
    with pytest.raises(FulfilError, match="not a card of the durak deck"):
        st.fulfil({0: parse_card("2C")})
    with pytest.raises(FulfilError, match="given for positions"):
        st.fulfil({0: parse_card("6S"), 1: parse_card("6S")})
    assert st.digest() == before and all(c == UNKNOWN for c in st.card_at)
    st.fulfil({0: parse_card("6S")})  # a replica learns a subset
    with pytest.raises(FulfilError, match="reveal needs every position"):
        st.fulfil({})
    with pytest.raises(FulfilError, match="already known"):
        st.fulfil({12: parse_card("6S")})
    st.fulfil({12: parse_card("7S")})
    assert st.trump_suit == SPADES and st.to_act == 0
    with pytest.raises(FulfilError, match="nothing"):
        st.fulfil({})


def test_view_hides_other_hands_and_determinizes() -> None:
    st, deck = make(FOUR, "9S")
    show_all(st, deck)
    play(st, deck, "attack 6C")
    view = st.view(1)
    assert view.seat == 1 and view.to_act == 1 and sorted(view.hand) == sorted(cards("8C 8D AS KS QS JS"))
    assert view.legal_actions == tuple(st.legal_actions())
    assert view.table == ((parse_card("6C"), UNKNOWN),)
    hidden = set(view.unknown_positions)
    assert not hidden & set(st.hands[1]) and set(st.hands[2]) <= hidden and set(st.talon) - {24} <= hidden
    assert 24 not in hidden and 0 not in hidden  # the trump card and seat 0's shown 7S
    assert sorted(view.unseen_cards) == sorted(deck[p] for p in view.unknown_positions)
    det = view.determinize([deck[p] for p in view.unknown_positions])
    assert det.legal_actions() == st.legal_actions() and det.digest() == st.digest()
    assert st.view(0).legal_actions == ()
    with pytest.raises(GameError):
        st.view(4)
