"""Spades' Hard player (determinized search, exact endgame), what every level must not see, and the
tournament adapters."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from p2pcards import sim as S
from p2pcards.ai import budget, player
from p2pcards.ai import tournament as T
from p2pcards.ai.spades import HardPlayer
from p2pcards.ai.spades import hard as H
from p2pcards.ai.spades.adapter import SpadesAdapter, SpadesGameAdapter
from p2pcards.ai.spades.common import mask_of
from p2pcards.games import TERMINAL
from p2pcards.games.cards import card_text
from p2pcards.games.playout import fulfil_from
from p2pcards.games.rng import Rng
from p2pcards.games.spades import SpadesState
from tests.ai.test_spades_support import END, FILLER, after_tricks, cards, complete, deal, deck_for, spades


@pytest.fixture
def quick_hard() -> Iterator[None]:
    """Hard with a small budget: the same code, fewer samples (the tests check behaviour, not strength)."""
    before = budget.default_think()
    budget.set_default_think(5)
    yield
    budget.set_default_think(before)


def play_hand(rules, players, dealer: int, deck: list[int]) -> SpadesState:
    state: SpadesState = rules.new_hand({"dealer": dealer})
    fulfil_from(state, deck)
    while state.to_act != TERMINAL:
        view = state.view(state.to_act)
        action = players[state.to_act].choose(view)
        assert action in view.legal_actions
        state.apply(action)
    return state


# --------------------------------------------------------------------------- legal, deterministic


def test_hard_plays_only_legal_actions_and_is_deterministic(quick_hard):
    rules = spades()
    deck = list(range(52))
    Rng(21).shuffle(deck)
    levels = ("hard", "normal", "hard", "easy")
    a = play_hand(rules, [player(rules, levels[s], seed=s) for s in range(4)], 1, deck)
    b = play_hand(rules, [player(rules, levels[s], seed=s) for s in range(4)], 1, deck)
    assert a.record() == b.record()


def test_hard_follows_the_house_rule_on_failed_nils(quick_hard):
    rules = spades(failed_nil_tricks="ignored")
    deck = list(range(52))
    Rng(5).shuffle(deck)
    play_hand(rules, [player(rules, "hard" if s % 2 else "normal", seed=s) for s in range(4)], 2, deck)


# --------------------------------------------------------------------------- the view only


def _alternative(state: SpadesState, seat: int) -> SpadesState:
    """The same hand with the hidden cards of two other seats exchanged (a card of a suit both still
    hold): another true deal that gives ``seat`` the same view."""
    held = {s: list(state.held(s)) for s in range(4)}
    played = {s: [c for t, c in state._actions[4:] if t == s] for s in range(4)}
    others = [s for s in range(4) if s != seat]
    for i, a in enumerate(others):
        for b in others[i + 1:]:
            for ca in held[a]:
                for cb in held[b]:
                    if ca // 13 == cb // 13 and ca != cb:
                        held[a][held[a].index(ca)] = cb
                        held[b][held[b].index(cb)] = ca
                        hands = {s: sorted(held[s] + played[s]) for s in range(4)}
                        dealer = state.dealer
                        alt = state.rules.new_hand({"dealer": dealer})
                        assert isinstance(alt, SpadesState)
                        deck = deck_for(hands, dealer)
                        fulfil_from(alt, deck)
                        for _, action in state._actions:
                            alt.apply(action)
                        return alt
    raise AssertionError("no exchange possible")


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_different_deal_with_the_same_view_gives_the_same_choice(level):
    rules = spades()
    rng = Rng(33)
    checked = 0
    for hand in range(3):
        deck = list(range(52))
        rng.shuffle(deck)
        state = rules.new_hand({"dealer": hand})
        fulfil_from(state, deck)
        normals = [player(rules, "normal", seed=s) for s in range(4)]
        stop = 4 + 4 * (2 + 3 * hand) + hand  # bidding, some tricks, part of a trick
        while state.moves_applied < stop:
            state.apply(normals[state.to_act].choose(state.view(state.to_act)))
        seat = state.to_act
        alt = _alternative(state, seat)
        assert [state.held(s) for s in range(4)] != [alt.held(s) for s in range(4)]
        v1, v2 = state.view(seat), alt.view(seat)
        public = ("hand", "played", "voids", "legal_actions", "trick", "bids", "tricks_won", "unseen_cards")
        assert [getattr(v1, f) for f in public] == [getattr(v2, f) for f in public]
        assert player(rules, level, seed=9).choose(v1) == player(rules, level, seed=9).choose(v2)
        checked += 1
    assert checked == 3


def test_the_bid_depends_on_the_view_only(quick_hard):
    rules = spades()
    hands = complete({0: "AS KS 4S AH 8H 6H 3D 5D 7D 9D 2C 4C 6C"})
    swapped = dict(hands)
    swapped[1], swapped[2] = hands[2], hands[1]
    a = deal(hands, dealer=3).view(0)
    b = deal(swapped, dealer=3).view(0)
    assert HardPlayer(rules, 4).choose(a) == HardPlayer(rules, 4).choose(b)


# --------------------------------------------------------------------------- sampling


def test_the_sampled_deals_respect_voids_and_hand_sizes():
    rules = spades()
    state = after_tricks(END, FILLER, dealer=3, bids=[2, 2, 2, 2])
    state.apply(cards("KH")[0])  # seat 0 leads; seat 1 is to play and void in hearts
    view = state.view(2)
    hp = HardPlayer(rules, 1)
    know = hp.knowledge(view, H.Table(view))
    rng = Rng(2)
    hearts = 0x1FFF << 26
    for _ in range(50):
        d = know.draw(rng)
        assert d is not None
        assert sorted(d) == [0, 1, 3]
        assert [d[s].bit_count() for s in (0, 1, 3)] == [3, 4, 4]
        assert not d[1] & hearts  # seat 1 showed it has no hearts
        assert d[0] | d[1] | d[3] == mask_of(view.unseen_cards)
    deals = know.enumerate(10_000)
    assert deals is not None
    assert len(deals) == len({tuple(sorted(x.items())) for x in deals})
    # 11 cards to 3 + 4 + 4 seats, the ace of hearts anywhere but in seat 1 (7 places of 11)
    assert len(deals) == math.comb(11, 3) * math.comb(8, 4) * 7 // 11


def test_the_bids_shape_the_sampled_hands():
    # an opponent who bid nil is rarely dealt the ace of spades; one who bid 7 often is
    hands = complete({0: "2S 3S 4S 5S 2H 3H 4H 5H 2D 3D 4D 5D 2C"})
    for bid, expect_many in ((0, False), (7, True)):
        state = deal(hands, dealer=2, bids=[bid])  # seat 3 bids first
        view = state.view(0)
        know = H.Knowledge(0, view.unseen_cards, [13] * 4, [0] * 4, [0] * 4, view.bids)
        rng = Rng(7)
        ace = 1 << 51
        n = sum(1 for _ in range(300) if (d := know.sample(rng)) is not None and d[3] & ace)
        assert (n > 120) == expect_many, (bid, n)


# --------------------------------------------------------------------------- search


def _minimax(s: SpadesState, team: int) -> float:
    """Plain minimax over every legal card (no pruning, no equivalent cards)."""
    if s.to_act < 0:
        return H.margin(s, team)
    values = []
    for c in s.legal_actions():
        child = s.clone()
        child.apply(c)
        values.append(_minimax(child, team))
    return max(values) if (s.to_act & 1) == team else min(values)


def test_the_exact_search_is_minimax_on_the_engine():
    # positions with two or three tricks left, every card known: alpha-beta over one card per run of
    # equivalent cards scores each exactly as plain minimax does, for either team
    rules = spades()
    rng = Rng(12)
    checked = 0
    for hand in range(12):
        state = rules.new_hand({"dealer": hand % 4, "bags": (hand % 10, 9 - hand % 10)})
        assert isinstance(state, SpadesState)
        deck = list(range(52))
        rng.shuffle(deck)
        fulfil_from(state, deck)
        for _ in range(4):
            state.apply(52 + (0 if rng.below(5) == 0 else 1 + rng.below(5)))
        left = 8 + 4 * (hand % 2) + rng.below(4)  # cards left: two or three tricks, mid-trick too
        while 52 - len(state.view(0).played) > left:
            state.apply(rng.choice(state.legal_actions()))
        for team in (0, 1):
            nodes = [0]
            assert H.solve(state, team, -math.inf, math.inf, nodes) == _minimax(state, team)
            assert nodes[0] > 0
            checked += 1
            # each card at the root solved in turn, the positions met again shared (as Hard does)
            ends: dict[int, float] = {}
            seen: dict[tuple[int, ...], tuple[float, float]] = {}
            for c in state.legal_actions():
                child = state.clone()
                child.apply(c)
                assert H.solve(child, team, -math.inf, math.inf, None, ends, seen) == _minimax(child, team)
    assert checked == 24


def test_the_exact_search_counts_tricks():
    # one trick left, every card known: the search scores the hand as the rules do
    rules = spades()
    rng = Rng(5)
    for hand in range(10):
        state = rules.new_hand({"dealer": hand % 4})
        assert isinstance(state, SpadesState)
        deck = list(range(52))
        rng.shuffle(deck)
        fulfil_from(state, deck)
        for _ in range(4):
            state.apply(52 + 1 + rng.below(5))
        bids = [b or 0 for b in state.bids]
        while sum(state.tricks_won) < 12:
            state.apply(rng.choice(state.legal_actions()))
        end = state.clone()
        while end.to_act != TERMINAL:
            end.apply(end.legal_actions()[0])
        took = end.tricks_won
        seats = [[0, 2], [1, 3]]
        pts, bags = [], []
        for team in (0, 1):
            contract = sum(bids[s] for s in seats[team])
            got = sum(took[s] for s in seats[team])
            pts.append(10 * contract + got - contract if got >= contract else -10 * contract)
            bags.append(got - contract if got >= contract else 0)
        assert H.solve(state, 0, -math.inf, math.inf) == H.value(pts[0], bags[0], pts[1], bags[1])
        assert H.solve(state, 1, -math.inf, math.inf) == H.value(pts[1], bags[1], pts[0], bags[0])


def test_hard_draws_the_last_spades_before_cashing_its_hearts():
    # seat 0 needs all four last tricks: AS KS AH KH against two spades still out somewhere.
    # Hearts first lose a trick to a ruff whenever an opponent holds a spade; spades first never lose.
    rules = spades()
    state = after_tricks(END, FILLER, dealer=3, bids=[6, 2, 3, 2])
    assert state.to_act == 0 and state.tricks_won == (3, 2, 2, 2)
    choice = HardPlayer(rules, 3).choose(state.view(0))
    assert card_text(choice) in ("AS", "KS")


def test_hard_takes_the_trick_that_sets_the_opponents():
    # team 1 has made its contract; team 0 needs all four tricks: one trick sets them (worth a bag)
    rules = spades()
    state = after_tricks(END, FILLER, dealer=3, bids=[6, 2, 3, 2])
    state.apply(cards("KH")[0])
    assert card_text(HardPlayer(rules, 3).choose(state.view(1))) in ("JS", "QS")


def test_hard_bids_nil_on_a_hopeless_hand_and_high_on_a_strong_one():
    rules = spades()
    weak = complete({0: "2S 3S 2H 4H 6H 8H 3D 5D 7D 9D 2C 4C 6C"})
    assert HardPlayer(rules, 1).choose(deal(weak, dealer=3).view(0)) == 52
    strong = complete({0: "AS KS QS JS 9S 7S AH KH AD 4D 3D 2C 3C"})
    assert HardPlayer(rules, 1).choose(deal(strong, dealer=3).view(0)) >= 52 + 7


def test_distinct_keeps_one_card_per_run_of_equivalent_cards():
    legal = mask_of(cards("2H 3H 5H 9H TH"))
    others = mask_of(cards("4H JH"))  # 6H 7H 8H are played: 5H 9H TH are one run
    assert [card_text(c) for c in H.distinct(legal, others)] == ["2H", "5H"]


# --------------------------------------------------------------------------- tournament adapters


def test_the_adapter_plays_deals_with_the_teams_swapping_seats():
    report = S.run(T.Config("spades", ("normal", "easy"), games=3, seed=2, duplicate=True))
    assert report.unit == "deal" and report.value_name == "margin"
    assert report.layouts == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert len(report.units) == 6 and all(u.hands == 1 for u in report.units)
    for u in report.units:
        assert u.outcomes[0].value == -u.outcomes[1].value
        assert {u.outcomes[0].points, u.outcomes[1].points} in ({0, 2}, {1})
    # the same deal in both layouts: the same cards, the other team holding them
    by_deal: dict[int, list[str]] = {}
    for u in report.units:
        by_deal.setdefault(u.deal, []).append(u.summary)
    assert all(len(v) == 2 for v in by_deal.values())
    # the duplicate-pairs line: each deal's two margins added up, so the cards' luck cancels
    sums = [sum(u.outcomes[0].value for u in report.units if u.deal == d) for d in range(3)]
    wins = sum(1.0 if v > 0 else 0.5 if v == 0 else 0.0 for v in sums)
    (note,) = report.notes
    assert note.startswith(f"duplicate pairs: normal #1 wins {wins:g} of 3 deals (both seatings added)")
    assert note in T.format_report(report)
    with pytest.raises(Exception, match="1, 2"):
        SpadesAdapter().layouts(spades(), 3)


def test_the_game_adapter_plays_whole_games():
    p = T.plan(T.Config("spades", ("normal", "easy"), games=1, seed=4, duplicate=True,
                        options=(("target", 150),), unit="game"))
    assert isinstance(p.adapter, SpadesGameAdapter)
    results = S.play_deal(p, 0)
    assert len(results) == 2
    for u in results:
        assert u.hands >= 1
        assert u.outcomes[0].points in (0, 2)
        assert "wins" in u.summary


def test_a_larger_budget_solves_more_tricks_exactly():
    assert H.exact_tricks(budget.units_for("spades", 100)) == H.EXACT_TRICKS == 4
    assert H.exact_tricks(budget.units_for("spades", 1000)) == 5
    assert [H.exact_tricks(b) for b in (1, 149_999, 150_000, 10**9)] == [4, 4, 5, 5]


def test_hard_knows_an_open_dummys_cards():
    # seat 1 is an open dummy: its cards are in every view, so Hard deals the hidden cards to seat 3
    # alone, and every sample of every decision fits (before, it dealt to the dummy's seat as well)
    from p2pcards.games.spades import dummy

    rules = spades()
    state = rules.new_hand({"dealer": 0, "dummies": (1,)})
    deck = list(range(52))
    Rng(21).shuffle(deck)
    fulfil_from(state, deck)
    hards = {0: HardPlayer(rules, 1, 2_000), 2: HardPlayer(rules, 2, 2_000)}
    normal = player(rules, "normal")
    searched = 0
    while state.to_act != TERMINAL:
        seat = state.to_act
        view = state.view(seat)
        if seat == 1:
            action = dummy.choose(view)
        elif seat in hards:
            p = hards[seat]
            action = p.choose(view)
            if p.work.spent:
                assert p.samples > 0 and p.tally is not None and p.tally.samples == p.samples
                searched += 1
        else:
            action = normal.choose(view)
        assert action in view.legal_actions
        state.apply(action)
    assert searched >= 10
