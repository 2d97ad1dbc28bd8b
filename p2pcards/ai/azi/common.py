"""What the Azi players share: card strength, the view flattened, and the Normal estimate.

Everything here is arithmetic on a seat's view.  Floats appear only in estimates a player makes for
itself (never in anything replicated); every choice made from them breaks ties by card or action
number, so a player's decisions depend on nothing but the view and its seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb, exp

from p2pcards.games.azi import AziHand, AziView
from p2pcards.games.azi import actions as act
from p2pcards.games.base import UNKNOWN, Action
from p2pcards.games.cards import Card

TOP = 99
"""The order of the six of trumps on stage (A3): above every other card."""


# --------------------------------------------------------------------------- cards


def order(c: Card, trump: int, top: Card) -> int:
    """How strong a card is on its own: plain cards 0..12 by rank, trumps 50..62, the six on stage 99."""
    if c == top:
        return TOP
    r = c % 13
    return 50 + r if c // 13 == trump else r


def power(c: Card, led: int, trump: int, top: Card) -> int:
    """How strong ``c`` is in a trick led in suit ``led`` (A3, A11); -1: it cannot win it."""
    if c == top:
        return TOP
    if c // 13 == trump:
        return 50 + c % 13
    return c % 13 if c // 13 == led else -1


def lowest(cards: tuple[Card, ...] | list[Card], trump: int, top: Card) -> Card:
    """The weakest card: plain cards before trumps, low ranks first (ties by card id)."""
    return min(cards, key=lambda c: (order(c, trump, top), c))


def trick_best(trick: tuple[tuple[int, Card], ...], trump: int, top: Card) -> tuple[int, int]:
    """``(power, seat)`` of the card winning the trick so far (``(-1, -1)`` for an empty trick)."""
    if not trick:
        return -1, -1
    led = trick[0][1] // 13
    best, who = -2, -1
    for s, c in trick:
        p = power(c, led, trump, top)
        if p > best:
            best, who = p, s
    return best, who


def plays(legal: tuple[Action, ...]) -> list[Card]:
    """The cards among the legal actions, in card order."""
    return sorted(a - act.PLAY0 for a in legal if act.PLAY0 <= a < act.AMOUNT0)


# --------------------------------------------------------------------------- the view, flattened


@dataclass(slots=True)
class Table:
    """A seat's view of the hand, with what the masked state shows publicly (which positions each
    seat holds, the public history of actions) read once per decision."""

    view: AziView
    masked: AziHand
    seat: int
    n: int
    trump: int
    trump_card: Card
    top: Card
    dealer: int
    hand: tuple[Card, ...]
    """My cards that I have seen (in dealt order)."""
    blind: bool
    active: tuple[int, ...]
    """Seats still in the hand (dealt in, not folded), in seat order."""
    known: tuple[tuple[Card, ...], ...]
    """Per seat, the cards of its hand everyone (or I) can see: my own, the dealer's trump card."""
    hidden: tuple[int, ...]
    """Per seat, how many cards of its hand I cannot see."""
    gone: frozenset[Card]
    """Cards that are known and in no opponent's hand: played, in the current trick, my own, and
    the trump card of a dealer who folded (for the estimate: what no opponent can hold)."""

    @classmethod
    def of(cls, view: AziView) -> Table:
        m = view.determinize({})  # the masked state: positions and public history, no hidden card
        assert isinstance(m, AziHand)
        me = view.seat
        ca = m.card_at
        known: list[tuple[Card, ...]] = []
        hidden: list[int] = []
        for t in range(m.n):
            ks = tuple(ca[p] for p in m.hands[t] if ca[p] != UNKNOWN)
            known.append(ks)
            hidden.append(len(m.hands[t]) - len(ks))
        gone = {c for _, c in view.played} | {c for _, c in view.trick} | set(view.hand)
        active = tuple(t for t in range(m.n) if view.in_hand[t])
        if view.trump != UNKNOWN and view.dealer not in active:
            gone.add(view.trump)  # the dealer folded: its trump card is in no hand
        return cls(view, m, me, m.n, view.trump_suit, view.trump, view.top_card, view.dealer,
                   tuple(view.hand), view.blind[me], active, tuple(known), tuple(hidden),
                   frozenset(gone))

    @property
    def opponents(self) -> tuple[int, ...]:
        return tuple(t for t in self.active if t != self.seat)

    def dealer_trump(self) -> Card:
        """The trump card if an opponent still in the hand holds it (everyone knows it), else -1."""
        d = self.dealer
        if d != self.seat and d in self.active and self.trump_card in self.known[d]:
            return self.trump_card
        return -1


# --------------------------------------------------------------------------- the Normal estimate


def _frac(u: int, k: int, h: int) -> float:
    """The chance that ``h`` cards drawn from ``u`` avoid ``k`` given ones."""
    if h <= 0:
        return 1.0
    if k <= 0:
        return 1.0
    if u - k < h:
        return 0.0
    return comb(u - k, h) / comb(u, h)


FOLLOW_FACTOR = 0.55
"""A plain card is worth this share of its leading chance when the seat does not lead the first
trick: the suit led is somebody else's choice."""


def card_chances(hand: tuple[Card, ...] | list[Card], trump: int, top: Card,
                 gone: frozenset[Card] | set[Card], deck: tuple[Card, ...], opponents: int,
                 per_opp: int, dealer_trump: Card = -1, leading: bool = True) -> list[float]:
    """Per card of ``hand``, the chance that it wins a trick it leads (or, when not ``leading``, the
    chance it wins a trick somebody else leads, roughly), against ``opponents`` seats with
    ``per_opp`` unseen cards each.  ``dealer_trump`` is the trump card held by one of them.

    Each opponent is treated apart (an approximation): it beats a plain card with a higher one of
    the suit, or by holding none of the suit and a trump; it beats a trump with a higher trump."""
    pool = [c for c in deck if c not in gone and c not in hand and c != dealer_trump]
    u = len(pool)
    out: list[float] = []
    dt_opp = 1 if dealer_trump >= 0 else 0
    for c in hand:
        oc = order(c, trump, top)
        if c == top:
            out.append(1.0)
            continue
        if c // 13 == trump:
            higher = sum(1 for x in pool if x // 13 == trump and order(x, trump, top) > oc)
            p_one = _frac(u, higher, per_opp)
            p = p_one ** (opponents - dt_opp)
            if dt_opp:
                if order(dealer_trump, trump, top) > oc:
                    p = 0.0
                else:
                    p *= _frac(u, higher, per_opp - 1)
            out.append(p)
            continue
        s = c // 13
        higher = sum(1 for x in pool if x // 13 == s and x % 13 > c % 13)
        lower = sum(1 for x in pool if x // 13 == s and x % 13 < c % 13)
        trumps = sum(1 for x in pool if x // 13 == trump)
        no_hi = _frac(u, higher, per_opp)
        no_suit = _frac(u, higher + lower, per_opp)
        no_suit_no_trump = _frac(u, higher + lower + trumps, per_opp)
        p_one = no_hi - (no_suit - no_suit_no_trump)
        p = max(0.0, p_one) ** (opponents - dt_opp)
        if dt_opp:  # the dealer holds a trump: it beats us unless it must follow suit lower
            p *= max(0.0, _frac(u, higher, per_opp - 1) - _frac(u, higher + lower, per_opp - 1))
        out.append(p if leading else p * FOLLOW_FACTOR)
    return out


CHANCE_MODEL: dict[tuple[int, bool], tuple[float, float, float, float]] = {
    (2, True): (-2.908, 2.902, 2.502, 1.75), (2, False): (-3.656, 2.881, 3.401, 1.787),
    (3, True): (-2.622, 2.725, 2.99, 2.423), (3, False): (-2.813, 2.497, 2.923, 2.437),
    (4, True): (-2.712, 3.081, 3.496, 3.151), (4, False): (-2.915, 2.648, 3.625, 3.085),
    (5, True): (-2.788, 2.929, 5.16, 3.815), (5, False): (-3.072, 2.658, 4.444, 3.361),
    (6, True): (-2.75, 2.773, 4.898, 4.74), (6, False): (-3.249, 2.868, 5.059, 4.956),
}
"""Per (players in the hand, leading the first trick): a logistic model of the hand's share of the
pot from its three per-card chances, strongest first: ``1 / (1 + exp(-(b0 + b1 p1 + b2 p2 + b3 p3)))``.
Fitted once, offline (logistic regression), on 12,000 random deals per table size against the
exact play of every hand (``solver``), with the pot counted 1 for two tricks and 1/3 for a trick
in an azi; the model is calibrated within a few points in each fifth of its range."""


def two_of(ps: list[float], players: int, leading: bool) -> float:
    """The chance of taking the pot (two tricks; an azi with a trick counts a third) from per-card
    chances (the best three count: with four cards one is discarded, A4)."""
    top3 = [*sorted(ps, reverse=True), 0.0, 0.0, 0.0][:3]
    b0, b1, b2, b3 = CHANCE_MODEL[(max(2, min(6, players)), leading)]
    z = b0 + b1 * top3[0] + b2 * top3[1] + b3 * top3[2]
    return 1.0 / (1.0 + exp(-z))


def win_chance(hand: tuple[Card, ...] | list[Card], trump: int, top: Card,
               gone: frozenset[Card] | set[Card], deck: tuple[Card, ...], opponents: int,
               per_opp: int = 3, dealer_trump: Card = -1, leading: bool = False) -> float:
    """Normal's estimate of the chance to take two tricks with ``hand`` (at the start of the play)."""
    if opponents <= 0:
        return 1.0
    ps = card_chances(hand, trump, top, gone, deck, opponents, per_opp, dealer_trump, True)
    return two_of(ps, opponents + 1, leading)


def weakest(hand: tuple[Card, ...], trump: int, top: Card, gone: frozenset[Card] | set[Card],
            deck: tuple[Card, ...], opponents: int, dealer_trump: Card = -1) -> int:
    """The index of the card to discard (A4): the one whose loss costs the least two-trick chance."""
    best_i, best_w = 0, -1.0
    for i in range(len(hand)):
        rest = hand[:i] + hand[i + 1:]
        w = win_chance(rest, trump, top, gone, deck, opponents, 3, dealer_trump, leading=True)
        # ties: throw the weaker card
        if w > best_w + 1e-12 or (abs(w - best_w) <= 1e-12 and
                                    order(hand[i], trump, top) < order(hand[best_i], trump, top)):
            best_i, best_w = i, w
    return best_i


def amount_action(legal: frozenset[Action], raise_: bool, n: int, lo: int, hi: int) -> Action | None:
    """``bet n`` / ``raise n`` clamped to ``[lo, hi]``, if legal."""
    if hi < lo:
        return None
    n = max(lo, min(hi, int(n)))
    a = act.rais(n) if raise_ else act.bet(n)
    return a if a in legal else None


# --------------------------------------------------------------------------- Normal's bidding rule

FOLD, CALL, RAISE, LOOK = "fold", "call", "raise", "look"

RAISE_CHANCE = 0.5
"""Normal raises (or opens above the minimum) when its leading two-trick chance reaches this."""
CALL_MARGIN = 1.1
"""Normal calls when its chance times the pot after the call beats the cost by this factor."""
BLIND_SHARE = 0.8
"""A blind seat counts on this share of an even split of the pot (it will not lead, and the others
chose to stay having seen their cards)."""
BLIND_CAP = 2
"""A blind call costs at most this many antes, or the seat looks first."""


@dataclass(frozen=True, slots=True)
class Spot:
    """A bidding decision as Normal sees it (all chips are what the seat pays, blind discounts
    included)."""

    pot: int
    cost: int
    """What a call costs (the opening minimum when nobody has bet yet)."""
    opened: bool
    players: int
    """Seats still in the hand, this one included."""
    raises_made: int
    stack: int
    ante: int
    blind: bool
    informed: bool
    """Somebody still in the hand bet having seen their cards."""


def max_raises(w: float) -> int:
    return 1 if w < 0.7 else (2 if w < 0.85 else 3)


def raise_size(w: float, pot: int, ante: int) -> int:
    """Normal's raise: about two thirds of the pot times its chance, in whole antes."""
    return ante * max(1, int(2 * w * pot / (3 * ante)))


def normal_bid(spot: Spot, w_lead: float, w_follow: float) -> tuple[str, int]:
    """Normal's bidding rule: ``(kind, chips)``; ``chips`` is the raise (or opening bet) size.

    Blind: call (or open) blind when nobody has bet having seen their cards, the call is cheap and
    an even share of the pot pays for it; else look.  Open: raise when the two-trick chance as
    leader is high, else call when the chance as a follower pays the pot odds, else fold."""
    if spot.blind:
        share = BLIND_SHARE / max(1, spot.players)
        if not spot.informed and spot.cost <= BLIND_CAP * spot.ante and \
                share * (spot.pot + spot.cost) >= spot.cost:
            return CALL, 0
        return LOOK, 0
    cost = spot.cost
    if w_lead >= RAISE_CHANCE and spot.raises_made < max_raises(w_lead) and cost < spot.stack:
        return RAISE, raise_size(w_lead, spot.pot, spot.ante)
    w = w_lead if not spot.opened else w_follow
    if w * (spot.pot + cost) >= cost * CALL_MARGIN:
        return CALL, 0
    return FOLD, 0


def spot_of(t: Table) -> Spot:
    v = t.view
    opened = v.level > 0
    cost = v.call_cost if opened else v.min_bet
    informed = any(v.bets[s] > 0 and not v.blind[s] for s in t.active if s != t.seat)
    return Spot(v.pot, cost, opened, len(t.active), v.raises[t.seat], v.stacks[t.seat],
                t.masked.ante, t.blind, informed)


def bid_action(view: AziView, kind: str, amount: int) -> Action:
    """The legal action for a bidding decision (``kind`` from ``normal_bid``)."""
    legal = view.legal_actions
    ls = frozenset(legal)
    me = view.seat
    stack = view.stacks[me]
    opened = view.level > 0
    if kind == LOOK and act.LOOK in ls:
        return act.LOOK
    if kind == FOLD:
        return act.FOLD
    if kind == RAISE:
        if opened:
            a = amount_action(ls, True, amount, 1, stack - view.call_cost)
        else:
            a = amount_action(ls, False, amount, view.min_bet, stack)
        if a is not None:
            return a
    # a call: the call, the opening minimum, or everything when that is all the seat has
    if act.CALL in ls:
        return act.CALL
    if not opened:
        a = amount_action(ls, False, view.min_bet, view.min_bet, stack)
        if a is not None:
            return a
    if act.ALLIN in ls:
        return act.ALLIN
    return act.FOLD
