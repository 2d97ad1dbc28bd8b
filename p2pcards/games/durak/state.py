"""One hand of Durak as a state machine (rules D1-D13 of the rulebook).

Deck positions: the deal gives position ``k`` to seat ``(dealer + 1 + k) % n`` (six rounds of one
card); position ``6n`` is the trump card turned up under the talon and drawn last; the positions after
it are the talon, drawn from ``6n + 1`` upwards.  With six players there is no talon and the dealer's
last card (position 35) is turned up and stays in the dealer's hand.

Order of play: the deal (``Deal``), the trump (``Reveal``), the trump showing of D3 (every seat from
the dealer's left says ``show CARD`` or ``show none``), then bouts.  In a bout exactly one seat is
awaited at a time: the main attacker leads, the defender beats or takes, and throw-in rounds ask the
attackers one by one in the priority order of D6 (seats with no cards at all are not asked).  After
the bout the draw is one ``Deal`` of the talon's top positions in the order of D10.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from p2pcards.games.base import (
    CHANCE,
    TERMINAL,
    UNKNOWN,
    Action,
    ActionError,
    Deal,
    FulfilError,
    GameError,
    HandState,
    Need,
    Reveal,
    View,
)
from p2pcards.games.cards import Card, card_text
from p2pcards.games.durak import actions as A
from p2pcards.games.durak.match import DurakResult

if TYPE_CHECKING:
    from p2pcards.games.durak.rules import Rules

HAND_SIZE = 6
STALLED_BOUTS = 30
"""D15: after this many bouts in a row in which the defender took and nobody drew, the hand is a draw."""

# phases
P_DEAL, P_TRUMP, P_SHOW, P_LEAD, P_DEFEND, P_THROW, P_DRAW, P_OVER = range(8)
PHASE_NAMES = ("deal", "trump", "show", "lead", "defend", "throw-in", "draw", "over")


def beats(defence: Card, attack: Card, trump_suit: int) -> bool:
    """D1: a higher card of the same suit, or a trump on a non-trump."""
    ds = defence // 13
    if ds == attack // 13:
        return defence > attack
    return ds == trump_suit


@dataclass(slots=True)
class DurakView(View):
    """What one seat may know of a Durak hand."""

    dealer: int
    phase: str
    trump: Card
    """The face-up trump card (``UNKNOWN`` before it is turned)."""
    trump_suit: int
    """0..3 (clubs, diamonds, hearts, spades), or -1 before the trump is turned."""
    talon_size: int
    """Cards left to draw, the face-up trump included."""
    discard: tuple[Card, ...]
    """The discarded cards (all of them were played face up)."""
    table: tuple[tuple[Card, Card], ...]
    """(attack card, defence card or ``UNKNOWN`` if not yet beaten) in the order played."""
    attacker: int
    defender: int
    taking: bool
    limit: int
    """How many attack cards this bout may hold (D7)."""
    bout: int
    hand_sizes: tuple[int, ...]
    known_cards: tuple[tuple[Card, ...], ...]
    """Per seat, the cards in that seat's hand that everyone knows (shown, taken, the drawn trump)."""
    out_order: tuple[tuple[int, ...], ...]
    """Seats that went out, grouped by the bout they went out in."""


class DurakState(HandState):
    rules: Rules

    def __init__(self, rules: Rules, dealer: int, hand_no: int = 0) -> None:
        n = rules.n
        self.rules = rules
        self.setup = (("dealer", dealer), ("hand", hand_no))
        self.n = n
        self.dealer = dealer
        self.card_at = [UNKNOWN] * len(rules.deck)
        self._public = []
        self._actions = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        # the talon in reverse drawing order: ``pop()`` gives the next card; the trump is first
        self.talon: list[int] = []
        self.trump_pos = HAND_SIZE * n if n < 6 else len(rules.deck) - 1
        self.trump_suit = -1
        self.discard: list[int] = []
        self.att: list[int] = []
        self.dfn: list[int] = []  # defence position per attack card, -1 while unbeaten
        self.ranks = 0  # bit r: a card of rank r + 2 is on the table
        self.pub = 0  # bit p: the card at position p is public
        self.out = 0  # bit s: seat s went out
        self.out_order: tuple[tuple[int, ...], ...] = ()
        self.attacker = -1
        self.defender = -1
        self.limit = 0
        self.taking = False
        self.defended = False
        self.bout = 0
        self.order: tuple[int, ...] = ()  # throw-in priority order of the bout (D6)
        self.ti_idx = 0
        self.ti_added = False
        self.adders = 0  # bit s: seat s added a card this bout (D10)
        self.stalled = 0  # bouts in a row that ended with a take and no card drawn (D15)
        self.show_idx = 0
        self.best_show = 99
        self.leader = -1
        self.phase = P_DEAL
        self._to_act = CHANCE
        deal = tuple(
            ((dealer + 1 + i) % n, tuple(range(i, HAND_SIZE * n, n))) for i in range(n)
        )
        self._need: Need | None = Deal(deal)
        self._result: DurakResult | None = None

    # ------------------------------------------------------------------ contract: what is awaited

    @property
    def to_act(self) -> int:
        return self._to_act

    @property
    def need(self) -> Need | None:
        return self._need

    @property
    def result(self) -> DurakResult | None:
        return self._result

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def legal_actions(self) -> list[Action]:
        seat = self._to_act
        if seat < 0:
            return []
        known = self.card_at
        cards = [known[p] for p in self.hands[seat] if known[p] != UNKNOWN]
        phase = self.phase
        if phase == P_THROW:
            ranks = self.ranks
            out = [A.ADD + c for c in cards if ranks >> (c % 13) & 1]
            out.sort()
            out.append(A.PASS)
            return out
        if phase == P_DEFEND:
            t = self.trump_suit
            out = []
            for pa, pd in zip(self.att, self.dfn, strict=True):
                if pd < 0:
                    a = known[pa]
                    base = A.BEAT + a * 64
                    out.extend(base + c for c in cards if beats(c, a, t))
            out.sort()
            out.append(A.TAKE)
            return out
        if phase == P_LEAD:
            return sorted(A.ATTACK + c for c in cards)
        # P_SHOW
        t = self.trump_suit
        trumps = [c for c in cards if c // 13 == t]
        return [A.SHOW + min(trumps)] if trumps else [A.SHOW_NONE]

    # ------------------------------------------------------------------ contract: moving on

    def reveals(self, action: Action) -> tuple[int, ...]:
        seat = self._to_act
        if seat < 0:
            return ()
        try:
            kind, a, d = A.decode(action, self.rules.deck_set)
        except ActionError:
            return ()
        c = d if kind == A.K_BEAT else a
        if c < 0:
            return ()
        p = self._position_in_hand(seat, c)
        return () if p < 0 else (p,)

    def _position_in_hand(self, seat: int, c: Card) -> int:
        known = self.card_at
        for p in self.hands[seat]:
            if known[p] == c:
                return p
        return -1

    def _card_from_hand(self, seat: int, c: Card, rule: str) -> int:
        p = self._position_in_hand(seat, c)
        if p < 0:
            known = self.card_at
            if c not in known and any(known[q] == UNKNOWN for q in self.hands[seat]):
                raise self._illegal(f"{card_text(c)} was not revealed from seat {seat}'s hand", rule)
            raise self._illegal(f"{card_text(c)} is not in seat {seat}'s hand", rule)
        return p

    def apply(self, action: Action) -> None:
        seat = self._to_act
        if seat < 0:
            what = "the hand is over" if seat == TERMINAL else "cards must be dealt or revealed first"
            raise ActionError(f"no seat is to act now: {what}")
        kind, a, d = A.decode(action, self.rules.deck_set)
        phase = self.phase
        if phase == P_THROW:
            self._throw(seat, kind, a, action)
        elif phase == P_DEFEND:
            self._defend(seat, kind, a, d, action)
        elif phase == P_LEAD:
            if kind != A.K_ATTACK:
                raise self._illegal(f"seat {seat} is the main attacker and must lead a card", "D4")
            p = self._card_from_hand(seat, a, "D4")
            self._record(seat, action)
            self._play(seat, p)
            self.att.append(p)
            self.dfn.append(-1)
            self.phase = P_DEFEND
            self._to_act = self.defender
        else:
            self._show(seat, kind, a, action)

    def _record(self, seat: int, action: Action) -> None:
        self._actions.append((seat, action))
        self._public.append(("act", seat, action))

    def _play(self, seat: int, p: int) -> None:
        self.hands[seat].remove(p)
        self.pub |= 1 << p
        self.ranks |= 1 << (self.card_at[p] % 13)

    # ---- D3: the lowest trump leads

    def _show(self, seat: int, kind: int, c: Card, action: Action) -> None:
        t = self.trump_suit
        known = self.card_at
        if kind == A.K_SHOW_NONE:
            for p in self.hands[seat]:
                if known[p] != UNKNOWN and known[p] // 13 == t:
                    raise self._illegal(f"seat {seat} holds the trump {card_text(known[p])}", "D3")
            self._record(seat, action)
        elif kind == A.K_SHOW:
            p = self._card_from_hand(seat, c, "D3")
            if c // 13 != t:
                raise self._illegal(f"{card_text(c)} is not a trump", "D3")
            for q in self.hands[seat]:
                if known[q] != UNKNOWN and known[q] // 13 == t and known[q] < c:
                    raise self._illegal(
                        f"{card_text(c)} is not seat {seat}'s lowest trump ({card_text(known[q])} is lower)",
                        "D3",
                    )
            self._record(seat, action)
            self.pub |= 1 << p
            if c < self.best_show:
                self.best_show = c
                self.leader = seat
        else:
            raise self._illegal("before the first bout each player shows their lowest trump or says "
                                "show none", "D3")
        self.show_idx += 1
        if self.show_idx < self.n:
            self._to_act = (self.dealer + 1 + self.show_idx) % self.n
            return
        leader = self.leader if self.leader >= 0 else (self.dealer + 1) % self.n
        self._start_bout(leader)

    # ---- a bout

    def _next_active(self, seat: int) -> int:
        """The first seat clockwise from ``seat`` (inclusive) that is not out."""
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
        cap = self.rules.first_bout_limit if self.bout == 1 else HAND_SIZE
        self.limit = min(cap, len(self.hands[defender]))
        self.taking = False
        self.adders = 0
        others = ((defender + 1 + i) % n for i in range(n - 1))
        self.order = (attacker, *(s for s in others if s != attacker and not out >> s & 1))
        self.phase = P_LEAD
        self._to_act = attacker

    def _defend(self, seat: int, kind: int, a: Card, d: Card, action: Action) -> None:
        if kind == A.K_TAKE:
            self._record(seat, action)
            self.taking = True
            self._start_round()
            return
        if kind != A.K_BEAT:
            raise self._illegal(f"seat {seat} defends: beat an attack card or take", "D5")
        known = self.card_at
        i = -1
        for j, pa in enumerate(self.att):
            if known[pa] == a and self.dfn[j] < 0:
                i = j
                break
        if i < 0:
            raise self._illegal(f"{card_text(a)} is not an unbeaten attack card on the table", "D5")
        p = self._card_from_hand(seat, d, "D5")
        if not beats(d, a, self.trump_suit):
            raise self._illegal(f"{card_text(d)} does not beat {card_text(a)}", "D1")
        self._record(seat, action)
        self._play(seat, p)
        self.dfn[i] = p
        if -1 in self.dfn:
            return
        if not self.hands[seat]:
            self._resolve()  # D9: the defender has no cards left
        else:
            self._start_round()

    def _start_round(self) -> None:
        self.ti_added = False
        self._continue_round(0)

    def _continue_round(self, idx: int) -> None:
        """Ask the next attacker of the throw-in round (D6-D8), or end the bout."""
        order = self.order
        hands = self.hands
        while len(self.att) < self.limit:
            while idx < len(order):
                s = order[idx]
                if hands[s]:
                    self.ti_idx = idx
                    self.phase = P_THROW
                    self._to_act = s
                    return
                idx += 1
            if not (self.taking and self.ti_added):
                break
            self.ti_added = False
            idx = 0
        self._resolve()

    def _throw(self, seat: int, kind: int, c: Card, action: Action) -> None:
        if kind == A.K_PASS:
            self._record(seat, action)
            self._continue_round(self.ti_idx + 1)
            return
        if kind != A.K_ADD:
            raise self._illegal(f"seat {seat} may add a card of a rank on the table, or pass", "D6")
        p = self._card_from_hand(seat, c, "D6")
        if not self.ranks >> (c % 13) & 1:
            raise self._illegal(f"no {card_text(c)[:-1]} is on the table", "D6")
        if len(self.att) >= self.limit:  # never asked then; kept as a guard
            raise self._illegal(f"the bout already holds {self.limit} attack cards", "D7")
        self._record(seat, action)
        self._play(seat, p)
        self.att.append(p)
        self.dfn.append(-1)
        self.adders |= 1 << seat
        if self.taking:
            self.ti_added = True
            self._continue_round(self.ti_idx + 1)
        else:
            self.phase = P_DEFEND
            self._to_act = self.defender

    # ---- the end of a bout: pick up or discard (D8, D9), draw (D10)

    def _resolve(self) -> None:
        table = self.att + [p for p in self.dfn if p >= 0]
        self.defended = not self.taking
        if self.taking:
            self.hands[self.defender].extend(table)
        else:
            self.discard.extend(table)
        self.att = []
        self.dfn = []
        self.ranks = 0
        n, attacker, defender = self.n, self.attacker, self.defender
        left = len(self.talon)
        draws: list[tuple[int, tuple[int, ...]]] = []
        if left:
            others = [s for s in ((attacker + 1 + i) % n for i in range(n - 1))
                      if s != defender and not self.out >> s & 1]
            adders = self.adders
            order = [attacker]
            order += [s for s in others if adders >> s & 1]
            order += [s for s in others if not adders >> s & 1]
            order.append(defender)
            talon = self.talon
            for s in order:
                k = min(HAND_SIZE - len(self.hands[s]), left)
                if k > 0:
                    draws.append((s, tuple(talon[left - 1 - j] for j in range(k))))
                    left -= k
        # D15: a take with nothing drawn extends the run of stalled bouts; anything else ends it
        self.stalled = self.stalled + 1 if self.taking and not draws else 0
        if draws:
            self.phase = P_DRAW
            self._to_act = CHANCE
            self._need = Deal(tuple(draws))
        else:
            self._after_bout()

    def _after_bout(self) -> None:
        """D11-D13: who goes out, whether the hand is over, and who attacks next."""
        n = self.n
        if not self.talon:
            gone = tuple(s for s in range(n) if not self.out >> s & 1 and not self.hands[s])
            if gone:
                self.out_order = (*self.out_order, gone)
                for s in gone:
                    self.out |= 1 << s
        left = [s for s in range(n) if not self.out >> s & 1]
        if len(left) <= 1 or self.stalled >= STALLED_BOUTS:
            self.phase = P_OVER
            self._to_act = TERMINAL
            durak = left[0] if len(left) == 1 else None
            self._result = DurakResult(n, self.out_order, durak, stalled=len(left) > 1)
            return
        start = self.defender if self.defended else (self.defender + 1) % n
        self._start_bout(self._next_active(start))

    # ------------------------------------------------------------------ contract: chance

    def fulfil(self, values: Mapping[int, Card]) -> None:
        need = self._need
        if need is None:
            raise FulfilError("nothing is to be dealt or revealed now")
        if isinstance(need, Deal):
            positions = need.positions()
        elif isinstance(need, Reveal):
            positions = need.positions
        else:
            raise FulfilError("durak never asks for a disclosure")
        known = self.card_at
        deck = self.rules.deck_set
        given: dict[Card, int] = {}
        for p in sorted(values):
            c = values[p]
            if p not in positions:
                raise FulfilError(f"position {p} is not part of this {type(need).__name__.lower()}")
            if c not in deck:
                raise FulfilError(f"{c!r} is not a card of the durak deck")
            if c in given:
                raise FulfilError(f"{card_text(c)} is given for positions {given[c]} and {p}")
            given[c] = p
            if known[p] != UNKNOWN:
                if known[p] != c:
                    raise FulfilError(f"position {p} holds {card_text(known[p])}, not {card_text(c)}")
            elif c in known:
                raise FulfilError(f"{card_text(c)} is already known at position {known.index(c)}")
        if isinstance(need, Reveal):
            missing = [p for p in positions if p not in values]
            if missing:
                raise FulfilError(f"a reveal needs every position's card; missing {missing}")
        for c, p in given.items():
            known[p] = c
        self._need = None
        if isinstance(need, Reveal):
            self._public.append(("reveal", tuple((p, values[p]) for p in positions)))
            for p in positions:
                self.pub |= 1 << p
            self.trump_suit = known[self.trump_pos] // 13
            self.phase = P_SHOW
            self._to_act = (self.dealer + 1) % self.n
            return
        self._public.append(("deal", need.hands))
        if self.phase == P_DEAL:
            for s, ps in need.hands:
                self.hands[s].extend(ps)
            self.talon = [*range(len(known) - 1, self.trump_pos, -1)]
            if self.n < 6:
                self.talon.insert(0, self.trump_pos)
            self.phase = P_TRUMP
            self._need = Reveal((self.trump_pos,))
            return
        talon = self.talon
        for s, ps in need.hands:
            self.hands[s].extend(ps)
            del talon[len(talon) - len(ps):]
        self._after_bout()

    # ------------------------------------------------------------------ contract: knowledge

    def clone(self) -> DurakState:
        new = object.__new__(DurakState)
        new.__dict__.update(self.__dict__)
        new.card_at = self.card_at[:]
        new._public = self._public[:]
        new._actions = self._actions[:]
        new.hands = [h[:] for h in self.hands]
        new.talon = self.talon[:]
        new.discard = self.discard[:]
        new.att = self.att[:]
        new.dfn = self.dfn[:]
        return new

    def zones(self) -> list[tuple[str, tuple[int, ...]]]:
        if self.phase == P_DEAL:
            return [("undealt", tuple(range(len(self.card_at))))]
        zones = [(f"hand {s}", tuple(h)) for s, h in enumerate(self.hands)]
        talon = self.talon
        trump_under = bool(talon) and talon[0] == self.trump_pos
        zones.append(("talon", tuple(talon[1:] if trump_under else talon)))
        zones.append(("trump", (self.trump_pos,) if trump_under else ()))
        zones.append(("table", (*self.att, *(p for p in self.dfn if p >= 0))))
        zones.append(("discard", tuple(self.discard)))
        return zones

    def public_cards(self, seat: int) -> tuple[Card, ...]:
        """The cards in ``seat``'s hand that everyone knows (shown, taken, the drawn trump)."""
        pub, known = self.pub, self.card_at
        return tuple(known[p] for p in self.hands[seat] if pub >> p & 1)

    def view(self, seat: int) -> DurakView:
        if not 0 <= seat < self.n:
            raise GameError(f"no seat {seat} in a {self.n}-player hand")
        masked = self.clone()
        own = self.hands[seat]
        pub = self.pub
        masked.card_at = [c if (pub >> p & 1 or p in own) else UNKNOWN for p, c in enumerate(self.card_at)]
        mk = masked.card_at
        seen = frozenset(c for c in mk if c != UNKNOWN)
        known = self.card_at
        talon = self.talon
        return DurakView(
            seat=seat,
            to_act=self._to_act,
            hand=tuple(mk[p] for p in own if mk[p] != UNKNOWN),
            legal_actions=tuple(masked.legal_actions()) if self._to_act == seat else (),
            unknown_positions=tuple(p for p, c in enumerate(mk) if c == UNKNOWN),
            unseen_cards=tuple(c for c in self.rules.deck if c not in seen),
            _masked=masked,
            dealer=self.dealer,
            phase=PHASE_NAMES[self.phase],
            trump=known[self.trump_pos] if self.trump_suit >= 0 else UNKNOWN,
            trump_suit=self.trump_suit,
            talon_size=len(talon),
            discard=tuple(known[p] for p in self.discard),
            table=tuple((known[a], known[d] if d >= 0 else UNKNOWN)
                        for a, d in zip(self.att, self.dfn, strict=True)),
            attacker=self.attacker,
            defender=self.defender,
            taking=self.taking,
            limit=self.limit,
            bout=self.bout,
            hand_sizes=tuple(len(h) for h in self.hands),
            known_cards=tuple(self.public_cards(s) for s in range(self.n)),
            out_order=self.out_order,
        )

    # ------------------------------------------------------------------ conveniences

    def hand_cards(self, seat: int) -> list[Card]:
        """The known cards of ``seat``'s hand on this replica, in the order received."""
        known = self.card_at
        return [known[p] for p in self.hands[seat] if known[p] != UNKNOWN]

    def table_cards(self) -> list[tuple[Card, Card]]:
        """(attack, defence or ``UNKNOWN``) pairs on the table, in the order played."""
        known = self.card_at
        return [(known[a], known[d] if d >= 0 else UNKNOWN) for a, d in zip(self.att, self.dfn, strict=True)]
