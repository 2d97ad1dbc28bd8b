"""Where a seat keeps what its table asks it to keep: its journal and its secrets.

A shell carries a table's outputs out with ``p2pcards.room`` (journal, keep secrets, then send, in
order: invariant 5); what it keeps goes to an ``Effects`` — a ``GameStore`` on disk, or a
``MemoryStore`` for simulations and tests.  The store may import only ``wire``, so it knows nothing
of the table's outputs: the room matches them by type and calls ``persist`` and ``keep``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


class Effects(Protocol):
    """Where a shell keeps what the table asks it to keep (a ``GameStore``, a ``MemoryStore``)."""

    def persist(self, payload: bytes, own: bool) -> None: ...

    def keep(self, label: str, secret: bytes) -> None: ...


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
