"""A match of Azi: chips across hands and azi replays (A15)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from p2pcards.games.base import TERMINAL, GameError, HandState, Match

if TYPE_CHECKING:
    from p2pcards.games.azi.hand import AziHand
    from p2pcards.games.azi.rules import AziRules


class AziMatch(Match):
    """Immutable standings: every seat's chips, the dealer, and a pot carried by an azi."""

    rules: AziRules

    def __init__(self, rules: AziRules, stacks: tuple[int, ...], dealer: int, *, hand_number: int = 0,
                 carried: tuple[int, ...] | None = None, free: tuple[int, ...] = (), azi: int = 0,
                 stopped: bool = False) -> None:
        self.rules = rules
        self.stacks = stacks
        self.dealer = dealer
        self.hand_number = hand_number
        self.carried = carried if carried is not None else (0,) * rules.n
        self.free = free
        self.azi = azi
        self.stopped = stopped

    @property
    def chips(self) -> tuple[int, ...]:
        """Each seat's chips: the result of the match (A15).  A pot carried by an azi is apart."""
        return self.stacks

    @property
    def pot(self) -> int:
        """The pot an azi carries into the next hand (0 when there is none)."""
        return sum(self.carried)

    @property
    def winner(self) -> int | None:
        """The seat holding every chip, if one does."""
        holders = [s for s, c in enumerate(self.stacks) if c > 0]
        return holders[0] if len(holders) == 1 and self.pot == 0 else None

    @property
    def over(self) -> bool:
        """Stopped, or no other hand can be dealt: one seat holds every chip, or fewer than two seats
        can pay the ante (and no azi pot is waiting to be played for)."""
        if self.stopped:
            return True
        if self.pot:
            return False
        return sum(1 for c in self.stacks if c >= self.rules.ante) < 2

    def setup(self) -> tuple[tuple[str, Any], ...]:
        """The setup of the next hand."""
        return (("hand", self.hand_number), ("dealer", self.dealer), ("stacks", self.stacks),
                ("carried", self.carried), ("free", self.free), ("azi", self.azi))

    def new_hand(self) -> AziHand:
        if self.over:
            raise GameError("the match is over: " + self.summary())
        return self.rules.new_hand(dict(self.setup()))

    def settle(self, state: HandState) -> AziMatch:
        from p2pcards.games.azi.hand import AziHand

        if not isinstance(state, AziHand) or state.to_act != TERMINAL or state.result is None:
            raise GameError("settle needs a finished azi hand")
        if state.setup != self.setup():
            raise GameError("that hand was not dealt from this match's standings")
        r = state.result
        nxt = self.hand_number + 1
        if r.azi:
            return AziMatch(self.rules, r.stacks, self.dealer, hand_number=nxt, carried=r.contributions,
                            free=r.trick_winners, azi=self.azi + 1)
        assert r.winner is not None
        return AziMatch(self.rules, r.stacks, r.winner, hand_number=nxt)

    def stop(self) -> AziMatch:
        """The players agree to stop (A15).  A pot an azi carried goes back to whoever put it in."""
        stacks = tuple(s + c for s, c in zip(self.stacks, self.carried, strict=True))
        return AziMatch(self.rules, stacks, self.dealer, hand_number=self.hand_number, stopped=True)

    def summary(self) -> str:
        parts = [f"seat {s}: {c}" + (" (out)" if c == 0 else "") for s, c in enumerate(self.stacks)]
        text = "chips — " + ", ".join(parts)
        if self.pot:
            text += f"; azi pot of {self.pot} carried, seats {', '.join(map(str, self.free))} play again"
        if self.winner is not None:
            text += f"; seat {self.winner} holds every chip"
        elif self.over:
            text += "; the match is over"
        else:
            text += f"; next dealer seat {self.dealer}"
        return text
