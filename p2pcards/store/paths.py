"""Where the store keeps its files.

The data directory is ``platformdirs.user_data_dir("p2pcards")`` unless the environment variable
``P2PCARDS_HOME`` names another one (tests, several players on one machine, a USB stick)::

    <home>/identity.key                  this player's Ed25519 seed (32 bytes, mode 0600)
    <home>/peers.json                    known peers, trust on first use
    <home>/games/<game id hex>/journal   the append-only journal of a game's accepted messages
    <home>/games/<game id hex>/secrets   this seat's secrets for the game (mode 0600)

Every function takes an optional ``home`` so callers (and tests) can point elsewhere explicitly.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from .files import fsync_dir

HOME_ENV = "P2PCARDS_HOME"
APP_NAME = "p2pcards"
GAME_ID_SIZE = 32


def data_dir(home: Path | str | None = None) -> Path:
    """The store's root: ``home`` if given, else ``$P2PCARDS_HOME``, else the platform's user data dir."""
    if home is not None:
        return Path(home)
    override = os.environ.get(HOME_ENV)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME))


def identity_path(home: Path | str | None = None) -> Path:
    return data_dir(home) / "identity.key"


def peers_path(home: Path | str | None = None) -> Path:
    return data_dir(home) / "peers.json"


def games_dir(home: Path | str | None = None) -> Path:
    return data_dir(home) / "games"


def game_dir(game_id: bytes, home: Path | str | None = None) -> Path:
    if len(game_id) != GAME_ID_SIZE:
        raise ValueError(f"a game id is {GAME_ID_SIZE} bytes, not {len(game_id)}")
    return games_dir(home) / game_id.hex()


def journal_path(game_id: bytes, home: Path | str | None = None) -> Path:
    return game_dir(game_id, home) / "journal"


def secrets_path(game_id: bytes, home: Path | str | None = None) -> Path:
    return game_dir(game_id, home) / "secrets"


def ensure_private_dir(path: Path) -> Path:
    """Create ``path`` and any missing parents owner-only (each one durably: its entry in its parent
    is fsynced, so a power cut cannot lose a game's directory with its journal).  Directories that
    exist are left as they are."""
    missing: list[Path] = []
    probe = path
    while not probe.exists() and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    for directory in reversed(missing):
        directory.mkdir(mode=0o700, exist_ok=True)
        fsync_dir(directory.parent)
    return path
