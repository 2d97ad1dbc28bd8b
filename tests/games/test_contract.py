"""The contract every game keeps, checked the same way on every registered game over random legal
playouts."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards import games
from p2pcards.games import CHANCE, TERMINAL, ActionError, registry
from p2pcards.games.base import HandState, Rules
from p2pcards.games.playout import fulfil_from
from p2pcards.games.rng import Rng

TABLES: tuple[tuple[str, dict[str, Any]], ...] = tuple(
    (entry.name, dict(options)) for entry in registry.entries() for options in entry.tables
)
"""Every registered game, at each of the tables its registration names (``GameEntry.tables``); a game
registered later (tests/fourth_game) runs the same checks through ``check_every_table``."""
SEEDS = st.integers(min_value=0, max_value=2**32)
NOT_ACTIONS: tuple[object, ...] = (True, False, 1.0, 0.0, "3", "0", None, 2**70, -5)


def _states(game: str, options: dict[str, Any], seed: int) -> list[HandState]:
    """Every state at which a seat acts, along one random hand."""
    rules = games.load(game, **options)
    rng = Rng(seed)
    state = rules.new_match(rng.below(rules.players)).new_hand()
    deck = list(rules.deck)
    rng.shuffle(deck)
    out = []
    while state.to_act != TERMINAL:
        if state.to_act == CHANCE:
            fulfil_from(state, deck)
        else:
            out.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize(("game", "options"), TABLES)
@settings(max_examples=8, deadline=None)
@given(seed=SEEDS)
def test_an_action_is_an_int_that_is_not_a_bool(game: str, options: dict[str, Any], seed: int) -> None:
    """Issue 10: ``apply(True)``, ``apply(1.0)``, ``apply("3")`` are refused in every game and phase,
    and refusing them changes nothing."""
    for state in _states(game, options, seed):
        before, legal = state.digest(), state.legal_actions()
        for bad in NOT_ACTIONS:
            with pytest.raises(ActionError):
                state.apply(bad)  # type: ignore[arg-type]
            assert state.reveals(bad) == ()  # type: ignore[arg-type]
        assert state.digest() == before and state.legal_actions() == legal


def _all_states(game: str, options: dict[str, Any], seed: int) -> list[HandState]:
    """Every state along one random hand, chance nodes and the end included."""
    rules = games.load(game, **options)
    rng = Rng(seed)
    state = rules.new_match(rng.below(rules.players)).new_hand()
    deck = list(rules.deck)
    rng.shuffle(deck)
    out = [state.clone()]
    while state.to_act != TERMINAL:
        if state.to_act == CHANCE:
            fulfil_from(state, deck)
        else:
            state.apply(rng.choice(state.legal_actions()))
        out.append(state.clone())
    return out


@pytest.mark.parametrize(("game", "options"), TABLES)
@settings(max_examples=6, deadline=None)
@given(seed=SEEDS)
def test_every_view_answers_the_same_questions(game: str, options: dict[str, Any], seed: int) -> None:
    for state in _all_states(game, options, seed)[::3]:
        rules = state.rules
        assert state.phase_name in registry.entry(game).phases and state.phase_rule in rules.rule_codes
        for seat in range(rules.players):
            view = state.view(seat)
            assert view.seat == seat and view.to_act == state.to_act
            assert view.phase == state.phase_name and view.dealer == state.dealer
            assert view.seats == state.seats and len(view.hand_sizes) == rules.players
            assert view.hand_sizes[seat] == len(state.hand_positions(seat))
            # the seat's own cards it has seen, and its own positions it has not (a blind Azi player)
            mine = set(state.hand_positions(seat))
            assert set(view.hand) <= set(state.hand(seat))
            assert len(view.hand) + len(mine & set(view.unknown_positions)) == view.hand_sizes[seat]
            assert not set(view.hand) & set(view.unseen_cards)
            if state.to_act == seat:
                assert view.legal_actions == tuple(state.legal_actions())
            else:
                assert view.legal_actions == ()


@pytest.mark.parametrize(("game", "options"), TABLES)
@settings(max_examples=6, deadline=None)
@given(seed=SEEDS)
def test_every_action_round_trips_through_its_text(game: str, options: dict[str, Any], seed: int) -> None:
    for state in _states(game, options, seed):
        rules = state.rules
        legal = state.legal_actions()
        for a in legal:
            text = rules.action_text(a)
            assert rules.parse_action(text) == a and state.parse(text) == a
            assert rules.parse_action(f"  {text.upper()} ") == a  # case and spaces do not matter
        summary = state.legal_summary()
        assert summary and len(summary) <= len(legal)
        # a game with amounts (Azi) may write a run of them compactly; every other writes each move
        assert summary == state.legal_texts() or type(rules).summarize is not Rules.summarize


@pytest.mark.parametrize(("game", "options"), TABLES)
@settings(max_examples=6, deadline=None)
@given(seed=SEEDS)
def test_every_error_names_a_rule_of_the_rulebook(game: str, options: dict[str, Any], seed: int) -> None:
    rng = Rng(seed)
    states = _all_states(game, options, seed)
    for state in states[::2]:
        rules = state.rules
        legal = set(state.legal_actions())
        before = state.digest()
        tried = [rng.below(4096) for _ in range(24)] + [2**40 + rng.below(99), -1 - rng.below(9)]
        for a in (x for x in tried if x not in legal):
            with pytest.raises(ActionError) as err:
                state.apply(a)
            assert err.value.rule in rules.rule_codes, f"{rules.action_text(a) if a >= 0 else a}: {err.value}"
        assert state.digest() == before
    # a record that goes wrong at any move: the audit names a rule of the rulebook too
    end = states[-1]
    record = end.record()
    if len(record.actions) > 2:
        k = rng.below(len(record.actions))
        seat, _ = record.actions[k]
        wrong = (*record.actions[:k], (seat, "fold" if game == "azi" else "pass"), (seat, "take"),
                 *record.actions[k:])
        bad = type(record)(record.game, record.options, record.setup, record.deck, wrong)
        verdict = end.rules.audit(bad)
        assert not verdict.ok and verdict.rule in end.rules.rule_codes


@pytest.mark.parametrize(("game", "options"), TABLES)
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS)
def test_every_view_survives_pickling_digested_or_not(game: str, options: dict[str, Any], seed: int) -> None:
    """A view is sent to the computer players' process as a pickle: it arrives with the same
    questions answered, and its state, digested before or not, digests the same."""
    for state in _all_states(game, options, seed)[::8]:
        for seat in sorted({0, state.to_act if state.to_act >= 0 else 0}):
            view = state.view(seat)
            view.masked.digest()  # a digested state holds a hasher, which cannot be pickled itself
            copy = pickle.loads(pickle.dumps(view))
            assert copy.legal_actions == view.legal_actions and copy.hand == view.hand
            assert copy.unknown_positions == view.unknown_positions and copy.phase == view.phase
            assert copy.masked.digest() == view.masked.digest()


CHECKS = (
    test_an_action_is_an_int_that_is_not_a_bool,
    test_every_view_answers_the_same_questions,
    test_every_action_round_trips_through_its_text,
    test_every_error_names_a_rule_of_the_rulebook,
    test_every_view_survives_pickling_digested_or_not,
)


def check_every_table(game: str) -> None:
    """Every check above, at every table ``game``'s registration names (a game registered by a test)."""
    for options in registry.entry(game).tables:
        for check in CHECKS:
            check(game, dict(options))
