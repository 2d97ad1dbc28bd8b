from __future__ import annotations

from pathlib import Path

import platformdirs
import pytest

from p2pcards.store import paths


def test_the_environment_overrides_the_data_dir(_private_home: Path) -> None:
    assert paths.data_dir() == _private_home
    gid = bytes(range(32))
    assert paths.identity_path() == _private_home / "identity.key"
    assert paths.peers_path() == _private_home / "peers.json"
    assert paths.journal_path(gid) == _private_home / "games" / gid.hex() / "journal"
    assert paths.secrets_path(gid) == _private_home / "games" / gid.hex() / "secrets"


def test_an_explicit_home_wins(tmp_path: Path) -> None:
    assert paths.data_dir(tmp_path / "x") == tmp_path / "x"


def test_without_the_variable_the_platform_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(paths.HOME_ENV)
    assert paths.data_dir() == Path(platformdirs.user_data_dir("p2pcards"))  # computed, not touched


def test_a_game_id_is_32_bytes() -> None:
    with pytest.raises(ValueError):
        paths.game_dir(b"short")
