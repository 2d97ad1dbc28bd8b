"""A hand's result and a Durak series (D12-D14)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from p2pcards.games.base import TERMINAL, GameError, HandState, Match

if TYPE_CHECKING:
    from p2pcards.games.durak.rules import Rules
    from p2pcards.games.durak.state import DurakState


def _seats(group: tuple[int, ...]) -> str:
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

    @property
    def draw(self) -> bool:
        return self.durak is None

    @property
    def winners(self) -> tuple[int, ...]:
        """The first player(s) out, who score +1 (nobody when every player went out together)."""
        if not self.out_order or len(self.out_order[0]) == self.players:
            return ()
        return self.out_order[0]

    def place_of(self, seat: int) -> int:
        """1 for the first out (ties share), ...; the durak's place is last."""
        for i, group in enumerate(self.out_order):
            if seat in group:
                return i + 1
        if seat == self.durak or (self.stalled and 0 <= seat < self.players):
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

    def summary(self) -> str:
        if self.stalled:
            text = "30 bouts in a row ended with a take and nothing drawn: the hand is a draw, no durak"
            if self.out_order:
                text += f" ({_seats(self.out_order[0])} went out first)"
            return text + "."
        if not self.out_order:
            return f"{_seats((self.durak,)) if self.durak is not None else 'nobody'} is the durak."
        parts = [f"{_seats(self.out_order[0])} went out first"]
        parts += [f"then {_seats(g)}" for g in self.out_order[1:]]
        text = ", ".join(parts)
        if self.durak is None:
            return text + "; nobody was left holding cards: a draw, no durak."
        return text + f"; {_seats((self.durak,))} is the durak."


class DurakMatch(Match):
    """A series of ``series_hands`` hands with running totals (D14).  The durak deals the next hand;
    after a draw the deal passes to the left."""

    def __init__(self, rules: Rules, dealer: int, scores: tuple[int, ...] | None = None,
                 hands_played: int = 0, results: tuple[DurakResult, ...] = ()) -> None:
        n = rules.players
        if not 0 <= dealer < n:
            raise GameError(f"the dealer must be a seat from 0 to {n - 1}, not {dealer}")
        self.rules: Rules = rules
        self.dealer = dealer
        self.scores: tuple[int, ...] = scores if scores is not None else (0,) * n
        self.hands_played = hands_played
        self.results = results

    @property
    def series_hands(self) -> int:
        return int(self.rules.option("series_hands"))

    @property
    def over(self) -> bool:
        return self.hands_played >= self.series_hands

    def new_hand(self) -> DurakState:
        if self.over:
            raise GameError("the series is over")
        return self.rules.new_hand({"dealer": self.dealer, "hand": self.hands_played})

    def settle(self, state: HandState) -> DurakMatch:
        from p2pcards.games.durak.state import DurakState

        if not isinstance(state, DurakState) or state.rules.options != self.rules.options:
            raise GameError("this hand was not played under this match's rules")
        if dict(state.setup) != {"dealer": self.dealer, "hand": self.hands_played}:
            raise GameError("this hand is not the match's next hand")
        result = state.result
        if state.to_act != TERMINAL or result is None:
            raise GameError("the hand is not over yet")
        pts = result.points()
        scores = tuple(a + b for a, b in zip(self.scores, pts, strict=True))
        dealer = result.durak if result.durak is not None else (self.dealer + 1) % self.rules.players
        return DurakMatch(self.rules, dealer, scores, self.hands_played + 1, (*self.results, result))

    @property
    def leaders(self) -> tuple[int, ...]:
        """The seats with the best running total."""
        best = max(self.scores)
        return tuple(s for s, v in enumerate(self.scores) if v == best)

    def summary(self) -> str:
        totals = ", ".join(f"seat {s} {v:+d}" if v else f"seat {s} 0" for s, v in enumerate(self.scores))
        total = self.series_hands
        if self.over:
            return f"Durak series over after {total} hand{'s' if total != 1 else ''}: {totals}."
        return (f"Durak series, hand {self.hands_played + 1} of {total}: {totals}; "
                f"seat {self.dealer} deals.")
