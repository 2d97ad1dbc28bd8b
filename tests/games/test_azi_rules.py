"""One or more scenario tests per numbered rule of Azi (A1-A16); the name carries the rule."""

from __future__ import annotations

import pytest

from p2pcards.games import (
    CHANCE,
    TERMINAL,
    UNKNOWN,
    ActionError,
    Deal,
    Disclose,
    IllegalAction,
    OptionError,
    Reveal,
    testing,
)
from p2pcards.games.azi import AziHand, AziMatch, AziRules, settle_pot
from p2pcards.games.cards import DIAMONDS, HEARTS, SPADES, card_text, rank_of, suit_of
from p2pcards.games.playout import fulfil_from, learned_by, random_hand
from p2pcards.games.rng import Rng
from tests.games.test_azi_support import (
    AZI_HANDS,
    C,
    Lockstep,
    cards,
    deck_for,
    drive,
    play,
    rules,
    start,
    verb_policy,
)


def texts(st: AziHand) -> list[str]:
    return st.legal_texts()


# --------------------------------------------------------------------------- cards


def test_a1_deck_has_27_cards_of_three_suits_six_to_ace() -> None:
    r = rules()
    assert len(r.deck) == 27
    assert {suit_of(c) for c in r.deck} == {HEARTS, DIAMONDS, SPADES}
    assert sorted({rank_of(c) for c in r.deck}) == list(range(6, 15))
    with pytest.raises(ActionError, match="not in this game's deck"):
        r.parse_action("play 5H")
    with pytest.raises(ActionError, match="not in this game's deck"):
        r.parse_action("play AC")


def test_a1_within_a_suit_six_is_lowest_and_ace_highest() -> None:
    r = rules(players=2, blind=False)
    # dealer 1, trump spades (7S); seat 0 leads 6H, seat 1 follows with AH and wins
    deck = deck_for(r, 1, {0: "6H 6D 8D", 1: "AH 9D 7S"})
    st = play(start(r, deck, dealer=1), deck, "bet 10", "call", "play 6H", "play AH")
    assert st.tricks == (0, 1)
    assert st.to_act == 1


def test_a2_cards_are_dealt_one_at_a_time_clockwise_from_the_dealers_left() -> None:
    r = rules(players=4)
    st = r.new_hand({"dealer": 1})
    need = st.need
    assert isinstance(need, Deal)
    assert need.hands == ((2, (0, 4, 8)), (3, (1, 5, 9)), (0, (2, 6, 10)), (1, (3, 7, 11)))
    r4 = rules(players=3, deal=4)
    need4 = r4.new_hand({"dealer": 0}).need
    assert isinstance(need4, Deal)
    assert need4.hands == ((1, (0, 3, 6, 9)), (2, (1, 4, 7, 10)), (0, (2, 5, 8, 11)))


def test_a2_the_dealers_last_card_is_turned_up_for_trump_and_stays_in_the_hand() -> None:
    r = rules(players=3)
    deck = deck_for(r, 2, AZI_HANDS)
    st = r.new_hand({"dealer": 2})
    fulfil_from(st, deck)
    assert st.need == Reveal((8,))  # the dealer's third card, the last one dealt
    fulfil_from(st, deck)
    assert st.trump_card == C("9S") and st.trump_suit == SPADES
    assert 8 in st.hands[2]
    for seat in range(3):  # known to all, blind or not
        v = st.view(seat)
        assert v.trump == C("9S")
        assert 8 not in v.unknown_positions
    assert C("9S") in st.view(2).hand


def test_a2_blind_deal_tells_nobody_open_deal_tells_each_owner() -> None:
    blind = rules(players=3).new_hand({}).need
    open_ = rules(players=3, blind=False).new_hand({}).need
    assert isinstance(blind, Deal) and not blind.disclose
    assert isinstance(open_, Deal) and open_.disclose


def test_a2_when_the_dealer_sits_out_a_replay_the_last_card_dealt_is_trump() -> None:
    r = rules(players=4, blind=False)
    setup = {"dealer": 3, "stacks": (980, 980, 980, 990), "carried": (20, 20, 20, 10),
             "free": (0, 1, 2), "azi": 1}
    st = r.new_hand(setup)
    assert st.to_act == 3  # the dealer is asked first: the only seat not free
    st.apply_text("decline")
    need = st.need
    assert isinstance(need, Deal) and [s for s, _ in need.hands] == [0, 1, 2]
    fulfil_from(st, list(r.deck))
    assert st.need == Reveal((8,)) and 8 in st.hands[2]


def test_a3_six_on_stage_when_an_ace_is_turned_up() -> None:
    r = rules(players=2, blind=False)
    # dealer 1 turns up AS: the six of spades beats it
    deck = deck_for(r, 1, {0: "6S 7H 8H", 1: "9H 10H AS"})
    st = play(start(r, deck, dealer=1), deck, "bet 10", "raise 5", "call")
    assert st.top_card == C("6S") and st.to_act == 1
    play(st, deck, "play AS", "play 6S")
    assert st.tricks == (1, 0)


def test_a3_without_the_option_or_without_an_ace_the_six_is_the_lowest_trump() -> None:
    r = rules(players=2, blind=False, six_on_stage=False)
    deck = deck_for(r, 1, {0: "6S 7H 8H", 1: "9H 10H AS"})
    st = play(start(r, deck, dealer=1), deck, "bet 10", "raise 5", "call", "play AS", "play 6S")
    assert st.top_card == -1 and st.tricks == (0, 1)
    r2 = rules(players=2, blind=False)
    deck2 = deck_for(r2, 1, {0: "6S 7H 8H", 1: "9H 10H KS"})
    st2 = play(start(r2, deck2, dealer=1), deck2, "bet 10", "raise 5", "call", "play KS", "play 6S")
    assert st2.top_card == -1 and st2.tricks == (0, 1)


def test_a4_with_four_cards_each_player_discards_one_before_the_bidding() -> None:
    r = rules(players=3, deal=4, blind=False)
    deck = deck_for(r, 2, {0: "AH 6D 10D JD", 1: "7H AD 6S QD", 2: "8H 7D KD 9S"})
    st = start(r, deck, dealer=2)
    assert st.phase_name == "discard" and st.to_act == 0
    assert texts(st) == ["discard #1", "discard #2", "discard #3", "discard #4"]
    st.apply_text("discard JD")  # an open player may name the card; the move names its place
    assert st._actions[-1] == (0, st.rules.parse_action("discard #4"))
    st.apply_text("discard #4")
    assert st.trump_pos in st.hands[2]
    st.apply_text("discard #4")  # the dealer discards the face-up 9S: trump stays spades
    assert st.trump_suit == SPADES and st.phase_name == "bidding" and st.to_act == 0
    assert [len(h) for h in st.hands] == [3, 3, 3]
    zones = dict(st.zones())
    assert zones["discard"] == tuple(st.discards) and st.trump_pos in st.discards
    assert len(zones["discard"]) == 3 and len(zones["hand 0"]) == 3


def test_a4_a_discard_never_shows_the_card() -> None:
    r = rules(players=3, deal=4, blind=False)
    deck = deck_for(r, 2, {0: "AH 6D 10D JD", 1: "7H AD 6S QD", 2: "8H 7D KD 9S"})
    st = start(r, deck, dealer=2)
    a = st.parse("discard JD")
    assert st.reveals(a) == ()
    assert st.rules.action_text(a) == "discard #4"
    with pytest.raises(ActionError, match="stays secret"):
        st.rules.parse_action("discard JD")
    st.apply(a)
    other = st.view(1)
    assert C("JD") in other.unseen_cards  # seat 1 has not seen it, and never will
    assert st.discards[0] not in other.unknown_positions
    assert C("JD") not in st.view(0).unseen_cards


def test_a4_a_blind_player_discards_by_position_without_seeing_the_card() -> None:
    r = rules(players=3, deal=4)
    deck = deck_for(r, 2, {0: "AH 6D 10D JD", 1: "7H AD 6S QD", 2: "8H 7D KD 9S"})
    st = start(r, deck, dealer=2)
    assert texts(st) == ["look", "discard #1", "discard #2", "discard #3", "discard #4"]
    with pytest.raises(ActionError, match="has not seen it"):
        st.parse("discard JD")
    st.apply_text("discard #2")
    assert st.discards == [3]  # seat 0's second card: position 3 (6D), never disclosed
    assert st.seen_by[3] == -1


# --------------------------------------------------------------------------- money


def test_a5_everyone_pays_the_ante_before_the_deal() -> None:
    r = rules(players=3, ante=10, bankroll=100)
    st = r.new_hand({})
    assert st.stack == [90, 90, 90] and st.contrib == [10, 10, 10] and st.pot == 30


def test_a5_a_player_who_cannot_pay_the_ante_sits_out_and_one_with_nothing_is_out() -> None:
    r = rules(players=4, ante=10)
    st = r.new_hand({"dealer": 0, "stacks": (100, 9, 0, 50)})
    assert st.inhand == [True, False, False, True]
    assert st.stack == [90, 9, 0, 40]
    need = st.need
    assert isinstance(need, Deal) and [s for s, _ in need.hands] == [3, 0]
    assert "seat 2: 0 (out)" in AziMatch(r, (100, 9, 0, 50), 0).summary()


def test_a5_chips_are_whole_numbers_blind_halves_round_up() -> None:
    r = rules(players=2, ante=7)
    deck = list(r.deck)
    st = start(r, deck, dealer=1)
    assert st.min_bet(0) == 4  # 4 blind chips count for 8 >= 7
    st.apply_text("bet 4")
    assert st.level == 8 and st.stack[0] == 1000 - 7 - 4
    st.apply_text("look")
    drive(st, deck)
    assert st.call_cost(1) == 8
    st.apply_text("raise 3")
    assert st.level == 11 and st.call_cost(0) == 2  # half of 3, rounded up
    assert all(isinstance(x, int) for x in st.stack + st.contrib)


# --------------------------------------------------------------------------- bidding


def test_a6_bidding_starts_left_of_the_dealer_with_a_bet_of_at_least_the_ante() -> None:
    r = rules(players=4, blind=False, ante=10)
    deck = list(r.deck)
    st = start(r, deck, dealer=2)
    assert st.phase_name == "bidding" and st.to_act == 3
    assert texts(st)[:2] == ["fold", "bet 10"]
    assert "call" not in texts(st)
    d = st.digest()
    with pytest.raises(IllegalAction, match="at least 10") as exc:
        st.apply_text("bet 9")
    assert exc.value.rule == "A6" and exc.value.seat == 3 and st.digest() == d
    with pytest.raises(IllegalAction, match="nobody has bet yet"):
        st.apply_text("call")


def test_a6_if_the_opener_folds_the_next_player_opens() -> None:
    r = rules(players=3, blind=False)
    deck = list(r.deck)
    st = play(start(r, deck, dealer=0), deck, "fold")
    assert st.to_act == 2 and not st.opened and "bet 10" in texts(st)
    play(st, deck, "bet 20")
    assert st.to_act == 0 and st.call_cost(0) == 20


def test_a6_fold_call_and_raise() -> None:
    r = rules(players=3, blind=False)
    deck = list(r.deck)
    st = play(start(r, deck, dealer=0), deck, "bet 20", "raise 30")
    assert st.lead_claim == 2 and st.level == 50 and st.contrib == [10, 30, 60]
    play(st, deck, "fold", "call")
    assert st.contrib == [10, 60, 60] and st.folded == [True, False, False]
    assert st.phase_name == "play" and st.to_act == 2  # the raiser leads; the caller gave it up


def test_a6_the_dealer_of_the_next_hand_is_the_winner_of_the_pot() -> None:
    r = rules(players=3, blind=False)
    m = r.new_match(0)
    st = m.new_hand()
    deck = list(r.deck)
    play(st, deck, "bet 10", "fold", "fold")
    assert st.result is not None and st.result.winner == 1
    m2 = m.settle(st)
    assert m2.dealer == 1
    assert m2.new_hand().order[0] == 2


def test_a7_a_blind_call_pays_half_the_bet_rounded_up() -> None:
    r = rules(players=3, blind=True, ante=10)
    deck = list(r.deck)
    st = play(start(r, deck, dealer=0), deck, "look", "bet 25")
    assert st.to_act == 2 and st.blind[2] and st.call_cost(2) == 13
    st.apply_text("call")
    assert st.contrib[2] == 10 + 13 and st.vbet[2] == 25


def test_a7_a_blind_raise_counts_double() -> None:
    r = rules(players=3, blind=True)
    deck = list(r.deck)
    st = play(start(r, deck, dealer=0), deck, "bet 5")
    assert st.level == 10 and st.contrib[1] == 15  # blind: 5 chips open at 10
    st.apply_text("raise 10")  # seat 2 pays the call (5) and 10 more: the level rises by 20
    assert st.level == 30 and st.contrib[2] == 10 + 15 and st.lead_claim == 2


def test_a7_look_at_the_start_of_a_turn_discloses_to_that_player_only() -> None:
    r = rules(players=3)
    deck = deck_for(r, 2, AZI_HANDS)
    st = start(r, deck, dealer=2)
    assert st.to_act == 0 and "look" in texts(st)
    assert st.view(0).hand == ()  # blind: seat 0 has not seen its cards
    st.apply_text("look")
    need = st.need
    assert st.to_act == CHANCE and need == Disclose(0, (0, 3, 6))
    assert learned_by(1, st, deck) == {} and learned_by(0, st, deck) == {p: deck[p] for p in (0, 3, 6)}
    fulfil_from(st, deck)
    assert st.to_act == 0 and not st.blind[0] and "look" not in texts(st)
    assert sorted(st.view(0).hand) == sorted(cards("AH 6D 10D"))
    assert st.view(1).hand == () and st.view(1).blind == (False, True, True)
    st.apply_text("bet 10")  # open now: the ante, not half of it
    assert st.level == 10 and st.contrib[0] == 20


def test_a7_the_dealers_look_discloses_only_the_cards_nobody_knows() -> None:
    r = rules(players=3)
    deck = deck_for(r, 2, AZI_HANDS)
    st = play(start(r, deck, dealer=2), deck, "bet 5", "call")
    st.apply_text("look")
    assert st.need == Disclose(2, (2, 5))  # the 9S at position 8 is already face up


def test_a7_players_still_blind_see_their_cards_when_the_play_begins() -> None:
    r = rules(players=3)
    deck = deck_for(r, 2, AZI_HANDS)
    st = play(start(r, deck, dealer=2), deck, "bet 5", "call")
    st.apply_text("call")
    assert st.need == Disclose(0, (0, 3, 6))
    fulfil_from(st, deck)
    assert st.need == Disclose(1, (1, 4, 7))
    fulfil_from(st, deck)
    assert st.need == Disclose(2, (2, 5))
    fulfil_from(st, deck)
    assert st.phase_name == "play" and st.to_act == 0 and not any(st.blind)


def test_a7_blind_off_means_no_look_and_no_discount() -> None:
    r = rules(players=3, blind=False)
    deck = list(r.deck)
    st = start(r, deck, dealer=0)
    assert "look" not in texts(st) and st.min_bet(1) == 10
    with pytest.raises(IllegalAction) as exc:
        st.apply_text("look")
    assert exc.value.rule == "A7"


def test_a8_each_player_raises_at_most_three_times() -> None:
    r = rules(players=2, blind=False)
    deck = list(r.deck)
    st = play(start(r, deck, dealer=1), deck, "bet 10",
              "raise 1", "raise 1", "raise 1", "raise 1", "raise 1", "raise 1")
    assert st.to_act == 1 and st.raises == [3, 3]
    assert texts(st) == ["fold", "call"]
    d = st.digest()
    with pytest.raises(IllegalAction, match="at most 3") as exc:
        st.apply_text("raise 1")
    assert exc.value.rule == "A8" and st.digest() == d


def test_a8_bidding_ends_when_all_have_called_since_the_last_raise() -> None:
    r = rules(players=4, blind=False)
    deck = list(r.deck)
    st = play(start(r, deck, dealer=3), deck, "bet 10", "raise 10", "call", "call")
    assert st.phase_name == "bidding" and st.to_act == 0  # the opener must answer the raise
    st.apply_text("call")
    assert st.phase_name == "play" and st.to_act == 1  # the last raiser leads


def test_a8_if_nobody_raised_the_opener_leads() -> None:
    r = rules(players=3, blind=False)
    deck = list(r.deck)
    st = play(start(r, deck, dealer=1), deck, "fold", "bet 10", "call")
    assert st.phase_name == "play" and st.to_act == 0 and st.leader == 0


def test_a8_when_all_but_one_fold_that_player_wins_at_once() -> None:
    r = rules(players=3, blind=False)
    deck = list(r.deck)
    st = play(start(r, deck, dealer=0), deck, "bet 30", "fold", "fold")
    res = st.result
    assert st.to_act == TERMINAL and res is not None
    assert res.winner == 1 and res.uncontested and res.tricks == (0, 0, 0)
    assert res.payouts == (0, 60, 0) and res.stacks == (990, 1020, 990)


def test_a9_all_in_when_a_player_cannot_call() -> None:
    r = rules(players=3, blind=False)
    deck = list(r.deck)
    st = start(r, deck, dealer=2, stacks=(1000, 40, 1000))
    play(st, deck, "bet 10", "call", "raise 50")
    assert st.to_act == 0 and st.call_cost(0) == 50
    play(st, deck, "call")
    assert st.to_act == 1 and st.phase_name == "bidding"
    # seat 1 would owe 50 but holds 20: fold or all-in
    assert texts(st) == ["fold", "allin"]
    with pytest.raises(IllegalAction) as exc:
        st.apply_text("call")
    assert exc.value.rule == "A9"
    st.apply_text("allin")
    assert st.stack[1] == 0 and st.contrib[1] == 40 and not st.folded[1]


def test_a9_an_all_in_player_loses_the_right_to_lead() -> None:
    r = rules(players=2, blind=False)
    deck = list(r.deck)
    st = start(r, deck, dealer=0, stacks=(1000, 15))
    assert st.to_act == 1 and texts(st) == ["fold", "allin"]  # 5 chips left: it cannot open
    play(st, deck, "allin", "bet 10")
    assert st.phase_name == "play" and st.to_act == 0  # the all-in player does not lead
    st2 = start(r, deck, dealer=1, stacks=(1000, 15))
    play(st2, deck, "bet 10")
    assert texts(st2) == ["fold", "allin"]
    st2.apply_text("allin")
    assert st2.phase_name == "play" and st2.to_act == 0 and st2.lead_claim == 0


def test_a9_an_opener_who_cannot_pay_the_ante_may_go_all_in_and_the_next_opens() -> None:
    r = rules(players=3, blind=False)
    deck = list(r.deck)
    st = start(r, deck, dealer=2, stacks=(15, 1000, 1000))
    assert texts(st) == ["fold", "allin"]
    play(st, deck, "allin", "bet 10", "call")
    assert st.phase_name == "play" and st.leader == 1
    assert st.contrib == [15, 20, 20]


def test_a9_allin_is_refused_to_a_player_who_can_call() -> None:
    r = rules(players=2, blind=False)
    deck = list(r.deck)
    st = play(start(r, deck, dealer=1), deck, "bet 10")
    d = st.digest()
    with pytest.raises(IllegalAction, match="allin is for a player who cannot") as exc:
        st.apply_text("allin")
    assert exc.value.rule == "A9" and st.digest() == d


# --------------------------------------------------------------------------- play


def _to_play(deck_hands: dict[int, str], dealer: int = 2) -> tuple[AziHand, list[int]]:
    r = rules(players=3, blind=False)
    deck = deck_for(r, dealer, deck_hands)
    st = play(start(r, deck, dealer=dealer), deck, "bet 10", "call", "call")
    return st, deck


def test_a10_the_bid_winner_leads_any_card() -> None:
    st, _ = _to_play(AZI_HANDS)
    assert st.to_act == 0 and sorted(texts(st)) == sorted(["play AH", "play 6D", "play TD"])


def test_a10_a_player_must_follow_suit_with_any_rank() -> None:
    st, deck = _to_play({0: "AH 6D 10D", 1: "7H KS 6S", 2: "8H 7D 9S"})
    play(st, deck, "play AH")
    assert texts(st) == ["play 7H"]
    d = st.digest()
    with pytest.raises(IllegalAction, match="must follow suit with 7H") as exc:
        st.apply_text("play KS")
    assert exc.value.rule == "A10" and exc.value.seat == 1 and st.digest() == d


def test_a10_a_player_who_cannot_follow_must_trump_else_play_any() -> None:
    st, deck = _to_play({0: "AH 6D 10D", 1: "7D KS 6S", 2: "8D 7H 9S"})
    play(st, deck, "play AH")
    assert sorted(texts(st)) == ["play 6S", "play KS"]  # no hearts: a trump
    with pytest.raises(IllegalAction, match="must play a trump") as exc:
        st.apply_text("play 7D")
    assert exc.value.rule == "A10"
    st2, deck2 = _to_play({0: "AH 6D 10D", 1: "7D KD QD", 2: "8D 7H 9S"})
    play(st2, deck2, "play AH")
    assert sorted(texts(st2)) == ["play 7D", "play KD", "play QD"]  # no hearts, no trumps: any
    play(st, deck, "play 6S")
    play(st2, deck2, "play 7D")
    assert st.view(0).voids[1] == (HEARTS,)  # everyone now knows seat 1 has no hearts
    assert st2.view(2).voids[1] == (HEARTS, SPADES)  # ... and no trumps either


def _lockstep_to(r: AziRules, deck: list[int], dealer: int, moves: list[str]) -> Lockstep:
    ls = Lockstep(r, {"dealer": dealer}, deck)
    for t in moves:
        ls.deal()
        ls.act(r.parse_action(t))
    ls.deal()
    return ls


def test_a10_a_renege_is_deferred_on_a_partial_replica_and_named_by_the_audit() -> None:
    r = rules(players=3, blind=False)
    deck = deck_for(r, 2, {0: "AH 6D 10D", 1: "7H KS QD", 2: "8H 7D 9S"})
    ls = _lockstep_to(r, deck, 2, ["bet 10", "call", "call", "play AH"])
    cheat = r.parse_action("play KS")  # seat 1 holds 7H
    with pytest.raises(IllegalAction, match="must follow suit") as exc:
        ls.full.apply(cheat)
    assert exc.value.seat == 1 and exc.value.rule == "A10"
    part = ls.parts[0]  # seat 0 cannot know seat 1's other cards: the check waits for the audit
    part.observe(deck.index(C("KS")), C("KS"))
    part.apply(cheat)
    rec = part.record()
    opened = testing.record(r, dict(rec.setup), deck, rec.actions)
    verdict = r.audit(opened)
    assert not verdict.ok and verdict.seat == 1 and verdict.rule == "A10" and verdict.step == 4
    assert r.audit(ls.full.record()).ok


def test_a10_a_renege_against_the_face_up_trump_is_caught_by_everyone() -> None:
    r = rules(players=2, blind=False)
    # dealer 1 holds the face-up 9S and no hearts; seat 0 leads AH; 7D would be a renege
    deck = deck_for(r, 1, {0: "AH 6H 8H", 1: "7D 8D 9S"})
    ls = _lockstep_to(r, deck, 1, ["bet 10", "call", "play AH"])
    part = ls.parts[0]
    part.observe(deck.index(C("7D")), C("7D"))
    d = part.digest()
    with pytest.raises(IllegalAction, match="must play a trump") as exc:
        part.apply(r.parse_action("play 7D"))
    assert exc.value.seat == 1 and exc.value.rule == "A10" and part.digest() == d


def test_a11_the_highest_trump_wins_and_the_winner_leads() -> None:
    st, deck = _to_play({0: "AH 6D 10D", 1: "7D KS 6S", 2: "8H 7H 9S"})
    play(st, deck, "play AH", "play 6S", "play 8H")
    assert st.tricks == (0, 1, 0) and st.to_act == 1
    st2, deck2 = _to_play({0: "AH 6D 10D", 1: "7D KS 6S", 2: "8D JD 9S"})
    play(st2, deck2, "play AH", "play 6S", "play 9S")
    assert st2.tricks == (0, 0, 1) and st2.to_act == 2


def test_a11_without_trumps_the_highest_card_of_the_suit_led_wins() -> None:
    st, deck = _to_play({0: "10H 6D 10D", 1: "7D KD QD", 2: "8D JH 9S"})
    play(st, deck, "play 10H", "play KD", "play JH")  # KD is higher but off suit
    assert st.tricks == (0, 0, 1) and st.to_act == 2


def test_a12_the_first_to_two_tricks_wins_at_once() -> None:
    st, deck = _to_play({0: "AH AD 10D", 1: "7H 8D 6S", 2: "8H 7D 9S"})
    play(st, deck, "play AH", "play 7H", "play 8H", "play AD", "play 8D", "play 7D")
    res = st.result
    assert st.to_act == TERMINAL and res is not None and res.winner == 0 and not res.azi
    assert res.tricks == (2, 0, 0)
    assert len(st.hands[0]) == 1  # the third trick is not played
    assert res.payouts == (60, 0, 0) and res.stacks == (1040, 980, 980)


# --------------------------------------------------------------------------- settling


def test_a13_worked_check_all_in_winner_takes_90_and_the_others_get_70_back() -> None:
    assert settle_pot((30, 100, 100), 0, winner_all_in=True) == (90, 70, 70)
    r = rules(players=3, blind=False)
    # A = seat 0 with 30 chips, B = seat 1, C = seat 2 (dealer); A takes two tricks
    deck = deck_for(r, 2, {0: "AH AD 10D", 1: "7H 8D 6S", 2: "8H 7D 9S"})
    st = start(r, deck, dealer=2, stacks=(30, 1000, 1000))
    play(st, deck, "bet 10", "raise 80", "call", "allin")
    assert st.contrib == [30, 100, 100] and st.stack[0] == 0 and st.leader == 1
    play(st, deck, "play 7H", "play 8H", "play AH", "play AD", "play 8D", "play 7D")
    res = st.result
    assert res is not None and res.winner == 0
    assert res.payouts == (90, 70, 70)
    assert res.stacks == (90, 970, 970)
    assert sum(res.stacks) == 30 + 2000


def test_a13_a_winner_who_is_not_all_in_takes_the_whole_pot() -> None:
    assert settle_pot((30, 100, 100), 1, winner_all_in=False) == (0, 230, 0)
    assert settle_pot((130, 100, 50), 2, winner_all_in=True) == (80, 50, 150)


# --------------------------------------------------------------------------- azi


def _azi_hand(players: int = 3, **options: object) -> tuple[AziHand, list[int]]:
    r = rules(players=players, blind=False, **options)
    hands = dict(AZI_HANDS)
    if players == 4:
        hands[3] = "JH QH KH"
    deck = deck_for(r, 2, hands)
    m = r.new_match(2)
    st = drive(m.new_hand(), deck)
    if players == 4:
        play(st, deck, "fold")
    play(st, deck, "bet 10", "call", "call",
         "play AH", "play 7H", "play 8H", "play 6D", "play AD", "play 7D", "play 6S", "play 9S", "play 10D")
    return st, deck


def test_a14_one_trick_each_is_azi_and_the_pot_is_carried_over() -> None:
    st, _ = _azi_hand()
    res = st.result
    assert res is not None and res.azi and res.winner is None
    assert res.tricks == (1, 1, 1) and res.trick_winners == (0, 1, 2)
    assert res.payouts == (0, 0, 0) and res.pot == 60 and res.stacks == (980, 980, 980)
    m = AziMatch(st.rules, (st.rules.bankroll,) * st.rules.n, 2).settle(st)
    assert m.dealer == 2 and m.pot == 60 and m.free == (0, 1, 2) and not m.over


def test_a14_the_replay_is_dealt_by_the_same_dealer_and_trick_winners_pay_nothing() -> None:
    st, deck = _azi_hand()
    m = AziMatch(st.rules, (st.rules.bankroll,) * st.rules.n, 2).settle(st)
    nxt = m.new_hand()
    assert nxt.dealer == 2 and nxt.contrib == [20, 20, 20] and nxt.stack == [980, 980, 980]
    assert isinstance(nxt.need, Deal)  # nobody else to ask: straight to the deal
    drive(nxt, deck)
    assert nxt.phase_name == "bidding" and nxt.to_act == 0 and nxt.level == 0
    assert "bet 10" in texts(nxt)  # the opener's minimum is the ante again


def test_a14_others_may_buy_in_for_half_the_pot_asked_clockwise_from_the_dealers_left() -> None:
    st, _ = _azi_hand(players=4)
    res = st.result
    assert res is not None and res.azi and res.contributions == (20, 20, 20, 10)
    m = AziMatch(st.rules, (st.rules.bankroll,) * st.rules.n, 2).settle(st)
    nxt = m.new_hand()
    assert nxt.phase_name == "buy-in" and nxt.to_act == 3 and nxt.price == 35
    assert texts(nxt) == ["buyin", "decline"]
    nxt.apply_text("buyin")
    assert nxt.stack[3] == 990 - 35 and nxt.contrib[3] == 45 and nxt.inhand[3]
    need = nxt.need
    assert isinstance(need, Deal) and [s for s, _ in need.hands] == [3, 0, 1, 2]


def test_a14_buy_in_price_rounds_up_and_only_those_who_can_pay_are_asked() -> None:
    r = rules(players=5)
    st = r.new_hand({"dealer": 0, "stacks": (500, 500, 500, 40, 600), "carried": (30, 30, 30, 10, 1),
                     "free": (0, 1, 2), "azi": 1})
    assert st.price == 51 and st.queue == (4,) and st.to_act == 4


def test_a14_without_buy_in_only_the_trick_winners_play_again() -> None:
    st, _ = _azi_hand(players=4, azi_buy_in=False)
    m = AziMatch(st.rules, (st.rules.bankroll,) * st.rules.n, 2).settle(st)
    nxt = m.new_hand()
    need = nxt.need
    assert isinstance(need, Deal) and [s for s, _ in need.hands] == [0, 1, 2]


def test_a14_a_replay_pot_keeps_every_contribution() -> None:
    st, _ = _azi_hand(players=4)
    m = AziMatch(st.rules, (st.rules.bankroll,) * st.rules.n, 2).settle(st)
    nxt = m.new_hand()
    nxt.apply_text("decline")
    r = nxt.rules
    deck2 = deck_for(r, 2, {0: "AH AD 10D", 1: "7H 8D 6S", 2: "8H 7D 9S"})
    play(nxt, deck2, "bet 10", "call", "call",
         "play AH", "play 7H", "play 8H", "play AD", "play 8D", "play 7D")
    res = nxt.result
    assert res is not None and res.winner == 0
    assert res.contributions == (30, 30, 30, 10) and res.payouts == (100, 0, 0, 0)
    m3 = m.settle(nxt)
    assert m3.pot == 0 and m3.dealer == 0 and sum(m3.chips) == 4000


# --------------------------------------------------------------------------- match


def test_a15_the_match_goes_on_until_one_player_holds_every_chip() -> None:
    r = rules(players=2, blind=False, bankroll=20, ante=10)
    deck = deck_for(r, 0, {1: "AH AD 10D", 0: "7H 8D 6S"})
    m = r.new_match(0)
    st = play(m.new_hand(), deck, "bet 10", "call", "play AH", "play 7H", "play AD", "play 8D")
    m2 = m.settle(st)
    assert m2.chips == (0, 40) and m2.over and m2.winner == 1
    assert "seat 1 holds every chip" in m2.summary()
    with pytest.raises(Exception, match="over"):
        m2.new_hand()


def test_a15_the_players_may_agree_to_stop_and_a_carried_pot_goes_back() -> None:
    st, _ = _azi_hand()
    m = AziMatch(st.rules, (st.rules.bankroll,) * st.rules.n, 2).settle(st)
    stopped = m.stop()
    assert stopped.over and stopped.chips == (1000, 1000, 1000) and stopped.pot == 0


def test_a15_chips_never_appear_or_vanish_over_a_match() -> None:
    r = rules(players=4, bankroll=100, ante=5)
    m = r.new_match(3)
    rng = Rng(7)
    hands = 0
    while not m.over and hands < 200:
        m = m.settle(random_hand(m.new_hand(), rng))
        hands += 1
        assert sum(m.chips) + m.pot == 400
    assert m.over


def test_a15_a_match_ends_when_fewer_than_two_players_can_pay_the_ante() -> None:
    r = rules(players=3, ante=10)
    m = AziMatch(r, (2990, 5, 5), 0)
    assert m.over and m.winner is None and "over" in m.summary()


def test_a15_a_player_who_cannot_pay_the_ante_is_out_for_the_rest_of_the_match() -> None:
    r = rules(players=3, ante=10, blind=False)
    m = AziMatch(r, (9, 500, 500), 1)
    assert m.out == (0,) and m.seated == (1, 2) and not m.over
    st = m.new_hand()
    assert not st.inhand[0] and st.stack[0] == 9  # not dealt in, its chips kept
    need = drive(st, deck_for(r, 1, {2: "AH AD 10D", 1: "7H 8D 6S"})).need
    assert need is None and st.to_act == 2
    standings = m.standings()
    assert [(s.seat, s.score, s.status) for s in standings.seats] == [
        (0, 9, "out"), (1, 500, "playing"), (2, 500, "playing")]
    assert [s.seat for s in standings.ranking()] == [1, 2, 0]  # highest first
    # out for good: even a seat that came back with chips would stay out (A15, "the rest of the match")
    assert AziMatch(r, (500, 500, 500), 1, out=(0,)).out == (0,)
    assert AziMatch(r, (500, 500, 500), 1, out=(0,)).seated == (1, 2)


def test_a15_the_match_ends_after_the_hands_option_and_a_replay_is_part_of_its_hand() -> None:
    st, _ = _azi_hand(hands=1)  # an azi: the first hand's pot is carried
    assert st.result is not None and st.result.azi
    m = AziMatch(st.rules, (st.rules.bankroll,) * st.rules.n, 2).settle(st)
    assert m.pot and not m.over and m.hands_played == 0  # the replay belongs to the first hand
    assert m.seated == (0, 1, 2)
    limited = rules(players=3, hands=4, blind=False, bankroll=5000)
    m2, rng, dealt = limited.new_match(0), Rng(2), 0
    while not m2.over:
        hand, deck = m2.new_hand(), list(limited.deck)
        rng.shuffle(deck)
        while hand.to_act != TERMINAL:
            if hand.to_act == CHANCE:
                fulfil_from(hand, deck)
            else:
                hand.apply(verb_policy(hand, rng))
        m2, dealt = m2.settle(hand), dealt + 1
    # four pots won in five deals (one azi replay): the limit, not the chips, ended the match
    assert m2.hands_played == 4 and dealt == 5 and m2.standings().over and len(m2.seated) >= 2
    assert rules(hands=0).hands == 0 and "hands" in dict(rules().options)
    with pytest.raises(OptionError):
        rules(hands=-1)


def test_a15_chips_are_conserved_through_seats_leaving_returning_and_void_hands() -> None:
    for seed in range(30):
        r = rules(players=4, bankroll=200, ante=10, hands=12)
        rng = Rng(seed)
        m = r.new_match(rng.below(4))
        total = 4 * 200
        while not m.over:
            roll = rng.below(8)
            seat = rng.below(4)
            if roll == 0:
                m = m.without(seat)
            elif roll == 1:
                m = m.with_seat(seat)
            elif roll == 2:
                m = m.void_hand()
            else:
                m = m.settle(random_hand(m.new_hand(), rng))
            assert sum(m.chips) + m.pot == total
            assert all(s not in m.seated for s in m.away) and all(s not in m.seated for s in m.out)
        assert sum(s.score for s in m.standings().seats) + dict(m.standings().extra).get("pot", 0) == total


def _a16_hand(stacks: tuple[int, int, int], *bets: str, blind: bool = False) -> AziHand:
    """Seat 0 (A) wins the first two tricks when seat 1 (B) leads; seat 2 deals (spades trump)."""
    r = rules(players=3, ante=10, blind=blind)
    deck = deck_for(r, 2, {0: "AS KS QS", 1: "AH AD 7D", 2: "6H 7H 6S"})
    st = play(AziMatch(r, stacks, 2).new_hand(), deck, *bets)
    assert st.phase_name == "play" and st.to_act == 1
    return play(st, deck, "play AH", "play 6H", "play QS", "play KS", "play 7D", "play 6S")


def test_a16_worked_check_an_all_in_bet_takes_90_and_the_raise_above_it_goes_back() -> None:
    # stacks 30, 1000, 1000: A bets its 20 after the ante (all-in), B raises to 50, C calls, A wins
    st = _a16_hand((30, 1000, 1000), "bet 20", "raise 30", "call")
    result = st.result
    assert result is not None and result.winner == 0 and result.tricks == (2, 0, 0)
    assert result.contributions == (30, 60, 60)
    assert result.payouts == (90, 30, 30) and result.stacks == (90, 970, 970)


def test_a16_a_call_with_exactly_what_it_has_takes_only_what_it_matched() -> None:
    st = _a16_hand((40, 100, 100), "bet 30", "raise 20", "call")
    assert st.stack[0] == 0 and st.view(1).all_in[0]
    result = st.result
    assert result is not None and result.winner == 0
    assert result.contributions == (40, 60, 60) and result.payouts == (120, 20, 20)


def test_a16_an_all_in_winner_nobody_outbid_takes_the_whole_pot() -> None:
    r = rules(players=3, ante=10, blind=False)
    deck = deck_for(r, 2, {0: "AS KS QS", 1: "AH AD 7D", 2: "6H 7H 6S"})
    st = play(AziMatch(r, (40, 100, 100), 2).new_hand(), deck, "bet 30", "call", "call",
              "play AS", "play 7D", "play 6S", "play KS", "play AD", "play 7H")
    result = st.result
    assert result is not None and result.winner == 0 and st.stack[0] == 0
    assert result.contributions == (40, 40, 40) and result.payouts == (120, 0, 0)


def test_a16_a_short_all_in_takes_what_it_put_in_from_each() -> None:
    st = _a16_hand((30, 100, 100), "bet 10", "raise 40", "call", "allin")
    result = st.result
    assert result is not None and result.winner == 0
    assert result.contributions == (30, 60, 60) and result.payouts == (90, 30, 30)


def test_a16_a_blind_all_in_winner_counts_its_blind_payments_double() -> None:
    # A stays blind: its opening 5 counts for 10; B (having looked) raises to 55, C calls; A's blind
    # allin of its last 15 counts for 30 (level 40 of 55): c_w = 30 + 20 paid blind = 50
    st = _a16_hand((30, 1000, 1000), "bet 5", "look", "raise 45", "look", "call", "allin", blind=True)
    assert st.blind_paid == [20, 0, 0]
    result = st.result
    assert result is not None and result.winner == 0
    assert result.contributions == (30, 65, 65) and result.payouts == (130, 15, 15)


def test_a16_a_blind_caller_who_matched_the_level_takes_the_whole_pot() -> None:
    # A's blind call of its last 15 reaches the level of 40: it is all-in, not short
    st = _a16_hand((30, 1000, 1000), "bet 5", "look", "raise 30", "look", "call", "call", blind=True)
    result = st.result
    assert result is not None and result.winner == 0 and st.stack[0] == 0
    assert result.contributions == (30, 50, 50) and result.payouts == (130, 0, 0)


def test_a16_blind_payments_and_all_in_carry_into_the_replay_and_raises_restart() -> None:
    r = rules(players=3)
    # seat 0 paid 20 of its 30 blind in the first deal and has nothing left
    m = AziMatch(r, (0, 940, 940), 2, hand_number=1, carried=(30, 60, 60), free=(0, 1), azi=1,
                 blind_paid=(20, 0, 0))
    st = m.new_hand()
    assert dict(st.setup)["blind_paid"] == (20, 0, 0)
    assert st.raises == [0, 0, 0]  # the replay's bidding counts raises afresh
    assert st.to_act == 2 and st.legal_texts() == ["buyin", "decline"]
    st.apply_text("decline")
    deck = deck_for(r, 2, {0: "AD KD QD", 1: "AH 7H 6D"})  # 6D, the last card dealt, is trump
    play(st, deck, "look", "bet 40")
    assert st.phase_name == "play"  # seat 0 is all-in: nobody else can answer
    play(st, deck, "play AH", "play QD", "play AD", "play 6D")
    result = st.result
    assert result is not None and result.winner == 0
    # c_w = 30 + 20 = 50: seat 1 (60 + 40 now) gets 50 back, seat 2 (60, out of the replay) 10
    assert result.contributions == (30, 100, 60) and result.payouts == (130, 50, 10)
    assert sum(result.stacks) == 0 + 940 + 940 + 150


def test_information_cards_played_are_public_hidden_cards_stay_unknown() -> None:
    st, _ = _to_play(AZI_HANDS)
    st.apply_text("play AH")
    v = st.view(2)
    assert v.trick == ((0, C("AH")),)
    assert sorted(v.unknown_positions) == sorted(st.hands[0] + st.hands[1])
    m = v.masked
    assert all(m.card_at[p] == UNKNOWN for p in st.hands[1])
    assert card_text(v.trump) == "9S"


def _replay_without_the_dealer() -> tuple[AziMatch, AziHand]:
    """The issue's example: 4 players, dealer 3 folds, seats 0, 1, 2 take a trick each, no buy-in."""
    r = rules(players=4, blind=False, azi_buy_in=False)
    deck = deck_for(r, 3, {0: "AH 6D 8D", 1: "6H AD 8H", 2: "7H 7D 6S", 3: "KH KD 9S"})
    m = r.new_match(3)
    st = play(m.new_hand(), deck, "bet 10", "call", "call", "fold",
              "play AH", "play 6H", "play 7H", "play 6D", "play AD", "play 7D",
              "play 8H", "play 6S", "play 8D")
    res = st.result
    assert res is not None and res.azi and res.trick_winners == (0, 1, 2)
    return m.settle(st), st


def test_a14_a16_a_replay_the_dealer_takes_no_part_in_is_still_dealt_by_the_dealer() -> None:
    m, _ = _replay_without_the_dealer()
    assert m.dealer == 3 and 3 not in m.seated
    nxt = m.new_hand()
    assert nxt.dealer == 3 and dict(nxt.setup)["dealer"] == 3
    need = nxt.need
    # the deal starts at the dealer's left and skips the dealer, who holds no cards
    assert isinstance(need, Deal) and need.hands == ((0, (0, 3, 6)), (1, (1, 4, 7)), (2, (2, 5, 8)))
    r = nxt.rules
    deck = deck_for(r, 3, {0: "AS KS QS", 1: "AD KD QD", 2: "AH KH QH"}, seats=(0, 1, 2))
    fulfil_from(nxt, deck)
    # the trump is the last card dealt (seat 2's third card), not a card of the dealer
    assert nxt.need == Reveal((8,))
    drive(nxt, deck)
    assert card_text(nxt.trump_card) == "QH"
    assert nxt.phase_name == "bidding" and nxt.to_act == 0  # the dealer's left opens (A6)
