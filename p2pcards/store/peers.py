"""Known peers, trust on first use (TOFU).

The first time a name is seen with a key, the pair is remembered (``new``); afterwards the same pair
is ``known``, and the same name with another key is ``changed``: somebody else may be using that
name, and the caller must warn loudly.  A changed key is *not* stored by ``remember``: replacing a
trusted key is a decision the user makes (``trust``), after comparing fingerprints.

``peers.json`` is ``{"version": 1, "peers": {name: {"key": hex}}}``, replaced atomically on every
change under an advisory lock (``peers.json.lock``), so two processes cannot lose each other's
updates.  A file that cannot be read is an error naming it, never silently reset: it is the memory
of whom this player trusts.  Only usable Ed25519 keys enter it (``wire.keys.weak_key_problem``); a
file holding another is refused, naming the entry.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import Any

from p2pcards import wire
from p2pcards.wire.keys import weak_key_problem

from . import paths
from .errors import StoreError
from .files import atomic_write, locked

FORMAT_VERSION = 1
KEY_SIZE = 32


class Trust(StrEnum):
    NEW = "new"
    KNOWN = "known"
    CHANGED = "changed"


class PeersError(StoreError):
    """``peers.json`` is unreadable or not what this program writes."""


class Peers:
    """The known-peers file of a data directory.  Every call reads the file afresh (other processes
    may have changed it), so an instance holds no state but its path."""

    def __init__(self, home: Path | str | None = None, *, path: Path | None = None) -> None:
        self.path = path if path is not None else paths.peers_path(home)

    # ---------------------------------------------------------------- queries

    def all(self) -> dict[str, bytes]:
        """Every known name with its key."""
        return self._load()

    def key_of(self, name: str) -> bytes | None:
        return self._load().get(name)

    def check(self, name: str, key: bytes) -> Trust:
        """What ``remember`` would answer, without remembering anything."""
        _check_key(key)
        known = self._load().get(name)
        if known is None:
            return Trust.NEW
        return Trust.KNOWN if known == key else Trust.CHANGED

    # ---------------------------------------------------------------- updates

    def remember(self, name: str, key: bytes) -> Trust:
        """Trust on first use: ``new`` (now remembered), ``known``, or ``changed`` (kept as it was)."""
        _check_key(key)
        with self._update() as peers:
            known = peers.get(name)
            if known is None:
                peers[name] = key
                return Trust.NEW
            return Trust.KNOWN if known == key else Trust.CHANGED

    def trust(self, name: str, key: bytes) -> None:
        """Remember ``key`` for ``name``, replacing any other (the user accepted a changed key)."""
        _check_key(key)
        with self._update() as peers:
            peers[name] = key

    def forget(self, name: str) -> bool:
        """Forget ``name``; False if it was not known."""
        with self._update() as peers:
            return peers.pop(name, None) is not None

    # ---------------------------------------------------------------- the file

    @contextlib.contextmanager
    def _update(self) -> Iterator[dict[str, bytes]]:
        """Read, modify and write under the lock; written only if something changed.  Any failure of
        the file system (out of file descriptors, a full disk) is a ``PeersError`` naming the file."""
        try:
            paths.ensure_private_dir(self.path.parent)
            with locked(self.path.with_name(self.path.name + ".lock")):
                before = self._load()
                peers = dict(before)
                yield peers
                if peers != before:
                    self._save(peers)
        except OSError as exc:
            raise PeersError(self.path, f"cannot update the known peers: {exc}") from exc

    def _load(self) -> dict[str, bytes]:
        if self.path.parent.is_dir():
            paths.check_dir(self.path.parent, data_root=True)
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except (OSError, UnicodeDecodeError) as exc:
            raise PeersError(self.path, f"cannot read the known peers: {exc}") from exc
        try:
            return _parse(json.loads(text))
        except json.JSONDecodeError as exc:
            where = f"line {exc.lineno}, column {exc.colno}"
            raise self._corrupt(f"not valid JSON ({exc.msg} at {where})") from exc
        except ValueError as exc:
            raise self._corrupt(str(exc)) from exc

    def _corrupt(self, why: str) -> PeersError:
        return PeersError(
            self.path,
            f"the known-peers file is damaged: {why}. It was left untouched; repair it, "
            "or move it away to start again (every peer will then be new to you)",
        )

    def _save(self, peers: dict[str, bytes]) -> None:
        doc = {
            "version": FORMAT_VERSION,
            "peers": {
                name: {"key": key.hex(), "fingerprint": wire.fingerprint(key)}
                for name, key in sorted(peers.items())
            },
        }
        text = json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        # Private: who one plays with is nobody else's business.
        atomic_write(self.path, text.encode("utf-8"), mode=0o600)


def _check_key(key: bytes) -> None:
    if not isinstance(key, bytes) or len(key) != KEY_SIZE:
        raise ValueError(f"a peer's key is {KEY_SIZE} raw bytes")
    problem = weak_key_problem(key)
    if problem:
        raise ValueError(f"not a usable public key: {problem}")


def _parse(doc: Any) -> dict[str, bytes]:
    """The peers of a decoded document; ValueError saying what is wrong."""
    shape_ok = isinstance(doc, dict) and isinstance(doc.get("peers"), dict)
    if not shape_ok or doc.get("version") != FORMAT_VERSION:
        raise ValueError(f'expected {{"version": {FORMAT_VERSION}, "peers": {{...}}}}')
    peers: dict[str, bytes] = {}
    for name, entry in doc["peers"].items():
        raw = entry.get("key") if isinstance(entry, dict) else None
        try:
            key = bytes.fromhex(raw) if isinstance(raw, str) else b""
        except ValueError:
            key = b""
        if len(key) != KEY_SIZE:
            raise ValueError(f"peer {name!r} has no valid key (64 hex digits)")
        # A small-order key would let anyone sign as that peer: the entry is refused, not skipped.
        problem = weak_key_problem(key)
        if problem:
            raise ValueError(f"peer {name!r} has an unusable key ({problem}): remove that entry")
        peers[name] = key
    return peers
