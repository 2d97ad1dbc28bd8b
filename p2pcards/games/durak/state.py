"""One hand of Durak as a state machine (rules D1-D18 of the rulebook).

Deck positions, for the ``m`` seats that play the hand (every seat of the table unless some are away,
see ``DurakMatch.without``) and a deck of ``N`` cards (36, or 52 with ``deck=52``): let ``ring`` be the
playing seats clockwise from the dealer's left, the dealer last.  The deal gives position ``k``
(``0 <= k < 6m``) to ``ring[k % m]`` (six rounds of one card); position ``6m`` is the trump card turned
up under the talon and drawn last; the positions after it, ``6m + 1`` to ``N - 1``, are the talon,
drawn from ``6m + 1`` upwards.  When the deal uses the whole deck (six players, 36 cards) there is no
talon and the dealer's last card (position 35) is turned up and stays in the dealer's hand.  With
every seat playing, ``ring[k % n]`` is seat ``(dealer + 1 + k) % n``.

Order of play: the deal (``Deal``), the trump (``Reveal``), the trump showing of D3 (every playing
seat from the dealer's left says ``show CARD`` or ``show none``), then bouts.  In a bout exactly one
seat is awaited at a time: the main attacker leads, the defender beats or takes, and throw-in rounds
ask the attackers one by one in the priority order of D6 (seats with no cards at all are not asked).
After the bout the draw is one ``Deal`` of the talon's top positions in the order of D10.

With ``transfer=on`` (D16-D18) a defender facing only unbeaten cards of one rank may ``transfer``: it
adds a card of that rank and becomes the main attacker, and the next active seat defends every card
on the table, with its own limit (D7: its hand size then, and 6), throw-in order and draw order (D17).
Whoever led the bout and whoever transferred count as seats that added cards (D10).

Inside, each seat's known cards are also kept as a bitmask of card ids (``hmask``), with the position
of every known card (``pos_of``): the legal moves and their checks are a few table look-ups, so the
computer players search with this engine directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

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
from p2pcards.games.durak.config import DurakConfig
from p2pcards.games.durak.result import DurakResult

HAND_SIZE = 6
STALLED_BOUTS = 30
"""D15: after this many bouts in a row in which the defender took and nobody drew, the hand is a draw."""

# phases
P_DEAL, P_TRUMP, P_SHOW, P_LEAD, P_DEFEND, P_THROW, P_DRAW, P_OVER = range(8)
PHASE_NAMES = ("deal", "trump", "show", "lead", "defend", "throw-in", "draw", "over")
PHASE_RULES = ("D2", "D2", "D3", "D4", "D5", "D6", "D10", "D13")
"""The rule of each phase: what an error names when it breaks no more specific rule."""


def beats(defence: Card, attack: Card, trump_suit: int) -> bool:
    """D1: a higher card of the same suit, or a trump on a non-trump."""
    ds = defence // 13
    if ds == attack // 13:
        return defence > attack
    return ds == trump_suit


# ---------------------------------------------------------------------------- card masks
# A Durak card is ``suit * 13 + rank - 2`` with ranks 6..14, so the cards of a suit are bits 4..12 of
# its 13-bit block; ``_chunks(offset)`` lists, for each 9-bit pattern of one suit, ``offset + card``.
# The 52-card deck adds ranks 2..5 (bits 0..3 of each block): a mask holding one of them takes a plain
# loop (``LOW``), so the 36-card hot paths stay as they were.

BIT: tuple[int, ...] = tuple(1 << c for c in range(52))
RANK_BIT: tuple[int, ...] = tuple(1 << (c % 13) for c in range(52))
SUIT_MASK: tuple[int, ...] = tuple(sum(1 << (s * 13 + r) for r in range(13)) for s in range(4))


def _chunks(offset: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    return tuple(tuple(tuple(offset + s * 13 + 4 + b for b in range(9) if v >> b & 1) for v in range(512))
                 for s in range(4))


_CARDS = _chunks(0)
_ADDS = _chunks(A.ADD)


LOW = sum(0b1111 << (s * 13) for s in range(4))
"""The ranks 2..5 of every suit: cards only the 52-card deck has."""


def _bits(mask: int) -> tuple[Card, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def cards_of(mask: int) -> tuple[Card, ...]:
    """The Durak cards of a mask, lowest id first."""
    if mask & LOW:
        return _bits(mask)
    c0, c1, c2, c3 = _CARDS
    return c0[mask >> 4 & 511] + c1[mask >> 17 & 511] + c2[mask >> 30 & 511] + c3[mask >> 43 & 511]


def mask_of(cards: tuple[Card, ...] | list[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _addable() -> tuple[int, ...]:
    out = []
    for bits in range(1 << 9):
        m = 0
        for r in range(9):
            if bits >> r & 1:
                m |= sum(1 << (s * 13 + r + 4) for s in range(4))
        out.append(m)
    return tuple(out)


ADDABLE = _addable()
"""``ADDABLE[ranks >> 4]``: every card whose rank is in ``ranks`` (a mask of ``card % 13``), for ranks
6..A; ``addable`` takes any ranks."""
_RANK_CARDS = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))


def addable(ranks: int) -> int:
    """Every card whose rank is in ``ranks`` (a mask of ``card % 13``)."""
    if ranks & 0b1111:
        m = 0
        for r in range(13):
            if ranks >> r & 1:
                m |= _RANK_CARDS[r]
        return m
    return ADDABLE[ranks >> 4]


BEATERS: tuple[tuple[int, ...], ...] = tuple(
    tuple((SUIT_MASK[a // 13] & ~((1 << (a + 1)) - 1)) | (SUIT_MASK[t] if a // 13 != t else 0)
          for a in range(52))
    for t in range(4))
"""``BEATERS[trump][a]``: every card that beats ``a`` (D1)."""


@dataclass(slots=True)
class DurakView(View):
    """What one seat may know of a Durak hand."""

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
    known_cards: tuple[tuple[Card, ...], ...]
    """Per seat, the cards in that seat's hand that everyone knows (shown, taken, the drawn trump)."""
    out_order: tuple[tuple[int, ...], ...]
    """Seats that went out, grouped by the bout they went out in."""
    stalled: int
    """Bouts in a row that ended with a take and nothing drawn (D15 ends the hand at 30)."""


class DurakState(HandState):
    rules: DurakConfig
    to_act: int = CHANCE
    """The seat to act, ``CHANCE`` or ``TERMINAL`` (a plain attribute: searches read it millions of times)."""

    def __init__(self, rules: DurakConfig, dealer: int, hand_no: int = 0,
                 seats: tuple[int, ...] | None = None, voided: int = 0) -> None:
        n = rules.n
        playing = tuple(range(n)) if seats is None else seats
        self.rules = rules
        setup: tuple[tuple[str, object], ...] = (("dealer", dealer), ("hand", hand_no))
        if len(playing) < n:
            setup += (("seats", playing),)
        if voided:
            setup += (("voided", voided),)
        self.setup = setup
        self.n = n
        self._dealer = dealer
        self._seats = playing
        ring = tuple(s for s in ((dealer + 1 + i) % n for i in range(n)) if s in playing)
        self.ring = ring
        """The playing seats clockwise from the dealer's left, the dealer last (the deal's order)."""
        m = len(ring)
        self.card_at = [UNKNOWN] * len(rules.deck)
        self._public = []
        self._actions = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.hmask = [0] * n
        """Per seat, the cards of its hand this replica knows, as a mask of card ids."""
        self.pos_of = [-1] * 52
        """Per card id, its deck position when this replica knows it."""
        # the talon in reverse drawing order: ``pop()`` gives the next card; the trump is first
        self.talon: list[int] = []
        size = len(rules.deck)
        self.trump_pos = HAND_SIZE * m if HAND_SIZE * m < size else size - 1
        """The card turned up for trump: the first after the deal, or the dealer's last (D2)."""
        self.trump_suit = -1
        self.discard: list[int] = []
        self.att: list[int] = []
        self.dfn: list[int] = []  # defence position per attack card, -1 while unbeaten
        self.ranks = 0  # bit r: a card of rank r + 2 is on the table
        self.tmask = 0  # bit c: card c is on the table
        self.pub = 0  # bit p: the card at position p is public
        self.out = 0  # bit s: seat s went out (or does not play this hand)
        for s in range(n):
            if s not in playing:
                self.out |= 1 << s
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
        self.transfers = rules.transfer  # D16: a defender may pass the attack on
        self.show_idx = 0
        self.best_show = 99
        self.leader = -1
        self.phase = P_DEAL
        self.to_act = CHANCE
        deal = tuple((ring[i], tuple(range(i, HAND_SIZE * m, m))) for i in range(m))
        self._need: Need | None = Deal(deal)
        self._result: DurakResult | None = None
        self._searching = False

    # ------------------------------------------------------------------ contract: what is awaited

    @property
    def need(self) -> Need | None:
        return self._need

    @property
    def result(self) -> DurakResult | None:
        return self._result

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    @property
    def phase_rule(self) -> str:
        return PHASE_RULES[self.phase]

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats dealt into this hand, ascending."""
        return self._seats

    def legal_actions(self) -> list[Action]:
        seat = self.to_act
        if seat < 0:
            return []
        hm = self.hmask[seat]
        phase = self.phase
        if phase == P_THROW:
            ranks = self.ranks
            m = hm & (ADDABLE[ranks >> 4] if not ranks & 0b1111 else addable(ranks))
            if not m:
                return [A.PASS]
            if m & LOW:
                return [*(A.ADD + c for c in _bits(m)), A.PASS]
            a0, a1, a2, a3 = _ADDS
            out = [*a0[m >> 4 & 511], *a1[m >> 17 & 511], *a2[m >> 30 & 511], *a3[m >> 43 & 511]]
            out.append(A.PASS)
            return out
        if phase == P_DEFEND:
            row = BEATERS[self.trump_suit]
            known = self.card_at
            out = []
            unbeaten = 0
            for pa, pd in zip(self.att, self.dfn, strict=True):
                if pd < 0:
                    a = known[pa]
                    base = A.BEAT + a * 64
                    out.extend([base + c for c in cards_of(hm & row[a])])
                    unbeaten += 1
            if unbeaten > 1:
                out.sort()
            if self.transfers:
                out.extend([A.TRANSFER + c for c in cards_of(self._transferable(seat))])
            out.append(A.TAKE)
            return out
        if phase == P_LEAD:
            return list(cards_of(hm))  # ATTACK + card is the card id itself
        # P_SHOW
        trumps = hm & SUIT_MASK[self.trump_suit]
        return [A.SHOW + (trumps & -trumps).bit_length() - 1] if trumps else [A.SHOW_NONE]

    # ------------------------------------------------------------------ contract: moving on

    def reveals(self, action: Action) -> tuple[int, ...]:
        seat = self.to_act
        if seat < 0 or action.__class__ is not int:
            return ()
        try:
            kind, a, d = A.decode(action, self.rules.deck_set)
        except ActionError:
            return ()
        c = d if kind == A.K_BEAT else a
        if c < 0 or not self.hmask[seat] >> c & 1:
            return ()
        return (self.pos_of[c],)

    def _card_from_hand(self, seat: int, c: Card) -> int:
        """The position of card ``c`` in ``seat``'s hand, or the error D2 (you play what you hold)."""
        if self.hmask[seat] >> c & 1:
            return self.pos_of[c]
        known = self.card_at
        if c not in known and any(known[q] == UNKNOWN for q in self.hands[seat]):
            raise self._illegal(f"{card_text(c)} was not revealed from seat {seat}'s hand", "D2")
        raise self._illegal(f"{card_text(c)} is not in seat {seat}'s hand", "D2")

    def _decode(self, action: Action) -> tuple[int, Card, Card]:
        """``actions.decode``; an integer that is no Durak action at all names the phase's rule."""
        try:
            return A.decode(action, self.rules.deck_set)
        except ActionError as exc:
            raise self._illegal(exc.reason, PHASE_RULES[self.phase]) from None

    def apply(self, action: Action) -> None:
        seat = self.to_act
        if seat < 0:
            what = "the hand is over" if seat == TERMINAL else "cards must be dealt or revealed first"
            raise ActionError(f"no seat is to act now: {what}", seat=None, rule=PHASE_RULES[self.phase])
        if action.__class__ is not int:
            raise self._illegal(f"{action!r} is not a Durak action; the forms are: {A.FORMS}",
                                PHASE_RULES[self.phase])
        phase = self.phase
        if phase == P_THROW:
            if action == A.PASS:
                if not self._searching:
                    self._actions.append((seat, action))
                    self._public.append(("act", seat, action))
                self._continue_round(self.ti_idx + 1)
                return
            c = action - A.ADD
            if not 0 <= c < 52 or not self.hmask[seat] >> c & 1 or not self.ranks >> (c % 13) & 1 \
                    or len(self.att) >= self.limit:
                self._bad_throw(seat, action)
            if not self._searching:
                self._actions.append((seat, action))
                self._public.append(("act", seat, action))
            p = self.pos_of[c]  # play the card (as ``_play``, written out on this hot path)
            self.hands[seat].remove(p)
            bit = 1 << c
            self.hmask[seat] ^= bit
            self.tmask |= bit
            self.pub |= 1 << p
            self.ranks |= RANK_BIT[c]
            self.att.append(p)
            self.dfn.append(-1)
            self.adders |= 1 << seat
            if self.taking:
                self.ti_added = True
                self._continue_round(self.ti_idx + 1)
            else:
                self.phase = P_DEFEND
                self.to_act = self.defender
            return
        if phase == P_DEFEND:
            if action == A.TAKE:
                if not self._searching:
                    self._actions.append((seat, action))
                    self._public.append(("act", seat, action))
                self.taking = True
                self.ti_added = False  # D8: throw-in rounds go on without the defender
                self._continue_round(0)
                return
            if action >= A.BEAT:  # the common case first: a legal cover, checked in a few look-ups
                a, d = divmod(action - A.BEAT, 64)
                pa = self.pos_of[a] if a < 52 else -1
                if pa >= 0 and d < 52 and self.hmask[seat] >> d & 1 and BEATERS[self.trump_suit][a] >> d & 1:
                    dfn = self.dfn
                    for i, q in enumerate(self.att):
                        if q == pa:
                            if dfn[i] < 0:
                                self._beat(seat, action, i, d)
                                return
                            break
            self._defend(seat, action)
            return
        if phase == P_LEAD:
            c = action - A.ATTACK
            if not 0 <= c < 52 or not self.hmask[seat] >> c & 1:
                kind, a, _ = self._decode(action)
                if kind != A.K_ATTACK:
                    raise self._illegal(f"seat {seat} is the main attacker and must lead a card", "D4")
                self._card_from_hand(seat, a)
            if not self._searching:
                self._actions.append((seat, action))
                self._public.append(("act", seat, action))
            p = self.pos_of[c]  # play the card (as ``_play``, written out on this hot path)
            self.hands[seat].remove(p)
            bit = 1 << c
            self.hmask[seat] ^= bit
            self.tmask |= bit
            self.pub |= 1 << p
            self.ranks |= RANK_BIT[c]
            self.att.append(p)
            self.dfn.append(-1)
            self.phase = P_DEFEND
            self.to_act = self.defender
            return
        kind, a, _ = self._decode(action)
        self._show(seat, kind, a, action)

    def _play(self, seat: int, c: Card) -> None:
        p = self.pos_of[c]
        self.hands[seat].remove(p)
        bit = 1 << c
        self.hmask[seat] ^= bit
        self.tmask |= bit
        self.pub |= 1 << p
        self.ranks |= RANK_BIT[c]

    def _bad_throw(self, seat: int, action: Action) -> None:
        """Raise the error of a throw-in that is not legal (D6, D7, or not in the hand)."""
        kind, c, _ = self._decode(action)
        if kind != A.K_ADD:
            raise self._illegal(f"seat {seat} may add a card of a rank on the table, or pass", "D6")
        self._card_from_hand(seat, c)
        if not self.ranks >> (c % 13) & 1:
            raise self._illegal(f"no {card_text(c)[:-1]} is on the table", "D6")
        raise self._illegal(f"the bout already holds {self.limit} attack cards", "D7")

    # ---- D3: the lowest trump leads

    def _show(self, seat: int, kind: int, c: Card, action: Action) -> None:
        t = self.trump_suit
        trumps = self.hmask[seat] & SUIT_MASK[t]
        if kind == A.K_SHOW_NONE:
            if trumps:
                low = (trumps & -trumps).bit_length() - 1
                raise self._illegal(f"seat {seat} holds the trump {card_text(low)}", "D3")
            self._record(seat, action)
        elif kind == A.K_SHOW:
            p = self._card_from_hand(seat, c)
            if c // 13 != t:
                raise self._illegal(f"{card_text(c)} is not a trump", "D3")
            low = (trumps & -trumps).bit_length() - 1
            if low < c:
                raise self._illegal(
                    f"{card_text(c)} is not seat {seat}'s lowest trump ({card_text(low)} is lower)", "D3")
            self._record(seat, action)
            self.pub |= 1 << p
            if c < self.best_show:
                self.best_show = c
                self.leader = seat
        else:
            raise self._illegal("before the first bout each player shows their lowest trump or says "
                                "show none", "D3")
        self.show_idx += 1
        ring = self.ring
        if self.show_idx < len(ring):
            self.to_act = ring[self.show_idx]
            return
        self._start_bout(self.leader if self.leader >= 0 else ring[0])

    def _record(self, seat: int, action: Action) -> None:
        if not self._searching:
            self._actions.append((seat, action))
            self._public.append(("act", seat, action))

    # ---- a bout

    def _next_active(self, seat: int) -> int:
        """The first seat clockwise from ``seat`` (inclusive; ``seat`` may be ``n``) that is not out."""
        n, out = self.n, self.out
        for i in range(n):
            s = (seat + i) % n
            if not out >> s & 1:
                return s
        raise AssertionError("no active seat")

    def _start_bout(self, attacker: int) -> None:
        n, out = self.n, self.out
        defender = (attacker + 1) % n
        while out >> defender & 1:  # D4: the next active player clockwise
            defender = (defender + 1) % n
        self.attacker = attacker
        self.defender = defender
        self.bout += 1
        cap = self.rules.first_bout_limit if self.bout == 1 else HAND_SIZE
        size = len(self.hands[defender])
        self.limit = cap if cap < size else size
        self.taking = False
        self.adders = 0
        self.order = _throw_order(n, attacker, defender, out)
        self.phase = P_LEAD
        self.to_act = attacker

    def _transferable(self, seat: int) -> int:
        """The cards ``seat``, defending, may transfer with (D16), as a mask."""
        att, n_att = self.att, len(self.att)
        for d in self.dfn:
            if d >= 0:
                return 0  # a card is beaten: too late
        cap = self.rules.first_bout_limit if self.bout == 1 else HAND_SIZE
        if n_att >= cap or len(self.hands[self._next_active(seat + 1)]) <= n_att:
            return 0
        return self.hmask[seat] & _RANK_CARDS[self.card_at[att[0]] % 13]

    def _transfer(self, seat: int, c: Card, action: Action) -> None:
        """D16-D17: ``seat`` adds ``c`` and passes the attack on to the next active seat."""
        if not self.transfers:
            raise self._illegal("this table plays without transfers (option transfer)", "D16")
        if any(d >= 0 for d in self.dfn):
            raise self._illegal("a transfer is allowed only while no attack card is beaten", "D16")
        self._card_from_hand(seat, c)
        known = self.card_at
        rank = known[self.att[0]] % 13
        if c % 13 != rank:
            on_table = card_text(known[self.att[0]])[:-1]
            raise self._illegal(
                f"a transfer adds a card of the rank on the table ({on_table}), not {card_text(c)}", "D16")
        n_att = len(self.att) + 1
        cap = self.rules.first_bout_limit if self.bout == 1 else HAND_SIZE
        if n_att > cap:
            raise self._illegal(f"the bout would hold {n_att} attack cards: at most {cap}", "D16")
        nd = self._next_active(seat + 1)
        size = len(self.hands[nd])
        if size < n_att:
            raise self._illegal(
                f"seat {nd} holds {size} cards, too few to defend {n_att} attack cards", "D16")
        self._record(seat, action)
        self._play(seat, c)
        self.att.append(self.pos_of[c])
        self.dfn.append(-1)
        # D17: whoever led and whoever transferred count as seats that added cards (D10)
        self.adders |= 1 << self.attacker | 1 << seat
        self.attacker = seat
        self.defender = nd
        self.limit = cap if cap < size else size
        self.order = _throw_order(self.n, seat, nd, self.out)
        self.to_act = nd

    def _defend(self, seat: int, action: Action) -> None:
        kind, a, d = self._decode(action)
        if kind == A.K_TRANSFER:
            self._transfer(seat, a, action)
            return
        if kind != A.K_BEAT:
            how = "beat an attack card, transfer or take" if self.transfers else "beat an attack card or take"
            raise self._illegal(f"seat {seat} defends: {how}", "D5")
        known = self.card_at
        i = -1
        for j, pa in enumerate(self.att):
            if known[pa] == a and self.dfn[j] < 0:
                i = j
                break
        if i < 0:
            raise self._illegal(f"{card_text(a)} is not an unbeaten attack card on the table", "D5")
        self._card_from_hand(seat, d)
        if not beats(d, a, self.trump_suit):
            raise self._illegal(f"{card_text(d)} does not beat {card_text(a)}", "D1")
        self._beat(seat, action, i, d)

    def _beat(self, seat: int, action: Action, i: int, d: Card) -> None:
        """The defender covers the ``i``-th attack card with ``d`` (checked)."""
        if not self._searching:
            self._actions.append((seat, action))
            self._public.append(("act", seat, action))
        self._play(seat, d)
        self.dfn[i] = self.pos_of[d]
        if -1 in self.dfn:
            return
        if not self.hands[seat]:
            self._resolve()  # D9: the defender has no cards left
        else:
            self.ti_added = False  # D6: every card is beaten, a throw-in round starts
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
                    self.to_act = s
                    return
                idx += 1
            if not (self.taking and self.ti_added):
                break
            self.ti_added = False
            idx = 0
        self._resolve()

    # ---- the end of a bout: pick up or discard (D8, D9), draw (D10)

    def _resolve(self) -> None:
        dfn = self.dfn
        table = self.att + dfn if -1 not in dfn else self.att + [p for p in dfn if p >= 0]
        self.defended = not self.taking
        if self.taking:
            defender = self.defender
            self.hands[defender].extend(table)
            self.hmask[defender] |= self.tmask
        else:
            self.discard.extend(table)
        self.att = []
        self.dfn = []
        self.ranks = 0
        self.tmask = 0
        n, attacker, defender = self.n, self.attacker, self.defender
        left = len(self.talon)
        draws: list[tuple[int, tuple[int, ...]]] = []
        if left:
            talon, hands = self.talon, self.hands
            for s in _draw_order(n, attacker, defender, self.out, self.adders):
                k = HAND_SIZE - len(hands[s])
                if k > 0:
                    if k > left:
                        k = left
                    draws.append((s, tuple(talon[left - 1 - j] for j in range(k))))
                    left -= k
                    if not left:
                        break
        # D15: a take with nothing drawn extends the run of stalled bouts; anything else ends it
        self.stalled = self.stalled + 1 if self.taking and not draws else 0
        if not draws:
            self._after_bout()
        elif self._searching:  # a search copy knows its talon: it draws at once, without a dealer
            known, hands, hmask, talon = self.card_at, self.hands, self.hmask, self.talon
            for s, ps in draws:
                hands[s].extend(ps)
                hmask[s] |= _mask_at(known, ps)
                del talon[len(talon) - len(ps):]
            self._after_bout()
        else:
            self.phase = P_DRAW
            self.to_act = CHANCE
            self._need = Deal(tuple(draws))

    def _after_bout(self) -> None:
        """D11-D13 and D15: who goes out, whether the hand is over, and who attacks next."""
        n = self.n
        if not self.talon:
            out, hands = self.out, self.hands
            gone = 0
            for s in range(n):
                if not hands[s] and not out >> s & 1:
                    gone |= 1 << s
            if gone:
                self.out_order = (*self.out_order, tuple(s for s in range(n) if gone >> s & 1))
                self.out = out | gone
        if n - self.out.bit_count() <= 1 or self.stalled >= STALLED_BOUTS:
            left = [s for s in range(n) if not self.out >> s & 1]
            self.phase = P_OVER
            self.to_act = TERMINAL
            durak = left[0] if len(left) == 1 else None
            self._result = DurakResult(n, self.out_order, durak, stalled=len(left) > 1,
                                       seats=self.seats if len(self.seats) < n else ())
            return
        defender = self.defender
        attacker = defender if self.defended else (defender + 1) % n
        out = self.out
        while out >> attacker & 1:  # D12: players who are out are skipped
            attacker = (attacker + 1) % n
        self._start_bout(attacker)

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
        if self.phase == P_DRAW and len(values) == len(positions) and self._draw_fast(values, positions):
            return
        deck = self.rules.deck_set
        given: dict[Card, int] = {}
        for p in sorted(values):
            c = values[p]
            if p not in positions:
                raise FulfilError(f"position {p} is not part of this {type(need).__name__.lower()}")
            if c.__class__ is not int or c not in deck:
                raise FulfilError(f"{c!r} is not a card of the durak deck")
            if c in given:
                raise FulfilError(f"{card_text(c)} is given for positions {given[c]} and {p}")
            given[c] = p
            if known[p] != UNKNOWN:
                if known[p] != c:
                    raise FulfilError(f"position {p} holds {card_text(known[p])}, not {card_text(c)}")
            elif self.pos_of[c] >= 0:
                raise FulfilError(f"{card_text(c)} is already known at position {self.pos_of[c]}")
        if isinstance(need, Reveal):
            missing = [p for p in positions if p not in values]
            if missing:
                raise FulfilError(f"a reveal needs every position's card; missing {missing}")
        pos_of = self.pos_of
        for c, p in given.items():
            known[p] = c
            pos_of[c] = p
        self._need = None
        if isinstance(need, Reveal):
            self._public.append(("reveal", tuple((p, values[p]) for p in positions)))
            for p in positions:
                self.pub |= 1 << p
            self.hmask = [_mask_at(known, ps) for ps in self.hands]  # six players: the dealer's card
            self.trump_suit = known[self.trump_pos] // 13
            self.phase = P_SHOW
            self.to_act = self.ring[0]
            return
        self._public.append(("deal", need.hands))
        hands, hmask = self.hands, self.hmask
        if self.phase == P_DEAL:
            for s, ps in need.hands:
                hands[s].extend(ps)
                hmask[s] = _mask_at(known, ps)
            self.talon = [*range(len(known) - 1, self.trump_pos, -1)]
            if self.trump_pos == HAND_SIZE * len(self.ring):
                self.talon.insert(0, self.trump_pos)
            self.phase = P_TRUMP
            self._need = Reveal((self.trump_pos,))
            return
        talon = self.talon
        for s, ps in need.hands:
            hands[s].extend(ps)
            hmask[s] |= _mask_at(known, ps)
            del talon[len(talon) - len(ps):]
        self._after_bout()

    def _draw_fast(self, values: Mapping[int, Card], positions: tuple[int, ...]) -> bool:
        """A draw whose every card is given, none known yet: the common case of a full-information
        replica, checked in one pass.  False (and nothing changed) sends it to the careful path."""
        known, pos_of, deck = self.card_at, self.pos_of, self.rules.deck_set
        seen = 0
        try:
            for p in positions:
                c = values[p]
                if c.__class__ is not int or known[p] != UNKNOWN or c not in deck or pos_of[c] >= 0 \
                        or seen >> c & 1:
                    return False
                seen |= 1 << c
        except KeyError:
            return False
        need = self._need
        assert isinstance(need, Deal)
        self._need = None
        self._public.append(("deal", need.hands))
        hands, hmask, talon = self.hands, self.hmask, self.talon
        for s, ps in need.hands:
            m = 0
            for p in ps:
                c = values[p]
                known[p] = c
                pos_of[c] = p
                m |= 1 << c
            hands[s].extend(ps)
            hmask[s] |= m
            del talon[len(talon) - len(ps):]
        self._after_bout()
        return True

    def fulfil_known(self) -> None:
        """The draw of a determinized state, whose talon is known: no check is needed, as every value
        is the replica's own."""
        need = self._need
        if self.phase != P_DRAW or not isinstance(need, Deal):
            super().fulfil_known()
            return
        known = self.card_at
        if any(known[p] == UNKNOWN for p in need.positions()):
            super().fulfil_known()
            return
        self._need = None
        self._public.append(("deal", need.hands))
        hands, hmask, talon = self.hands, self.hmask, self.talon
        for s, ps in need.hands:
            hands[s].extend(ps)
            hmask[s] |= _mask_at(known, ps)
            del talon[len(talon) - len(ps):]
        self._after_bout()

    def search_copy(self) -> DurakState:
        """A clone without the history, for the thousands of playouts of a search: it plays on as
        usual, draws at once from the talon it knows (it must know every card), and has no digest and
        no record."""
        new = self.clone()
        new.forget_history()
        return new

    def forget_history(self) -> None:
        """Make this state a search copy (see ``search_copy``) in place."""
        self._public = []
        self._actions = []
        self._searching = True
        self.__dict__.pop("_digest_cache", None)

    def observe(self, position: int, c: Card) -> None:
        before = self.card_at[position] if position.__class__ is int and 0 <= position < len(
            self.card_at) else c
        super().observe(position, c)
        if before == UNKNOWN:
            self.pos_of[c] = position
            for s, ps in enumerate(self.hands):
                if position in ps:
                    self.hmask[s] |= 1 << c

    def _after_determinize(self) -> None:
        self._rebuild_masks()

    def _rebuild_masks(self) -> None:
        known = self.card_at
        self.pos_of = pos_of = [-1] * 52
        for p, c in enumerate(known):
            if c != UNKNOWN:
                pos_of[c] = p
        self.hmask = [_mask_at(known, ps) for ps in self.hands]

    # ------------------------------------------------------------------ contract: knowledge

    def clone(self) -> DurakState:
        new = object.__new__(DurakState)
        new.__dict__.update(self.__dict__)
        new.card_at = self.card_at[:]
        new._public = self._public[:]
        new._actions = self._actions[:]
        new.hands = [h[:] for h in self.hands]
        new.hmask = self.hmask[:]
        new.pos_of = self.pos_of[:]
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
        if seat.__class__ is not int or not 0 <= seat < self.n:
            raise GameError(f"no seat {seat!r} in a {self.n}-player hand")
        masked = self.clone()
        own = self.hands[seat]
        pub = self.pub
        masked.card_at = [c if (pub >> p & 1 or p in own) else UNKNOWN for p, c in enumerate(self.card_at)]
        masked._rebuild_masks()
        mk = masked.card_at
        seen = frozenset(c for c in mk if c != UNKNOWN)
        known = self.card_at
        talon = self.talon
        return DurakView(
            seat=seat,
            to_act=self.to_act,
            hand=tuple(mk[p] for p in own if mk[p] != UNKNOWN),
            legal_actions=tuple(masked.legal_actions()) if self.to_act == seat else (),
            unknown_positions=tuple(p for p, c in enumerate(mk) if c == UNKNOWN),
            unseen_cards=tuple(c for c in self.rules.deck if c not in seen),
            _masked=masked,
            phase=PHASE_NAMES[self.phase],
            dealer=self._dealer,
            seats=self.seats,
            hand_sizes=tuple(len(h) for h in self.hands),
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
            known_cards=tuple(self.public_cards(s) for s in range(self.n)),
            out_order=self.out_order,
            stalled=self.stalled,
        )

    # ------------------------------------------------------------------ conveniences

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards this replica knows in ``seat``'s hand, in the order the seat received them."""
        known = self.card_at
        return tuple(known[p] for p in self.hands[seat] if known[p] != UNKNOWN)

    def hand_positions(self, seat: int) -> tuple[int, ...]:
        return tuple(self.hands[seat])

    def hand_cards(self, seat: int) -> list[Card]:
        """Old name of ``hand`` (as a list)."""
        return list(self.hand(seat))

    def table_cards(self) -> list[tuple[Card, Card]]:
        """(attack, defence or ``UNKNOWN``) pairs on the table, in the order played."""
        known = self.card_at
        return [(known[a], known[d] if d >= 0 else UNKNOWN) for a, d in zip(self.att, self.dfn, strict=True)]


_ORDERS: dict[tuple[int, int, int, int], tuple[int, ...]] = {}
_DRAWS: dict[tuple[int, int, int, int, int], tuple[int, ...]] = {}


def _throw_order(n: int, attacker: int, defender: int, out: int) -> tuple[int, ...]:
    """D6: the main attacker, then every other active seat clockwise from the defender's left."""
    key = (n, attacker, defender, out)
    got = _ORDERS.get(key)
    if got is None:
        others = ((defender + 1 + i) % n for i in range(n - 1))
        got = _ORDERS[key] = (attacker, *(s for s in others if s != attacker and not out >> s & 1))
    return got


def _draw_order(n: int, attacker: int, defender: int, out: int, adders: int) -> tuple[int, ...]:
    """D10: the main attacker, the seats that added cards clockwise, the other attackers, the defender."""
    key = (n, attacker, defender, out, adders)
    got = _DRAWS.get(key)
    if got is None:
        others = [s for s in ((attacker + 1 + i) % n for i in range(n - 1))
                  if s != defender and not out >> s & 1]
        got = _DRAWS[key] = (attacker, *(s for s in others if adders >> s & 1),
                             *(s for s in others if not adders >> s & 1), defender)
    return got


def _mask_at(known: list[int], positions: tuple[int, ...] | list[int]) -> int:
    m = 0
    for p in positions:
        c = known[p]
        if c != UNKNOWN:
            m |= 1 << c
    return m
