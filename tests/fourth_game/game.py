"""Three Tricks, the rules (T1-T5 of ``rules.md``): a hand is three tricks of a nine-card deck.

Deck position ``k`` goes to the ``k % s``-th seat of the hand clockwise from the dealer's left (``s``
seats dealt in); the positions after the ``3 s`` dealt ones stay face down (two seats leave three).
A replica learns its own cards at the deal and every other card when it is played, so following
suit (T3) is checked where the player's hand is known and otherwise left to the audit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

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
    Match,
    Need,
    OptionError,
    Rules,
    SeatStanding,
    Standings,
    View,
    is_action,
    next_taking_part,
)
from p2pcards.games.cards import ACE, QUEEN, Card, card_text, deck_of, suit_of

NAME = "tricks"
DECK: tuple[Card, ...] = deck_of(range(QUEEN, ACE + 1), (0, 1, 2))
"""Queen, king and ace of clubs, diamonds and hearts."""
HAND = 3
RULE_CODES = ("T1", "T2", "T3", "T4", "T5")
PHASE_NAMES = ("deal", "play", "over")
PHASE_RULES = ("T1", "T2", "T5")
_DEAL, _PLAY, _OVER = 0, 1, 2
DEFAULTS: dict[str, int] = {"hands": 3, "players": 3}
RANGES: dict[str, tuple[int, int]] = {"hands": (1, 9), "players": (2, 3)}
SETUP_KEYS = ("dealer", "hand", "seats", "voided")


class TricksRules(Rules):
    """Options: ``players`` 2 or 3 (3), ``hands`` in a match 1-9 (3)."""

    name: ClassVar[str] = NAME
    rule_codes: ClassVar[tuple[str, ...]] = RULE_CODES
    deal_rule: ClassVar[str] = "T1"

    def __init__(self, **options: Any) -> None:
        opts = dict(DEFAULTS)
        for key, value in options.items():
            if key not in DEFAULTS:
                raise OptionError(f"unknown option {key!r} of {NAME}; the options are: hands, players")
            opts[key] = value
        for key, (low, high) in RANGES.items():
            if not is_action(opts[key]) or not low <= opts[key] <= high:
                raise OptionError(f"option {key} must be a whole number from {low} to {high}")
        self.options = tuple(sorted(opts.items()))
        self.deck = DECK
        self.hands = opts["hands"]

    def new_match(self, first_dealer: int = 0) -> TricksMatch:
        return TricksMatch(self, first_dealer)

    def new_hand(self, setup: Mapping[str, Any]) -> TricksState:
        n = self.players
        unknown = sorted(k for k in setup if k not in SETUP_KEYS)
        if unknown:
            raise GameError(f"unknown setup {unknown[0]!r}")
        dealer, hand, voided = setup.get("dealer", 0), setup.get("hand", 0), setup.get("voided", 0)
        seats = setup.get("seats", tuple(range(n)))
        if not is_action(dealer) or not 0 <= dealer < n:
            raise GameError(f"no dealer {dealer!r} at a table of {n}")
        for key, v in (("hand", hand), ("voided", voided)):
            if not is_action(v) or v < 0:
                raise GameError(f"setup {key} must be a whole number, not {v!r}")
        if (not isinstance(seats, tuple) or len(seats) < 2
                or not all(is_action(s) and 0 <= s < n for s in seats)
                or list(seats) != sorted(set(seats)) or dealer not in seats):
            raise GameError("setup seats must be two or more distinct seats in order, the dealer's too")
        return TricksState(self, dealer, seats, hand, voided)

    def action_text(self, action: Action) -> str:
        if not is_action(action) or action not in DECK:
            raise ActionError(f"{action!r} is not a move of {NAME}", rule="T2")
        return f"play {card_text(action)}"

    def parse_action(self, text: str) -> Action:
        words = text.strip().split() if isinstance(text, str) else []
        if len(words) != 2 or words[0].lower() != "play":
            raise ActionError(f"{text!r} is not a move: play <card>, such as play AH", rule="T2")
        return self.parse_card(words[1])


@dataclass(frozen=True, slots=True)
class TricksResult:
    dealer: int
    tricks: tuple[int, ...]
    """Per seat of the table, the tricks it took (a seat not dealt in took none)."""

    def summary(self) -> str:
        return ", ".join(f"seat {s} took {t}" for s, t in enumerate(self.tricks))


@dataclass(slots=True)
class TricksView(View):
    trick: tuple[tuple[int, Card], ...] = ()
    """The current trick as (seat, card) in play order."""
    tricks_won: tuple[int, ...] = ()


class TricksState(HandState):
    _copied_lists: ClassVar[tuple[str, ...]] = ("_played", "_taken")

    def __init__(self, rules: TricksRules, dealer: int, seats: tuple[int, ...], hand: int,
                 voided: int) -> None:
        n = rules.players
        self.rules = rules
        setup: list[tuple[str, Any]] = [("dealer", dealer), ("hand", hand)]
        if seats != tuple(range(n)):
            setup.append(("seats", seats))
        if voided:
            setup.append(("voided", voided))
        self.setup = tuple(setup)
        self._dealer = dealer
        self._seats = seats
        self._order = tuple(sorted(seats, key=lambda s: (s - dealer - 1) % n))
        """The seats of the hand clockwise from the dealer's left: who is dealt first and leads (T1)."""
        k = len(seats)
        own: list[tuple[int, ...]] = [() for _ in range(n)]
        for i, s in enumerate(self._order):
            own[s] = tuple(i + k * j for j in range(HAND))
        self._own = tuple(own)
        self.card_at = [UNKNOWN] * len(DECK)
        self._public = []
        self._actions = []
        self._played: list[tuple[int, Card, int]] = []
        """(seat, card, position) of every card played, in order."""
        self._taken = [0] * n
        self._phase = _DEAL
        self._to_act = CHANCE
        self._need: Need | None = Deal(tuple((s, own[s]) for s in self._order))

    # ---- what is awaited

    @property
    def to_act(self) -> int:
        return self._to_act

    @property
    def need(self) -> Need | None:
        return self._need

    @property
    def result(self) -> TricksResult | None:
        return TricksResult(self._dealer, tuple(self._taken)) if self._phase == _OVER else None

    def _left(self, seat: int) -> tuple[int, ...]:
        """The positions still in ``seat``'s hand."""
        gone = {p for s, _, p in self._played if s == seat}
        return tuple(p for p in self._own[seat] if p not in gone)

    def _trick(self) -> list[tuple[int, Card, int]]:
        k = len(self._played) % len(self._seats)
        return self._played[len(self._played) - k:] if k else []

    def legal_actions(self) -> list[Action]:
        if self._phase != _PLAY:
            return []
        cards = [self.card_at[p] for p in self._left(self._to_act)]
        if UNKNOWN in cards:
            raise GameError(f"the cards of seat {self._to_act} are not known here")
        trick = self._trick()
        if trick:
            led = suit_of(trick[0][1])
            follow = [c for c in cards if suit_of(c) == led]
            if follow:
                return sorted(follow)
        return sorted(cards)

    # ---- moving on

    def apply(self, action: Action) -> None:
        if self._phase != _PLAY:
            raise ActionError("no seat is to act now", rule=PHASE_RULES[self._phase])
        seat = self._to_act
        if not is_action(action) or action not in DECK:
            raise self._illegal(f"{action!r} is not a card of {NAME}", "T2")
        left = self._left(seat)
        at = [p for p in left if self.card_at[p] == action]
        if not at:
            raise self._illegal(f"seat {seat} does not hold {card_text(action)} (or it was not shown)", "T2")
        trick = self._trick()
        if trick:
            led = suit_of(trick[0][1])
            rest = [self.card_at[p] for p in left if p != at[0]]
            if suit_of(action) != led and UNKNOWN not in rest and any(suit_of(c) == led for c in rest):
                raise self._illegal(f"{card_text(action)} does not follow suit", "T3")
        self._played.append((seat, action, at[0]))
        self._actions.append((seat, action))
        self._public.append((seat, action))
        trick.append((seat, action, at[0]))
        if len(trick) < len(self._seats):
            i = self._order.index(seat)
            self._to_act = self._order[(i + 1) % len(self._order)]
            return
        led = suit_of(trick[0][1])
        winner = max((c, s) for s, c, _ in trick if suit_of(c) == led)[1]  # T4
        self._taken[winner] += 1
        if len(self._played) == HAND * len(self._seats):
            self._phase, self._to_act = _OVER, TERMINAL  # T5
        else:
            self._to_act = winner

    def reveals(self, action: Action) -> tuple[int, ...]:
        if self._phase != _PLAY or not is_action(action):
            return ()
        return tuple(p for p in self._left(self._to_act) if self.card_at[p] == action)[:1]

    def zones(self) -> list[tuple[str, tuple[int, ...]]]:
        if self._phase == _DEAL:
            return [("deck", tuple(range(len(DECK))))]
        zones = [(f"hand {s}", self._left(s)) for s in self._seats]
        trick = self._trick()
        zones.append(("trick", tuple(p for _, _, p in trick)))
        won: dict[int, list[int]] = {s: [] for s in self._seats}
        k = len(self._seats)
        done = self._played[:len(self._played) - len(trick)]
        for t in range(0, len(done), k):
            cards = done[t:t + k]
            led = suit_of(cards[0][1])
            winner = max((c, s) for s, c, _ in cards if suit_of(c) == led)[1]
            won[winner].extend(p for _, _, p in cards)
        zones.extend((f"taken {s}", tuple(sorted(won[s]))) for s in self._seats)
        zones.append(("undealt", tuple(range(HAND * k, len(DECK)))))
        return zones

    def fulfil(self, values: Mapping[int, Card]) -> None:
        need = self._need
        if not isinstance(need, Deal):
            raise FulfilError("nothing is to be dealt now")
        dealt = set(need.positions())
        known = {c: p for p, c in enumerate(self.card_at) if c != UNKNOWN}
        for p, c in values.items():
            if not is_action(p) or p not in dealt:
                raise FulfilError(f"position {p!r} is not dealt now")
            if not is_action(c) or c not in DECK:
                raise FulfilError(f"{c!r} is not a card of this deck")
            if known.get(c, p) != p:
                raise FulfilError(f"{card_text(c)} is dealt twice")
            known[c] = p
        for p, c in values.items():
            self.card_at[p] = c
        self._public.append(("deal", need.hands))
        self._need = None
        self._phase = _PLAY
        self._to_act = self._order[0]

    # ---- facts

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self._phase]

    @property
    def phase_rule(self) -> str:
        return PHASE_RULES[self._phase]

    @property
    def seats(self) -> tuple[int, ...]:
        return self._seats

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The current trick as (seat, card) in play order."""
        return tuple((s, c) for s, c, _ in self._trick())

    def hand(self, seat: int) -> tuple[Card, ...]:
        return tuple(self.card_at[p] for p in self.hand_positions(seat) if self.card_at[p] != UNKNOWN)

    def hand_positions(self, seat: int) -> tuple[int, ...]:
        if not is_action(seat) or not 0 <= seat < self.rules.players:
            raise GameError(f"no seat {seat!r}")
        return () if self._phase == _DEAL else self._left(seat)

    def view(self, seat: int) -> TricksView:
        if not is_action(seat) or not 0 <= seat < self.rules.players:
            raise GameError(f"no seat {seat!r}")
        masked = self.clone()
        shown = set(self._own[seat]) | {p for _, _, p in self._played}
        masked.card_at = [c if p in shown else UNKNOWN for p, c in enumerate(self.card_at)]
        hand = self.hand(seat)
        seen = set(hand) | {c for _, c, _ in self._played}
        legal: tuple[Action, ...] = ()
        if self._to_act == seat:
            try:
                legal = tuple(self.legal_actions())
            except GameError:
                legal = ()
        return TricksView(
            seat=seat, to_act=self._to_act, hand=hand, legal_actions=legal,
            unknown_positions=tuple(p for p, c in enumerate(masked.card_at) if c == UNKNOWN),
            unseen_cards=tuple(c for c in DECK if c not in seen), _masked=masked,
            phase=self.phase_name, dealer=self._dealer, seats=self._seats,
            hand_sizes=tuple(len(self.hand_positions(s)) for s in range(self.rules.players)),
            trick=tuple((s, c) for s, c, _ in self._trick()), tricks_won=tuple(self._taken))


class TricksMatch(Match):
    """``hands`` hands; the deal passes clockwise; a point per trick; a seat away is not dealt in."""

    rules: TricksRules

    def __init__(self, rules: TricksRules, first_dealer: int = 0, *,
                 points: tuple[int, ...] | None = None, played: int = 0, away: tuple[int, ...] = (),
                 voided: int = 0, abandoned: bool = False) -> None:
        self.rules = rules
        self.dealer = first_dealer
        self.points = points if points is not None else (0,) * rules.players
        self.played = played
        self.away = away
        self.voided = voided
        self._abandoned = abandoned

    def _with(self, **changes: Any) -> TricksMatch:
        dealer = changes.pop("dealer", self.dealer)
        fields: dict[str, Any] = {"points": self.points, "played": self.played, "away": self.away,
                                  "voided": self.voided, "abandoned": self._abandoned}
        fields.update(changes)
        return TricksMatch(self.rules, dealer, **fields)

    @property
    def seated(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.rules.players) if s not in self.away)

    @property
    def abandoned(self) -> bool:
        return self._abandoned

    @property
    def over(self) -> bool:
        return self._abandoned or self.played >= self.rules.hands or len(self.seated) < 2

    def hands_left(self) -> int | None:
        return self.rules.hands - self.played

    def _setup(self) -> dict[str, Any]:
        setup: dict[str, Any] = {"dealer": next_taking_part(self.dealer, self.seated, self.rules.players),
                                 "hand": self.played}
        if len(self.seated) < self.rules.players:
            setup["seats"] = self.seated
        if self.voided:
            setup["voided"] = self.voided
        return setup

    def new_hand(self) -> TricksState:
        if self.over:
            raise GameError("the match is over")
        return self.rules.new_hand(self._setup())

    def settle(self, state: HandState) -> TricksMatch:
        if self.over:
            raise GameError("the match is over")
        if state.rules.name != NAME or state.rules.options != self.rules.options:
            raise GameError("that hand belongs to another game")
        if dict(state.setup) != self._setup():
            raise GameError("that hand is not this match's next hand")
        result = state.result
        if state.to_act != TERMINAL or not isinstance(result, TricksResult):
            raise GameError("the hand is not finished")
        points = tuple(p + t for p, t in zip(self.points, result.tricks, strict=True))
        return self._with(dealer=(state.dealer + 1) % self.rules.players, points=points,
                          played=self.played + 1)

    def without(self, seat: int) -> TricksMatch:
        seat = self._seat(seat)
        return self._with(away=tuple(sorted({*self.away, seat})))

    def with_seat(self, seat: int) -> TricksMatch:
        seat = self._seat(seat)
        return self._with(away=tuple(s for s in self.away if s != seat))

    def void_hand(self) -> TricksMatch:
        return self._with(voided=self.voided + 1)

    def abandon(self) -> TricksMatch:
        return self._with(abandoned=True)

    def standings(self) -> Standings:
        seats = tuple(SeatStanding(s, self.points[s], None, "away" if s in self.away else "playing")
                      for s in range(self.rules.players))
        return Standings(NAME, seats, self.played, self.over, self._abandoned)

    def summary(self) -> str:
        return f"after {self.played} of {self.rules.hands} hands: {self.standings().summary()}"
