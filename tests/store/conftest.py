from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pcards.store.paths import HOME_ENV

from .games import ram_dir


@pytest.fixture(autouse=True)
def _private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own data directory: nothing ever touches the real one.

    Tests patch temporarily with ``monkeypatch.context()``, never ``monkeypatch.undo()``, which
    would also undo this."""
    home = tmp_path / "home"
    monkeypatch.setenv(HOME_ENV, str(home))
    # A second fence: even code that ignored P2PCARDS_HOME would land in the test's directory.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    return home


@pytest.fixture
def ram_path() -> Iterator[Path]:
    """Like ``tmp_path``, on a RAM file system when there is one (for tests that play whole games)."""
    path = ram_dir("p2pcards-store-test-")
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
