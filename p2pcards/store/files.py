"""Small file primitives the store is built on: atomic replacement, private files, advisory locks.

An atomic write goes to a temporary file in the same directory (created with its final mode, so a
private file is never readable by others, not even for an instant), is fsynced, then renamed over
the target, and the directory is fsynced so the rename itself survives a power cut.  A reader
therefore sees either the old content or the new one, never a half-written file.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from .errors import InsecureFile, JournalBusy, StoreError

PRIVATE_MODE = 0o600

# POSIX permission bits mean nothing on Windows (and flock does not exist there).
_POSIX = os.name == "posix"


def fsync_dir(directory: Path) -> None:
    """Make a rename or a creation in ``directory`` durable (a no-op where directories cannot be opened)."""
    if not _POSIX:
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_temp(path: Path, data: bytes, mode: int) -> Path:
    """Write ``data`` to a fresh temporary file beside ``path`` (exclusive create, ``mode``) and fsync it."""
    directory = path.parent
    for attempt in range(100):
        tmp = directory / f".{path.name}.{os.getpid()}.{attempt}.tmp"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), mode)
        except FileExistsError:
            continue  # a leftover of a crashed writer, or a concurrent one: pick another name
        try:
            # The umask may have removed bits from ``mode`` but never adds any; be exact anyway.
            if _POSIX:
                os.fchmod(fd, mode)
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        except BaseException:
            os.close(fd)
            tmp.unlink(missing_ok=True)
            raise
        os.close(fd)
        return tmp
    raise StoreError(path, "cannot create a temporary file beside it")


def atomic_write(path: Path, data: bytes, *, mode: int = 0o644) -> None:
    """Replace ``path`` with ``data``, all or nothing, durably."""
    tmp = _write_temp(path, data, mode)
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def atomic_create(path: Path, data: bytes, *, mode: int = 0o644) -> bool:
    """Create ``path`` with ``data`` unless it exists; False (and nothing written) if it already did.

    Unlike a rename, a hard link never replaces an existing file, so two processes racing to create
    the same file (two first runs at once) cannot overwrite each other: one wins, the other reads it.
    """
    tmp = _write_temp(path, data, mode)
    try:
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        except OSError:
            # A file system without hard links: fall back to a rename, checked first.
            if path.exists():
                return False
            os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    fsync_dir(path.parent)
    return True


def check_private(path: Path, what: str) -> None:
    """Refuse a private file that is not a regular file or that other users could read or write."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return
    if not stat.S_ISREG(st.st_mode):
        raise StoreError(path, f"the {what} is not a regular file")
    if _POSIX and st.st_mode & 0o077:
        raise InsecureFile(
            path,
            f"the {what} is accessible to other users (mode {stat.S_IMODE(st.st_mode):04o}); "
            f"it must be private to you: run `chmod 600 {path}` if you trust its content, "
            "or delete it",
        )


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock on ``path`` (created if missing) for the duration of the block,
    so two processes updating the same file in turn do not lose each other's changes."""
    with open(path, "a+b") as handle:
        _lock(handle, path, blocking=True)
        yield


def _lock(handle: IO[bytes], path: Path, *, blocking: bool) -> None:
    if sys.platform == "win32":  # pragma: no cover - no flock; the store is single-process there
        return
    import fcntl

    flags = fcntl.LOCK_EX if blocking else fcntl.LOCK_EX | fcntl.LOCK_NB
    try:
        fcntl.flock(handle.fileno(), flags)
    except BlockingIOError:
        raise JournalBusy(path, "another p2pcards process has this game open") from None


def try_lock(handle: IO[bytes], path: Path) -> None:
    """Lock an open file exclusively without waiting; ``JournalBusy`` if another process holds it."""
    _lock(handle, path, blocking=False)
