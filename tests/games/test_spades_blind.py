"""Scenario tests for Spades' blind nil (option ``blind_nil``, rules S16-S18)."""

from __future__ import annotations

import pytest

from p2pcards.games import CHANCE, TERMINAL, UNKNOWN, Deal, Disclose, load, testing
from p2pcards.games.base import ActionError, HandRecord, IllegalAction, OptionError
from p2pcards.games.playout import learned_by
from p2pcards.games.spades import Rules, SpadesState, score_hand
from p2pcards.games.spades.config import BID0, BLIND_NIL, LOOK
from p2pcards.games.spades.layout import positions_of


def spades(**options: object) -> Rules:
    rules = load("spades", **options)
    assert isinstance(rules, Rules)
    return rules


BLIND = spades(blind_nil="on")

# dealer 0: seats 1, 2, 3, 0 bid in that order; seat 3 holds every spade and takes every trick when
# each seat plays its lowest legal card
ONE_SUIT_EACH = {0: "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
                 1: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
                 2: "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
                 3: "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"}


def hand(scores: tuple[int, int], rules: Rules = BLIND, dealer: int = 0) -> testing.TestHand:
    return testing.deal(rules, ONE_SUIT_EACH, dealer=dealer, setup={"scores": scores})


def state_of(h: testing.TestHand) -> SpadesState:
    assert isinstance(h.state, SpadesState)
    return h.state


def replicas(rules: Rules, setup: dict[str, object]) -> list[SpadesState]:
    reps = []
    for _ in range(4):
        rep = rules.new_hand(setup)
        assert isinstance(rep, SpadesState)
        reps.append(rep)
    return reps


def settle_all(full: SpadesState, reps: list[SpadesState], deck: list[int]) -> list[object]:
    """Fulfil every need on the full state and on each seat's replica with what that seat learns;
    the needs met, in order."""
    needs: list[object] = []
    while full.to_act == CHANCE:
        needs.append(full.need)
        for seat, rep in enumerate(reps):
            assert rep.need == full.need
            rep.fulfil(learned_by(seat, rep, deck))
        need = full.need
        assert need is not None
        ps = need.positions() if isinstance(need, Deal) else need.positions
        full.fulfil({p: deck[p] for p in ps})
    return needs


def act(full: SpadesState, reps: list[SpadesState], deck: list[int], text: str) -> list[object]:
    action = full.rules.parse_action(text)
    shown = full.reveals(action)
    full.apply(action)
    for rep in reps:
        for p in shown:
            rep.observe(p, deck[p])
        rep.apply(action)
    return settle_all(full, reps, deck)


def lowest_legal(h: testing.TestHand) -> None:
    h.play_out(lambda s: s.legal_actions()[0])


# --------------------------------------------------------------------------- the option


def test_s16_blind_nil_is_an_option_off_by_default():
    assert dict(spades().options)["blind_nil"] is False
    for on in (True, 1, "on", " ON ", "true", "yes", "1"):
        assert dict(spades(blind_nil=on).options)["blind_nil"] is True
    for off in (False, 0, "off", "no", "false", "0"):
        assert dict(spades(blind_nil=off).options)["blind_nil"] is False
    bad: object
    for bad in ("maybe", 2, 1.0, None, []):
        with pytest.raises(OptionError, match="option blind_nil is on or off"):
            spades(blind_nil=bad)


def test_s16_without_the_option_nobody_may_bid_blind_nil_and_the_deal_is_face_up():
    h = hand((0, 300), rules=spades())
    st = state_of(h)
    assert st.eligible == () and st.legal_actions() == list(range(BID0, BID0 + 14))
    with pytest.raises(IllegalAction) as err:
        st.apply(BLIND_NIL)
    assert err.value.rule == "S16"
    with pytest.raises(IllegalAction):
        st.apply(LOOK)
    fresh = spades().new_hand({"dealer": 0, "scores": (0, 300)})
    assert isinstance(fresh.need, Deal) and fresh.need.disclose


# --------------------------------------------------------------------------- S16


@pytest.mark.parametrize(("scores", "eligible"), [
    ((0, 0), ()), ((0, 99), ()), ((0, 100), (0, 2)), ((-50, 50), (0, 2)), ((400, 250), (1, 3)),
    ((-150, -200), ()), ((-300, -200), (0, 2))])
def test_s16_a_team_behind_by_100_or_more_at_the_start_of_the_hand_may_bid_blind_nil(scores, eligible):
    st = BLIND.new_hand({"dealer": 0, "scores": scores})
    assert st.eligible == eligible
    assert isinstance(st.need, Deal)
    # nobody eligible: dealt face up exactly as without the option
    assert st.need.disclose == (not eligible)
    if not eligible:
        assert st.need == spades().new_hand({"dealer": 0, "scores": scores}).need


def test_s16_an_open_dummy_is_never_eligible():
    st = BLIND.new_hand({"dealer": 0, "scores": (0, 200), "dummies": (2,)})
    assert st.eligible == (0,)


def test_s16_face_down_deal_the_others_see_their_cards_before_the_bidding_the_blind_seats_do_not():
    deck = testing.deal(BLIND, ONE_SUIT_EACH, dealer=0, setup={"scores": (0, 100)}).deck
    setup: dict[str, object] = {"dealer": 0, "scores": (0, 100)}
    full = BLIND.new_hand(setup)
    assert isinstance(full, SpadesState)
    reps = replicas(BLIND, setup)
    needs = settle_all(full, reps, deck)
    # one face-down deal, then the seats that may not bid blind nil see theirs, from the dealer's left
    assert isinstance(needs[0], Deal) and not needs[0].disclose
    assert needs[1:] == [Disclose(1, positions_of(1, 0)), Disclose(3, positions_of(3, 0))]
    for seat, rep in enumerate(reps):
        known = [p for p in range(52) if rep.card_at[p] != UNKNOWN]
        if seat in (1, 3):
            assert known == sorted(positions_of(seat, 0))
            assert rep.view(seat).hand and not rep.view(seat).face_down
        else:
            assert known == []      # nobody gave the shares that open a blind seat's cards
            assert rep.view(seat).face_down and rep.view(seat).hand == ()
    assert full.to_act == 1 and full.legal_texts()[0] == "bid nil"


def test_s16_an_eligible_seat_that_has_not_looked_has_exactly_two_moves():
    h = hand((0, 100)).play("bid 4")        # seat 1 (not eligible) bids as usual
    st = state_of(h)
    assert st.to_act == 2
    assert st.legal_actions() == [BLIND_NIL, LOOK] and h.legal == ["bid blind nil", "look"]
    view = st.view(2)
    assert view.legal_actions == (BLIND_NIL, LOOK) and view.face_down and view.hand == ()
    assert sorted(positions_of(2, 0)) == sorted(set(view.unknown_positions) & set(positions_of(2, 0)))
    for text in ("bid 3", "bid nil", "play 2D"):
        with pytest.raises(IllegalAction) as err:
            st.apply_text(text)
        assert err.value.rule in ("S16", "S4") and err.value.seat == 2
    assert st.to_act == 2 and st.legal_actions() == [BLIND_NIL, LOOK]


def test_s16_a_seat_that_looks_sees_its_cards_and_then_bids_normally():
    h = hand((0, 100)).play("bid 4")
    st = state_of(h)
    st.apply_text("look")
    assert st.to_act == CHANCE and st.need == Disclose(2, positions_of(2, 0))
    h.settle()
    assert st.to_act == 2 and not st.view(2).face_down
    assert sorted(st.view(2).hand) == sorted(testing.cards(ONE_SUIT_EACH[2]))
    assert st.legal_actions() == list(range(BID0, BID0 + 14))
    with pytest.raises(IllegalAction) as err:
        st.apply_text("bid blind nil")
    assert err.value.rule == "S16" and "seen its cards" in str(err.value)
    h.play("bid nil", "bid 13")
    assert st.to_act == 0 and st.legal_actions() == [BLIND_NIL, LOOK]  # the partner decides alone
    h.play("look", "bid 2")
    assert st.phase_name == "play" and st.to_act == 1
    assert st.bids == (2, 4, 0, 13) and st.blind_nil == ()


def test_s16_a_seat_not_eligible_may_not_bid_blind_nil_nor_look():
    h = hand((0, 100))
    st = state_of(h)
    assert st.to_act == 1
    for text in ("bid blind nil", "look"):
        with pytest.raises(IllegalAction) as err:
            st.apply_text(text)
        assert err.value.rule == "S16" and "100 or more behind" in str(err.value)


# --------------------------------------------------------------------------- S17


def test_s17_blind_nil_made_scores_plus_200():
    # team 1 behind: seat 1 bids blind nil with all the clubs, never takes a trick (seat 3 takes all)
    h = hand((300, 100)).play("bid blind nil", "bid 1", "look", "bid 13", "bid 1")
    st = state_of(h)
    lowest_legal(h)
    result = st.result
    assert result is not None and result.tricks == (0, 0, 0, 13) and result.blind == (1,)
    t1 = result.teams[1]
    assert t1.nil_points == 200 and t1.points == 130 + 200


def test_s17_blind_nil_failed_scores_minus_200_and_the_tricks_count_as_the_options_say():
    # team 1 behind; seat 3 (all the spades) bids blind nil and takes all 13 tricks
    for mode, contract_points in (("count", 10 * 2 + 11), ("bags_only", -20 + 13), ("ignored", -20)):
        rules = spades(blind_nil="on", failed_nil_tricks=mode)
        h = hand((300, 100), rules=rules).play("look", "bid 2", "bid 1", "bid blind nil", "bid 1")
        lowest_legal(h)
        result = state_of(h).result
        assert result is not None and result.tricks == (0, 0, 0, 13)
        t1 = result.teams[1]
        assert t1.nil_points == -200, mode
        assert t1.contract_points == contract_points, mode


def test_s17_worked_checks_of_s14_with_200_in_place_of_100():
    t0, t1 = score_hand((4, 5, 5, 0), (5, 3, 5, 0), blind=(3,))
    assert t0.points == 91 and t1.points == -50 + 200 and t1.nil_points == 200
    t0, t1 = score_hand((13, 5, 0, 1), (4, 6, 1, 2), blind=(2,))
    assert t0.points == -130 - 200 and t0.nil_points == -200 and t1.points == 62
    # a plain nil beside it is still worth 100
    t0, t1 = score_hand((0, 5, 0, 1), (0, 6, 1, 6), blind=(2,))
    assert t0.nil_points == 100 - 200


def test_s17_the_partner_may_bid_blind_nil_too_and_the_bids_show_blind_nil():
    h = hand((0, 100)).play("bid 4", "bid blind nil", "bid 2", "bid blind nil")
    st = state_of(h)
    assert st.blind_nil == (0, 2) and st.bids == (0, 4, 0, 2)
    assert st.view(1).blind_nil == (0, 2)
    lowest_legal(h)
    result = st.result
    assert result is not None and result.blind == (0, 2)
    assert result.bid_text(0) == "blind nil" and result.bid_text(1) == "4"
    assert result.summary().startswith("bids blind nil 4 blind nil 2;")
    assert result.teams[0].nil_points == 400


def test_s17_a_plain_nil_by_a_seat_that_looked_is_worth_100():
    h = hand((300, 100)).play("look", "bid nil", "bid 1", "look", "bid 13", "bid 1")
    lowest_legal(h)
    result = state_of(h).result
    assert result is not None and result.blind == () and result.teams[1].nil_points == 100
    assert "blind" not in result.summary()


# --------------------------------------------------------------------------- S18


def test_s18_the_blind_nil_bidder_sees_its_cards_once_the_bidding_is_over_and_nobody_else_does():
    setup: dict[str, object] = {"dealer": 0, "scores": (0, 100)}
    deck = testing.deal(BLIND, ONE_SUIT_EACH, dealer=0, setup=setup).deck
    full = BLIND.new_hand(setup)
    assert isinstance(full, SpadesState)
    reps = replicas(BLIND, setup)
    settle_all(full, reps, deck)
    assert act(full, reps, deck, "bid 4") == []
    assert act(full, reps, deck, "bid blind nil") == []           # seat 2: nothing shown yet
    for v in range(4):                                              # not even on a full replica
        assert full.view(2).face_down and full.view(2).hand == ()
        assert reps[v].view(2).hand == ()
    assert act(full, reps, deck, "bid 3") == []
    assert act(full, reps, deck, "look") == [Disclose(0, positions_of(0, 0))]
    assert act(full, reps, deck, "bid 3") == [Disclose(2, positions_of(2, 0))]
    assert full.phase_name == "play" and full.to_act == 1
    mine = sorted(positions_of(2, 0))
    for seat, rep in enumerate(reps):
        opened = [p for p in mine if rep.card_at[p] != UNKNOWN]
        assert opened == (mine if seat == 2 else [])
    assert sorted(reps[2].view(2).hand) == sorted(testing.cards(ONE_SUIT_EACH[2]))
    # the digest is the same on every replica, and the hand replays and passes the audit
    while full.to_act != TERMINAL:
        act(full, reps, deck, full.rules.action_text(full.legal_actions()[0]))
    digest = full.digest()
    assert all(rep.digest() == digest for rep in reps)
    rec = reps[1].record()
    assert BLIND.replay(rec).digest() == digest
    verdict = BLIND.audit(HandRecord(rec.game, rec.options, rec.setup, tuple(deck), rec.actions))
    assert verdict.ok and verdict.digest == digest


def test_s18_no_card_is_played_before_every_blind_nil_bidder_has_seen_its_cards():
    h = hand((0, 100)).play("bid 4")
    st = state_of(h)
    st.apply_text("bid blind nil")
    st.apply_text("bid 2")
    st.apply_text("bid blind nil")
    assert st.to_act == CHANCE and st.need == Disclose(2, positions_of(2, 0))
    with pytest.raises(ActionError, match="no seat is to act"):
        st.apply_text("play 2C")
    h.settle()
    assert st.to_act == 1 and st.phase_name == "play"
    assert st.history[-2:] == (("disclose", 2, positions_of(2, 0)), ("disclose", 0, positions_of(0, 0)))
