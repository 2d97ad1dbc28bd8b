"""Exact play of a Durak endgame between two players: the talon is empty, so each knows the other's hand.

At a bigger table this holds once every other player is out.

From there the hand is a finite game of perfect information with three results: a win, a draw (both
run out in the same bout, D13), a loss.  ``Solver`` answers "can ``me`` make at least a draw / a win
from here?" by an AND-OR search (the value is 2 for a win, 1 for a draw, 0 for a loss), with a
transposition table of proven bounds keyed by the whole position, and likely-good moves first.
Effort is bounded by a node budget (``Budget`` is raised past it), never by the clock.

Inside, a card is its index in the order weakest first (plain cards by rank, then trumps by rank), so
that walking a hand's bits from the lowest gives the weakest card first without sorting.

Positions follow the engine (D5-D13) for two players: after a take the attacker may keep adding up
to the limit; after a beat it may add or pass; whoever has no cards when the bout is resolved is out;
both out together is a draw.  The search starts from an engine state (``games.durak.state``) with every
card known.  D15 (30 bouts of takes in a row with nothing drawn) is left out of the search: with two
players and nothing to draw, every take shrinks the attacker's hand, so such a run needs an attacker
holding 30 cards.

With ``transfer=on`` (D16-D18) the defender of a bout in which nothing is beaten may also transfer:
with two players the bout bounces back to the attacker, who must then answer every card on the table
(``_defend`` keeps the unbeaten cards as a mask and answers the weakest first; the order in which a
defender covers cards changes nothing, as nobody adds a card until every one is covered).  Transfers
and takes can bring a position back, so ``TransferSolver`` gives up (``Budget``) past ``MAX_BOUTS``
bouts deep instead of following a cycle.
"""

from __future__ import annotations

from p2pcards.games.durak.state import P_DEFEND, P_LEAD, P_OVER, P_THROW, DurakState, beats, cards_of

HAND_LIMIT = 6
MAX_BOUTS = 40
"""How many bouts deep a ``TransferSolver`` looks before it gives up."""
DURAK_CARDS = tuple(s * 13 + r for s in range(4) for r in range(4, 13))
"""The 36-card deck (``deck=52`` plays every card: a ``Solver`` is given its deck)."""

_CHUNKS = tuple(tuple(tuple(k * 9 + b for b in range(9) if v >> b & 1) for v in range(512)) for k in range(4))


def bits(m: int) -> tuple[int, ...]:
    """The indices of a mask, lowest first (36 bits at the speed of table look-ups; the 52 of the
    52-card deck as the engine reads them, ``cards_of``)."""
    if m >> 36:
        return cards_of(m)
    c0, c1, c2, c3 = _CHUNKS
    return c0[m & 511] + c1[m >> 9 & 511] + c2[m >> 18 & 511] + c3[m >> 27]


class _BitsMemo(dict[int, tuple[int, ...]]):
    """``BITS[m]`` is ``bits(m)``, remembered: a search walks the same few hands again and again, and
    a dictionary hit costs no Python call.  Emptied past ``_MEMO_LIMIT`` entries (values never change,
    so when it is emptied changes nothing but speed)."""

    def __missing__(self, m: int) -> tuple[int, ...]:
        if len(self) > _MEMO_LIMIT:
            self.clear()
        got = self[m] = bits(m)
        return got


_MEMO_LIMIT = 1 << 18
BITS = _BitsMemo()


def active_pair(state: DurakState) -> tuple[int, int] | None:
    """The two seats still playing, if exactly two are (the others went out), else None."""
    left = [s for s in range(state.n) if not state.out >> s & 1]
    return (left[0], left[1]) if len(left) == 2 else None


def end_value(state: DurakState, seat: int) -> int:
    """At the end of a hand: 2 if ``seat`` is not the durak, 1 for a draw, 0 for the durak."""
    result = state.result
    assert result is not None
    if result.durak is None:
        return 1
    return 0 if result.durak == seat else 2


class Budget(Exception):
    """The search went past its node budget."""


class Layout:
    """Cards in the weakest-first order of one trump suit, with the tables the search needs."""

    __slots__ = ("beaters", "card", "index", "rank_mask")

    def __init__(self, trump: int, deck: tuple[int, ...] = DURAK_CARDS) -> None:
        order = sorted(deck, key=lambda c: (c % 13 + (13 if c // 13 == trump else 0), c))
        self.card = order
        self.index = {c: i for i, c in enumerate(order)}
        self.beaters = [sum(1 << j for j, d in enumerate(order) if beats(d, a, trump)) for a in order]
        self.rank_mask = [sum(1 << j for j, d in enumerate(order) if d % 13 == a % 13) for a in order]

    def mask(self, card_mask: int) -> int:
        index = self.index
        m = 0
        for c in cards_of(card_mask):
            m |= 1 << index[c]
        return m


_LAYOUTS: dict[tuple[int, int], Layout] = {}


def layout(trump: int, deck: tuple[int, ...] = DURAK_CARDS) -> Layout:
    key = (trump, len(deck))
    got = _LAYOUTS.get(key)
    if got is None:
        got = _LAYOUTS[key] = Layout(trump, deck)
    return got


class Solver:
    """Exact values of two-player endgame positions, for one trump suit and one seat's side."""

    __slots__ = ("beaters", "bounds", "budget", "depth", "layout", "me", "nodes", "pair", "pair_sum",
                 "rank_mask", "transfer", "trump")

    def __init__(self, trump: int, me: int, budget: int, pair: tuple[int, int] = (0, 1),
                 deck: tuple[int, ...] = DURAK_CARDS) -> None:
        self.transfer = False
        """Whether a defender may transfer (``TransferSolver``)."""
        self.depth = 0
        self.trump = trump
        self.me = me
        self.pair = pair
        """The two seats still playing (at a bigger table, the others are out)."""
        self.pair_sum = pair[0] + pair[1]
        self.layout = layout(trump, deck)
        self.beaters = self.layout.beaters
        self.rank_mask = self.layout.rank_mask
        self.bounds: dict[tuple[int, ...], int] = {}
        """Proven bounds of a position: ``3 * low + high``."""
        self.nodes = 0
        self.budget = budget

    # ---- entry points

    def value(self, state: DurakState) -> int:
        """The exact value for ``me`` (2 win, 1 draw, 0 loss) of a two-player position whose talon is
        empty.  Raises ``Budget`` if that takes more nodes than the budget left."""
        if state.phase == P_OVER:
            return end_value(state, self.me)
        if self.reach(state, 2):
            return 2
        return 1 if self.reach(state, 1) else 0

    def reach(self, state: DurakState, need: int) -> bool:
        """Can ``me`` make at least ``need`` (1: a draw, 2: a win) from this position (a full-information
        engine state whose talon is empty, with two players left)?"""
        if state.phase == P_OVER:
            return end_value(state, self.me) >= need
        assert not state.talon and active_pair(state) == self.pair
        lay = self.layout
        att = state.attacker
        a_hand, d_hand = lay.mask(state.hmask[att]), lay.mask(state.hmask[state.defender])
        if state.phase == P_LEAD:
            return self._lead(a_hand, d_hand, att, need)
        known = state.card_at
        n_att = len(state.att)
        on_table = 0
        for p in (*state.att, *(d for d in state.dfn if d >= 0)):
            on_table |= 1 << known[p]
        table = lay.mask(on_table)
        addable = 0
        for i in BITS[table]:
            addable |= self.rank_mask[i]
        if state.phase == P_DEFEND:
            unb = 0
            for a, d in zip(state.att, state.dfn, strict=True):
                if d < 0:
                    unb |= 1 << lay.index[known[a]]
            return self._defend(a_hand, d_hand, att, table, addable, unb, n_att, state.limit, need)
        assert state.phase == P_THROW
        return self._throw(a_hand, d_hand, att, table, addable, n_att, state.limit, state.taking, need)

    # ---- the search; ``att`` is the attacking seat; hands, table and cards are in layout indices

    def _end(self, a_hand: int, d_hand: int, att: int, table: int, taking: bool, need: int) -> bool:
        if taking:
            d_hand |= table
        if not a_hand:
            v = 1 if not d_hand else (2 if att == self.me else 0)
            return v >= need
        if not d_hand:
            return (0 if att == self.me else 2) >= need
        if taking:
            return self._lead(a_hand, d_hand, att, need)
        return self._lead(d_hand, a_hand, self.pair_sum - att, need)

    def _lead(self, a_hand: int, d_hand: int, att: int, need: int) -> bool:
        key = (0, a_hand, d_hand, att)
        b = self.bounds.get(key, 2)
        if b // 3 >= need:
            return True
        if b % 3 < need:
            return False
        self.nodes += 1
        if self.nodes > self.budget:
            raise Budget
        mine = att == self.me
        limit = d_hand.bit_count()
        if limit > HAND_LIMIT:
            limit = HAND_LIMIT
        beaters = self.beaters
        rank_mask = self.rank_mask
        later = []
        ok = not mine
        for c in BITS[a_hand]:
            if d_hand & beaters[c]:
                later.append(c)
                continue
            bit = 1 << c
            if self._defend(a_hand ^ bit, d_hand, att, bit, rank_mask[c], bit, 1, limit, need) == mine:
                ok = mine
                break
        else:
            for c in later:
                bit = 1 << c
                if self._defend(a_hand ^ bit, d_hand, att, bit, rank_mask[c], bit, 1, limit, need) == mine:
                    ok = mine
                    break
        self.bounds[key] = (need * 3 + b % 3) if ok else (b - b % 3 + need - 1)
        return ok

    def _defend(self, a_hand: int, d_hand: int, att: int, table: int, addable: int, unb: int, n_att: int,
                limit: int, need: int) -> bool:
        key = (1, a_hand, d_hand, att, table, unb, n_att, limit)
        b = self.bounds.get(key, 2)
        if b // 3 >= need:
            return True
        if b % 3 < need:
            return False
        self.nodes += 1
        if self.nodes > self.budget:
            raise Budget
        mine = att != self.me  # the defender moves
        ok = not mine
        rank_mask = self.rank_mask
        u = (unb & -unb).bit_length() - 1  # the weakest unbeaten card first
        rest = unb ^ (1 << u)
        for d in BITS[d_hand & self.beaters[u]]:
            bit = 1 << d
            nd = d_hand ^ bit
            if rest:
                r = self._defend(a_hand, nd, att, table | bit, addable | rank_mask[d], rest, n_att, limit,
                                 need)
            elif not nd:
                r = self._end(a_hand, nd, att, table | bit, False, need)
            else:
                r = self._throw(a_hand, nd, att, table | bit, addable | rank_mask[d], n_att, limit, False,
                                need)
            if r == mine:
                ok = mine
                break
        else:
            # D16: nothing beaten yet, so the defender may pass the bout back (two players) with a card
            # of the rank, if the attacker holds enough cards to answer every one
            size = a_hand.bit_count()
            if self.transfer and table == unb and size > n_att:
                back = self.pair_sum - att
                cap = size if size < HAND_LIMIT else HAND_LIMIT
                for c in BITS[d_hand & rank_mask[u]]:
                    bit = 1 << c
                    if self._defend(d_hand ^ bit, a_hand, back, table | bit, addable, unb | bit, n_att + 1,
                                    cap, need) == mine:
                        ok = mine
                        break
            if ok != mine and self._throw(a_hand, d_hand, att, table, addable, n_att, limit, True,
                                          need) == mine:
                ok = mine
        self.bounds[key] = (need * 3 + b % 3) if ok else (b - b % 3 + need - 1)
        return ok

    def _throw(self, a_hand: int, d_hand: int, att: int, table: int, addable: int, n_att: int, limit: int,
               taking: bool, need: int) -> bool:
        adds = a_hand & addable
        if n_att >= limit or not adds:  # the bout is over: ``_end``, written out (the commonest node)
            if taking:
                d_hand |= table
            if not a_hand:
                return (1 if not d_hand else (2 if att == self.me else 0)) >= need
            if not d_hand:
                return (0 if att == self.me else 2) >= need
            if taking:
                return self._lead(a_hand, d_hand, att, need)
            return self._lead(d_hand, a_hand, self.pair_sum - att, need)
        key = (2, a_hand, d_hand, att, table, n_att, limit, taking)
        b = self.bounds.get(key, 2)
        if b // 3 >= need:
            return True
        if b % 3 < need:
            return False
        self.nodes += 1
        if self.nodes > self.budget:
            raise Budget
        mine = att == self.me
        ok = not mine
        if taking:
            for c in BITS[adds]:
                bit = 1 << c
                if self._throw(a_hand ^ bit, d_hand, att, table | bit, addable, n_att + 1, limit, True,
                               need) == mine:
                    ok = mine
                    break
            else:
                if self._end(a_hand, d_hand, att, table, True, need) == mine:
                    ok = mine
        else:
            beaters = self.beaters
            later = []
            for c in BITS[adds]:
                if d_hand & beaters[c]:
                    later.append(c)
                    continue
                bit = 1 << c
                if self._defend(a_hand ^ bit, d_hand, att, table | bit, addable, bit, n_att + 1, limit,
                                need) == mine:
                    ok = mine
                    break
            else:
                for c in later:
                    bit = 1 << c
                    if self._defend(a_hand ^ bit, d_hand, att, table | bit, addable, bit, n_att + 1, limit,
                                    need) == mine:
                        ok = mine
                        break
                else:
                    if self._end(a_hand, d_hand, att, table, False, need) == mine:
                        ok = mine
        self.bounds[key] = (need * 3 + b % 3) if ok else (b - b % 3 + need - 1)
        return ok


class TransferSolver(Solver):
    """The solver of a table with ``transfer=on``: a defender may transfer, and a search deeper than
    ``MAX_BOUTS`` bouts gives up (``Budget``) rather than follow a position back to itself."""

    __slots__ = ()

    def __init__(self, trump: int, me: int, budget: int, pair: tuple[int, int] = (0, 1),
                 deck: tuple[int, ...] = DURAK_CARDS) -> None:
        super().__init__(trump, me, budget, pair, deck)
        self.transfer = True

    def reach(self, state: DurakState, need: int) -> bool:
        self.depth = 0
        return super().reach(state, need)

    def _lead(self, a_hand: int, d_hand: int, att: int, need: int) -> bool:
        self.depth += 1
        if self.depth > MAX_BOUTS:
            raise Budget
        try:
            return super()._lead(a_hand, d_hand, att, need)
        finally:
            self.depth -= 1


def solver_for(transfer: bool, trump: int, me: int, budget: int, pair: tuple[int, int],
               deck: tuple[int, ...]) -> Solver:
    """The solver of a table, with transfers (``transfer=on``) or without."""
    cls = TransferSolver if transfer else Solver
    return cls(trump, me, budget, pair, deck)
