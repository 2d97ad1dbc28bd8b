"""Hypothesis properties of Durak over random legal playouts, for every player count."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from p2pcards.games import CHANCE, TERMINAL, ActionError, IllegalAction, load
from p2pcards.games.base import HandRecord
from p2pcards.games.durak import DurakState, DurakView
from p2pcards.games.durak import actions as A
from p2pcards.games.playout import fulfil_from, learned_by
from p2pcards.games.rng import Rng

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
PLAYERS = st.integers(min_value=2, max_value=6)
MAX_STEPS = 5000


def new_hand(players: int, seed: int, **options: object) -> tuple[DurakState, list[int], Rng]:
    rules = load("durak", players=players, **options)
    rng = Rng(seed)
    dealer = rng.below(players)
    deck = list(rules.deck)
    rng.shuffle(deck)
    state = rules.new_hand({"dealer": dealer, "hand": rng.below(3)})
    assert isinstance(state, DurakState)
    return state, deck, rng


def check_zones(state: DurakState) -> None:
    seen = sorted(p for _, ps in state.zones() for p in ps)
    assert seen == list(range(len(state.rules.deck)))


def other_actions(state: DurakState, rng: Rng) -> list[int]:
    """A few well-formed actions that are not legal now."""
    deck = state.rules.deck
    candidates = [A.PASS, A.TAKE, A.SHOW_NONE]
    for _ in range(4):
        c, d = rng.choice(deck), rng.choice(deck)
        candidates += [A.attack(c), A.add(c), A.show(c), A.beat(c, d), A.transfer(c)]
    legal = set(state.legal_actions())
    return [a for a in candidates if a not in legal]


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, players=PLAYERS, limit5=st.booleans(), size=st.sampled_from((36, 52)),
       transfer=st.booleans())
def test_random_hands_end_replicate_and_audit(seed: int, players: int, limit5: bool, size: int,
                                              transfer: bool) -> None:
    full, deck, rng = new_hand(players, seed, first_bout_limit_5=limit5, deck=size, transfer=transfer)
    pick, noise = rng.fork("pick"), rng.fork("noise")
    rules = full.rules
    replicas = [rules.new_hand(dict(full.setup)) for _ in range(players)]
    assert all(isinstance(r, DurakState) for r in replicas)
    steps = 0
    while full.to_act != TERMINAL:
        steps += 1
        assert steps < MAX_STEPS
        check_zones(full)
        if full.to_act == CHANCE:
            for seat, replica in enumerate(replicas):
                replica.fulfil(learned_by(seat, full, deck))
            fulfil_from(full, deck)
        else:
            seat = full.to_act
            legal = full.legal_actions()
            assert legal and len(set(legal)) == len(legal)
            # the seat's own replica sees the same legal moves, and so does a determinized view
            mine = replicas[seat]
            assert mine.legal_actions() == legal
            view = mine.view(seat)
            assert isinstance(view, DurakView)
            assert view.legal_actions == tuple(legal)
            assert view.unseen_cards == tuple(sorted(deck[p] for p in view.unknown_positions))
            det = view.determinize({p: deck[p] for p in view.unknown_positions})
            assert det.legal_actions() == legal and det._public == full._public
            # the full replica's view of that seat matches the seat's own
            fview = full.view(seat)
            assert (fview.hand, fview.unknown_positions, fview.known_cards) == (
                view.hand, view.unknown_positions, view.known_cards)
            if full.phase_name == "defend":
                # D16: a transfer exactly when nothing is beaten, the rank matches, the limit and the
                # next active seat's hand allow it
                transfers = [a for a in legal if a >= A.TRANSFER]
                table = full.table_cards()
                nxt = next(s for s in ((seat + i) % players for i in range(1, players))
                           if not full.out >> s & 1)
                cap = full.rules.first_bout_limit if full.bout == 1 else 6
                may = (transfer and all(d < 0 for _, d in table) and len(table) < cap
                       and len(full.hands[nxt]) > len(table))
                rank = table[0][0] % 13
                assert sorted(a - A.TRANSFER for a in transfers) == (
                    sorted(c for c in full.hand_cards(seat) if c % 13 == rank) if may else [])
            if full.phase_name == "throw-in":
                ranks = {c % 13 for pair in full.table_cards() for c in pair if c >= 0}
                can_add = any(c % 13 in ranks for c in full.hand_cards(seat))
                assert (legal == [A.PASS]) == (not can_add)
            if steps % 7 == 0:
                before = full.digest()
                for bad in other_actions(full, noise):
                    try:
                        full.apply(bad)
                    except ActionError:
                        pass
                    else:
                        raise AssertionError(f"{rules.action_text(bad)} was accepted")
                assert full.digest() == before
            action = pick.choice(legal)
            shown = full.reveals(action)
            for replica in replicas:
                for p in shown:
                    replica.observe(p, deck[p])
                replica.apply(action)
            full.apply(action)
        # equal public histories are equal digests (the digest hashes options, setup and history);
        # hashing the growing history at every step would make this test quadratic
        for replica in replicas:
            assert replica._public == full._public and replica.setup == full.setup
        if steps % 25 == 0:
            assert {r.digest() for r in replicas} == {full.digest()}
    assert {r.digest() for r in replicas} == {full.digest()}
    check_zones(full)
    result = full.result
    assert result is not None and all(r.result == result for r in replicas)
    out = [s for group in result.out_order for s in group]
    holding = [s for s in range(players) if s not in out]
    if result.stalled:  # D15: a draw with two or more players still holding cards
        assert result.durak is None and len(holding) >= 2
    else:
        assert holding == ([result.durak] if result.durak is not None else [])
    points = result.points()
    assert result.durak is None or points[result.durak] == -1
    assert all(points[s] == 1 for s in result.winners)
    # replay and audit
    record = full.record()
    assert rules.replay(record).digest() == full.digest()
    assert rules.replay(HandRecord.from_dict(record.to_dict())).digest() == full.digest()
    verdict = rules.audit(record)
    assert verdict.ok and verdict.digest == full.digest()
    for replica in replicas:
        assert rules.replay(replica.record()).digest() == full.digest()
    # the same inputs give the same digest
    again, deck2, rng2 = new_hand(players, seed, first_bout_limit_5=limit5, deck=size, transfer=transfer)
    assert deck2 == deck
    pick2 = rng2.fork("pick")
    while again.to_act != TERMINAL:
        if again.to_act == CHANCE:
            fulfil_from(again, deck)
        else:
            again.apply(pick2.choice(again.legal_actions()))
    assert again.digest() == full.digest()


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, players=PLAYERS, choice=st.integers(0, 10), size=st.sampled_from((36, 52)),
       transfer=st.booleans())
def test_hidden_trump_lie_is_caught_by_audit(seed: int, players: int, choice: int, size: int,
                                            transfer: bool) -> None:
    full, deck, rng = new_hand(players, seed, deck=size, transfer=transfer)
    rules = full.rules
    while full.to_act == CHANCE:
        fulfil_from(full, deck)
    trump = full.trump_suit
    holders = [s for s in range(players) if any(c // 13 == trump for c in full.hand_cards(s))]
    assume(holders)
    liar = holders[choice % len(holders)]
    trumps = sorted(c for c in full.hand_cards(liar) if c // 13 == trump)
    lie = A.show(trumps[-1]) if len(trumps) > 1 and choice % 2 else A.SHOW_NONE
    observer = (liar + 1) % players
    mine = rules.new_hand(dict(full.setup))
    while mine.to_act == CHANCE:
        mine.fulfil(learned_by(observer, mine, deck))
    # honest shows up to the liar
    while full.to_act != liar:
        action = full.legal_actions()[0]
        for p in full.reveals(action):
            mine.observe(p, deck[p])
        full.apply(action)
        mine.apply(action)
    step = full.moves_applied
    before = full.digest()
    try:
        full.apply(lie)
    except IllegalAction as exc:
        assert exc.rule == "D3" and exc.seat == liar
    else:
        raise AssertionError("the full replica accepted a lie")
    assert full.digest() == before
    if lie != A.SHOW_NONE:
        for p in full.reveals(lie):
            mine.observe(p, deck[p])
    # a lie about a public card (the six-player dealer's face-up trump) is caught at once
    shown = trumps[-1] if lie != A.SHOW_NONE else 99
    if any(c // 13 == trump and c < shown for c in full.public_cards(liar)):
        try:
            mine.apply(lie)
        except IllegalAction as exc:
            assert (exc.rule, exc.seat) == ("D3", liar)
            return
        raise AssertionError("a lie about a public trump was accepted")
    mine.apply(lie)  # the observer cannot tell
    # play the rest of the hand honestly from the observer's knowledge plus the true hidden cards
    view = mine.view(observer)
    game = view.determinize({p: deck[p] for p in view.unknown_positions})
    assert game.digest() == mine.digest()
    while game.to_act != TERMINAL:
        if game.to_act == CHANCE:
            fulfil_from(game, deck)
        else:
            game.apply(rng.choice(game.legal_actions()))
    record = game.record()
    assert all(c >= 0 for c in record.deck)
    verdict = rules.audit(record)
    assert not verdict.ok
    assert (verdict.seat, verdict.rule, verdict.step) == (liar, "D3", step)
