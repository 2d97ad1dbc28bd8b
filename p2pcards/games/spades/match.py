"""A game of Spades: hands until a team reaches the target or falls to the floor (S2, S13, S15)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2pcards.games.base import TERMINAL, GameError, HandState, Match
from p2pcards.games.spades.scoring import TEAMS, HandResult
from p2pcards.games.spades.state import SpadesState

if TYPE_CHECKING:
    from p2pcards.games.spades.rules import Rules


class SpadesMatch(Match):
    """The standings between hands: each team's score and bags, the next dealer, the winner."""

    rules: Rules

    def __init__(self, rules: Rules, first_dealer: int = 0, *, dealer: int | None = None,
                 scores: tuple[int, int] = (0, 0), bags: tuple[int, int] = (0, 0), hands_played: int = 0,
                 winner: int | None = None, results: tuple[HandResult, ...] = ()) -> None:
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

    @property
    def over(self) -> bool:
        return self.winner is not None

    def _setup(self) -> dict[str, object]:
        return {"dealer": self.dealer, "scores": self.scores, "bags": self.bags,
                "hand": self.hands_played}

    def new_hand(self) -> SpadesState:
        if self.over:
            raise GameError("the game is over")
        return SpadesState(self.rules, self.dealer, self.scores, self.bags, self.hands_played)

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
        return SpadesMatch(self.rules, self.first_dealer, dealer=(self.dealer + 1) % 4, scores=scores,
                           bags=result.bags, hands_played=self.hands_played + 1, winner=winner,
                           results=(*self.results, result))

    def summary(self) -> str:
        teams = "; ".join(
            f"team {t} (seats {TEAMS[t][0]} and {TEAMS[t][1]}): {self.scores[t]} points, "
            f"{self.bags[t]} bag{'' if self.bags[t] == 1 else 's'}"
            for t in (0, 1))
        n = self.hands_played
        head = f"after {n} hand{'s' if n != 1 else ''}: " if n else ""
        if self.winner is not None:
            return f"{head}{teams}. Team {self.winner} wins."
        return f"{head}{teams}. Target {self.rules.target}, floor {self.rules.floor}."
