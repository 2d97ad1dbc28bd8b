"""One room: replicas, and the one interpreter of what they ask for.

A replica (``table.protocol.Replica``) never does anything itself: every call returns a list of
outputs (``table.outputs``), and a room carries them out *in order* — ``Persist`` and ``KeepSecret``
before the ``Send`` that follows them (invariant 5), so nothing a seat said or accepted is lost if it
is killed between two outputs.  What carrying out means is the scheduler's:

- ``persist`` / ``keep``: where a seat's journal and secrets live (a ``store.GameStore`` on disk, a
  list in memory);
- ``send``: how a frame reaches the other seats (a TCP link, a simulated link with faults, a FIFO,
  a frame held back by the explorer);
- ``turn``: who chooses a seat's move (a person, a computer player, a seeded choice), and when;
- ``event``: what the screen gets (or what a judge looks at).

The time is the scheduler's too: it calls ``Room.tick`` when it likes (every 250 ms of trio's clock
on the LAN, a simulated clock in the harness, never offline).  The offline table (``p2pcards.local``),
the simulated network (``harness.network``), the explorer's room (``harness.explore_room``) and the
tests are schedulers of a room; the LAN node (``net.node``) is one over sockets.  Nothing here
imports trio, so all of them share it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol, assert_never

from p2pcards.store.effects import Effects
from p2pcards.table import outputs as out
from p2pcards.table.protocol import Replica

__all__ = [
    "ComputerTurn",
    "EventsAfter",
    "Moved",
    "Room",
    "RoomScheduler",
    "Scheduler",
    "SendFn",
    "Thinking",
    "carry_out",
    "interpret",
]

SendFn = Callable[[bytes, int | None], None]
"""``send(payload, to)``: ``to`` is a seat, or None for every peer."""


class Scheduler(Protocol):
    """What a room does with each seat's outputs (see the module docstring); ``seat`` is the seat
    whose replica asked."""

    def persist(self, seat: int, payload: bytes, own: bool) -> None: ...

    def keep(self, seat: int, label: str, secret: bytes) -> None: ...

    def send(self, seat: int, payload: bytes, to: int | None) -> None: ...

    def turn(self, seat: int, turn: out.YourTurn) -> None: ...

    def event(self, seat: int, event: out.Event) -> None: ...


class RoomScheduler(Scheduler, Protocol):
    """A room's scheduler: told, too, when the outputs of one call to a replica are all carried out."""

    def done(self, seat: int) -> None: ...


def interpret(seat: int, outputs: Iterable[out.Output], scheduler: Scheduler) -> None:
    """Carry out ``seat``'s outputs in order, each by its type.  If persisting fails, the exception
    propagates and nothing after it happens: a message that was not journalled must not leave."""
    for o in outputs:
        match o:
            case out.Persist():
                scheduler.persist(seat, o.payload, o.own)
            case out.KeepSecret():
                scheduler.keep(seat, o.label, o.secret)
            case out.Send():
                scheduler.send(seat, o.payload, o.to)
            case out.YourTurn():
                scheduler.turn(seat, o)
            case (
                out.StateChanged()
                | out.Waiting()
                | out.Rejected()
                | out.HandOver()
                | out.Sealed()
                | out.MatchOver()
                | out.Fault()
                | out.HandVoid()
                | out.Seating()
                | out.SilentSeats()
                | out.ReturnAsked()
                | out.VotesContradicted()
                | out.Restoring()
            ):
                scheduler.event(seat, o)
            case _:
                assert_never(o)  # a new output must be given a meaning here (mypy says where)


class Room:
    """Replicas (``replica(seat)``: the one that seat runs now; a restart replaces it) and their
    scheduler.  Each call feeds one seat's replica and carries out what it answers, then tells the
    scheduler it is ``done``."""

    def __init__(self, scheduler: RoomScheduler, replica: Callable[[int], Replica]) -> None:
        self.scheduler = scheduler
        self.replica = replica

    def carry_out(self, seat: int, outputs: Iterable[out.Output]) -> None:
        """Carry out outputs a caller got from ``seat``'s replica itself (a move it timed, say)."""
        interpret(seat, outputs, self.scheduler)
        self.scheduler.done(seat)

    def start(self, seat: int) -> None:
        self.carry_out(seat, self.replica(seat).start())

    def restore(self, seat: int, journal: list[bytes]) -> None:
        self.carry_out(seat, self.replica(seat).restore(journal))

    def receive(self, seat: int, peer: int | None, payload: bytes) -> None:
        self.carry_out(seat, self.replica(seat).receive(peer, payload))

    def act(self, seat: int, text: str) -> None:
        """``seat``'s move; ``ActionError`` (nothing carried out) if it is not legal now."""
        self.carry_out(seat, self.replica(seat).local_action(text))

    def tick(self, seat: int, now: int) -> None:
        self.carry_out(seat, self.replica(seat).tick(now))

    def decide_silent(self, seat: int, go_on: bool) -> None:
        self.carry_out(seat, self.replica(seat).decide_silent(go_on))

    def admit(self, seat: int, other: int, yes: bool) -> None:
        self.carry_out(seat, self.replica(seat).admit(other, yes))

    def ask_to_return(self, seat: int) -> None:
        self.carry_out(seat, self.replica(seat).ask_to_return())

    def watch(self, seat: int) -> None:
        self.carry_out(seat, self.replica(seat).watch())


# --------------------------------------------------------------------------- parts of schedulers


AfterFn = Callable[[int, list[out.Event]], None]
"""``after(seat, events)``: a call's turns and events, in order, once its effects are done."""


class EventsAfter:
    """The half of a scheduler that keeps the turns and events of a call, in order, and hands them to
    ``after`` once the call's effects are done: what a shell wants whose turns and events may call
    the replica again (the LAN node, the offline room)."""

    def __init__(self, after: AfterFn | None = None) -> None:
        self.events: list[out.Event] = []
        self.after = after

    def turn(self, seat: int, turn: out.YourTurn) -> None:
        self.events.append(turn)

    def event(self, seat: int, event: out.Event) -> None:
        self.events.append(event)

    def take(self) -> list[out.Event]:
        taken, self.events = self.events, []
        return taken

    def done(self, seat: int) -> None:
        events = self.take()
        if self.after is not None:
            self.after(seat, events)


class _Kept(EventsAfter):
    """The scheduler of ``carry_out``: one seat's store and sender, the events kept for the caller."""

    def __init__(self, store: Effects, sender: SendFn) -> None:
        super().__init__()
        self.store = store
        self.sender = sender

    def persist(self, seat: int, payload: bytes, own: bool) -> None:
        self.store.persist(payload, own)

    def keep(self, seat: int, label: str, secret: bytes) -> None:
        self.store.keep(label, secret)

    def send(self, seat: int, payload: bytes, to: int | None) -> None:
        self.sender(payload, to)


def carry_out(outputs: Iterable[out.Output], store: Effects, send: SendFn) -> list[out.Event]:
    """Journal, keep secrets and send in order, by ``interpret``; the events, in order, for the
    caller to act on once the effects are done (what a shell that does its own turns wants)."""
    kept = _Kept(store, send)
    interpret(-1, outputs, kept)
    return kept.take()


# --------------------------------------------------------------------------- computer turns


@dataclass(frozen=True)
class Thinking:
    """The computer player of ``seat`` began to choose the move of ``step``."""

    seat: int
    step: int


@dataclass(frozen=True)
class Moved:
    """``seat`` made a move (the text form of its action) in hand ``hand``, as a replica applied it."""

    hand: int
    seat: int
    text: str

    @staticmethod
    def of(event: out.StateChanged, hand: int) -> Moved | None:
        """The move a step was, if it was one (a seat's action, or an open dummy's)."""
        if event.kind not in ("action", "dummy") or not event.seats:
            return None
        return Moved(hand, event.seats[0], event.text)


@dataclass(frozen=True)
class ComputerTurn:
    """A computer seat's turn, from the moment its replica asks (``YourTurn``) to its move: the same
    for the LAN node (which thinks in another process, and abandons a decision nobody waits for any
    more) and the offline room (which thinks at once)."""

    seat: int
    step: int
    """The step the replica waited at when it asked: a choice counts only there."""
    turn: out.YourTurn

    @staticmethod
    def of(seat: int, replica: Replica, turn: out.YourTurn) -> ComputerTurn:
        return ComputerTurn(seat, replica.chain.step, turn)

    def thinking(self) -> Thinking:
        return Thinking(self.seat, self.step)

    def wanted(self, replica: Replica) -> bool:
        """Whether a choice made now still counts: the replica waits at that very step (no void vote,
        restore or end came in between) and the match goes on."""
        return replica.chain.step == self.step and not replica.over and replica.stopped is None
