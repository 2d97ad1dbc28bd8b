"""Every registered game is complete in every layer: the rules layer refuses an incomplete entry when
it is registered (tests/games/test_registry.py), and each layer above resolves its own part from the
module the entry names.  Here every part of every game is resolved, the tests' fourth game included,
so that a gap fails the suite before anyone plays."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import import_module, resources

import pytest

from p2pcards.ai import player
from p2pcards.ai.base import LEVELS
from p2pcards.ai.registry import players_of
from p2pcards.bench import engine as bench_engine
from p2pcards.cli.completion import commands, option_words
from p2pcards.cli.rules import rules_text
from p2pcards.cli.screen.faces import Face, face_for
from p2pcards.games import GAMES, GameEntry, registry
from tests.fourth_game import GAME as TRICKS


@pytest.fixture(params=["durak", "spades", "azi", "tricks"])
def entry(request: pytest.FixtureRequest) -> Iterator[GameEntry]:
    if request.param == TRICKS.name:
        registry.register(TRICKS)
    try:
        yield registry.entry(request.param)
    finally:
        if request.param == TRICKS.name:
            registry.unregister(TRICKS.name)


def test_the_package_registers_no_game_this_test_does_not_check() -> None:
    assert set(GAMES) == {"durak", "spades", "azi"}
    assert {"deck=36", "deck=52", "deal=3", "deal=4"} <= set(option_words())


def test_every_game_has_computer_players_of_every_level_and_a_budget(entry: GameEntry) -> None:
    found = players_of(entry.name)
    assert tuple(found.levels) == LEVELS and found.units_per_second > 0
    rules = entry.load()
    assert [player(rules, level, 1).level for level in LEVELS] == list(LEVELS)


def test_every_game_has_a_rules_page_and_a_screen(entry: GameEntry) -> None:
    package, path = entry.rules_page
    text = rules_text(entry.name)
    assert text == resources.files(package).joinpath(path).read_text(encoding="utf-8")
    assert text.startswith(f"# {entry.title}")
    face = face_for(entry.name, ["a", "b", "c", "d"][: entry.seats], 0)
    if entry.face is None:
        assert type(face) is Face
    else:
        assert type(face) is import_module(entry.face).Face and isinstance(face, Face)


def test_completion_offers_every_registered_game_and_its_choices(entry: GameEntry) -> None:
    play = next(c for c in commands() if c.name == "play")
    assert entry.name in play.positionals[0]
    words = option_words()
    assert all(f"{name}={v}" in words for name, values in entry.choices.items() for v in values)


def test_the_engine_benchmark_plays_every_registered_game(entry: GameEntry) -> None:
    assert entry.name in [game for game, _, _ in bench_engine.cases()]
