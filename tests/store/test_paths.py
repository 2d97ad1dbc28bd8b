from __future__ import annotations

import os
import stat
from pathlib import Path

import platformdirs
import pytest

from p2pcards.store import GameStore, InsecureDirectory, Peers, load_or_create, paths


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


# ---------------------------------------------------------------------- a data directory others can touch


def _error(call: object) -> str:
    assert callable(call)
    with pytest.raises(InsecureDirectory) as info:
        call()
    return str(info.value)


@pytest.mark.parametrize(("mode", "who"), [(0o777, "everyone"), (0o1777, "everyone"), (0o770, "its group")])
def test_an_existing_data_dir_others_can_write_to_is_refused(_private_home: Path, mode: int, who: str):
    """P2PCARDS_HOME under /tmp, say: anyone could swap the identity key or a journal."""
    _private_home.mkdir()
    os.chmod(_private_home, mode)
    message = _error(load_or_create)
    assert str(_private_home) in message and f"writable by {who}" in message
    assert f"chmod 700 {_private_home}" in message and "P2PCARDS_HOME" in message
    assert not (_private_home / "identity.key").exists()  # nothing was written there
    with pytest.raises(InsecureDirectory):
        GameStore.open(bytes(32))
    with pytest.raises(InsecureDirectory):
        Peers().all()
    os.chmod(_private_home, 0o700)  # what the message says to do
    load_or_create()


def test_a_data_dir_of_another_user_is_refused(_private_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _private_home.mkdir(mode=0o700)
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(_private_home).st_uid + 1)
    message = _error(load_or_create)
    assert "belongs to another user" in message and "P2PCARDS_HOME" in message


def test_a_symlinked_game_directory_is_refused(_private_home: Path, tmp_path: Path) -> None:
    """The journal and secrets would otherwise land wherever the link points (here a 0755 directory)."""
    game_id = bytes(range(32))
    load_or_create()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o755)
    paths.games_dir().mkdir(mode=0o700)
    paths.game_dir(game_id).symlink_to(elsewhere)
    message = _error(lambda: GameStore.open(game_id))
    assert "symbolic link" in message and str(elsewhere) in message
    assert f"rm {paths.game_dir(game_id)}" in message
    assert list(elsewhere.iterdir()) == []


def test_a_group_writable_games_directory_is_refused(_private_home: Path) -> None:
    load_or_create()
    paths.games_dir().mkdir(mode=0o700)
    os.chmod(paths.games_dir(), 0o775)
    assert "writable by its group" in _error(lambda: GameStore.open(bytes(32)))


def test_a_private_data_dir_may_be_a_link_to_a_private_directory(tmp_path: Path) -> None:
    real = tmp_path / "usb-stick"
    real.mkdir(mode=0o700)
    home = tmp_path / "linked-home"
    home.symlink_to(real)
    load_or_create(home)
    with GameStore.open(bytes(32), home) as store:
        store.persist(b"x", own=True)
    assert (real / "identity.key").exists()
    assert stat.S_IMODE((real / "games").stat().st_mode) == 0o700
