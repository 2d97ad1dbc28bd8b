"""The append-only journal of one game: every accepted message, in the order it was accepted.

File format (version 1), all integers big-endian::

    header   b"P2PJ" (4 bytes) ‖ version (1 byte, = 1)
    record   the game record: b"p2pcards/journal/game\x00" ‖ the game id (32 bytes)
    record   length (u32) ‖ payload (length bytes) ‖ CRC-32 of the payload (u32, zlib/IEEE)
    record   ...

The game record names the game the journal belongs to: opening a journal for another game is
refused as a whole (``ForeignJournal``), before any of its messages is read, and so is a journal
whose first record is not a game record (``require_game``: ``NotAJournal``).  It is a record like
the others (so a torn or damaged one is found the same way) and never a payload: no signed message
starts with its tag.

A journal that never received a payload is not a game: ``close`` removes it again (so Ctrl-C
during a game's start-up leaves nothing behind), and a journal left that way by a killed process
is recognised by its size (``is_empty``) and skipped by whoever lists the saved games.

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
it (so cutting it off loses nothing that was ever complete; ``_torn_tail`` says exactly how intact
records are looked for, as ``protocol/JOURNAL.md`` §3 does); it is then reported (``Scan.torn``),
ignored by readers, and cut off when the journal is next opened for appending.  A bad record with
an intact one after it is damage, not a crash: ``JournalCorrupt`` names its offset and nothing is
repaired.  One process at a time may append (an advisory lock on the file).
"""

from __future__ import annotations

import logging
import os
import struct
import weakref
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from p2pcards import wire

from .errors import ForeignJournal, JournalCorrupt, NotAJournal, StoreError
from .files import atomic_create, try_lock

log = logging.getLogger(__name__)

MAGIC = b"P2PJ"
VERSION = 1
HEADER = MAGIC + bytes([VERSION])
_U32 = struct.Struct(">I")
OVERHEAD = 2 * _U32.size
GAME_TAG = b"p2pcards/journal/game\x00"
GAME_ID_SIZE = 32
GAME_RECORD_SIZE = len(HEADER) + OVERHEAD + len(GAME_TAG) + GAME_ID_SIZE
"""The size of a journal that holds its header and game record and nothing else."""
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
    game_id: bytes | None = None
    """The game the journal's game record names (None for a journal written without one)."""


def encode_record(payload: bytes) -> bytes:
    if not 1 <= len(payload) <= MAX_RECORD:
        raise ValueError(f"a journal record holds 1 to {MAX_RECORD} bytes, not {len(payload)}")
    return _U32.pack(len(payload)) + payload + _U32.pack(zlib.crc32(payload))


def game_record(game_id: bytes) -> bytes:
    """The payload of the record that names a journal's game."""
    if len(game_id) != GAME_ID_SIZE:
        raise ValueError(f"a game id is {GAME_ID_SIZE} bytes, not {len(game_id)}")
    return GAME_TAG + game_id


def header(game_id: bytes | None) -> bytes:
    """The start of a new journal: the header, and the game record when the game is known."""
    return HEADER if game_id is None else HEADER + encode_record(game_record(game_id))


def is_empty(path: Path | str) -> bool:
    """True for a journal file that holds no message (a game that never got past its start-up).
    Decided from the file's size alone, so listing many saved games reads none of them."""
    try:
        size = Path(path).stat().st_size
    except OSError:
        return False
    return size in (len(HEADER), GAME_RECORD_SIZE)


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
            try:
                torn = _torn_tail(data, offset, problem, path)
            except JournalCorrupt as exc:
                exc.before = _scan(payloads, offset, None)  # what a reader may still check, and fail
                raise
            return _scan(payloads, offset, torn)
        length = _U32.unpack_from(view, offset)[0]
        payloads.append(bytes(view[offset + _U32.size : offset + _U32.size + length]))
        offset += OVERHEAD + length
    return _scan(payloads, offset, None)


def _game_of(records: list[bytes]) -> tuple[list[bytes], bytes | None]:
    """The messages of a journal's records, and its game id (from its game record, if it has one)."""
    first = records[0] if records else b""
    if first.startswith(GAME_TAG) and len(first) == len(GAME_TAG) + GAME_ID_SIZE:
        return records[1:], first[len(GAME_TAG) :]
    return records, None


def _scan(records: list[bytes], end: int, torn: TornTail | None) -> Scan:
    payloads, game_id = _game_of(records)
    return Scan(payloads, end, torn, game_id)


def require_game(scan: Scan, path: Path | str) -> bytes:
    """The game the journal's game record names; ``NotAJournal`` if its first record is not one (a
    journal names its game first, JOURNAL.md §1: one without is refused, whatever follows)."""
    if scan.game_id is not None:
        return scan.game_id
    if not scan.payloads:
        raise NotAJournal(path, "the journal is empty: it holds no record, not even the game record")
    raise NotAJournal(
        path,
        "its first record is not the game record (the tag p2pcards/journal/game and the game id) "
        "that every journal starts with; it is refused as a whole",
    )


def transport_kind(payload: bytes) -> str:
    """The kind of the transport message ``payload`` holds ("" for any other record): a reader never
    acts on one found in a journal (JOURNAL.md §2)."""
    try:
        kind = wire.SignedMessage.from_bytes(payload).kind
    except wire.WireError:
        return ""
    return kind if kind in wire.TRANSPORT_KINDS else ""


def check_game(scan: Scan, game_id: bytes, path: Path | str) -> None:
    """``ForeignJournal`` unless the journal ``scan`` belongs to ``game_id``; ``NotAJournal`` if it
    holds records but names no game.  A journal with no record at all is anybody's (``Journal.open``
    then writes the game record)."""
    if scan.game_id is None and not scan.payloads:
        return
    found = require_game(scan, path)
    if found != game_id:
        raise ForeignJournal(
            path,
            f"this journal belongs to game {found.hex()[:12]}, not to game {game_id.hex()[:12]}; "
            "it is refused as a whole (was the file copied into the wrong game's directory?)",
        )


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
        # Every offset after the bad record is a candidate, lowest first.  A record's length is at
        # most MAX_RECORD, below 2**24: its first byte is zero, so only zero bytes can start one (and
        # one starting in the trailing zeros has length 0).
        k = data.find(b"\0", k + 1, stop)
        if k < 0:
            break
        length = _U32.unpack_from(view, k)[0]
        if not 1 <= length <= min(MAX_RECORD, len(data) - k - OVERHEAD):
            continue
        hashed += length
        if hashed > _SEARCH_BUDGET:
            raise JournalCorrupt(path, offset, f"{reason}, and what follows cannot be told from damage")
        if _check_record(view, k) is None:
            raise JournalCorrupt(path, offset, f"{reason}, and an intact record follows at offset {k}")
    return TornTail(offset, len(data) - offset, reason)


def _remove_if_empty(path: Path, handle: IO[bytes], created: bool) -> None:
    """Close ``handle``; remove the journal too if this process created it and it holds no message
    (the unlink comes first, while the lock still keeps every other process out)."""
    if handle.closed:
        return
    try:
        if created and is_empty(path):
            path.unlink(missing_ok=True)
    except OSError as exc:  # a journal that cannot be removed is only a leftover, skipped when listing
        log.warning("%s: cannot remove the empty journal: %s", path, exc)
    finally:
        handle.close()


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

    def __init__(self, path: Path, handle: IO[bytes], scan: Scan, *, created: bool = False) -> None:
        self.path = path
        self._handle = handle
        self._fd = handle.fileno()
        self._end = scan.end
        self._count = len(scan.payloads)
        self.game_id = scan.game_id
        self.repaired = scan.torn
        """The torn tail cut off when the journal was opened, if there was one."""
        self._broken: str | None = None
        self._created = created
        # A journal created here and never written to is removed however this process ends
        # (closed, an exception, Ctrl-C): an empty journal is not a game to list or resume.
        self._finalizer = weakref.finalize(self, _remove_if_empty, path, handle, created)

    @classmethod
    def open(cls, path: Path | str, *, game_id: bytes | None = None, create: bool = True) -> Journal:
        """Open (creating it if ``create``) for appending: lock it, read it, cut off a torn tail.

        With ``game_id``, a new journal names that game in its game record, and an existing one
        that belongs to another game is refused as a whole (``ForeignJournal``)."""
        path = Path(path)
        created = False
        if create and not path.exists() and atomic_create(path, header(game_id), mode=0o600):
            log.info("created journal %s", path)
            created = True
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
            if game_id is not None:
                check_game(scan, game_id, path)
            if scan.torn is not None:
                log.warning("%s: %s; cutting it off", path, scan.torn)
                os.ftruncate(handle.fileno(), scan.end)
                os.fsync(handle.fileno())
            if game_id is not None and scan.game_id is None:
                # No record at all: the game record comes first, before any message.
                record = encode_record(game_record(game_id))
                os.lseek(handle.fileno(), scan.end, os.SEEK_SET)
                os.write(handle.fileno(), record)
                os.fsync(handle.fileno())
                scan = Scan([], scan.end + len(record), None, game_id)
            return cls(path, handle, scan, created=created)
        except BaseException:
            handle.close()
            if created:
                path.unlink(missing_ok=True)
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
        self._finalizer.detach()  # a journal with a message is a game: it stays

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
        """Every message, in order, for a replica to resume from: a record holding a transport message
        (never journaled, JOURNAL.md §2: only a hand-made journal has one) is left out, not acted on."""
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
        kept = []
        for payload in parse(data, self.path).payloads:
            kind = transport_kind(payload)
            if kind:
                log.warning("%s: a %s is never journaled; it is left out", self.path, kind)
            else:
                kept.append(payload)
        return kept

    def close(self) -> None:
        """Close (releasing the lock).  Records appended without ``flush`` are not fsynced here: the
        next fsync (or the operating system) takes care of them.  A journal this process created
        and never wrote a message to is removed."""
        if self._finalizer.alive:
            self._finalizer()
        else:
            self._handle.close()

    @property
    def empty(self) -> bool:
        """No message has been appended (nor was there one when it was opened)."""
        return self._count == 0

    @property
    def closed(self) -> bool:
        return self._handle.closed

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
