"""How a hand of Azi ended, and the settlement of the pot (A13)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass


def _seats(group: Sequence[int]) -> str:
    return f"seat {group[0]}" if len(group) == 1 else "seats " + ", ".join(map(str, group))


def settle_pot(contributions: Sequence[int], winner: int, winner_all_in: bool,
               blind_paid: int = 0) -> tuple[int, ...]:
    """What each seat gets back from the pot when ``winner`` wins it (A13, A16).

    A winner who is not all-in takes the whole pot.  An all-in winner, however it went all-in, counts
    for ``c_w``: what it put in, the ``blind_paid`` part of it twice (A7); it takes
    ``min(c_i, c_w)`` from every seat ``i``; every other seat gets back the rest of its stake.
    """
    if not winner_all_in:
        total = sum(contributions)
        return tuple(total if i == winner else 0 for i in range(len(contributions)))
    cw = contributions[winner] + blind_paid
    take = sum(min(c, cw) for c in contributions)
    return tuple(take if i == winner else c - min(c, cw) for i, c in enumerate(contributions))


@dataclass(frozen=True, slots=True)
class AziResult:
    """The end of a hand.  Every tuple has one entry per seat of the table."""

    winner: int | None
    """The seat that takes the pot, or None when the hand is azi (A14)."""
    azi: bool
    uncontested: bool
    """Everybody else folded: the pot was won without play (A8)."""
    tricks: tuple[int, ...]
    contributions: tuple[int, ...]
    """Each seat's whole stake in the pot (antes, bets, buy-ins, and what earlier azi hands carried)."""
    payouts: tuple[int, ...]
    """What each seat receives from the pot: the winner's take and the stakes given back (A13).
    All zero when the hand is azi: the pot is carried over."""
    stacks: tuple[int, ...]
    """Each seat's chips after the hand (payouts included)."""
    trick_winners: tuple[int, ...]
    """The seats that took a trick, in seat order (on azi, those who play again for free)."""
    blind_paid: tuple[int, ...] = ()
    """Per seat, the chips of its contribution paid in a bidding while blind (A7, A16); an azi
    carries them into the replay."""

    @property
    def pot(self) -> int:
        return sum(self.contributions)

    def summary(self, name: Callable[[Sequence[int]], str] = _seats) -> str:
        """The hand in a line; ``name`` names a group of seats (default ``seat 2``, ``seats 0, 2``;
        a tournament names the entries sitting there instead)."""
        tricks = ", ".join(f"{name((s,))} {t}" for s, t in enumerate(self.tricks) if t)
        if self.azi:
            return (f"azi: one trick each ({tricks}); the pot of {self.pot} is carried over and "
                    f"{name(self.trick_winners)} play again")
        assert self.winner is not None
        w = self.winner
        how = "everybody else folded" if self.uncontested else f"tricks: {tricks}"
        back = [f"{name((s,))} gets {p} back" for s, p in enumerate(self.payouts) if p and s != w]
        text = f"{name((w,))} wins {self.payouts[w]} of a pot of {self.pot} ({how})"
        if back:
            text += "; " + ", ".join(back)
        return text
