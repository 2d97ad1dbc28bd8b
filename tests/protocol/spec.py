"""Formulas of protocol/ written again from the documents, not imported from the code.

The tests of this folder compare what the code computes with these, so a document and the code
cannot drift apart without a test failing.  Each function cites the section it follows.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Sequence
from typing import Any

from tests.wire.refcodec import ref_encode

GAME_RECORD_TAG = b"p2pcards/journal/game\x00"


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def sha256(*parts: bytes) -> bytes:
    return hashlib.sha256(b"".join(parts)).digest()


# ---- GAMES.md §1: the canonical byte form of the games' values ------------------------------------


def canonical(value: Any) -> bytes:
    """GAMES.md §1.2: N, T, F; i + u16 length + decimal; s + u32 length + UTF-8; b + u32 length + bytes;
    l + u32 count + items."""
    if value is None:
        return b"N"
    if value is True:
        return b"T"
    if value is False:
        return b"F"
    if isinstance(value, int):
        digits = str(value).encode("ascii")
        return b"i" + len(digits).to_bytes(2, "big") + digits
    if isinstance(value, str):
        raw = value.encode("utf-8")
        return b"s" + len(raw).to_bytes(4, "big") + raw
    if isinstance(value, bytes):
        return b"b" + len(value).to_bytes(4, "big") + value
    if isinstance(value, (list, tuple)):
        return b"l" + len(value).to_bytes(4, "big") + b"".join(canonical(v) for v in value)
    raise TypeError(type(value).__name__)


def seal_result(hand: int, hand_digest: bytes, standings: Any, over: bool) -> bytes:
    """SPEC §5.7: SHA-256("p2pcards/seal/v1" 00 ‖ canonical([hand, hand digest, standings, over]))."""
    return sha256(b"p2pcards/seal/v1\x00", canonical((hand, hand_digest, standings, over)))


# ---- WIRE.md §6, SPEC §2 and §5.7: heads ------------------------------------------------------------


def initial_head(game_id: bytes) -> bytes:
    return sha256(b"p2pcards/wire/v1/genesis\x00", game_id)


def step_head(prev: bytes, hashes: Sequence[bytes]) -> bytes:
    return sha256(b"p2pcards/wire/v1/head\x00", prev, *hashes)


def seal_head(prev: bytes) -> bytes:
    return sha256(b"p2pcards/wire/v1/seal\x00", prev)


def message_hash(raw: bytes) -> bytes:
    return sha256(b"p2pcards/wire/v1/message\x00", raw)


def game_id(genesis: bytes) -> bytes:
    return sha256(b"p2pcards/genesis/v1\x00", genesis)


# ---- JOURNAL.md ---------------------------------------------------------------------------------


def crc32(data: bytes) -> int:
    """CRC-32/ISO-HDLC, bit by bit (reflected polynomial 0xEDB88320, init and final xor 0xFFFFFFFF)."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def read_journal(data: bytes) -> tuple[bytes | None, list[bytes]]:
    """The game id of the game record (None without one) and the payloads, per JOURNAL.md.  Strict:
    any bad record raises (the kit's journals have no torn tail)."""
    if data[:5] != b"P2PJ\x01":
        raise ValueError("not a version 1 journal")
    offset, records = 5, []
    while offset < len(data):
        length = int.from_bytes(data[offset : offset + 4], "big")
        if not 1 <= length <= 1_048_576:
            raise ValueError(f"impossible length {length} at {offset}")
        payload = data[offset + 4 : offset + 4 + length]
        crc = int.from_bytes(data[offset + 4 + length : offset + 8 + length], "big")
        if len(payload) != length or crc != crc32(payload) or crc != zlib.crc32(payload):
            raise ValueError(f"a bad record at {offset}")
        records.append(payload)
        offset += 8 + length
    first = records[0] if records else b""
    if first.startswith(GAME_RECORD_TAG) and len(first) == len(GAME_RECORD_TAG) + 32:
        return first[len(GAME_RECORD_TAG) :], records[1:]
    return None, records


MAX_RECORD = 1_048_576
SEARCH_BUDGET = 64 * 1024 * 1024


def scan_journal(data: bytes) -> dict[str, Any]:
    """JOURNAL.md §1 and §3, literally: the records up to the first bad one, and what the bad one is
    (a torn tail or damage, at which offset).  No shortcut: every offset after a bad record is tried."""
    if data[:5] != b"P2PJ\x01":
        raise ValueError("not a version 1 journal")
    records: list[bytes] = []
    offset, end = 5, len(data)
    bad: int | None = None
    while offset < end:
        if _intact_at(data, offset) is None:
            bad = offset
            break
        length = int.from_bytes(data[offset : offset + 4], "big")
        records.append(data[offset + 4 : offset + 4 + length])
        offset += 8 + length
    found: dict[str, Any] = {"records": records, "torn": None, "damage": None}
    if bad is None:
        return found
    last_nonzero = len(data.rstrip(b"\0"))
    if last_nonzero - bad > 8 + MAX_RECORD:
        found["damage"] = bad
        return found
    summed = 0
    for k in range(bad + 1, end):
        length = int.from_bytes(data[k : k + 4], "big") if k + 4 <= end else 0
        if not (1 <= length <= MAX_RECORD and k + 8 + length <= end):
            continue
        summed += length
        if summed > SEARCH_BUDGET or _intact_at(data, k) is not None:
            found["damage"] = bad
            return found
    found["torn"] = (bad, end - bad)
    return found


def _intact_at(data: bytes, k: int) -> int | None:
    """The length of the intact record at ``k``, or None (JOURNAL.md §3: a bad record)."""
    if len(data) - k < 4:
        return None
    length = int.from_bytes(data[k : k + 4], "big")
    if not 1 <= length <= MAX_RECORD or k + 8 + length > len(data):
        return None
    crc = int.from_bytes(data[k + 4 + length : k + 8 + length], "big")
    return length if crc == zlib.crc32(data[k + 4 : k + 4 + length]) else None


# ---- SPEC §7.6: the digests a replica reports --------------------------------------------------------


def attempt_digest(start_head: bytes, head: bytes, hand_digest: bytes) -> bytes:
    """SHA-256("p2pcards/attempt/v1" ‖ start head ‖ head ‖ hand digest)."""
    return sha256(b"p2pcards/attempt/v1", start_head, head, hand_digest)


def table_digest(
    finals: Sequence[bytes],
    boundary: bytes | None,
    current: bytes,
    out: Sequence[tuple[int, str]],
    over: bool,
    abandoned: bool,
    stopped: tuple[int, str] | None,
) -> bytes:
    """SHA-256("p2pcards/table/v3" 00 ‖ encode([finals, boundary, current, out, over, abandoned,
    stopped]))."""
    value = [list(finals), boundary, current, [list(o) for o in out], over, abandoned,
             None if stopped is None else list(stopped)]  # fmt: skip
    return sha256(b"p2pcards/table/v3\x00", ref_encode(value))


# ---- SPEC §4: the start head of an attempt --------------------------------------------------------


def change_key(ident: Sequence[Any]) -> tuple[Any, ...]:
    """SPEC §4.2: changes are ordered by kind, then seats, then step, then head (absent: -1, empty)."""
    kind, seats = ident[0], tuple(ident[1])
    step, prev = (ident[2], bytes.fromhex(ident[3])) if len(ident) == 4 else (-1, b"")
    return (kind.encode(), seats, step, prev)


def start_head(boundary: bytes, idents: Sequence[Sequence[Any]]) -> bytes:
    """SPEC §4.2: the boundary head itself without changes, else SHA-256("p2pcards/table/v1/restart" 00
    ‖ boundary ‖ encode([change, ...])) with the changes in their order."""
    if not idents:
        return boundary
    value = [[c[0], list(c[1]), c[2], bytes.fromhex(c[3])] if len(c) == 4 else [c[0], list(c[1])]
             for c in sorted(idents, key=change_key)]  # fmt: skip
    return sha256(b"p2pcards/table/v1/restart\x00", boundary, ref_encode(value))


# ---- SPEC §8: the seeded dealer ---------------------------------------------------------------------

MASK64 = (1 << 64) - 1


class SplitMix64:
    """SPEC §8.1: state += 0x9E3779B97F4A7C15; z = state; z = (z ^ z >> 30) * 0xBF58476D1CE4E5B9;
    z = (z ^ z >> 27) * 0x94D049BB133111EB; output z ^ z >> 31 (all mod 2^64)."""

    def __init__(self, seed: int | str) -> None:
        if isinstance(seed, str):
            seed = int.from_bytes(hashlib.sha256(seed.encode("utf-8")).digest()[:8], "big")
        self.state = seed & MASK64
        self.outputs = 0

    def next64(self) -> int:
        self.outputs += 1
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """SPEC §8.2 (Lemire): m = next64 · n; accept when m mod 2^64 ≥ (2^64 − n) mod n; the draw is
        m >> 64."""
        threshold = ((1 << 64) - n) % n
        while True:
            m = self.next64() * n
            if m & MASK64 >= threshold:
                return m >> 64

    def shuffle(self, items: list[Any]) -> None:
        """SPEC §8.3: Fisher–Yates from the last position down: for i = len−1 … 1, swap i and below(i+1)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def seeded_deck(cards: Sequence[int], seed: int, hand: int) -> list[int]:
    deck = list(cards)
    SplitMix64(f"p2pcards/seeded-deck/{seed}/{hand}").shuffle(deck)
    return deck


def seeded_coin(seed: int, seat: int) -> bytes:
    return sha256(f"p2pcards/seeded-coin/{seed}/{seat}".encode("ascii"))
