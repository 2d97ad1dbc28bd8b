"""What Hard infers from the other seats' actions: each inference, in a scenario, moves the sampled
deals the way the evidence points (and evidence that says nothing moves nothing)."""

from __future__ import annotations

import itertools

from p2pcards.ai.azi.common import Table
from p2pcards.ai.azi.hard import Sampler, bid_history
from p2pcards.ai.budget import Work
from p2pcards.ai.durak import HardPlayer as DurakHard
from p2pcards.ai.spades import hard as spades_hard
from p2pcards.ai.spades.common import SPADE_MASK
from p2pcards.games.rng import Rng
from tests.ai.test_durak_players import deal as durak_deal
from tests.ai.test_durak_players import play as durak_play
from tests.ai.test_spades_support import complete
from tests.ai.test_spades_support import deal as spades_deal
from tests.games.test_azi_support import deck_for, rules, start
from tests.games.test_azi_support import play as azi_play

# --------------------------------------------------------------------------- Durak: a lead, a defence


def low_plain(trump: int, hands: list[tuple[dict[int, list[int]], float]], seat: int, below: int) -> float:
    """The weighted mean number of plain cards of rank index under ``below`` the deals give ``seat``."""
    total = sum(w for _, w in hands)
    return sum(w * sum(1 for c in h.get(seat, []) if c // 13 != trump and c % 13 < below)
               for h, w in hands) / total


def test_durak_a_dear_lead_makes_cheap_plain_cards_in_the_leaders_hand_unlikely() -> None:
    # Seat 0 leads the nine of diamonds with a thick talon: a player who leads cheap would have led
    # a plain six, seven or eight first, so Hard (seat 1) finds fewer of them in seat 0's hand.
    state, deck = durak_deal(["9D KS 7C 6H JC AS", "9H 6S 7S 8S 9S TS"], trump="7H")
    durak_play(state, deck, "attack 9D")
    view = state.view(1)
    assert view.talon_size > 2
    nine = 7  # rank index of a nine (a six is 4)
    weighed = DurakHard(state.rules, 1).sampled_hands(view, 300)
    plain = DurakHard(state.rules, 1).sampled_hands(view, 300, weigh=False)
    t = view.trump_suit
    assert low_plain(t, weighed, 0, nine) < low_plain(t, plain, 0, nine) - 0.2
    assert {w for _, w in plain} == {1.0}


def test_durak_a_dear_beat_makes_cheaper_beaters_unlikely() -> None:
    # Seat 1 beats the 7C with the ace of clubs: with 8C..KC it would have beaten cheaper, so Hard
    # (seat 0) finds fewer of those in seat 1's hand.
    state, deck = durak_deal(["7C 6D 6S 8H 9S JH", "AC 8C 9D TD QS KS"], trump="7H")
    durak_play(state, deck, "attack 7C", "beat 7C AC")
    view = state.view(0)
    weighed = DurakHard(state.rules, 1).sampled_hands(view, 300)
    plain = DurakHard(state.rules, 1).sampled_hands(view, 300, weigh=False)

    def clubs(hands: list[tuple[dict[int, list[int]], float]]) -> float:
        total = sum(w for _, w in hands)
        return sum(w * sum(1 for c in h.get(1, []) if c // 13 == 0 and 5 < c % 13 < 12)
                   for h, w in hands) / total

    assert clubs(weighed) < clubs(plain) - 0.25


# --------------------------------------------------------------------------- Durak: a take


def trumps_of(game_view_trump: int, hands: list[tuple[dict[int, list[int]], float]], seat: int) -> float:
    """The weighted mean number of trumps the sampled deals give ``seat``."""
    total = sum(w for _, w in hands)
    return sum(w * sum(1 for c in h.get(seat, []) if c // 13 == game_view_trump) for h, w in hands) / total


def test_durak_a_take_against_a_plain_card_makes_trumps_in_the_takers_hand_unlikely() -> None:
    # Six players, so the talon is empty: seat 1 showed QH, so it can hold only the AH besides; seat 5
    # showed the 7H and may hold 8H, JH and AH.  Seat 1 takes the 9S: with a trump it would have
    # covered, so the AH moves to seat 5.
    hands = ["6H 7C 9H 9S KH AS", "QH AH 8D 9D TS JS", "6C 8C TC JC QC KC",
             "6D 7D TD JD QD KD", "AC AD 6S 7S 8S QS", "9C KS 7H 8H JH TH"]
    state, deck = durak_deal(hands, trump="TH")
    durak_play(state, deck, "attack 9S", "take")
    view = state.view(0)
    assert view.taking and view.talon_size == 0
    weighed = DurakHard(state.rules, 1).sampled_hands(view, 300)
    plain = DurakHard(state.rules, 1).sampled_hands(view, 300, weigh=False)
    t = view.trump_suit
    assert trumps_of(t, weighed, 1) < trumps_of(t, plain, 1) - 0.12
    assert trumps_of(t, weighed, 5) > trumps_of(t, plain, 5) + 0.12
    assert {w for _, w in plain} == {1.0}


def test_durak_a_take_with_a_thick_talon_is_weaker_evidence_and_a_draw_forgets_it() -> None:
    state, deck = durak_deal(["6H 9S 8S 8D 8C AS", "8H 7C 9C TC JC QC"], trump="7H")
    durak_play(state, deck, "attack 8D", "take")
    view = state.view(0)
    assert view.talon_size >= 8
    hard = DurakHard(state.rules, 1)
    weighed = hard.sampled_hands(view, 300)
    assert {round(w, 6) for _, w in weighed} <= {round(0.6 ** k, 6) for k in range(7)}
    plain = DurakHard(state.rules, 1).sampled_hands(view, 300, weigh=False)
    assert trumps_of(view.trump_suit, weighed, 1) < trumps_of(view.trump_suit, plain, 1)
    durak_play(state, deck, "pass")  # seat 0 draws: what seat 1 held may have changed
    later = hard.sampled_hands(state.view(0), 50)
    assert {w for _, w in later} == {1.0}


# --------------------------------------------------------------------------- Spades: a bid


def test_spades_a_high_bid_means_spades_and_a_nil_means_few() -> None:
    hands = complete({0: "2S 3S 4S 5S 2H 3H 4H 5H 2D 3D 4D 5D 2C"})
    means: dict[int, float] = {}
    for bid in (0, 3, 7):
        state = spades_deal(hands, dealer=2, bids=[bid])  # seat 3 bids first
        view = state.view(0)
        know = spades_hard.Knowledge(0, view.unseen_cards, [13] * 4, [0] * 4, [0] * 4, view.bids)
        rng = Rng(3)
        deals = [d for d in (know.sample(rng) for _ in range(200)) if d is not None]
        means[bid] = sum((d[3] & SPADE_MASK).bit_count() for d in deals) / len(deals)
    assert means[0] < means[3] < means[7]
    assert means[7] > means[0] + 1.0


# --------------------------------------------------------------------------- Azi: a raise, a call


def trumps_in(deals: list[tuple[int, list[list[int]]]], seat: int, trump: int) -> float:
    return sum(sum(1 for c in h[seat] if c // 13 == trump) for _, h in deals) / len(deals)


def test_azi_a_call_of_a_big_bet_means_a_good_hand_and_a_blind_bet_means_nothing() -> None:
    r = rules(players=3, blind=False)
    deck = deck_for(r, 2, {0: "AS KS 6H", 1: "6D 7D 8H", 2: "9H 9D 7S"})
    # seat 0 opens big, seat 1 calls having seen its cards: both are evidence, as seen by seat 2
    st = azi_play(start(r, deck, dealer=2), deck, "bet 60", "call")
    t = Table.of(st.view(2))
    assert [(s, k) for s, k, _ in bid_history(t)] == [(0, "raise"), (1, "call")]
    deals = list(itertools.islice(Sampler(t).deals(Rng(5), Work(10**9)), 200))
    ignorant = Sampler(t)
    ignorant.history = []  # the same deals, the bets not weighed
    chance = list(itertools.islice(ignorant.deals(Rng(5), Work(10**9)), 200))
    assert trumps_in(deals, 0, t.trump) > trumps_in(chance, 0, t.trump) + 0.2
    assert trumps_in(deals, 1, t.trump) > trumps_in(chance, 1, t.trump) + 0.2

    # the same bets made blind: nothing is known of the cards behind them
    rb = rules(players=3, blind=True)
    deck = deck_for(rb, 2, {0: "AS KS 6H", 1: "6D 7D 8H", 2: "9H 9D 7S"})
    st = start(rb, deck, dealer=2)
    texts = st.legal_texts()
    blind_open = next(x for x in texts if x.startswith("bet "))
    st = azi_play(st, deck, blind_open)
    tb = Table.of(st.view(1))
    assert bid_history(tb) == []  # so no deal is weighed by it
