"""Spades' computer players with blind nil (S16-S18): what each level decides, from what its seat may
know only."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from p2pcards.ai import budget, player
from p2pcards.ai.spades import EasyPlayer, HardPlayer, NormalPlayer
from p2pcards.ai.spades.normal import BLIND_COVER, BLIND_GAP, normal_blind
from p2pcards.games import CHANCE, TERMINAL, load
from p2pcards.games.playout import fulfil_from
from p2pcards.games.rng import Rng
from p2pcards.games.spades import Rules, SpadesState
from p2pcards.games.spades.config import BLIND_NIL, LOOK


@pytest.fixture
def quick_hard() -> Iterator[None]:
    before = budget.default_think()
    budget.set_default_think(5)
    yield
    budget.set_default_think(before)


def blind_rules() -> Rules:
    rules = load("spades", blind_nil="on")
    assert isinstance(rules, Rules)
    return rules


def to_first_blind_choice(scores: tuple[int, int], seed: int, dealer: int = 0,
                          before: tuple[int, ...] = ()) -> tuple[SpadesState, list[int]]:
    """A full-information hand with ``scores``, dealt from a deck shuffled by ``seed``, the seats
    before the first blind choice bidding ``before`` (52 + n each)."""
    rules = blind_rules()
    st = rules.new_hand({"dealer": dealer, "scores": scores})
    assert isinstance(st, SpadesState)
    deck = list(range(52))
    Rng(seed).shuffle(deck)
    bids = list(before)
    while True:
        while st.to_act == CHANCE:
            fulfil_from(st, deck)
        if st.legal_actions() == [BLIND_NIL, LOOK]:
            return st, deck
        st.apply(52 + bids.pop(0))


def test_easy_never_bids_blind_nil_it_looks():
    for gap in (100, 200, 500):
        st, _ = to_first_blind_choice((0, gap), 1, dealer=3)
        assert EasyPlayer(st.rules).choose(st.view(st.to_act)) == LOOK


def then(st: SpadesState, deck: list[int], *actions: int) -> SpadesState:
    for action in actions:
        st.apply(action)
        while st.to_act == CHANCE:
            fulfil_from(st, deck)
    return st


def test_normal_bids_blind_nil_only_far_behind_and_when_its_partner_bid_enough_to_cover_it():
    assert (BLIND_GAP, BLIND_COVER) == (200, 4)
    # dealer 3: seat 0 (team 0, behind) decides first; its partner has not bid: it looks
    first, _ = to_first_blind_choice((0, 250), 2, dealer=3)
    assert first.to_act == 0 and NormalPlayer(first.rules).choose(first.view(0)) == LOOK
    for gap, partner_bid, choice in ((250, 5, BLIND_NIL), (200, 4, BLIND_NIL), (150, 5, LOOK),
                                     (250, 3, LOOK), (250, 0, LOOK)):
        st, deck = to_first_blind_choice((0, gap), 2, dealer=3)
        then(st, deck, LOOK, 52 + partner_bid, 52 + 3)     # seat 0 looks and bids, seat 1 bids
        assert st.to_act == 2 and st.legal_actions() == [BLIND_NIL, LOOK]
        assert NormalPlayer(st.rules).choose(st.view(2)) == choice, (gap, partner_bid)
    # team 1 (seats 1 and 3) behind: seat 1's partner is seat 3
    assert normal_blind((300, 0), (None, None, 4, 3), 1) is False
    assert normal_blind((300, 0), (None, None, 4, 4), 1) is True
    assert normal_blind((300, 101), (None, None, 4, 4), 1) is False


def test_the_blind_choice_depends_on_the_public_facts_only():
    """The seat has not seen its cards: two deals that differ in its own hand (and the others') give
    the very same view, and every level the same choice, Hard's sampled values included."""
    a, _ = to_first_blind_choice((0, 250), 3, dealer=3)
    b, _ = to_first_blind_choice((0, 250), 4, dealer=3)
    assert a.hand_positions(0) == b.hand_positions(0) and a.hand(0) != b.hand(0)
    va, vb = a.view(0), b.view(0)
    assert va.hand == vb.hand == () and va.face_down
    assert va.unseen_cards == vb.unseen_cards and va.legal_actions == (BLIND_NIL, LOOK)
    for level in ("easy", "normal"):
        assert player(a.rules, level).choose(va) == player(b.rules, level).choose(vb)
    ha = HardPlayer(a.rules, seed=5, budget=20_000)
    hb = HardPlayer(b.rules, seed=5, budget=20_000)
    assert ha.choose(va) == hb.choose(vb)
    assert ha.tally is not None and hb.tally is not None and ha.samples == hb.samples > 0
    assert ha.tally.totals == hb.tally.totals


def test_hard_bids_blind_nil_when_its_rollouts_score_it_better():
    """Hard's choice follows the rollouts' two means (blind nil first, look second)."""
    st, _ = to_first_blind_choice((0, 400), 6, dealer=3)
    hard = HardPlayer(st.rules, seed=1, budget=20_000)
    choice = hard.choose(st.view(0))
    assert hard.tally is not None
    blind, look = hard.tally.totals
    assert choice == (BLIND_NIL if blind > look else LOOK)


@pytest.mark.parametrize("levels", [("easy", "normal"), ("normal", "hard"), ("hard", "easy")])
def test_every_level_plays_blind_nil_hands_legally_and_alike_twice(levels, quick_hard):
    rules = blind_rules()

    def play(seed: int) -> tuple[object, ...]:
        players = [player(rules, levels[s % 2], seed=s) for s in range(4)]
        records = []
        for k, scores in enumerate(((0, 250), (300, 0), (-100, 150))):
            st = rules.new_hand({"dealer": k, "scores": scores})
            assert isinstance(st, SpadesState)
            deck = list(range(52))
            Rng(seed + k).shuffle(deck)
            while st.to_act != TERMINAL:
                if st.to_act == CHANCE:
                    fulfil_from(st, deck)
                    continue
                view = st.view(st.to_act)
                if view.face_down:
                    assert view.hand == () and view.legal_actions == (BLIND_NIL, LOOK)
                action = players[st.to_act].choose(view)
                assert action in view.legal_actions
                st.apply(action)
            records.append(st.record())
        return tuple(records)

    assert play(11) == play(11)
