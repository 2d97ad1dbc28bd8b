"""Messages a replica cannot place yet: signed, checked, but for a step or a head it has not reached.

A peer that is ahead of us (or a restarted one catching up) sends messages for steps we have not
reached, after heads we do not know yet.  They are kept, within a byte budget per sending peer —
the oldest dropped first — and taken as soon as they fit.  Held messages are indexed by the head
they follow, so taking the ones that fit a step costs the number taken, never a scan of them all:
a flood of held messages cannot make every later frame cost more.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

from p2pcards.wire import CERTIFICATE_KINDS, SignedMessage

Peer = int | None


class Unplaced:
    def __init__(self, budget: int) -> None:
        """``budget``: bytes held per sending peer.  Messages of no peer (``None``: a journal being
        replayed, already in memory whole) are held without a limit: a journal in any order restores."""
        self.budget = budget
        self._order: dict[Peer, OrderedDict[bytes, SignedMessage]] = {}
        """Per peer, its held messages by payload hash, oldest first (to drop the oldest)."""
        self._bytes: dict[Peer, int] = {}
        self._by_prev: dict[bytes, dict[bytes, tuple[Peer, SignedMessage]]] = {}
        self._count = 0

    def hold(self, peer: Peer, msg: SignedMessage) -> bool:
        """Keep ``msg`` from ``peer``; False if it was held already or is larger than the budget."""
        held = self._order.setdefault(peer, OrderedDict())
        fingerprint = hashlib.sha256(msg.data).digest()
        limited = peer is not None
        if fingerprint in held or (limited and len(msg.data) > self.budget):
            return False
        held[fingerprint] = msg
        self._by_prev.setdefault(msg.prev, {})[fingerprint] = (peer, msg)
        self._bytes[peer] = self._bytes.get(peer, 0) + len(msg.data)
        self._count += 1
        while limited and self._bytes[peer] > self.budget:
            dropped, old = held.popitem(last=False)
            self._forget(peer, dropped, old)
        return True

    def _forget(self, peer: Peer, fingerprint: bytes, msg: SignedMessage) -> None:
        self._bytes[peer] -= len(msg.data)
        self._count -= 1
        following = self._by_prev.get(msg.prev)
        if following is not None:
            following.pop(fingerprint, None)
            if not following:
                del self._by_prev[msg.prev]

    def take(
        self, prev: bytes, step: int | None = None, *, certificates: bool = False
    ) -> list[tuple[Peer, SignedMessage]]:
        """The held messages that follow head ``prev`` (at ``step``, if given; only certificates, if
        ``certificates``), removed from the buffer."""
        following = self._by_prev.get(prev)
        if not following:
            return []
        taken = []
        for fingerprint, (peer, msg) in list(following.items()):
            if step is not None and msg.step != step:
                continue
            if certificates and msg.kind not in CERTIFICATE_KINDS:
                continue
            del self._order[peer][fingerprint]
            self._forget(peer, fingerprint, msg)
            taken.append((peer, msg))
        return taken

    def follows(self, head: bytes) -> bool:
        """Whether some held message follows ``head``."""
        return head in self._by_prev

    def senders(self, head: bytes) -> set[int]:
        """The seats that signed some held message following ``head``."""
        return {msg.seat for _, msg in self._by_prev.get(head, {}).values()}

    def bytes_of(self, peer: Peer) -> int:
        return self._bytes.get(peer, 0)

    def count(self) -> int:
        return self._count
