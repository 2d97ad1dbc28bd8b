"""Property tests for Spades over random legal playouts (seeded from hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.games import CHANCE, TERMINAL, UNKNOWN, load
from p2pcards.games.base import HandRecord, IllegalAction
from p2pcards.games.playout import fulfil_from, learned_by, random_hand, random_match
from p2pcards.games.rng import Rng
from p2pcards.games.spades import Rules, SpadesMatch, SpadesState
from p2pcards.games.spades.state import trick_winner

seeds = st.integers(min_value=0, max_value=2**64 - 1)
dealers = st.integers(min_value=0, max_value=3)
modes = st.sampled_from(["count", "bags_only", "ignored"])
blinds = st.booleans()


def _rules(mode: str = "count", blind: bool = False) -> Rules:
    rules = load("spades", failed_nil_tricks=mode, blind_nil=blind)
    assert isinstance(rules, Rules)
    return rules


def _partition_ok(state: SpadesState) -> None:
    zones = state.zones()
    seen = sorted(p for _, ps in zones for p in ps)
    assert seen == list(range(52)), zones
    names = [n for n, _ in zones]
    assert len(names) == len(set(names))


def _expected_legal(state: SpadesState, deck: list[int]) -> set[int]:
    """The legal plays computed from first principles: the seat's unplayed cards, S6 and S7."""
    seat = state.to_act
    played = {a for s, a in state._actions if a < 52}
    assert len(played) == len(state._actions) - state._p0
    hand = {deck[p] for p in range((seat - state.dealer - 1) % 4, 52, 4)} - played
    trick = state.trick
    if trick:
        led = trick[0][1] // 13
        follow = {c for c in hand if c // 13 == led}
        return follow or hand
    broken = any(c >= 39 for c in played)
    if broken or all(c >= 39 for c in hand):
        return hand
    return {c for c in hand if c < 39}


@settings(max_examples=40, deadline=None)
@given(seed=seeds, dealer=dealers, mode=modes, blind=blinds)
def test_random_hands_agree_on_every_replica(seed: int, dealer: int, mode: str, blind: bool) -> None:
    rules = _rules(mode, blind)
    rng = Rng(seed)
    deck = list(rules.deck)
    rng.shuffle(deck)
    setup = {"dealer": dealer, "scores": (rng.below(400) - 150, rng.below(300)),
             "bags": (rng.below(10), rng.below(10)), "hand": rng.below(20)}
    full = rules.new_hand(setup)
    reps = [rules.new_hand(setup) for _ in range(4)]
    assert full.to_act == CHANCE

    def settle() -> None:
        while full.to_act == CHANCE:
            for seat, rep in enumerate(reps):
                assert rep.to_act == CHANCE and rep.need == full.need
                rep.fulfil(learned_by(seat, rep, deck))
            fulfil_from(full, deck)

    settle()
    steps = 0
    looks = 0
    while full.to_act != TERMINAL:
        _partition_ok(full)
        digest = full.digest()
        seat = full.to_act
        legal = full.legal_actions()
        for v, rep in enumerate(reps):
            assert rep.digest() == digest
            assert rep.to_act == seat
            _partition_ok(rep)
            view = rep.view(v)
            mine = rep.hand_positions(v)
            if full.face_down(v):  # S16/S18: no replica, not even the full one, shows a blind hand
                assert view.face_down and view.hand == () and full.view(v).hand == ()
                assert all(rep.card_at[p] == UNKNOWN for p in mine)
                assert set(mine) <= set(view.unknown_positions)
            else:
                assert sorted(view.hand) == sorted(deck[p] for p in mine)
            if v == seat:
                assert list(view.legal_actions) == legal
            hidden = [deck[p] for p in view.unknown_positions]
            assert sorted(hidden) == sorted(view.unseen_cards)
            det = view.determinize(hidden)
            assert det.digest() == digest
            assert det.legal_actions() == legal
        if full.phase_name == "play":
            assert set(legal) == _expected_legal(full, deck)
        elif seat in full.eligible and full.face_down(seat):
            assert legal == [66, 67]   # bid blind nil, look
        else:
            assert legal == list(range(52, 66))
        action = rng.choice(legal)
        shown = full.reveals(action)
        before = full.tricks_won
        full.apply(action)
        for rep in reps:
            for p in shown:
                rep.observe(p, deck[p])
            rep.apply(action)
        looks += action == 67
        settle()
        steps += 1
        if steps > 4 + looks and (steps - 4 - looks) % 4 == 0:
            last = full.view(0).last_trick
            w = trick_winner(last)
            assert full.tricks_won[w] == before[w] + 1
            assert full.to_act in (w, TERMINAL)
    assert steps == 56 + looks and full.moves_applied == 56 + looks
    if not blind or not full.eligible:
        assert looks == 0 and full.blind_nil == ()
    _partition_ok(full)
    digest = full.digest()
    assert all(rep.digest() == digest for rep in reps)
    result = full.result
    assert result is not None and sum(result.tricks) == 13
    assert all(rep.result == result for rep in reps)
    record = full.record()
    assert rules.replay(record).digest() == digest
    assert rules.replay(HandRecord.from_dict(record.to_dict())).digest() == digest
    verdict = rules.audit(record)
    assert verdict.ok and verdict.digest == digest
    for rep in reps:
        # a partial record replays to the same digest, and with the full deck it passes the audit
        prec = rep.record()
        assert rules.replay(prec).digest() == digest
        assert rules.audit(HandRecord(prec.game, prec.options, prec.setup, tuple(deck), prec.actions)).ok


@settings(max_examples=60, deadline=None)
@given(seed=seeds, dealer=dealers, blind=blinds)
def test_same_inputs_same_digest_and_clones_are_independent(seed: int, dealer: int, blind: bool) -> None:
    rules = _rules(blind=blind)
    setup = {"dealer": dealer, "scores": (0, 100 * (seed % 3))}
    a = random_hand(rules.new_hand(setup), Rng(seed))
    b = random_hand(rules.new_hand(setup), Rng(seed))
    assert a.digest() == b.digest() and a.result == b.result
    # a clone taken mid-hand evolves on its own
    rng = Rng(seed ^ 0x5A5A)
    s = rules.new_hand(setup)
    deck = list(rules.deck)
    rng.shuffle(deck)
    for _ in range(4 + rng.below(40)):
        while s.to_act == CHANCE:
            fulfil_from(s, deck)
        s.apply(rng.choice(s.legal_actions()))
    c = s.clone()
    d0, legal0, zones0 = s.digest(), s.legal_actions(), s.zones()
    while c.to_act != TERMINAL:  # the same deck for what is still to be shown (a blind hand's cards)
        if c.to_act == CHANCE:
            fulfil_from(c, deck)
        else:
            c.apply(rng.choice(c.legal_actions()))
    assert s.digest() == d0 and s.legal_actions() == legal0 and s.zones() == zones0


def _renege_chance(state: SpadesState, deck: list[int]) -> int | None:
    """An illegal card for the seat to act (renege or unbroken spade lead), if it has one."""
    hand = set(state.held(state.to_act))
    legal = set(state.legal_actions())
    bad = sorted(hand - legal)
    return bad[0] if bad else None


@settings(max_examples=60, deadline=None)
@given(seed=seeds, dealer=dealers)
def test_a_renege_is_caught_by_the_audit(seed: int, dealer: int) -> None:
    rules = _rules()
    rng = Rng(seed)
    deck = list(rules.deck)
    rng.shuffle(deck)
    full = rules.new_hand({"dealer": dealer})
    fulfil_from(full, deck)
    for _ in range(4):
        full.apply(rng.choice(full.legal_actions()))
    while full.to_act != TERMINAL:
        bad = _renege_chance(full, deck)
        if bad is not None and rng.below(3) == 0:
            break
        full.apply(rng.choice(full.legal_actions()))
    else:
        return
    assert bad is not None
    cheat = full.to_act
    step = full.moves_applied
    rule = "S6" if full.trick else "S7"
    try:
        full.clone().apply(bad)
        raise AssertionError("the full replica accepted an illegal card")
    except IllegalAction as err:
        assert err.seat == cheat and err.rule == rule
    # another seat's replica cannot tell and accepts it
    watcher = (cheat + 1) % 4
    rep = rules.new_hand(dict(full.setup))
    rep.fulfil(learned_by(watcher, rep, deck))
    for _, a in full._actions:
        if a < 52:
            rep.observe(deck.index(a), a)
        rep.apply(a)
    for p in full.reveals(bad):
        rep.observe(p, deck[p])
    rep.apply(bad)
    rec = rep.record()
    verdict = rules.audit(HandRecord(rec.game, rec.options, rec.setup, tuple(deck), rec.actions))
    assert not verdict.ok
    assert verdict.seat == cheat and verdict.rule == rule and verdict.step == step


@settings(max_examples=25, deadline=None)
@given(seed=seeds, dealer=dealers, mode=modes, blind=blinds)
def test_random_matches_end_with_the_standings_adding_up(seed: int, dealer: int, mode: str,
                                                         blind: bool) -> None:
    rules = _rules(mode, blind)
    end, hands = random_match(rules.new_match(dealer), Rng(seed), max_hands=400)
    assert isinstance(end, SpadesMatch)
    match = end
    assert match.over and hands == match.hands_played
    results = match.results
    assert len(results) == hands
    assert match.scores == tuple(sum(r.points[t] for r in results) for t in (0, 1))
    assert all(0 <= b < 10 for r in results for b in r.bags)
    assert [r.dealer for r in results] == [(dealer + i) % 4 for i in range(hands)]
    a, b = match.scores
    assert a != b and match.winner == (0 if a > b else 1)
    assert max(a, b) >= rules.target or min(a, b) <= rules.floor
    for r in results[:-1]:
        x, y = r.scores
        assert x == y or (rules.floor < x < rules.target and rules.floor < y < rules.target)


def test_unknown_positions_stay_unknown_on_a_partial_replica() -> None:
    rules = _rules()
    deck = list(rules.deck)
    Rng(9).shuffle(deck)
    rep = rules.new_hand({"dealer": 1})
    rep.fulfil(learned_by(2, rep, deck))
    assert sum(c != UNKNOWN for c in rep.card_at) == 13
    assert sorted(rep.held(2)) == sorted(deck[p] for p in range(0, 52, 4))
