"""Computer players in these tests think for 50 ms' worth of work, unless a test says otherwise: as
much as Hard searched per decision before it had a think time, and quick enough for a test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from p2pcards.ai import budget

TEST_THINK_MS = 50


@pytest.fixture(autouse=True)
def quick_think() -> Iterator[None]:
    before = budget.default_think()
    budget.set_default_think(TEST_THINK_MS)
    yield
    budget.set_default_think(before)
