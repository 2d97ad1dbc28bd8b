"""The play of Azi's tricks (A10-A12): the rules ``AziHand`` plays by, and its search copy.

``legal_mask`` and ``power`` are the rules of a card played: ``AziHand`` asks them for its legal
cards and its trick winners, and so does ``AziPlay``.

``AziPlay`` is the play of one hand with every card known, for a search (``AziHand.play_copy`` of a
determinized state): each hand a bit mask of its cards, the trick, the tricks won, and nothing else
-- no positions, history, record or knowledge of who saw what -- so that a clone is a few attribute
copies.  It moves by ``apply`` like the hand and ends as the hand does: a seat with two tricks takes
the pot (``winner``), three tricks to three seats are an azi (``winner`` None).
"""

from __future__ import annotations

from p2pcards.games.azi import actions as act
from p2pcards.games.base import TERMINAL, Action, ActionError, IllegalAction
from p2pcards.games.cards import Card, card_text

_PLAY0 = act.PLAY0
_PLAY_END = act.PLAY0 + 52

SUIT_MASKS: tuple[int, ...] = tuple(0x1FFF << 13 * suit for suit in range(4))
"""The cards of each suit, as a mask (bit ``c`` for card ``c``)."""


def legal_mask(hand: int, led: int, trump: int) -> int:
    """The cards of ``hand`` (a mask) that may be played to a trick led in suit ``led`` (-1: the seat
    leads, any card): the suit led if it holds any, else a trump if it holds any, else any (A10)."""
    if led < 0:
        return hand
    return hand & SUIT_MASKS[led] or hand & SUIT_MASKS[trump] or hand


def power(c: Card, led: int, trump: int, top: Card) -> int:
    """How strong ``c`` is in a trick led in suit ``led`` (A3, A11); -1: it cannot win it."""
    if c == top:
        return 100
    if c // 13 == trump:
        return 50 + c % 13
    return c % 13 if c // 13 == led else -1


_POWERS: dict[tuple[int, Card], tuple[tuple[int, ...], ...]] = {}
_ACTIONS: dict[int, tuple[Action, ...]] = {}


def _powers(trump: int, top: Card) -> tuple[tuple[int, ...], ...]:
    """``power`` as a table, ``[led][card]``, for one trump suit and stage card (built once)."""
    key = (trump, top)
    table = _POWERS.get(key)
    if table is None:
        table = tuple(tuple(power(c, led, trump, top) for c in range(52)) for led in range(4))
        _POWERS[key] = table
    return table


_AFTER: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}


def _after(order: tuple[int, ...], n: int) -> tuple[int, ...]:
    """Per seat of ``n``, the next seat of ``order`` after it (-1 for seats not in it; built once)."""
    key = (order, n)
    got = _AFTER.get(key)
    if got is None:
        after = [-1] * n
        for i, s in enumerate(order):
            after[s] = order[(i + 1) % len(order)]
        got = _AFTER[key] = tuple(after)
    return got


def play_actions(mask: int) -> tuple[Action, ...]:
    """The ``play`` actions of the cards of a mask, in card order."""
    got = _ACTIONS.get(mask)
    if got is None:
        got = tuple(act.PLAY0 + c for c in range(52) if mask >> c & 1)
        _ACTIONS[mask] = got
    return got


class AziPlay:
    """The rest of a hand's play with every card known (see the module docstring).

    Per-seat lists have one entry per seat of the table; seats not in the play hold nothing."""

    __slots__ = ("_powers", "after", "best", "hands", "led", "players", "to_act", "top_card", "trick",
                 "trump_suit", "who", "winner", "won")

    def __init__(self, hands: list[int], order: tuple[int, ...], to_act: int,
                 trick: tuple[tuple[int, Card], ...], won: list[int], trump_suit: int,
                 top_card: Card) -> None:
        """``order``: the seats in the play, clockwise; ``trick``: the (seat, card) already played to
        the trick; ``to_act``: the seat that plays next."""
        self.after = _after(order, len(hands))
        """The seat after each seat in the play (the tricks go round without the others)."""
        self.hands = hands
        self.players = len(order)
        self.to_act = to_act
        self.trick = trick
        self.won = won
        self.trump_suit = trump_suit
        self.top_card = top_card
        self.winner: int | None = None
        self._powers = _powers(trump_suit, top_card)
        self.led = -1
        """The suit led to the trick (-1: none yet)."""
        self.best = -2
        """The power of the best card in the trick, and its seat."""
        self.who = -1
        if trick:
            self.led = led = trick[0][1] // 13
            for s, c in trick:
                if self._powers[led][c] > self.best:
                    self.best, self.who = self._powers[led][c], s

    def clone(self) -> AziPlay:
        new = _new(AziPlay)
        new.after = self.after
        new.hands = self.hands[:]
        new.players = self.players
        new.to_act = self.to_act
        new.trick = self.trick
        new.won = self.won[:]
        new.trump_suit = self.trump_suit
        new.top_card = self.top_card
        new.winner = self.winner
        new._powers = self._powers
        new.led = self.led
        new.best = self.best
        new.who = self.who
        return new

    @property
    def over(self) -> bool:
        return self.to_act == TERMINAL

    def legal_mask(self) -> int:
        """The cards the seat to act may play, as a mask (0 when the hand is over)."""
        s = self.to_act
        if s < 0:
            return 0
        return legal_mask(self.hands[s], self.led, self.trump_suit)

    def legal_actions(self) -> list[Action]:
        """The same cards as ``AziHand.legal_actions`` in the play, in card order."""
        return list(play_actions(self.legal_mask()))

    def apply(self, action: Action) -> None:
        s = self.to_act
        if s < 0:
            raise ActionError("no seat is to act now: the hand is over", rule="A12")
        if action.__class__ is not int or not _PLAY0 <= action < _PLAY_END:
            raise IllegalAction("it is the play: play a card", seat=s, rule="A10")
        c = action - _PLAY0
        bit = 1 << c
        h = self.hands[s]
        led = self.led
        # a card held is legal on a lead or in the suit led; otherwise ``legal_mask`` decides
        if not h & bit or (led >= 0 and c // 13 != led and not legal_mask(h, led, self.trump_suit) & bit):
            if not h & bit:
                raise IllegalAction(f"seat {s} does not hold {card_text(c)}", seat=s, rule="A2")
            raise IllegalAction(f"seat {s} must follow suit, or else play a trump", seat=s, rule="A10")
        if led < 0:
            self.led = led = c // 13
            self.best = self._powers[led][c]
            self.who = s
        else:
            p = self._powers[led][c]
            if p > self.best:
                self.best = p
                self.who = s
        self.hands[s] = h ^ bit
        trick = self.trick
        if len(trick) + 1 < self.players:
            self.trick = (*trick, (s, c))
            self.to_act = self.after[s]
            return
        # the trick is complete: its winner leads the next, or the hand ends (A12, A14)
        w = self.who
        won = self.won
        won[w] += 1
        self.trick = ()
        self.led = -1
        if won[w] == 2:
            self.winner = w
            self.to_act = TERMINAL
        elif sum(won) == 3:
            self.to_act = TERMINAL
        else:
            self.to_act = w


def _new(cls: type[AziPlay]) -> AziPlay:
    return object.__new__(cls)
