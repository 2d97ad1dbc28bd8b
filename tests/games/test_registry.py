"""The one list of games (``games.registry``): what is registered is a game everywhere, and an entry
with a part missing or broken is refused when it is registered, saying which part."""

from __future__ import annotations

import ast
import dataclasses
import subprocess
import sys
from typing import Any

import pytest

from p2pcards import games
from p2pcards.games import GAMES, GameEntry, GameError, OptionError, registry
from p2pcards.table.genesis import GenesisError, make_genesis
from p2pcards.wire import key_from_seed, public_bytes
from tests.fourth_game import GAME as TRICKS
from tests.fourth_game.game import TricksRules


def test_the_package_registers_its_three_games_in_order() -> None:
    assert registry.names() == ("durak", "spades", "azi") == tuple(GAMES)
    assert [e.title for e in registry.entries()] == ["Durak", "Spades", "Azi"]
    assert registry.entry(" Spades ").dummy is not None and registry.entry("durak").dummy is None
    with pytest.raises(OptionError, match="unknown game 'poker'; the games are: durak, spades, azi"):
        games.load("poker")
    with pytest.raises(GameError, match="cannot be unregistered"):
        registry.unregister("durak")


def test_a_game_of_the_package_is_imported_only_when_it_is_asked_for() -> None:
    """Durak's table does not wait for the Spades and Azi engines to load (a tenth of a second)."""
    code = ("import sys; from p2pcards import games; games.load('durak'); assert 'azi' in games.GAMES; "
            "print(sorted(m for m in sys.modules if m.startswith('p2pcards.games.')"
            " and m.count('.') == 2))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    loaded = ast.literal_eval(done.stdout)
    assert "p2pcards.games.durak" in loaded
    assert "p2pcards.games.spades" not in loaded and "p2pcards.games.azi" not in loaded


def test_a_registered_game_is_a_game_everywhere_until_it_is_unregistered() -> None:
    seats = [(f"p{i}", public_bytes(key_from_seed(bytes([i + 1]) * 32))) for i in range(3)]
    with pytest.raises(GenesisError, match="unknown game 'tricks'"):
        make_genesis("tricks", seats)
    registry.register(TRICKS)
    try:
        # GAMES, imported once, is read afresh: a module that imported it earlier sees the new game
        assert "tricks" in GAMES and list(GAMES)[-1] == "tricks" and len(GAMES) == 4
        assert games.load("tricks", players=2).players == 2
        assert make_genesis("tricks", seats).rules().name == "tricks"
        with pytest.raises(GameError, match="'tricks': a game of that name is registered already"):
            registry.register(TRICKS)
    finally:
        registry.unregister("tricks")
    assert "tricks" not in GAMES and registry.names() == ("durak", "spades", "azi")


class Misnamed(TricksRules):
    name = "other"


def broken_rules(**options: Any) -> TricksRules:
    raise ZeroDivisionError("inside the factory")


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"name": "Tricks"}, "its name must be 1-32 lowercase letters"),
        ({"name": "conformance"}, "a word of the command line"),
        ({"name": "durak"}, "registered already"),
        ({"title": " "}, "it has no title"),
        ({"rules": Misnamed}, "its rules call themselves 'other'"),
        ({"rules": broken_rules}, "its rules fail to load with their defaults: ZeroDivisionError"),
        ({"phases": ()}, "its phases must be a tuple of distinct names"),
        ({"phases": ("deal", "deal")}, "its phases must be a tuple of distinct names"),
        ({"tables": ()}, "it names no table"),
        ({"tables": ({"players": 7},)}, "refuse to load at the table {'players': 7}: option players"),
        ({"longer": {"hand": 4}}, "with its longer match {'hand': 4}: unknown option 'hand'"),
        ({"seats": 4}, "with players=4 (its seats)"),
        ({"players": ""}, "players must name the module of its computer players"),
        ({"face": "no such module"}, "face must name the module of its screen"),
        ({"rules_page": ("tests.fourth_game", "rules.txt")}, "rules_page must be (package, path of a .md"),
        ({"dummy": "choose"}, "its dummy policy is not a function"),
        ({"renege": ("S6",)}, "renege must be a tuple of its rule_codes"),
        ({"choices": {"suits": (3, 4)}}, "choices names 'suits', which is not an option"),
        ({"choices": {"hands": (3, 10)}}, "refuse to load with hands=10 (its choices)"),
    ],
)
def test_an_incomplete_or_broken_entry_is_refused_naming_its_part(change: dict[str, Any], says: str) -> None:
    entry = dataclasses.replace(TRICKS, **change)
    with pytest.raises(GameError, match="cannot register the game") as err:
        registry.register(entry)
    assert says in str(err.value)
    assert registry.names() == ("durak", "spades", "azi")


def test_only_an_entry_is_registered() -> None:
    with pytest.raises(GameError, match="a game is registered as a GameEntry"):
        registry.register({"name": "tricks"})  # type: ignore[arg-type]
    assert isinstance(TRICKS, GameEntry)
