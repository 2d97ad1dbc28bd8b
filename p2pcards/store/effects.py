"""Carrying out what a table asks for: journal, keep secrets, send -- in order.

A ``Table`` returns a list of outputs; a shell (the LAN node, the simulated network) must perform
``Persist`` and ``KeepSecret`` *before* the ``Send`` that follows them (invariant 5: a peer writes
what it accepted before acting on it, its own messages before sending them).  ``carry_out`` does
exactly that and hands back the rest (the events for the user interface), in order.

The store may import only ``wire``, not ``table``, so the outputs are recognised by their fields
rather than their classes: ``Persist(payload, own)``, ``KeepSecret(label, secret)``, ``Send(payload,
to)``; anything else is an event.  ``tests/store/test_effects.py`` pins this against the table's
real output classes, so a renamed field cannot slip by.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

T = TypeVar("T")

SendFn = Callable[[bytes, int | None], None]
"""``send(payload, to)``: ``to`` is a seat, or None for every peer."""


class Effects(Protocol):
    """Where a shell keeps what the table asks it to keep (a ``GameStore``, a ``MemoryStore``)."""

    def persist(self, payload: bytes, own: bool) -> None: ...

    def keep(self, label: str, secret: bytes) -> None: ...


def carry_out(outputs: Iterable[T], store: Effects, send: SendFn) -> list[T]:
    """Perform the outputs in order; return the others (events), in order.

    If persisting fails, the exception propagates and nothing after it is sent: a message that was
    not journalled must not leave this peer."""
    events: list[T] = []
    for o in outputs:
        if hasattr(o, "own") and hasattr(o, "payload"):
            store.persist(o.payload, bool(o.own))
        elif hasattr(o, "label") and hasattr(o, "secret"):
            store.keep(o.label, o.secret)
        elif hasattr(o, "to") and hasattr(o, "payload"):
            send(o.payload, o.to)
        else:
            events.append(o)
    return events


@dataclass
class MemoryStore:
    """An ``Effects`` in memory, for simulations and tests.  ``durable`` counts the records that an
    fsync would have made safe (up to and including the last own message), so a simulated power
    cut can drop the rest."""

    journal: list[bytes] = field(default_factory=list)
    kept: dict[str, bytes] = field(default_factory=dict)
    durable: int = 0

    def persist(self, payload: bytes, own: bool) -> None:
        self.journal.append(payload)
        if own:
            self.durable = len(self.journal)

    def keep(self, label: str, secret: bytes) -> None:
        held = self.kept.get(label)
        if held is not None and held != secret:
            raise ValueError(f"refusing to replace the secret {label!r} with a different one")
        self.kept[label] = secret

    def payloads(self) -> list[bytes]:
        return list(self.journal)

    def secrets(self) -> dict[str, bytes]:
        return dict(self.kept)
