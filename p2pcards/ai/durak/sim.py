"""A fast full-information Durak simulator for the computer players' search.

The engine (``p2pcards.games.durak.state``) is the authority; this is a lean copy of its bout logic
(D4-D13) on bitmasks of card ids, for the thousands of playouts a Hard decision needs.  It starts
from a determinized engine state (every card known) and follows the engine move for move: the same
action integers, the same throw-in order, the same draw order, the same end (a test plays both side by
side).  It is not replicated code: nothing outside a computer player's head depends on it.
"""

from __future__ import annotations

from p2pcards.games.base import UNKNOWN, HandState
from p2pcards.games.cards import Card
from p2pcards.games.durak import actions as A
from p2pcards.games.durak.state import (
    HAND_SIZE,
    P_DEFEND,
    P_LEAD,
    P_THROW,
    DurakState,
)

LEAD, DEFEND, THROW, OVER = 0, 1, 2, 3

BIT = [1 << c for c in range(52)]
RANK_OF = [c % 13 for c in range(52)]
RANK_MASK = [0] * 13
"""All cards of a rank index (``c % 13``), as a mask."""
for _c in range(52):
    RANK_MASK[_c % 13] |= 1 << _c
SUIT_MASK = [sum(1 << (s * 13 + r) for r in range(13)) for s in range(4)]


def _addable_table() -> list[int]:
    # ranks of a Durak deck are indices 4..12: a 9-bit table indexed by (ranks >> 4)
    out = []
    for bits in range(1 << 9):
        m = 0
        for r in range(9):
            if bits >> r & 1:
                m |= RANK_MASK[r + 4]
        out.append(m)
    return out


ADDABLE = _addable_table()
"""``ADDABLE[ranks >> 4]``: the cards whose rank is in ``ranks`` (a mask of rank indices)."""


def _beaters() -> list[list[int]]:
    table = []
    for t in range(4):
        row = []
        for a in range(52):
            s = a // 13
            m = SUIT_MASK[s] & ~((1 << (a + 1)) - 1)  # higher cards of the same suit
            if s != t:
                m |= SUIT_MASK[t]
            row.append(m)
        table.append(row)
    return table


BEATERS = _beaters()
"""``BEATERS[trump][a]``: every card that beats ``a`` (D1)."""


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, lowest id first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: list[Card] | tuple[Card, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class Sim:
    """One Durak hand with every card known, from a bout onwards (no dealing, no trump showing)."""

    __slots__ = ("adders", "att", "attacker", "bout", "defender", "dfn", "first_limit", "hands",
                 "limit", "n", "order", "out", "out_order", "phase", "ranks", "taking", "talon",
                 "ti_added", "ti_idx", "tmask", "to_act", "trump")

    def __init__(self) -> None:
        self.n = 2
        self.trump = 0
        self.hands: list[int] = []
        self.talon: list[Card] = []  # reverse drawing order: pop() draws
        self.att: list[Card] = []
        self.dfn: list[Card] = []  # -1 while unbeaten
        self.tmask = 0
        self.ranks = 0
        self.attacker = 0
        self.defender = 1
        self.limit = 6
        self.first_limit = 6
        self.taking = False
        self.order: tuple[int, ...] = ()
        self.ti_idx = 0
        self.ti_added = False
        self.adders = 0
        self.out = 0
        self.out_order: list[tuple[int, ...]] = []
        self.phase = LEAD
        self.to_act = 0
        self.bout = 0

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_state(cls, st: HandState) -> Sim:
        """A simulator at the same point as a determinized engine state (every card it needs known)."""
        if not isinstance(st, DurakState):
            raise TypeError("the simulator plays durak")
        known = st.card_at
        s = cls()
        s.n = st.n
        s.trump = st.trump_suit
        s.hands = [mask_of([known[p] for p in h]) for h in st.hands]
        s.talon = [known[p] for p in st.talon]
        if UNKNOWN in s.talon or any(known[p] == UNKNOWN for h in st.hands for p in h):
            raise ValueError("the simulator needs a determinized state")
        s.att = [known[p] for p in st.att]
        s.dfn = [known[p] if p >= 0 else -1 for p in st.dfn]
        s.tmask = mask_of(s.att) | mask_of([d for d in s.dfn if d >= 0])
        s.ranks = st.ranks
        s.attacker = st.attacker
        s.defender = st.defender
        s.limit = st.limit
        s.first_limit = st.rules.first_bout_limit
        s.taking = st.taking
        s.order = st.order
        s.ti_idx = st.ti_idx
        s.ti_added = st.ti_added
        s.adders = st.adders
        s.out = st.out
        s.out_order = list(st.out_order)
        s.bout = st.bout
        phase = st.phase
        if phase == P_LEAD:
            s.phase = LEAD
        elif phase == P_DEFEND:
            s.phase = DEFEND
        elif phase == P_THROW:
            s.phase = THROW
        else:
            raise ValueError(f"the simulator starts at a bout, not in phase {st.phase_name!r}")
        s.to_act = st.to_act
        return s

    def copy(self) -> Sim:
        s = Sim.__new__(Sim)
        s.n = self.n
        s.trump = self.trump
        s.hands = self.hands[:]
        s.talon = self.talon[:]
        s.att = self.att[:]
        s.dfn = self.dfn[:]
        s.tmask = self.tmask
        s.ranks = self.ranks
        s.attacker = self.attacker
        s.defender = self.defender
        s.limit = self.limit
        s.first_limit = self.first_limit
        s.taking = self.taking
        s.order = self.order
        s.ti_idx = self.ti_idx
        s.ti_added = self.ti_added
        s.adders = self.adders
        s.out = self.out
        s.out_order = self.out_order[:]
        s.phase = self.phase
        s.to_act = self.to_act
        s.bout = self.bout
        return s

    # ------------------------------------------------------------------ queries

    def unbeaten(self) -> list[Card]:
        return [a for a, d in zip(self.att, self.dfn, strict=True) if d < 0]

    def legal(self) -> list[int]:
        """The legal actions of the seat to act, as engine action integers (sorted like the engine's)."""
        hand = self.hands[self.to_act]
        phase = self.phase
        if phase == THROW:
            m = hand & ADDABLE[self.ranks >> 4]
            out = [A.ADD + c for c in cards_of(m)]
            out.append(A.PASS)
            return out
        if phase == DEFEND:
            out = []
            row = BEATERS[self.trump]
            for a, d in zip(self.att, self.dfn, strict=True):
                if d < 0:
                    base = A.BEAT + a * 64
                    out.extend(base + c for c in cards_of(hand & row[a]))
            out.sort()
            out.append(A.TAKE)
            return out
        if phase == LEAD:
            return [A.ATTACK + c for c in cards_of(hand)]
        return []

    def winners_value(self, seat: int) -> int:
        """At the end: 2 if ``seat`` is not the durak, 1 for a draw, 0 for the durak."""
        left = [s for s in range(self.n) if not self.out >> s & 1]
        if not left:
            return 1
        return 0 if left[0] == seat else 2

    # ------------------------------------------------------------------ moving on

    def apply(self, action: int) -> None:
        seat = self.to_act
        phase = self.phase
        if action == A.PASS:
            self._continue_round(self.ti_idx + 1)
            return
        if action == A.TAKE:
            self.taking = True
            self.ti_added = False
            self._continue_round(0)
            return
        if action >= A.BEAT:
            a, d = divmod(action - A.BEAT, 64)
            self.hands[seat] ^= 1 << d
            self.tmask |= 1 << d
            self.ranks |= 1 << (d % 13)
            self.dfn[self.att.index(a)] = d
            if -1 in self.dfn:
                return
            if not self.hands[seat]:
                self._resolve()
            else:
                self.ti_added = False
                self._continue_round(0)
            return
        c = action & 63
        self.hands[seat] ^= 1 << c
        self.tmask |= 1 << c
        self.ranks |= 1 << (c % 13)
        self.att.append(c)
        self.dfn.append(-1)
        if phase == LEAD:
            self.phase = DEFEND
            self.to_act = self.defender
            return
        self.adders |= 1 << seat
        if self.taking:
            self.ti_added = True
            self._continue_round(self.ti_idx + 1)
        else:
            self.phase = DEFEND
            self.to_act = self.defender

    def _continue_round(self, idx: int) -> None:
        order = self.order
        hands = self.hands
        while len(self.att) < self.limit:
            while idx < len(order):
                s = order[idx]
                if hands[s]:
                    self.ti_idx = idx
                    self.phase = THROW
                    self.to_act = s
                    return
                idx += 1
            if not (self.taking and self.ti_added):
                break
            self.ti_added = False
            idx = 0
        self._resolve()

    def _resolve(self) -> None:
        n, attacker, defender = self.n, self.attacker, self.defender
        defended = not self.taking
        if self.taking:
            self.hands[defender] |= self.tmask
        self.att = []
        self.dfn = []
        self.tmask = 0
        self.ranks = 0
        talon = self.talon
        if talon:
            hands = self.hands
            out = self.out
            adders = self.adders
            others = [s for s in ((attacker + 1 + i) % n for i in range(n - 1))
                      if s != defender and not out >> s & 1]
            order = [attacker]
            order += [s for s in others if adders >> s & 1]
            order += [s for s in others if not adders >> s & 1]
            order.append(defender)
            for s in order:
                k = HAND_SIZE - hands[s].bit_count()
                while k > 0 and talon:
                    hands[s] |= 1 << talon.pop()
                    k -= 1
                if not talon:
                    break
        if not talon:
            gone = tuple(s for s in range(n) if not self.out >> s & 1 and not self.hands[s])
            if gone:
                self.out_order.append(gone)
                for s in gone:
                    self.out |= 1 << s
        left = [s for s in range(n) if not self.out >> s & 1]
        if len(left) <= 1:
            self.phase = OVER
            self.to_act = -2
            return
        start = defender if defended else (defender + 1) % n
        self._start_bout(self._next_active(start))

    def _next_active(self, seat: int) -> int:
        n, out = self.n, self.out
        for i in range(n):
            s = (seat + i) % n
            if not out >> s & 1:
                return s
        raise AssertionError("no active seat")

    def _start_bout(self, attacker: int) -> None:
        n, out = self.n, self.out
        defender = self._next_active((attacker + 1) % n)
        self.attacker = attacker
        self.defender = defender
        self.bout += 1
        cap = self.first_limit if self.bout == 1 else HAND_SIZE
        self.limit = min(cap, self.hands[defender].bit_count())
        self.taking = False
        self.adders = 0
        if n == 2:
            self.order = (attacker,)
        else:
            others = ((defender + 1 + i) % n for i in range(n - 1))
            self.order = (attacker, *(s for s in others if s != attacker and not out >> s & 1))
        self.phase = LEAD
        self.to_act = attacker
