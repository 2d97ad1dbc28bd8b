"""Azi's options, action texts, bad input, needs, setups, views and matches."""

from __future__ import annotations

from typing import Any

import pytest

from p2pcards import games
from p2pcards.games import CHANCE, TERMINAL, UNKNOWN, ActionError, FulfilError, GameError, IllegalAction
from p2pcards.games.azi import AziHand, AziMatch, AziView
from p2pcards.games.azi import actions as act
from p2pcards.games.base import HandRecord
from p2pcards.games.playout import fulfil_from
from tests.games.test_azi_support import AZI_HANDS, C, deck_for, drive, play, rules, start

# --------------------------------------------------------------------------- options


def test_options_are_all_listed_sorted_with_defaults() -> None:
    r = games.load("azi")
    assert r.name == "azi" and r.players == 4
    assert r.options == (("ante", 10), ("azi_buy_in", True), ("bankroll", 1000), ("blind", True),
                         ("deal", 3), ("hands", 0), ("players", 4), ("six_on_stage", True))


def test_options_accept_text_forms_and_normalise_them() -> None:
    r = rules(players="3", blind="off", deal=4, six_on_stage="no", azi_buy_in=0)
    assert dict(r.options) == {"ante": 10, "azi_buy_in": False, "bankroll": 1000, "blind": False,
                               "deal": 4, "hands": 0, "players": 3, "six_on_stage": False}


@pytest.mark.parametrize(("options", "message"), [
    ({"seats": 4}, "no option seats"),
    ({"players": 1}, "2 to 6 players"),
    ({"players": 7}, "2 to 6 players"),
    ({"players": True}, "whole number"),
    ({"deal": 5}, "3 or 4"),
    ({"ante": 0}, "ante is 1 chip"),
    ({"ante": 2000}, "up to the bankroll"),
    ({"bankroll": 0}, "bankroll is 1 to"),
    ({"bankroll": 10**7}, "bankroll is 1 to"),
    ({"blind": "maybe"}, "on or off"),
    ({"ante": 2.5}, "whole number"),
])
def test_bad_options_are_refused_clearly(options: dict[str, object], message: str) -> None:
    with pytest.raises(games.OptionError, match=message):
        games.load("azi", **options)


def test_the_deck_is_fixed() -> None:
    assert rules().deck == rules(players=6, deal=4).deck
    assert [c for c in rules().deck] == sorted(rules().deck)


# --------------------------------------------------------------------------- action texts


@pytest.mark.parametrize("text", [
    "fold", "call", "allin", "look", "buyin", "decline", "discard #1", "discard #4", "play AS",
    "play TD", "play 6H", "bet 10", "bet 1", "raise 1", "raise 990"])
def test_action_text_round_trips(text: str) -> None:
    r = rules()
    a = r.parse_action(text)
    assert r.action_text(a) == text
    assert r.parse_action(r.action_text(a)) == a


@pytest.mark.parametrize(("text", "canonical"), [
    ("All-In", "allin"), ("all in", "allin"), ("buy-in", "buyin"), ("  BUY   in ", "buyin"),
    ("play 10h", "play TH"), ("play a♠", "play AS"), ("discard 2", "discard #2"), ("RAISE 5", "raise 5")])
def test_action_parsing_is_forgiving(text: str, canonical: str) -> None:
    r = rules()
    assert r.action_text(r.parse_action(text)) == canonical


@pytest.mark.parametrize(("text", "message"), [
    ("dance", "the forms are"), ("bet", "the forms are"), ("bet x", "whole number"),
    ("raise 0", "at least 1 chip"), ("raise -3", "whole number"), ("play ZZ", "not a card"),
    ("play 2H", "not in this game's deck"), ("discard #5", "discard #1"), ("discard 7H", "stays secret"),
])
def test_malformed_actions_name_the_accepted_forms(text: str, message: str) -> None:
    with pytest.raises(ActionError, match=message):
        rules().parse_action(text)


@pytest.mark.parametrize("number", [-1, 6, 7, 12, 68, 255, 256, act.bet(act.MAX_AMOUNT + 1)])
def test_unknown_action_numbers_have_no_text(number: int) -> None:
    with pytest.raises(ActionError, match="not an action of azi"):
        rules().action_text(number)


# --------------------------------------------------------------------------- bad moves


def test_no_move_while_dealing_or_after_the_end() -> None:
    r = rules(players=2, blind=False)
    st = r.new_hand({})
    with pytest.raises(ActionError, match="being dealt"):
        st.apply(act.FOLD)
    deck = list(r.deck)
    play(st, deck, "bet 10", "fold")
    assert st.to_act == TERMINAL and st.legal_actions() == []
    d = st.digest()
    with pytest.raises(ActionError, match="hand is over"):
        st.apply(act.FOLD)
    assert st.digest() == d


@pytest.mark.parametrize(("moves", "bad", "rule"), [
    ([], "play AH", "A6"),
    ([], "discard #1", "A6"),
    ([], "buyin", "A6"),
    (["bet 10", "call", "call"], "raise 5", "A10"),
    (["bet 10", "call", "call"], "play 7H", "A10"),  # seat 0 does not hold it
    (["bet 10"], "bet 20", "A6"),
    (["bet 10"], "raise 1000", "A6"),
])
def test_illegal_moves_leave_the_state_unchanged_and_name_the_legal_ones(
        moves: list[str], bad: str, rule: str) -> None:
    r = rules(players=3, blind=False)
    deck = deck_for(r, 2, AZI_HANDS)
    st = play(start(r, deck, dealer=2), deck, *moves)
    d, legal, before = st.digest(), st.legal_actions(), st.clone()
    with pytest.raises(IllegalAction) as exc:
        st.apply_text(bad)
    assert exc.value.rule == rule and exc.value.seat == st.to_act
    assert "legal now:" in str(exc.value)
    assert st.digest() == d and st.legal_actions() == legal
    plain = {k: v for k, v in vars(st).items() if k != "_digest_cache"}
    assert plain == {k: v for k, v in vars(before).items() if k != "_digest_cache"}


def test_error_messages_write_a_run_of_amounts_short() -> None:
    r = rules(players=2, blind=False)
    deck = list(r.deck)
    st = play(start(r, deck, dealer=1), deck, "bet 10")
    with pytest.raises(IllegalAction) as exc:
        st.apply_text("bet 20")
    assert exc.value.legal == ("fold", "call", "raise 1..980")


def test_non_actions_are_refused() -> None:
    r = rules(players=2, blind=False)
    st = start(r, list(r.deck), dealer=1)
    d = st.digest()
    for bad in (-5, 7, 10**12):
        with pytest.raises(IllegalAction, match="not an azi action"):
            st.apply(bad)
    assert st.digest() == d


# --------------------------------------------------------------------------- needs


def test_fulfil_refuses_values_that_do_not_fit_and_changes_nothing() -> None:
    r = rules(players=3)
    st = r.new_hand({"dealer": 2})
    d, known = st.digest(), list(st.card_at)
    cases: list[tuple[dict[int, Any], str]] = [
        ({30: C("AH")}, "not part of this need"),
        ({0: C("2C")}, "not a card of the azi deck"),
        ({0: C("AH"), 1: C("AH")}, "already known"),
        ({0: True}, "not a card"),
    ]
    for bad, message in cases:
        with pytest.raises(FulfilError, match=message):
            st.fulfil(bad)
        assert st.digest() == d and st.card_at == known
    deck = deck_for(r, 2, AZI_HANDS)
    st.fulfil({})  # a blind deal: this replica learns nothing
    d = st.digest()
    with pytest.raises(FulfilError, match="every position must be shown"):
        st.fulfil({})
    assert st.digest() == d and st.trump_suit == -1
    full = r.new_hand({"dealer": 2})
    fulfil_from(full, deck)
    with pytest.raises(FulfilError, match="holds 9S"):
        full.fulfil({8: C("AS")})
    fulfil_from(full, deck)
    with pytest.raises(FulfilError, match="nothing is to be dealt"):
        full.fulfil({})


def test_observe_refuses_a_card_known_elsewhere() -> None:
    r = rules(players=2, blind=False)
    st = start(r, list(r.deck), dealer=1)
    with pytest.raises(FulfilError):
        st.observe(20, r.deck[0])
    with pytest.raises(FulfilError):
        st.observe(99, r.deck[0])


def test_a_partial_replica_learns_only_what_it_is_shown() -> None:
    r = rules(players=3, blind=False)
    deck = deck_for(r, 2, AZI_HANDS)
    st = r.new_hand({"dealer": 2})
    st.fulfil({p: deck[p] for p in (0, 3, 6)})  # seat 0's own cards
    st.fulfil({8: deck[8]})
    assert [c for c in st.card_at if c != UNKNOWN] == [deck[0], deck[3], deck[6], deck[8]]
    assert st.to_act == 0 and st.legal_actions()[:2] == [act.FOLD, act.bet(10)]


# --------------------------------------------------------------------------- setups and records


def test_setup_recreates_the_same_hand() -> None:
    r = rules(players=4)
    m = r.new_match(1)
    st = m.new_hand()
    again = r.new_hand(dict(st.setup))
    assert again.digest() == st.digest() and again.setup == st.setup == m.setup()
    assert dict(st.setup)["stacks"] == (1000, 1000, 1000, 1000)


@pytest.mark.parametrize(("setup", "message"), [
    ({"dealer": 4}, "dealer is a seat"),
    ({"colour": 1}, "unknown setup keys"),
    ({"stacks": (1, 2)}, "4 whole numbers"),
    ({"stacks": (1000, 5, 5, 0)}, "fewer than two players"),
    ({"free": (0, 1), "carried": (10, 10, 0, 0)}, "azi > 0"),
    ({"free": (1, 0), "carried": (10, 10, 0, 0), "azi": 1}, "distinct seats in order"),
    ({"free": (1,), "carried": (10, 10, 0, 0), "azi": 1}, "two or more free seats"),
    ({"azi": 1}, "azi replay"),
    ({"hand": -1}, "whole number"),
])
def test_bad_setups_are_refused(setup: dict[str, object], message: str) -> None:
    with pytest.raises(GameError, match=message):
        rules(players=4).new_hand(setup)


def test_a_record_survives_a_plain_dict_and_replays_to_the_same_digest() -> None:
    r = rules(players=3)
    deck = deck_for(r, 2, AZI_HANDS)
    st = play(start(r, deck, dealer=2), deck, "look", "bet 10", "call", "raise 3", "call", "call")
    rec = HandRecord.from_dict(st.record().to_dict())
    assert rec == st.record()
    assert r.replay(rec).digest() == st.digest()


def test_clone_is_independent() -> None:
    r = rules(players=3, blind=False)
    deck = deck_for(r, 2, AZI_HANDS)
    st = play(start(r, deck, dealer=2), deck, "bet 10", "call", "call")
    c = st.clone()
    play(c, deck, "play AH")
    assert st.hands[0] != c.hands[0] and st.trick == [] and st.to_act == 0
    assert st.moves_applied == 3 and c.moves_applied == 4


# --------------------------------------------------------------------------- views


def test_the_view_of_a_seat_shows_its_own_cards_and_the_public_state() -> None:
    r = rules(players=3)
    deck = deck_for(r, 2, AZI_HANDS)
    st = play(start(r, deck, dealer=2), deck, "look", "bet 10")
    v = st.view(0)
    assert isinstance(v, AziView)
    assert v.hand == (C("AH"), C("6D"), C("TD")) and v.phase == "bidding" and v.legal_actions == ()
    assert v.stacks == (980, 990, 990) and v.pot == 40 and v.level == 10 and v.lead_claim == 0
    assert v.blind == (False, True, True) and v.trump == C("9S")
    v1 = st.view(1)
    assert v1.hand == () and v1.call_cost == 5 and v1.legal_actions == tuple(st.legal_actions())
    assert v1.unknown_positions == (0, 1, 2, 3, 4, 5, 6, 7)  # its own blind cards too
    assert len(v1.unseen_cards) == 26
    with pytest.raises(GameError):
        st.view(3)


def test_determinize_gives_a_full_state_from_a_view() -> None:
    r = rules(players=3, blind=False)
    deck = deck_for(r, 2, AZI_HANDS)
    st = play(start(r, deck, dealer=2), deck, "bet 10", "call", "call", "play AH")
    v = st.view(2)
    full = v.determinize([deck[p] for p in v.unknown_positions])
    assert full.legal_actions() == st.legal_actions() == [act.play(C("7H"))]
    other = v.determinize({p: c for p, c in zip(v.unknown_positions, [C("KH"), C("QH"), C("JH"),
                                                                     C("6H"), C("6S")], strict=True)})
    assert other.to_act == 1 and st.card_at[1] == C("7H")
    with pytest.raises(GameError):
        v.determinize([C("KH")])


def test_zones_partition_the_deck() -> None:
    r = rules(players=3, deal=4, blind=False)
    deck = deck_for(r, 2, {0: "AH 6D 10D JD", 1: "7H AD 6S QD", 2: "8H 7D KD 9S"})
    st = play(start(r, deck, dealer=2), deck, "discard #4", "discard #4", "discard #3",
              "bet 10", "fold", "call", "play AH")
    zones = dict(st.zones())
    every = sorted(p for ps in zones.values() for p in ps)
    assert every == list(range(27))
    assert len(zones["mucked"]) == 3 and zones["trick"] == (0,) and len(zones["undealt"]) == 15


# --------------------------------------------------------------------------- matches


def test_matches_check_their_input() -> None:
    r = rules(players=3)
    with pytest.raises(games.OptionError):
        r.new_match(3)
    m = r.new_match(0)
    st = m.new_hand()
    with pytest.raises(GameError, match="finished"):
        m.settle(st)
    other = r.new_match(1)
    deck = list(r.deck)
    play(st, deck, "bet 5", "fold", "fold")
    with pytest.raises(GameError, match="not dealt from this match"):
        other.settle(st)
    m2 = m.settle(st)
    assert isinstance(m2, AziMatch) and m.hand_number == 0 and m2.hand_number == 1
    assert m2.chips == (990, 1020, 990) and m2.dealer == 1
    assert m2.summary() == "chips — seat 0: 990, seat 1: 1020, seat 2: 990; next dealer seat 1"


def test_results_say_what_happened() -> None:
    r = rules(players=3, blind=False)
    deck = deck_for(r, 2, AZI_HANDS)
    st = play(start(r, deck, dealer=2), deck, "bet 30", "fold", "fold")
    assert st.result is not None
    assert st.result.summary() == "seat 0 wins 60 of a pot of 60 (everybody else folded)"
    st2 = play(start(r, deck, dealer=2), deck, "bet 10", "call", "call", "play AH", "play 7H", "play 8H",
               "play 6D", "play AD", "play 7D", "play 6S", "play 9S", "play TD")
    assert st2.result is not None and st2.result.summary() == (
        "azi: one trick each (seat 0 1, seat 1 1, seat 2 1); the pot of 60 is carried over and "
        "seats 0, 1, 2 play again")


def test_a_hand_state_is_the_azi_hand() -> None:
    st = rules().new_hand({})
    assert isinstance(st, AziHand) and st.to_act == CHANCE
    drive(st, list(st.rules.deck))
    assert st.to_act == 1
