"""The open dummy of Spades ("The open dummy" in docs/rules/spades.md; DESIGN: the game goes on).

The dummy's move is a pure function of public information: legal in every position, the same on every
call and every replica, and blind to every card it cannot see.
"""

from __future__ import annotations

import pytest

from p2pcards.games import CHANCE, TERMINAL, GameError, load
from p2pcards.games.cards import parse_card
from p2pcards.games.playout import fulfil_from
from p2pcards.games.rng import Rng
from p2pcards.games.spades import SpadesState, SpadesView, dummy
from p2pcards.games.spades.config import BID0

RULES = load("spades")


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(w) for w in text.split())


def random_dummy_hand(seed: int, dummies: tuple[int, ...]) -> tuple[SpadesState, list[SpadesState]]:
    """A hand in which the seats ``dummies`` play by ``dummy.choose`` and the others at random; returns
    the end state and every state at which a dummy chose.  (A table where all four seats were dummies
    would be over; to have the policy play every seat, seat 0 plays by it without being one.)"""
    rng = Rng(seed)
    setup_dummies = tuple(s for s in dummies if s or len(dummies) < 4)
    state = RULES.new_hand({"dealer": rng.below(4), "dummies": setup_dummies})
    assert isinstance(state, SpadesState)
    deck = list(RULES.deck)
    rng.shuffle(deck)
    asked = []
    while state.to_act != TERMINAL:
        if state.to_act == CHANCE:
            fulfil_from(state, deck)
        elif state.to_act in dummies:
            asked.append(state.clone())
            view = state.view(state.to_act)
            move = dummy.choose(view, b"seed")
            assert move in view.legal_actions
            state.apply(move)
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state, asked


def test_the_dummy_plays_only_legal_moves_in_thousands_of_hands() -> None:
    decisions = 0
    for seed in range(1000):
        seats = ((0, 1, 2, 3), (1,), (0, 2), (1, 2, 3))[seed % 4]
        end, asked = random_dummy_hand(seed, seats)
        assert end.result is not None
        assert len(asked) == 14 * len(seats)  # a bid and thirteen cards each, every one legal
        decisions += len(asked)
    assert decisions == 35_000


def test_the_dummy_is_deterministic_and_ignores_the_seed() -> None:
    _, asked = random_dummy_hand(7, (0, 1, 2, 3))
    for state in asked:
        view = state.view(state.to_act)
        first = dummy.choose(view, b"a")
        assert dummy.choose(view, b"b") == first == dummy.choose(state.view(state.to_act), b"a")
        assert dummy.choose(state.clone().view(state.to_act), b"a") == first


def test_the_dummy_never_depends_on_a_hidden_card() -> None:
    """Deal the cards the dummy cannot see differently (any way the view allows): same choice."""
    for seed in range(40):
        _, asked = random_dummy_hand(seed, (seed % 4,))
        rng = Rng(seed)
        for state in asked:
            seat = state.to_act
            view = state.view(seat)
            choice = dummy.choose(view, b"")
            for _ in range(3):
                unseen = list(view.unseen_cards)
                rng.shuffle(unseen)
                other = view.determinize(unseen)
                assert isinstance(other, SpadesState)
                assert other.view(seat).hand == view.hand
                assert dummy.choose(other.view(seat), b"") == choice


def test_a_dummys_cards_are_known_to_every_view() -> None:
    state = RULES.new_hand({"dealer": 0, "dummies": (2,)})
    assert isinstance(state, SpadesState) and state.dummies == (2,) and state.setup[2] == ("dummies", (2,))
    deck = list(RULES.deck)
    Rng(3).shuffle(deck)
    fulfil_from(state, deck)
    mine = set(state.hand_positions(2))
    for seat in (0, 1, 3):
        view = state.view(seat)
        assert view.dummies == (2,)
        assert not mine & set(view.unknown_positions)
        assert not set(state.hand(2)) & set(view.unseen_cards)
    # without dummies the setup is exactly the old one (and so is every digest)
    plain = RULES.new_hand({"dealer": 0})
    assert [k for k, _ in plain.setup] == ["bags", "dealer", "hand", "scores"]


def _view_with(hand: str, trick: tuple[tuple[int, str], ...] | list[tuple[int, str]] = (), played: str = "",
               bids: tuple[int, ...] = (3,) * 4, legal: str | None = None, phase: str = "play",
               seat: int = 0) -> SpadesView:
    """A view as the rules page describes it, built by hand (the policy reads nothing else)."""
    held = cards(hand)
    legal_cards = cards(legal) if legal is not None else held
    state = RULES.new_hand({"dealer": 3})
    base = state.view(seat)
    return SpadesView(
        seat=seat, to_act=seat, hand=held,
        legal_actions=tuple(range(BID0, BID0 + 14)) if phase == "bidding" else legal_cards,
        unknown_positions=(), unseen_cards=(), _masked=base.masked, phase=phase, dealer=3,
        seats=(0, 1, 2, 3), hand_sizes=(13,) * 4, bids=bids, contracts=(0, 0), leader=0,
        trick=tuple((s, parse_card(c)) for s, c in trick), last_trick=(), tricks_won=(0,) * 4,
        spades_broken=False, played=cards(played), voids=((),) * 4, scores=(0, 0), bags=(0, 0),
        dummies=(seat,))


def test_the_dummy_bids_aces_guarded_kings_and_long_spades() -> None:
    # aces: AH AS; kings in suits of 2+: KH (KD is alone); spades beyond the third: 5 spades -> 2
    view = _view_with("AH KH 2H KD AS 9S 7S 5S 3S 4C 5C 6C 7C", phase="bidding")
    assert dummy.choose(view) == BID0 + 5
    assert dummy.bid(cards("2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 7D")) == 1  # never nil


def test_the_dummy_leads_its_highest_non_spade_master_else_its_lowest_card() -> None:
    # AH is a master; KD is one too once AD has been played; AH is the higher
    assert dummy.choose(_view_with("AH 4H KD 3C 9S", played="AD 2D 3D 4D")) == parse_card("AH")
    # QC is a master: AC was played and KC is the dummy's own
    assert dummy.choose(_view_with("KC QC 3H 9S", played="AC 2C 4C 5C")) == parse_card("KC")
    # no master: the lowest non-spade
    assert dummy.choose(_view_with("KH 3D 9C 2S")) == parse_card("3D")


def test_the_dummy_follows_low_behind_its_partner_and_wins_cheaply_otherwise() -> None:
    # seat 0's partner is seat 2: it is winning with KH, so the dummy plays low
    partner_wins = [(1, "9H"), (2, "KH"), (3, "2H")]
    assert dummy.choose(_view_with("AH 3H", trick=partner_wins, legal="AH 3H")) == parse_card("3H")
    # ...unless the partner bid nil: then the dummy takes the trick over
    assert dummy.choose(_view_with("AH 3H", trick=partner_wins, legal="AH 3H", bids=(3, 3, 0, 3))) \
        == parse_card("AH")
    # an opponent is winning: the cheapest card that wins
    assert dummy.choose(_view_with("AH QH 3H", trick=[(1, "JH")], legal="AH QH 3H")) == parse_card("QH")
    # void in the suit led: the lowest spade that wins, over the discard
    assert dummy.choose(_view_with("2S 9S 4D", trick=[(2, "JH"), (3, "3S")], legal="2S 9S 4D")) \
        == parse_card("9S")
    # nothing wins: the lowest card, a non-spade before any spade
    assert dummy.choose(_view_with("2S 4D", trick=[(1, "JH"), (3, "AS")], legal="2S 4D")) == parse_card("4D")


def test_the_dummy_chooses_only_on_its_own_turn() -> None:
    state = RULES.new_hand({"dealer": 0})
    with pytest.raises(GameError):
        dummy.choose(state.view(2))
