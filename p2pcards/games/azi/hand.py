"""One hand of Azi on one replica.

The flow of a hand (``phase``):

* ``BUYIN`` (azi replays only, A14): the seats that may buy in are asked in turn, clockwise from
  the dealer's left; ``buyin`` or ``decline``.
* ``DEAL`` then ``REVEAL`` (chance): the cards are dealt one at a time clockwise from the dealer's
  left to the ``m`` seats in the hand, blind (``disclose`` off) when blind betting is on; then the last
  card dealt, the dealer's, is turned up for trump (A2).  The deck positions, for any set of seats in
  the hand (those that paid the ante, or those that replay an azi; seats away or out are never in
  it): list the seats in the hand clockwise from the dealer's left, the dealer last; position ``k``
  (``k < m * deal``) goes to the seat at place ``k % m`` of that list, and position ``m * deal - 1``,
  the last card dealt, is turned up for trump (the dealer's card, unless the dealer sits out a replay,
  A16).
* ``DISCARD`` (``deal=4``, A4): each seat in turn discards a card by its place in the hand.
* ``BID`` (A6-A9): the bidding for the lead.  A blind seat may ``look`` first (a ``Disclose``
  need, then the same seat acts again).
* ``DISCLOSE`` (chance): the seats still blind when the bidding ends see their cards, in turn.
* ``PLAY`` (A10-A12): tricks until a seat has two, or three tricks one each (azi, A14).  The rules of
  a card played (``legal_mask``, ``power``) are in ``play``.

For a search, a state that knows every card makes two kinds of copies: ``search_copy`` (the whole
hand without history, where a look needs no chance step) and ``play_copy`` (the rest of the play
as a ``play.AziPlay``, bit masks and no positions).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from p2pcards.games.azi import actions as act
from p2pcards.games.azi import bidding
from p2pcards.games.azi.config import AziConfig
from p2pcards.games.azi.play import AziPlay, legal_mask, play_actions, power
from p2pcards.games.azi.result import AziResult, settle_pot
from p2pcards.games.azi.view import AziView
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
    Reveal,
)
from p2pcards.games.cards import ACE, Card, card_text

BUYIN, DEAL, REVEAL, DISCARD, BID, DISCLOSE, PLAY, OVER = range(8)
PHASE_NAMES = ("buy-in", "deal", "trump", "discard", "bidding", "disclose", "play", "over")
PHASE_RULES = ("A14", "A2", "A2", "A4", "A6", "A7", "A10", "A12")
"""The rule of each phase: what an error names when it breaks no more specific rule."""
SETUP_KEYS = ("hand", "dealer", "stacks", "carried", "free", "azi", "blind_paid", "seats", "voided")
"""The keys of a hand's setup.  The last three appear only when they say something: ``blind_paid``
(per seat, the chips of ``carried`` it paid in a bidding while blind, which count double for an all-in
winner, A16), ``seats`` (the seats that may take part, when some seat is away) and ``voided`` (how
many hands of the match were voided before this one)."""

# the list attributes a clone copies (``hands`` is a list of lists and is copied apart)
_LISTS = ("card_at", "_public", "_actions", "stack", "contrib", "inhand", "folded", "blind", "vbet",
          "raises", "need_act", "blind_paid", "discards", "mucked", "played", "played_seats", "trick_pos",
          "trick_seats", "won", "pub", "seen_by")
# what a search copy's clone copies: ``card_at`` (a view or a determinized state made from it writes
# there) and what the bidding changes; the rest is shared until the play, a discard, a buy-in or a
# chance step changes it (``_unshare``), since a search copy's clones mostly bid
_BIDDING_LISTS = ("card_at", "stack", "contrib", "folded", "blind", "vbet", "raises", "need_act",
                  "blind_paid", "mucked")
_SHARED_LISTS = tuple(name for name in _LISTS if name not in _BIDDING_LISTS)


def _seat_list(name: str, value: Any, n: int) -> tuple[int, ...]:
    if not isinstance(value, (tuple, list)) or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < n for s in value) or list(
            value) != sorted(set(value)):
        raise GameError(f"setup {name} must list distinct seats in order, not {value!r}")
    return tuple(value)


def _seat_tuple(name: str, value: Any, n: int) -> tuple[int, ...]:
    if not isinstance(value, (tuple, list)) or len(value) != n or not all(
            isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in value):
        raise GameError(f"setup {name} must give {n} whole numbers >= 0, not {value!r}")
    return tuple(value)


class AziHand(HandState):
    """The state machine of one hand (see the module docstring)."""

    rules: AziConfig

    def __init__(self, rules: AziConfig, setup: Mapping[str, Any]) -> None:
        n = rules.n
        extra = sorted(k for k in setup if k not in SETUP_KEYS)
        if extra:
            raise GameError(f"unknown setup keys {extra}; a hand's setup has {', '.join(SETUP_KEYS)}")
        hand_no, dealer, azi = setup.get("hand", 0), setup.get("dealer", 0), setup.get("azi", 0)
        for name, v in (("hand", hand_no), ("dealer", dealer), ("azi", azi)):
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise GameError(f"setup {name} must be a whole number >= 0, not {v!r}")
        if dealer >= n:
            raise GameError(f"the dealer is a seat from 0 to {n - 1}, not {dealer}")
        stacks = _seat_tuple("stacks", setup.get("stacks", (rules.bankroll,) * n), n)
        carried = _seat_tuple("carried", setup.get("carried", (0,) * n), n)
        free_raw = setup.get("free", ())
        if not isinstance(free_raw, (tuple, list)) or not all(
                isinstance(s, int) and not isinstance(s, bool) and 0 <= s < n for s in free_raw) or list(
                free_raw) != sorted(set(free_raw)):
            raise GameError(f"setup free must list distinct seats in order, not {free_raw!r}")
        free = tuple(free_raw)
        if (azi > 0) != bool(free) or (azi > 0) != (sum(carried) > 0) or 0 < len(free) < 2:
            raise GameError("an azi replay (azi > 0) needs two or more free seats and a carried pot; "
                            "a first deal has neither")
        blind_paid = _seat_tuple("blind_paid", setup.get("blind_paid", (0,) * n), n)
        seats = _seat_list("seats", setup.get("seats", tuple(range(n))), n)
        voided = setup.get("voided", 0)
        if not isinstance(voided, int) or isinstance(voided, bool) or voided < 0:
            raise GameError(f"setup voided must be a whole number >= 0, not {voided!r}")
        if not set(free) <= set(seats):
            raise GameError("every free seat of an azi replay must take part")
        if any(b > c for b, c in zip(blind_paid, carried, strict=True)):
            raise GameError("setup blind_paid counts chips a seat paid into the carried pot: never more "
                            "than it carried")
        self.setup = (("hand", hand_no), ("dealer", dealer), ("stacks", stacks), ("carried", carried),
                      ("free", free), ("azi", azi))
        if any(blind_paid):
            self.setup += (("blind_paid", blind_paid),)
        if len(seats) < n:
            self.setup += (("seats", seats),)
        if voided:
            self.setup += (("voided", voided),)
        self.allowed = seats
        """The seats that may take part in this hand (every seat but those away)."""
        self.rules = rules
        size = len(rules.deck)
        self.card_at = [UNKNOWN] * size
        self._public = []
        self._actions = []
        self.n = n
        self._dealer: int = dealer
        self.ante = rules.ante
        self.order = tuple((dealer + 1 + i) % n for i in range(n))
        """Every seat, clockwise from the dealer's left (the dealer last)."""
        self.stack = list(stacks)
        self.contrib = list(carried)
        self.inhand = [False] * n
        self.folded = [False] * n
        self.blind = [rules.blind] * n
        self.vbet = [0] * n
        """What each seat's payments in this bidding count for (blind payments count double)."""
        self.raises = [0] * n
        self.need_act = [False] * n
        self.blind_paid = list(blind_paid)
        """What each seat paid in a bidding while blind, in this hand and the hands it replays (A16:
        those chips count double in what an all-in winner may take)."""
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.discards: list[int] = []
        self.mucked: list[int] = []
        self.played: list[int] = []
        self.played_seats: list[int] = []
        self.trick_pos: list[int] = []
        self.trick_seats: list[int] = []
        self.won = [0] * n
        self.pub = [False] * size
        """Positions whose card everybody knows (the trump card, cards played)."""
        self.seen_by = [-1] * size
        """The seat a position's card was disclosed to (its owner), or -1."""
        self.dealt = 0
        self.level = 0
        self.opened = False
        self.lead_claim = -1
        self.leader = -1
        self.trump_pos = -1
        self.trump_card = UNKNOWN
        self.trump_suit = -1
        self.top_card = -1
        """The six of trumps when it is on stage (A3), else -1."""
        self.price = 0
        self.queue: tuple[int, ...] = ()
        self.qi = 0
        self.azi = azi
        self._result: AziResult | None = None
        self._searching = False
        """A search copy (``search_copy``): no history kept, cards seen at once."""
        self._shared = False
        """A search copy that shares lists with a clone (see ``clone``)."""
        self._ending: tuple[int | None, bool] | None = None
        """The winner (None: azi) and whether it was uncontested, once the hand is over."""
        self._need: Need | None = None
        self._turn = CHANCE
        self.phase = DEAL
        if free:
            for s in free:
                self.inhand[s] = True
            self.price = (sum(carried) + 1) // 2
            if rules.azi_buy_in:
                self.queue = tuple(s for s in self.order if not self.inhand[s] and s in seats
                                   and stacks[s] >= self.price)
            if self.queue:
                self.phase = BUYIN
                self._turn = self.queue[0]
                return
        else:
            for s in seats:
                if self.stack[s] >= self.ante:
                    self.stack[s] -= self.ante
                    self.contrib[s] += self.ante
                    self.inhand[s] = True
            if sum(self.inhand) < 2:
                raise GameError("fewer than two players can pay the ante: no hand can be dealt")
        self._start_deal()

    # ------------------------------------------------------------------ the contract

    @property
    def to_act(self) -> int:
        return self._turn

    @property
    def need(self) -> Need | None:
        return self._need

    @property
    def result(self) -> AziResult | None:
        if self._result is None and self._ending is not None:
            self._result = self._make_result(*self._ending)  # a search copy makes it when asked
        return self._result

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    @property
    def pot(self) -> int:
        return sum(self.contrib)

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The cards of the current trick as (seat, card) in play order (as in Spades)."""
        ca = self.card_at
        return tuple((t, ca[p]) for t, p in zip(self.trick_seats, self.trick_pos, strict=True))

    @property
    def tricks(self) -> tuple[int, ...]:
        """Tricks won so far by each seat (as ``AziResult.tricks``)."""
        return tuple(self.won)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """The same as ``tricks``, under the name Spades uses."""
        return tuple(self.won)

    @property
    def stage_card(self) -> Card | None:
        """The six of trumps when it is on stage (A3), else None (``top_card`` says -1)."""
        return self.top_card if self.top_card >= 0 else None

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards this replica knows in ``seat``'s hand, in the order they were dealt."""
        ca = self.card_at
        return tuple(ca[p] for p in self.hands[seat] if ca[p] != UNKNOWN)

    def hand_positions(self, seat: int) -> tuple[int, ...]:
        return tuple(self.hands[seat])

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats dealt into this hand (or, before an azi replay's deal, those in it so far)."""
        return tuple(s for s in range(self.n) if self.inhand[s])

    @property
    def phase_rule(self) -> str:
        return PHASE_RULES[self.phase]

    def clone(self) -> Self:
        new = object.__new__(type(self))
        d = new.__dict__
        d.update(self.__dict__)
        if self._searching:
            for name in _BIDDING_LISTS:
                d[name] = d[name][:]
            d["hands"] = self.hands[:]  # a fold empties a hand by putting a new list in its place
            self._shared = new._shared = True
            return new
        for name in _LISTS:
            d[name] = d[name][:]
        d["hands"] = [h[:] for h in self.hands]
        return new

    def _unshare(self) -> None:
        """Copy what this search copy shares with its clones, before changing it."""
        d = self.__dict__
        for name in _SHARED_LISTS:
            d[name] = d[name][:]
        self.hands = [h[:] for h in self.hands]
        self._shared = False

    def legal_actions(self) -> list[Action]:
        s = self._turn
        if s < 0:
            return []
        ph = self.phase
        if ph == PLAY:
            return list(play_actions(self._playable(s)))
        if ph == BID:
            return bidding.actions(self, s)
        if ph == DISCARD:
            slots = [act.DISCARD0 + k for k in range(len(self.hands[s]))]
            return [act.LOOK, *slots] if self.blind[s] else slots
        return [act.BUYIN, act.DECLINE]

    # ------------------------------------------------------------------ search copies

    def search_copy(self) -> AziHand:
        """A clone for the many trials of a search, of a state that knows every card in the hands
        (a determinized one): it plays on as usual, except that it keeps no history (no digest, no
        record) and a seat that looks sees its cards at once, with no chance step."""
        new = self.clone()
        new.forget_history()
        return new

    def forget_history(self) -> None:
        """Make this state a search copy (see ``search_copy``) in place."""
        self._searching = True
        self._public = []
        self._actions = []

    def play_copy(self, cards: Mapping[int, Card] | None = None) -> AziPlay:
        """The rest of the play as an ``AziPlay``.  Every card of the seats in play must be known, or
        given in ``cards`` (position: card; a deal of the cards this state does not know)."""
        if self.phase != PLAY:
            raise GameError("a play copy is made in the play")
        ca = self.card_at
        order = tuple(s for s in range(self.n) if self.inhand[s] and not self.folded[s])
        masks = [0] * self.n
        for s in order:
            mask = 0
            for p in self.hands[s]:
                c = ca[p]
                if c == UNKNOWN:
                    c = cards.get(p, UNKNOWN) if cards is not None else UNKNOWN
                    if c == UNKNOWN:
                        raise GameError(f"the cards of seat {s} are not known here")
                mask |= 1 << c
            masks[s] = mask
        return AziPlay(masks, order, self._turn, self.trick, list(self.won), self.trump_suit,
                       self.top_card)

    def reveals(self, action: Action) -> tuple[int, ...]:
        s = self._turn
        if self.phase != PLAY or s < 0 or action.__class__ is not int \
                or not act.PLAY0 <= action < act.PLAY0 + 52:
            return ()
        c = action - act.PLAY0
        ca = self.card_at
        for p in self.hands[s]:
            if ca[p] == c:
                return (p,)
        return ()

    def zones(self) -> list[tuple[str, tuple[int, ...]]]:
        zs = [(f"hand {s}", tuple(self.hands[s])) for s in range(self.n)]
        zs += [("trick", tuple(self.trick_pos)), ("played", tuple(self.played)),
               ("discard", tuple(self.discards)), ("mucked", tuple(self.mucked)),
               ("undealt", tuple(range(self.dealt, len(self.card_at))))]
        return zs

    # ------------------------------------------------------------------ text helpers

    def parse(self, text: str) -> Action:
        """Like ``rules.parse_action``, and also ``discard <card>`` for a card the seat to act has seen
        (turned into ``discard #k``, the form that keeps the card secret)."""
        verb, _, arg = " ".join(text.strip().lower().split()).partition(" ")
        if verb == "discard" and arg and not arg.lstrip("#").isdigit():
            c = self.rules.parse_card(arg)
            s = self._turn
            if s >= 0:
                for k, p in enumerate(self.hands[s]):
                    if self.card_at[p] == c and (self.seen_by[p] == s or self.pub[p]):
                        return act.discard(k)
            raise ActionError(f"seat {s} does not hold {card_text(c)} or has not seen it: "
                              f"discard by place, discard #1..#{len(self.hands[s]) if s >= 0 else 4}")
        return self.rules.parse_action(text)

    # ------------------------------------------------------------------ chance

    def fulfil(self, values: Mapping[int, Card]) -> None:
        need = self._need
        if need is None:
            raise FulfilError("nothing is to be dealt or shown now")
        if self._shared:
            self._unshare()
        if isinstance(need, Deal):
            self._learn(values, need.positions(), complete=False)
            for s, ps in need.hands:
                self.hands[s] = list(ps)
                if need.disclose:
                    for p in ps:
                        self.seen_by[p] = s
            self.dealt = len(need.positions())
            self._public.append(("deal", need.hands, need.disclose))
            self._need = Reveal((self.trump_pos,))
            self.phase = REVEAL
        elif isinstance(need, Reveal):
            self._learn(values, need.positions, complete=True)
            for p in need.positions:
                self.pub[p] = True
            self._public.append(("reveal", need.positions, tuple(self.card_at[p] for p in need.positions)))
            self._set_trump()
        else:
            self._learn(values, need.positions, complete=False)
            for p in need.positions:
                self.seen_by[p] = need.seat
            self._public.append(("disclose", need.seat, need.positions))
            self._need = None
            if self.phase == DISCLOSE:
                self._next_disclose()
            else:
                self._turn = need.seat

    def _learn(self, values: Mapping[int, Card], allowed: tuple[int, ...], complete: bool) -> None:
        ca = self.card_at
        in_deck = self.rules.in_deck
        known = {c for c in ca if c != UNKNOWN}
        new: dict[int, int] = {}
        for p, c in values.items():
            if p not in allowed:
                raise FulfilError(f"position {p} is not part of this need ({allowed})")
            if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < 52 or not in_deck[c]:
                raise FulfilError(f"{c!r} is not a card of the azi deck")
            if ca[p] == c:
                continue
            if ca[p] != UNKNOWN:
                raise FulfilError(f"position {p} holds {card_text(ca[p])}, not {card_text(c)}")
            if c in known:
                raise FulfilError(f"{card_text(c)} is already known at another position")
            known.add(c)
            new[p] = c
        if complete:
            missing = [p for p in allowed if p not in values and ca[p] == UNKNOWN]
            if missing:
                raise FulfilError(f"every position must be shown; missing {missing}")
        for p, c in new.items():
            ca[p] = c

    def _start_deal(self) -> None:
        seats = [s for s in self.order if self.inhand[s]]
        m, k = len(seats), self.rules.cards_dealt
        hands = tuple((s, tuple(j + m * r for r in range(k))) for j, s in enumerate(seats))
        self.trump_pos = m * k - 1
        self._need = Deal(hands, disclose=not self.rules.blind)
        self._turn = CHANCE
        self.phase = DEAL

    def _set_trump(self) -> None:
        c = self.card_at[self.trump_pos]
        self.trump_card = c
        self.trump_suit = c // 13
        if self.rules.six_on_stage and c % 13 + 2 == ACE:
            self.top_card = self.trump_suit * 13 + 6 - 2
        self._need = None
        if self.rules.cards_dealt == 4:
            self.phase = DISCARD
            self.queue = tuple(s for s in self.order if self.inhand[s])
            self.qi = 0
            self._turn = self.queue[0]
        else:
            self._start_bidding()

    def _look(self, s: int) -> None:
        self.blind[s] = False
        if self._searching:  # every card is known: nothing to disclose
            if self.phase == DISCLOSE:
                self._next_disclose()
            return
        self._need = Disclose(s, tuple(p for p in self.hands[s] if not self.pub[p]))
        self._turn = CHANCE

    # ------------------------------------------------------------------ actions

    def apply(self, action: Action) -> None:
        s = self._turn
        if s < 0:
            what = "the hand is over" if s == TERMINAL else "cards are being dealt or shown"
            raise ActionError(f"no seat is to act now: {what}", rule=PHASE_RULES[self.phase])
        if not isinstance(action, int) or isinstance(action, bool) or not act.valid(action):
            raise self._illegal(f"{action!r} is not an azi action", PHASE_RULES[self.phase])
        ph = self.phase
        if ph == BID:
            bidding.apply(self, s, action)
            if not self._searching:
                self._actions.append((s, action))
                self._public.append(("act", s, action))
            return
        if self._shared:
            self._unshare()
        if ph == PLAY:
            self._apply_play(s, action)
        elif ph == DISCARD:
            self._apply_discard(s, action)
        else:
            self._apply_buyin(s, action)
        if not self._searching:
            self._actions.append((s, action))
            self._public.append(("act", s, action))

    def _apply_buyin(self, s: int, a: Action) -> None:
        if a not in (act.BUYIN, act.DECLINE):
            raise self._illegal(f"first the azi buy-in: join for {self.price} chips or not", "A14")
        if a == act.BUYIN:
            self.stack[s] -= self.price
            self.contrib[s] += self.price
            self.inhand[s] = True
        self.qi += 1
        if self.qi < len(self.queue):
            self._turn = self.queue[self.qi]
        else:
            self._start_deal()

    def _apply_discard(self, s: int, a: Action) -> None:
        if a == act.LOOK:
            if not self.blind[s]:
                raise self._illegal("you have already seen your cards", "A7")
            self._look(s)
            return
        k = a - act.DISCARD0
        if not 0 <= k < act.MAX_SLOTS:
            raise self._illegal("first every player discards one card", "A4")
        if k >= len(self.hands[s]):
            raise self._illegal(f"you hold {len(self.hands[s])} cards", "A4")
        self.discards.append(self.hands[s].pop(k))
        self.qi += 1
        if self.qi < len(self.queue):
            self._turn = self.queue[self.qi]
        else:
            self._start_bidding()

    # ---- bidding (see ``bidding``)

    def call_cost(self, s: int) -> int:
        """What seat ``s`` pays to call the highest bet (half, rounded up, while blind: A7)."""
        return bidding.call_cost(self, s)

    def call_action(self, s: int) -> Action:
        """How seat ``s`` stays in at the least cost: ``call`` (the opening minimum before anybody
        bet), or ``allin`` when it cannot pay that (A6, A9)."""
        return bidding.call_action(self, s)

    def min_bet(self, s: int) -> int:
        """The smallest opening bet of seat ``s`` (the ante; half of it, rounded up, while blind)."""
        return bidding.min_bet(self, s)

    def _start_bidding(self) -> None:
        self.phase = BID
        bidding.start(self)

    def _end_bidding(self) -> None:
        # the last raiser leads (A8), else the first seat still in the hand
        if self.lead_claim >= 0:
            self.leader = self.lead_claim
        else:
            self.leader = next(t for t in self.order if self.inhand[t] and not self.folded[t])
        self.phase = DISCLOSE
        self.queue = tuple(t for t in self.order if self.inhand[t] and not self.folded[t] and self.blind[t])
        self.qi = 0
        self._next_disclose()

    def _next_disclose(self) -> None:
        if self.qi < len(self.queue):
            s = self.queue[self.qi]
            self.qi += 1
            self._look(s)
            return
        self.phase = PLAY
        self._turn = self.leader

    # ---- play

    def _playable(self, s: int) -> int:
        """The cards seat ``s`` may play (of those this replica knows), as a mask (``play.legal_mask``)."""
        ca = self.card_at
        mine = 0
        for p in self.hands[s]:
            if (c := ca[p]) != UNKNOWN:
                mine |= 1 << c
        led = ca[self.trick_pos[0]] // 13 if self.trick_pos else -1
        return legal_mask(mine, led, self.trump_suit)

    def _apply_play(self, s: int, a: Action) -> None:
        if not act.PLAY0 <= a < act.PLAY0 + 52:
            raise self._illegal("it is the play: play a card", "A10")
        c = a - act.PLAY0
        ca = self.card_at
        hand = self.hands[s]
        pos = -1
        for p in hand:
            if ca[p] == c:
                pos = p
        if pos < 0:
            raise self._illegal(f"seat {s} does not hold {card_text(c)}", "A2")
        # a lead, or a card of the suit led, is always legal; otherwise ``legal_mask`` decides, and
        # the error says which card the seat had to play instead
        if self.trick_pos and c // 13 != ca[self.trick_pos[0]] // 13 and not self._playable(s) >> c & 1:
            led = ca[self.trick_pos[0]] // 13
            trump = self.trump_suit
            for p in hand:
                v = ca[p]
                if v != UNKNOWN and p != pos and v // 13 == led:
                    raise self._illegal(f"seat {s} must follow suit with {card_text(v)}", "A10")
            for p in hand:
                v = ca[p]
                if v != UNKNOWN and p != pos and v // 13 == trump:
                    raise self._illegal(f"seat {s} cannot follow suit and must play a trump "
                                        f"({card_text(v)})", "A10")
        hand.remove(pos)
        self.pub[pos] = True
        self.trick_pos.append(pos)
        self.trick_seats.append(s)
        n = self.n
        for i in range(1, n):
            t = (s + i) % n
            if self.inhand[t] and not self.folded[t] and t not in self.trick_seats:
                self._turn = t
                return
        self._end_trick()

    def power(self, c: Card, led: int) -> int:
        """How strong ``c`` is in a trick led in suit ``led`` (A3, A11); -1 cannot win it."""
        return power(c, led, self.trump_suit, self.top_card)

    def _end_trick(self) -> None:
        ca = self.card_at
        led = ca[self.trick_pos[0]] // 13
        best, w = -2, -1
        for p, t in zip(self.trick_pos, self.trick_seats, strict=True):
            pw = self.power(ca[p], led)
            if pw > best:
                best, w = pw, t
        self.won[w] += 1
        self.played += self.trick_pos
        self.played_seats += self.trick_seats
        self.trick_pos = []
        self.trick_seats = []
        if self.won[w] == 2:
            self._finish(w, uncontested=False)
        elif sum(self.won) == 3:
            self._finish(None, uncontested=False)
        else:
            self.leader = w
            self._turn = w

    # ---- the end

    def _finish(self, winner: int | None, uncontested: bool) -> None:
        self._ending = (winner, uncontested)
        if not self._searching:
            self._result = self._make_result(winner, uncontested)
        self.phase = OVER
        self._turn = TERMINAL
        self._need = None

    def _make_result(self, winner: int | None, uncontested: bool) -> AziResult:
        """The result of the hand as it ended (nothing changes once it is over)."""
        n = self.n
        contrib = tuple(self.contrib)
        # A16: every all-in winner, however it went all-in, takes at most what it put in from each
        # seat (A13), its blind payments counting double
        payouts = (0,) * n if winner is None else settle_pot(
            contrib, winner, self.stack[winner] == 0, self.blind_paid[winner])
        return AziResult(
            winner=winner, azi=winner is None, uncontested=uncontested, tricks=tuple(self.won),
            contributions=contrib, payouts=payouts,
            stacks=tuple(self.stack[i] + payouts[i] for i in range(n)),
            trick_winners=tuple(s for s in range(n) if self.won[s]),
            blind_paid=tuple(self.blind_paid))

    # ------------------------------------------------------------------ knowledge

    def masked(self, seat: int) -> AziHand:
        """A clone that knows only what ``seat`` may know."""
        st = self.clone()
        ca = st.card_at
        pub, seen = self.pub, self.seen_by
        for p in range(len(ca)):
            if ca[p] != UNKNOWN and not pub[p] and seen[p] != seat:
                ca[p] = UNKNOWN
        return st

    def voids(self) -> tuple[tuple[int, ...], ...]:
        """Per seat, the suits it has shown it does not hold: it did not follow a suit led, or
        did not follow and did not trump either (A10)."""
        void = [[False] * 4 for _ in range(self.n)]
        ca = self.card_at
        size = sum(1 for t in range(self.n) if self.inhand[t] and not self.folded[t])
        plays = list(zip(self.played_seats, self.played, strict=True))
        tricks = [plays[i:i + size] for i in range(0, len(plays), size)]
        tricks.append(list(zip(self.trick_seats, self.trick_pos, strict=True)))
        for trick in tricks:
            if not trick:
                continue
            led = ca[trick[0][1]] // 13
            for t, p in trick[1:]:
                su = ca[p] // 13
                if su != led:
                    void[t][led] = True
                    if su != self.trump_suit:
                        void[t][self.trump_suit] = True
        return tuple(tuple(su for su in range(4) if v[su]) for v in void)

    def view(self, seat: int) -> AziView:
        if not 0 <= seat < self.n:
            raise GameError(f"no seat {seat} at this table")
        m = self.masked(seat)
        ca = m.card_at
        unknown = sorted(p for t in range(self.n) for p in self.hands[t] if ca[p] == UNKNOWN)
        known = {c for c in ca if c != UNKNOWN}
        my_turn = self._turn == seat
        n = self.n
        return AziView(
            seat=seat, to_act=self._turn,
            hand=tuple(c for p in self.hands[seat] if (c := ca[p]) != UNKNOWN),
            legal_actions=tuple(m.legal_actions()) if my_turn else (),
            unknown_positions=tuple(unknown),
            unseen_cards=tuple(c for c in self.rules.deck if c not in known),
            _masked=m,
            phase=self.phase_name, dealer=self._dealer, seats=self.seats, azi=self.azi, trump=self.trump_card,
            trump_suit=self.trump_suit, top_card=self.top_card, stacks=tuple(self.stack),
            contributions=tuple(self.contrib), pot=self.pot, level=self.level,
            bets=tuple(self.vbet), raises=tuple(self.raises), blind=tuple(self.blind),
            in_hand=tuple(self.inhand[s] and not self.folded[s] for s in range(n)),
            folded=tuple(self.folded), all_in=tuple(
                self.inhand[s] and not self.folded[s] and self.stack[s] == 0 for s in range(n)),
            lead_claim=self.lead_claim, leader=self.leader,
            trick=tuple((t, self.card_at[p]) for t, p in zip(self.trick_seats, self.trick_pos, strict=True)),
            played=tuple((t, self.card_at[p]) for t, p in zip(self.played_seats, self.played, strict=True)),
            voids=self.voids(), tricks=tuple(self.won), tricks_won=tuple(self.won),
            stage_card=self.stage_card,
            hand_sizes=tuple(len(h) for h in self.hands),
            call_cost=self.call_cost(seat) if my_turn and self.phase == BID else 0,
            min_bet=self.min_bet(seat), buy_in_price=self.price)
