"""The fourth game is registered for each test that asks for it, and unregistered after."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from p2pcards.games import GameEntry, registry
from tests.fourth_game import GAME


@pytest.fixture
def fourth_game() -> Iterator[GameEntry]:
    registry.register(GAME)
    try:
        yield GAME
    finally:
        registry.unregister(GAME.name)
