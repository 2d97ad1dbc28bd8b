"""A Durak series (D14): hands with running totals, and the seats that take part.

The durak deals the next hand; after a draw the deal passes to the left.  A seat taken out with
``without`` is not dealt in from the next hand on (its series points stay, frozen) until
``with_seat``; the others play on with one player fewer, the next hand dealt to the seats still
playing (see ``state`` for the deck positions of any set of seats).  The series ends after
``series_hands`` hands, when fewer than two seats can play, or when it is abandoned.
"""

from __future__ import annotations

from typing import Any, cast

from p2pcards.games.base import (
    TERMINAL,
    GameError,
    HandState,
    Match,
    SeatStanding,
    Standings,
    next_taking_part,
)
from p2pcards.games.durak.config import DurakConfig
from p2pcards.games.durak.result import DurakResult
from p2pcards.games.durak.state import DurakState

__all__ = ["DurakMatch", "DurakResult"]


class DurakMatch(Match):
    """A series of ``series_hands`` hands with running totals (D14)."""

    rules: DurakConfig

    def __init__(self, rules: DurakConfig, dealer: int, scores: tuple[int, ...] | None = None,
                 hands_played: int = 0, results: tuple[DurakResult, ...] = (), *,
                 away: tuple[int, ...] = (), voided: int = 0, abandoned: bool = False) -> None:
        n = rules.players
        if dealer.__class__ is not int or not 0 <= dealer < n:
            raise GameError(f"the dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
        self.rules = rules
        self._dealer = dealer
        self.scores: tuple[int, ...] = scores if scores is not None else (0,) * n
        self.hands_played = hands_played
        self.results = results
        self.away = away
        """Seats taken out with ``without``: not dealt in, their points frozen."""
        self.voided = voided
        """Hands voided so far (none of them counts)."""
        self._abandoned = abandoned

    def _replace(self, **changes: Any) -> DurakMatch:
        fields: dict[str, Any] = {"dealer": self._dealer, "scores": self.scores,
                                  "hands_played": self.hands_played, "results": self.results,
                                  "away": self.away, "voided": self.voided, "abandoned": self._abandoned}
        fields.update(changes)
        return DurakMatch(self.rules, **fields)

    @property
    def series_hands(self) -> int:
        return int(self.rules.option("series_hands"))

    def hands_left(self) -> int | None:
        return max(0, self.series_hands - self.hands_played)

    @property
    def seated(self) -> tuple[int, ...]:
        """The seats dealt into the next hand: every seat not away."""
        return tuple(s for s in range(self.rules.players) if s not in self.away)

    @property
    def dealer(self) -> int:
        """The dealer of the next hand: the last durak (or the seat left of the last dealer after a
        draw); if that seat is away, the next seat clockwise that plays."""
        return next_taking_part(self._dealer, self.seated, self.rules.players)

    @property
    def abandoned(self) -> bool:
        return self._abandoned

    @property
    def over(self) -> bool:
        return self._abandoned or self.hands_played >= self.series_hands or len(self.seated) < 2

    def _setup(self) -> dict[str, Any]:
        setup: dict[str, Any] = {"dealer": self.dealer, "hand": self.hands_played}
        if self.away:
            setup["seats"] = self.seated
        if self.voided:
            setup["voided"] = self.voided
        return setup

    def new_hand(self) -> DurakState:
        if self.over:
            raise GameError("the series is over")
        return cast(DurakState, self.rules.new_hand(self._setup()))

    def settle(self, state: HandState) -> DurakMatch:
        if not isinstance(state, DurakState) or state.rules.options != self.rules.options:
            raise GameError("this hand was not played under this match's rules")
        if dict(state.setup) != self._setup():
            raise GameError("this hand is not the match's next hand")
        result = state.result
        if state.to_act != TERMINAL or result is None:
            raise GameError("the hand is not over yet")
        pts = result.points()
        scores = tuple(a + b for a, b in zip(self.scores, pts, strict=True))
        n = self.rules.players
        dealer = result.durak if result.durak is not None else (state.dealer + 1) % n
        return self._replace(dealer=dealer, scores=scores, hands_played=self.hands_played + 1,
                             results=(*self.results, result))

    # ------------------------------------------------------------------ the game going on

    def without(self, seat: int) -> DurakMatch:
        """From the next hand on ``seat`` is not dealt in; its series points stay, frozen."""
        seat = self._seat(seat)
        if seat in self.away:
            return self
        return self._replace(away=tuple(sorted((*self.away, seat))))

    def with_seat(self, seat: int) -> DurakMatch:
        """``seat`` is dealt in again from the next hand, with its series points."""
        seat = self._seat(seat)
        return self._replace(away=tuple(s for s in self.away if s != seat))

    def void_hand(self) -> DurakMatch:
        """The hand being played counts for nothing (no durak, no points) and is not counted in the
        series; its dealer deals again if it still plays."""
        return self._replace(voided=self.voided + 1)

    def abandon(self) -> DurakMatch:
        return self._replace(abandoned=True)

    def standings(self) -> Standings:
        seats = tuple(SeatStanding(s, v, None, "away" if s in self.away else "playing")
                      for s, v in enumerate(self.scores))
        return Standings("durak", seats, self.hands_played, self.over, self._abandoned)

    @property
    def leaders(self) -> tuple[int, ...]:
        """The seats with the best running total."""
        best = max(self.scores)
        return tuple(s for s, v in enumerate(self.scores) if v == best)

    def summary(self) -> str:
        totals = ", ".join((f"seat {s} {v:+d}" if v else f"seat {s} 0")
                           + (" (away)" if s in self.away else "") for s, v in enumerate(self.scores))
        total = self.series_hands
        if self._abandoned:
            return f"Durak series abandoned after {self.hands_played} of {total} hands: {totals}."
        if self.over:
            if self.hands_played < total:
                return (f"Durak series over after {self.hands_played} of {total} hands (fewer than two "
                        f"players left): {totals}.")
            return f"Durak series over after {total} hand{'s' if total != 1 else ''}: {totals}."
        return (f"Durak series, hand {self.hands_played + 1} of {total}: {totals}; "
                f"seat {self.dealer} deals.")
