"""What a table asks its shell to do, and what it tells the user interface.

A shell (the LAN node, the simulated network, the offline room) carries out the outputs of each call
*in order*: ``Persist``/``KeepSecret`` before the ``Send`` that follows them, so nothing a peer has
said or accepted is lost if it is killed between two outputs.  Everything else is an event for the
user interface; a shell that does not know an event kind ignores it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pcards.games import AuditResult, HandState, Match, View


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
    """Keep this seat's secret (owner-only file) before any message that depends on it."""

    label: str
    """``master``: the seat's one secret of the game, from which every other secret is derived."""
    secret: bytes


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class StateChanged:
    """The hand moved on: a step was applied (or an open dummy moved: no step of its own)."""

    step: int
    digest: bytes
    hand: int = -1
    kind: str = ""
    """The step's message kind (``action``, ``share``, ``shuffle``, ...); ``dummy`` for a dummy's move."""
    seats: tuple[int, ...] = ()
    """Who contributed (the actor of an action)."""
    text: str = ""
    """An action's text form."""


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
    """A hand ended and was audited; ``state`` is its final (full-information where audited) state.
    The seats still sign the hand's seal; ``Sealed`` follows once every seal is in."""

    hand: int
    state: HandState
    audit: AuditResult
    summary: str
    match: Match | None = None
    """The match after this hand (scores, chips, the next dealer; ``over`` if it was the last)."""


@dataclass(frozen=True)
class Sealed:
    """Every seat still playing signed hand ``hand``'s result: nothing can change it any more."""

    hand: int
    seats: tuple[int, ...]


@dataclass(frozen=True)
class MatchOver:
    summary: str
    abandoned: bool = False
    """Ended by the players left while half the table or more was silent (no vote could go on)."""


@dataclass(frozen=True)
class Fault:
    """A verdict: a seat broke the protocol or the rules (a cheater), or was voted silent.  Every honest
    replica reaches the same verdicts from the same messages.  It voids hand ``hand`` (unless the
    hand had already ended, then it applies from the next hand on) and the match goes on without the
    seats named; ``evidence`` is what proves it.  ``seat`` is -1 only where no seat can be blamed."""

    seat: int
    step: int
    kind: str
    """equivocation | bad-message | bad-proof | illegal-action | renege | silent"""
    message: str
    evidence: tuple[bytes, ...] = field(default=(), repr=False)
    hand: int = -1
    seats: tuple[int, ...] = ()
    """Every seat the verdict names (a vote may name several silent seats); ``seat`` is the first."""
    unconfirmed: bool = False
    """A ``silent`` verdict by this seat's own word, half the table or fewer: it binds nobody named."""

    def describe(self) -> str:
        return f"seat {self.seat} at fault ({self.kind}) at step {self.step}: {self.message}"


@dataclass(frozen=True)
class HandVoid:
    """Hand ``hand`` is void: it is dealt again, from its start, without the seats of ``verdicts``."""

    hand: int
    verdicts: tuple[Fault, ...]


@dataclass(frozen=True)
class Seating:
    """Who plays hand ``hand``: ``playing`` (key holders and movers), Spades' open ``dummies`` (their
    cards dealt face up, their moves made by the replicated dummy policy) and the seats ``out``, each
    with why (``silent``, ``cheat``; a seat out of chips is simply not playing)."""

    hand: int
    playing: tuple[int, ...]
    dummies: tuple[int, ...]
    out: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class SilentSeats:
    """The table has waited ``waited_ms`` for ``seats`` at ``step``.  If ``ask`` is set, ask the person:
    keep waiting, or go on without them (``Table.decide_silent``)?  Without an answer the table goes
    on by itself at the local time ``auto_at`` — only if the awaited are disconnected then
    (``Table.back`` names those connected: never dealt out by nobody's answer).  ``end_match``: only
    two players are left, so going on means ending the match (it is recorded as abandoned)."""

    step: int
    seats: tuple[int, ...]
    waited_ms: int
    ask: bool
    auto_at: int | None
    end_match: bool = False
    awaited: tuple[int, ...] = ()
    """The seats of ``seats`` the step awaits (the others sent nothing at it either)."""


@dataclass(frozen=True)
class ReturnAsked:
    """``seat``, voted out while it was silent, asks to play again; ask the person (``Table.admit``)."""

    seat: int


@dataclass(frozen=True)
class VotesContradicted:
    """``voters`` went on without this seat's voice (``named``) at ``step``: by more than half of the
    table (``majority``: the hand is played without it, and it comes back by asking,
    ``Table.ask_to_return``), by half of it (``half``: their word binds it only with its consent, and
    while this seat is at that step it is left behind as by a majority), or by their own word alone
    (binding on nobody named).  This replica does not take it unless its voice agrees."""

    step: int
    voters: tuple[int, ...]
    named: tuple[int, ...]
    majority: bool = False
    half: bool = False


@dataclass(frozen=True)
class Restoring:
    """This seat restarted from its journal, which may be an old copy: it signs nothing new — no move,
    no vote, no seal — until ``seats`` sent it all they hold, so that it never signs two different
    messages for one step (the others may vote it silent meanwhile).  ``seats`` empty: the wait is
    over."""

    step: int
    seats: tuple[int, ...]


Output = (
    Send
    | Persist
    | KeepSecret
    | StateChanged
    | YourTurn
    | Waiting
    | Rejected
    | HandOver
    | Sealed
    | MatchOver
    | Fault
    | HandVoid
    | Seating
    | SilentSeats
    | ReturnAsked
    | VotesContradicted
    | Restoring
)
Event = (
    StateChanged
    | YourTurn
    | Waiting
    | Rejected
    | HandOver
    | Sealed
    | MatchOver
    | Fault
    | HandVoid
    | Seating
    | SilentSeats
    | ReturnAsked
    | VotesContradicted
    | Restoring
)

__all__ = [
    "Event",
    "Fault",
    "HandOver",
    "HandVoid",
    "KeepSecret",
    "MatchOver",
    "Output",
    "Persist",
    "Rejected",
    "ReturnAsked",
    "Sealed",
    "Seating",
    "Send",
    "SilentSeats",
    "StateChanged",
    "VotesContradicted",
    "Waiting",
    "YourTurn",
]
