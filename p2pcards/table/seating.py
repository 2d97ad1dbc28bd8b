"""Who plays each hand: the changes verdicts and returns make to the seating, and the head they start from.

A hand is played by an *attempt*: its seating and the head its first step follows.  The first attempt
at hand ``k`` starts from the head ``S_k`` that the previous hand's seal made.  When a verdict voids an
attempt (a cheater named, seats voted silent) the hand is dealt again from ``S_k`` with the verdict
added to its *changes*; a seat voted out that the others admit back is a change too.  The head of an
attempt is a pure function of ``S_k`` and the set of its changes, so every replica that knows the same
verdicts plays the same attempt, whatever order it learnt them in:

    start(S_k, {})      = S_k
    start(S_k, changes) = SHA-256(RESTART_TAG ‖ S_k ‖ encode(sorted change ids))
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from p2pcards.wire import encode

RESTART_TAG: Final = b"p2pcards/table/v1/restart\x00"

CHEAT: Final = "cheat"
SILENT: Final = "silent"
UNCONFIRMED: Final = "unconfirmed"
RETURN: Final = "return"
GONE: Final = (SILENT, UNCONFIRMED)
"""The changes that deal seats out for having gone quiet (as opposed to cheating)."""


@dataclass(frozen=True, order=True)
class Change:
    """One change to the seating of a hand.

    * ``cheat``: ``seats`` (one seat) proved a cheater; it takes no further part in the match.
    * ``silent``: ``seats`` voted silent at ``step`` (after head ``prev``) by more than half of the
      voices; out until admitted back.
    * ``unconfirmed``: the voice of this replica went on without ``seats`` at ``step`` by its own
      abandon, half the table or fewer: binding on nobody named; out until admitted back.
    * ``return``: ``seats`` (one seat, voted out before) admitted back by the others.
    """

    kind: str
    seats: tuple[int, ...]
    step: int = -1
    prev: bytes = b""

    def ident(self) -> list[Any]:
        if self.kind in GONE:
            return [self.kind, list(self.seats), self.step, self.prev]
        return [self.kind, list(self.seats)]


def start_head(boundary_head: bytes, changes: Iterable[Change]) -> bytes:
    ordered = sorted(set(changes))
    if not ordered:
        return boundary_head
    return hashlib.sha256(RESTART_TAG + boundary_head + encode([c.ident() for c in ordered])).digest()
