"""The identity key: created on first use, private, atomic, refused when others can read it."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from p2pcards import wire
from p2pcards.store import InsecureFile, StoreError, fingerprint, identity, load_or_create, paths
from p2pcards.store.files import atomic_create


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_created_on_first_use_private_then_loaded(_private_home: Path) -> None:
    key = load_or_create()
    path = _private_home / "identity.key"
    assert path.read_bytes() == key.private_bytes_raw() and len(path.read_bytes()) == 32
    assert mode(path) == 0o600
    assert mode(_private_home) == 0o700
    assert wire.public_bytes(load_or_create()) == wire.public_bytes(key)  # the same key afterwards
    assert fingerprint() == wire.fingerprint(key) == wire.fingerprint(identity.public_key())
    assert [p.name for p in _private_home.iterdir()] == ["identity.key"]  # no temporary file left


def test_two_homes_two_identities(tmp_path: Path) -> None:
    a, b = load_or_create(tmp_path / "a"), load_or_create(tmp_path / "b")
    assert wire.public_bytes(a) != wire.public_bytes(b)


def test_a_key_readable_by_others_is_refused(_private_home: Path) -> None:
    load_or_create()
    path = paths.identity_path()
    path.chmod(0o644)
    with pytest.raises(InsecureFile) as info:
        load_or_create()
    message = str(info.value)
    assert str(path) in message and "0644" in message and "chmod 600" in message


def test_a_damaged_key_file_is_an_error_naming_it(_private_home: Path) -> None:
    _private_home.mkdir()
    path = paths.identity_path()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, b"short")
    os.close(fd)
    with pytest.raises(StoreError, match="exactly 32 bytes") as info:
        load_or_create()
    assert str(path) in str(info.value)


def test_a_crash_while_creating_leaves_no_key(_private_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def crash(fd: int) -> None:
        raise OSError("power cut")

    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", crash)
        with pytest.raises(OSError, match="power cut"):
            load_or_create()
    assert list(_private_home.iterdir()) == []  # neither a truncated key nor a temporary file
    load_or_create()
    assert len(paths.identity_path().read_bytes()) == 32


def test_a_creation_race_keeps_the_first_key(tmp_path: Path) -> None:
    target = tmp_path / "identity.key"
    assert atomic_create(target, b"A" * 32, mode=0o600)
    assert not atomic_create(target, b"B" * 32, mode=0o600)  # the loser reads the winner's key
    assert target.read_bytes() == b"A" * 32
    assert [p.name for p in tmp_path.iterdir()] == ["identity.key"]
