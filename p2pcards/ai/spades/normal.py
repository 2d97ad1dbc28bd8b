"""Normal: rule-based bidding and play, the rollout policy of Hard.

Bidding (``estimate``): aces and kings of the side suits (a king counts when guarded), the top spades
(a spade honour counts when the spades below it can guard it), long spades (every spade past the
third), and ruffs (a void, a singleton or a doubleton with spades to spare).  The estimate is
rounded down a little (a set costs more than a bag).  A hand with no ace, no high spade, at most
three spades and every king or queen guarded by low cards bids **nil** (unless partner already bid
nil); the partner of a nil bidder bids one more to cover.  With blind nil (S16) it bids **blind nil**
when its team is ``BLIND_GAP`` (200) or more behind and its partner has already bid ``BLIND_COVER`` (4)
or more (``normal_blind``), and looks otherwise; a blind nil is a nil for everything else (it plays it,
its partner covers it).

Play (``normal_card``), from the seat's own hand and the public cards only:

* its own **nil**: never win if it can help it: follow with the highest card that still loses,
  discard its highest cards, lead the card with the fewest lower cards still out;
* **partner's nil** (not yet failed): win the trick over the nil bidder: play high in front of it,
  overtake or ruff a trick it is winning, lead high;
* **contract not made**, or the opponents short and needing all but ``SET_SLACK`` of the tricks left
  (all but one once the team carries ``BAGS_WARY`` bags): take tricks: lead a card that is the
  highest still out in its suit (drawing spades first with the top spade and length), else low from
  a short suit; second hand low, third hand high, fourth hand the cheapest winner; ruff a side suit
  it lacks; do not overtake a partner's card that must hold;
* **contract made** (otherwise: bags): duck: follow with the highest card that loses, discard high,
  lead low;
* an **opponent's nil**: lead low into it and never overtake a nil bidder who is winning a trick.

``normal_card`` works on the engine's state (``SpadesState``: its masks of the hands and the shown
voids, and ``legal_mask``) and reads only the hand of the seat to act and public fields (the cards
still out elsewhere, voids shown, bids, tricks, the trick), so the same code plays a live seat (on the
view's own state, the other hands unknown) and every seat of Hard's rollouts (on a full deal).
"""

from __future__ import annotations

from p2pcards.ai.spades.common import (
    NON_SPADES,
    SPADE_MASK,
    SUIT_MASK,
    count,
    highest,
    lowest,
    mask_of,
)
from p2pcards.games.base import Action, Rules
from p2pcards.games.rng import Rng
from p2pcards.games.spades.state import BID0, BLIND_NIL, LOOK, SpadesState, SpadesView

# --------------------------------------------------------------------------- bidding

ACE, KING, QUEEN, JACK = 12, 11, 10, 9
"""Ranks as ``card % 13``."""


def estimate(h: int) -> float:
    """The tricks a 13-card hand (a mask) expects to take (see the module docstring)."""
    sp = h & SPADE_MASK
    ns = count(sp)
    tricks = 0.0
    honours = 0
    if sp >> 51 & 1:  # A
        tricks += 1.0
        honours += 1
    if sp >> 50 & 1:  # K
        tricks += 1.0 if ns >= 2 else 0.4
        honours += 1
    if sp >> 49 & 1:  # Q
        tricks += 0.9 if ns >= 3 else 0.3
        honours += 1
    if sp >> 48 & 1 and ns >= 4:  # J
        tricks += 0.5
    if ns > 3:
        tricks += 0.9 * (ns - max(3, honours))
    spare = max(0, ns - round(tricks))
    lengths = []
    for s in range(3):
        m = (h >> (13 * s)) & 0x1FFF
        n = count(m)
        lengths.append(n)
        if m >> ACE & 1:
            tricks += 1.0 if n <= 5 else 0.8
        if m >> KING & 1:
            if n >= 2:
                tricks += (0.9 if m >> ACE & 1 else 0.7) if n <= 5 else 0.5
            else:
                tricks += 0.15
        if m >> QUEEN & 1 and 3 <= n <= 4:
            tricks += 0.45 if m >> 11 & 3 else 0.25
    for n in sorted(lengths):
        if spare <= 0 or n > 2:
            break
        use = min(spare, 2 - n) if n < 2 else 1
        tricks += (0.9 if n < 2 else 0.4) * use
        spare -= use
    return tricks


def nil_ok(h: int) -> bool:
    """Whether a 13-card hand (a mask) is safe enough to bid nil."""
    sp = (h >> 39) & 0x1FFF
    ns = count(sp)
    if ns > 3 or sp >> QUEEN:  # A, K or Q of spades, or too many spades
        return False
    if ns == 3 and sp >> JACK:
        return False
    for s in range(3):
        m = (h >> (13 * s)) & 0x1FFF
        n = count(m)
        if m >> ACE & 1:
            return False
        low = count(m & 0x3F)  # 2..7
        if m >> KING & 1 and low < NIL_KING_LOW:
            return False
        if m >> QUEEN & 1 and low < NIL_QUEEN_LOW:
            return False
        if m >> JACK & 1 and n - count(m >> JACK) < 1:
            return False
    return True


BID_SHADE = 0.3
SET_SLACK = 4
"""Having made its contract, a team still takes tricks (to set the opponents) while they need all
but this many of the tricks left..."""
BAGS_WARY = 7
"""...unless it carries this many bags: then only when they need all but one."""
NIL_EST = 2.0
NIL_KING_LOW = 3
NIL_QUEEN_LOW = 2
"""The estimate is rounded after subtracting this much: a set costs more than a bag."""


BLIND_GAP = 200
"""Normal bids blind nil when its team is this far behind (``normal_blind``)..."""
BLIND_COVER = 4
"""...and its partner has already bid this many tricks: a hand strong enough to cover it."""


def normal_blind(scores: tuple[int, int], bids: tuple[int | None, ...], seat: int) -> bool:
    """Whether Normal bids blind nil (rather than look) at a seat that may: its team is ``BLIND_GAP``
    or more behind, and its partner has already bid ``BLIND_COVER`` or more (a partner still to bid,
    or one that bid nil or little, cannot be counted on to cover it).  Public facts only: the seat
    has not seen its cards."""
    team = seat & 1
    partner = bids[seat ^ 2]
    return scores[1 - team] - scores[team] >= BLIND_GAP and partner is not None and partner >= BLIND_COVER


def normal_bid(h: int, bids: tuple[int | None, ...], seat: int) -> int:
    """Normal's bid for hand ``h`` given the bids made so far (None: not yet)."""
    partner = bids[(seat + 2) % 4]
    est = estimate(h)
    if partner != 0 and nil_ok(h) and est < NIL_EST:
        return 0
    bid = int(est - BID_SHADE + 0.5)
    if partner == 0:
        bid += 1
    return max(1, min(13, bid))


# --------------------------------------------------------------------------- play


def _sure(s: SpadesState, c: int, seat: int, others: int, later: int) -> bool:
    """Whether card ``c`` (about to be the best of the trick) cannot be beaten by the ``later`` seats
    still to play after ``seat``, as far as public knowledge tells."""
    if later == 0:
        return True
    suit = c // 13
    if others & SUIT_MASK[suit] & ~((2 << c) - 1):
        return False  # a higher card of the suit is still out
    if suit == 3 or not others & SPADE_MASK:
        return True
    if s.ntrick and s.led != suit:
        return False  # c is not of the suit led: only spades win, and c is not one (cannot happen)
    left = count(others & SUIT_MASK[suit])
    bit = 1 << suit
    voids = s.vmask
    for i in range(1, later + 1):
        if voids[(seat + i) & 3] & bit:
            return False
    return left >= later + 1


def _low_discard(legal: int, h: int) -> int:
    """The card to throw when the trick does not matter: the lowest-ranked side-suit card (from the
    shorter suit on equal ranks), the lowest spade if there is nothing else."""
    side = legal & NON_SPADES
    if not side:
        return lowest(legal)
    best = -1
    key = (99, 99)
    while side:
        low = side & -side
        c = low.bit_length() - 1
        side ^= low
        k = (c % 13, count(h & SUIT_MASK[c // 13]))
        if k < key:
            key, best = k, c
    return best


def _high_discard(legal: int) -> int:
    """The highest-ranked card to throw (side suits before spades on equal ranks)."""
    best = -1
    key = (-1, -1)
    m = legal
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        k = (c % 13, 0 if c >= 39 else 1)
        if k > key:
            key, best = k, c
    return best


def _winners(legal: int, best: int) -> int:
    """The mask of legal cards that would take the trick from ``best``."""
    if best >= 39:
        return legal & SPADE_MASK & ~((2 << best) - 1)
    return (legal & SUIT_MASK[best // 13] & ~((2 << best) - 1)) | (legal & SPADE_MASK)


def _nil_play(s: SpadesState, legal: int, others: int) -> int:
    """Play for our own nil: lose every trick we can."""
    if not s.ntrick:
        best = -1
        key = (99, 99, 99)
        for suit in range(4):
            m = legal & SUIT_MASK[suit]
            if not m:
                continue
            c = lowest(m)
            k = (count(others & SUIT_MASK[suit] & ((1 << c) - 1)), -count(others & SUIT_MASK[suit]), c % 13)
            if k < key:
                key, best = k, c
        return best
    win = _winners(legal, s.best)
    lose = legal & ~win
    if lose:
        if lose & SUIT_MASK[s.led]:
            return highest(lose & SUIT_MASK[s.led])
        return _high_discard(lose)
    if s.ntrick == 3:
        return _high_discard(legal)
    return lowest(legal & SUIT_MASK[s.led]) if legal & SUIT_MASK[s.led] else lowest(legal)


def _cover_play(s: SpadesState, seat: int, h: int, legal: int, others: int) -> int:
    """Play over partner's live nil; -1 when the trick needs no cover (partner played and lost it)."""
    partner = seat ^ 2
    if not s.ntrick:
        best = -1
        key = (-1, -1, -1)
        m = legal
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            boss = 0 if others & SUIT_MASK[c // 13] & ~((2 << c) - 1) else 1
            k = (boss, 0 if c >= 39 else 1, c % 13)
            if k > key:
                key, best = k, c
        return best
    played = s.ntrick >= 2  # partner plays two seats before us
    win = _winners(legal, s.best)
    follow = legal & SUIT_MASK[s.led]
    if not played:
        if follow:
            top = highest(follow)
            return top if win & (1 << top) else lowest(follow)
        if win:
            return lowest(win)
        return _low_discard(legal, h)
    if s.best_seat == partner:
        if win:
            return lowest(win)
        return lowest(follow) if follow else _low_discard(legal, h)
    return -1


def normal_card(s: SpadesState, failed_nil: str = "count", others: int = -1) -> int:
    """Normal's card for the seat to act (see the module docstring).  ``others``: the cards still out in
    the other hands, as a mask; by default those the other hands of ``s`` hold (a full deal)."""
    seat = s.to_act
    hm = s.hmask
    h = hm[seat]
    legal = s.legal_mask()
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    partner = seat ^ 2
    bids = s.bid_values
    tricks = s.taken
    if others < 0:
        others = (hm[0] | hm[1] | hm[2] | hm[3]) ^ h
    if bids[seat] == 0 and tricks[seat] == 0:
        return _nil_play(s, legal, others)
    if bids[partner] == 0 and tricks[partner] == 0:
        c = _cover_play(s, seat, h, legal, others)
        if c >= 0:
            return c
    o1 = seat ^ 1
    o2 = seat ^ 3
    count_nil = failed_nil == "count"
    ours = tricks[seat] + tricks[partner] if count_nil else \
        sum(tricks[x] for x in (seat, partner) if bids[x])
    theirs = tricks[o1] + tricks[o2] if count_nil else sum(tricks[x] for x in (o1, o2) if bids[x])
    need = bids[seat] + bids[partner] - ours
    opp_need = bids[o1] + bids[o2] - theirs
    left = 13 - sum(tricks)
    slack = SET_SLACK if s.bags[seat & 1] < BAGS_WARY else 1
    take = need > 0 or (opp_need > 0 and left - opp_need <= slack)
    nil_opp = -1
    if ((bids[o1] == 0 and tricks[o1] == 0) or (bids[o2] == 0 and tricks[o2] == 0)) \
            and (need <= 0 or left - need >= 3):
        nil_opp = o1 if bids[o1] == 0 and tricks[o1] == 0 else o2
    k = s.ntrick
    if k == 0:
        return _lead(s, seat, legal, others, take, nil_opp)
    best = s.best
    later = 3 - k
    win = _winners(legal, best)
    follow = legal & SUIT_MASK[s.led]
    if nil_opp >= 0:
        if s.best_seat == nil_opp:
            lose = legal & ~win
            if lose:
                return highest(lose & follow) if lose & follow else _low_discard(lose, h)
        elif not (seat - nil_opp) & 3 <= k and not take:  # the nil bidder has not played to the trick
            return lowest(follow) if follow else _low_discard(legal, h)
    if take:
        if s.best_seat == partner:
            if _sure(s, best, seat, others, later) or not win:
                return lowest(follow) if follow else _low_discard(legal, h)
            m = win
            while m:
                low = m & -m
                c = low.bit_length() - 1
                m ^= low
                if _sure(s, c, seat, others, later):
                    return c
            return lowest(follow) if follow else _low_discard(legal, h)
        if not win:
            return lowest(follow) if follow else _low_discard(legal, h)
        if later == 0:
            return lowest(win)
        m = win
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            if _sure(s, c, seat, others, later):
                return c
        if not follow:
            return lowest(win)  # ruff
        if k == 1:
            return lowest(follow)  # second hand low
        return highest(win)  # third hand high
    # duck: the contract is made, bags cost
    lose = legal & ~win
    if lose:
        if lose & follow:
            return highest(lose & follow)
        return _high_discard(lose)
    if later == 0:
        return highest(follow) if follow else _high_discard(legal)
    return lowest(follow) if follow else lowest(legal)


def _lead(s: SpadesState, seat: int, legal: int, others: int, take: bool, nil_opp: int) -> int:
    h = s.hmask[seat]
    voids = s.vmask
    if nil_opp >= 0 and not take:
        return _duck_lead(legal, others, voids[nil_opp])
    if not take:
        return _duck_lead(legal, others, 0)
    opp_void = voids[seat ^ 1] | voids[seat ^ 3]
    opp_spades = others & SPADE_MASK
    my_spades = legal & SPADE_MASK
    if my_spades and highest(my_spades) > highest(opp_spades | 1) \
            and (count(h & SPADE_MASK) >= 3 or not legal & NON_SPADES):
        return highest(my_spades)
    best = -1
    key = -1
    for suit in range(3):
        m = legal & SUIT_MASK[suit]
        if not m:
            continue
        top = highest(m)
        rest = others & SUIT_MASK[suit]
        if rest >> top:  # a higher card is still out
            continue
        if opp_void >> suit & 1 and opp_spades:
            continue
        k = count(rest)
        if k > key:
            key, best = k, top
    if best >= 0:
        return best
    pv = voids[seat ^ 2]
    side = legal & NON_SPADES
    if side and others & SPADE_MASK:
        for suit in range(3):
            if pv >> suit & 1 and not opp_void >> suit & 1 and side & SUIT_MASK[suit]:
                return lowest(side & SUIT_MASK[suit])
    if not side:
        return lowest(legal)
    best = -1
    kk = (99, 99)
    for suit in range(3):
        m = side & SUIT_MASK[suit]
        if not m:
            continue
        n = count(m)
        top = highest(m)
        # a guarded king or queen waits for the ace to go: lead another suit first
        guarded = 1 if (top % 13 in (KING, QUEEN) and n >= 2) else 0
        k2 = (guarded, n)
        if k2 < kk:
            kk, best = k2, lowest(m)
    return best


def _duck_lead(legal: int, others: int, void_bits: int) -> int:
    """Lead the card most likely to lose: the fewest lower cards still out (in a suit the target
    seat still follows, when one is given)."""
    best = -1
    key = (99, 99, 99)
    for suit in range(4):
        m = legal & SUIT_MASK[suit]
        if not m:
            continue
        c = lowest(m)
        k = (1 if void_bits >> suit & 1 else 0, count(others & SUIT_MASK[suit] & ((1 << c) - 1)), c % 13)
        if k < key:
            key, best = k, c
    return best


# --------------------------------------------------------------------------- the player


class NormalPlayer:
    level = "normal"

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        self.rules = rules
        self.rng = Rng(seed)  # not used: Normal is a pure function of the view
        self.failed_nil = str(dict(rules.options).get("failed_nil_tricks", "count"))

    def choose(self, view: SpadesView) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        if legal[0] == BLIND_NIL:
            return BLIND_NIL if normal_blind(view.scores, view.bids, view.seat) else LOOK
        if legal[0] >= BID0:
            return BID0 + normal_bid(mask_of(view.hand), view.bids, view.seat)
        masked = view.masked
        assert isinstance(masked, SpadesState)
        return normal_card(masked, self.failed_nil, mask_of(view.unseen_cards))
