"""A seat's secrets of one game, all derived from one master secret.

A seat keeps exactly one secret per game (``master``, 32 bytes, kept before the genesis is signed).
Its coin secret, each hand's deal key and the randomness of every proof are derived from it and from
public data that fixes the statement: the game id, the hand and the head a message follows.  So a seat
restarted from its journal — even from an older copy of it — signs again, for a step it already
signed, exactly the same bytes: it can never equivocate by accident.

Derivation (SHA-256; ``u64`` big-endian):

    key(label, parts…) = SHA-256("p2pcards/secret/" label 00 ‖ master ‖ game_id ‖ parts…)
    coin ρ             = key("coin")
    hand key x         = the first non-zero ``SHA-256(key("hand-key", u64(hand), start head) ‖ u64(i)) mod q``
    a message's source = the stream SHA-256(key("nonce", prev head, kind) ‖ u64(block)), block = 0, 1, …
"""

from __future__ import annotations

import hashlib

from p2pcards.deal import RandomSource
from p2pcards.deal.group import Q

MASTER = "master"
MASTER_SIZE = 32


def _u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


class SeatSecrets:
    """Everything secret a seat derives for one game."""

    def __init__(self, master: bytes, game_id: bytes) -> None:
        if len(master) != MASTER_SIZE:
            raise ValueError(f"a master secret is {MASTER_SIZE} bytes")
        self._master = master
        self._game_id = game_id

    def _key(self, label: str, *parts: bytes) -> bytes:
        h = hashlib.sha256(b"p2pcards/secret/" + label.encode() + b"\x00")
        h.update(self._master)
        h.update(self._game_id)
        for part in parts:
            h.update(part)
        return h.digest()

    def coin(self) -> bytes:
        return self._key("coin")

    def hand_key(self, hand: int, start_head: bytes) -> int:
        seed = self._key("hand-key", _u64(hand), start_head)
        for i in range(1 << 16):
            x = int.from_bytes(hashlib.sha256(seed + _u64(i)).digest(), "big") % Q
            if x:
                return x
        raise AssertionError("no non-zero scalar in 65,536 hashes")

    def source(self, prev: bytes, kind: str) -> RandomSource:
        """The randomness of the message of ``kind`` that follows ``prev``: a deterministic stream."""
        return stream(self._key("nonce", prev, kind.encode()))


def stream(key: bytes) -> RandomSource:
    """A ``RandomSource`` reading SHA-256(key ‖ u64(block)) for block = 0, 1, … in order."""
    buffer = bytearray()
    block = 0

    def source(n: int) -> bytes:
        nonlocal block
        while len(buffer) < n:
            buffer.extend(hashlib.sha256(key + _u64(block)).digest())
            block += 1
        data = bytes(buffer[:n])
        del buffer[:n]
        return data

    return source
