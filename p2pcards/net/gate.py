"""Bounds on connections that have not yet proved who they are, shared by the lobby and the game port.

A connection costs a file descriptor and a few buffers from the moment it is accepted, and before
its handshake ends nothing is known of it but its address.  A ``Gate`` holds those connections:

- at most ``per_address`` from one address: a newcomer beyond that is refused (an address that
  floods only delays itself);
- at most ``slots`` in all: when they are full, the **oldest** one gives way to the newcomer.  A
  real peer sends its hello as soon as it connects and is through in one round trip, so what lingers
  longest is what stalls; stalled sockets therefore cannot keep anyone out, however many there are.

Each admitted connection gets a ``Pass`` whose cancel scope the connection's task runs inside; giving
way cancels it.  All bookkeeping is synchronous (one trio thread), so it never races.
"""

from __future__ import annotations

import collections
from typing import Final

import trio

GAVE_WAY: Final = "gave way to a newer connection (too many connections still in their handshake)"


class Pass:
    """One connection's place in a ``Gate``: run the handshake inside ``scope``; ``leave()`` after."""

    def __init__(self, gate: Gate, address: str, number: int) -> None:
        self.gate = gate
        self.address = address
        self.number = number
        self.scope = trio.CancelScope()
        self.evicted = False

    def leave(self) -> None:
        self.gate._leave(self)

    def evict(self) -> None:
        """Give way: cancel the connection's task and free the place at once."""
        self.evicted = True
        self.scope.cancel()
        self.gate._leave(self)


class Gate:
    def __init__(self, slots: int, per_address: int) -> None:
        if slots < 1 or per_address < 1:
            raise ValueError("a gate has at least one slot, and one per address")
        self.slots = slots
        self.per_address = per_address
        self._held: collections.OrderedDict[int, Pass] = collections.OrderedDict()
        self._by_address: collections.Counter[str] = collections.Counter()
        self._next = 0
        self.refused = 0
        """Newcomers refused so far because their address held ``per_address`` places."""
        self.evicted = 0
        """Connections that gave way so far."""

    def __len__(self) -> int:
        return len(self._held)

    def held_by(self, address: str) -> int:
        return self._by_address[address]

    def enter(self, address: str) -> Pass | None:
        """A place for a new connection from ``address``, or None if that address holds enough."""
        if self._by_address[address] >= self.per_address:
            self.refused += 1
            return None
        while len(self._held) >= self.slots:
            _, oldest = next(iter(self._held.items()))
            oldest.evict()
            self.evicted += 1
        self._next += 1
        admitted = Pass(self, address, self._next)
        self._held[admitted.number] = admitted
        self._by_address[address] += 1
        return admitted

    def _leave(self, place: Pass) -> None:
        if self._held.pop(place.number, None) is not None:
            self._by_address[place.address] -= 1
            if self._by_address[place.address] <= 0:
                del self._by_address[place.address]


__all__ = ["GAVE_WAY", "Gate", "Pass"]
