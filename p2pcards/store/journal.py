"""The append-only journal of one game: every accepted message, in the order it was accepted.

File format (version 1), all integers big-endian::

    header   b"P2PJ" (4 bytes) ‖ version (1 byte, = 1)
    record   length (u32) ‖ payload (length bytes) ‖ CRC-32 of the payload (u32, zlib/IEEE)
    record   ...

A payload is a signed message exactly as received (``wire.SignedMessage.data``); the journal itself
is payload-agnostic.  A payload is 1 to ``MAX_RECORD`` bytes: a zero length never occurs, which
matters because a crash can leave zeros at the end of a file.

Each record is written with a single ``write`` straight to the operating system (no buffering in
this process), so killing the process loses nothing already appended; ``append(..., flush=True)``
also fsyncs, so a power cut loses nothing the peer itself has said (it journals its own messages
before sending them, and those of others with ``flush=False``).

Reading: a crash in the middle of an append can leave a *torn tail* at the end of the file: a
prefix of one record (part of its length, of its payload or of its CRC), a last record whose CRC
does not match, zeros.  A bad record is taken for a torn tail exactly when no intact record follows
it (so cutting it off loses nothing that was ever complete); it is then reported (``Scan.torn``),
ignored by readers, and cut off when the journal is next opened for appending.  A bad record with
an intact one after it is damage, not a crash: ``JournalCorrupt`` names its offset and nothing is
repaired.  One process at a time may append (an advisory lock on the file).
"""

from __future__ import annotations

import logging
import os
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from p2pcards import wire

from .errors import JournalCorrupt, NotAJournal, StoreError
from .files import atomic_create, try_lock

log = logging.getLogger(__name__)

MAGIC = b"P2PJ"
VERSION = 1
HEADER = MAGIC + bytes([VERSION])
_U32 = struct.Struct(">I")
OVERHEAD = 2 * _U32.size
MAX_RECORD = wire.MAX_MESSAGE_SIZE
assert MAX_RECORD < 1 << 24  # relied on when looking for intact records after a bad one
"""The largest payload: the largest message the wire allows.  Bounding it means a damaged length
field can never make a reader allocate more than this, nor pass more than this for a torn tail."""


@dataclass(frozen=True)
class TornTail:
    """An incomplete last record, left by a crash mid-append."""

    offset: int
    """Where it starts: the length of the journal's intact part."""
    size: int
    """How many bytes it spans, to the end of the file."""
    reason: str

    def __str__(self) -> str:
        return (
            f"the last {self.size} bytes (from offset {self.offset}) are an incomplete record, "
            f"as a crash mid-write leaves ({self.reason})"
        )


@dataclass(frozen=True)
class Scan:
    """What a journal holds: its complete records and, if any, the torn tail after them."""

    payloads: list[bytes]
    end: int
    """The offset just past the last complete record."""
    torn: TornTail | None


def encode_record(payload: bytes) -> bytes:
    if not 1 <= len(payload) <= MAX_RECORD:
        raise ValueError(f"a journal record holds 1 to {MAX_RECORD} bytes, not {len(payload)}")
    return _U32.pack(len(payload)) + payload + _U32.pack(zlib.crc32(payload))


def parse(data: bytes, path: Path | str = "<journal>") -> Scan:
    """Parse a whole journal file's content.  ``NotAJournal`` / ``JournalCorrupt`` on damage that a
    crash cannot explain; a torn tail is returned, not raised."""
    if data[: len(MAGIC)] != MAGIC or len(data) < len(HEADER):
        raise NotAJournal(path, "not a p2pcards journal (it does not start with the P2PJ header)")
    if data[len(MAGIC)] != VERSION:
        raise NotAJournal(
            path, f"journal format version {data[len(MAGIC)]}; this program reads version {VERSION}"
        )
    view = memoryview(data)
    payloads: list[bytes] = []
    offset = len(HEADER)
    while offset < len(data):
        problem = _check_record(view, offset)
        if problem is not None:
            return Scan(payloads, offset, _torn_tail(data, offset, problem, path))
        length = _U32.unpack_from(view, offset)[0]
        payloads.append(bytes(view[offset + _U32.size : offset + _U32.size + length]))
        offset += OVERHEAD + length
    return Scan(payloads, offset, None)


def _check_record(view: memoryview, offset: int) -> str | None:
    """None if a sound record starts at ``offset``, else why not."""
    remaining = len(view) - offset
    if remaining < _U32.size:
        return f"{remaining} of the 4 bytes of a length"
    length = _U32.unpack_from(view, offset)[0]
    if not 1 <= length <= MAX_RECORD:
        return f"impossible length {length}"
    if remaining < OVERHEAD + length:
        return f"a record cut short: {remaining} of its {OVERHEAD + length} bytes present"
    payload = view[offset + _U32.size : offset + _U32.size + length]
    if zlib.crc32(payload) != _U32.unpack_from(view, offset + _U32.size + length)[0]:
        return "its CRC does not match"
    return None


def _torn_tail(data: bytes, offset: int, reason: str, path: Path | str) -> TornTail:
    """The bad record at ``offset`` as a torn tail, or ``JournalCorrupt`` if a crash cannot explain it.

    One interrupted append leaves a prefix of one record, possibly followed by zeros (a file system
    may extend a file before its data reaches the disk).  So the bad record is a torn tail exactly
    when no sound record follows it: cutting it off then loses nothing that was ever complete.  If a
    sound record does follow (a damaged length field swallowing intact records, a flipped bit in
    the middle), the journal is corrupt and nothing may be cut."""
    meaningful = len(data.rstrip(b"\0")) - offset
    if meaningful > OVERHEAD + MAX_RECORD:
        raise JournalCorrupt(path, offset, f"{reason}, and more follows than one interrupted write leaves")
    view = memoryview(data)
    hashed = 0
    stop = min(offset + meaningful, len(data) - OVERHEAD)
    k = offset
    while True:
        # A length that fits in what follows is below 2**24 (MAX_RECORD is far smaller): its first
        # byte is zero, so only zero bytes can start a record.
        k = data.find(b"\0", k + 1, stop)
        if k < 0:
            break
        length = _U32.unpack_from(view, k)[0]
        if not 1 <= length <= len(data) - k - OVERHEAD:
            continue
        hashed += length
        if hashed > _SEARCH_BUDGET:
            raise JournalCorrupt(path, offset, f"{reason}, and what follows cannot be told from damage")
        if _check_record(view, k) is None:
            raise JournalCorrupt(path, offset, f"{reason}, and an intact record follows at offset {k}")
    return TornTail(offset, len(data) - offset, reason)


_SEARCH_BUDGET = 64 * 1024 * 1024
"""Bytes checksummed at most while looking for intact records after a bad one (bounds the time)."""


def read(path: Path | str) -> Scan:
    """Read a journal without opening it for writing (what ``p2pcards verify`` does).

    The file is read whole: a journal is small (about 100 KB for a hand of Durak or Spades).
    ``FileNotFoundError`` if missing; ``StoreError`` if it cannot be read; see ``parse``."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        raise
    except OSError as exc:
        raise StoreError(path, f"cannot read the journal: {exc.strerror or exc}") from exc
    return parse(data, path)


class Journal:
    """A journal open for appending.  Use ``Journal.open(path)``; close it (or use ``with``)."""

    def __init__(self, path: Path, handle: IO[bytes], scan: Scan) -> None:
        self.path = path
        self._handle = handle
        self._fd = handle.fileno()
        self._end = scan.end
        self._count = len(scan.payloads)
        self.repaired = scan.torn
        """The torn tail cut off when the journal was opened, if there was one."""
        self._broken: str | None = None

    @classmethod
    def open(cls, path: Path | str, *, create: bool = True) -> Journal:
        """Open (creating it if ``create``) for appending: lock it, read it, cut off a torn tail."""
        path = Path(path)
        if create and not path.exists() and atomic_create(path, HEADER, mode=0o600):
            log.info("created journal %s", path)
        try:
            # Kept open for the journal's lifetime (closed by ``close``), hence no ``with``.
            handle = open(path, "r+b", buffering=0)  # noqa: SIM115
        except FileNotFoundError:
            raise
        except OSError as exc:
            raise StoreError(path, f"cannot open the journal: {exc.strerror or exc}") from exc
        try:
            try_lock(handle, path)
            scan = parse(handle.read(), path)
            if scan.torn is not None:
                log.warning("%s: %s; cutting it off", path, scan.torn)
                os.ftruncate(handle.fileno(), scan.end)
                os.fsync(handle.fileno())
            return cls(path, handle, scan)
        except BaseException:
            handle.close()
            raise

    def __len__(self) -> int:
        """The number of records."""
        return self._count

    @property
    def size(self) -> int:
        return self._end

    def append(self, payload: bytes, *, flush: bool) -> None:
        """Append one record.  ``flush``: also fsync before returning (durable across a power cut).

        If the write fails (disk full), the partial record is cut off again, so the journal stays
        sound; ``StoreError`` says why."""
        if self._broken is not None:
            raise StoreError(self.path, f"the journal cannot be written any more: {self._broken}")
        record = encode_record(payload)
        try:
            os.lseek(self._fd, self._end, os.SEEK_SET)
            view = memoryview(record)
            while view:
                view = view[os.write(self._fd, view) :]
            if flush:
                os.fsync(self._fd)
        except OSError as exc:
            self._undo(exc)
            raise StoreError(self.path, f"cannot append to the journal: {exc.strerror or exc}") from exc
        self._end += len(record)
        self._count += 1

    def _undo(self, exc: OSError) -> None:
        try:
            os.ftruncate(self._fd, self._end)
        except OSError as again:
            # Appending after a partial record would bury it in the middle: refuse from now on.
            self._broken = f"a failed write ({exc}) could not be undone ({again})"

    def flush(self) -> None:
        """Make everything appended so far durable."""
        os.fsync(self._fd)

    def payloads(self) -> list[bytes]:
        """Every record, in order."""
        os.lseek(self._fd, 0, os.SEEK_SET)
        chunks: list[bytes] = []
        remaining = self._end
        while remaining > 0:
            chunk = os.read(self._fd, remaining)
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        data = b"".join(chunks)
        return parse(data, self.path).payloads

    def close(self) -> None:
        """Close (releasing the lock).  Records appended without ``flush`` are not fsynced here: the
        next fsync (or the operating system) takes care of them."""
        self._handle.close()

    @property
    def closed(self) -> bool:
        return self._handle.closed

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
