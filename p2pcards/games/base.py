"""The contract every game engine fulfils.

A game is a ``Rules`` object (``games.load(name, **options)``).  A match is a sequence of hands;
``rules.new_match(first_dealer)`` gives a ``Match``, ``match.new_hand()`` the ``HandState`` of its
next hand and ``match.settle(state)`` the match after that hand.

A ``HandState`` is a mutable state machine, modelled on OpenSpiel's State: at any time exactly one
thing is awaited (``to_act``):

* a seat number ``>= 0``: that seat must choose one of ``legal_actions()``; ``apply(action)``;
* ``CHANCE``: the dealer must fulfil ``need`` (deal positions to seats, disclose them to their owner,
  or reveal them to everyone); ``fulfil(values)`` with the card values this replica learns;
* ``TERMINAL``: the hand is over and ``result`` says how it ended.

Cards live at *deck positions*.  A replica may not know the card at a position (``UNKNOWN``): the
engine then applies every check it can and defers the rest (following suit needs the player's whole
hand); ``audit`` replays a hand with every value known and names the seat and the rule at fault.

Everything here is deterministic: integers only, no sets iterated, no clock, no ``random``.
States are mutated in place for speed (computer players apply millions of moves); ``clone()`` is
cheap.  Actions are small integers with a stable text form per game.
"""

from __future__ import annotations

import copy
import hashlib
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from p2pcards.games.cards import Card, CardError, card_text, parse_card

Action = int
"""An action is a plain ``int`` (never a ``bool``, a float or a string): see ``is_action``."""
UNKNOWN = -1
"""The value of a deck position this replica does not know."""

CHANCE = -1
"""``to_act`` when the dealer must fulfil ``need``."""
TERMINAL = -2
"""``to_act`` when the hand is over."""




def is_action(x: object) -> bool:
    """Whether ``x`` can be an action: an ``int`` that is not a ``bool`` (``True`` and ``1.0`` hash and
    compare like ``1``, so a lookup table alone would take them)."""
    return x.__class__ is int


# --------------------------------------------------------------------------- errors


class GameError(Exception):
    """Base of every error the rules raise on bad input."""


class OptionError(GameError):
    """An unknown option, or a value out of range."""


class ActionError(GameError):
    """An action that cannot be read or is not allowed now.  The state is unchanged."""

    def __init__(self, message: str, *, seat: int | None = None, rule: str | None = None,
                 legal: Sequence[str] = ()) -> None:
        self.seat = seat
        self.rule = rule
        self.legal = tuple(legal)
        full = message
        if rule:
            full = f"{message} ({rule})"
        if self.legal:
            full += "; legal now: " + ", ".join(self.legal)
        super().__init__(full)
        self.reason = message


class IllegalAction(ActionError):
    """A well-formed action that the rules forbid now."""


class FulfilError(GameError):
    """A need fulfilled with values that do not fit it (wrong positions, a card twice, ...)."""


# --------------------------------------------------------------------------- needs


@dataclass(frozen=True, slots=True)
class Deal:
    """Give deck positions to seats.  With ``disclose`` each owner learns its cards at once
    (every other seat publishes its decryption shares); without it the positions are only assigned
    (a blind Azi player) and a later ``Disclose`` opens them to their owner."""

    hands: tuple[tuple[int, tuple[int, ...]], ...]
    disclose: bool = True

    def positions(self) -> tuple[int, ...]:
        return tuple(p for _, ps in self.hands for p in ps)


@dataclass(frozen=True, slots=True)
class Disclose:
    """Let ``seat`` learn the cards at positions it already holds (an Azi player who looks)."""

    seat: int
    positions: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Reveal:
    """Show the cards at these positions to everyone (a trump turned up)."""

    positions: tuple[int, ...]


Need = Deal | Disclose | Reveal


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A hand as data: enough to replay it to the same digest.

    ``deck`` holds, per position, the card this replica knew (``UNKNOWN`` otherwise); a record whose
    deck is complete is what the audit replays.  ``actions`` are (seat, text) in the order applied.
    """

    game: str
    options: tuple[tuple[str, Any], ...]
    setup: tuple[tuple[str, Any], ...]
    deck: tuple[int, ...]
    actions: tuple[tuple[int, str], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": [list(kv) for kv in self.options],
            "setup": [[k, _plain(v)] for k, v in self.setup],
            "deck": list(self.deck),
            "actions": [list(a) for a in self.actions],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> HandRecord:
        try:
            return cls(
                game=str(d["game"]),
                options=tuple((str(k), v) for k, v in d["options"]),
                setup=tuple((str(k), _frozen(v)) for k, v in d["setup"]),
                deck=tuple(int(c) for c in d["deck"]),
                actions=tuple((int(s), str(t)) for s, t in d["actions"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise GameError(f"not a hand record: {exc}") from exc


def _plain(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v


def _frozen(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_frozen(x) for x in v)
    return v


@dataclass(frozen=True, slots=True)
class AuditResult:
    """The verdict of replaying a hand with every needed card known."""

    ok: bool
    seat: int | None = None
    rule: str | None = None
    step: int | None = None
    message: str = ""
    digest: bytes = b""

    def __str__(self) -> str:
        if self.ok:
            return "audit passed: every move was legal"
        return f"audit failed at move {self.step}: seat {self.seat} broke {self.rule}: {self.message}"


# --------------------------------------------------------------------------- canonical hashing


def canonical(obj: Any) -> bytes:
    """A language-neutral, unambiguous byte encoding of ints, strings, bytes, bools, None and sequences."""
    out = bytearray()
    _encode(obj, out)
    return bytes(out)


def _encode(obj: Any, out: bytearray) -> None:
    if obj is None:
        out += b"N"
    elif obj is True or obj is False:
        out += b"T" if obj else b"F"
    elif isinstance(obj, int):
        raw = str(obj).encode()
        out += b"i" + len(raw).to_bytes(2, "big") + raw
    elif isinstance(obj, str):
        raw = obj.encode()
        out += b"s" + len(raw).to_bytes(4, "big") + raw
    elif isinstance(obj, bytes):
        out += b"b" + len(obj).to_bytes(4, "big") + obj
    elif isinstance(obj, (tuple, list)):
        out += b"l" + len(obj).to_bytes(4, "big")
        for x in obj:
            _encode(x, out)
    else:
        raise TypeError(f"cannot encode {type(obj).__name__} canonically")


# --------------------------------------------------------------------------- views


@dataclass(slots=True)
class View:
    """What one seat may know.  The base fields are common to every game; each game's view
    subclass adds its public state.  ``determinize`` builds a full-information state for search."""

    seat: int
    to_act: int
    hand: tuple[Card, ...]
    """The seat's own cards it has seen (its unseen own positions are in ``unknown_positions``)."""
    legal_actions: tuple[Action, ...]
    unknown_positions: tuple[int, ...]
    """Deck positions the seat cannot see but that matter for play (others' hands, the stock)."""
    unseen_cards: tuple[Card, ...]
    """The cards that may be at those positions (the deck minus everything this seat has seen)."""
    _masked: HandState = field(repr=False)
    phase: str
    """The phase of the hand, one of the game's ``PHASE_NAMES`` (``deal``, ..., ``over``)."""
    dealer: int
    seats: tuple[int, ...]
    """The seats dealt into this hand, ascending (every seat unless some are away)."""
    hand_sizes: tuple[int, ...]
    """Per seat of the table, how many cards it holds."""

    @property
    def masked(self) -> HandState:
        """The seat's knowledge as a state of the game: every card it cannot see is unknown.  A player
        of one game reads its game's public fields from it; read it, never change it (``determinize``
        gives a state of one's own)."""
        return self._masked

    def determinize(self, assignment: Mapping[int, Card] | Sequence[Card]) -> HandState:
        """A full-information state equal to the seat's knowledge plus ``assignment``.

        ``assignment`` maps every unknown position to a card, or is a sequence of cards given to
        ``unknown_positions`` in order.  The result is independent of the original state.
        """
        st = self._masked.clone()
        known = st.card_at
        if isinstance(assignment, Mapping):
            for p, c in assignment.items():
                known[p] = c
        else:
            if len(assignment) != len(self.unknown_positions):
                raise GameError("the assignment must give a card to every unknown position")
            for p, c in zip(self.unknown_positions, assignment, strict=True):
                known[p] = c
        st._after_determinize()
        return st


# --------------------------------------------------------------------------- the rules


class Rules(ABC):
    """A game with its options: the factory of matches and hands, and the action vocabulary."""

    name: ClassVar[str]
    rule_codes: ClassVar[tuple[str, ...]] = ()
    """The numbered rules of the game's rulebook (``D1``.., ``S1``.., ``A1``..): every ``ActionError``
    the engine raises from ``apply``, and every failed audit, names one of them."""
    deal_rule: ClassVar[str] = ""
    """The rule of the deal: what an audit names when the cards themselves do not fit."""
    deck: tuple[Card, ...]
    options: tuple[tuple[str, Any], ...]

    @abstractmethod
    def new_match(self, first_dealer: int = 0) -> Match: ...

    @abstractmethod
    def new_hand(self, setup: Mapping[str, Any]) -> HandState:
        """The first state of a hand from its setup (dealer, stacks, carried pot, ...)."""

    @abstractmethod
    def action_text(self, action: Action) -> str: ...

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Read an action's text form; raise ``ActionError`` naming the forms on nonsense."""

    @property
    def players(self) -> int:
        return int(dict(self.options).get("players", 4))

    def summarize(self, actions: Sequence[Action]) -> list[str]:
        """The actions as short text for a person: every action's text, except that a game with
        amounts (Azi) writes a run of them as ``raise 1..980``."""
        return [self.action_text(a) for a in actions]

    def parse_card(self, text: str) -> Card:
        try:
            return parse_card(text, self.deck)
        except CardError as exc:
            raise ActionError(str(exc)) from exc

    def option(self, name: str) -> Any:
        return dict(self.options)[name]

    def replay(self, record: HandRecord) -> HandState:
        """Play a recorded hand again: every need is fulfilled with the values ``record.deck`` knows,
        actions are applied in order.  Raises ``ActionError`` on the first action that is not legal."""
        state = self._start_replay(record)
        self._replay_into(state, record)
        return state

    def audit(self, record: HandRecord) -> AuditResult:
        """Replay with every value the record knows: accept an honest hand, or name the seat, the move
        and the rule broken.  A renege that a partial-information replica had to accept shows here."""
        state = self._start_replay(record)
        try:
            self._replay_into(state, record)
        except ActionError as exc:
            step = state.moves_applied
            seat = exc.seat if exc.seat is not None else record.actions[step][0]
            return AuditResult(False, seat=seat, rule=exc.rule, step=step, message=exc.reason)
        except FulfilError as exc:
            return AuditResult(False, rule=self.deal_rule, step=state.moves_applied, message=str(exc))
        return AuditResult(True, digest=state.digest())

    def _start_replay(self, record: HandRecord) -> HandState:
        if record.game != self.name or record.options != self.options:
            raise GameError("the record belongs to another game or to other options")
        if len(record.deck) != len(self.deck):
            raise GameError(f"the record's deck has {len(record.deck)} positions, not {len(self.deck)}")
        return self.new_hand(dict(record.setup))

    def _replay_into(self, state: HandState, record: HandRecord) -> None:
        deck = record.deck
        actions = record.actions
        while True:
            to_act = state.to_act
            if to_act == CHANCE:
                need = state.need
                assert need is not None
                ps = need.positions() if isinstance(need, Deal) else need.positions
                state.fulfil({p: deck[p] for p in ps if deck[p] != UNKNOWN})
                continue
            i = state.moves_applied
            if i >= len(actions):
                return
            seat, text = actions[i]
            if to_act == TERMINAL:
                raise ActionError(f"move {i}: the hand is over but the record goes on", seat=seat,
                                  rule=state.phase_rule)
            if seat != to_act:
                raise ActionError(f"move {i}: seat {seat} acted but seat {to_act} was awaited",
                                  seat=seat, rule=state.phase_rule)
            try:
                action = self.parse_action(text)
            except ActionError as exc:  # a move that cannot even be read breaks the rule of its phase
                raise ActionError(f"move {i}: {exc.reason}", seat=seat, rule=state.phase_rule) from None
            state.apply(action)


# --------------------------------------------------------------------------- matches


@dataclass(frozen=True, slots=True)
class SeatStanding:
    """One seat's line of the standings."""

    seat: int
    score: int
    """Durak: series points; Spades: the seat's team's score; Azi: the seat's chips."""
    team: int | None = None
    """Spades: the seat's team (0 is seats 0 and 2, 1 is seats 1 and 3); None in the other games."""
    status: str = "playing"
    """``playing``; ``away`` (taken out by ``Match.without``: frozen, not dealt in); ``out`` (Azi,
    A15: cannot pay the ante, for the rest of the match); ``dummy`` (Spades: an open dummy)."""


SEAT_STATUSES: tuple[str, ...] = ("playing", "away", "out", "dummy")


@dataclass(frozen=True, slots=True)
class Standings:
    """Where a match stands between hands: for display, and for the seal a table signs after each hand."""

    game: str
    seats: tuple[SeatStanding, ...]
    """One line per seat of the table, in seat order."""
    hands_played: int
    over: bool
    abandoned: bool
    extra: tuple[tuple[str, int], ...] = ()
    """Game-specific figures, sorted by name: Spades ``bags 0`` and ``bags 1``, Azi ``pot`` (a pot an
    azi carries into the next hand)."""

    def ranking(self) -> tuple[SeatStanding, ...]:
        """The seats highest score first (ties in seat order)."""
        return tuple(sorted(self.seats, key=lambda s: (-s.score, s.seat)))

    def encode(self) -> tuple[Any, ...]:
        """A canonical value of ints, strings and tuples only (``canonical`` turns it into bytes)."""
        return ("p2pcards/standings/v1", self.game,
                tuple((s.seat, s.score, -1 if s.team is None else s.team, s.status) for s in self.seats),
                self.hands_played, 1 if self.over else 0, 1 if self.abandoned else 0, self.extra)

    def digest(self) -> bytes:
        return hashlib.sha256(canonical(self.encode())).digest()

    def summary(self) -> str:
        parts = []
        for s in self.ranking():
            tag = "" if s.status == "playing" else f" ({s.status})"
            parts.append(f"seat {s.seat} {s.score}{tag}")
        return ", ".join(parts)


def next_taking_part(dealer: int, seated: Sequence[int], n: int) -> int:
    """``dealer`` if it takes part in the next hand, else the next seat clockwise that does."""
    for i in range(n):
        s = (dealer + i) % n
        if s in seated:
            return s
    return dealer


class Match(ABC):
    """A sequence of hands with what carries between them (scores, bags, chips, the dealer).

    Matches are immutable: ``settle``, ``without``, ``with_seat``, ``void_hand`` and ``abandon`` each
    return a new match.  The seating contract (the game going on without a seat):

    * ``seated``: the seats that take part in the next hand, ascending;
    * ``dummies``: Spades' open dummies (always ``()`` in the other games);
    * ``without(seat)`` / ``with_seat(seat)``: from the next hand on the seat takes no part / is back;
    * ``void_hand()``: the hand being played counts for nothing and is not counted as played;
    * ``abandon()``: the match ends now (``over`` and ``abandoned``);
    * ``standings()``: per seat its score or chips, with a canonical encoding a table can hash.
    """

    rules: Rules

    @property
    @abstractmethod
    def over(self) -> bool: ...

    @abstractmethod
    def new_hand(self) -> HandState: ...

    @abstractmethod
    def settle(self, state: HandState) -> Match:
        """The match after ``state`` (a finished hand); ``self`` is not changed."""

    @abstractmethod
    def summary(self) -> str:
        """The standings in a line or two of plain text."""

    @property
    @abstractmethod
    def seated(self) -> tuple[int, ...]: ...

    @property
    def dummies(self) -> tuple[int, ...]:
        return ()

    def hands_left(self) -> int | None:
        """The hands still to deal, the next one included, where the rules fix their number (a Durak
        series); None where they do not (a score to reach, chips to lose)."""
        return None

    @property
    @abstractmethod
    def abandoned(self) -> bool: ...

    @abstractmethod
    def without(self, seat: int) -> Self: ...

    @abstractmethod
    def with_seat(self, seat: int) -> Self: ...

    @abstractmethod
    def void_hand(self) -> Self: ...

    @abstractmethod
    def abandon(self) -> Self: ...

    @abstractmethod
    def standings(self) -> Standings: ...

    def _seat(self, seat: object) -> int:
        n = self.rules.players
        if not is_action(seat) or not 0 <= seat < n:  # type: ignore[operator]
            raise GameError(f"no seat {seat!r} at a table of {n} (seats 0 to {n - 1})")
        return seat  # type: ignore[return-value]


# --------------------------------------------------------------------------- hand states


class _DigestCache(tuple[int, Any]):
    """``(events hashed, hasher)``: what ``HandState.digest`` extends.  A hasher cannot be pickled, so
    a pickled state (a view sent to a computer player's process) carries no cache and rebuilds it."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return _no_digest_cache, ()


def _no_digest_cache() -> None:
    return None


class HandState(ABC):
    """One hand of a game on one replica.  See the module docstring for the protocol."""

    rules: Rules
    setup: tuple[tuple[str, Any], ...]
    card_at: list[int]
    """Per deck position, the card this replica knows there, or ``UNKNOWN``."""
    _public: list[tuple[Any, ...]]
    """The public history: every fulfilled need (its public part) and every action, in order."""
    _actions: list[tuple[int, Action]]
    """(seat, action) of every action applied, in order."""

    _copied_lists: ClassVar[tuple[str, ...]] = ()
    """Names of list attributes ``clone`` must copy (one level deep); the rest is shared or immutable."""
    _searching: bool = False
    """A search copy (an engine's ``search_copy``): it keeps no history, so it has no digest or record."""

    # ---- what is awaited

    @property
    @abstractmethod
    def to_act(self) -> int: ...

    @property
    @abstractmethod
    def need(self) -> Need | None: ...

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """The actions of the seat to act (needs its hand known; empty when no seat is to act)."""

    @property
    @abstractmethod
    def result(self) -> Any:
        """The game's result object once ``to_act == TERMINAL``, else None."""

    # ---- moving on

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Apply the seat to act's action, or raise ``ActionError`` and change nothing."""

    @abstractmethod
    def reveals(self, action: Action) -> tuple[int, ...]:
        """The deck positions whose cards ``action`` shows to everyone (a card played, a trump shown).

        Asked on the replica of the seat to act, which knows its cards; the table sends the owner's
        decryption shares for these positions with the action, and every replica ``observe``s them
        before it applies the action."""

    @abstractmethod
    def zones(self) -> list[tuple[str, tuple[int, ...]]]:
        """Where every deck position is now, as named zones (``hand 0``, ``talon``, ``trick``,
        ``discard``, ``undealt``...).  The zones partition the deck: each position in exactly one."""

    @abstractmethod
    def fulfil(self, values: Mapping[int, Card]) -> None:
        """Fulfil ``need`` with the values this replica learns (all of them for a ``Reveal``)."""

    def fulfil_known(self) -> None:
        """Fulfil ``need`` with the values this replica already holds: a determinized state (see
        ``View.determinize``) knows every card, so a search plays on without a dealer."""
        need = self.need
        if need is None:
            raise FulfilError("nothing is to be dealt or revealed now")
        ps = need.positions() if isinstance(need, Deal) else need.positions
        known = self.card_at
        self.fulfil({p: known[p] for p in ps if known[p] != UNKNOWN})

    def observe(self, position: int, c: Card) -> None:
        """Learn the card at a position (a card being played is revealed by its owner's share)."""
        if not 0 <= position < len(self.card_at):
            raise FulfilError(f"no deck position {position}")
        if c not in self.rules.deck:
            raise FulfilError(f"{c} is not a card of this deck")
        known = self.card_at[position]
        if known == c:
            return
        if known != UNKNOWN:
            raise FulfilError(f"position {position} holds {card_text(known)}, not {card_text(c)}")
        if c in self.card_at:
            raise FulfilError(f"{card_text(c)} is already known at another position")
        self.card_at[position] = c

    @property
    def moves_applied(self) -> int:
        return len(self._actions)

    def parse(self, text: str) -> Action:
        """Read an action as this replica may (an engine can accept more here than ``rules.parse_action``:
        Azi turns ``discard 7H`` of a card the seat has seen into the secret-keeping ``discard #k``)."""
        return self.rules.parse_action(text)

    def apply_text(self, text: str) -> Action:
        a = self.parse(text)
        self.apply(a)
        return a

    def legal_texts(self) -> list[str]:
        return [self.rules.action_text(a) for a in self.legal_actions()]

    def legal_summary(self) -> list[str]:
        """The legal actions in the compact text of ``rules.summarize`` (what a prompt shows)."""
        return self.rules.summarize(self.legal_actions())

    @property
    def moves(self) -> tuple[tuple[int, Action], ...]:
        """(seat, action) of every action applied, in order."""
        return tuple(self._actions)

    @property
    def history(self) -> tuple[tuple[Any, ...], ...]:
        """The public history the digest hashes: every fulfilled need (its public part) and action."""
        return tuple(self._public)

    @property
    @abstractmethod
    def phase_name(self) -> str:
        """The phase of the hand, one of the game's ``PHASE_NAMES`` (the same word in the view)."""

    @property
    @abstractmethod
    def phase_rule(self) -> str:
        """The rule of the current phase: what an error names when it breaks no more specific rule."""

    @property
    @abstractmethod
    def seats(self) -> tuple[int, ...]:
        """The seats dealt into this hand, ascending."""

    @property
    @abstractmethod
    def dealer(self) -> int: ...

    @abstractmethod
    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards this replica knows in ``seat``'s hand, in the order the seat received them."""

    @abstractmethod
    def hand_positions(self, seat: int) -> tuple[int, ...]:
        """The deck positions in ``seat``'s hand, known or not."""

    # ---- copies and knowledge

    def clone(self) -> Self:
        """An independent copy.  Engines list their mutable list attributes in ``_copied_lists``
        (copied one level deep: a list of lists gets fresh inner lists)."""
        new = copy.copy(self)
        new.card_at = list(self.card_at)
        new._public = list(self._public)
        new._actions = list(self._actions)
        for name in self._copied_lists:
            setattr(new, name, [list(x) if isinstance(x, list) else x for x in getattr(self, name)])
        return new

    def _after_determinize(self) -> None:
        """Hook for engines that cache per-card data derived from ``card_at``."""
        return None

    @abstractmethod
    def view(self, seat: int) -> View: ...

    # ---- identity

    def digest(self) -> bytes:
        """SHA-256 of the replicated (public) state: game, options, setup and public history.

        The hash runs over ``canonical(game, options, setup)`` and then each public event's
        canonical encoding in turn (each is self-delimiting), so it can be extended as events are
        appended: asking for the digest after every step costs one event each time, not the whole
        history.  The cached hasher is never updated in place, so clones may share it."""
        if self._searching:
            raise GameError("a search copy keeps no history: it has no digest")
        cached = self.__dict__.get("_digest_cache")
        if cached is None:
            count, hasher = 0, hashlib.sha256(b"p2pcards/hand/v1")
            hasher.update(canonical((self.rules.name, self.rules.options, self.setup)))
        else:
            count, hasher = cached
        public = self._public
        if count > len(public):  # a history that shrank: an engine that rebuilt it, start again
            self.__dict__.pop("_digest_cache", None)
            return self.digest()
        hasher = hasher.copy()
        for event in public[count:]:
            hasher.update(canonical(event))
        self.__dict__["_digest_cache"] = _DigestCache((len(public), hasher.copy()))
        return hasher.digest()

    def record(self) -> HandRecord:
        if self._searching:
            raise GameError("a search copy keeps no history: it has no record")
        text = self.rules.action_text
        return HandRecord(self.rules.name, self.rules.options, self.setup, tuple(self.card_at),
                          tuple((seat, text(a)) for seat, a in self._actions))

    # ---- helpers for engines

    def _illegal(self, message: str, rule: str, seat: int | None = None) -> IllegalAction:
        try:
            legal = self.legal_summary() if self.to_act >= 0 else []
        except GameError:
            legal = []
        return IllegalAction(message, seat=self.to_act if seat is None else seat, rule=rule, legal=legal)
