"""Durak's computer players: legal play, the named behaviours of each level, view-only, determinism.

Scenario hands are dealt from a chosen deck order (``deal``): each seat's cards at the positions the
deal gives it, the face-up trump at position 6n, the talon after it.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from p2pcards.ai import Player, player
from p2pcards.ai.durak import PLAYERS, EasyPlayer, HardPlayer, NormalPlayer
from p2pcards.ai.durak.hard import Effort
from p2pcards.games import CHANCE, TERMINAL, IllegalAction, load
from p2pcards.games.cards import parse_card
from p2pcards.games.durak import DurakState, DurakView
from p2pcards.games.playout import fulfil_from
from p2pcards.games.rng import Rng

QUICK = Effort(leaf_nodes=100)
QUICK_UNITS = 10_000
ENDGAME_UNITS = 120_000
"""A quarter of a second's work: half of it, 60,000 solver positions, for the exact endgame."""


def cards(text: str) -> list[int]:
    return [parse_card(w) for w in text.split()]


def deal(hands: list[str], trump: str, talon: str = "", **options: bool) -> tuple[DurakState, list[int]]:
    """A hand dealt from a chosen deck order, played up to the first bout (trumps shown)."""
    n = len(hands)
    rules = load("durak", players=n, **options)
    dealer = n - 1
    slots: list[int | None] = [None] * 36
    for seat, text in enumerate(hands):
        for i, c in enumerate(cards(text)):
            slots[i * n + (seat - dealer - 1) % n] = c
    if n < 6:
        slots[6 * n] = parse_card(trump)
        for j, c in enumerate(cards(talon)):
            slots[6 * n + 1 + j] = c
    else:
        assert slots[35] == parse_card(trump), "with six players the dealer's last card is the trump"
    rest = iter([c for c in rules.deck if c not in slots])
    deck = [c if c is not None else next(rest) for c in slots]
    state = rules.new_hand({"dealer": dealer})
    assert isinstance(state, DurakState)
    settle(state, deck)
    while state.phase_name == "show":
        state.apply(state.legal_actions()[0])
    return state, deck


def settle(state: DurakState, deck: list[int]) -> None:
    while state.to_act == CHANCE:
        fulfil_from(state, deck)


def play(state: DurakState, deck: list[int], *texts: str) -> None:
    for text in texts:
        assert text in state.legal_texts(), f"{text!r} not legal; legal: {state.legal_texts()}"
        state.apply_text(text)
        settle(state, deck)


def choice(p: Player, state: DurakState) -> str:
    action = p.choose(state.view(state.to_act))
    return state.rules.action_text(action)


def new_hand(n: int, dealer: int) -> DurakState:
    state = load("durak", players=n).new_hand({"dealer": dealer})
    assert isinstance(state, DurakState)
    return state


def play_hand(players: Sequence[Player], n: int, seed: int, **options: object) -> DurakState:
    rules = load("durak", players=n, **options)
    deck = list(rules.deck)
    Rng(seed).shuffle(deck)
    state = rules.new_hand({"dealer": seed % n})
    assert isinstance(state, DurakState)
    while state.to_act != TERMINAL:
        if state.to_act == CHANCE:
            fulfil_from(state, deck)
            continue
        view = state.view(state.to_act)
        action = players[state.to_act].choose(view)
        assert action in view.legal_actions
        state.apply(action)
    return state


# ----------------------------------------------------------------------------- every level


def test_the_levels_are_registered():
    rules = load("durak", players=2)
    assert set(PLAYERS) == {"easy", "normal", "hard"}
    assert isinstance(player(rules, "easy", 1), EasyPlayer)
    assert isinstance(player(rules, "Normal", 1), NormalPlayer)
    assert isinstance(player(rules, "hard", 1), HardPlayer)


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_easy_and_normal_play_only_legal_moves_to_the_end(n):
    for seed in range(6):
        rules = load("durak", players=n)
        seats = [(EasyPlayer if (s + seed) % 2 else NormalPlayer)(rules, seed + s) for s in range(n)]
        state = play_hand(seats, n, seed)
        assert state.result is not None


@pytest.mark.parametrize("n", [2, 3, 5])
def test_hard_plays_only_legal_moves_to_the_end(n):
    rules = load("durak", players=n)
    seats: list[Player] = [HardPlayer(rules, 7, QUICK, QUICK_UNITS)]
    seats += [NormalPlayer(rules, s) for s in range(1, n)]
    state = play_hand(seats, n, 3 + n)
    assert state.result is not None


@pytest.mark.parametrize("n", [2, 4, 6])
def test_every_level_plays_the_52_card_deck_to_the_end(n):
    rules = load("durak", players=n, deck=52)
    for seed in range(3):
        seats: list[Player] = [HardPlayer(rules, 7, QUICK, QUICK_UNITS)]
        seats += [(EasyPlayer if (s + seed) % 2 else NormalPlayer)(rules, seed + s) for s in range(1, n)]
        state = play_hand(seats, n, seed, deck=52)
        assert state.result is not None


def test_default_hard_plays_a_whole_two_player_hand():
    rules = load("durak", players=2)
    state = play_hand([HardPlayer(rules, 1), EasyPlayer(rules, 2)], 2, 11)
    assert state.result is not None


# ----------------------------------------------------------------------------- Easy


def test_easy_attacks_with_its_lowest_card_plain_before_trump():
    state, _ = deal(["6H 9C JD QS AS KS", "7C 8C 9D TD JC QC"], trump="8H")
    assert state.to_act == 0  # seat 0 holds the only trump shown (6H)
    assert choice(EasyPlayer(state.rules, 0), state) == "attack 9C"


def test_easy_defends_with_the_smallest_card_that_beats():
    state, deck = deal(["6H 9C JD QS AS KS", "7C TC KC 9H QD 8S"], trump="8H")
    play(state, deck, "attack 9C")
    assert choice(EasyPlayer(state.rules, 0), state) == "beat 9C TC"


def test_easy_beats_with_a_trump_only_when_it_must():
    state, deck = deal(["6H 9C JD QS AS KS", "7C 8C 7H 9H QD 8S"], trump="8H")
    play(state, deck, "attack 9C")
    assert choice(EasyPlayer(state.rules, 0), state) == "beat 9C 7H"


def test_easy_takes_when_it_cannot_beat():
    state, deck = deal(["6H 9C JD QS AS KS", "7C 8C 6D 7D QD 8S"], trump="8H")
    play(state, deck, "attack 9C")
    assert choice(EasyPlayer(state.rules, 0), state) == "take"


def test_easy_never_throws_in():
    state, deck = deal(["6H 9C 9D QS AS KS", "7C TC KC 9H QD 8S"], trump="8H")
    play(state, deck, "attack 9C", "beat 9C TC")
    assert "add 9D" in state.legal_texts()
    assert choice(EasyPlayer(state.rules, 0), state) == "pass"


# ----------------------------------------------------------------------------- Normal


def test_normal_keeps_trumps_for_later_when_leading():
    # its lowest card is the trump 6H; a plain card is led instead
    state, _ = deal(["6H 7H JD QS AS KS", "7C 8C 9D TD JC QC"], trump="8H")
    assert state.to_act == 0
    assert choice(NormalPlayer(state.rules, 0), state) == "attack JD"


def test_normal_leads_a_pair_so_it_can_throw_in():
    state, _ = deal(["6H 9S 9D 8C AS KS", "7C TC 9C TD JC QC"], trump="8H")
    assert choice(NormalPlayer(state.rules, 0), state) in ("attack 9D", "attack 9S")


def test_normal_does_not_throw_in_trumps_while_the_talon_is_thick():
    state, deck = deal(["6H 9C 9H QS AS KS", "7C TC KC JH QD 8S"], trump="8H")
    play(state, deck, "attack 9C", "beat 9C TC")
    assert "add 9H" in state.legal_texts()
    assert choice(NormalPlayer(state.rules, 0), state) == "pass"


def test_normal_throws_in_the_rank_the_defender_seems_not_to_have():
    # Seat 1 takes the 9S: everyone knows it holds it.  Next bout the table holds 8C and 9C and seat 0
    # may add 8S or 8D: the 8S would be beaten by the 9S, so it adds the 8D.
    state, deck = deal(["6H 9S 8S 8D 8C AS", "7C 9C TC JC QC KC"], trump="7H",
                       talon="6D 7D 9D TD JD QD KD AD 6S 7S")
    play(state, deck, "attack 9S", "take")
    p = NormalPlayer(state.rules, 0)
    assert choice(p, state) == "pass"  # nothing of rank 9 to add
    play(state, deck, "pass")
    assert state.to_act == 0 and parse_card("9S") in state.view(0).known_cards[1]
    play(state, deck, "attack 8C", "beat 8C 9C")
    assert {"add 8S", "add 8D"} <= set(state.legal_texts())
    assert choice(p, state) == "add 8D"


def test_normal_remembers_what_a_taker_lacks_until_the_next_draw():
    from p2pcards.ai.durak.common import Seen
    from p2pcards.ai.durak.normal import Memory

    state, deck = deal(["6H 9S 8S 8D 8C AS", "7C 9C TC JC QC KC"], trump="7H")
    play(state, deck, "attack 8D", "take")
    memory = Memory()
    memory.update(Seen.of(state.view(0)))
    lacks = memory.lacking(1)
    assert all(lacks >> parse_card(c) & 1 for c in ("9D", "TD", "AD"))
    assert not any(lacks >> parse_card(c) & 1 for c in ("7D", "6H", "AH", "9S"))  # trumps may be kept
    play(state, deck, "pass")
    memory.update(Seen.of(state.view(0)))  # seat 0 drew from the talon: start afresh
    assert memory.lacking(1) == 0


def test_normal_takes_cheap_cards_rather_than_spend_a_high_trump_early():
    state, deck = deal(["6H 7C 8C 9S KD AS", "QH AH 8D 9D TS JS"], trump="7H")
    play(state, deck, "attack 7C")
    assert state.view(1).talon_size > 8
    assert choice(NormalPlayer(state.rules, 1), state) == "take"
    assert choice(EasyPlayer(state.rules, 1), state) == "beat 7C QH"


def test_normal_weighs_the_talon_beats_with_the_trump_and_dumps_trumps_once_it_is_empty():
    # six players: the deal uses the whole deck, the talon is empty from the start; trump hearts
    hands = ["6H 7C 9H 9S KH AS", "QH AH 8D 9D TS JS", "6C 8C TC JC QC KC",
             "6D 7D TD JD QD KD", "AC AD 6S 7S 8S QS", "9C KS 7H 8H JH TH"]
    state, deck = deal(hands, trump="TH")
    assert state.to_act == 0 and state.view(1).talon_size == 0
    play(state, deck, "attack 7C")
    assert choice(NormalPlayer(state.rules, 1), state) == "beat 7C QH"
    state, deck = deal(hands, trump="TH")
    play(state, deck, "attack 9S", "take")
    assert state.to_act == 0 and "add 9H" in state.legal_texts()
    assert choice(NormalPlayer(state.rules, 0), state) == "add 9H"


# ----------------------------------------------------------------------------- Hard


def test_hard_finds_the_forced_win_in_small_endgames():
    """Over seeded Normal-vs-Normal hands, at the first two-player endgame decision (talon empty) that
    the solver says can be won, Hard's move keeps the win; in some of them Normal's move would not."""
    from p2pcards.ai.durak.solver import Solver

    rules = load("durak", players=2)
    wins = normal_slips = 0
    for seed in range(60):
        deck = list(rules.deck)
        Rng(seed).shuffle(deck)
        state = new_hand(2, seed % 2)
        normals = [NormalPlayer(rules, 0), NormalPlayer(rules, 1)]
        while state.to_act != TERMINAL:
            if state.to_act == CHANCE:
                fulfil_from(state, deck)
                continue
            seat = state.to_act
            view = state.view(seat)
            if state.phase_name != "show" and not state.talon and len(view.legal_actions) > 1:
                sim = state.clone()
                if sum(h.bit_count() for h in sim.hmask) <= 10:
                    solver = Solver(sim.trump_suit, seat, 10**6)
                    if solver.value(sim) == 2:
                        hard = HardPlayer(rules, seed, budget=ENDGAME_UNITS).choose(view)
                        after = sim.clone()
                        after.apply(hard)
                        assert solver.value(after) == 2, f"seed {seed}: Hard let a won endgame go"
                        wins += 1
                        mine = NormalPlayer(rules, 0).choose(view)
                        after = sim.clone()
                        after.apply(mine)
                        normal_slips += solver.value(after) < 2
                        break
            state.apply(normals[seat].choose(view))
    assert wins >= 10
    assert normal_slips >= 1


def test_easy_transfers_only_when_it_cannot_beat():
    state, deck = deal(["6H 9C JD QS AS KS", "7C 8C 6D 7D QD 9D"], trump="8H", transfer=True)
    play(state, deck, "attack 9C")
    assert "transfer 9D" in state.legal_texts()
    assert choice(EasyPlayer(state.rules, 1), state) == "transfer 9D"
    state, deck = deal(["6H 9C JD QS AS KS", "TC 8C 6D 7D QD 9D"], trump="8H", transfer=True)
    play(state, deck, "attack 9C")
    assert choice(EasyPlayer(state.rules, 1), state) == "beat 9C TC"


def test_normal_transfers_to_keep_a_trump_and_beats_when_that_is_cheap():
    state, deck = deal(["6H 9C JD QS AS KS", "7H 8C 6D 7D QD 9D"], trump="8H", transfer=True)
    play(state, deck, "attack 9C")
    assert choice(NormalPlayer(state.rules, 1), state) == "transfer 9D"  # not the trump 7H
    assert choice(EasyPlayer(state.rules, 1), state) == "beat 9C 7H"
    state, deck = deal(["6H 9C JD QS AS KS", "TC 8C 6D 7D QD 9D"], trump="8H", transfer=True)
    play(state, deck, "attack 9C")
    assert choice(NormalPlayer(state.rules, 1), state) == "beat 9C TC"
    state, deck = deal(["6H 9C JD QS AS KS", "7C 8C 6D 7D QD 9D"], trump="8H", transfer=True)
    play(state, deck, "attack 9C")
    assert choice(NormalPlayer(state.rules, 1), state) == "transfer 9D"  # it cannot beat: not a take


@pytest.mark.parametrize("n", [2, 3, 5])
def test_every_level_plays_transfer_durak_to_the_end(n):
    rules = load("durak", players=n, transfer=True)
    transfers = 0
    for seed in range(3):
        seats: list[Player] = [HardPlayer(rules, 7, QUICK, QUICK_UNITS)]
        seats += [(EasyPlayer if (s + seed) % 2 else NormalPlayer)(rules, seed + s) for s in range(1, n)]
        state = play_hand(seats, n, seed, transfer=True)
        assert state.result is not None
        transfers += sum(1 for _, text in state.record().actions if text.startswith("transfer"))
    assert transfers > 0


def test_hard_finds_the_forced_win_in_small_transfer_endgames():
    """As without transfers: at the first won two-player endgame decision of seeded Normal-vs-Normal
    hands, Hard keeps the win, the solver's moves (and the engine's) including transfers."""
    from p2pcards.ai.durak.solver import Budget, solver_for

    rules = load("durak", players=2, transfer=True)
    wins = by_transfer = cycles = 0
    for seed in range(40):
        deck = list(rules.deck)
        Rng(seed).shuffle(deck)
        state = rules.new_hand({"dealer": seed % 2})
        assert isinstance(state, DurakState)
        normals = [NormalPlayer(rules, 0), NormalPlayer(rules, 1)]
        while state.to_act != TERMINAL:
            if state.to_act == CHANCE:
                fulfil_from(state, deck)
                continue
            seat = state.to_act
            view = state.view(seat)
            if state.phase_name != "show" and not state.talon and len(view.legal_actions) > 1:
                sim = state.clone()
                if sum(h.bit_count() for h in sim.hmask) <= 10:
                    solver = solver_for(True, sim.trump_suit, seat, 10**6, (0, 1), rules.deck)
                    try:
                        won = solver.value(sim) == 2
                    except Budget:  # a line that comes back to itself: no exact value
                        won = False
                        cycles += 1
                    if won:
                        hard = HardPlayer(rules, seed, budget=ENDGAME_UNITS).choose(view)
                        after = sim.clone()
                        after.apply(hard)
                        assert solver.value(after) == 2, f"seed {seed}: Hard let a won endgame go"
                        wins += 1
                        by_transfer += rules.action_text(hard).startswith("transfer")
                        break
            state.apply(normals[seat].choose(view))
    assert wins >= 8, (wins, cycles)
    assert by_transfer >= 1


def test_hard_is_deterministic_for_a_seed():
    rules = load("durak", players=2)
    a = play_hand([HardPlayer(rules, 5, QUICK, QUICK_UNITS), NormalPlayer(rules, 1)], 2, 21)
    b = play_hand([HardPlayer(rules, 5, QUICK, QUICK_UNITS), NormalPlayer(rules, 1)], 2, 21)
    assert a.record() == b.record()


# ----------------------------------------------------------------------------- view only


def _hidden_permutation(seed: int, stop_after: int) -> tuple[DurakState, DurakState, int]:
    """Two true deals that give seat ``s`` the same view after the same moves."""
    rules = load("durak", players=2)
    deck = list(rules.deck)
    Rng(seed).shuffle(deck)
    state = new_hand(2, 0)
    normals = [NormalPlayer(rules, 0), NormalPlayer(rules, 1)]
    moves = 0
    while True:
        if state.to_act == CHANCE:
            fulfil_from(state, deck)
            continue
        assert state.to_act != TERMINAL
        if moves >= stop_after and state.phase_name != "show" and len(state.legal_actions()) > 1:
            break
        state.apply(normals[state.to_act].choose(state.view(state.to_act)))
        moves += 1
    seat = state.to_act
    view = state.view(seat)
    hidden = list(view.unknown_positions)
    assert len(hidden) > 4
    record = state.record()
    for attempt in range(200):
        # permute the cards this seat cannot see; keep the permutation only if the same public moves
        # are legal with it (the trumps shown before the first bout must stay each player's lowest)
        cards_there = [deck[p] for p in hidden]
        Rng(seed * 1000 + attempt).shuffle(cards_there)
        other = list(deck)
        for p, c in zip(hidden, cards_there, strict=True):
            other[p] = c
        if other == deck:
            continue
        twin = new_hand(2, 0)
        try:
            for _, text in record.actions:
                while twin.to_act == CHANCE:
                    fulfil_from(twin, other)
                twin.apply_text(text)
        except IllegalAction:
            continue
        while twin.to_act == CHANCE:
            fulfil_from(twin, other)
        break
    else:
        raise AssertionError("no consistent permutation found")
    return state, twin, seat


@pytest.mark.parametrize("stop_after", [10, 30])
def test_a_different_hidden_deal_with_the_same_view_never_changes_a_decision(stop_after):
    state, twin, seat = _hidden_permutation(4, stop_after)
    v1, v2 = state.view(seat), twin.view(seat)
    assert (v1.hand, v1.table, v1.known_cards, v1.unseen_cards, v1.legal_actions) == \
        (v2.hand, v2.table, v2.known_cards, v2.unseen_cards, v2.legal_actions)
    assert state.card_at != twin.card_at
    rules = state.rules
    for make in (lambda: EasyPlayer(rules, 3), lambda: NormalPlayer(rules, 3),
                 lambda: HardPlayer(rules, 3, QUICK, QUICK_UNITS), lambda: HardPlayer(rules, 3)):
        assert make().choose(v1) == make().choose(v2)


# --------------------------------------------------------------------------- the playouts, the budget


def test_the_playouts_keep_a_high_trump_back_while_the_talon_is_thick():
    """The playout policy plays Normal's habits on the full deal: against one cheap plain card with
    only a high trump to beat it and a thick talon, the defender takes (the first policy spent the
    trump), and a lead prefers a rank held twice."""
    from p2pcards.ai.durak.hard import club_policy

    state, deck = deal(["7C 8D TD QH KC 9S", "JS 6H 9H 6D 6C TH"], "6S")  # 9S shown: seat 0 leads
    play(state, deck, "attack 7C")
    assert state.rules.action_text(club_policy(state)) == "take"
    state, deck = deal(["7C 8D 8H QH KC 9S", "JS 6H 9H 6D 6C TH"], "6S")
    assert state.rules.action_text(club_policy(state)) == "attack 8D"  # a pair first: 8H can follow


def test_a_large_budget_starts_the_search_earlier():
    """Below ``early_units`` Hard plays Normal's move while more than 8 cards are in the talon; from
    it on, it searches from 14 cards: a decision with 9 to 14 cards to draw spends units only then."""
    rules = load("durak", players=2)
    quick = Effort(leaf_nodes=100, early_units=20_000)
    small = HardPlayer(rules, 1, effort=quick, budget=10_000)
    large = HardPlayer(rules, 1, effort=quick, budget=20_000)
    assert (small.search_talon, large.search_talon) == (8, 14)
    normals = [NormalPlayer(rules, 0), NormalPlayer(rules, 1)]
    for seed in range(20):
        deck = list(rules.deck)
        Rng(f"early/{seed}").shuffle(deck)
        state = rules.new_hand({"dealer": seed % 2})
        while state.to_act != TERMINAL:
            if state.to_act == CHANCE:
                fulfil_from(state, deck)
                continue
            view = state.view(state.to_act)
            assert isinstance(view, DurakView)
            if 8 < view.talon_size <= 14 and len(view.legal_actions) > 1 and view.phase != "show":
                assert small.choose(view) == NormalPlayer(rules, 0).choose(view)
                assert small.work.spent == 0
                assert large.choose(view) in view.legal_actions and large.work.spent > 0
                return
            state.apply(normals[state.to_act].choose(view))
    pytest.fail("no decision with 9 to 14 cards in the talon")
