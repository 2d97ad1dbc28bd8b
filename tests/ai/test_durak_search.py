"""Hard's machinery: it searches on the engine's own states, the solver is exact, samples respect
what is public."""

from __future__ import annotations

import pytest

from p2pcards.ai.durak.hard import HardPlayer
from p2pcards.ai.durak.solver import Budget, Solver, active_pair, end_value, solver_for
from p2pcards.ai.sampling import sample_assignment
from p2pcards.games import CHANCE, TERMINAL, GameError, load
from p2pcards.games.durak import DurakState, DurakView
from p2pcards.games.durak import actions as A
from p2pcards.games.durak.state import P_OVER
from p2pcards.games.playout import fulfil_from
from p2pcards.games.rng import Rng


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_a_search_copy_plays_on_like_the_engine_without_a_dealer(n):
    """Hard searches on the engine itself: a determinized search copy, its draws fulfilled from the
    cards it knows, follows the real hand move for move and ends the same way."""
    for seed in range(12):
        rules = load("durak", players=n, first_bout_limit_5=seed % 3 == 0, deck=52 if seed % 4 == 1 else 36)
        rng = Rng(seed)
        deck = list(rules.deck)
        rng.shuffle(deck)
        state = rules.new_hand({"dealer": seed % n})
        assert isinstance(state, DurakState)
        copy = None
        while state.to_act != TERMINAL:
            if state.to_act == CHANCE:
                fulfil_from(state, deck)
                if copy is not None:
                    assert copy.to_act != CHANCE  # a search copy draws at once from the talon it knows
                continue
            if state.phase_name == "show":
                state.apply(state.legal_actions()[0])
                continue
            if copy is None or seed % 2:  # start afresh at every move, or run alongside
                view = state.view(state.to_act)
                full = view.determinize({p: deck[p] for p in view.unknown_positions})
                assert isinstance(full, DurakState)
                copy = full.search_copy()
            assert copy.to_act == state.to_act
            assert copy.legal_actions() == state.legal_actions()
            action = rng.choice(state.legal_actions())
            state.apply(action)
            copy.apply(action)
        assert copy is not None and copy.phase == P_OVER and copy.result == state.result
        with pytest.raises(GameError):
            copy.digest()


def brute(s: DurakState, me: int, seen: set[int] | None = None) -> int:
    """Plain minimax over the engine's own moves (``seen`` collects every move tried)."""
    if s.phase == P_OVER:
        return end_value(s, me)
    values = []
    for a in s.legal_actions():
        if seen is not None:
            seen.add(a)
        c = s.clone()
        c.apply(a)
        values.append(brute(c, me, seen))
    return max(values) if s.to_act == me else min(values)


def endgames(count: int, max_cards: int, players: int = 2, **options: object):
    """Positions with an empty talon, two players left and at most ``max_cards`` cards in hand and on
    the table, from seeded random hands."""
    rules = load("durak", players=players, **options)
    found = 0
    for seed in range(2000):
        rng = Rng(seed)
        deck = list(rules.deck)
        rng.shuffle(deck)
        state = rules.new_hand({"dealer": seed % players})
        assert isinstance(state, DurakState)
        while state.to_act != TERMINAL:
            if state.to_act == CHANCE:
                fulfil_from(state, deck)
                continue
            endgame = state.phase_name != "show" and not state.talon and state.out.bit_count() == players - 2
            if endgame and sum(h.bit_count() for h in state.hmask) + len(state.att) <= max_cards:
                yield seed, state.clone()
                found += 1
                if found == count:
                    return
                break
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("size", "transfer"), [(36, False), (52, False), (36, True), (52, True)])
def test_the_solver_agrees_with_plain_minimax_on_small_endgames(size, transfer):
    checked = 0
    count = 12 if transfer else 25  # bouncing bouts make plain minimax slow
    seen: set[int] = set()
    for seed, sim in endgames(count, 6, deck=size, transfer=transfer):
        for me in (0, 1):
            solver = solver_for(transfer, sim.trump_suit, me, 10**6, (0, 1), sim.rules.deck)
            assert solver.value(sim) == brute(sim, me, seen), f"seed {seed}, seat {me}"
        checked += 1
    assert checked == count
    transfers = [a for a in seen if a >= A.TRANSFER]
    assert len(transfers) > 3 if transfer else not transfers


def test_the_solver_plays_the_last_two_of_a_bigger_table_exactly():
    checked = 0
    for seed, sim in endgames(12, 6, players=3):
        pair = active_pair(sim)
        assert pair is not None
        for me in pair:
            solver = Solver(sim.trump_suit, me, 10**6, pair)
            assert solver.value(sim) == brute(sim, me), f"seed {seed}, seat {me}"
        checked += 1
    assert checked == 12


def test_the_solver_stops_at_its_node_budget():
    for _, sim in endgames(30, 16):
        if sum(h.bit_count() for h in sim.hmask) >= 12:
            solver = Solver(sim.trump_suit, 0, 3)
            with pytest.raises(Budget):
                solver.value(sim)
            return
    pytest.fail("no big endgame found")


def test_samples_respect_the_trumps_shown_before_the_first_bout():
    # seat 1 showed 8H (hearts are trumps): the other five cards it was dealt hold no 6H nor 7H
    rules = load("durak", players=2)
    for seed in range(40):
        deck = list(rules.deck)
        Rng(seed).shuffle(deck)
        state = rules.new_hand({"dealer": 0})
        assert isinstance(state, DurakState)
        while state.to_act == CHANCE or state.phase_name == "show":
            if state.to_act == CHANCE:
                fulfil_from(state, deck)
            else:
                state.apply(state.legal_actions()[0])
        shows = [t for s, t in state.record().actions if s == 1 and t != "show none"]
        if not shows or shows[0][5] not in "89TJQKA":
            continue
        view = state.view(0)
        assert isinstance(view, DurakView)
        hard = HardPlayer(rules, 1)
        groups, forbid = hard._groups(view)
        shown = rules.parse_card(shows[0][5:])
        assert forbid[1] and all(forbid[1] >> c & 1 for c in range(shown - shown % 13, shown))
        rng = Rng(seed)
        def public(g: int, c: int, shown_by: dict[int, int] = forbid) -> bool:
            return g < 0 or not (g & 1 and shown_by.get(g >> 1, 0) >> c & 1)

        for _ in range(20):
            cards = sample_assignment(rng, groups, view.unseen_cards, public)
            assert cards is not None
            for g, c in zip(groups, cards, strict=True):
                if g == 3:  # seat 1, dealt at the start
                    assert not (c // 13 == shown // 13 and c < shown)
        return
    pytest.fail("no suitable deal found")
