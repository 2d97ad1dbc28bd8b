"""Known peers, trust on first use."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from p2pcards import wire
from p2pcards.store import Peers, PeersError, Trust, paths

ALICE = wire.public_bytes(wire.key_from_seed(b"\x01" * 32))
MALLORY = wire.public_bytes(wire.key_from_seed(b"\x02" * 32))
SMALL_ORDER = bytes([1]) + bytes(31)


def test_new_then_known_then_changed() -> None:
    peers = Peers()
    assert peers.remember("alice", ALICE) == Trust.NEW
    assert peers.remember("alice", ALICE) == Trust.KNOWN
    assert peers.remember("alice", MALLORY) == Trust.CHANGED
    assert [str(t) for t in Trust] == ["new", "known", "changed"]
    assert peers.key_of("alice") == ALICE  # a changed key is not taken on trust
    assert Peers().remember("alice", ALICE) == Trust.KNOWN  # remembered on disk


def test_check_remembers_nothing() -> None:
    peers = Peers()
    assert peers.check("bob", ALICE) == Trust.NEW
    assert peers.all() == {}
    assert not paths.peers_path().exists()


def test_trusting_a_changed_key_and_forgetting() -> None:
    peers = Peers()
    peers.remember("alice", ALICE)
    peers.trust("alice", MALLORY)
    assert peers.remember("alice", MALLORY) == Trust.KNOWN
    assert peers.forget("alice") and not peers.forget("alice")
    assert peers.remember("alice", ALICE) == Trust.NEW


def test_the_file_is_readable_json_with_fingerprints() -> None:
    Peers().remember("alice", ALICE)
    path = paths.peers_path()
    doc = json.loads(path.read_text())
    entry = {"key": ALICE.hex(), "fingerprint": wire.fingerprint(ALICE)}
    assert doc == {"version": 1, "peers": {"alice": entry}}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        "[]",
        '{"version": 2, "peers": {}}',
        '{"version": 1, "peers": {"alice": {"key": "abcd"}}}',
        '{"version": 1, "peers": {"alice": "nope"}}',
    ],
)
def test_a_damaged_file_is_an_error_naming_it_and_is_left_alone(content: str) -> None:
    path = paths.peers_path()
    path.parent.mkdir(parents=True)
    path.write_text(content)
    with pytest.raises(PeersError) as info:
        Peers().remember("alice", ALICE)
    assert str(path) in str(info.value) and "damaged" in str(info.value)
    assert path.read_text() == content  # never silently reset


def test_a_failed_write_keeps_the_previous_file(monkeypatch: pytest.MonkeyPatch) -> None:
    peers = Peers()
    peers.remember("alice", ALICE)
    before = paths.peers_path().read_bytes()

    def fail(src: object, dst: object) -> None:
        raise OSError("disk full")

    with monkeypatch.context() as patch:
        patch.setattr(os, "replace", fail)
        with pytest.raises(PeersError, match="disk full") as info:
            peers.remember("bob", MALLORY)
    assert str(paths.peers_path()) in str(info.value)
    assert paths.peers_path().read_bytes() == before
    assert sorted(p.name for p in paths.data_dir().iterdir()) == ["peers.json", "peers.json.lock"]


def test_keys_are_32_bytes() -> None:
    with pytest.raises(ValueError):
        Peers().remember("alice", b"short")


@pytest.mark.parametrize("weak", [SMALL_ORDER, b"\x02" * 32, (2**255 - 19 + 1).to_bytes(32, "little")])
def test_a_small_order_or_malformed_key_never_enters_the_file(weak: bytes) -> None:
    with pytest.raises(ValueError, match="not a usable public key"):
        Peers().remember("alice", weak)
    with pytest.raises(ValueError, match="not a usable public key"):
        Peers().trust("alice", weak)
    assert not paths.peers_path().exists()


def test_a_weak_key_in_the_file_is_an_error_naming_its_entry() -> None:
    """Somebody (or an older version) wrote the identity point for Bob: anyone could sign as Bob."""
    Peers().remember("alice", ALICE)
    path = paths.peers_path()
    doc = json.loads(path.read_text())
    doc["peers"]["Bob"] = {"key": SMALL_ORDER.hex()}
    path.write_text(json.dumps(doc))
    with pytest.raises(PeersError) as info:
        Peers().all()
    message = str(info.value)
    assert str(path) in message and "'Bob'" in message and "small order" in message
    assert "remove that entry" in message


def test_running_out_of_file_descriptors_is_a_peers_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the lobby catches to refuse a newcomer instead of crashing (issue: ~1,000 joiners)."""
    import errno

    Peers().remember("alice", ALICE)

    def no_fd(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EMFILE, "Too many open files")

    with monkeypatch.context() as patch:
        patch.setattr(Path, "read_text", no_fd)
        with pytest.raises(PeersError, match="Too many open files"):
            Peers().check("alice", ALICE)
        with pytest.raises(PeersError, match="Too many open files"):
            Peers().remember("bob", MALLORY)


def test_an_explicit_path(tmp_path: Path) -> None:
    peers = Peers(path=tmp_path / "elsewhere.json")
    peers.remember("alice", ALICE)
    assert (tmp_path / "elsewhere.json").exists() and not paths.peers_path().exists()
