"""The bidding for the lead (A6-A9), as functions of the hand state.

Each seat's payments in the bidding count for ``vbet`` (twice what it paid while blind, A7); the
highest bet is ``level``.  Until somebody opens with ``bet N`` (counting for at least the ante),
nobody can call.  A raise pays the call and ``N`` chips more and claims the lead; every other seat
still able to pay must then answer.  The bidding ends when nobody has to answer (A8).
"""

from __future__ import annotations

from typing import Protocol

from p2pcards.games.azi import actions as act
from p2pcards.games.base import Action, IllegalAction


class AziHand(Protocol):
    """What the bidding reads and writes of a hand (``hand.AziHand`` is the one implementation; a
    protocol keeps this module below it, with no import back)."""

    n: int
    ante: int
    level: int
    opened: bool
    lead_claim: int
    stack: list[int]
    contrib: list[int]
    vbet: list[int]
    raises: list[int]
    need_act: list[bool]
    inhand: list[bool]
    folded: list[bool]
    blind: list[bool]
    blind_paid: list[int]
    hands: list[list[int]]
    mucked: list[int]
    _turn: int

    @property
    def dealer(self) -> int: ...

    def _illegal(self, message: str, rule: str, seat: int | None = None) -> IllegalAction: ...

    def _look(self, s: int) -> None: ...

    def _finish(self, winner: int | None, uncontested: bool) -> None: ...

    def _end_bidding(self) -> None: ...

MAX_RAISES = 3


def start(h: AziHand) -> None:
    h.level = 0
    h.opened = False
    h.lead_claim = -1
    for s in range(h.n):
        h.vbet[s] = 0
        h.raises[s] = 0
        h.need_act[s] = h.inhand[s] and not h.folded[s] and h.stack[s] > 0
    next_bidder(h, h.dealer)


def call_cost(h: AziHand, s: int) -> int:
    """What seat ``s`` pays to call the highest bet (half the gap, rounded up, while blind: A7)."""
    gap = h.level - h.vbet[s]
    return (gap + 1) // 2 if h.blind[s] else gap


def call_action(h: AziHand, s: int) -> Action:
    """How seat ``s`` stays in at the least cost: ``call`` (before anybody bet, the opening bet of
    ``min_bet``), or ``allin`` when it cannot pay that (A6, A9)."""
    if not h.opened:
        mn = min_bet(h, s)
        return act.bet(mn) if mn <= h.stack[s] else act.ALLIN
    return act.CALL if call_cost(h, s) <= h.stack[s] else act.ALLIN


def min_bet(h: AziHand, s: int) -> int:
    """The smallest opening bet of seat ``s``: its payment must count for the ante (A6, A7)."""
    return (h.ante + 1) // 2 if h.blind[s] else h.ante


def actions(h: AziHand, s: int) -> list[Action]:
    """The legal bidding actions of seat ``s``, in increasing order (every amount it can pay)."""
    st = h.stack[s]
    out = [act.FOLD]
    if h.opened:
        cost = call_cost(h, s)
        out.append(call_action(h, s))
        if h.blind[s]:
            out.append(act.LOOK)
        if cost < st and h.raises[s] < MAX_RAISES:
            out += range(act.rais(1), act.rais(st - cost) + 1, 2)
    else:
        mn = min_bet(h, s)
        if st < mn:
            out.append(act.ALLIN)
        if h.blind[s]:
            out.append(act.LOOK)
        if st >= mn:
            out += range(act.bet(mn), act.bet(st) + 1, 2)
    return out


def apply(h: AziHand, s: int, a: Action) -> None:
    """Check the bidding action ``a`` of seat ``s`` and apply it (nothing changes on error)."""
    st = h.stack[s]
    mult = 2 if h.blind[s] else 1
    if a == act.LOOK:
        if not h.blind[s]:
            raise h._illegal("you are not blind: you have seen your cards", "A7")
        h._look(s)
        return
    if a == act.FOLD:
        fold(h, s)
        return
    if a == act.CALL:
        if not h.opened:
            raise h._illegal(f"nobody has bet yet: open with at least {min_bet(h, s)} or fold", "A6")
        cost = call_cost(h, s)
        if cost > st:
            raise h._illegal(f"the call costs {cost} and you have {st}: go allin or fold", "A9")
        _pay(h, s, cost)
        h.vbet[s] = h.level
    elif a == act.ALLIN:
        needed = call_cost(h, s) if h.opened else min_bet(h, s)
        if st >= needed:
            raise h._illegal(f"allin is for a player who cannot pay {needed}; you have {st}", "A9")
        # the player stays in the hand, but an all-in never claims the lead (A9)
        _pay(h, s, st)
        h.vbet[s] += st * mult
    elif act.is_amount(a):
        n = act.amount_of(a)
        if not act.is_raise(a):
            if h.opened:
                raise h._illegal("the bidding is open: call, raise or fold", "A6")
            if n < min_bet(h, s):
                raise h._illegal(f"the opening bet is at least {min_bet(h, s)}", "A6")
            if n > st:
                raise h._illegal(f"you have only {st} chips", "A6")
            _pay(h, s, n)
            h.level = h.vbet[s] = n * mult
            h.opened = True
        else:
            if not h.opened:
                raise h._illegal(f"nobody has bet yet: open with at least {min_bet(h, s)}", "A6")
            if h.raises[s] >= MAX_RAISES:
                raise h._illegal(f"a player raises at most {MAX_RAISES} times in a hand", "A8")
            cost = call_cost(h, s)
            if cost + n > st:
                raise h._illegal(f"the call costs {cost}; you can raise at most {st - cost}", "A6")
            _pay(h, s, cost + n)
            h.level += n * mult
            h.vbet[s] = h.level
            h.raises[s] += 1
        h.lead_claim = s
        for t in range(h.n):
            h.need_act[t] = h.inhand[t] and not h.folded[t] and h.stack[t] > 0
    else:
        raise h._illegal("it is the bidding for the lead", "A6")
    h.need_act[s] = False
    next_bidder(h, s)


def _pay(h: AziHand, s: int, x: int) -> None:
    h.stack[s] -= x
    h.contrib[s] += x
    if h.blind[s]:
        h.blind_paid[s] += x  # counts double for this seat if it wins all-in (A16)


def fold(h: AziHand, s: int) -> None:
    h.folded[s] = True
    h.need_act[s] = False
    h.mucked += h.hands[s]
    h.hands[s] = []
    left = [t for t in range(h.n) if h.inhand[t] and not h.folded[t]]
    if len(left) == 1:
        h._finish(left[0], uncontested=True)
    else:
        next_bidder(h, s)


def next_bidder(h: AziHand, after: int) -> None:
    """Give the turn to the next seat clockwise that must answer, or end the bidding."""
    n = h.n
    for i in range(1, n + 1):
        t = (after + i) % n
        if h.need_act[t]:
            h._turn = t
            return
    h._end_bidding()
