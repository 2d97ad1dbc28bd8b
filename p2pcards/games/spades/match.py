"""A game of Spades: hands until a team reaches the target or falls to the floor (S2, S13, S15).

A seat taken out with ``without`` becomes an **open dummy** from the next hand on: it is still dealt
and still plays, its cards face up to everyone and its moves chosen by ``dummy.choose``, which every
replica runs alike; its team keeps its score.  ``with_seat`` gives the seat back to its player.  The
game ends (``over``) when every seat but one is a dummy.
"""

from __future__ import annotations

from typing import Any

from p2pcards.games.base import TERMINAL, GameError, HandState, Match, SeatStanding, Standings
from p2pcards.games.spades.config import SpadesConfig
from p2pcards.games.spades.layout import SEATS
from p2pcards.games.spades.scoring import TEAMS, HandResult
from p2pcards.games.spades.state import SpadesState


class SpadesMatch(Match):
    """The standings between hands: each team's score and bags, the next dealer, the winner."""

    rules: SpadesConfig

    def __init__(self, rules: SpadesConfig, first_dealer: int = 0, *, dealer: int | None = None,
                 scores: tuple[int, int] = (0, 0), bags: tuple[int, int] = (0, 0), hands_played: int = 0,
                 winner: int | None = None, results: tuple[HandResult, ...] = (),
                 dummies: tuple[int, ...] = (), voided: int = 0, abandoned: bool = False) -> None:
        self.rules = rules
        self.first_dealer = first_dealer
        self.dealer = first_dealer if dealer is None else dealer
        """The dealer of the next hand: it passes clockwise each hand (S2)."""
        self.scores = scores
        self.bags = bags
        self.hands_played = hands_played
        self.winner = winner
        """The winning team (0: seats 0 and 2, 1: seats 1 and 3) once the game is over."""
        self.results = results
        self._dummies = dummies
        self.voided = voided
        """Hands voided so far (none of them scored)."""
        self._abandoned = abandoned

    def _replace(self, **changes: Any) -> SpadesMatch:
        fields: dict[str, Any] = {
            "dealer": self.dealer, "scores": self.scores, "bags": self.bags,
            "hands_played": self.hands_played, "winner": self.winner, "results": self.results,
            "dummies": self._dummies, "voided": self.voided, "abandoned": self._abandoned}
        fields.update(changes)
        return SpadesMatch(self.rules, self.first_dealer, **fields)

    @property
    def seated(self) -> tuple[int, ...]:
        """Every seat is dealt every hand (a seat that left is an open dummy)."""
        return tuple(range(SEATS))

    @property
    def dummies(self) -> tuple[int, ...]:
        return self._dummies

    @property
    def abandoned(self) -> bool:
        return self._abandoned

    @property
    def over(self) -> bool:
        return self.winner is not None or self._abandoned or len(self._dummies) >= SEATS - 1

    def _setup(self) -> dict[str, object]:
        setup: dict[str, object] = {"dealer": self.dealer, "scores": self.scores, "bags": self.bags,
                                    "hand": self.hands_played}
        if self._dummies:
            setup["dummies"] = self._dummies
        if self.voided:
            setup["voided"] = self.voided
        return setup

    def new_hand(self) -> SpadesState:
        if self.over:
            raise GameError("the game is over")
        return SpadesState(self.rules, self.dealer, self.scores, self.bags, self.hands_played,
                           self._dummies, self.voided)

    def settle(self, state: HandState) -> SpadesMatch:
        if self.over:
            raise GameError("the game is over")
        if state.rules.options != self.rules.options or state.rules.name != self.rules.name:
            raise GameError("that hand belongs to another game")
        if dict(state.setup) != self._setup():
            raise GameError("that hand is not this game's next hand")
        result = state.result
        if state.to_act != TERMINAL or not isinstance(result, HandResult):
            raise GameError("the hand is not finished")
        scores = result.scores
        winner = None
        a, b = scores
        if (max(a, b) >= self.rules.target or min(a, b) <= self.rules.floor) and a != b:
            winner = 0 if a > b else 1
        return self._replace(dealer=(self.dealer + 1) % SEATS, scores=scores, bags=result.bags,
                             hands_played=self.hands_played + 1, winner=winner,
                             results=(*self.results, result))

    # ------------------------------------------------------------------ the game going on

    def without(self, seat: int) -> SpadesMatch:
        """From the next hand on ``seat`` is an open dummy; its team keeps its score."""
        seat = self._seat(seat)
        if seat in self._dummies:
            return self
        return self._replace(dummies=tuple(sorted((*self._dummies, seat))))

    def with_seat(self, seat: int) -> SpadesMatch:
        """``seat``'s player is back from the next hand: it is no longer a dummy."""
        seat = self._seat(seat)
        return self._replace(dummies=tuple(s for s in self._dummies if s != seat))

    def void_hand(self) -> SpadesMatch:
        """The hand being played counts for nothing (no score, no bags) and is not counted; the same
        seat deals again."""
        return self._replace(voided=self.voided + 1)

    def abandon(self) -> SpadesMatch:
        return self._replace(abandoned=True)

    def standings(self) -> Standings:
        seats = tuple(SeatStanding(s, self.scores[s % 2], s % 2, "dummy" if s in self._dummies else "playing")
                      for s in range(SEATS))
        return Standings("spades", seats, self.hands_played, self.over, self._abandoned,
                         (("bags 0", self.bags[0]), ("bags 1", self.bags[1])))

    def summary(self) -> str:
        teams = "; ".join(
            f"team {t} (seats {TEAMS[t][0]} and {TEAMS[t][1]}): {self.scores[t]} points, "
            f"{self.bags[t]} bag{'' if self.bags[t] == 1 else 's'}"
            for t in (0, 1))
        n = self.hands_played
        head = f"after {n} hand{'s' if n != 1 else ''}: " if n else ""
        if self._dummies:
            teams += f" (open dummies: seats {', '.join(map(str, self._dummies))})"
        if self.winner is not None:
            return f"{head}{teams}. Team {self.winner} wins."
        if self._abandoned:
            return f"{head}{teams}. The game was abandoned."
        if self.over:
            return f"{head}{teams}. The game is over: only one player is left at the table."
        return f"{head}{teams}. Target {self.rules.target}, floor {self.rules.floor}."
