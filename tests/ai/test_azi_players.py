"""Azi's computer players: legal play, the behaviours the rules page names, view-only decisions,
determinism, the exact search, and the tournament adapter."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from p2pcards import sim as S
from p2pcards.ai import player
from p2pcards.ai import tournament as T
from p2pcards.ai.azi import EasyPlayer, HardPlayer, NormalPlayer
from p2pcards.ai.azi.adapter import chip_interval
from p2pcards.ai.azi.common import Table, win_chance
from p2pcards.ai.azi.hard import Sampler, bid_history
from p2pcards.ai.azi.solver import AZI, best_play, solve
from p2pcards.ai.budget import Work
from p2pcards.games import CHANCE, TERMINAL
from p2pcards.games.azi import AziHand
from p2pcards.games.azi import actions as act
from p2pcards.games.azi.config import AziConfig
from p2pcards.games.azi.play import AziPlay
from p2pcards.games.playout import fulfil_from
from p2pcards.games.rng import Rng
from tests.games.test_azi_support import C, cards, deck_for, play, rules, start

LEVELS = {"easy": EasyPlayer, "normal": NormalPlayer, "hard": HardPlayer}


def text(r: AziConfig, a: int) -> str:
    return r.action_text(a)


def choose(level: str, st: AziHand, seed: int = 1) -> str:
    r = st.rules
    p: Any = LEVELS[level](r, seed)
    return text(r, p.choose(st.view(st.to_act)))


# --------------------------------------------------------------------------- legal over playouts


def run_hand(st: AziHand, players: list[Any], deck: list[int]) -> list[tuple[int, str]]:
    log = []
    while st.to_act != TERMINAL:
        if st.to_act == CHANCE:
            fulfil_from(st, deck)
            continue
        s = st.to_act
        v = st.view(s)
        a = players[s].choose(v)
        assert a in v.legal_actions, (s, a, st.legal_texts())
        log.append((s, st.rules.action_text(a)))
        st.apply(a)
    return log


@pytest.mark.parametrize("opts", [
    {"players": 4}, {"players": 3, "deal": 4}, {"players": 5, "blind": False},
    {"players": 2, "six_on_stage": False}, {"players": 6, "ante": 7, "bankroll": 60},
])
def test_easy_and_normal_choose_only_legal_actions_over_whole_matches(opts: dict[str, Any]) -> None:
    r = rules(**opts)
    rng = Rng(f"azi-legal/{sorted(opts.items())}")
    for game in range(3):
        seats = [(EasyPlayer if (s + game) % 2 else NormalPlayer)(r, s) for s in range(r.n)]
        m = r.new_match(game % r.n)
        hands = 0
        while not m.over and hands < 40:
            deck = list(r.deck)
            rng.shuffle(deck)
            st = m.new_hand()
            run_hand(st, seats, deck)
            m = m.settle(st)
            hands += 1
        assert sum(m.stacks) + m.pot == r.bankroll * r.n  # A15: no chip appears or vanishes


@pytest.mark.parametrize("opts", [{"players": 4}, {"players": 3, "deal": 4}, {"players": 2, "blind": False}])
def test_hard_chooses_only_legal_actions(opts: dict[str, Any]) -> None:
    r = rules(**opts)
    rng = Rng(f"azi-hard-legal/{sorted(opts.items())}")
    for game in range(2):
        seats: list[Any] = [NormalPlayer(r, s) for s in range(r.n)]
        seats[game % r.n] = HardPlayer(r, 5)
        deck = list(r.deck)
        rng.shuffle(deck)
        st = r.new_match(game % r.n).new_hand()
        run_hand(st, seats, deck)
        assert st.result is not None


def test_player_factory_gives_each_level() -> None:
    r = rules()
    assert isinstance(player(r, "easy", 1), EasyPlayer)
    assert isinstance(player(r, "normal", 1), NormalPlayer)
    assert isinstance(player(r, "hard", 1), HardPlayer)


# --------------------------------------------------------------------------- Easy


def two_seat(hands: dict[int, str], *actions: str, **opts: Any) -> AziHand:
    """Two players, seat 1 deals (its last card is trump), seat 0 opens."""
    r = rules(players=2, blind=False, **opts)
    deck = deck_for(r, 1, hands)
    return play(start(r, deck, dealer=1), deck, *actions)


def test_easy_bets_by_counting_trumps_and_aces() -> None:
    # spades are trump (dealer's 7S)
    assert choose("easy", two_seat({0: "6H 7D 8H", 1: "AS 9D 7S"})) == "fold"  # none
    assert choose("easy", two_seat({0: "6S 7D 8H", 1: "AS 9D 7S"})) == "bet 10"  # one trump
    assert choose("easy", two_seat({0: "KS AH 8D", 1: "AS 9D 7S"})) == "bet 20"  # a trump and an ace
    # facing a bet: one count calls, two or more raise
    assert choose("easy", two_seat({0: "QS 7D 8H", 1: "AH 9D 7S"}, "bet 10")) == "raise 10"
    assert choose("easy", two_seat({0: "QS 7D 8H", 1: "6H 9D 7S"}, "bet 10")) == "call"
    assert choose("easy", two_seat({0: "QS 7D 8H", 1: "6H 9D 7S"}, "bet 60")) == "fold"  # over 5 antes


def test_easy_looks_before_betting() -> None:
    r = rules(players=3)
    st = start(r, list(r.deck), dealer=0)
    assert choose("easy", st) == "look"


def test_easy_plays_the_lowest_card_that_wins_else_the_lowest() -> None:
    st = two_seat({0: "8H 7D 9D", 1: "9H KH 7S"}, "bet 10", "call", "play 8H")
    assert choose("easy", st) == "play 9H"
    st = two_seat({0: "8H 7D 9D", 1: "6H 7H 7S"}, "bet 10", "call", "play 8H")
    assert choose("easy", st) == "play 6H"
    # void in the suit led: the lowest trump wins it
    st = two_seat({0: "8D 7D 9D", 1: "6H 9S 7S"}, "bet 10", "call", "play 8D")
    assert choose("easy", st) == "play 7S"
    # leading: every card wins the empty trick, so the lowest
    st = two_seat({0: "8D AS 9H", 1: "6H 9S 7S"}, "bet 10", "call")
    assert choose("easy", st) == "play 8D"


# --------------------------------------------------------------------------- Normal


def test_normal_estimate_grows_with_the_hand() -> None:
    r = rules()
    deck = r.deck
    trump = 3  # spades
    weak = win_chance(cards("6H 7D 8H"), trump, -1, frozenset(cards("6H 7D 8H")), deck, 3)
    fair = win_chance(cards("KS 7D AH"), trump, -1, frozenset(cards("KS 7D AH")), deck, 3)
    strong = win_chance(cards("AS KS QS"), trump, -1, frozenset(cards("AS KS QS")), deck, 3)
    assert 0 < weak < fair < strong <= 1
    assert weak < 0.1 and strong > 0.8


def test_normal_folds_raises_and_calls_by_pot_odds() -> None:
    r = rules(players=4, blind=False)
    # dealer 3 turns up 7S; seat 0 opens
    hands = {0: "6H 7D 8H", 1: "AH 10S 8D", 2: "JH JD 6D", 3: "QH QD 7S"}
    deck = deck_for(r, 3, hands)
    assert choose("normal", start(r, deck, dealer=3)) == "fold"  # nothing: the ante is lost anyway
    deck = deck_for(r, 3, {**hands, 0: "AS KS QS"})
    said = choose("normal", start(r, deck, dealer=3))
    assert said.startswith("bet") and int(said.split()[1]) > 10  # strong: opens above the minimum

    def dealer_answers(hand: str, bet: int) -> str:
        d = deck_for(r, 3, {**hands, 3: hand})
        return choose("normal", play(start(r, d, dealer=3), d, "fold", f"bet {bet}", "call"))

    # a fair hand calls a small bet into the pot (10 to win 60) and folds to a big one (100 for 240)
    assert dealer_answers("10D 8S 7S", 10) == "call"
    assert dealer_answers("10D 8S 7S", 100) == "fold"
    # a strong one raises; a weak one folds even to the small bet
    assert dealer_answers("KS 9S 7S", 100).startswith("raise")
    assert dealer_answers("6S 10D 7S", 10) == "fold"


def test_normal_calls_blind_when_cheap_and_looks_when_someone_bet_having_looked() -> None:
    r = rules(players=4)
    deck = list(r.deck)
    st = start(r, deck, dealer=3)
    assert choose("normal", st) == "bet 5"  # blind opening: 5 chips count for the ante
    st = play(st, deck, "bet 5")
    assert choose("normal", st) == "call"  # nobody has seen a card: a blind call for 5
    st = play(start(r, deck, dealer=3), deck, "look", "bet 10")
    assert choose("normal", st) == "look"  # seat 0 bet having seen its cards


def test_normal_discards_its_weakest_card() -> None:
    r = rules(players=2, deal=4, blind=False)
    deck = deck_for(r, 1, {0: "AS 6H KS 7D", 1: "9H 9D 10D 7S"})
    st = start(r, deck, dealer=1)
    said = choose("normal", st)
    kept = [c for k, c in enumerate(cards("AS 6H KS 7D")) if said != f"discard #{k + 1}"]
    assert C("AS") in kept and C("KS") in kept and len(kept) == 3


def test_every_level_looks_before_discarding_blind() -> None:
    r = rules(players=3, deal=4)
    st = start(r, list(r.deck), dealer=0)
    for level in LEVELS:
        assert choose(level, st) == "look"


def test_normal_leads_its_surest_card_and_wins_tricks_cheaply() -> None:
    st = two_seat({0: "6H AS 7D", 1: "9H 9D 7S"}, "bet 10", "call")
    assert choose("normal", st) == "play AS"
    st = two_seat({0: "8H 7D 9D", 1: "9H KH 7S"}, "bet 10", "call", "play 8H")
    assert choose("normal", st) == "play 9H"


def test_nobody_buys_into_an_azi_replay() -> None:
    r = rules(players=4, blind=False)
    st = r.new_hand({"dealer": 0, "stacks": (990, 990, 990, 990), "carried": (10, 10, 10, 10),
                     "free": (1, 2, 3), "azi": 1})
    for level in LEVELS:
        assert choose(level, st) == "decline"


# --------------------------------------------------------------------------- Hard


def position(hands: list[str], won: list[int], trump: int, trick: tuple[tuple[int, int], ...] = (),
             to_act: int = 0) -> AziPlay:
    """The engine's play with these hands (seats 0, 1, ... in order; no six on stage)."""
    masks = [sum(1 << c for c in cards(h)) for h in hands]
    return AziPlay(masks, tuple(range(len(hands))), to_act, trick, won, trump, -1)


def test_solver_plays_three_tricks_exactly() -> None:
    # two seats, spades trump: the leader with AS KS takes two tricks whatever it leads
    assert best_play(position(["AS KS 6H", "QS 7H 8D"], [0, 0], 3), 0) == (1.0, 0.0)
    # seat 1 holds the two top trumps: it wins whatever seat 0 leads
    assert best_play(position(["AH KH 6D", "AS KS 7D"], [0, 0], 3), 0) == (0.0, 1.0)
    # last trick, three seats: hearts trump, seat 0's AH takes its second trick and the hand
    assert best_play(position(["AH", "AD", "AS"], [1, 0, 1], 2), 0) == (1.0, 0.0, 0.0)
    # spades trump: 7H takes the last trick for seat 2, one trick each, an azi (a third to each)
    assert best_play(position(["6H", "AD", "7H"], [1, 1, 0], 3), 0) == (AZI, AZI, AZI)


def test_solver_scores_every_legal_card() -> None:
    six_h, ace_d = C("6H"), C("AD")
    # seat 0 (one trick) leads, spades trump.  Against 7H KD both leads win: AD at once, or 6H loses
    # to 7H and AD takes the KD led next.
    got = solve(position(["6H AD", "7H KD"], [1, 0], 3), 0)
    assert got == [(act.play(ace_d), (1.0, 0.0)), (act.play(six_h), (1.0, 0.0))]  # in card order
    # against 7H KS both lose: KS trumps AD, and 7H beats 6H
    assert [v for _, v in solve(position(["6H AD", "7H KS"], [1, 0], 3), 0)] == [(0.0, 1.0), (0.0, 1.0)]
    # following: seat 1 (one trick) led 9H; only JH keeps seat 0 in the hand
    got = solve(position(["JH 7H", "6H"], [0, 1], 3, ((1, C("9H")),)), 0)
    assert got == [(act.play(C("7H")), (0.0, 1.0)), (act.play(C("JH")), (1.0, 0.0))]


def test_solver_leaves_its_position_as_it_was_and_counts_the_cards_it_plays() -> None:
    st = position(["AS KS 6H", "QS 7H 8D"], [0, 0], 3)
    nodes = [0]
    solve(st, 0, nodes)
    assert st.legal_actions() == [act.play(c) for c in sorted(cards("AS KS 6H"))]
    assert st.won == [0, 0] and st.trick == () and st.to_act == 0
    # three leads: 6H loses the trick and QS-or-7H answers are tried; AS and KS are one run for seat 0
    # inside the search (not at the root), every card played counts
    assert nodes[0] > 6


def test_hard_looks_before_it_bets_even_where_a_blind_call_is_cheap() -> None:
    # Normal stays blind here (nobody has bet having seen their cards, the blind call is cheap);
    # Hard looks first: every bet it makes rests on its cards (docs/ai.md, "Looking first")
    r = rules(players=3)
    deck = list(r.deck)
    st = start(r, deck, dealer=0)
    assert choose("normal", st) != "look"
    assert choose("hard", st) == "look"
    st = play(st, deck, choose("normal", st))
    assert choose("normal", st) != "look"
    assert choose("hard", st) == "look"
    st = play(st, deck, "look")
    assert choose("hard", st) != "look" and st.to_act == 2


def test_hard_takes_the_trick_cheaply_and_keeps_its_best_card() -> None:
    # seat 1 trumped Hard's 6D and leads 9H with a trick: Hard must take this trick (10H or AH), and
    # 10H keeps AH for the last trick, where it beats any heart
    st = two_seat({0: "6D 10H AH", 1: "9H 8H 7S"}, "bet 10", "call", "play 6D", "play 7S", "play 9H")
    assert st.to_act == 0 and st.tricks == (0, 1)
    assert choose("hard", st) == "play TH"


def test_hard_folds_rubbish_against_a_big_bet_and_never_folds_a_sure_thing() -> None:
    r = rules(players=3, blind=False)
    hands = {0: "AS KS QS", 1: "6H 7D 6D", 2: "9H 9D 7S"}
    deck = deck_for(r, 2, hands)
    st = play(start(r, deck, dealer=2), deck, "bet 200")
    assert st.to_act == 1 and choose("hard", st) == "fold"
    st = start(r, deck, dealer=2)
    assert choose("hard", st) != "fold"


def test_bets_weigh_the_samples() -> None:
    r = rules(players=3, blind=False)
    deck = deck_for(r, 2, {0: "AS KS 6H", 1: "6D 7D 8H", 2: "9H 9D 7S"})
    st = play(start(r, deck, dealer=2), deck, "bet 60")
    t = Table.of(st.view(1))
    assert [(s, k) for s, k, _ in bid_history(t)] == [(0, "raise")]
    deals = list(itertools.islice(Sampler(t).deals(Rng(3), Work(10**9)), 30))
    # seat 0 opened big having seen its cards: the kept deals give it more trumps than chance
    # (7 unseen spades among 21 unseen cards: 3 x 7/21 = 1 on average)
    trumps = sum(sum(1 for c in h[0] if c // 13 == 3) for _, h in deals) / len(deals)
    assert trumps > 1.3


# --------------------------------------------------------------------------- view only, determinism


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_another_deal_with_the_same_view_gives_the_same_decision(level: str) -> None:
    """Seats 1 and 2 swap 9D and 7D: seats 0 and 3 (the dealer) cannot tell the two deals apart."""
    r = rules(players=4, blind=False)
    a = {0: "KS 8H 6D", 1: "AH 9D 10S", 2: "JH 7D 6S", 3: "QH QD 7S"}
    b = {**a, 1: "AH 7D 10S", 2: "JH 9D 6S"}
    bids = ("bet 10", "call", "call")
    for prefix, seat in (((), 0), (bids, 3), ((*bids, "call"), 0),
                         ((*bids, "call", "play 8H", "play AH", "play JH"), 3)):
        states = []
        for hands in (a, b):
            deck = deck_for(r, 3, hands)
            states.append(play(start(r, deck, dealer=3), deck, *prefix))
        assert states[0].to_act == states[1].to_act == seat
        va, vb = states[0].view(seat), states[1].view(seat)
        seen = ("hand", "unseen_cards", "unknown_positions", "played", "trick", "bets", "voids")
        assert all(getattr(va, f) == getattr(vb, f) for f in seen)
        assert choose(level, states[0], 7) == choose(level, states[1], 7)


def test_the_same_seed_gives_the_same_hand() -> None:
    r = rules(players=4)
    deck = list(r.deck)
    Rng(12).shuffle(deck)
    logs = []
    for _ in range(2):
        seats: list[Any] = [HardPlayer(r, 3), NormalPlayer(r, 4), EasyPlayer(r, 5), HardPlayer(r, 6)]
        logs.append(run_hand(r.new_hand({"dealer": 1}), seats, deck))
    assert logs[0] == logs[1]


# --------------------------------------------------------------------------- the tournament adapter


def test_adapter_counts_chips_per_hand_and_plays_azi_replays_to_the_end() -> None:
    cfg = T.Config("azi", ("normal", "easy", "easy"), games=6, seed=4, duplicate=True)
    rep = S.run(cfg)
    assert rep.unit == "hand" and rep.value_name == "chips"
    assert len(rep.units) == 6 * 3  # every deal with the first entry in every seat
    for u in rep.units:
        assert sum(o.value for o in u.outcomes) == 0  # chips move, none appear
        assert not u.stopped
        assert all(o.points == (2 if o.value > 0 else 1 if o.value == 0 else 0) for o in u.outcomes)
    mean, lo, hi, n = chip_interval(rep, 0)
    assert n == 6 and lo <= mean <= hi  # by deal: the mean over the deal's three layouts
    assert mean == pytest.approx(sum(u.outcomes[0].value for u in rep.units) / len(rep.units))
    # the report prints that interval (p2pcards sim shows it under the table)
    assert rep.notes == [f"normal #1: {mean:+.1f} chips per hand, 95% interval [{lo:+.1f}, "
                         f"{hi:+.1f}] (over 6 deals, each the mean of its seatings)"]
    assert rep.notes[0] in T.format_report(rep) and rep.to_dict()["notes"] == rep.notes


def test_hard_goes_all_in_before_anybody_bet_and_the_others_answer_an_unopened_bidding() -> None:
    # seat 0 has 5 chips after the ante: it can only fold or go all-in, which does not open the
    # bidding (A9); played out on the engine, the others must still open or fold
    r = rules(players=3, blind=False)
    deck = deck_for(r, 2, {0: "AS KS QS", 1: "6H 7D 6D", 2: "9H 9D 7S"})
    st = r.new_hand({"dealer": 2, "stacks": (15, 1000, 1000)})
    while st.to_act == CHANCE:
        fulfil_from(st, deck)
    assert st.to_act == 0 and sorted(st.legal_texts()) == ["allin", "fold"]
    assert choose("hard", st) == "allin"
    st.apply(st.parse("allin"))
    assert st.to_act == 1 and not st.opened
