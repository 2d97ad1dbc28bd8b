"""Hard's think time: a budget of work units, an anytime search that stops when the choice is clear,
forced moves without any search, and results that depend on the seed alone."""

from __future__ import annotations

import dataclasses
import sys
import types
from collections.abc import Iterator
from typing import Any

import pytest

from p2pcards import sim as S
from p2pcards.ai import budget, player
from p2pcards.ai import tournament as T
from p2pcards.ai.budget import AGREE, Tally, Work, parse_think, units_for, units_per_second
from p2pcards.ai.registry import players_of
from p2pcards.games import CHANCE, GAMES, TERMINAL, OptionError, Rules, View, load, registry
from p2pcards.games.playout import fulfil_from
from p2pcards.games.rng import Rng
from tests.fourth_game import GAME as TRICKS
from tests.fourth_game.players import EasyPlayer, HardPlayer


def rules_of(game: str) -> Rules:
    return load(game, **({"players": 2} if game == "durak" else {}))


def decisions(game: str, hands: int = 2, seed: int = 5) -> Iterator[View]:
    """Every view a seat had to act on in ``hands`` hands of Normal players (seeded decks)."""
    rules = rules_of(game)
    normals = [player(rules, "normal", s) for s in range(rules.players)]
    for h in range(hands):
        deck = list(rules.deck)
        Rng(f"budget-test/{seed}/{h}").shuffle(deck)
        state = rules.new_hand({"dealer": h % rules.players})
        while state.to_act != TERMINAL:
            if state.to_act == CHANCE:
                fulfil_from(state, deck)
                continue
            view = state.view(state.to_act)
            yield view
            state.apply(normals[state.to_act].choose(view))


def hard(game: str, units: int, seed: int = 1) -> Any:
    rules = rules_of(game)
    return players_of(game).levels["hard"](rules, seed, budget=units)


# --------------------------------------------------------------------------- seconds and units


def test_think_seconds_become_work_units_by_the_measured_rate() -> None:
    assert parse_think("1") == 1000 and parse_think("2.5") == 2500 and parse_think(" 0.1 ") == 100
    for game in GAMES:
        assert units_for(game, 1000) == units_per_second(game)
        assert units_for(game, 100) == units_per_second(game) // 10
        assert player(rules_of(game), "hard", 1, 250).budget == units_per_second(game) // 4  # type: ignore[attr-defined]
    assert (units_per_second("durak"), units_per_second("spades"), units_per_second("azi")) == (
        500_000, 300_000, 350_000)  # docs/ai.md's table
    budget.set_default_think(2000)
    assert player(rules_of("azi"), "hard", 1).budget == 2 * units_per_second("azi")  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("parts", "says"),
    [
        ({"PLAYERS": "nobody"}, "define no PLAYERS"),
        ({"PLAYERS": {"easy": EasyPlayer, "normal": EasyPlayer}, "UNITS_PER_SECOND": 10},
         "have no hard player"),
        ({"PLAYERS": {"easy": EasyPlayer, "normal": EasyPlayer, "hard": HardPlayer}}, "give Hard no budget"),
        ({"PLAYERS": {"easy": EasyPlayer, "normal": EasyPlayer, "hard": HardPlayer}, "UNITS_PER_SECOND": 0},
         "give Hard no budget"),
    ],
)
def test_a_game_whose_players_lack_a_part_is_refused_before_any_player_plays(
    parts: dict[str, Any], says: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A missing budget was a ``KeyError`` the first time Hard played: now no level of the game is made,
    and the message names the game, its players module and the part missing."""
    module = types.ModuleType("tests.ai.partial_players")
    for name, value in parts.items():
        setattr(module, name, value)
    monkeypatch.setitem(sys.modules, module.__name__, module)
    registry.register(dataclasses.replace(TRICKS, players=module.__name__))
    try:
        where = r"the computer players of tricks \(tests.ai.partial_players\)"
        for level in ("easy", "hard"):
            with pytest.raises(OptionError, match=f"{where} {says}"):
                player(load("tricks"), level, 1)
        with pytest.raises(OptionError, match=says):
            units_for("tricks", 1000)
    finally:
        registry.unregister("tricks")


@pytest.mark.parametrize("text", ["", "soon", "0", "-1", "nan", "inf", "0.0001", "601"])
def test_a_bad_think_time_is_refused_with_a_clear_message(text: str) -> None:
    with pytest.raises(ValueError, match="--think"):
        parse_think(text)


def test_a_kind_may_carry_its_own_think_time() -> None:
    assert T.kind_think("hard@0.1") == ("hard", 100)
    assert T.kind_think("hard") == ("hard", None)
    for bad in ("normal@1", "hard@", "hard@x", "hardest"):
        with pytest.raises(OptionError):
            T.kind_think(bad)


# --------------------------------------------------------------------------- the stopping rule


def test_the_tally_stops_when_every_sample_agrees_and_not_before() -> None:
    t = Tally(3)
    for k in range(AGREE):
        assert not t.unanimous()
        t.add([1.0, 0.0, 1.0] if k % 2 else [2.0, 1.0, 0.0])  # candidate 0 best (or tied) every time
    assert t.unanimous()
    t.add([0.0, 1.0, 0.0])
    assert not t.unanimous()


def test_the_tally_stops_when_the_others_cannot_catch_up() -> None:
    t = Tally(2)
    for _ in range(AGREE):
        t.add([1.0, 0.0])
    t.add([0.0, 1.0])  # no longer unanimous; each sample has moved the gap by at most 1
    assert not t.unanimous()
    gap = AGREE - 1
    assert t.decided(gap - 1) and not t.decided(gap)
    work = Work(100 * (AGREE + 2))
    work.spend(100 * (AGREE + 1))  # 100 units per sample so far: 2 samples left, the gap stands
    assert t.settled(work)
    assert not t.settled(Work(10**6))


# --------------------------------------------------------------------------- the players


@pytest.mark.parametrize("game", GAMES)
def test_a_forced_move_is_played_without_any_search(game: str) -> None:
    forced = searched = 0
    h = hard(game, 5_000)
    for view in decisions(game, hands=1 if game == "spades" else 2):
        action = h.choose(view)
        assert action in view.legal_actions
        if len(view.legal_actions) == 1:
            forced += 1
            assert h.work.spent == 0 and h.work.steps == 0 and h.tally is None
        elif h.work.spent:
            searched += 1
    assert forced and searched


@pytest.mark.parametrize("game", GAMES)
def test_every_sample_begins_within_the_budget_and_more_budget_samples_more(game: str) -> None:
    """Units are counted, never time: a search begins no sample once its units are spent (but always
    looks at one), and four times the units look at more samples wherever the budget was the limit.
    Fresh players of one seed see the same samples in the same order, whatever their budgets."""
    grew = 0
    for view in list(decisions(game, hands=1))[:60]:
        if len(view.legal_actions) < 2:
            continue
        small, large = hard(game, 4_000), hard(game, 16_000)
        small.choose(view)
        large.choose(view)
        for h in (small, large):
            assert h.work.last < h.work.limit or h.samples <= 1
        if small.work.over and small.tally is not None and not small.tally.unanimous():
            assert large.samples >= small.samples
            grew += large.samples > small.samples
    assert grew


@pytest.mark.parametrize("game", GAMES)
def test_the_search_stops_early_when_every_sample_agrees(game: str) -> None:
    """Some decisions are clear: the search ends after ``AGREE`` agreeing samples, well inside its
    budget, and a budget twice as large changes nothing about it."""
    for view in list(decisions(game, hands=2))[:120]:
        if len(view.legal_actions) < 2:
            continue
        h = hard(game, 60_000)
        h.choose(view)
        t = h.tally
        if t is None or not t.unanimous() or h.work.over:
            continue
        assert t.samples == AGREE and h.work.spent < h.work.limit
        again, h2 = hard(game, 60_000), hard(game, 120_000)
        assert h2.choose(view) == again.choose(view)
        assert h2.samples == h.samples and h2.work.spent == h.work.spent
        return
    pytest.fail("no decision stopped on agreement")


def test_the_same_seed_gives_the_same_decisions_whatever_the_jobs() -> None:
    def comparable(report: T.Report) -> dict[str, Any]:
        d = report.to_dict()
        d.pop("timing")
        d.pop("seconds")
        return d

    for game, players in (("durak", ("hard", "hard@0.005")), ("azi", ("hard", "normal", "normal"))):
        config = T.Config(game, players, games=1, seed=11, duplicate=True, think_ms=10,
                          options=(("players", 3),) if game == "azi" else ())
        one = S.run(config)
        two = S.run(T.Config(**{**{f: getattr(config, f) for f in config.__slots__}, "jobs": 2}))
        assert comparable(one) == comparable(two)
        assert one.think_ms == 10 and comparable(one)["players"] == list(players)
