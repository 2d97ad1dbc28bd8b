"""Hard: determinized search (perfect-information Monte Carlo) with Normal as the rollout policy.

The search runs on the engine: each sampled deal is the view made whole (``view.determinize``, see
``Table``), and every rollout and every position of the exact endgame is a clone of that
``SpadesState`` moved on by its ``apply``, with the legal cards from its ``legal_mask`` and the hand
scored by its ``result``.  Nothing here repeats a rule of play.

**What it knows.**  ``Knowledge``: the cards it has not seen, how many each hidden seat holds (an
open dummy's cards are known), the
suits each showed it lacks (it did not follow them), the cards each played and every bid.  A deal of
the hidden cards (``Knowledge.draw``) gives each seat as many cards as it holds and never a suit it
lacks (dealt suit by suit, the most constrained suits first, each card to a seat with a chance
proportional to its room; the exact sampler of ``p2pcards.ai.sampling`` when that gets stuck).
``Knowledge.sample`` redraws deals that fit the bids badly: each seat's original thirteen cards (the
dealt ones and those it played) are valued by Normal's ``estimate`` and the deal is kept with
probability ``Π exp(-(estimate - bid)² / 2σ²)``, ``σ = BID_SIGMA`` (a nil bidder's hand by its nil
risk), at most ``REDRAWS`` draws.

**Card play.**  The legal cards are reduced to one per run of equivalent cards (cards of a suit in
its hand with no card still out between them take the same tricks).  Deal after deal, every
candidate is played and the hand finished by Normal in all four seats (every candidate sees the same
deals), until the decision's budget is spent or the choice is clear (``budget.Tally``: one card best
in every deal so far, or a lead the rest of the budget cannot overturn).  The card with the best mean
``value`` is played: the team's points for the hand minus the opponents' (nil, sets, bag penalties
included), each side's bags charged ``BAG_COST`` more, and ``WIN_BONUS`` added to a positive margin
and taken from a negative one (so the plan adapts to both teams' contracts: it takes the trick that
sets the opponents, ducks the bag that only costs).

**Endgame.**  With ``exact_tricks(budget)`` tricks or fewer to play (``EXACT_TRICKS`` = 4; 5 from a
budget of 150,000 units, half a second: a larger budget buys more tricks played exactly), each deal
is solved exactly by alpha-beta over every card of every seat (double dummy) instead of rolled out.
The positions at the start of a trick are remembered with their bounds (``solve``'s ``known``, shared
by the candidates of one deal), so orders of play that meet again are searched once.  When the
hidden cards can lie in at most ``ENUM_LIMIT`` ways, every one of them is solved, weighted by its fit
to the bids, so the last tricks are played exactly; otherwise sampled deals.  The search starts no
new deal once the budget is spent or the choice is clear.

**Bidding.**  Deals of the other hands, fitted to the bids already made, until the budget is spent or
one bid is clearly best.  The seats
still to bid bid as Normal would with the hand dealt to them (an open dummy by its own rule), and
Normal plays the hand out.  From
the tricks the team took in each deal the bid with the best mean ``value`` is chosen (the team's
points recomputed for every bid from 1 to 13).  A nil-shaped hand (estimate at most ``NIL_TRY``, at
most four spades, no ace of spades, partner not nil) is also played out as nil in the same deals and
bid nil when that scores better.

**Blind nil** (S16).  A seat that may bid blind nil has not seen its cards, and neither does its view:
its own hand is as hidden as the others'.  Deals of every unseen card (its own hand included, the
others fitted to the bids already made) are played out twice, Normal bidding for the seats still to
bid (and deciding their own blind nil by ``normal_blind``): once with blind nil, once looking and
bidding as Normal would with the hand dealt; the move with the better mean ``value`` is made.  In
every deal a blind nil bidder's bid says nothing of its cards, so it weighs no deal.

Effort is a budget of work units (``budget.Work``), never time: a card played in a rollout, a
position solved, ``DEAL_UNITS`` for a deal drawn.  Every decision draws its
randomness from a ``Rng`` keyed by the seed and the view alone, so it depends on nothing else.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from p2pcards.ai.budget import Tally, Work, units_for
from p2pcards.ai.sampling import sample_assignment
from p2pcards.ai.spades.common import SPADE_MASK, count, mask_of, played_by
from p2pcards.ai.spades.normal import BID_SHADE, estimate, nil_ok, normal_bid, normal_blind, normal_card
from p2pcards.games.base import Action, Rules
from p2pcards.games.rng import Rng
from p2pcards.games.spades import dummy
from p2pcards.games.spades.layout import owner_of
from p2pcards.games.spades.state import BID0, BLIND_NIL, LOOK, SpadesState, SpadesView, cards_of

TRICKS = 13
EXACT_TRICKS = 4
"""Solve each deal exactly (double dummy) when this few tricks are left..."""
EXACT_DEEPER: tuple[tuple[int, int], ...] = ((150_000, 5),)
"""...or this many, from a budget of this many units (``exact_tricks``)."""


def exact_tricks(budget: int) -> int:
    """How many tricks from the end every deal is solved exactly, for a decision's budget."""
    tricks = EXACT_TRICKS
    for units, deeper in EXACT_DEEPER:
        if budget >= units:
            tricks = deeper
    return tricks


ENUM_LIMIT = 60
"""Every deal of the hidden cards is solved (in a random order, until the budget is spent) when
there are at most this many; otherwise deals are sampled."""
NIL_TRY = 3.0
"""Nil is rolled out when Normal's estimate of the hand is at most this."""
BAG_COST = 2.0
"""What a bag costs beyond its point, in the margin a rollout is scored by."""
WIN_BONUS = 50.0
"""Added to a positive margin (taken from a negative one): how much winning the hand matters beyond
the points."""
BID_SIGMA = 1.5
"""How far a hand's estimate may stray from its bid before a deal is redrawn (see the docstring)."""
REDRAWS = 6
"""Deals drawn at most for one sample when fitting the bids."""
DEAL_UNITS = 8
"""Work units charged for drawing one deal (and valuing its hands against the bids)."""
BID_UNITS = 50
"""Work units charged for the other seats' Normal bids on a deal rolled out in the bidding."""


# --------------------------------------------------------------------------- deals


def _fit(hand: int, bid: int | None) -> float:
    """How well a 13-card hand fits a bid, in (0, 1]."""
    if bid is None:
        return 1.0
    est = estimate(hand)
    if bid == 0:
        if nil_ok(hand):
            return 1.0
        d = max(0.0, est - 1.5)
        return max(0.05, math.exp(-d * d / 1.0))
    d = est - bid
    return max(0.02, math.exp(-d * d / (2 * BID_SIGMA * BID_SIGMA)))


class Knowledge:
    """What the seat knows of the hidden hands: how many cards each holds, the suits each lacks, the
    cards each played (to value its original hand against its bid)."""

    __slots__ = ("bids", "by_suit", "counts", "hidden", "played", "suit_order", "unseen", "voids")

    def __init__(self, seat: int, unseen: Sequence[int], counts: Sequence[int], voids: Sequence[int],
                 played: Sequence[int], bids: Sequence[int | None]) -> None:
        self.hidden = tuple(s for s in range(4) if s != seat and counts[s] > 0)
        self.unseen = tuple(unseen)
        self.counts = tuple(counts)
        self.voids = tuple(voids)
        self.played = tuple(played)
        self.bids = tuple(bids)
        self.by_suit = tuple(tuple(c for c in self.unseen if c // 13 == suit) for suit in range(4))
        self.suit_order = tuple(sorted(range(4), key=lambda suit: (
            sum(1 for s in self.hidden if not self.voids[s] >> suit & 1), suit)))

    def allowed(self, seat: int, c: int) -> bool:
        return not self.voids[seat] >> (c // 13) & 1

    def draw(self, rng: Rng) -> dict[int, int] | None:
        """One deal of the unseen cards, as a mask per hidden seat (None if the constraints clash).

        Dealt suit by suit, the suits the fewest seats may hold first, each card to a seat that may
        hold it with a chance proportional to the room left in its hand (plain dealing when nobody
        showed a void).  When that gets stuck a few times, the exact sampler of ``p2pcards.ai.sampling``
        decides."""
        seats = self.hidden
        for _ in range(3):
            room = [self.counts[s] for s in seats]
            masks = [0] * len(seats)
            for suit in self.suit_order:
                ok = [k for k, s in enumerate(seats) if not self.voids[s] >> suit & 1]
                for c in self.by_suit[suit]:
                    total = 0
                    for k in ok:
                        total += room[k]
                    if not total:
                        break
                    r = rng.below(total)
                    for k in ok:
                        r -= room[k]
                        if r < 0:
                            room[k] -= 1
                            masks[k] |= 1 << c
                            break
                else:
                    continue
                break
            else:
                return dict(zip(seats, masks, strict=True))
        groups = [s for s in seats for _ in range(self.counts[s])]
        cards = sample_assignment(rng, groups, self.unseen, self.allowed)
        if cards is None:
            return None
        out = dict.fromkeys(seats, 0)
        for s, c in zip(groups, cards, strict=True):
            out[s] |= 1 << c
        return out

    def weight(self, deal: dict[int, int]) -> float:
        """How well a deal fits the bids (the product of ``_fit`` over the hidden seats)."""
        w = 1.0
        for s, m in deal.items():
            w *= _fit(m | self.played[s], self.bids[s])
        return w

    def sample(self, rng: Rng) -> dict[int, int] | None:
        """A deal fitted to the bids (redrawn up to ``REDRAWS`` times)."""
        for _ in range(REDRAWS - 1):
            deal = self.draw(rng)
            if deal is None:
                return None
            if rng.below(1 << 30) < self.weight(deal) * (1 << 30):
                return deal
        return self.draw(rng)

    def enumerate(self, limit: int) -> list[dict[int, int]] | None:
        """Every deal of the unseen cards, or None when there are more than ``limit``."""
        seats = self.hidden
        cards = self.unseen
        need = [self.counts[s] for s in seats]
        out: list[dict[int, int]] = []
        masks = [0] * len(seats)

        def rec(i: int) -> bool:
            if i == len(cards):
                out.append(dict(zip(seats, masks, strict=True)))
                return len(out) <= limit
            c = cards[i]
            for k, s in enumerate(seats):
                if need[k] and self.allowed(s, c):
                    need[k] -= 1
                    masks[k] |= 1 << c
                    ok = rec(i + 1)
                    masks[k] &= ~(1 << c)
                    need[k] += 1
                    if not ok:
                        return False
            return True

        if not rec(0):
            return None
        return out


# --------------------------------------------------------------------------- search


def distinct(legal: int, others: int) -> list[int]:
    """One card per run of equivalent legal cards: cards of a suit with no card of ``others`` (the
    cards still out elsewhere) between them win and lose the same tricks.  The lowest of each run."""
    out: list[int] = []
    prev = -1
    m = legal
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        if prev >= 0 and prev // 13 == c // 13 and not others & ((1 << c) - (2 << prev)):
            prev = c
            continue
        out.append(c)
        prev = c
    return out


def value(ours: int, our_bags: int, theirs: int, their_bags: int) -> float:
    """How good a hand's result is for a team: the margin, bags charged ``BAG_COST`` more, and
    ``WIN_BONUS`` for a positive margin (``-WIN_BONUS`` for a negative one)."""
    m = ours - theirs
    v = m - BAG_COST * (our_bags - their_bags)
    if m > 0:
        return v + WIN_BONUS
    if m < 0:
        return v - WIN_BONUS
    return v


def margin(s: SpadesState, team: int) -> float:
    """The ``value`` of a finished hand for ``team`` (the engine's score of it)."""
    result = s.result
    assert result is not None
    ours = result.teams[team]
    theirs = result.teams[1 - team]
    return value(ours.points, ours.bags_taken, theirs.points, theirs.bags_taken)


def rollout(s: SpadesState, failed_nil: str) -> None:
    """Finish the hand with Normal in every seat (on the engine)."""
    apply = s.apply
    while s.to_act >= 0:
        apply(normal_card(s, failed_nil))


def solve(s: SpadesState, team: int, alpha: float, beta: float, nodes: list[int] | None = None,
          ends: dict[int, float] | None = None,
          known: dict[tuple[int, ...], tuple[float, float]] | None = None) -> float:
    """The exact ``value`` of a full-information hand for ``team``, every seat playing its best
    (alpha-beta over the engine's moves; ``nodes[0]`` counts the positions visited).

    For positions of one hand (the same bids): ``ends`` keeps the value of each way the tricks fell,
    and ``known`` the bounds found for each position at the start of a trick (the cards left in each
    hand, the seat to lead and the tricks taken), so that orders of play that meet again are searched
    once."""
    if nodes is None:
        nodes = [0]
    if ends is None:
        ends = {}
    if known is None:
        known = {}
    nodes[0] += 1
    seat = s.to_act
    hm = s.hmask
    out = hm[0] | hm[1] | hm[2] | hm[3]
    if out.bit_count() + s.ntrick <= 4:  # the last trick: every card left is forced
        s = s.clone()
        while s.to_act >= 0:
            s.apply(s.legal_mask().bit_length() - 1)
            nodes[0] += 1  # each position after a forced card, as the recursion would count it
    if s.to_act < 0:
        t = s.taken
        key = t[0] | t[1] << 4 | t[2] << 8 | t[3] << 12
        v = ends.get(key)
        if v is None:
            v = ends[key] = margin(s, team)
        return v
    entry: tuple[int, ...] = ()
    if not s.ntrick:
        t = s.taken
        entry = (hm[0], hm[1], hm[2], hm[3], seat, t[0] | t[1] << 4 | t[2] << 8 | t[3] << 12)
        bounds = known.get(entry)
        if bounds is not None:
            lo, hi = bounds
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
    a0, b0 = alpha, beta  # the window searched: what the result bounds
    moves = distinct(s.legal_mask(), out ^ hm[seat])
    if (seat & 1) == team:
        value = -math.inf
        for c in reversed(moves):
            child = s.clone()
            child.apply(c)
            v = solve(child, team, alpha, beta, nodes, ends, known)
            if v > value:
                value = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
    else:
        value = math.inf
        for c in moves:
            child = s.clone()
            child.apply(c)
            v = solve(child, team, alpha, beta, nodes, ends, known)
            if v < value:
                value = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
    if entry:
        lo, hi = known.get(entry, (-math.inf, math.inf))
        if value <= a0:
            hi = min(hi, value)  # an upper bound: the search failed low
        elif value >= b0:
            lo = max(lo, value)  # a lower bound: it failed high
        else:
            lo = hi = value
        known[entry] = (lo, hi)
    return value


class Table:
    """A seat's view made into full deals on the engine: which unseen positions each hidden seat
    holds, so that a deal of masks becomes ``view.determinize`` of those positions."""

    __slots__ = ("order", "positions", "view")

    def __init__(self, view: SpadesView) -> None:
        self.view = view
        by_seat: dict[int, list[int]] = {}
        for i, p in enumerate(view.unknown_positions):
            by_seat.setdefault(owner_of(p, view.dealer), []).append(i)
        self.positions = tuple(sorted((s, tuple(ix)) for s, ix in by_seat.items()))
        """(seat, indices into ``view.unknown_positions``) per hidden seat, by seat."""
        runs = sorted((ix[0], s) for s, ix in self.positions if ix)
        at = 0
        order: list[int] | None = []
        for first, s in runs:
            ix = by_seat[s]
            if order is None or first != at or ix != list(range(at, at + len(ix))):
                order = None
                break
            order.append(s)
            at += len(ix)
        self.order = None if order is None else tuple(order)
        """The hidden seats in the order of the unknown positions when each seat's positions follow
        one another there (the views list them seat by seat): a deal's assignment is then its
        seats' cards one after the other."""

    def counts(self) -> list[int]:
        """How many hidden cards each seat holds."""
        out = [0, 0, 0, 0]
        for s, ix in self.positions:
            out[s] = len(ix)
        return out

    def state(self, deal: dict[int, int]) -> SpadesState:
        """The full-information state of the view with ``deal`` (a mask per hidden seat)."""
        if self.order is not None:
            cards: tuple[int, ...] = ()
            for s in self.order:
                cards += cards_of(deal[s])
            st = self.view.determinize(cards)
        else:
            spread = [0] * len(self.view.unknown_positions)
            for s, ix in self.positions:
                for i, c in zip(ix, cards_of(deal[s]), strict=True):
                    spread[i] = c
            st = self.view.determinize(spread)
        assert isinstance(st, SpadesState)
        return st


# --------------------------------------------------------------------------- the player


class HardPlayer:
    level = "hard"

    def __init__(self, rules: Rules, seed: int = 0, budget: int | None = None) -> None:
        self.rules = rules
        self.seed = seed
        self.budget = units_for("spades") if budget is None else budget
        """Work units per decision: cards played in rollouts, positions solved, deals drawn."""
        self.work = Work(self.budget)
        """The last decision's budget and what it spent."""
        self.samples = 0
        """Deals the last decision looked at."""
        self.tally: Tally | None = None
        """The last decision's sampled values, if it sampled."""
        self.failed_nil = str(dict(rules.options).get("failed_nil_tricks", "count"))

    def _rng(self, view: SpadesView) -> Rng:
        """The decision's randomness: a function of the seed and of the view only."""
        key = (f"spades/hard/{self.seed}/{view.seat}/{view.dealer}/{view.hand}/{view.played}/"
               f"{view.bids}/{view.scores}/{view.bags}")
        return Rng(key)

    def choose(self, view: SpadesView) -> Action:
        legal = view.legal_actions
        self.work = Work(self.budget)
        self.samples = 0
        self.tally = None
        if len(legal) == 1:
            return legal[0]
        if legal[0] == BLIND_NIL:
            return self.blind(view)
        if legal[0] >= BID0:
            return BID0 + self.bid(view)
        return self.play(view)

    # ------------------------------------------------------------------ play

    def knowledge(self, view: SpadesView, table: Table) -> Knowledge:
        masked = view.masked
        assert isinstance(masked, SpadesState)
        return Knowledge(view.seat, view.unseen_cards, table.counts(), masked.vmask,
                         [mask_of(cs) for cs in played_by(view)], fit_bids(view))

    def play(self, view: SpadesView) -> int:
        me = view.seat
        team = me & 1
        table = Table(view)
        masked = view.masked
        assert isinstance(masked, SpadesState)
        hm = masked.hmask
        mine = hm[me]
        known = hm[0] | hm[1] | hm[2] | hm[3]  # with any open dummy's cards
        cands = distinct(mask_of(view.legal_actions), (known ^ mine) | mask_of(view.unseen_cards))
        if len(cands) == 1:
            return cands[0]
        rng = self._rng(view)
        know = self.knowledge(view, table)
        tally = Tally(len(cands))
        work = self.work
        fn = self.failed_nil
        if TRICKS - sum(view.tricks_won) <= exact_tricks(self.budget):
            deals = know.enumerate(ENUM_LIMIT)
            every = deals is not None
            if deals is None:
                deals = []
            else:
                rng.shuffle(deals)  # the budget may stop early: no deal order may be favoured
            nodes = [0]
            ends: dict[int, float] = {}
            k = 0
            while True:
                if every:
                    if k >= len(deals):
                        break
                    work.begin()
                    deal: dict[int, int] | None = deals[k]
                else:
                    work.begin()
                    deal = know.draw(rng)
                    work.spend(DEAL_UNITS)
                    if deal is None:
                        break
                k += 1
                assert deal is not None
                w = know.weight(deal)
                s0 = table.state(deal)
                before = nodes[0]
                seen: dict[tuple[int, ...], tuple[float, float]] = {}  # shared by the candidates
                values = []
                for c in cands:
                    s = s0.clone()
                    s.apply(c)
                    values.append(solve(s, team, -math.inf, math.inf, nodes, ends, seen))
                work.spend(nodes[0] - before)
                tally.add(values, w)
                if tally.settled(work):
                    break
        else:
            while not tally.samples or not tally.settled(work):
                work.begin()
                sampled = know.sample(rng)
                work.spend(DEAL_UNITS * REDRAWS)
                if sampled is None:
                    break
                s0 = table.state(sampled)
                values = []
                for c in cands:
                    s = s0.clone()
                    s.apply(c)
                    hs = s.hmask
                    work.spend((hs[0] | hs[1] | hs[2] | hs[3]).bit_count())
                    rollout(s, fn)
                    values.append(margin(s, team))
                tally.add(values)
        self.samples = tally.samples
        self.tally = tally
        totals = tally.totals
        best = 0
        for i in range(1, len(cands)):
            if totals[i] > totals[best]:
                best = i
        return cands[best]

    # ------------------------------------------------------------------ bidding

    def bid(self, view: SpadesView) -> int:
        me = view.seat
        h = mask_of(view.hand)
        bids = view.bids
        partner = (me + 2) % 4
        est = estimate(h)
        nb = normal_bid(h, bids, me)
        plain = nb if nb > 0 else max(1, int(est - BID_SHADE + 0.5))
        try_nil = (bids[partner] != 0 and est <= NIL_TRY and count(h & SPADE_MASK) <= 4
                   and not h >> 51 & 1)
        rng = self._rng(view)
        table = Table(view)
        know = Knowledge(me, view.unseen_cards, table.counts(), [0] * 4, [0] * 4, fit_bids(view))
        dummies = view.dummies
        fn = self.failed_nil
        team = me & 1
        bags_before = view.bags[team]
        variants = (plain, 0) if try_nil else (plain,)
        tally = Tally(13 + (1 if try_nil else 0))
        work = self.work
        while not tally.samples or not tally.settled(work):
            work.begin()
            deal = know.sample(rng)
            work.spend(DEAL_UNITS * REDRAWS + BID_UNITS)
            if deal is None:
                break
            s0 = table.state(deal)
            values: list[float] = []
            for variant in variants:
                st = s0.clone()
                finish_bidding(st, view.scores, dummies, me, variant)
                work.spend(52)
                rollout(st, fn)
                if variant == 0:
                    values.append(margin(st, team))
                    continue
                result = st.result
                assert result is not None
                their, their_bags = result.teams[1 - team].points, result.teams[1 - team].bags_taken
                pb = st.bid_values[partner]
                taken = st.taken
                nil_pts = 0
                counted = taken[me]
                if pb == 0:
                    worth = 200 if partner in st.blind_nil else 100
                    nil_pts = worth if taken[partner] == 0 else -worth
                    if fn == "count":
                        counted += taken[partner]
                else:
                    counted += taken[partner]
                for b in range(1, 14):
                    pts, bags = _contract_points(b + pb, counted, bags_before)
                    values.append(value(pts + nil_pts, bags, their, their_bags))
            tally.add(values)
        self.samples = tally.samples
        self.tally = tally
        if not tally.samples:
            return plain
        totals = tally.totals
        best = 0
        for b in range(1, 13):
            if totals[b] > totals[best]:
                best = b
        if try_nil and totals[13] > totals[best]:
            return 0
        return best + 1


    def blind(self, view: SpadesView) -> Action:
        """``bid blind nil`` or ``look`` by rollouts (see the module docstring): the seat's own cards
        are unknown to it, so they are dealt like the others'."""
        me = view.seat
        team = me & 1
        rng = self._rng(view)
        table = Table(view)
        know = Knowledge(-1, view.unseen_cards, table.counts(), [0] * 4, [0] * 4, fit_bids(view))
        fn = self.failed_nil
        tally = Tally(2)
        work = self.work
        while not tally.samples or not tally.settled(work):
            work.begin()
            deal = know.sample(rng)
            work.spend(DEAL_UNITS * REDRAWS + 2 * BID_UNITS)
            if deal is None:
                break
            s0 = table.state(deal)
            values: list[float] = []
            for first in (BLIND_NIL, LOOK):
                st = s0.clone()
                st.apply(first)
                finish_bidding(st, view.scores, view.dummies)
                work.spend(52)
                rollout(st, fn)
                values.append(margin(st, team))
            tally.add(values)
        self.samples = tally.samples
        self.tally = tally
        if tally.samples and tally.totals[0] > tally.totals[1]:
            return BLIND_NIL
        return LOOK


def fit_bids(view: SpadesView) -> tuple[int | None, ...]:
    """The bids a deal is fitted to: a blind nil says nothing of its bidder's cards."""
    return tuple(None if s in view.blind_nil else b for s, b in enumerate(view.bids))


def finish_bidding(st: SpadesState, scores: tuple[int, int], dummies: tuple[int, ...], me: int = -1,
                   mine: int = 0) -> None:
    """Bid to the end of the bidding on a full deal, the cards shown as the rules show them: ``me``
    bids ``mine``, an open dummy by its rule, every other seat as Normal (``normal_blind`` when it
    may bid blind nil and has not looked)."""
    while st.phase_name == "bidding":
        s = st.to_act
        if s < 0:
            st.fulfil_known()
            continue
        if st.face_down(s):
            st.apply(BLIND_NIL if normal_blind(scores, st.bids, s) else LOOK)
            continue
        if s == me:
            b = mine
        elif s in dummies:
            b = dummy.bid(cards_of(st.hmask[s]))
        else:
            b = normal_bid(st.hmask[s], st.bids, s)
        st.apply(BID0 + b)


def _contract_points(contract: int, counted: int, bags_before: int) -> tuple[int, int]:
    """A team's contract points (S10, S11, S13) and the bags it took."""
    if counted < contract:
        return -10 * contract, 0
    bags = counted - contract
    points = 10 * contract + bags
    total = bags_before + bags
    while total >= 10:
        total -= 10
        points -= 100
    return points, bags
