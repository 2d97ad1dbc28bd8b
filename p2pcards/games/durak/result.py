"""How a hand of Durak ended (D12-D15)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from p2pcards.games.base import GameError


def _seats(group: Sequence[int]) -> str:
    if len(group) == 1:
        return f"seat {group[0]}"
    return "seats " + ", ".join(str(s) for s in group[:-1]) + f" and {group[-1]}"


@dataclass(frozen=True, slots=True)
class DurakResult:
    """How a hand ended: who went out in which order (ties share a place) and the durak, if any."""

    players: int
    out_order: tuple[tuple[int, ...], ...]
    """Groups of seats in the order they went out; the seats of one group went out in the same bout."""
    durak: int | None
    """The last player holding cards, or None for a draw (everybody ran out in the same bout, D13, or
    the hand stalled, D15)."""
    stalled: bool = False
    """The hand ended by D15: 30 bouts in a row ended with a take and no card drawn (a draw)."""
    seats: tuple[int, ...] = ()
    """The seats that played the hand when some seat was away (empty: every seat of the table)."""

    @property
    def playing(self) -> tuple[int, ...]:
        """The seats that played the hand, ascending."""
        return self.seats or tuple(range(self.players))

    @property
    def draw(self) -> bool:
        return self.durak is None

    @property
    def winners(self) -> tuple[int, ...]:
        """The first player(s) out, who score +1 (nobody when every player went out together)."""
        if not self.out_order or len(self.out_order[0]) == len(self.playing):
            return ()
        return self.out_order[0]

    def place_of(self, seat: int) -> int:
        """1 for the first out (ties share), ...; the durak's place is last."""
        for i, group in enumerate(self.out_order):
            if seat in group:
                return i + 1
        if seat == self.durak or (self.stalled and seat in self.playing):
            return len(self.out_order) + 1
        raise GameError(f"seat {seat} did not play this hand")

    def points(self) -> tuple[int, ...]:
        """The series points of D14: +1 for the first out, -1 for the durak, 0 otherwise."""
        pts = [0] * self.players
        for s in self.winners:
            pts[s] += 1
        if self.durak is not None:
            pts[self.durak] -= 1
        return tuple(pts)

    def summary(self, name: Callable[[Sequence[int]], str] = _seats) -> str:
        """The hand in a line; ``name`` names a group of seats (default ``seat 2``, ``seats 0 and 2``;
        a tournament names the entries sitting there instead)."""
        if self.stalled:
            text = "30 bouts in a row ended with a take and nothing drawn: the hand is a draw, no durak"
            if self.out_order:
                text += f" ({name(self.out_order[0])} went out first)"
            return text + "."
        if not self.out_order:
            return f"{name((self.durak,)) if self.durak is not None else 'nobody'} is the durak."
        parts = [f"{name(self.out_order[0])} went out first"]
        parts += [f"then {name(g)}" for g in self.out_order[1:]]
        text = ", ".join(parts)
        if self.durak is None:
            return text + "; nobody was left holding cards: a draw, no durak."
        return text + f"; {name((self.durak,))} is the durak."
