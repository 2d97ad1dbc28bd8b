"""A match of Azi: chips across hands and azi replays (A15, A16).

Between hands the match knows every seat's chips, the next dealer (the winner of the last pot), a pot
an azi carries into a replay (with the seats that play it again for free), and who takes part:

* a seat **out** (A15) could not pay the ante at the start of a hand: it takes no further part and
  keeps its chips, frozen, in the standings;
* a seat **away** was taken out by ``without`` (a verdict of the table): it is not dealt in until
  ``with_seat``; what it put into a carried azi pot stays there, as after a fold.

The match ends when fewer than two seats can take part, after ``hands`` hands (option ``hands``,
0 = no limit; an azi replay is part of the hand it replays), or when it is stopped or abandoned.
"""

from __future__ import annotations

from typing import Any

from p2pcards.games.azi.config import AziConfig
from p2pcards.games.azi.hand import AziHand
from p2pcards.games.azi.result import settle_pot
from p2pcards.games.base import (
    TERMINAL,
    GameError,
    HandState,
    Match,
    SeatStanding,
    Standings,
    next_taking_part,
)


class AziMatch(Match):
    """Immutable standings: every seat's chips, the dealer, a pot carried by an azi, who takes part."""

    rules: AziConfig

    def __init__(self, rules: AziConfig, stacks: tuple[int, ...], dealer: int, *, hand_number: int = 0,
                 carried: tuple[int, ...] | None = None, free: tuple[int, ...] = (), azi: int = 0,
                 stopped: bool = False, blind_paid: tuple[int, ...] = (), out: tuple[int, ...] = (),
                 away: tuple[int, ...] = (), hands_played: int = 0, voided: int = 0,
                 abandoned: bool = False) -> None:
        self.rules = rules
        self.stacks = stacks
        self._dealer = dealer
        self.hand_number = hand_number
        """Hand states dealt so far (each azi replay is one more)."""
        self.carried = carried if carried is not None else (0,) * rules.n
        self.free = free
        self.azi = azi
        self.stopped = stopped
        self.blind_paid = blind_paid if any(blind_paid) else ()
        """Per seat, the chips of a carried azi pot paid while blind (A16), or () when none were."""
        self._out = out
        self.away = away
        self.hands_played = hands_played
        """Hands whose pot was won (a replay belongs to the hand it replays; a void hand is none)."""
        self.voided = voided
        self._abandoned = abandoned

    def _replace(self, **changes: Any) -> AziMatch:
        fields: dict[str, Any] = {"hand_number": self.hand_number, "carried": self.carried, "free": self.free,
                  "azi": self.azi, "stopped": self.stopped, "blind_paid": self.blind_paid, "out": self._out,
                  "away": self.away, "hands_played": self.hands_played, "voided": self.voided,
                  "abandoned": self._abandoned}
        stacks = changes.pop("stacks", self.stacks)
        dealer = changes.pop("dealer", self._dealer)
        fields.update(changes)
        return AziMatch(self.rules, stacks, dealer, **fields)

    # ------------------------------------------------------------------ who takes part

    @property
    def chips(self) -> tuple[int, ...]:
        """Each seat's chips: the result of the match (A15).  A pot carried by an azi is apart."""
        return self.stacks

    @property
    def pot(self) -> int:
        """The pot an azi carries into the next hand (0 when there is none)."""
        return sum(self.carried)

    @property
    def out(self) -> tuple[int, ...]:
        """The seats out of the match (A15): they could not pay the ante at the start of a hand.
        Between a hand and its azi replay nobody pays an ante, so nobody goes out then."""
        if self.pot:
            return self._out
        ante = self.rules.ante
        return tuple(s for s in range(self.rules.n)
                     if s in self._out or (s not in self.away and self.stacks[s] < ante))

    @property
    def seated(self) -> tuple[int, ...]:
        """The seats that may act in the next hand: on a first deal those that can pay the ante; before
        an azi replay the free seats and those that may buy in (A14)."""
        return self._taking_part()

    def _taking_part(self) -> tuple[int, ...]:
        n, out, away = self.rules.n, self.out, self.away
        present = [s for s in range(n) if s not in out and s not in away]
        if self.pot:
            price = (self.pot + 1) // 2
            buy_in = self.rules.azi_buy_in
            return tuple(s for s in present if s in self.free or (buy_in and self.stacks[s] >= price))
        return tuple(s for s in present if self.stacks[s] >= self.rules.ante)

    @property
    def dealer(self) -> int:
        """The dealer of the next hand: the winner of the last pot (A6), or, if that seat takes no part,
        the next seat clockwise that does.  An azi replay is dealt by the same dealer even when it takes
        no part in the replay (A14, A16): the deal and the bidding still start at its left."""
        if self.pot:
            return self._dealer
        return next_taking_part(self._dealer, self._taking_part(), self.rules.n)

    @property
    def winner(self) -> int | None:
        """The seat holding every chip, if one does."""
        holders = [s for s, c in enumerate(self.stacks) if c > 0]
        return holders[0] if len(holders) == 1 and self.pot == 0 else None

    @property
    def abandoned(self) -> bool:
        return self._abandoned

    @property
    def over(self) -> bool:
        """Stopped or abandoned; or no azi pot waiting and either the ``hands`` limit is reached or
        fewer than two seats can pay the ante (A15)."""
        if self.stopped or self._abandoned:
            return True
        if self.pot:
            return False
        limit = self.rules.hands
        if limit and self.hands_played >= limit:
            return True
        return len(self._taking_part()) < 2

    # ------------------------------------------------------------------ hands

    def setup(self) -> tuple[tuple[str, Any], ...]:
        """The setup of the next hand.  ``seats`` (the seats not away) appears only when a seat is away,
        ``blind_paid`` only before a replay of a bidding with blind payments, ``voided`` only after a
        void hand, so a
        match where none of that happened deals exactly the setups it always did."""
        setup: list[tuple[str, Any]] = [
            ("hand", self.hand_number), ("dealer", self.dealer), ("stacks", self.stacks),
            ("carried", self.carried), ("free", self.free), ("azi", self.azi)]
        if self.blind_paid:
            setup.append(("blind_paid", self.blind_paid))
        if self.away:
            setup.append(("seats", tuple(s for s in range(self.rules.n) if s not in self.away)))
        if self.voided:
            setup.append(("voided", self.voided))
        return tuple(setup)

    def new_hand(self) -> AziHand:
        if self.over:
            raise GameError("the match is over: " + self.summary())
        return AziHand(self.rules, dict(self.setup()))

    def settle(self, state: HandState) -> AziMatch:
        if not isinstance(state, AziHand) or state.to_act != TERMINAL or state.result is None:
            raise GameError("settle needs a finished azi hand")
        if state.setup != self.setup():
            raise GameError("that hand was not dealt from this match's standings")
        r = state.result
        nxt = self.hand_number + 1
        if r.azi:
            return self._replace(stacks=r.stacks, dealer=self.dealer, hand_number=nxt,
                                 carried=r.contributions, free=r.trick_winners, azi=self.azi + 1,
                                 blind_paid=r.blind_paid)
        assert r.winner is not None
        after = self._replace(stacks=r.stacks, dealer=r.winner, hand_number=nxt, carried=None, free=(),
                              azi=0, blind_paid=(), hands_played=self.hands_played + 1)
        return after._replace(out=after.out)  # A15: whoever cannot pay the next ante is out for good

    # ------------------------------------------------------------------ the game going on

    def without(self, seat: int) -> AziMatch:
        """From the next hand on, ``seat`` is not dealt in; its chips stay, frozen.  If an azi pot is
        carried, what the seat put in stays in it, as after a fold; a free seat left alone to replay it
        wins it at once, as when everybody else folds (A8, A13)."""
        seat = self._seat(seat)
        if seat in self.away:
            return self
        after = self._replace(away=tuple(sorted((*self.away, seat))))
        if seat not in self.free:
            return after
        free = tuple(s for s in self.free if s != seat)
        if len(free) >= 2:
            return after._replace(free=free)
        winner = free[0]
        # as when everybody else folds: an all-in winner takes what it can match (A13, A16)
        paid = self.blind_paid[winner] if self.blind_paid else 0
        payouts = settle_pot(self.carried, winner, self.stacks[winner] == 0, paid)
        stacks = tuple(c + p for c, p in zip(self.stacks, payouts, strict=True))
        won = after._replace(stacks=stacks, dealer=winner, carried=None, free=(), azi=0, blind_paid=(),
                             hands_played=self.hands_played + 1)
        return won._replace(out=won.out)

    def with_seat(self, seat: int) -> AziMatch:
        """``seat`` is back from the next hand with its chips (still out if it cannot pay the ante)."""
        seat = self._seat(seat)
        if seat not in self.away:
            return self
        return self._replace(away=tuple(s for s in self.away if s != seat))

    def void_hand(self) -> AziMatch:
        """The hand being played counts for nothing: every stack as before it, an azi pot carried into
        it carried again, and it is not counted as played.  Its dealer deals again if it takes part."""
        return self._replace(voided=self.voided + 1)

    def stop(self) -> AziMatch:
        """The players agree to stop (A15).  A pot an azi carried goes back to whoever put it in."""
        stacks = tuple(s + c for s, c in zip(self.stacks, self.carried, strict=True))
        return self._replace(stacks=stacks, carried=None, free=(), azi=0, blind_paid=(), stopped=True)

    def abandon(self) -> AziMatch:
        """The match ends now: the players left at the table ended it.  As with ``stop``, a carried pot
        goes back to whoever put it in, so the standings keep every chip."""
        return self.stop()._replace(abandoned=True)

    def standings(self) -> Standings:
        out, away = self.out, self.away
        seats = tuple(
            SeatStanding(s, c, None, "away" if s in away else "out" if s in out else "playing")
            for s, c in enumerate(self.stacks))
        extra = (("pot", self.pot),) if self.pot else ()
        return Standings("azi", seats, self.hands_played, self.over, self._abandoned, extra)

    def summary(self) -> str:
        out, away = self.out, self.away
        parts = [f"seat {s}: {c}" + (" (away)" if s in away else " (out)" if s in out else "")
                 for s, c in enumerate(self.stacks)]
        text = "chips — " + ", ".join(parts)
        if self.pot:
            text += f"; azi pot of {self.pot} carried, seats {', '.join(map(str, self.free))} play again"
        if self.winner is not None:
            text += f"; seat {self.winner} holds every chip"
        elif self._abandoned:
            text += "; the match was abandoned"
        elif self.over:
            text += "; the match is over"
        else:
            text += f"; next dealer seat {self.dealer}"
        return text
