"""Scenario tests for Spades: one or more per numbered rule (S1-S15), options, actions, bad input.
Blind nil (S16-S18) is in ``test_spades_blind``."""

from __future__ import annotations

import pytest

from p2pcards.games import CHANCE, TERMINAL, UNKNOWN, Deal, load, testing
from p2pcards.games.base import ActionError, FulfilError, GameError, IllegalAction, OptionError
from p2pcards.games.cards import card_text, parse_card
from p2pcards.games.playout import learned_by
from p2pcards.games.spades import HandResult, Rules, SpadesMatch, SpadesState, score_hand
from p2pcards.games.spades.state import trick_winner

# --------------------------------------------------------------------------- helpers


def spades(**options: object) -> Rules:
    rules = load("spades", **options)
    assert isinstance(rules, Rules)
    return rules

SUITS = "CDHS"


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def suit(letter: str) -> list[int]:
    """The 13 cards of a suit, 2 up to A."""
    s = SUITS.index(letter)
    return list(range(13 * s, 13 * s + 13))


def deck_for(hands: dict[int, list[int]], dealer: int = 0) -> list[int]:
    """A deck order dealing exactly ``hands`` (seat -> 13 cards), laid out by the engine's own deal."""
    assert all(len(cs) == 13 for cs in hands.values())
    deck = testing.deal("spades", hands, dealer=dealer).deck
    assert sorted(deck) == list(range(52))
    return deck


def split_deck(*hand_texts: str) -> dict[int, list[int]]:
    """Hands given as text for seats 0..3; a seat given as '' gets the cards nobody else holds."""
    given = {seat: cards(t) for seat, t in enumerate(hand_texts) if t}
    rest = sorted(set(range(52)) - {c for cs in given.values() for c in cs})
    for seat in range(4):
        if seat not in given:
            given[seat], rest = rest[:13], rest[13:]
    return given


def dealt(hands: dict[int, list[int]], dealer: int = 0, rules: Rules | None = None,
          **setup: object) -> tuple[SpadesState, list[int]]:
    rules = rules or spades()
    deck = deck_for(hands, dealer)
    state = rules.new_hand({"dealer": dealer, **setup})
    need = state.need
    assert isinstance(need, Deal)
    state.fulfil({p: deck[p] for p in need.positions()})
    return state, deck


def bid_all(state: SpadesState, *bids: str) -> None:
    for b in bids:
        state.apply_text(f"bid {b}")


def play(state: SpadesState, *texts: str) -> None:
    for t in texts:
        state.apply_text(f"play {t}")


def lowest_legal(state: SpadesState) -> None:
    """Play the hand out with each seat playing its lowest legal card."""
    while state.to_act >= 0:
        state.apply(state.legal_actions()[0])


def partial(state: SpadesState, deck: list[int], seat: int) -> SpadesState:
    """A replica of ``seat`` of a fresh hand with the same setup: it learns only its own cards."""
    rep = state.rules.new_hand(dict(state.setup))
    assert isinstance(rep, SpadesState)
    rep.fulfil(learned_by(seat, rep, deck))
    return rep


def apply_everywhere(full: SpadesState, reps: list[SpadesState], text: str) -> None:
    action = full.rules.parse_action(text)
    shown = full.reveals(action)
    full.apply(action)
    for rep in reps:
        for p in shown:
            rep.observe(p, full.card_at[p])
        rep.apply(action)


# four hands used by many scenarios (dealer 0: seat 1 bids and leads first)
#   seat 0: all the hearts
#   seat 1: all the clubs
#   seat 2: all the diamonds
#   seat 3: all the spades
ONE_SUIT_EACH = {0: suit("H"), 1: suit("C"), 2: suit("D"), 3: suit("S")}

MIXED = split_deck(
    "AS KS 2S AH KH 3H AD 5D 2C 3C 4C 5C 6C",   # seat 0
    "QS 3S 4S QH 4H 5H KD 6D 7C 8C 9C TC JC",   # seat 1
    "JS 5S 6S JH 6H 7H QD 7D 8D QC KC AC 2D",   # seat 2
    "",                                         # seat 3: the rest
)


# --------------------------------------------------------------------------- S1 setup


def test_s1_four_players_fixed_and_deck_of_52():
    rules = spades()
    assert rules.players == 4
    assert rules.deck == tuple(range(52))
    for n in (2, 3, 5, 6):
        with pytest.raises(OptionError, match="exactly 4"):
            spades(players=n)


def test_s1_thirteen_each_dealt_one_at_a_time_from_dealers_left():
    for dealer in range(4):
        state = spades().new_hand({"dealer": dealer})
        need = state.need
        assert state.to_act == CHANCE and isinstance(need, Deal) and need.disclose
        hands = dict(need.hands)
        # the k-th card dealt goes to the k-th seat clockwise from the dealer's left
        for k in range(52):
            assert k in hands[(dealer + 1 + k) % 4]
        assert all(len(ps) == 13 for ps in hands.values())
        assert sorted(need.positions()) == list(range(52))
        assert need == Deal(need.hands)


def test_s1_partners_sit_opposite():
    state, _ = dealt(ONE_SUIT_EACH)
    bid_all(state, "1", "1", "1", "1")
    lowest_legal(state)
    result = state.result
    assert isinstance(result, HandResult)
    # seat 3 holds every spade and takes every trick: team 1 is seats 1 and 3
    assert result.tricks == (0, 0, 0, 13)
    assert result.teams[1].tricks == 13 and result.teams[1].made
    assert result.teams[0].tricks == 0 and not result.teams[0].made


def test_s1_zones_after_the_deal():
    state, deck = dealt(MIXED)
    zones = dict(state.zones())
    for seat in range(4):
        assert sorted(deck[p] for p in zones[f"hand {seat}"]) == sorted(MIXED[seat])
    assert zones["trick"] == ()


# --------------------------------------------------------------------------- S2 dealer


def test_s2_deal_passes_clockwise_each_hand():
    rules = spades()
    match = rules.new_match(2)
    dealers = []
    for _ in range(5):
        state = match.new_hand()
        dealers.append(state.dealer)
        deck = list(range(52))
        state.fulfil(dict(enumerate(deck)))
        bid_all(state, "1", "1", "1", "1")
        lowest_legal(state)
        match = match.settle(state)
        if match.over:
            break
    assert dealers[:4] == [2, 3, 0, 1]


def test_s2_first_dealer_is_a_seat():
    rules = spades()
    for bad in (-1, 4, "0", True):
        with pytest.raises(GameError):
            rules.new_match(bad)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- S3 bidding


def test_s3_bidding_starts_left_of_dealer_and_goes_clockwise():
    state, _ = dealt(MIXED, dealer=2)
    order = []
    for b in ("3", "nil", "4", "13"):
        order.append(state.to_act)
        state.apply_text(f"bid {b}")
    assert order == [3, 0, 1, 2]
    assert state.bids == (0, 4, 13, 3)


def test_s3_bids_range_from_nil_to_thirteen():
    rules = spades()
    state, _ = dealt(MIXED)
    assert state.legal_texts() == ["bid nil"] + [f"bid {n}" for n in range(1, 14)]
    assert rules.parse_action("bid 0") == rules.parse_action("bid nil") == rules.parse_action("nil")
    assert rules.action_text(rules.parse_action("bid 0")) == "bid nil"
    with pytest.raises(ActionError, match="0 to 13"):
        rules.parse_action("bid 14")
    with pytest.raises(ActionError, match="0 to 13"):
        rules.parse_action("bid -1")
    before = state.digest()
    with pytest.raises(ActionError):
        state.apply(52 + 14)
    assert state.digest() == before


def test_s3_team_contract_adds_partners_bids_without_cap():
    state, _ = dealt(MIXED)
    bid_all(state, "13", "13", "0", "13")   # seats 1, 2, 3, 0
    view = state.view(0)
    assert view.bids == (13, 13, 13, 0)
    assert view.contracts == (26, 13)


# --------------------------------------------------------------------------- S4 bids fixed


def test_s4_every_bid_before_the_first_trick():
    state, _ = dealt(MIXED)
    bid_all(state, "2", "3")
    before = state.digest()
    with pytest.raises(IllegalAction) as err:
        state.apply_text("play 2C")
    assert err.value.rule == "S4" and "bid" in str(err.value)
    assert state.digest() == before


def test_s4_bids_are_fixed_and_public():
    state, deck = dealt(MIXED)
    bid_all(state, "2", "3", "4", "nil")
    before = state.digest()
    with pytest.raises(IllegalAction) as err:
        state.apply_text("bid 5")
    assert err.value.rule == "S4"
    assert state.digest() == before
    assert state.bids == (0, 2, 3, 4)
    # bids are public: every seat's view shows them
    for seat in range(4):
        assert partial(state, deck, seat).view(seat).bids == (None,) * 4
        assert state.view(seat).bids == (0, 2, 3, 4)


# --------------------------------------------------------------------------- S5 leads


def test_s5_dealers_left_leads_then_winner_leads():
    for dealer in range(4):
        state, _ = dealt(MIXED, dealer=dealer)
        bid_all(state, "3", "3", "3", "3")
        assert state.to_act == state.leader == (dealer + 1) % 4
    state, _ = dealt(MIXED, dealer=0)
    bid_all(state, "3", "3", "3", "3")
    play(state, "7C", "QC", "9S", "2C")         # seat 3 has no clubs and trumps
    assert state.tricks_won == (0, 0, 0, 1)
    assert state.to_act == 3 and state.leader == 3


def test_s5_winner_of_each_trick_leads_the_next():
    state, _ = dealt(ONE_SUIT_EACH)
    bid_all(state, "1", "1", "1", "1")
    assert state.to_act == 1
    play(state, "2C", "2D", "2S", "2H")        # seat 3 trumps
    assert state.tricks_won == (0, 0, 0, 1)
    assert state.to_act == 3 and state.leader == 3


# --------------------------------------------------------------------------- S6 follow suit


def _after_bids() -> SpadesState:
    state, _ = dealt(MIXED)
    bid_all(state, "3", "3", "3", "3")
    return state


def test_s6_must_follow_suit():
    state = _after_bids()
    play(state, "7C")                           # seat 1 leads clubs
    assert state.to_act == 2
    assert [card_text(a) for a in state.legal_actions()] == ["QC", "KC", "AC"]
    before = state.digest()
    with pytest.raises(IllegalAction) as err:
        state.apply_text("play JH")
    assert err.value.rule == "S6" and err.value.seat == 2
    assert "play QC" in str(err.value)          # the legal moves are named
    assert state.digest() == before


def test_s6_void_may_play_any_card_including_a_spade():
    state, _ = dealt(ONE_SUIT_EACH)
    bid_all(state, "1", "1", "1", "1")
    play(state, "2C")                           # seat 1 leads clubs; seat 2 has none
    assert len(state.legal_actions()) == 13
    play(state, "AD", "3S")                     # seat 3 trumps although spades were not broken
    assert state.spades_broken


def test_s6_renege_is_deferred_on_partial_replicas_and_caught_by_the_audit():
    full, deck = dealt(MIXED)
    reps = [partial(full, deck, seat) for seat in range(4)]
    for b in ("bid 3", "bid 3", "bid 3", "bid 3", "play 7C"):
        apply_everywhere(full, reps, b)
    # seat 2 holds clubs but plays a heart: its partners' replicas cannot know
    renege = full.rules.parse_action("play JH")
    with pytest.raises(IllegalAction):
        full.clone().apply(renege)
    with pytest.raises(IllegalAction):
        reps[2].clone().apply(renege)           # seat 2's own replica knows its clubs
    shown = full.reveals(renege)
    for seat in (0, 1, 3):
        for p in shown:
            reps[seat].observe(p, deck[p])
        reps[seat].apply(renege)
    digest = reps[0].digest()
    assert reps[1].digest() == reps[3].digest() == digest
    record = reps[0].record()
    full_record = testing.record(full.rules, dict(record.setup), deck, record.actions)
    verdict = full.rules.audit(full_record)
    assert not verdict.ok
    assert verdict.seat == 2 and verdict.rule == "S6" and verdict.step == 5


# --------------------------------------------------------------------------- S7 spades broken


def test_s7_spades_not_led_before_broken():
    state = _after_bids()
    assert not state.spades_broken
    assert all(a < 39 for a in state.legal_actions())
    before = state.digest()
    with pytest.raises(IllegalAction) as err:
        state.apply_text("play QS")
    assert err.value.rule == "S7" and err.value.seat == 1
    assert state.digest() == before


def test_s7_spades_may_be_led_once_broken():
    state, _ = dealt(ONE_SUIT_EACH)
    bid_all(state, "1", "1", "1", "1")
    play(state, "2C", "2D", "2S", "2H")         # seat 3 trumps: spades are broken
    assert state.spades_broken and state.to_act == 3
    play(state, "3S")                           # seat 3 leads a spade (it holds only spades anyway)
    state2, _ = dealt(MIXED)
    bid_all(state2, "3", "3", "3", "3")
    play(state2, "7C", "QC")
    # seat 3 and seat 0 follow clubs; nobody can trump: lead a spade later is still forbidden
    assert not state2.spades_broken


def test_s7_leader_holding_only_spades_may_lead_one():
    state, _ = dealt(ONE_SUIT_EACH, dealer=2)     # seat 3 leads and holds only spades
    bid_all(state, "13", "nil", "nil", "nil")
    assert state.to_act == 3 and not state.spades_broken
    assert [card_text(a) for a in state.legal_actions()][:2] == ["2S", "3S"]
    play(state, "AS")
    assert state.spades_broken


def test_s7_broken_by_a_spade_played_to_an_earlier_trick():
    state = _after_bids()
    play(state, "7C", "QC", "2H", "2C")         # seat 3 discards a heart: spades stay unbroken
    assert not state.spades_broken and state.to_act == 2
    assert all(a < 39 for a in state.legal_actions())
    play(state, "2D", "3D", "AD", "6D")         # seat 2 leads diamonds, seat 0 wins
    assert state.to_act == 0
    with pytest.raises(IllegalAction) as err:
        state.apply_text("play AS")
    assert err.value.rule == "S7"
    play(state, "3C", "8C", "KC")
    play(state, "7S")                           # seat 3 has no clubs and trumps: spades are broken
    assert state.view(3).spades_broken and state.to_act == 3
    assert any(a >= 39 for a in state.legal_actions())
    play(state, "8S")                           # seat 3 leads a spade


def test_s7_unbroken_spade_lead_is_deferred_on_partial_replicas_and_caught_by_the_audit():
    full, deck = dealt(MIXED)
    reps = [partial(full, deck, seat) for seat in range(4)]
    for b in ("bid 3", "bid 3", "bid 3", "bid 3"):
        apply_everywhere(full, reps, b)
    lead = full.rules.parse_action("play QS")   # seat 1 holds other suits
    shown = full.reveals(lead)
    for seat in (0, 2, 3):
        for p in shown:
            reps[seat].observe(p, deck[p])
        reps[seat].apply(lead)
    rec = reps[0].record()
    verdict = full.rules.audit(testing.record(full.rules, dict(rec.setup), deck, rec.actions))
    assert not verdict.ok and verdict.seat == 1 and verdict.rule == "S7" and verdict.step == 4


# --------------------------------------------------------------------------- S8 winning a trick


def test_s8_highest_card_of_suit_led_wins_without_spades():
    assert trick_winner([(1, parse_card("7C")), (2, parse_card("QC")), (3, parse_card("AH")),
                         (0, parse_card("2C"))]) == 2


def test_s8_highest_spade_wins():
    assert trick_winner([(1, parse_card("AC")), (2, parse_card("2S")), (3, parse_card("5S")),
                         (0, parse_card("KC"))]) == 3
    assert trick_winner([(1, parse_card("3S")), (2, parse_card("AH")), (3, parse_card("2S")),
                         (0, parse_card("4S"))]) == 0


def test_s8_in_play_trump_overtrump_and_discards():
    hands = split_deck(
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AS",   # seat 0
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",   # seat 1
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD KS",   # seat 2
        "",                                         # seat 3: AH AD 2S-QS
    )
    state, _ = dealt(hands)
    bid_all(state, "1", "1", "1", "1")
    play(state, "AC", "KS", "2S", "AS")         # trump, under-trump, over-trump
    assert state.tricks_won == (1, 0, 0, 0) and state.to_act == 0
    play(state, "2H", "2C", "2D", "AH")         # off-suit cards do not win; no spade: AH wins
    assert state.tricks_won == (1, 0, 0, 1) and state.to_act == 3


# --------------------------------------------------------------------------- S9-S14 scoring


def test_s9_nil_bidders_tricks_count_for_the_team():
    t0, _ = score_hand((4, 5, 0, 0), (6, 3, 1, 3))
    assert t0.tricks == 7 and t0.made and t0.contract == 4


def test_s10_contract_made_ten_per_trick_bid_one_per_overtrick_and_bags():
    t0, t1 = score_hand((3, 2, 2, 2), (4, 2, 3, 4))
    assert t0.contract_points == 52 and t0.bags_taken == 2 and t0.points == 52
    assert t1.contract_points == 42 and t1.bags_taken == 2


def test_s11_contract_set_minus_ten_per_trick_bid_no_bags():
    t0, _ = score_hand((5, 1, 4, 1), (4, 3, 4, 2))
    assert not t0.made and t0.contract_points == -90 and t0.bags_taken == 0


def test_s12_nil_made_plus_100_failed_minus_100():
    t0, t1 = score_hand((0, 0, 5, 4), (0, 2, 8, 3))
    assert t0.nil_points == 100 and t0.points == 50 + 3 + 100
    assert t1.nil_points == -100 and t1.tricks == 5 and t1.points == 41 - 100


def test_s12_failed_nil_tricks_help_partner_and_become_bags():
    t0, _ = score_hand((0, 3, 4, 3), (2, 3, 3, 5))
    assert t0.tricks == 5 and t0.made and t0.bags_taken == 1
    assert t0.points == 40 + 1 - 100


def test_s12_option_bags_only_failed_nil_tricks_are_bags_not_contract():
    t0, _ = score_hand((0, 3, 4, 3), (2, 3, 3, 5), failed_nil="bags_only")
    assert t0.tricks == 3 and not t0.made and t0.contract_points == -40 + 2
    assert t0.bags_taken == 2 and t0.points == -38 - 100


def test_s12_option_ignored_failed_nil_tricks_count_for_nothing():
    t0, _ = score_hand((0, 3, 4, 3), (2, 3, 3, 5), failed_nil="ignored")
    assert t0.tricks == 3 and not t0.made and t0.bags_taken == 0
    assert t0.points == -40 - 100


def test_s12_failed_nil_options_in_a_played_hand():
    # seat 3 bids nil but holds every spade and takes all 13 tricks; its partner (seat 1) bids 2
    expected = {"count": (-169, 1), "bags_only": (-207, 3), "ignored": (-120, 0)}
    for mode, (points, bags) in expected.items():
        state, _ = dealt(ONE_SUIT_EACH, rules=spades(failed_nil_tricks=mode))
        bid_all(state, "2", "1", "nil", "1")
        lowest_legal(state)
        result = state.result
        assert isinstance(result, HandResult) and result.tricks == (0, 0, 0, 13)
        assert result.teams[1].nil_points == -100
        assert (result.teams[1].points, result.teams[1].bags) == (points, bags), mode


def test_s13_ten_bags_cost_100_and_the_rest_carry():
    t0, _ = score_hand((1, 1, 1, 1), (5, 3, 5, 0), bags=(7, 0), scores=(100, 0))
    assert t0.bags_taken == 8 and t0.bag_penalty == -100 and t0.bags == 5
    assert t0.points == 28 - 100 and t0.score == 28
    t0, _ = score_hand((0, 0, 0, 0), (13, 0, 0, 0), bags=(9, 0))
    assert t0.bags_taken == 13 and t0.bag_penalty == -200 and t0.bags == 2


def test_s13_bags_accumulate_across_hands_in_the_match():
    rules = spades()
    match = rules.new_match(0)
    assert isinstance(match, SpadesMatch)
    for _ in range(3):
        state = match.new_hand()
        state.fulfil({p: c for p, c in enumerate(deck_for(ONE_SUIT_EACH, state.dealer))})
        bid_all(state, "1", "1", "1", "1")
        lowest_legal(state)                     # seat 3 takes all 13 tricks every hand
        match = match.settle(state)
    # team 1: contract 2, 13 tricks: 20 + 11 bags each hand; the bags reach 11, 12, 13: -100 each time
    assert [r.teams[1].bags for r in match.results] == [1, 2, 3]
    assert [r.teams[1].points for r in match.results] == [31 - 100] * 3
    assert match.bags == (0, 3)
    assert match.scores == (3 * -20, 3 * (31 - 100))
    assert match.over and match.winner == 0     # team 1 fell to -207


def test_s14_worked_check_1():
    t0, t1 = score_hand((4, 5, 5, 0), (5, 3, 5, 0))
    assert t0.points == 91 and t0.contract == 9 and t0.tricks == 10 and t0.bags == 1
    assert t1.points == 50 and t1.contract_points == -50 and t1.nil_points == 100


def test_s14_worked_check_2():
    t0, t1 = score_hand((13, 5, 0, 1), (4, 6, 1, 2))
    assert t0.points == -230 and t0.contract_points == -130 and t0.nil_points == -100
    assert t1.points == 62 and t1.bags == 2


def test_s14_worked_check_3():
    t0, t1 = score_hand((3, 3, 3, 2), (4, 2, 5, 2), bags=(9, 0))
    assert t0.points == -37 and t0.bags == 2 and t0.bag_penalty == -100
    assert t1.points == -50


def test_s14_a_played_hand_scores_like_the_table():
    state, _ = dealt(ONE_SUIT_EACH, scores=(10, 20), bags=(1, 2))
    bid_all(state, "nil", "nil", "13", "2")    # seats 1, 2, 3, 0
    lowest_legal(state)
    assert state.to_act == TERMINAL
    result = state.result
    assert isinstance(result, HandResult)
    assert result.bids == (2, 0, 0, 13) and result.tricks == (0, 0, 0, 13)
    t0, t1 = result.teams
    assert t0.points == -20 + 100 and t0.score == 90 and t0.bags == 1
    assert t1.points == 130 + 100 and t1.score == 250 and t1.bags == 2
    assert "team 1" in result.summary()


# --------------------------------------------------------------------------- S15 end of the game


def _match(rules: Rules, scores: tuple[int, int], bags: tuple[int, int] = (0, 0)) -> SpadesMatch:
    return SpadesMatch(rules, 0, scores=scores, bags=bags)


def _play_one(match: SpadesMatch, bids: tuple[str, str, str, str]) -> SpadesMatch:
    state = match.new_hand()
    state.fulfil({p: c for p, c in enumerate(deck_for(ONE_SUIT_EACH, state.dealer))})
    bid_all(state, *bids)
    lowest_legal(state)                         # seat 3 takes every trick
    return match.settle(state)


def test_s15_reaching_the_target_ends_the_game():
    rules = spades()
    assert isinstance(rules, Rules)
    # bids by seats 1, 2, 3, 0: team 1 makes nil and 13 (+230), team 0 is set (-20)
    m = _play_one(_match(rules, (0, 200)), ("nil", "1", "13", "1"))
    assert m.scores == (-20, 430) and not m.over and m.winner is None
    m = _play_one(_match(rules, (0, 300)), ("nil", "1", "13", "1"))
    assert m.scores == (-20, 530) and m.over and m.winner == 1
    assert "Team 1 wins" in m.summary()
    with pytest.raises(GameError):
        m.new_hand()


def test_s15_falling_to_the_floor_ends_the_game_and_the_higher_score_wins():
    rules = spades()
    assert isinstance(rules, Rules)
    # team 0 bids 14 and takes nothing: -140 from -100; team 1 (contract 2, 13 tricks) gets -69
    m = _play_one(_match(rules, (-100, 0)), ("1", "1", "1", "13"))
    assert m.scores == (-240, -69) and m.over and m.winner == 1


def test_s15_equal_scores_play_another_hand():
    rules = spades(target=100)
    assert isinstance(rules, Rules)
    # team 0 makes two nils (+200); team 1 makes nil and 13 (+230)
    m = _play_one(_match(rules, (30, 0)), ("nil", "nil", "13", "nil"))
    assert m.scores == (230, 230) and not m.over
    assert m.hands_played == 1 and m.dealer == 1


def test_s15_target_and_floor_options():
    rules = spades(target=250, floor=-100)
    assert dict(rules.options)["target"] == 250 and dict(rules.options)["floor"] == -100
    assert isinstance(rules, Rules)
    m = _play_one(_match(rules, (0, 0)), ("nil", "1", "13", "1"))
    assert m.scores == (-20, 230) and not m.over
    m = _play_one(_match(rules, (0, 20)), ("nil", "1", "13", "1"))
    assert m.over and m.winner == 1
    m = _play_one(_match(rules, (-85, 0)), ("1", "1", "1", "1"))
    assert m.scores == (-105, -69) and m.over and m.winner == 1


# --------------------------------------------------------------------------- options


def test_options_defaults_sorted_and_complete():
    rules = spades()
    assert rules.options == (
        ("blind_nil", False), ("deuces_high", False), ("failed_nil_tricks", "count"), ("floor", -200),
        ("jokers", False), ("players", 4), ("suicide", False), ("target", 500))


@pytest.mark.parametrize("name", ["jokers", "deuces_high", "suicide"])
def test_options_locked_variants_are_off(name):
    assert dict(spades(**{name: False}).options)[name] is False
    with pytest.raises(OptionError, match=r"a locked variant this version does not play: it can only be "
                                          r"off$") as refused:
        spades(**{name: True})
    assert repr(name) in str(refused.value) and "1.0" not in str(refused.value)


def test_options_bad_values_are_refused():
    for kwargs in ({"target": 0}, {"target": "lots"}, {"floor": 10}, {"failed_nil_tricks": "maybe"},
                   {"colour": "red"}, {"target": True}):
        with pytest.raises(OptionError):
            spades(**kwargs)
    assert spades(target="300").option("target") == 300


# --------------------------------------------------------------------------- actions and bad input


def test_action_texts_round_trip():
    rules = spades()
    for a in range(52 + 14):
        assert rules.parse_action(rules.action_text(a)) == a
    assert rules.action_text(parse_card("TH")) == "play TH"
    assert rules.parse_action("play 10h") == rules.parse_action("  PLAY th ") == parse_card("TH")
    assert rules.action_text(52 + 7) == "bid 7"


def test_malformed_actions_name_the_forms():
    rules = spades()
    for text in ("", "pass", "play", "play 1X", "bid", "bid seven", "play AS KS"):
        with pytest.raises(ActionError) as err:
            rules.parse_action(text)
        assert "bid" in str(err.value) or "card" in str(err.value) or "rank" in str(err.value)
    with pytest.raises(ActionError):
        rules.action_text(99)


def test_bad_actions_leave_the_state_unchanged():
    state = _after_bids()
    before = state.digest()
    snapshot = state.clone()
    for bad in (-1, 66, 100, "AS", None, 1.0):
        with pytest.raises(ActionError):
            state.apply(bad)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction) as err:
        state.apply_text("play 2S")             # seat 0 holds the 2S, seat 1 is to act
    assert err.value.rule == "S1" and err.value.seat == 1
    assert state.digest() == before
    assert state.legal_actions() == snapshot.legal_actions()
    assert state.zones() == snapshot.zones()


def test_no_action_during_the_deal_or_after_the_end():
    state = spades().new_hand({"dealer": 0})
    with pytest.raises(ActionError):
        state.apply(52)
    assert state.legal_actions() == []
    done, _ = dealt(ONE_SUIT_EACH)
    bid_all(done, "1", "1", "1", "1")
    lowest_legal(done)
    assert done.to_act == TERMINAL and done.legal_actions() == []
    with pytest.raises(ActionError):
        done.apply(0)


def test_fulfil_rejects_bad_values_and_changes_nothing():
    state = spades().new_hand({"dealer": 1})
    before = state.digest()
    deck = list(range(52))
    good = {p: deck[p] for p in range(52)}
    no5 = {p: c for p, c in good.items() if p != 5}
    for bad in ({**good, 3: 4}, {**good, 60: 1}, {**good, 7: 99}, no5 | {5: 6}, {**no5, 52: 5},
                {0: 1, 1: 1}, {0: -1}, {"x": 1}):
        with pytest.raises(FulfilError):
            state.fulfil(bad)  # type: ignore[arg-type]
        assert state.digest() == before and state.to_act == CHANCE
        assert state.card_at == [UNKNOWN] * 52
    state.fulfil(good)
    with pytest.raises(FulfilError):
        state.fulfil(good)


def test_observe_checks_the_card():
    full, deck = dealt(MIXED)
    rep = partial(full, deck, 0)
    other = next(p for p in range(52) if rep.card_at[p] == UNKNOWN)
    with pytest.raises(FulfilError):
        rep.observe(other, deck[next(p for p in range(52) if rep.card_at[p] != UNKNOWN)])
    with pytest.raises(FulfilError):
        rep.observe(99, 3)


def test_setup_is_checked_and_recreates_the_hand():
    rules = spades()
    state = rules.new_hand({"dealer": 3, "scores": (120, -40), "bags": (4, 9), "hand": 6})
    again = rules.new_hand(dict(state.setup))
    assert again.digest() == state.digest()
    for bad in ({"dealer": 4}, {"bags": (10, 0)}, {"scores": (1,)}, {"scores": 5}, {"hand": -1}, {"seat": 1}):
        with pytest.raises(GameError):
            rules.new_hand(bad)


def test_a_partial_replica_cannot_list_another_seats_moves():
    full, deck = dealt(MIXED)
    rep = partial(full, deck, 0)
    bid_all(rep, "1", "1", "1", "1")
    assert rep.to_act == 1
    with pytest.raises(GameError):
        rep.legal_actions()
    assert rep.view(0).legal_actions == ()


def test_settle_refuses_a_foreign_or_unfinished_hand():
    rules = spades()
    match = rules.new_match(0)
    state = match.new_hand()
    with pytest.raises(GameError):
        match.settle(state)
    other = rules.new_hand({"dealer": 2})
    with pytest.raises(GameError):
        match.settle(other)


# --------------------------------------------------------------------------- views


def test_view_shows_only_what_the_seat_knows_and_determinizes():
    full, deck = dealt(MIXED)
    bid_all(full, "3", "3", "3", "3")
    play(full, "7C", "QC")
    view = full.view(3)
    assert view.hand == tuple(sorted(MIXED[3]))
    assert view.trick == ((1, parse_card("7C")), (2, parse_card("QC")))
    assert view.leader == 1 and view.to_act == 3
    assert len(view.unknown_positions) == len(view.unseen_cards) == 13 + 12 + 12
    assert set(view.unseen_cards).isdisjoint(view.hand)
    masked = view.masked
    assert all(masked.card_at[p] == UNKNOWN for p in view.unknown_positions)
    det = view.determinize([deck[p] for p in view.unknown_positions])
    assert det.legal_actions() == full.legal_actions()
    assert det.digest() == full.digest()
    det.apply(det.legal_actions()[0])           # the determinized state is independent
    assert full.view(3).trick == view.trick


def test_view_records_voids():
    state, _ = dealt(ONE_SUIT_EACH)
    bid_all(state, "1", "1", "1", "1")
    play(state, "2C", "2D", "2S", "2H")
    view = state.view(1)
    assert view.voids == ((0,), (), (0,), (0,))
    assert view.last_trick[0] == (1, 0) and view.tricks_won == (0, 0, 0, 1)
    assert view.spades_broken


def test_s13_the_standings_say_one_bag_and_two_bags():
    match = SpadesMatch(Rules(), 0, dealer=0, scores=(10, 20), bags=(1, 2), hands_played=1,
                        winner=None, results=())
    text = match.summary()
    assert "10 points, 1 bag;" in text and "20 points, 2 bags." in text
