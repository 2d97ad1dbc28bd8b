"""What a table asks its shell to do, and what it tells the user interface.

A shell (the LAN node, the simulated network) carries out the outputs of each call *in order*:
``Persist``/``KeepSecret`` before the ``Send`` that follows them, so nothing a peer has said or
accepted is lost if it is killed between two outputs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pcards.games import AuditResult, HandState, View


@dataclass(frozen=True)
class Send:
    """Send a frame payload (a signed message, verbatim) to one peer (``to``) or to every peer."""

    payload: bytes
    to: int | None = None


@dataclass(frozen=True)
class Persist:
    """Append an accepted message to the game's journal (flush it to disk if ``own``) before going on."""

    payload: bytes
    own: bool = False


@dataclass(frozen=True)
class KeepSecret:
    """Keep this seat's secret for a hand (owner-only file) before any message that depends on it."""

    label: str
    """``coin`` (the first-dealer coin) or ``hand N`` (that hand's deal key)."""
    secret: bytes


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class StateChanged:
    """The hand moved on: a step was applied."""

    step: int
    digest: bytes


@dataclass(frozen=True)
class YourTurn:
    """This seat must choose an action; ``view`` is all it may know."""

    hand: int
    view: View


@dataclass(frozen=True)
class Waiting:
    """The table waits for these seats (since the local time ``since`` given by ``tick``)."""

    step: int
    seats: tuple[int, ...]
    since: int


@dataclass(frozen=True)
class Rejected:
    """A frame was refused and nothing else was affected (a stale, foreign or malformed frame)."""

    peer: int | None
    reason: str
    detail: str = ""


@dataclass(frozen=True)
class HandOver:
    """A hand ended and was audited; ``state`` is its final (full-information where audited) state."""

    hand: int
    state: HandState
    audit: AuditResult
    summary: str


@dataclass(frozen=True)
class MatchOver:
    summary: str


@dataclass(frozen=True)
class Fault:
    """A seat broke the protocol or the rules.  Every honest replica reaches the same verdict from the
    same log: the hand is void, the seat named, the match stopped; ``evidence`` is what proves it.
    ``seat`` is -1 only where no seat can be blamed (a deal that does not fit its hand)."""

    seat: int
    step: int
    kind: str
    """equivocation | bad-message | illegal-action | renege | silent"""
    message: str
    evidence: tuple[bytes, ...] = field(default=(), repr=False)

    def describe(self) -> str:
        return f"seat {self.seat} at fault ({self.kind}) at step {self.step}: {self.message}"


Output = (
    Send | Persist | KeepSecret | StateChanged | YourTurn | Waiting | Rejected | HandOver | MatchOver | Fault
)
Event = StateChanged | YourTurn | Waiting | Rejected | HandOver | MatchOver | Fault

__all__ = [
    "Event",
    "Fault",
    "HandOver",
    "KeepSecret",
    "MatchOver",
    "Output",
    "Persist",
    "Rejected",
    "Send",
    "StateChanged",
    "Waiting",
    "YourTurn",
]
