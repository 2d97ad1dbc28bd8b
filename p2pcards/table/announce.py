"""The verdicts a replica announces (SPEC §6, §7): each once, as an ``outputs.Fault`` value.

A derivation may reach one verdict by several paths (verdicts learnt in another order, an attempt
dealt again); ``Verdicts`` remembers what was told, so every verdict is returned once, and keeps the
list of them (``Table.verdicts``) and the one that stopped the game, if any.  Its methods return the
outputs to emit; the replica emits them in order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from p2pcards.table import outputs as out
from p2pcards.table.attempt import Attempt
from p2pcards.table.decide import Decision
from p2pcards.table.held import Held
from p2pcards.table.seating import CHEAT, GONE, SILENT, UNCONFIRMED, Change


@dataclass
class Verdicts:
    """Every verdict told, in order, and what was told already."""

    told: list[out.Fault] = field(default_factory=list)
    announced: set[tuple[Any, ...]] = field(default_factory=set)
    stopped: out.Fault | None = None
    """Set when the game cannot go on at all (a fault before the first hand, or one that no seat
    can be blamed for)."""

    def record(self, key: tuple[Any, ...], fault: out.Fault) -> list[out.Output]:
        """A verdict, reported once (whatever path of the derivation reaches it again)."""
        if key in self.announced:
            return []
        self.announced.add(key)
        self.told.append(fault)
        return [fault]

    def stop(self, fault: out.Fault) -> list[out.Output]:
        """The game cannot go on: the first such verdict stops it."""
        if self.stopped is not None:
            return []
        self.stopped = fault
        self.told.append(fault)
        return [fault]

    def gone_without_us(self, decision: Decision) -> list[out.Output]:
        """The others went on without this voice at a step (a majority's decision, or some voice's
        own word): told once."""
        key = ("gone", decision.step, decision.prev, decision.signers)
        if key in self.announced:
            return []
        self.announced.add(key)
        return [out.VotesContradicted(decision.step, decision.signers, decision.silent, decision.majority,
                                      decision.half)]

    def announce(
        self, change: Change, hand: int, step: int, held: Held, path: Iterable[Attempt]
    ) -> tuple[out.Fault, list[out.Output]]:
        """The verdict ``change`` made at ``step`` of ``hand`` (the first fault, if it names several
        seats), and the outputs that tell it (none if it was told already)."""
        if change.kind == CHEAT:
            seat = change.seats[0]
            fault = (
                held.cheaters.get(seat)
                or fault_in_path(path, seat)
                or out.Fault(seat, step, "bad-message", "proved a cheater", hand=hand, seats=(seat,))
            )
        elif change.kind == SILENT:
            votes = held.votes.get((change.step, change.prev), {})
            fault = out.Fault(
                change.seats[0],
                change.step,
                "silent",
                f"seats {list(change.seats)} stayed silent; more than half of the table voted to go on "
                "without them",
                tuple(v.data for _, v in sorted(votes.items())),
                hand=hand,
                seats=change.seats,
            )
        elif change.kind == UNCONFIRMED:
            # One verdict per seat, as each is named on its own: an abandon names them all at once.
            ends = held.abandons.get((change.step, change.prev), {})
            faults = [
                out.Fault(
                    seat,
                    change.step,
                    "silent",
                    f"stayed silent; continued without seats {list(change.seats)} by half the table or "
                    "fewer (unconfirmed: binding on nobody named)",
                    tuple(v.data for _, v in sorted(ends.items())),
                    hand=hand,
                    seats=change.seats,
                    unconfirmed=True,
                )
                for seat in change.seats
            ]
            told: list[out.Output] = []
            for f in faults:
                told += self.record((change.kind, f.seat, change.step, change.prev), f)
            return faults[0], told
        else:
            fault = out.Fault(change.seats[0], step, "return", "admitted back", hand=hand, seats=change.seats)
        if change.kind == CHEAT:
            return fault, self.record(("cheat", change.seats[0]), fault)
        if change.kind in GONE:
            return fault, self.record((change.kind, change.seats, change.step, change.prev), fault)
        return fault, []


def fault_in_path(path: Iterable[Attempt], seat: int) -> out.Fault | None:
    """The fault of ``seat`` that stopped one of the attempts in ``path``, as a verdict."""
    for att in path:
        f = att.fault
        if f is not None and f.seat == seat:
            return out.Fault(f.seat, f.step, f.kind, f.message, f.evidence, hand=att.hand, seats=(seat,))
    return None


def fault_of(att: Attempt) -> out.Fault:
    """The fault that stopped ``att``, as a verdict."""
    f = att.fault
    assert f is not None
    return out.Fault(f.seat, f.step, f.kind, f.message, f.evidence, hand=att.hand, seats=(f.seat,))
