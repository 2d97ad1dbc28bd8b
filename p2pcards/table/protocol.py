"""What a room asks of a replica: the calls that feed it and the read-only facts it is judged by.

``Table`` is the replica; the harness has two more things that stand in for one — a cheating table
(``harness.byzantine.ByzantineTable``) and a seat another program runs over a pipe
(``harness.pipe_table.PipeTable``).  A room (``p2pcards.room``), the LAN node and the simulated
network hold each of them as a ``Replica``, so mypy checks that every one of them answers the same
calls in the same shape.  Every call returns the outputs a room carries out, in order
(``table.outputs``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from p2pcards.table import outputs as out
from p2pcards.table.genesis import Genesis

__all__ = ["Position", "Replica", "Stop"]


class Position(Protocol):
    """Where a replica's open attempt stands: the step being collected and the head it must name."""

    @property
    def step(self) -> int: ...

    @property
    def head(self) -> bytes: ...


class Stop(Protocol):
    """The verdict that stopped a game: who, and what kind (see ``outputs.Fault``)."""

    @property
    def seat(self) -> int: ...

    @property
    def kind(self) -> str: ...


class Replica(Protocol):
    """One seat's replica, as a room drives it."""

    # ---- the calls (each returns the outputs to carry out, in order)

    def start(self) -> list[out.Output]:
        """Begin from the genesis."""
        ...

    def restore(self, journal: list[bytes]) -> list[out.Output]:
        """Begin again from a journal (every message this seat kept, in order)."""
        ...

    def receive(self, peer: int | None, payload: bytes) -> list[out.Output]:
        """A frame's payload from ``peer``."""
        ...

    def local_action(self, text: str) -> list[out.Output]:
        """This seat's move; ``games.ActionError`` if it is not legal now (nothing is sent then)."""
        ...

    def decide_silent(self, go_on: bool) -> list[out.Output]:
        """The person's answer to ``SilentSeats``."""
        ...

    def admit(self, seat: int, yes: bool) -> list[out.Output]:
        """The person's answer to ``ReturnAsked``."""
        ...

    def ask_to_return(self) -> list[out.Output]:
        """This seat, left behind, asks to be dealt in again."""
        ...

    def watch(self) -> list[out.Output]:
        """This seat, left behind, follows the others' game without asking to be dealt in again."""
        ...

    def tick(self, now: int) -> list[out.Output]:
        """The local time in milliseconds."""
        ...

    def digest(self) -> bytes:
        """What every honest replica agrees on (SPEC, the table digest)."""
        ...

    # ---- what it holds (read only)

    @property
    def genesis(self) -> Genesis: ...

    @property
    def chain(self) -> Position: ...

    @property
    def over(self) -> bool: ...

    @property
    def abandoned(self) -> bool: ...

    @property
    def stopped(self) -> Stop | None: ...

    @property
    def hands_played(self) -> Sequence[object]:
        """The hands it holds sealed (a room counts them)."""
        ...

    @property
    def seats_out(self) -> Mapping[int, str]: ...

    @property
    def left_behind(self) -> bool: ...

    @property
    def waiting_for(self) -> tuple[int, ...]: ...

    @property
    def verdicts(self) -> Sequence[out.Fault]: ...
