"""The state of one Spades hand: the deal, the bidding and thirteen tricks (rules S1-S8, S16-S18).

With ``blind_nil`` on and a team behind by 100 or more (S16), the hand is dealt face down to every
seat (a ``Deal`` without ``disclose``); each seat that may not bid blind nil is then shown its cards
(a ``Disclose`` each, clockwise from the dealer's left) before the bidding; a seat that may is shown
them when it plays ``look``, or once the bidding is over if it bid blind nil (S18).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from operator import itemgetter

from p2pcards.games.base import (
    CHANCE,
    TERMINAL,
    UNKNOWN,
    Action,
    ActionError,
    Deal,
    Disclose,
    FulfilError,
    GameError,
    HandState,
    Need,
    View,
)
from p2pcards.games.cards import SUIT_NAMES, Card, card_text
from p2pcards.games.spades.config import BID0, BLIND_NIL, LOOK, MAX_BID, SpadesConfig
from p2pcards.games.spades.layout import CARDS, SEATS, SpadesDeal, deal_for, owner_of, positions_of
from p2pcards.games.spades.scoring import HandResult, score_hand

__all__ = ["BID0", "BIT", "BLIND_NIL", "CARDS", "LOOK", "MAX_BID", "NON_SPADES", "SEATS", "SPADE0",
           "SUIT_MASK", "TRICKS", "SpadesDeal", "SpadesState", "SpadesView", "cards_of", "deal_for",
           "mask_of", "owner_of", "trick_winner"]


TRICKS = 13
SPADE0 = 39
"""The lowest spade's id: a card ``c`` is a spade when ``c >= SPADE0``."""

_DEAL, _BID, _PLAY, _OVER = 0, 1, 2, 3
PHASE_NAMES = ("deal", "bidding", "play", "over")
PHASE_RULES = ("S1", "S3", "S5", "S9")
"""The rule of each phase: what an error names when it breaks no more specific rule."""
_SUIT_END: tuple[int, ...] = tuple(c - c % 13 + 13 for c in range(CARDS))
"""Per card, one past the highest card id of its suit."""
_DECK_SET: frozenset[int] = frozenset(range(CARDS))
_BIDS: tuple[int, ...] = tuple(range(BID0, BID0 + MAX_BID + 1))
_BLIND_CHOICE: tuple[int, ...] = (BLIND_NIL, LOOK)
"""The only moves of a seat that may bid blind nil and has not looked (S16)."""
_new = object.__new__
_ALL_SEATS: tuple[int, ...] = (0, 1, 2, 3)
_ALL_GETTER = itemgetter(*range(CARDS))
_NEXT: tuple[int, ...] = (1, 2, 3, 0)
BIT: tuple[int, ...] = tuple(1 << c for c in range(CARDS))
"""``BIT[c]``: card ``c``'s bit in a mask of cards."""
SUIT_MASK: tuple[int, ...] = tuple(0x1FFF << (13 * s) for s in range(4))
"""Per suit, the mask of its thirteen cards."""
NON_SPADES = SUIT_MASK[0] | SUIT_MASK[1] | SUIT_MASK[2]


def _suit_cards(suit: int) -> tuple[tuple[Card, ...], ...]:
    """For each 13-bit pattern of one suit, its cards (ids, ascending)."""
    out: list[tuple[Card, ...]] = [()]
    for v in range(1, 1 << 13):
        top = v.bit_length() - 1
        out.append(out[v ^ (1 << top)] + (13 * suit + top,))
    return tuple(out)


_SUIT_CARDS = tuple(_suit_cards(suit) for suit in range(4))


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, lowest id first (so suit by suit, each by rank)."""
    c0, c1, c2, c3 = _SUIT_CARDS
    return c0[mask & 8191] + c1[mask >> 13 & 8191] + c2[mask >> 26 & 8191] + c3[mask >> 39 & 8191]


def mask_of(cards: Iterable[Card]) -> int:
    """The mask of some cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


_PLAY_EVENTS: tuple[dict[int, tuple[int, int]], ...] = tuple(
    {c: (seat, c) for c in range(CARDS)} for seat in range(SEATS))
"""Per seat, the event of playing each card: one shared tuple, appended to the actions and the
public history; looking it up also checks that the action is a card id (a whole number 0-51)."""


@dataclass(slots=True)
class SpadesView(View):
    """What one seat knows of a Spades hand."""

    dealer: int
    bids: tuple[int | None, ...]
    """Each seat's bid (0 is nil), None while not made."""
    contracts: tuple[int, int]
    """Each team's bids added so far (S3)."""
    leader: int
    """The seat that leads (or led) the current trick; -1 during the deal and the bidding."""
    trick: tuple[tuple[int, Card], ...]
    """The current trick as (seat, card) in play order."""
    last_trick: tuple[tuple[int, Card], ...]
    tricks_won: tuple[int, ...]
    """Tricks taken so far by each seat."""
    spades_broken: bool
    played: tuple[Card, ...]
    """Every card played in this hand, in order."""
    voids: tuple[tuple[int, ...], ...]
    """Per seat, the suits it showed it has none of (it did not follow them)."""
    scores: tuple[int, int]
    bags: tuple[int, int]
    dummies: tuple[int, ...]
    """The open dummies of this hand: their cards are dealt face up, so every view knows them."""
    blind_nil: tuple[int, ...] = ()
    """The seats that bid blind nil (S16, S17): the public bids show their 0 as ``blind nil``."""
    eligible: tuple[int, ...] = ()
    """The seats that may bid blind nil in this hand (S16: their team is 100 or more behind)."""
    face_down: bool = False
    """Whether this seat's own cards are still face down to it (S16, S18): ``hand`` is then empty."""


class SpadesState(HandState):
    """One hand of Spades on one replica.

    Deck position ``k`` is dealt to seat ``(dealer + 1 + k) % 4``.  The fields a search reads (and
    never writes; only ``apply`` and the dealing change them):

    * ``hmask[seat]``: the cards this replica knows in that seat's hand, as a mask (bit ``c`` for card
      ``c``; all of them, with full information); ``vmask[seat]``: the suits it showed it lacks (bit
      ``suit``);
    * ``ntrick``: the cards in the current trick; ``led`` its suit, ``best``/``best_seat`` the card
      winning it so far and its seat (meaningful while ``ntrick`` > 0);
    * ``taken[seat]``: the tricks it took; ``bid_values[seat]``: its bid (0 nil, -1 not yet made);
    * ``legal_mask()``: the cards the seat to act may play, as a mask.

    The hot paths use literals: 39 is the lowest spade (``SPADE0``), 13 the cards per suit, 52 the first
    bid action.
    """

    __slots__ = ("_actions", "_bags", "_blind", "_broken", "_dealer", "_dummies", "_eligible", "_fast",
                 "_full", "_hidden", "_p0", "_phase", "_public", "_result", "_scores", "_unseen", "best",
                 "best_seat", "bid_values", "card_at", "hmask", "led", "need", "ntrick", "rules", "setup",
                 "taken", "to_act", "vmask")

    rules: SpadesConfig
    to_act: int
    need: Need | None
    hmask: list[int]
    vmask: list[int]
    taken: list[int]
    bid_values: list[int]
    _hidden: tuple[tuple[int, tuple[int, ...]], ...]
    _result: HandResult | None

    def __init__(self, rules: SpadesConfig, dealer: int, scores: tuple[int, int], bags: tuple[int, int],
                 hand: int, dummies: tuple[int, ...] = (), voided: int = 0) -> None:
        self.rules = rules
        setup: tuple[tuple[str, object], ...] = (("bags", bags), ("dealer", dealer))
        if dummies:  # only when there are some: a table without dummies deals the setups it always did
            setup += (("dummies", dummies),)
        setup += (("hand", hand), ("scores", scores))
        if voided:
            setup += (("voided", voided),)
        self.setup = setup
        self._dummies = dummies
        self.card_at = [UNKNOWN] * CARDS
        self._public = []
        self._actions = []
        self.to_act = CHANCE
        eligible = 0
        if rules.blind_nil:  # S16: the seats of a team 100 or more behind, but no open dummy
            for seat in range(SEATS):
                if scores[1 - seat % 2] - scores[seat % 2] >= 100 and seat not in dummies:
                    eligible |= 1 << seat
        self._eligible = eligible
        self._unseen = 0
        """The seats whose cards are dealt but not yet shown to them (a face-down deal, S16)."""
        self._blind = 0
        """The seats that bid blind nil."""
        self._p0 = SEATS
        """Where the play starts in ``_actions``: after the four bids and every ``look``."""
        self.need = rules._blind_deals[dealer] if eligible else rules._deals[dealer]
        self._dealer = dealer
        self._scores = scores
        self._bags = bags
        self._phase = _DEAL
        self.bid_values = [-1, -1, -1, -1]
        self.hmask = [0, 0, 0, 0]
        self.vmask = [0, 0, 0, 0]
        self._full = False
        self._fast = False
        self.ntrick = 0
        self.led = 0
        self.best = 0
        self.best_seat = 0
        self._broken = False
        self.taken = [0, 0, 0, 0]
        self._hidden = ()
        self._result = None

    # ------------------------------------------------------------------ copies

    def clone(self) -> SpadesState:
        new = _new(SpadesState)
        new.rules = self.rules
        new.setup = self.setup
        # once every card is known the deal never changes (nothing is dealt, observed or revealed
        # into it again), so the clones of a full-information state share it: a search's copies
        new.card_at = self.card_at if self._full else self.card_at[:]
        new._public = self._public[:]
        new._actions = self._actions[:]
        new.to_act = self.to_act
        new.need = self.need
        new._dealer = self._dealer
        new._scores = self._scores
        new._bags = self._bags
        new._phase = self._phase
        new.bid_values = self.bid_values[:]
        new.hmask = self.hmask[:]
        new.vmask = self.vmask[:]
        new._full = self._full
        new._fast = self._fast
        new.ntrick = self.ntrick
        new.led = self.led
        new.best = self.best
        new.best_seat = self.best_seat
        new._broken = self._broken
        new.taken = self.taken[:]
        new._hidden = self._hidden
        new._result = self._result
        new._dummies = self._dummies
        new._eligible = self._eligible
        new._unseen = self._unseen
        new._blind = self._blind
        new._p0 = self._p0
        return new

    # ------------------------------------------------------------------ what is awaited

    def legal_actions(self) -> list[Action]:
        if not self._fast:  # not playing, or a seat's cards are unknown here
            if self._phase != _PLAY:
                if self._phase != _BID or self.to_act < 0:
                    return []
                return list(_BLIND_CHOICE if self._unseen >> self.to_act & 1 else _BIDS)
            self._check_known()
        h = self.hmask[self.to_act]
        c0, c1, c2, c3 = _SUIT_CARDS
        if self.ntrick:
            led = self.led
            f = h >> 13 * led & 8191
            if f:
                return list(_SUIT_CARDS[led][f])
        elif not self._broken and h & 0x7FFFFFFFFF:  # holds a card that is not a spade
            return [*c0[h & 8191], *c1[h >> 13 & 8191], *c2[h >> 26 & 8191]]
        return [*c0[h & 8191], *c1[h >> 13 & 8191], *c2[h >> 26 & 8191], *c3[h >> 39]]

    def legal_mask(self) -> int:
        """The cards the seat to act may play, as a mask (S5-S7; 0 outside the play): the suit led if
        it holds any, else any card; a lead is any card but a spade before spades are broken, unless
        it holds nothing else.  The same cards as ``legal_actions``, without building a list."""
        if not self._fast:  # not playing, or a seat's cards are unknown here
            if self._phase != _PLAY:
                return 0
            self._check_known()
        h = self.hmask[self.to_act]
        if self.ntrick:
            return h & SUIT_MASK[self.led] or h
        if self._broken:
            return h
        return h & NON_SPADES or h

    def _check_known(self) -> None:
        seat = self.to_act
        plays = len(self._actions) - self._p0
        played_now = 1 if (seat - self._leader()) % SEATS < plays % SEATS else 0
        if self.hmask[seat].bit_count() != TRICKS - plays // SEATS - played_now:
            raise GameError(f"the cards of seat {seat} are not known here")

    def _leader(self) -> int:
        """The seat that led the current trick (or leads the next one)."""
        plays = len(self._actions) - self._p0
        if plays < 0:
            return (self._dealer + 1) % SEATS
        k = plays % SEATS
        return self._actions[-k][0] if k else self.to_act

    @property
    def result(self) -> HandResult | None:
        if self._phase != _OVER:
            return None
        if self._result is None:
            bids = tuple(self.bid_values)
            tricks = tuple(self.taken)
            blind = tuple(s for s in range(SEATS) if self._blind >> s & 1)
            teams = score_hand(bids, tricks, self._scores, self._bags, self.rules.failed_nil_tricks, blind)
            self._result = HandResult(self._dealer, bids, tricks, teams, blind)
        return self._result

    # ------------------------------------------------------------------ moving on

    def apply(self, action: Action) -> None:
        if self._phase == 2:  # _PLAY
            seat = self.to_act
            try:
                # (seat, card): the card is a whole number 0-51; True and 1.0 hash like 1, so the
                # class is checked first
                if action.__class__ is not int:
                    raise TypeError
                ev = _PLAY_EVENTS[seat][action]
            except (KeyError, TypeError):
                raise self._malformed(action) from None
            hm = self.hmask
            h = hm[seat]
            bit = 1 << action
            if not h & bit:
                raise self._illegal(f"seat {seat} does not hold {card_text(action)} (or it was not "
                                    "revealed)", "S1")
            k = self.ntrick
            if k:
                led = self.led
                if action // 13 != led:
                    if h >> 13 * led & 8191:
                        raise self._illegal(f"{card_text(action)} does not follow suit: seat {seat} "
                                            f"holds {SUIT_NAMES[led]}", "S6")
                    self.vmask[seat] |= 1 << led
                    if action >= 39:
                        self._broken = True
                        if action > self.best:
                            self.best = action
                            self.best_seat = seat
                elif action > self.best:
                    self.best = action
                    self.best_seat = seat
            else:
                if action >= 39:
                    if not self._broken:
                        if h & 0x7FFFFFFFFF:
                            raise self._illegal(f"spades are not broken: seat {seat} may not lead "
                                                f"{card_text(action)} while holding another suit", "S7")
                        self._broken = True
                    self.led = 3
                else:
                    self.led = action // 13
                self.best = action
                self.best_seat = seat
            hm[seat] = h ^ bit
            self._actions.append(ev)
            self._public.append(ev)
            if k == 3:
                self.ntrick = 0
                w = self.best_seat
                self.taken[w] += 1
                if len(self._actions) == self._p0 + 52:
                    self._phase = _OVER
                    self._fast = False
                    self.to_act = TERMINAL
                else:
                    self.to_act = w
            else:
                self.ntrick = k + 1
                self.to_act = _NEXT[seat]
            return
        if self._phase == 1:  # _BID
            seat = self.to_act
            if seat < 0:
                raise ActionError("no seat is to act: cards are being shown to their owner", rule="S16")
            if action.__class__ is not int or not 0 <= action <= LOOK:
                raise self._malformed(action)
            if action < BID0:
                raise self._illegal(f"seat {seat} must bid before any card is played", "S4")
            ev = (seat, action)
            if self._unseen >> seat & 1:  # may bid blind nil and has not looked (S16)
                if action == LOOK:
                    self._actions.append(ev)
                    self._public.append(ev)
                    self._p0 += 1
                    self._disclose(seat)
                    return
                if action != BLIND_NIL:
                    raise self._illegal(f"seat {seat} has not seen its cards: it may bid blind nil or look",
                                        "S16")
                self._blind |= 1 << seat
                self.bid_values[seat] = 0
            else:
                if action > BID0 + MAX_BID:
                    why = ("it has seen its cards" if self._eligible >> seat & 1 else
                           "only a seat whose team is 100 or more behind may, before it sees its cards")
                    raise self._illegal(f"seat {seat} may not {self.rules.action_text(action)}: {why}",
                                        "S16")
                self.bid_values[seat] = action - BID0
            self._actions.append(ev)
            self._public.append(ev)
            if len(self._actions) == self._p0:
                self._after_bidding()
            else:
                self.to_act = (seat + 1) & 3
            return
        if self._phase == _DEAL:
            raise ActionError("no seat is to act: the cards are being dealt", rule="S1")
        raise ActionError("no seat is to act: the hand is over", rule="S9")

    def _disclose(self, seat: int) -> None:
        """Await the shares that show ``seat`` its cards (S16, S18)."""
        self.need = Disclose(seat, positions_of(seat, self._dealer))
        self.to_act = CHANCE

    def _after_bidding(self) -> None:
        """Every blind nil bidder is shown its cards, clockwise from the dealer's left (S18); then the
        dealer's left leads (S5)."""
        unseen = self._unseen
        if unseen:
            for k in range(1, SEATS + 1):
                seat = (self._dealer + k) & 3
                if unseen >> seat & 1:
                    self._disclose(seat)
                    return
        self.need = None
        self._phase = _PLAY
        self._fast = self._full
        self.to_act = (self._dealer + 1) & 3

    def _before_bidding(self) -> None:
        """After a face-down deal or a disclose during the bidding: the next seat that may not bid blind
        nil is shown its cards, clockwise from the dealer's left (S16); then the next seat bids."""
        due = self._unseen & ~self._eligible
        if due:
            for k in range(1, SEATS + 1):
                seat = (self._dealer + k) & 3
                if due >> seat & 1:
                    self._disclose(seat)
                    return
        self.need = None
        self._phase = _BID
        self.to_act = (self._dealer + 1 + sum(1 for b in self.bid_values if b >= 0)) & 3

    def _malformed(self, action: object) -> ActionError:
        if self._phase == _PLAY and isinstance(action, int) and BID0 <= action <= LOOK:
            return self._illegal(f"seat {self.to_act} already bid: bids are fixed before the first trick",
                                 "S4")
        return self._illegal(f"{action!r} is not a Spades action here", PHASE_RULES[self._phase])

    def reveals(self, action: Action) -> tuple[int, ...]:
        if self._phase != _PLAY or action.__class__ is not int or not 0 <= action < CARDS:
            return ()
        seat = self.to_act
        ca = self.card_at
        for p in range((seat - self._dealer - 1) % SEATS, CARDS, SEATS):
            if ca[p] == action:
                return (p,)
        return ()

    def fulfil(self, values: Mapping[int, Card]) -> None:
        need = self.need
        if need is None:
            raise FulfilError("nothing is awaited from the dealer now")
        if isinstance(need, Disclose):
            self._fulfil_disclose(need, values)
            return
        ca = self.card_at
        hm: list[int] = []
        st = (-self._dealer - 1) % SEATS
        if len(values) == CARDS and ca.count(UNKNOWN) == CARDS:
            # every card at once (a full-information replica): check it is a permutation of the deck
            try:
                new = _ALL_GETTER(values)
            except (KeyError, TypeError):
                self._check_values(values)
                raise
            if set(new) != _DECK_SET:
                self._check_values(values)
                raise FulfilError("the cards given are not the 52 cards of the deck")
            bit = BIT.__getitem__
            hm.extend(sum(map(bit, new[(st + seat) & 3::4])) for seat in range(SEATS))  # distinct cards
            self._full = True
        else:
            self._check_values(values)
            new = ca[:]
            for p, c in values.items():
                new[p] = c
            for seat in range(SEATS):
                hm.append(mask_of(c for c in new[(st + seat) & 3::4] if c != UNKNOWN))
            self._full = UNKNOWN not in new
        ca[:] = new
        self.hmask = hm
        self.need = None
        assert isinstance(need, Deal)
        self._phase = _BID
        if need.disclose:
            self._public.append(("deal", need.hands))
            self.to_act = (self._dealer + 1) & 3
            return
        self._public.append(("deal", need.hands, False))
        self._unseen = (1 << SEATS) - 1
        self._before_bidding()

    def _fulfil_disclose(self, need: Disclose, values: Mapping[int, Card]) -> None:
        ps = need.positions
        self._check_values(values)
        for p in values:
            if p not in ps:
                raise FulfilError(f"position {p} is not shown to seat {need.seat} now")
        ca = self.card_at
        m = 0
        for p, c in values.items():
            ca[p] = c
            m |= BIT[c]
        self.hmask[need.seat] |= m
        self._full = UNKNOWN not in ca
        self._unseen &= ~(1 << need.seat)
        self._public.append(("disclose", need.seat, ps))
        if len(self._actions) >= self._p0:
            self._after_bidding()
        else:
            self._before_bidding()

    def _check_values(self, values: Mapping[int, Card]) -> None:
        """Raise ``FulfilError`` naming the first value that does not fit the deal."""
        ca = self.card_at
        deck = self.rules.deck
        seen: dict[int, int] = {}
        for p, c in enumerate(ca):
            if c != UNKNOWN:
                seen[c] = p
        for p, c in values.items():
            if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < CARDS:
                raise FulfilError(f"position {p!r} is not dealt now")
            if not isinstance(c, int) or isinstance(c, bool) or c not in deck:
                raise FulfilError(f"{c!r} is not a card of this deck")
            known = ca[p]
            if known != UNKNOWN and known != c:
                raise FulfilError(f"position {p} holds {card_text(known)}, not {card_text(c)}")
            other = seen.get(c, p)
            if other != p:
                raise FulfilError(f"{card_text(c)} is known twice (positions {other} and {p})")
            seen[c] = p

    def observe(self, position: int, c: Card) -> None:
        before = self.card_at[position] if isinstance(position, int) and 0 <= position < CARDS else UNKNOWN
        super().observe(position, c)
        if before == UNKNOWN and self._phase != _DEAL:
            self.hmask[owner_of(position, self._dealer)] |= BIT[c]
            self._full = UNKNOWN not in self.card_at
            self._fast = self._full and self._phase == _PLAY

    # ------------------------------------------------------------------ history and zones

    def _history(self) -> tuple[list[list[tuple[int, Card]]], list[int]]:
        """The tricks so far as (seat, card) in play order, and the winner of each complete one."""
        plays = self._actions[self._p0:]
        tricks = [plays[k:k + SEATS] for k in range(0, len(plays), SEATS)]
        return tricks, [trick_winner(t) for t in tricks if len(t) == SEATS]

    def zones(self) -> list[tuple[str, tuple[int, ...]]]:
        if self._phase == _DEAL:
            return [("deck", tuple(range(CARDS)))]
        ca = self.card_at
        tricks, winners = self._history()
        taken: list[list[int]] = [[], [], [], []]
        for t, w in zip(tricks, winners, strict=False):
            taken[w].extend(ca.index(c) for _, c in t)
        current = tricks[len(winners)] if len(tricks) > len(winners) else []
        zones = [(f"hand {seat}", ps) for seat, ps in self._in_hand()]
        zones.append(("trick", tuple(ca.index(c) for _, c in current)))
        zones.extend((f"taken {seat}", tuple(sorted(taken[seat]))) for seat in range(SEATS))
        return zones

    def _in_hand(self) -> list[tuple[int, tuple[int, ...]]]:
        """Per seat, the positions still in its hand."""
        if self._phase == _DEAL:
            return []
        ca = self.card_at
        played = {c for _, c in self._actions[self._p0:]}
        return [(seat, tuple(p for p in ps if ca[p] == UNKNOWN or ca[p] not in played))
                for seat, ps in self.rules._deals[self._dealer].hands]

    # ------------------------------------------------------------------ knowledge

    def view(self, seat: int) -> SpadesView:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
            raise GameError(f"no seat {seat!r} in Spades (seats 0-3)")
        masked = self.clone()
        ca = masked.card_at = self.card_at[:]  # its own: the hidden cards are masked below
        dummies = self._dummies
        down = self._unseen
        # a seat does not see its own cards while they are face down to it (S16, S18)
        hidden = [(s, ps) for s, ps in self._in_hand()
                  if down >> s & 1 or (s != seat and s not in dummies)]
        for s, ps in hidden:
            for p in ps:
                ca[p] = UNKNOWN
            masked.hmask[s] = 0
        if self._phase == _DEAL:
            unknown = tuple(p for p in range(CARDS) if ca[p] == UNKNOWN)
        else:
            unknown = tuple(p for _, ps in hidden for p in ps)
            masked._full = masked._fast = False
        masked._hidden = tuple(hidden)
        face_down = bool(down >> seat & 1)
        hand = () if face_down else self.held(seat)
        played = tuple(c for _, c in self._actions[self._p0:])
        seen = set(hand) | set(played)
        for d in dummies:
            if not down >> d & 1:
                seen.update(self.held(d))
        unseen = tuple(c for c in self.rules.deck if c not in seen)
        legal: tuple[Action, ...] = ()
        if self.to_act == seat:
            try:
                legal = tuple(self.legal_actions())
            except GameError:
                legal = ()
        tricks, winners = self._history()
        voids: list[set[int]] = [set(), set(), set(), set()]
        for t in tricks:
            led = t[0][1] // 13
            for s, c in t[1:]:
                if c // 13 != led:
                    voids[s].add(led)
        done = len(winners)
        trick = tuple(tricks[done]) if len(tricks) > done else ()
        last = tuple(tricks[done - 1]) if done else ()
        leader = -1 if self._phase < _PLAY else self._leader()
        bids = self.bids
        contracts = (max(self.bid_values[0], 0) + max(self.bid_values[2], 0),
                     max(self.bid_values[1], 0) + max(self.bid_values[3], 0))
        return SpadesView(
            seat=seat, to_act=self.to_act, hand=hand, legal_actions=legal, unknown_positions=unknown,
            unseen_cards=unseen, _masked=masked, dealer=self._dealer, bids=bids, contracts=contracts,
            leader=leader, trick=trick, last_trick=last, tricks_won=tuple(self.taken),
            spades_broken=self._broken, played=played,
            voids=tuple(tuple(sorted(v)) for v in voids), scores=self._scores, bags=self._bags,
            phase=PHASE_NAMES[self._phase], seats=_ALL_SEATS,
            hand_sizes=tuple(len(ps) for _, ps in self._in_hand()) if self._phase != _DEAL else (0,) * SEATS,
            dummies=dummies, blind_nil=self.blind_nil, eligible=self.eligible, face_down=face_down)

    def _after_determinize(self) -> None:
        ca = self.card_at
        hm = self.hmask
        bit = BIT.__getitem__
        for seat, ps in self._hidden:
            cards = [ca[p] for p in ps]
            if UNKNOWN in cards:
                cards = [c for c in cards if c != UNKNOWN]
            hm[seat] |= sum(map(bit, cards))  # distinct cards: their bits add up to the mask
        self._hidden = ()
        self._full = UNKNOWN not in ca
        self._fast = self._full and self._phase == _PLAY

    # ------------------------------------------------------------------ public facts

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats dealt into the hand: always all four (a seat that left is an open dummy)."""
        return _ALL_SEATS

    @property
    def dummies(self) -> tuple[int, ...]:
        """The open dummies: every replica is shown their cards and plays them by ``dummy.choose``."""
        return self._dummies

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self._phase]

    @property
    def phase_rule(self) -> str:
        return PHASE_RULES[self._phase]

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards this replica knows in ``seat``'s hand, in the order they were dealt."""
        ca = self.card_at
        return tuple(ca[p] for p in self.hand_positions(seat) if ca[p] != UNKNOWN)

    def hand_positions(self, seat: int) -> tuple[int, ...]:
        if self._phase == _DEAL:
            return ()
        for s, ps in self._in_hand():
            if s == seat:
                return ps
        raise GameError(f"no seat {seat!r} in Spades (seats 0-3)")

    @property
    def blind_nil(self) -> tuple[int, ...]:
        """The seats that bid blind nil (S16), ascending."""
        return tuple(s for s in _ALL_SEATS if self._blind >> s & 1)

    @property
    def eligible(self) -> tuple[int, ...]:
        """The seats that may bid blind nil in this hand (S16), ascending."""
        return tuple(s for s in _ALL_SEATS if self._eligible >> s & 1)

    def face_down(self, seat: int) -> bool:
        """Whether ``seat``'s cards are dealt but not yet shown to it (S16, S18)."""
        return bool(self._unseen >> seat & 1)

    @property
    def bids(self) -> tuple[int | None, ...]:
        """Each seat's bid (0 is nil), None while not made."""
        return tuple(None if b < 0 else b for b in self.bid_values)

    @property
    def bags(self) -> tuple[int, int]:
        """Each team's bags carried into this hand."""
        return self._bags

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return tuple(self.taken)

    @property
    def spades_broken(self) -> bool:
        return self._broken

    @property
    def leader(self) -> int:
        """The seat that leads (or led) the current trick; -1 before the play."""
        return -1 if self._phase < _PLAY else self._leader()

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The cards of the current trick as (seat, card) in play order."""
        if self._phase < _PLAY:
            return ()
        k = (len(self._actions) - self._p0) % SEATS
        return tuple(self._actions[-k:]) if k else ()

    def held(self, seat: int) -> tuple[Card, ...]:
        """The cards this replica knows in ``seat``'s hand, sorted."""
        if self._phase == _DEAL:
            return ()
        return cards_of(self.hmask[seat])


def trick_winner(trick: list[tuple[int, Card]] | tuple[tuple[int, Card], ...]) -> int:
    """The seat that wins a trick of (seat, card): the highest spade, else the highest card of the
    suit led (S8)."""
    seat, best = trick[0]
    for s, c in trick[1:]:
        if c > best and (c >= SPADE0 or c < _SUIT_END[best]):
            seat, best = s, c
    return seat
