"""Everything the store keeps about one game: its journal and this seat's secrets, in one directory.

``GameStore.open(game_id)`` locks the game (one process per game at a time), cuts off a torn tail
left by a crash, and is ready for a room (``p2pcards.room``): ``persist`` appends to the journal
(fsynced for the seat's own messages), ``keep`` stores a secret durably.  ``payloads()`` and
``secrets()`` are what ``Table.restore`` and the ``Table`` constructor need to resume.
"""

from __future__ import annotations

from pathlib import Path

from . import paths
from .journal import Journal, TornTail, is_empty
from .secrets_file import Secrets


class GameStore:
    def __init__(self, game_id: bytes, directory: Path, journal: Journal, secrets: Secrets) -> None:
        self.game_id = game_id
        self.directory = directory
        self.journal = journal
        self._secrets = secrets

    @classmethod
    def open(cls, game_id: bytes, home: Path | str | None = None) -> GameStore:
        """Open (creating if new) the store of ``game_id`` in the data directory ``home``."""
        directory = paths.game_dir(game_id, home)
        paths.ensure_private_dir(directory)
        journal = Journal.open(directory / "journal", game_id=game_id)
        return cls(game_id, directory, journal, Secrets(directory / "secrets"))

    @property
    def repaired(self) -> TornTail | None:
        """The torn tail cut off the journal on opening (a crash mid-write), if any: worth a notice."""
        return self.journal.repaired

    def persist(self, payload: bytes, own: bool) -> None:
        """Journal an accepted message; the seat's own are fsynced before they may be sent."""
        self.journal.append(payload, flush=own)

    def keep(self, label: str, secret: bytes) -> None:
        self._secrets.keep(label, secret)

    def payloads(self) -> list[bytes]:
        return self.journal.payloads()

    def secrets(self) -> dict[str, bytes]:
        return self._secrets.secrets()

    def close(self) -> None:
        self.journal.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def saved_games(home: Path | str | None = None) -> list[bytes]:
    """The ids of the games with a journal in the data directory, in a stable order (a journal that
    holds no message, left by a process killed during a game's start-up, is no game)."""
    root = paths.games_dir(home)
    if not root.is_dir():
        return []
    ids = []
    for entry in sorted(root.iterdir()):
        try:
            game_id = bytes.fromhex(entry.name)
        except ValueError:
            continue
        journal = entry / "journal"
        if len(game_id) == paths.GAME_ID_SIZE and journal.is_file() and not is_empty(journal):
            ids.append(game_id)
    return ids
