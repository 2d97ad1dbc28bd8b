"""Where Spades' cards go: every deck position and the seat it is dealt to (S1).

Position ``k`` is the ``k``-th card dealt, one at a time clockwise from the dealer's left: seat
``(dealer + 1 + k) % 4``.  An open dummy's positions are dealt like any other's; the table then
reveals them to everyone.
"""

from __future__ import annotations

from p2pcards.games.base import Deal

CARDS = 52
SEATS = 4


class SpadesDeal(Deal):
    """A ``Deal`` that remembers its positions (asked for once per hand by every dealer loop).
    It equals the plain ``Deal`` with the same fields."""

    __slots__ = ("_positions",)
    _positions: tuple[int, ...]

    def __init__(self, hands: tuple[tuple[int, tuple[int, ...]], ...], disclose: bool = True) -> None:
        super().__init__(hands, disclose)
        object.__setattr__(self, "_positions", tuple(p for _, ps in hands for p in ps))

    def positions(self) -> tuple[int, ...]:
        return self._positions

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Deal):
            return self.hands == other.hands and self.disclose == other.disclose
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.hands, self.disclose))


def deal_for(dealer: int, disclose: bool = True) -> SpadesDeal:
    """Position k is the k-th card dealt, one at a time clockwise from the dealer's left (S1); face
    down to every seat without ``disclose`` (S16: each seat is then shown its cards by a ``Disclose``)."""
    return SpadesDeal(tuple((seat, positions_of(seat, dealer)) for seat in range(SEATS)), disclose)


def positions_of(seat: int, dealer: int) -> tuple[int, ...]:
    """The positions dealt to ``seat``."""
    return tuple(range((seat - dealer - 1) % SEATS, CARDS, SEATS))


def owner_of(position: int, dealer: int) -> int:
    """The seat that is dealt ``position``."""
    return (dealer + 1 + position) % SEATS
