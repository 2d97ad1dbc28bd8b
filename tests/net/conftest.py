from __future__ import annotations

from collections.abc import Iterator

import pytest

from .netns import Lan, lan_fixture


def _lan(count: int, tag: str) -> Iterator[Lan]:
    yield from lan_fixture(count, tag)


@pytest.fixture
def lan2() -> Iterator[Lan]:
    """Two hosts on a bridged LAN of their own (network namespaces, removed afterwards)."""
    yield from _lan(2, "two")


@pytest.fixture
def lan3() -> Iterator[Lan]:
    yield from _lan(3, "three")
