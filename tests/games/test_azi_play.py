"""The engine's search copies of an Azi hand play as the hand does: ``AziHand.play_copy`` (the play on
masks) and ``AziHand.search_copy`` (no history, cards seen at once), over random legal hands."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from p2pcards.games import CHANCE, TERMINAL, GameError
from p2pcards.games.azi import AziHand
from p2pcards.games.azi import actions as act
from p2pcards.games.base import IllegalAction
from p2pcards.games.playout import fulfil_from
from p2pcards.games.rng import Rng
from tests.games.test_azi_support import rules

TABLES: list[dict[str, Any]] = [
    {"players": 2}, {"players": 3, "deal": 4}, {"players": 4}, {"players": 5, "six_on_stage": False},
    {"players": 6, "blind": False}, {"players": 4, "bankroll": 30},
]


def dealt(opts: dict[str, Any], seed: int) -> tuple[AziHand, Rng, list[int]]:
    """A first deal, with every chance step fulfilled up to the first seat's turn: the dealer's
    replica, which knows every card."""
    r = rules(**opts)
    rng = Rng(f"azi-play/{sorted(opts.items())}/{seed}")
    deck = list(r.deck)
    rng.shuffle(deck)
    st = r.new_hand({"dealer": seed % r.n})
    assert isinstance(st, AziHand)
    while st.to_act == CHANCE:
        fulfil_from(st, deck)
    return st, rng, deck


def step(st: AziHand, rng: Rng, deck: list[int]) -> None:
    """One random legal action (bets drawn among a few amounts), then any chance steps."""
    legal = st.legal_actions()
    small = [a for a in legal if not act.is_amount(a)] + [a for a in legal if act.is_amount(a)][:4]
    st.apply(small[rng.below(len(small))])
    while st.to_act == CHANCE:
        fulfil_from(st, deck)


def in_play(opts: dict[str, Any], seeds: range) -> Iterator[tuple[AziHand, Rng, list[int]]]:
    """Per seed, a hand whose bidding was played at random up to its first card (hands that end in
    the bidding are left out)."""
    for seed in seeds:
        st, rng, deck = dealt(opts, seed)
        while st.to_act != TERMINAL and st.phase_name != "play":
            step(st, rng, deck)
        if st.to_act != TERMINAL:
            yield st, rng, deck


@pytest.mark.parametrize("opts", TABLES)
def test_the_play_copy_plays_as_the_hand(opts: dict[str, Any]) -> None:
    played = 0
    for st, rng, _ in in_play(opts, range(60)):
        copy = st.play_copy()
        while st.to_act != TERMINAL:
            assert copy.to_act == st.to_act
            assert copy.legal_actions() == st.legal_actions()
            assert copy.trick == st.trick and tuple(copy.won) == st.tricks
            a = st.legal_actions()[rng.below(len(st.legal_actions()))]
            again = copy.clone()
            st.apply(a)
            copy.apply(a)
            played += 1
            assert again.to_act != copy.to_act or again.trick != copy.trick  # the clone stayed
        res = st.result
        assert res is not None and copy.over
        assert copy.winner == res.winner and tuple(copy.won) == res.tricks
    assert played > 100


def test_the_play_copy_refuses_what_the_hand_refuses() -> None:
    for st, _, _ in in_play({"players": 4}, range(40)):
        copy = st.play_copy()
        while st.to_act != TERMINAL:
            legal = set(st.legal_actions())
            for c in range(52):
                if act.play(c) not in legal:
                    with pytest.raises(IllegalAction):
                        copy.clone().apply(act.play(c))
            a = sorted(legal)[0]
            st.apply(a)
            copy.apply(a)
    with pytest.raises(GameError):
        dealt({"players": 3}, 0)[0].play_copy()  # not in the play yet


@pytest.mark.parametrize("opts", TABLES)
def test_a_search_copy_bids_and_plays_as_the_hand_without_history(opts: dict[str, Any]) -> None:
    for seed in range(40):
        st, rng, deck = dealt(opts, seed)
        copy = st.search_copy()
        with pytest.raises(GameError):
            copy.record()
        while st.to_act != TERMINAL:
            assert copy.to_act == st.to_act  # a look needs no chance step in the copy
            assert copy.legal_actions() == st.legal_actions()
            assert (copy.pot, copy.stack, copy.leader, copy.blind) == (st.pot, st.stack, st.leader, st.blind)
            before = len(st.record().actions)
            step(st, rng, deck)
            a = st.record().actions[before][1]
            copy.apply(copy.parse(a) if not a.startswith("discard") else st.rules.parse_action(a))
        assert copy.to_act == TERMINAL and copy.result == st.result


def test_a_play_copy_takes_the_cards_a_state_does_not_know() -> None:
    for st, _, _ in in_play({"players": 4, "blind": False}, range(20)):
        view = st.view(st.to_act)
        masked = view.determinize({})
        assert isinstance(masked, AziHand)
        with pytest.raises(GameError):
            masked.play_copy()
        cards = {p: st.card_at[p] for p in view.unknown_positions}
        whole = masked.play_copy(cards)
        full = st.play_copy()
        assert (whole.hands, whole.to_act, whole.trick) == (full.hands, full.to_act, full.trick)


@pytest.mark.parametrize("opts", TABLES)
def test_clones_of_a_search_copy_are_independent(opts: dict[str, Any]) -> None:
    """A search copy's clones share what the bidding does not change until they play: playing one
    to the end, and making views of it, leaves the other as it was."""
    for seed in range(30):
        st, rng, _deck = dealt(opts, seed)
        copy = st.search_copy()
        moves: list[int] = []
        first = copy.clone()
        while first.to_act != TERMINAL:
            legal = first.legal_actions()
            a = legal[rng.below(min(len(legal), 6))]
            before = (copy.card_at[:], [h[:] for h in copy.hands], copy.pub[:], copy.trick_pos[:])
            first.view(first.to_act)
            first.apply(a)
            moves.append(a)
            assert (copy.card_at, copy.hands, copy.pub, copy.trick_pos) == before
        second = copy.clone()
        for a in moves:
            assert a in second.legal_actions()
            second.apply(a)
        assert second.result == first.result and first.result is not None
        assert copy.to_act == st.to_act and copy.pub == st.pub and copy.hands == st.hands
