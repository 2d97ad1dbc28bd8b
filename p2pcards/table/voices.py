"""Voices: the people at the table, each with the computer players their machine runs.

A decision against seats — dealing them out as silent, going on without them — is taken by people,
not by keys: one person with two computer players on their laptop is one voice, not three.  The
genesis says which seats a computer plays and whose machine runs it (``computers``); every other
seat is a person's, and is a voice of its own.  A computer seat counts with its runner: it is
present exactly when its runner is, it never signs a vote or an abandon (its runner does, for the
whole machine), and a decision about its runner is a decision about it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from p2pcards.table.genesis import Genesis


@dataclass(frozen=True)
class Voices:
    runner: tuple[int, ...]
    """For each seat, the seat of the person who speaks for it (itself, for a person)."""

    @classmethod
    def of(cls, genesis: Genesis) -> Voices:
        n = len(genesis.seats)
        runs = dict(genesis.computers)
        return cls(tuple(runs.get(s, s) for s in range(n)))

    def voice(self, seat: int) -> int:
        return self.runner[seat]

    def is_person(self, seat: int) -> bool:
        return self.runner[seat] == seat

    def among(self, seats: Iterable[int]) -> tuple[int, ...]:
        """The voices of ``seats``, ascending, each once."""
        return tuple(sorted({self.runner[s] for s in seats}))

    def seats_of(self, voices: Iterable[int], among: Iterable[int]) -> tuple[int, ...]:
        """The seats of ``among`` that belong to one of ``voices``, ascending."""
        wanted = set(voices)
        return tuple(s for s in sorted(set(among)) if self.runner[s] in wanted)

    def computers_of(self, voice: int) -> tuple[int, ...]:
        return tuple(s for s, r in enumerate(self.runner) if r == voice and s != voice)
