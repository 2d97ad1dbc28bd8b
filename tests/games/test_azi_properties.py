"""Properties of Azi over random legal playouts (hypothesis picks the table and the seed)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.games import CHANCE, TERMINAL, HandRecord
from p2pcards.games.azi import AziHand, AziMatch, AziRules
from p2pcards.games.azi import actions as act
from p2pcards.games.playout import fulfil_from, random_match
from p2pcards.games.rng import Rng
from tests.games.test_azi_support import Lockstep, rules, verb_policy

TABLES = st.fixed_dictionaries({
    "deal": st.sampled_from([3, 4]),
    "blind": st.booleans(),
    "six_on_stage": st.booleans(),
    "azi_buy_in": st.booleans(),
})
SEEDS = st.integers(0, 2**64 - 1)
PLAYERS = pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
MAX_STEPS = 400


def random_setup(r: AziRules, rng: Rng) -> dict[str, Any]:
    """A first deal with the bankroll, one with short stacks (all-ins), or an azi replay."""
    n = r.n
    kind = rng.below(3)
    dealer = rng.below(n)
    if kind == 0:
        return {"dealer": dealer}
    stacks = [rng.below(120) for _ in range(n)]
    if kind == 1 or n < 3:
        for s in rng.choice([(0, 1), (n - 1, 0), (dealer, (dealer + 1) % n)]):
            stacks[s] = max(stacks[s], r.ante)
        return {"dealer": dealer, "stacks": tuple(stacks)}
    seats = list(range(n))
    rng.shuffle(seats)
    free = tuple(sorted(seats[:2 + rng.below(n - 1)]))
    carried = tuple(r.ante + rng.below(60) if s in free or rng.below(2) else 0 for s in range(n))
    return {"dealer": dealer, "stacks": tuple(stacks), "carried": carried, "free": free, "azi": 1}


def chips(h: AziHand) -> int:
    return sum(h.stack) + sum(h.contrib)


def check_views(ls: Lockstep) -> None:
    full = ls.full
    for seat, part in enumerate(ls.parts):
        v = part.view(seat)
        w = full.view(seat)
        for name in ("hand", "legal_actions", "unknown_positions", "unseen_cards", "trick", "stacks",
                     "blind", "phase", "call_cost", "played", "voids"):
            assert getattr(v, name) == getattr(w, name), name
        for su in w.voids[seat]:  # a void shown is true
            assert all(full.card_at[p] // 13 != su for p in full.hands[seat])
        d = v.determinize([ls.deck[p] for p in v.unknown_positions])
        assert d.to_act == full.to_act
        if full.to_act >= 0:
            assert d.legal_actions() == full.legal_actions()


@PLAYERS
@settings(max_examples=15, deadline=None)
@given(table=TABLES, seed=SEEDS)
def test_replicas_agree_and_every_hand_ends_conserving_chips(
        players: int, table: dict[str, Any], seed: int) -> None:
    r = rules(players=players, **table)
    rng = Rng(seed)
    setup = random_setup(r, rng)
    deck = list(r.deck)
    rng.shuffle(deck)
    ls = Lockstep(r, setup, deck)
    total = chips(ls.full)
    steps = 0
    while not ls.over:
        ls.step(verb_policy, rng)
        steps += 1
        assert steps < MAX_STEPS
        full = ls.full
        assert all(p.digest() == full.digest() for p in ls.parts)
        assert chips(full) == total and min(full.stack) >= 0
        zones = full.zones()
        assert sorted(p for _, ps in zones for p in ps) == list(range(len(r.deck)))
        assert all(p.zones() == zones for p in ls.parts)
        assert full.to_act == CHANCE or full.to_act == TERMINAL or 0 <= full.to_act < r.n
        if steps % 3 == 0 or full.to_act == TERMINAL:
            check_views(ls)
    res = ls.full.result
    assert res is not None
    assert sum(res.stacks) + (res.pot if res.azi else 0) == total
    assert all(isinstance(x, int) for x in res.stacks + res.payouts + res.contributions)
    if res.azi:
        assert len(res.trick_winners) == 3 and res.tricks.count(1) == 3
    else:
        assert res.winner is not None and sum(res.payouts) == res.pot
    # replay, record round trip, audit, and every partial replica's own record
    rec = ls.full.record()
    assert r.replay(HandRecord.from_dict(rec.to_dict())).digest() == ls.full.digest()
    assert r.audit(rec).ok
    for p in ls.parts:
        assert r.replay(p.record()).digest() == ls.full.digest()


@PLAYERS
@settings(max_examples=6, deadline=None)
@given(table=TABLES, seed=SEEDS)
def test_the_same_inputs_give_the_same_digest(players: int, table: dict[str, Any], seed: int) -> None:
    r = rules(players=players, **table)
    digests = []
    for _ in range(2):
        rng = Rng(seed)
        setup = random_setup(r, rng)
        deck = list(r.deck)
        rng.shuffle(deck)
        h = r.new_hand(setup)
        while h.to_act != TERMINAL:
            if h.to_act == CHANCE:
                fulfil_from(h, deck)
            else:
                h.apply(verb_policy(h, rng))
        digests.append(h.digest())
    assert digests[0] == digests[1]


@PLAYERS
@settings(max_examples=12, deadline=None)
@given(table=TABLES, seed=SEEDS)
def test_a10_a_renege_is_caught_by_the_audit_naming_the_seat(
        players: int, table: dict[str, Any], seed: int) -> None:
    r = rules(players=players, **table)
    rng = Rng(seed)
    deck = list(r.deck)
    rng.shuffle(deck)
    h = r.new_hand(random_setup(r, rng))
    while h.to_act != TERMINAL:
        if h.to_act == CHANCE:
            fulfil_from(h, deck)
            continue
        if h.phase_name == "play":
            seat = h.to_act
            legal = h.legal_actions()
            cheats = [act.play(h.card_at[p]) for p in h.hands[seat] if act.play(h.card_at[p]) not in legal]
            if cheats:
                rec = h.record()
                bad = HandRecord(rec.game, rec.options, rec.setup, tuple(deck),
                                 (*rec.actions, (seat, r.action_text(rng.choice(cheats)))))
                verdict = r.audit(bad)
                assert not verdict.ok
                assert verdict.seat == seat and verdict.rule == "A10" and verdict.step == len(rec.actions)
                return
        h.apply(verb_policy(h, rng))


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 6), seed=SEEDS, ante=st.integers(1, 20))
def test_a15_whole_matches_end_and_keep_every_chip(players: int, seed: int, ante: int) -> None:
    r = rules(players=players, bankroll=60, ante=ante)
    m, hands = random_match(r.new_match(seed % players), Rng(seed), max_hands=500)
    assert isinstance(m, AziMatch) and m.over and hands < 500
    assert sum(m.chips) + m.pot == 60 * players
