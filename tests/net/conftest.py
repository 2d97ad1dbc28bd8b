from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pcards.store.paths import HOME_ENV

from .netns import Lan, lan_fixture


@pytest.fixture(autouse=True)
def _private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing here ever touches the real data directory."""
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))


def _lan(count: int, tag: str) -> Iterator[Lan]:
    yield from lan_fixture(count, tag)


@pytest.fixture
def lan2() -> Iterator[Lan]:
    """Two hosts on a bridged LAN of their own (network namespaces, removed afterwards)."""
    yield from _lan(2, "two")


@pytest.fixture
def lan3() -> Iterator[Lan]:
    yield from _lan(3, "three")
