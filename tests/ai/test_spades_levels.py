"""Spades' Easy and Normal players: what the rules page asks of each, on chosen deals (and legality)."""

from __future__ import annotations

import pytest

from p2pcards.ai import player
from p2pcards.ai.spades import PLAYERS, EasyPlayer, NormalPlayer
from p2pcards.ai.spades.common import mask_of, played_by
from p2pcards.ai.spades.easy import easy_bid
from p2pcards.ai.spades.normal import estimate, nil_ok, normal_bid
from p2pcards.games import TERMINAL
from p2pcards.games.cards import card_text
from p2pcards.games.playout import fulfil_from
from p2pcards.games.rng import Rng
from tests.ai.test_spades_support import END, FILLER, after_tricks, cards, complete, deal, spades


def text(c: int) -> str:
    return card_text(c)


# --------------------------------------------------------------------------- every level, legal play


@pytest.mark.parametrize("levels", [("easy", "normal"), ("normal", "easy"), ("normal", "normal")])
@pytest.mark.parametrize("failed_nil", ["count", "bags_only"])
def test_easy_and_normal_play_only_legal_actions(levels, failed_nil):
    rules = spades(failed_nil_tricks=failed_nil)
    rng = Rng(4)
    for hand in range(6):
        players = [player(rules, levels[s % 2], seed=s) for s in range(4)]
        state = rules.new_hand({"dealer": hand % 4})
        deck = list(range(52))
        rng.shuffle(deck)
        fulfil_from(state, deck)
        while state.to_act != TERMINAL:
            view = state.view(state.to_act)
            action = players[state.to_act].choose(view)
            assert action in view.legal_actions
            state.apply(action)
        assert state.result is not None


def test_the_levels_are_registered():
    assert set(PLAYERS) == {"easy", "normal", "hard"}
    assert isinstance(player(spades(), "easy"), EasyPlayer)
    assert isinstance(player(spades(), "normal"), NormalPlayer)


# --------------------------------------------------------------------------- Easy


def test_easy_bids_its_aces_and_kings():
    assert easy_bid(cards("AS KH AD QC 2C 3C 4C 5C 6C 7C 8C 9C TC")) == 3
    assert easy_bid(cards("QS QH QD QC 2C 3C 4C 5C 6C 7C 8C 9C TC")) == 1  # never nil
    hands = complete({0: "AS KS AH KH AD KD AC 2C 3C 4C 5C 6C 7C"})
    state = deal(hands, dealer=3)
    assert EasyPlayer(spades()).choose(state.view(0)) == 52 + 7


def test_easy_plays_the_lowest_legal_card():
    hands = complete({0: "AS KS 3S AH 9H 5D 4D AC KC QC JC TC 9C"})
    state = deal(hands, dealer=3, bids=[3, 3, 3, 3])
    assert text(EasyPlayer(spades()).choose(state.view(0))) == "4D"  # spades are not broken
    state.apply(cards("4D")[0])
    view = state.view(1)
    choice = EasyPlayer(spades()).choose(view)
    assert choice == min(c for c in view.legal_actions)  # the lowest diamond it holds


# --------------------------------------------------------------------------- Normal: bidding


def test_normal_estimates_tricks_from_high_cards_length_and_spades():
    strong = mask_of(cards("AS KS QS JS 9S 7S AH KH AD 4D 3D 2C 3C"))
    weak = mask_of(cards("2S 3S 2H 4H 6H 8H 3D 5D 7D 9D 2C 4C 6C"))
    assert estimate(strong) >= 8
    assert estimate(weak) < 1
    # long spades are worth tricks even without honours; a void adds ruffs
    assert estimate(mask_of(cards("2S 3S 4S 5S 6S 7S 2H 3H 4H 2D 3D 4D 5D"))) >= 2.5
    assert estimate(mask_of(cards("2S 3S 4S 5S 2H 3H 4H 5H 2D 3D 4D 5D 6D"))) > \
        estimate(mask_of(cards("2S 3S 4S 2C 2H 3H 4H 5H 2D 3D 4D 5D 6D")))


def test_normal_bids_nil_with_a_hand_that_cannot_take_a_trick():
    weak = mask_of(cards("2S 3S 2H 4H 6H 8H 3D 5D 7D 9D 2C 4C 6C"))
    assert nil_ok(weak)
    assert normal_bid(weak, (None, None, None, None), 0) == 0
    # not when partner already bid nil: then it bids at least one trick
    assert normal_bid(weak, (None, 3, 0, None), 0) >= 1
    # an ace, a high spade or an unguarded king is no nil
    assert not nil_ok(mask_of(cards("AS 3S 2H 4H 6H 8H 3D 5D 7D 9D 2C 4C 6C")))
    assert not nil_ok(mask_of(cards("2S 3S KH 4H 6H 8H 3D 5D 7D 9D AC 4C 6C")))
    assert not nil_ok(mask_of(cards("2S 3S KH 4H 6H AH 3D 5D 7D 9D 2C 4C 6C")))


def test_normal_bids_more_over_a_partner_nil():
    h = mask_of(cards("AS KS 4S AH 8H 6H 3D 5D 7D 9D 2C 4C 6C"))
    alone = normal_bid(h, (None, None, None, None), 0)
    assert alone >= 3
    assert normal_bid(h, (None, 3, 0, None), 0) == alone + 1


# --------------------------------------------------------------------------- Normal: play


def test_normal_nil_bidder_ducks_under_the_winning_card():
    hands = complete({1: "AH QH 3H 2S 3S 4D 5D 6D 2C 3C 4C 5C 6C",
                      0: "KH 9H 8H AS KS QS JS AD KD QD JD AC KC"})
    state = deal(hands, dealer=3, bids=[5, 0, 3, 3])
    state.apply(cards("KH")[0])
    assert text(NormalPlayer(spades()).choose(state.view(1))) == "QH"  # the highest heart under the K


def test_normal_nil_bidder_discards_its_highest_card_when_void():
    hands = complete({1: "AH QH 3H 2S 3S 4D 5D 6D 7D 8D 9D TD JD",
                      0: "2C KH 9H AS KS QS JS 8H AC KC QC JC TC"})
    state = deal(hands, dealer=3, bids=[5, 0, 3, 3])
    state.apply(cards("2C")[0])
    assert text(NormalPlayer(spades()).choose(state.view(1))) == "AH"


def test_normal_overtakes_its_nil_partner():
    # seat 2 bid nil and led the 7 of clubs; seat 3 played under; seat 0 overtakes with the 9
    hands = complete({0: "KC 9C 2C AS 3S 4S 5D 6D 7D 8D 9D TD JD",
                      2: "7C 2D 3D 4D 2H 3H 4H 5H 6H 7H 8H 9H TH",
                      3: "3C 4C 5C 6C 8C TC JC QC AC 2S 5S 6S 7S"})
    state = deal(hands, dealer=1, bids=[0, 4, 3, 4])  # bidding order: seats 2, 3, 0, 1
    state.apply(cards("7C")[0])
    state.apply(cards("3C")[0])
    assert text(NormalPlayer(spades()).choose(state.view(0))) == "9C"


def test_normal_plays_high_in_front_of_its_nil_partner():
    hands = complete({0: "AD 8D 4D AS 3S 4S 5C 6C 7C 8C 9C TC JC",
                      3: "5D 6D 7D 2S 2C 3C 4C QC KC AC 5S 6S 7S"})
    state = deal(hands, dealer=2, bids=[3, 4, 2, 0])  # bidding order: seats 3, 0, 1, 2 (nil)
    state.apply(cards("5D")[0])
    assert state.bids[2] == 0
    assert text(NormalPlayer(spades()).choose(state.view(0))) == "AD"


def _end_state(bids: list[int]):
    """After ``FILLER`` (team 0 has 5 tricks, team 1 has 4), seat 0 leads the king of hearts."""
    state = after_tricks(END, FILLER, dealer=3, bids=bids)
    state.apply(cards("KH")[0])
    return state


def test_normal_ducks_a_bag_when_both_contracts_are_safe():
    # bids by seat: 2, 1, 2, 1 (bidding order from dealer 3: seats 0, 1, 2, 3); both teams made
    state = _end_state([2, 1, 2, 1])
    assert text(NormalPlayer(spades()).choose(state.view(1))) == "JC"  # not a ruff: a bag


def test_normal_ruffs_for_the_trick_its_contract_needs():
    state = _end_state([2, 4, 2, 1])  # team 1 bid 5, has 4
    assert text(NormalPlayer(spades()).choose(state.view(1))) == "JS"  # the cheapest ruff


def test_normal_ruffs_to_set_opponents_who_need_every_trick():
    state = _end_state([6, 2, 3, 2])  # team 1 made 4; team 0 bid 9, has 5: needs all four
    assert text(NormalPlayer(spades()).choose(state.view(1))) == "JS"


def test_normal_takes_with_a_card_that_must_hold_and_not_over_a_partner_that_holds():
    # fourth seat, opponents winning: the cheapest card that wins
    hands = complete({0: "9H 2S 3S 4S 5S 6S 7S 8S 9S TS 2D 3D 4D",
                      1: "TH 5D 6D 7D 8D 9D TD JD QD KD AD 2C 3C",
                      2: "JH 4C 5C 6C 7C 8C 9C TC JC QC KC AC QH",
                      3: "KH AH 3H 2H 4H JS QS KS AS 5H 6H 7H 8H"})
    state = deal(hands, dealer=3, bids=[3, 3, 3, 4])
    state.apply(cards("9H")[0])
    state.apply(cards("TH")[0])
    state.apply(cards("JH")[0])
    assert text(NormalPlayer(spades()).choose(state.view(3))) == "KH"
    # second seat: partner's ace of hearts... seat 1 follows low when it cannot beat a sure card
    hands = complete({0: "AH 2S 3S 4S 5S 6S 7S 8S 9S TS 2D 3D 4D",
                      1: "TH 5D 6D 7D 8D 9D TD JD QD KD AD 2C 3C",
                      2: "JH 4C 5C 6C 7C 8C 9C TC JC QC KC AC QH",
                      3: "KH 9H 3H 2H 4H JS QS KS AS 5H 6H 7H 8H"})
    state = deal(hands, dealer=3, bids=[3, 3, 3, 4])
    state.apply(cards("AH")[0])
    state.apply(cards("TH")[0])
    assert text(NormalPlayer(spades()).choose(state.view(2))) == "JH"  # partner's ace holds: low


def test_normal_leads_the_highest_card_still_out():
    # the ace of clubs went in the second trick: seat 0's king of clubs is now the top club
    hands = complete({0: "KC 2C 5C 6C 7C 5D 6D 7D 8D 9D 2S 3S 4S",
                      1: "AD AC 6H 2H 3H 4H 5H 9H TH JH QH KH AH",
                      2: "2D 3C 7H 8C 9C TC JC QC 5S 6S 7S 8S 9S"})
    state = deal(hands, dealer=3, bids=[4, 4, 3, 3])
    for c in ("5D", "AD", "2D", "3D", "AC", "3C", "4C", "2C", "6H", "7H", "8H", "2S"):
        state.apply(cards(c)[0])
    assert state.to_act == 0
    assert text(NormalPlayer(spades()).choose(state.view(0))) == "KC"


# --------------------------------------------------------------------------- the shared pieces


def test_who_played_what_is_read_from_the_order_of_play():
    rules = spades()
    rng = Rng(8)
    for hand in range(5):
        state = rules.new_hand({"dealer": hand % 4})
        deck = list(range(52))
        rng.shuffle(deck)
        fulfil_from(state, deck)
        for _ in range(4):
            state.apply(52 + 1 + rng.below(4))
        while state.to_act != TERMINAL:
            view = state.view(state.to_act)
            by = played_by(view)
            for seat in range(4):
                assert by[seat] == [c for s, c in state._actions[4:] if s == seat]
            state.apply(rng.choice(view.legal_actions))

