"""What can go wrong on disk.  Every message names the file, so a user can look at it."""

from __future__ import annotations

from pathlib import Path
from typing import Any


class StoreError(Exception):
    """A file of the store cannot be used as it is; ``path`` is the file in question."""

    def __init__(self, path: Path | str, message: str) -> None:
        self.path = Path(path)
        self.message = message
        super().__init__(f"{self.path}: {message}")


class InsecureFile(StoreError):
    """A private file (identity key, secrets) that other users of this machine could read."""


class InsecureDirectory(StoreError):
    """A directory of the store that other users could write to or redirect (a symbolic link)."""


class NotAJournal(StoreError):
    """The file does not start with a journal header (or has a version this program cannot read)."""


class ForeignJournal(StoreError):
    """The journal belongs to another game than the one it was opened for: refused as a whole."""


class JournalCorrupt(StoreError):
    """A record before the end of the journal is damaged: not a crash mid-write, so not repairable.

    ``offset`` is where the damaged record starts."""

    def __init__(self, path: Path | str, offset: int, message: str) -> None:
        self.offset = offset
        self.before: Any = None
        """The journal's intact records before the damage (a ``journal.Scan``), once known."""
        super().__init__(path, f"corrupt record at byte offset {offset}: {message}")


class JournalBusy(StoreError):
    """Another process has this journal open for writing."""
