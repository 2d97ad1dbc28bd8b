"""What the Spades players share: a compact hand simulator on bitmasks, and a seat's view turned into one.

A card is the engine's id (``suit * 13 + rank - 2``, spades are suit 3, ids 39..51); a set of cards
is an ``int`` bitmask (bit ``c`` set when card ``c`` is in it).  ``Sim`` is one hand in play with every
hand known (a determinized deal in a search) or with only the acting seat's hand known (a live
decision of a rule-based player: the other hands are empty and ``out`` still holds every unplayed
card).  The heuristics only ever read the acting seat's own hand and the public fields, so the same
code plays a real seat and the seats of a rollout.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from p2pcards.games.base import GameError
from p2pcards.games.spades.state import BID0, SpadesView

SEATS = 4
TRICKS = 13
SPADES = 3
SUIT_MASK: tuple[int, ...] = tuple(0x1FFF << (13 * s) for s in range(4))
SPADE_MASK = SUIT_MASK[3]
NON_SPADES = SUIT_MASK[0] | SUIT_MASK[1] | SUIT_MASK[2]
ALL_CARDS = (1 << 52) - 1
BAG_LIMIT = 10
BAG_PENALTY = 100


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(m: int) -> list[int]:
    """The cards of a mask, lowest id first."""
    out: list[int] = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def lowest(m: int) -> int:
    """The lowest card of a non-empty mask."""
    return (m & -m).bit_length() - 1


def highest(m: int) -> int:
    """The highest card of a non-empty mask."""
    return m.bit_length() - 1


def count(m: int) -> int:
    return m.bit_count()


def above(c: int) -> int:
    """The cards of ``c``'s suit higher than ``c``."""
    return SUIT_MASK[c // 13] & ~((2 << c) - 1)


def below(c: int) -> int:
    """The cards of ``c``'s suit lower than ``c``."""
    return SUIT_MASK[c // 13] & ((1 << c) - 1)


def beats(c: int, best: int) -> bool:
    """Whether ``c`` played now takes the trick from ``best`` (the card winning it so far)."""
    if c >= 39:
        return best < 39 or c > best
    return c > best and c // 13 == best // 13


class Sim:
    """One Spades hand from the first trick on (rules S5-S8), as bitmasks.

    ``hands[s]`` the cards seat ``s`` holds (0 when unknown here), ``out`` every card not yet played,
    ``trick`` the (seat, card) of the current trick, ``best``/``best_seat`` the card winning it,
    ``tricks[s]`` the tricks seat ``s`` took, ``voids[s]`` a 4-bit mask of the suits ``s`` showed it
    lacks, ``bids`` the four bids (0 is nil).
    """

    __slots__ = ("bags", "best", "best_seat", "bids", "broken", "hands", "led", "out", "to_act", "trick",
                 "tricks", "voids")

    hands: list[int]
    out: int
    trick: list[tuple[int, int]]
    led: int
    best: int
    best_seat: int
    to_act: int
    tricks: list[int]
    voids: list[int]
    bids: tuple[int, ...]
    broken: bool
    bags: tuple[int, int]
    """Each team's bags carried into this hand."""

    def clone(self) -> Sim:
        new = Sim.__new__(Sim)
        new.hands = self.hands[:]
        new.out = self.out
        new.trick = self.trick[:]
        new.led = self.led
        new.best = self.best
        new.best_seat = self.best_seat
        new.to_act = self.to_act
        new.tricks = self.tricks[:]
        new.voids = self.voids[:]
        new.bids = self.bids
        new.broken = self.broken
        new.bags = self.bags
        return new

    @property
    def over(self) -> bool:
        return self.out == 0

    def tricks_left(self) -> int:
        """Tricks not yet complete, the current one included."""
        return TRICKS - sum(self.tricks)

    def legal(self) -> int:
        """The mask of the cards the seat to act may play."""
        h = self.hands[self.to_act]
        if self.trick:
            f = h & SUIT_MASK[self.led]
            return f or h
        if self.broken:
            return h
        return (h & NON_SPADES) or h

    def play(self, c: int) -> None:
        """Play card ``c`` (assumed legal) for the seat to act."""
        seat = self.to_act
        bit = 1 << c
        self.hands[seat] &= ~bit
        self.out &= ~bit
        trick = self.trick
        if trick:
            if c // 13 != self.led:
                self.voids[seat] |= 1 << self.led
                if c >= 39:
                    self.broken = True
            best = self.best
            if (c > best and (c >= 39 or c // 13 == best // 13)) or (c >= 39 > best):  # beats()
                self.best = c
                self.best_seat = seat
        else:
            self.led = c // 13
            self.best = c
            self.best_seat = seat
            if c >= 39:
                self.broken = True
        trick.append((seat, c))
        if len(trick) == 4:
            w = self.best_seat
            self.tricks[w] += 1
            self.trick = []
            self.to_act = w
        else:
            self.to_act = (seat + 1) & 3


def sim_from_view(view: SpadesView, hands: Sequence[int] | None = None) -> Sim:
    """The view's hand as a ``Sim``: the seat's own cards, and ``hands`` (per seat) if given."""
    s = Sim.__new__(Sim)
    own = mask_of(view.hand)
    if hands is None:
        s.hands = [0, 0, 0, 0]
        s.hands[view.seat] = own
    else:
        s.hands = list(hands)
    s.out = own | mask_of(view.unseen_cards)
    s.trick = list(view.trick)
    if s.trick:
        first = s.trick[0][1]
        s.led = first // 13
        best_seat, best = s.trick[0]
        for seat, c in s.trick[1:]:
            if beats(c, best):
                best_seat, best = seat, c
        s.best, s.best_seat = best, best_seat
    else:
        s.led = s.best = 0
        s.best_seat = -1
    s.to_act = view.to_act
    s.tricks = list(view.tricks_won)
    v = [0, 0, 0, 0]
    for seat, suits in enumerate(view.voids):
        for suit in suits:
            v[seat] |= 1 << suit
    s.voids = v
    bids = view.bids
    if any(b is None for b in bids):
        raise GameError("the play starts once every seat has bid")
    s.bids = tuple(int(b) for b in bids if b is not None)
    s.broken = view.spades_broken
    s.bags = view.bags
    return s


def held_counts(view: SpadesView) -> list[int]:
    """How many cards each seat still holds."""
    done = (len(view.played) - len(view.trick)) // 4
    counts = [TRICKS - done] * 4
    for seat, _ in view.trick:
        counts[seat] -= 1
    return counts


def played_by(view: SpadesView) -> list[list[int]]:
    """Per seat, the cards it played this hand (rebuilt from the order of play and the winners)."""
    out: list[list[int]] = [[], [], [], []]
    leader = (view.dealer + 1) % 4
    played = view.played
    for k in range(0, len(played), 4):
        chunk = played[k:k + 4]
        best, best_seat = chunk[0], leader
        for i, c in enumerate(chunk):
            seat = (leader + i) % 4
            out[seat].append(c)
            if i and beats(c, best):
                best, best_seat = c, seat
        leader = best_seat
    return out


def team_points(bids: Sequence[int], tricks: Sequence[int], team: int, bags_before: int,
                failed_nil: str = "count") -> tuple[int, int]:
    """A team's points for a hand (S9-S13) and the bags it took, from bids and tricks per seat."""
    contract = counted = nil_points = nil_bags = 0
    for seat in (team, team + 2):
        bid = bids[seat]
        took = tricks[seat]
        contract += bid
        if bid == 0:
            nil_points += 100 if took == 0 else -100
            if took and failed_nil != "count":
                if failed_nil == "bags_only":
                    nil_bags += took
                continue
        counted += took
    if counted >= contract:
        bags = counted - contract + nil_bags
        points = 10 * contract + bags
    else:
        bags = nil_bags
        points = -10 * contract + nil_bags
    total = bags_before + bags
    while total >= BAG_LIMIT:
        total -= BAG_LIMIT
        points -= BAG_PENALTY
    return points + nil_points, bags


def bid_of(action: int) -> int:
    return action - BID0
