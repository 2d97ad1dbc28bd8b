from __future__ import annotations

import stat
from pathlib import Path

import pytest

from p2pcards.store import InsecureFile, Secrets, StoreError


def test_kept_privately_and_loaded(tmp_path: Path) -> None:
    s = Secrets(tmp_path / "secrets")
    assert s.secrets() == {}
    s.keep("coin", b"\x01" * 32)
    s.keep("hand 0", b"\x02" * 32)
    s.keep("coin", b"\x01" * 32)  # the same again: nothing to do
    assert Secrets(tmp_path / "secrets").secrets() == {"coin": b"\x01" * 32, "hand 0": b"\x02" * 32}
    assert stat.S_IMODE((tmp_path / "secrets").stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["secrets"]  # no temporary file left


def test_a_kept_secret_is_never_replaced(tmp_path: Path) -> None:
    s = Secrets(tmp_path / "secrets")
    s.keep("hand 3", b"a")
    with pytest.raises(StoreError, match="refusing to replace the secret 'hand 3'"):
        s.keep("hand 3", b"b")
    assert s.secrets() == {"hand 3": b"a"}


def test_refused_when_others_can_read_it(tmp_path: Path) -> None:
    s = Secrets(tmp_path / "secrets")
    s.keep("coin", b"x")
    (tmp_path / "secrets").chmod(0o640)
    with pytest.raises(InsecureFile, match="0640"):
        s.secrets()


def test_a_damaged_file_is_an_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "secrets"
    path.write_text('{"version": 1, "secrets": {"coin": "zz"}}')
    path.chmod(0o600)
    with pytest.raises(StoreError, match="damaged") as info:
        Secrets(path).secrets()
    assert str(path) in str(info.value)
