"""Messages a replica cannot place yet: signed, checked, but for a step or a head it has not reached.

A peer that is ahead of us (or a restarted one catching up) sends messages for steps we have not
reached, after heads we do not know yet.  They are kept, within a byte budget per sending peer —
the oldest dropped first — and taken as soon as they fit.  Nothing here decides what fits: the
replica asks for the messages that do.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable

from p2pcards.wire import SignedMessage

Peer = int | None


class Unplaced:
    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._held: dict[Peer, OrderedDict[bytes, SignedMessage]] = {}
        self._bytes: dict[Peer, int] = {}
        self._version = 0
        self._heads_version = -1
        self._heads_step = -1
        self._heads: set[bytes] = set()

    def hold(self, peer: Peer, msg: SignedMessage) -> bool:
        """Keep ``msg`` from ``peer``; False if it was held already or is larger than the budget."""
        held = self._held.setdefault(peer, OrderedDict())
        fingerprint = hashlib.sha256(msg.data).digest()
        if fingerprint in held or len(msg.data) > self.budget:
            return False
        held[fingerprint] = msg
        self._bytes[peer] = self._bytes.get(peer, 0) + len(msg.data)
        self._version += 1
        while self._bytes[peer] > self.budget:
            _, dropped = held.popitem(last=False)
            self._bytes[peer] -= len(dropped.data)
        return True

    def take(self, fits: Callable[[SignedMessage], bool]) -> list[tuple[Peer, SignedMessage]]:
        """Every held message that ``fits`` now, removed from the buffer, oldest first per peer."""
        taken = []
        for peer, held in self._held.items():
            for fingerprint, msg in list(held.items()):
                if fits(msg):
                    del held[fingerprint]
                    self._bytes[peer] -= len(msg.data)
                    self._version += 1
                    taken.append((peer, msg))
        return taken

    def heads_at(self, step: int) -> set[bytes]:
        """The heads that held messages for ``step`` follow (cached until the buffer changes)."""
        if self._heads_version != self._version or self._heads_step != step:
            self._heads_version, self._heads_step = self._version, step
            self._heads = {m.prev for held in self._held.values() for m in held.values() if m.step == step}
        return self._heads

    def bytes_of(self, peer: Peer) -> int:
        return self._bytes.get(peer, 0)

    def count(self) -> int:
        return sum(len(held) for held in self._held.values())
