"""Hard: determinized search over what the seat cannot see, and exact play once nothing is hidden.

* **Memory and inference.**  The view already carries every public card: the discard pile, the face-up
  trump, and the cards each player was seen to pick up (``known_cards``); determinizing keeps them where
  they are.  From the public history it knows that the trump each player showed before the first bout
  was the lowest trump of the six cards it was dealt (and "show none": no trump at all).  And it
  remembers, from the throw-in rounds it is asked to play, which cards a defender showed it lacks: a
  player who takes against a plain card holds no higher card of that suit (it would have covered with
  it), until somebody draws again.  Sampled deals respect all of that whenever some deal can
  (``sampling.sample_assignment``), and fall back to the public constraints alone otherwise.  A take
  against a plain card is also evidence that the taker holds no trump (any trump would have covered
  it): until the next draw, each deal counts ``TAKE_TRUMP_THIN`` (fewer than 8 cards in the talon) or
  ``TAKE_TRUMP_THICK`` times less for every trump it gives the taker (``take_weight``).
* **Early on** (more than ``search_talon`` = 8 cards in the talon, ``early_talon`` = 14 with a budget
  of ``early_units`` = 200,000 units or more) it plays Normal's move.  With the old playout policy
  (lowest card, never a take) searching from the first bout lost strength (63.7% of 120 hands
  against Normal, 76.2% searching from 8 cards); with ``club_policy`` it no longer does, and at the
  full budget searching from 14 cards did better against Hard at a tenth than searching from 8 (on
  few hands: see docs/ai.md).
* **Towards the endgame** (cards still hidden): perfect-information Monte Carlo.  Deals of
  the hidden cards (opponents' hidden hand cards and the talon's order) are sampled; in each, every
  legal action is tried and played out to the end by ``club_policy`` (Normal's habits on the full
  deal) on a search copy of the
  engine's own state (``DurakState.search_copy``: every card known, no history kept); a
  playout that reaches an empty talon with two players left holding at most ``leaf_cards`` cards is
  finished by the exact solver when that takes at most ``leaf_nodes`` nodes.  The action with the best total
  wins; ties go to Normal's choice.  With two players left and nothing to draw but the face-up trump,
  the one possible deal is played out once.
* **The endgame, two players left** (talon empty; at a bigger table, everyone else out): the
  opponent's hand is exactly the unseen cards, so the hand is a game of perfect information.
  ``solver.Solver`` proves, move by move, whether a win or a draw can be forced (with 1/``root_share``
  of the decision's units as positions; the proven bounds are kept for the rest of the hand).
  Among equally good moves it prefers Normal's choice, so a lost position is still played the way
  most likely to trip up a fallible opponent.  Past the budget it falls back to the sampling.

Effort per decision is a budget of work units (``budget.Work``: playout moves, solver positions,
``WORLD_UNITS`` per sampled deal), never the clock; the sampling stops early when the choice is clear
(``budget.Tally``); all randomness comes from the
seeded ``Rng``; nothing iterates a set or a dict in an order that could change a decision.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pcards.ai.budget import Tally, Work, units_for
from p2pcards.ai.durak.normal import NormalPlayer
from p2pcards.ai.durak.solver import Budget, Solver, active_pair, end_value, solver_for
from p2pcards.ai.sampling import Allowed, sample_assignment
from p2pcards.games.base import CHANCE, UNKNOWN, Action, Rules, View
from p2pcards.games.durak import actions as A
from p2pcards.games.durak.state import (
    BEATERS,
    P_DEFEND,
    P_LEAD,
    P_OVER,
    DurakState,
    DurakView,
    addable,
    cards_of,
)
from p2pcards.games.rng import Rng

TAKE_TRUMP_THIN = 0.25
"""Weight per trump a deal gives a seat that took against a plain card, with fewer than 8 cards in
the talon: any trump would have covered it, and players keep trumps back only while the talon is
thick (Normal's habit: with 8 or more it may pick up one or two cheap cards rather than spend a trump
from the jack up)."""
TAKE_TRUMP_THICK = 0.6
"""The same with 8 cards or more in the talon, when keeping a trump back is a common choice."""

PLAY_MISMATCH = 0.1
"""Weight of a deal under which a seat's lead or defence of this bout is not the card Normal's habit
would have played with the hand the deal gives it (the cheapest lead, pairs first, trumps kept; the
cheapest beater, a rank already on the table first).  1: no inference."""

WORLD_UNITS = 200
"""Work units charged for sampling a deal and building its search state (measured: about as long as
200 playout moves)."""

STRENGTH = [[c % 13 + (13 if c // 13 == t else 0) for c in range(52)] for t in range(4)]
RANK_MASK = [sum(1 << (s * 13 + r) for s in range(4)) for r in range(13)]


@dataclass(frozen=True, slots=True)
class Evidence:
    """A play of this bout by another seat, for weighing deals by how likely it was under them."""

    seat: int
    card: int
    target: int
    """The attack card it beat, or -1 for a lead."""
    since: int
    """Its cards played later in the bout (a mask): they were in its hand when it played ``card``."""
    ranks: int
    """The ranks on the table when it beat (a mask of ranks)."""


@dataclass(frozen=True, slots=True)
class Effort:
    """How much Hard searches per decision (iterations, never time)."""

    leaf_nodes: int = 300
    """Solver nodes allowed to finish one playout exactly once its talon is empty (two players)."""
    leaf_cards: int = 12
    """A playout is handed to the solver only once the two hands hold this many cards or fewer."""
    root_share: int = 2
    """In a two-player endgame the solver may spend 1/``root_share`` of the decision's budget before
    falling back to sampling with the rest."""
    table_limit: int = 300_000
    """Positions the solver may remember within a hand before it starts afresh."""
    search_talon: int = 8
    """Search only once the talon holds this many cards or fewer; before that, play Normal's move."""
    early_talon: int = 14
    """With a budget of at least ``early_units``, search from this many cards in the talon instead."""
    early_units: int = 200_000
    """The budget (work units, 0.4 s at the default rate) from which the search starts early."""
    playout_moves: int = 400
    """A playout still going after this many moves counts as a draw.  (With three or more players and
    an empty talon, players who never beat can pass cards round the table for ever.)"""


def club_policy(s: DurakState) -> int:
    """The playout policy with Normal's habits, judged on the full deal of the playout: lead the
    lowest plain card (pairs first, trumps dear while the talon is thick, late in the hand what the
    defender cannot beat), beat with the cheapest card (a rank already on the table first) but take
    one or two cheap cards rather than spend a high trump while the talon is thick, throw in what
    the defender cannot beat (no trump while cards are left to draw), and everything on a taker once
    the talon is empty.  With ``transfer=on`` it transfers, with its cheapest card of the rank, when it
    cannot beat or would spend a trump on the card while a plain card passes the bout on."""
    seat = s.to_act
    hand = s.hmask[seat]
    trump = s.trump_suit
    st = STRENGTH[trump]
    phase = s.phase
    talon = len(s.talon)
    if phase == P_LEAD:
        return A.ATTACK + _habit_lead(hand, trump, st, talon, s.hmask[s.defender])
    if phase == P_DEFEND:
        u = -1
        for a, d in zip(s.att, s.dfn, strict=True):
            if d < 0:
                u = s.card_at[a]
                break
        m = hand & BEATERS[trump][u]
        if s.transfers:
            passing = s._transferable(seat)
            if passing:
                card = _cheapest(passing, st)
                if not m or (talon and card // 13 != trump and _habit_beat(m, st, s.ranks) // 13 == trump):
                    return A.TRANSFER + card
        if not m:
            return A.TAKE
        best = _habit_beat(m, st, s.ranks)
        if talon >= 8 and best // 13 == trump and best % 13 >= 9 and len(s.att) <= 2:
            weight = 0
            cheap = True
            for c in cards_of(s.tmask):
                weight += st[c]
                if c // 13 == trump or c % 13 > 8:
                    cheap = False
            if cheap and weight <= 16:
                return A.TAKE
        return A.BEAT + u * 64 + best
    adds = hand & addable(s.ranks)
    if not adds:
        return A.PASS
    best, bv = -1, -1e9
    if not talon:
        if s.taking:
            for c in cards_of(adds):
                if -st[c] > bv:
                    best, bv = c, -st[c]
            return A.ADD + best
        other = s.hmask[s.defender]
        beat = BEATERS[trump]
        for c in cards_of(adds):
            v = (8.0 if not other & beat[c] else 0.0) - st[c]
            if v > bv:
                best, bv = c, v
        return A.ADD + best
    if s.taking:
        for c in cards_of(adds):
            if st[c] < 13 and -st[c] > bv:
                best, bv = c, -st[c]
        return A.ADD + best if best >= 0 else A.PASS
    other = s.hmask[s.defender]
    beat = BEATERS[trump]
    for c in cards_of(adds):
        if st[c] >= 13:
            continue
        v = (8.0 if not other & beat[c] else 0.0) - st[c]
        if v > bv:
            best, bv = c, v
    return A.ADD + best if best >= 0 else A.PASS


class HardPlayer:
    level = "hard"

    def __init__(self, rules: Rules, seed: int = 0, effort: Effort | None = None,
                 budget: int | None = None) -> None:
        self.rules = rules
        self.rng = Rng(seed)
        self.effort = effort or Effort()
        self.budget = units_for("durak") if budget is None else budget
        """Work units per decision: playout moves and solver positions."""
        e = self.effort
        self.search_talon = e.early_talon if self.budget >= e.early_units else e.search_talon
        """Search once the talon holds this many cards or fewer (more with a large budget)."""
        self.policy = club_policy
        """The playout policy."""
        self.work = Work(self.budget)
        """The last decision's budget and what it spent."""
        self.samples = 0
        """Deals the last decision sampled."""
        self.tally: Tally | None = None
        """The last decision's sampled values, if it sampled."""
        self.takers: dict[int, float] = {}
        """Per seat that took against a plain card since the last draw: the weight per trump of a
        deal that gives it trumps (``TAKE_TRUMP_THIN`` / ``TAKE_TRUMP_THICK``)."""
        self.takers_talon = -1
        self._evidence: list[Evidence] = []
        self.normal = NormalPlayer(rules, seed)
        self.transfer = bool(getattr(rules, "transfer", False))
        """Whether the table plays transfers (the solver and the evidence depend on it)."""
        self.solver: Solver | None = None
        self.solver_hand: tuple[int, ...] | None = None

    # ---- the decision

    def choose(self, view: View) -> Action:
        assert isinstance(view, DurakView)
        legal = view.legal_actions
        self.work = Work(self.budget)
        self.samples = 0
        self.tally = None
        if view.phase not in ("lead", "defend", "throw-in"):
            return legal[0]
        preferred = self.normal.choose(view)  # also keeps Normal's memory of what others lack
        self._note_take(view)
        if len(legal) == 1:
            return legal[0]
        if view.talon_size > self.search_talon:
            return preferred
        order = [preferred, *(a for a in legal if a != preferred)]
        rng = self.rng.fork(f"decision/{view.bout}/{len(view.table)}/{len(view.hand)}")
        if view.talon_size == 0 and _pair(view) is not None:
            exact = self._endgame(view, order)
            if exact is not None:
                return exact
        return self._sample(view, order, rng)

    def _note_take(self, view: DurakView) -> None:
        """A take against a plain card is evidence that the taker holds no trump (any trump would have
        covered it), strong when the talon is thin.  Forgotten when somebody draws."""
        if view.talon_size != self.takers_talon:
            self.takers = {}
            self.takers_talon = view.talon_size
        if not view.taking or view.defender == view.seat:
            return
        t = view.trump_suit
        if any(d == UNKNOWN and a // 13 != t for a, d in view.table):
            self.takers[view.defender] = TAKE_TRUMP_THIN if view.talon_size < 8 else TAKE_TRUMP_THICK

    def take_weight(self, view: DurakView, groups: list[int], cards: list[int]) -> float:
        """How likely the takes seen were under a sampled deal: the product over the takers of their
        weight per trump the deal puts in their hidden hand."""
        if not self.takers:
            return 1.0
        t = view.trump_suit
        w = 1.0
        for g, c in zip(groups, cards, strict=True):
            if g >= 0 and c // 13 == t:
                w *= self.takers.get(g >> 1, 1.0)
        return w

    def bout_evidence(self, view: DurakView) -> list[Evidence]:
        """The plays of this bout that say something about the other player's hand: its lead (with
        more than 2 cards in the talon, where the habit of leading cheap is arithmetic on the hand
        alone) and each card it beat with.  Only with two players, where every attack card is the
        attacker's and every defence the defender's, and nothing is drawn within a bout."""
        if PLAY_MISMATCH >= 1.0 or len(view.hand_sizes) != 2 or not view.table or self.transfer:
            return []  # (after a transfer, the attack cards are not all the attacker's)
        me = view.seat
        table = view.table
        out: list[Evidence] = []
        if view.attacker != me and view.talon_size > 2:
            since = 0
            for a, _ in table[1:]:
                since |= 1 << a
            out.append(Evidence(view.attacker, table[0][0], -1, since, 0))
        if view.defender != me:
            ranks = 0
            for i, (a, d) in enumerate(table):
                ranks |= 1 << (a % 13)
                if d == UNKNOWN:
                    continue
                since = 0
                for _, d2 in table[i + 1:]:
                    if d2 != UNKNOWN:
                        since |= 1 << d2
                out.append(Evidence(view.defender, d, a, since, ranks))
                ranks |= 1 << (d % 13)
        return out

    def play_weight(self, view: DurakView, evidence: list[Evidence], groups: list[int],
                    cards: list[int]) -> float:
        """How likely this bout's lead and defences were under a sampled deal: ``PLAY_MISMATCH`` for
        each that Normal's habit would not have played with the hand the deal gives the player."""
        if not evidence:
            return 1.0
        t = view.trump_suit
        st = STRENGTH[t]
        hands = [0] * len(view.hand_sizes)
        for g, c in zip(groups, cards, strict=True):
            if g >= 0:
                hands[g >> 1] |= 1 << c
        w = 1.0
        for e in evidence:
            held = hands[e.seat] | e.since | 1 << e.card
            for c in view.known_cards[e.seat]:
                held |= 1 << c
            if e.target < 0:
                want = _habit_lead(held, t, st, view.talon_size)
            else:
                want = _habit_beat(held & BEATERS[t][e.target], st, e.ranks)
            if want != e.card:
                w *= PLAY_MISMATCH
        return w

    def _solver(self, view: DurakView, pair: tuple[int, int]) -> Solver:
        key = (view.dealer, view.trump, view.seat, *pair)
        solver = self.solver
        if solver is None or self.solver_hand != key or len(solver.bounds) > self.effort.table_limit:
            solver = self.solver = solver_for(self.transfer, view.trump_suit, view.seat, 0, pair,
                                              self.rules.deck)
            self.solver_hand = key
        return solver

    def _endgame(self, view: DurakView, order: list[Action]) -> Action | None:
        """Exact play when the talon is empty and one opponent is left: nothing is hidden."""
        pair = _pair(view)
        if pair is None or len(view.unknown_positions) != len(view.unseen_cards):
            return None
        base = _searchable(view, list(view.unseen_cards))
        solver = self._solver(view, pair)
        solver.nodes = 0
        solver.budget = max(1, self.work.limit // self.effort.root_share)
        try:
            for need in (2, 1):
                for a in order:
                    s = base.clone()
                    s.apply(a)
                    if solver.reach(s, need):
                        return a
        except Budget:
            return None
        finally:
            self.work.spend(solver.nodes)
        return order[0]  # lost whatever we do: play as a person would, hoping for a slip

    # ---- perfect-information Monte Carlo

    def _groups(self, view: DurakView) -> tuple[list[int], dict[int, int]]:
        """Per unknown position its group: ``2 * seat + 1`` for a card a seat was dealt at the start,
        ``2 * seat`` for one it drew later, -1 for the talon.  With it, per seat, the trumps it cannot
        have been dealt: the trumps shown before the first bout were each player's lowest (D3)."""
        probe = view.determinize(list(view.unseen_cards[: len(view.unknown_positions)]))
        n = len(view.hand_sizes)
        dealt = 6 * n
        where: dict[int, int] = {}
        for name, positions in probe.zones():
            if name.startswith("hand "):
                seat = int(name[5:])
                for p in positions:
                    where[p] = 2 * seat + (1 if p < dealt else 0)
        forbid: dict[int, int] = {}
        t = view.trump_suit
        for seat, text in probe.record().actions:
            if text.startswith("show "):
                shown = 13 if text == "show none" else self.rules.parse_card(text[5:]) % 13
                forbid[seat] = sum(1 << (t * 13 + r) for r in range(shown))
        return [where.get(p, -1) for p in view.unknown_positions], forbid

    def _constraints(self, view: DurakView) -> tuple[list[int], bool, Allowed, Allowed]:
        """The groups of the unknown positions, whether a seat showed it lacks cards, and the two
        constraints on a card's place: the inferred one (what was shown lacking) and the public one."""
        groups, forbid = self._groups(view)
        lacks = {s: self.normal.memory.lacking(s) for s in range(len(view.hand_sizes)) if s != view.seat}

        def public(g: int, c: int) -> bool:
            return g < 0 or not (g & 1 and forbid.get(g >> 1, 0) >> c & 1)

        def inferred(g: int, c: int) -> bool:
            return public(g, c) and (g < 0 or not lacks.get(g >> 1, 0) >> c & 1)

        return groups, any(lacks.values()), inferred, public

    def _sample(self, view: DurakView, order: list[Action], rng: Rng) -> Action:
        if len(view.unknown_positions) > len(view.unseen_cards):
            return order[0]
        groups, constrained, inferred, public = self._constraints(view)
        self._evidence = self.bout_evidence(view)
        tally = Tally(len(order))
        work = self.work
        me = view.seat
        # two players and at most the face-up trump left to draw: the one deal is known
        known_world = view.talon_size <= 1 and _pair(view) is not None
        while not tally.samples or not (known_world or tally.settled(work)):
            work.begin()
            cards, weight = self._weighed_deal(view, rng, groups, constrained, inferred, public)
            base = _searchable(view, cards)
            work.spend(WORLD_UNITS)
            values: list[float] = []
            for a in order:
                s = base.clone()
                s.apply(a)
                values.append(self._playout(s, me))
            tally.add(values, weight)
        self.samples = tally.samples
        self.tally = tally
        totals = tally.totals
        best = 0
        for i in range(1, len(order)):
            if totals[i] > totals[best]:
                best = i
        return order[best]

    def _weighed_deal(self, view: DurakView, rng: Rng, groups: list[int], constrained: bool,
                      inferred: Allowed, public: Allowed) -> tuple[list[int], float]:
        """One deal of the hidden cards within the hard constraints, and its weight: how likely the
        takes seen were under it (``take_weight``)."""
        cards = None
        if constrained:
            cards = sample_assignment(rng, groups, view.unseen_cards, inferred)
        if cards is None:
            cards = sample_assignment(rng, groups, view.unseen_cards, public)
        if cards is None:  # cannot happen with an honest history; stay playable anyway
            cards = sample_assignment(rng, groups, view.unseen_cards)
        assert cards is not None
        return cards, (self.take_weight(view, groups, cards)
                       * self.play_weight(view, self._evidence, groups, cards))

    def sampled_hands(self, view: DurakView, deals: int, seed: int = 0, weigh: bool = True
                      ) -> list[tuple[dict[int, list[int]], float]]:
        """``deals`` deals as Hard samples them for ``view`` (per other seat, its hidden cards) with
        their weights: what the search sees of the other hands, for looking at its inferences
        (``weigh=False``: the hard constraints alone)."""
        if weigh:
            self._note_take(view)
        else:
            self.takers = {}
        groups, constrained, inferred, public = self._constraints(view)
        self._evidence = self.bout_evidence(view) if weigh else []
        rng = Rng(f"sampled-hands/{seed}")
        out: list[tuple[dict[int, list[int]], float]] = []
        for _ in range(deals):
            cards, w = self._weighed_deal(view, rng, groups, constrained, inferred, public)
            hands: dict[int, list[int]] = {}
            for g, c in zip(groups, cards, strict=True):
                if g >= 0:
                    hands.setdefault(g >> 1, []).append(c)
            out.append((hands, w))
        return out

    def _playout(self, s: DurakState, me: int) -> int:
        """Play a sampled deal out; its moves and solver positions are charged to the decision."""
        exact = self.effort.leaf_nodes > 0
        pol = self.policy
        solver = None
        small = self.effort.leaf_cards
        n = s.n
        limit = moves = self.effort.playout_moves
        work = self.work
        while s.phase != P_OVER:
            if s.to_act == CHANCE:  # a draw: the talon's order is part of the sampled deal
                s.fulfil_known()
                continue
            moves -= 1
            if moves < 0:
                work.spend(limit)
                return 1
            if exact and not s.talon and s.out.bit_count() == n - 2:
                pair = active_pair(s)
                if pair is None or me not in pair:
                    exact = False
                    continue
                if s.hmask[pair[0]].bit_count() + s.hmask[pair[1]].bit_count() > small:
                    s.apply(pol(s))
                    continue
                if solver is None:
                    solver = self.solver
                    if (solver is None or solver.trump != s.trump_suit or solver.me != me
                            or solver.pair != pair
                            or len(solver.bounds) > self.effort.table_limit):
                        solver = self.solver = solver_for(self.transfer, s.trump_suit, me, 0, pair,
                                                          s.rules.deck)
                        self.solver_hand = None
                solver.nodes = 0
                solver.budget = self.effort.leaf_nodes
                try:
                    got = solver.value(s)
                    work.spend(limit - moves + solver.nodes)
                    return got
                except Budget:
                    work.spend(solver.nodes)
                    exact = False
            s.apply(pol(s))
        work.spend(limit - moves)
        return end_value(s, me)


def _habit_lead(held: int, trump: int, st: list[int], talon: int, defender: int = 0) -> int:
    """Normal's lead from ``held`` with ``talon`` cards left to draw: the cheapest card, a plain card
    cheaper for each other card of its rank, a trump dearer by 4 + talon / 4 while there is a talon;
    with 2 cards or fewer left, a card the ``defender``'s hand (a mask) cannot beat first."""
    beat = BEATERS[trump]
    late = talon <= 2
    best, bc = -1, 1e9
    for c in cards_of(held):
        v = float(st[c])
        if v < 13:
            v -= 1.5 * ((held & RANK_MASK[c % 13]).bit_count() - 1)
        elif talon:
            v += 4 + talon / 4
        if late and not defender & beat[c]:
            v -= 8
        if v < bc:
            best, bc = c, v
    return best


def _cheapest(cards: int, st: list[int]) -> int:
    """The weakest card of a mask (``st``: the strengths of one trump suit)."""
    best, bv = -1, 99
    for c in cards_of(cards):
        if st[c] < bv:
            best, bv = c, st[c]
    return best


def _habit_beat(beaters: int, st: list[int], ranks: int) -> int:
    """Normal's beater among ``beaters``: the cheapest, half a point cheaper when its rank is on the
    table already (``ranks``: a mask of ranks), no new rank for the attackers to throw in."""
    best, bv = -1, 1e9
    for c in cards_of(beaters):
        v = st[c] - (0.5 if ranks >> (c % 13) & 1 else 0.0)
        if v < bv:
            best, bv = c, v
    return best


def _searchable(view: DurakView, cards: list[int]) -> DurakState:
    """The full-information state of one sampled deal, as a search copy (no history kept)."""
    state = view.determinize(cards)  # a fresh state of its own: it may drop its history in place
    assert isinstance(state, DurakState)
    state.forget_history()
    return state


def _pair(view: DurakView) -> tuple[int, int] | None:
    """The two seats still playing when exactly two are and this seat is one of them."""
    out = {s for group in view.out_order for s in group}
    left = [s for s in range(len(view.hand_sizes)) if s not in out]
    if len(left) != 2 or view.seat not in left:
        return None
    return left[0], left[1]
