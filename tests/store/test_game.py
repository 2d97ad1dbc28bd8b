"""A game's directory: journal and secrets together, reopened after a crash."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from p2pcards.store import GameStore, JournalBusy, paths, saved_games
from p2pcards.store import journal as jf

GAME = bytes(range(32))


def test_layout_and_round_trip(_private_home: Path) -> None:
    with GameStore.open(GAME) as g:
        g.persist(b"theirs", own=False)
        g.persist(b"ours", own=True)
        g.keep("hand 0", b"key")
        assert g.payloads() == [b"theirs", b"ours"] and g.secrets() == {"hand 0": b"key"}
    directory = _private_home / "games" / GAME.hex()
    assert sorted(p.name for p in directory.iterdir()) == ["journal", "secrets"]
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert stat.S_IMODE((directory / "secrets").stat().st_mode) == 0o600
    assert saved_games() == [GAME]
    with GameStore.open(GAME) as g:
        assert g.payloads() == [b"theirs", b"ours"] and g.secrets() == {"hand 0": b"key"}
        assert g.repaired is None


def test_own_messages_are_fsynced(monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    real = os.fsync
    with GameStore.open(GAME) as g:
        def counting(fd: int) -> None:
            synced.append(fd)
            real(fd)

        monkeypatch.setattr(os, "fsync", counting)
        g.persist(b"theirs", own=False)
        assert synced == []
        g.persist(b"ours", own=True)
        assert synced == [g.journal._fd]


def test_reopening_after_a_crash_mid_write() -> None:
    with GameStore.open(GAME) as g:
        g.persist(b"one", own=True)
    path = paths.journal_path(GAME)
    with path.open("ab") as f:
        f.write(jf.encode_record(b"two, interrupted")[:7])
    with GameStore.open(GAME) as g:
        assert g.repaired is not None and g.repaired.size == 7
        assert g.payloads() == [b"one"]
        g.persist(b"two", own=True)
    assert jf.read(path).payloads == [b"one", b"two"]


def test_one_process_per_game() -> None:
    with GameStore.open(GAME), pytest.raises(JournalBusy):
        GameStore.open(GAME)


def test_saved_games_ignores_strangers(_private_home: Path) -> None:
    assert saved_games() == []
    (_private_home / "games" / "notes").mkdir(parents=True)
    (_private_home / "games" / ("ab" * 32)).mkdir()  # no journal in it
    assert saved_games() == []


def test_every_directory_the_store_creates_is_private(_private_home: Path) -> None:
    GameStore.open(GAME).close()  # before anything else: the data directory is created here
    for directory in (_private_home, _private_home / "games", _private_home / "games" / GAME.hex()):
        assert stat.S_IMODE(directory.stat().st_mode) == 0o700, directory
