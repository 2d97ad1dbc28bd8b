"""Hard: samples the cards it cannot see, weighs them by what the bets reveal, plays exactly.

* **Samples** (``Sampler``): the unseen cards are dealt to the hidden places of the hands still in
  play (``ai.sampling``), respecting the voids each seat has shown.  Each deal is then weighed by how
  likely a Normal-like bettor holding those cards would have bet as each opponent did, having seen
  its cards (a blind seat's bets say nothing): the public history of the hand is replayed and, at
  every such bet, Normal's rule (``common.normal_bid``) is asked what it would have done; a match
  keeps the weight, a call or raise where Normal would have done the other multiplies it by 0.3, a
  stay where Normal would have folded by 0.1.  Deals are kept by rejection on that weight (drawn from
  the player's own ``Rng``), as long as the decision's budget lasts (``Sampler.deals``); if none
  survives, the most likely rejected one is used.
* **On the engine**: a sample is the view made whole (``Sampler.state``: ``view.determinize`` with
  the sampled cards, ``Sampler.assignment`` the cards by position).  Nothing here repeats a rule of
  the play or the bidding.
* **Play**: on every sample the rest of the hand is searched in full on the engine's play copy
  (``solver``: max^n, three tricks at most) for each legal card; it plays the card with the best
  average payoff.
* **Bidding**: while blind it looks first.  Then each candidate (fold, call or the opening minimum,
  raises of one ante, two antes, and half, one, two and four times the pot, ``POT_RAISES``) is
  applied to a search copy of its own state on the engine and the bidding played out there: the
  other seats answer by Normal's rule with their sampled cards (``answer``: a blind one looks when
  Normal would), Hard calling any re-raise, until the engine ends the bidding; the engine decides
  what each bet costs, who is all-in and who leads.  The bidding does not depend on the cards, so
  each line of bets is played once and serves every sample that follows it (``Line``).  Then the
  play among those left is searched exactly with the sample's cards.  Its value is the pot share
  won minus the chips it costs.  It takes the best average.
* **Bluffs**: when the best choice is to fold or call and a raise is legal and its estimated value
  is within ``BLUFF_SLACK`` antes of the best, it raises anyway with probability ``BLUFF_RATE``
  (its own seeded ``Rng``).  ``bluffs`` / ``bids`` count them (see docs/ai.md for the measured rate).
* It never buys into an azi replay, and with four cards looks and discards like Normal.

Effort is a budget of work units (``budget.Work``), never the clock: the cards played in the exact
searches, ``DRAW_UNITS`` per deal drawn, ``CHANCE_UNITS`` per sampled hand valued by Normal's rule.
There is one exact search per kept deal (per distinct set of players and leader in the bidding), and
the sampling stops early when the choice is clear (``budget.Tally``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from p2pcards.ai.azi.common import (
    CALL,
    FOLD,
    LOOK,
    RAISE,
    Spot,
    Table,
    normal_bid,
    order,
    plays,
    win_chance,
)
from p2pcards.ai.azi.normal import discard
from p2pcards.ai.azi.solver import best_play, solve
from p2pcards.ai.budget import Tally, Work, units_for
from p2pcards.ai.sampling import sample_assignment
from p2pcards.games.azi import AziView
from p2pcards.games.azi import actions as act
from p2pcards.games.azi.hand import BID, AziHand
from p2pcards.games.base import CHANCE, TERMINAL, UNKNOWN, Action, Deal, Rules
from p2pcards.games.cards import Card
from p2pcards.games.rng import Rng

DRAW_UNITS = 40
"""Work units charged for drawing a deal and weighing it by the bets."""
CHANCE_UNITS = 40
"""Work units charged for Normal's two estimates of one seat's sampled hand (measured: bidding took
half as long again as play per unit before they were charged)."""
MIN_KEPT = 24
"""Deals a decision looks at even when few pass the weighing: the most likely rejected ones fill up."""
MAX_DRAWS = 100_000
"""A bound on the draws of one decision whatever its budget (a guard, never reached at 10 s)."""
BLUFF_RATE = 0.1
BLUFF_SLACK = 1.0
MISMATCH = 0.3
"""Weight of a deal where an opponent called where Normal would raise, or raised where it would call."""
AGAINST_FOLD = 0.1
"""Weight of a deal where an opponent stayed in where Normal would have folded."""
POT_RAISES: tuple[tuple[int, int], ...] = ((1, 2), (1, 1), (2, 1), (4, 1))
"""Raise sizes tried besides one and two antes, as multiples of the pot (rounded up to antes): the
large ones win more from callers who judge a bet by the pot odds alone (docs/ai.md)."""

Hands = list[list[Card]]


class Sampler:
    """Deals of the unseen cards consistent with a view, weighed by the opponents' bets."""

    def __init__(self, t: Table, work: Work | None = None) -> None:
        self.t = t
        self.work = work if work is not None else Work(0)
        v = t.view
        self.me = t.seat
        groups: list[int] = []
        slots: list[int] = []
        ca = t.masked.card_at
        for s in range(t.n):
            if s in t.active or s == self.me:
                groups += [s] * t.hidden[s]
                slots += [p for p in t.masked.hands[s] if ca[p] == UNKNOWN]
        self.groups = groups
        """The seat of each hidden card, seat by seat."""
        self.slots = slots
        """The position of each hidden card (in the order of ``groups``)."""
        self.voids = v.voids
        self.unseen = v.unseen_cards
        played: list[list[Card]] = [[] for _ in range(t.n)]
        for s, c in (*v.played, *v.trick):
            played[s].append(c)
        self.played = played
        self.history = bid_history(t)
        self._w: dict[tuple[int, int, int], tuple[float, float]] = {}

    def allowed(self, g: int, c: Card) -> bool:
        return c // 13 not in self.voids[g]

    def hands(self, cards: Sequence[Card]) -> Hands:
        t = self.t
        out: Hands = [list(t.known[s]) if (s in t.active or s == self.me) else [] for s in range(t.n)]
        for g, c in zip(self.groups, cards, strict=True):
            out[g].append(c)
        return out

    def assignment(self, hands: Hands) -> dict[int, Card]:
        """The sampled cards of ``hands`` by position (the positions this seat cannot see)."""
        known = self.t.known
        cards: list[Card] = []
        for s in dict.fromkeys(self.groups):
            cards += hands[s][len(known[s]):]
        return dict(zip(self.slots, cards, strict=True))

    def state(self, hands: Hands) -> AziHand:
        """The engine's state of a deal: the view made whole with the sampled cards of ``hands``."""
        st = self.t.view.determinize(self.assignment(hands))
        assert isinstance(st, AziHand)
        return st

    def w(self, key: int, hands: Hands, seat: int, players: int) -> tuple[float, float]:
        """Normal's two estimates for ``seat`` holding its sampled cards (cached per deal)."""
        k = (key, seat, players)
        got = self._w.get(k)
        if got is None:
            t = self.t
            hand = self.played[seat] + hands[seat]
            dt = t.trump_card if seat != t.dealer else -1
            deck = t.masked.rules.deck
            gone = frozenset(hand)
            got = (win_chance(hand, t.trump, t.top, gone, deck, players - 1, 3, dt, leading=True),
                   win_chance(hand, t.trump, t.top, gone, deck, players - 1, 3, dt, leading=False))
            self._w[k] = got
            self.work.spend(CHANCE_UNITS)
        return got

    def likelihood(self, key: int, hands: Hands) -> float:
        weight = 1.0
        active = self.t.active
        for seat, kind, spot in self.history:
            if seat not in active:
                continue
            wl, wf = self.w(key, hands, seat, spot.players)
            want = normal_bid(spot, wl, wf)[0]
            if want != kind:
                weight *= AGAINST_FOLD if want == FOLD else MISMATCH
        return weight

    def deals(self, rng: Rng, work: Work) -> Iterator[tuple[int, Hands]]:
        """Deals (with their cache keys) kept by rejection on their likelihood, for as long as the
        consumer asks and the budget lasts (``DRAW_UNITS`` a draw).  When the budget runs out before
        ``MIN_KEPT`` passed, the most likely rejected ones follow, at least one in all, and then only
        while the consumer's own steps leave budget."""
        kept = 0
        spare: list[tuple[float, int, Hands]] = []
        i = 0
        while (not work.over or (not kept and len(spare) < MIN_KEPT)) and i < MAX_DRAWS:
            work.begin()
            cards = sample_assignment(rng, self.groups, self.unseen, self.allowed)
            work.spend(DRAW_UNITS)
            if cards is None:
                break
            hands = self.hands(cards)
            like = self.likelihood(i, hands) if self.history else 1.0
            i += 1
            if like >= 1.0 or rng.below(1 << 30) < like * (1 << 30):
                kept += 1
                yield i - 1, hands
            else:
                spare.append((like, i - 1, hands))
            if not self.groups:  # nothing hidden: the one deal there is
                break
        if kept < MIN_KEPT and spare:
            spare.sort(key=lambda x: (-x[0], x[1]))
            for _, k, h in spare[:MIN_KEPT - kept]:
                if kept and work.over:
                    break
                kept += 1
                work.begin()
                yield k, h


def bid_history(t: Table) -> list[tuple[int, str, Spot]]:
    """Every bet of an opponent made having seen its cards in this hand: ``(seat, kind, spot)``.

    The public history is replayed from the hand's setup (the masked state's record: actions and
    the cards everyone or this seat knows), and the situation of each such bet is noted."""
    m = t.masked
    rec = m.record()
    st = AziHand(m.rules, dict(rec.setup))
    ca = m.card_at
    out: list[tuple[int, str, Spot]] = []
    for seat, text in rec.actions:
        while st.to_act == CHANCE:
            need = st.need
            assert need is not None
            ps = need.positions() if isinstance(need, Deal) else need.positions
            st.fulfil({p: ca[p] for p in ps if ca[p] != UNKNOWN})
        if st.phase_name == "play":
            break
        a = st.parse(text)
        if (st.phase_name == "bidding" and seat != t.seat and a not in (act.LOOK, act.FOLD)
                and not st.blind[seat]):
            opened = st.level > 0
            cost = st.call_cost(seat) if opened else st.min_bet(seat)
            active = [x for x in range(st.n) if st.inhand[x] and not st.folded[x]]
            informed = any(st.vbet[x] > 0 and not st.blind[x] for x in active if x != seat)
            spot = Spot(st.pot, cost, opened, len(active), st.raises[seat], st.stack[seat], st.ante,
                        False, informed)
            big = act.is_raise(a) or (act.is_amount(a) and act.amount_of(a) > st.min_bet(seat))
            out.append((seat, RAISE if big else CALL, spot))
        st.apply(a)
    return out


class HardPlayer:
    level = "hard"

    def __init__(self, rules: Rules, seed: int = 0, budget: int | None = None) -> None:
        self.rules = rules
        self.rng = Rng(seed)
        self.budget = units_for("azi") if budget is None else budget
        """Work units per decision: cards played in exact searches, ``DRAW_UNITS`` a deal drawn."""
        self.work = Work(self.budget)
        """The last decision's budget and what it spent."""
        self.samples = 0
        """Deals the last decision looked at."""
        self.tally: Tally | None = None
        """The last decision's sampled values, if it sampled."""
        self.bids = 0
        """Bidding decisions taken (with a raise among the legal actions)."""
        self.bluffs = 0
        """Of those, raises chosen over a better fold or call (the measured bluff rate)."""

    # ------------------------------------------------------------------ the entry point

    def choose(self, view: AziView) -> Action:
        legal = view.legal_actions
        self.work = Work(self.budget)
        self.samples = 0
        self.tally = None
        if len(legal) == 1:
            return legal[0]
        ph = view.phase
        if ph == "buy-in":
            return act.DECLINE
        if ph == "discard":
            return discard(view, self.rules)
        t = Table.of(view)
        if ph == "play":
            return self.play(t)
        return self.bid(t)

    # ------------------------------------------------------------------ play

    def play(self, t: Table) -> Action:
        v = t.view
        cards = plays(v.legal_actions)
        if len(cards) == 1:
            return act.play(cards[0])
        me = t.seat
        tally = Tally(len(cards))
        work = self.work
        nodes = [0]
        sampler = Sampler(t, work)
        for _, hands in sampler.deals(self.rng, work):
            nodes[0] = 0
            scored = solve(sampler.state(hands).play_copy(), me, nodes)
            work.spend(nodes[0])
            values = [0.0] * len(cards)
            for a, vec in scored:
                values[cards.index(a - act.PLAY0)] = vec[me]
            tally.add(values)
            if tally.settled(work):
                break
        self.samples = tally.samples
        self.tally = tally
        totals = tally.totals
        best = max(range(len(cards)),
                   key=lambda k: (round(totals[k], 9), -order(cards[k], t.trump, t.top), -cards[k]))
        return act.play(cards[best])

    # ------------------------------------------------------------------ bidding

    def candidates(self, t: Table) -> list[tuple[str, Action, int]]:
        """``(kind, action, chips)``: what is worth trying now; kind is fold/call/raise/allin."""
        v = t.view
        legal = frozenset(v.legal_actions)
        me = t.seat
        ante = self.rules.option("ante")
        mult = 2 if t.blind else 1
        stack = v.stacks[me]
        out: list[tuple[str, Action, int]] = [(FOLD, act.FOLD, 0)]
        deltas = sorted({ante, 2 * ante} | {max(ante, (v.pot * a // b + ante - 1) // ante * ante)
                                              for a, b in POT_RAISES})
        if v.level > 0:
            if act.CALL in legal:
                out.append((CALL, act.CALL, v.call_cost))
            elif act.ALLIN in legal:
                out.append(("allin", act.ALLIN, stack))
            for d in deltas:
                n = (d + mult - 1) // mult
                a = act.rais(n)
                if a in legal:
                    out.append((RAISE, a, n))
        else:
            mn = v.min_bet
            if act.bet(mn) in legal:
                out.append((CALL, act.bet(mn), mn))
            elif act.ALLIN in legal:
                out.append(("allin", act.ALLIN, stack))
            for d in deltas:
                n = (d + mult - 1) // mult
                if n > mn and act.bet(n) in legal:
                    out.append((RAISE, act.bet(n), n))
        return out

    def bid(self, t: Table) -> Action:
        if act.LOOK in t.view.legal_actions:
            # Looking is free, and every later bet then rests on the cards.  Valuing a blind bet
            # against looking on sampled own cards chose to stay blind in 182 of 213 blind
            # decisions, where looking would have won 33 chips more each (docs/ai.md).
            return act.LOOK
        cands = self.candidates(t)
        sampler = Sampler(t, self.work)
        tally = Tally(len(cands))
        work = self.work
        now = Line(t.masked.search_copy(), t.seat, t.view.stacks[t.seat])
        for key, hands in sampler.deals(self.rng, work):
            cache: dict[tuple[tuple[int, ...], int], float] = {}
            values = [0.0] * len(cands)
            cards = sampler.assignment(hands)
            for k, (kind, action, _) in enumerate(cands):
                if kind == FOLD:
                    continue
                values[k] = self.outcome(t, now.then(action), sampler, key, hands, cards, cache)
            tally.add(values)
            if tally.settled(work):
                break
        self.samples = tally.samples
        self.tally = tally
        n = max(1, tally.samples)
        evs = [x / n for x in tally.totals]
        best = max(range(len(cands)), key=lambda k: (round(evs[k], 9), -k))
        kind = cands[best][0]
        raises = [k for k in range(len(cands)) if cands[k][0] == RAISE]
        if raises:
            self.bids += 1
            if kind in (FOLD, CALL):
                r = max(raises, key=lambda k: (round(evs[k], 9), -k))
                ante = self.rules.option("ante")
                if evs[r] >= evs[best] - BLUFF_SLACK * ante and self.rng.below(1000) < BLUFF_RATE * 1000:
                    self.bluffs += 1
                    return cands[r][1]
        return cands[best][1]

    def outcome(self, t: Table, line: Line, sampler: Sampler, key: int, hands: Hands,
                cards: dict[int, Card], cache: dict[tuple[tuple[int, ...], int], float]) -> float:
        """The chips the bet that made ``line`` wins on one sampled deal (``hands``; ``cards`` by
        position), less what it costs from now on.  The other seats answer by Normal's rule with
        their sampled cards (``answer``), Hard calls any re-raise, until the engine ends the bidding.
        Then the play among those left is searched exactly on the engine's play copy with the
        deal's cards (once per set of players and leader: ``cache``)."""
        me = t.seat
        while not line.over:
            s = line.seat
            if s == me:  # a re-raise: Hard calls it
                line = line.then(line.call)
                continue
            wl, wf = sampler.w(key, hands, s, line.players)
            line = line.then(answer(line, wl, wf))
        if line.uncontested:  # everybody else folded
            return line.pot - line.spent
        ck = (line.active, line.leader)
        share = cache.get(ck)
        if share is None:
            nodes = [0]
            share = best_play(line.state.play_copy(cards), me, nodes)[me]
            self.work.spend(nodes[0])
            cache[ck] = share
        return share * line.pot - line.spent


class Line:
    """A line of bets from the decision's state, played on the engine: a search copy of the seat's
    own (masked) state moved on by ``apply``, which decides what each bet costs, who is all-in and
    who leads.  The bidding does not depend on the cards, so each line is played once and serves
    every sampled deal that follows it (``then`` remembers the lines that follow); what a deal
    changes is only which bets the other seats choose (``answer``).

    ``seat`` is the seat to bet, with what Normal's rule reads of its situation (``spot``,
    ``players``, ``cost``, ``stack``, ``opened``) and how it stays in at the least cost (``call``);
    once the bidding is ``over``: ``pot``, what Hard paid from the start (``spent``), and either
    ``uncontested`` or the seats left (``active``) and the ``leader``."""

    __slots__ = ("active", "call", "cost", "leader", "me", "next", "opened", "over", "players", "pot",
                 "seat", "spent", "spot", "stack", "start", "state", "uncontested")

    def __init__(self, state: AziHand, me: int, start: int) -> None:
        self.state = state
        self.me = me
        self.start = start
        """Hard's stack at the decision."""
        self.next: dict[Action, Line] = {}
        s = state.to_act
        inhand, folded = state.inhand, state.folded
        active = tuple([x for x in range(state.n) if inhand[x] and not folded[x]])
        self.over = state.phase != BID or s < 0
        self.seat = s
        self.players = len(active)
        self.cost = self.stack = 0
        self.call = act.CALL
        self.spot: Spot | None = None
        self.pot = pot = state.pot
        self.opened = state.opened
        if not self.over:
            self.call = state.call_action(s)
            # what Normal's rule reads as the cost: the call, or the opening minimum before anybody
            # bet (after an all-in that could not open, A9)
            self.cost = state.call_cost(s) if self.opened else state.min_bet(s)
            self.stack = state.stack[s]
            vbet, blind = state.vbet, state.blind
            informed = False
            for x in active:
                if x != s and vbet[x] > 0 and not blind[x]:
                    informed = True
                    break
            self.spot = Spot(pot, self.cost, self.opened, len(active), state.raises[s], self.stack,
                             state.ante, blind[s], informed)
        self.spent = start - state.stack[me]
        self.uncontested = s == TERMINAL
        self.active = active
        self.leader = state.leader

    def then(self, action: Action) -> Line:
        """The line after ``action`` of the seat to bet (played on a clone the first time)."""
        got = self.next.get(action)
        if got is None:
            st = self.state.clone()
            st.apply(action)
            got = self.next[action] = Line(st, self.me, self.start)
        return got


def answer(line: Line, w_lead: float, w_follow: float) -> Action:
    """The bet of the seat to bet on ``line`` by Normal's rule (``common.normal_bid``) with Normal's
    two estimates of its sampled cards: look, fold, raise Normal's size when it can pay it, else
    call (all-in when it cannot pay the call).  Before anybody bet (only after an all-in that could
    not open) a raise is an opening bet of Normal's size, clamped as Normal clamps it, and a call
    the opening minimum."""
    assert line.spot is not None
    kind, amount = normal_bid(line.spot, w_lead, w_follow)
    if kind == LOOK:
        return act.LOOK
    if kind == FOLD:
        return act.FOLD
    if kind == RAISE and not line.opened and line.cost <= line.stack:
        return act.bet(max(line.cost, min(line.stack, amount)))  # an opening bet, as Normal makes it
    if kind == RAISE and line.cost + amount < line.stack:
        return act.rais(amount)
    return line.call
