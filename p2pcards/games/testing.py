"""Helpers for tests of the rules, the same for every game: deal these cards to these seats, play
these moves by their text, build the audit record of a hand (the examples run in the suite).

    >>> hand = deal("durak", {0: "6C 7C 8C 9C TC JC", 1: "6D 7D 8D 9D TD JD"}, rest="9S", players=2)
    >>> hand.play("show none", "show none").legal  # seat 1 attacks first
    ['attack 6D', 'attack 7D', 'attack 8D', 'attack 9D', 'attack TD', 'attack JD']
    >>> hand.play("attack 6D").legal  # seat 0 holds only clubs and no trump (spades): it must take
    ['take']
    >>> hand.play("take").state.to_act, hand.legal, hand.audit().ok
    (1, ['pass'], True)
    >>> hand.play("attack 7D")  # an illegal move raises, naming the rule and what is legal
    Traceback (most recent call last):
    p2pcards.games.base.IllegalAction: seat 1 may add a card of a rank on the table, or pass (D6); ...

The deck follows the game's own layout: the cards of ``hands`` go, in the order given, to the
positions the first ``Deal`` gives each seat (whatever set of seats the setup deals in), ``rest``
fills the positions after the dealt ones in increasing order (Durak: the face-up trump, then the
talon in drawing order; Azi: the undealt cards), and every other position gets the cards nobody named,
lowest first.  Every need is fulfilled with full information, so ``state`` is a replica that sees
everything (the dealer's view, or the audit's).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from p2pcards.games import load
from p2pcards.games.base import (
    CHANCE,
    TERMINAL,
    UNKNOWN,
    Action,
    AuditResult,
    Deal,
    GameError,
    HandRecord,
    HandState,
    Rules,
)
from p2pcards.games.cards import Card, parse_card

Cards = str | Sequence[Card]


def cards(given: Cards) -> list[Card]:
    """``"AS 10H 6D"`` (or card ids) as a list of card ids."""
    if isinstance(given, str):
        return [parse_card(word) for word in given.split()]
    return list(given)


@dataclass
class TestHand:
    """One hand with a chosen deck, played with full information."""

    __test__ = False  # not a pytest test class

    rules: Rules
    state: HandState
    hands: dict[int, list[Card]]
    rest: list[Card]
    deck: list[Card] = field(default_factory=list)
    """The whole deck order, known once the first deal is asked for."""

    # ---- driving

    def settle(self) -> TestHand:
        """Fulfil every need until a seat must act or the hand is over."""
        state = self.state
        while state.to_act == CHANCE:
            if not self.deck:
                self.deck = self._layout()
            need = state.need
            assert need is not None
            ps = need.positions() if isinstance(need, Deal) else need.positions
            state.fulfil({p: self.deck[p] for p in ps})
        return self

    def play(self, *texts: str) -> TestHand:
        """Apply moves by their text, the needs around them fulfilled (an illegal one raises)."""
        self.settle()
        for text in texts:
            self.state.apply_text(text)
            self.settle()
        return self

    def apply(self, *actions: Action) -> TestHand:
        self.settle()
        for a in actions:
            self.state.apply(a)
            self.settle()
        return self

    def play_out(self, choose: Any = None) -> TestHand:
        """Play to the end: the first legal move each time, or ``choose(state)``."""
        self.settle()
        while self.state.to_act != TERMINAL:
            legal = self.state.legal_actions()
            self.apply(legal[0] if choose is None else choose(self.state))
        return self

    @property
    def legal(self) -> list[str]:
        """The legal moves as text."""
        return self.state.legal_texts()

    # ---- records

    def record(self) -> HandRecord:
        """The audit record of the hand so far: its setup, every move, and the whole deck."""
        return record(self.rules, dict(self.state.setup), self.deck or self._layout(),
                      [(seat, self.rules.action_text(a)) for seat, a in self.state.moves])

    def audit(self) -> AuditResult:
        return self.rules.audit(self.record())

    # ---- the layout

    def _layout(self) -> list[Card]:
        need = self.state.need
        if not isinstance(need, Deal):
            raise GameError("the deck is laid out at the first deal of the hand")
        size = len(self.rules.deck)
        deck = [UNKNOWN] * size
        dealt: set[int] = set()
        for seat, positions in need.hands:
            dealt.update(positions)
            mine = self.hands.get(seat, [])
            if len(mine) > len(positions):
                raise GameError(f"seat {seat} is dealt {len(positions)} cards, not {len(mine)}")
            for p, c in zip(positions, mine, strict=False):
                deck[p] = c
        unknown_seats = sorted(set(self.hands) - {s for s, _ in need.hands})
        if unknown_seats:
            raise GameError(f"seats {unknown_seats} are not dealt into this hand")
        after = [p for p in range(size) if p not in dealt and p > max(dealt)]
        if len(self.rest) > len(after):
            raise GameError(f"only {len(after)} positions follow the deal, not {len(self.rest)}")
        for p, c in zip(after, self.rest, strict=False):
            deck[p] = c
        named = [c for c in deck if c != UNKNOWN]
        if len(set(named)) != len(named) or any(c not in self.rules.deck for c in named):
            raise GameError("a card is named twice, or is not in this game's deck")
        free = iter(c for c in self.rules.deck if c not in set(named))
        return [c if c != UNKNOWN else next(free) for c in deck]


def deal(game: str | Rules, hands: Mapping[int, Cards], rest: Cards = "", *, dealer: int = 0,
         setup: Mapping[str, Any] | None = None, **options: Any) -> TestHand:
    """A hand of ``game`` (a name and ``options``, or a rules object) whose deck deals ``hands``
    (seat -> cards, in the order each seat receives them) and ``rest`` after them; settled up to the
    first seat to act."""
    rules = load(game, **options) if isinstance(game, str) else game
    full_setup = {"dealer": dealer, **(setup or {})}
    state = rules.new_hand(full_setup)
    hand = TestHand(rules, state, {s: cards(c) for s, c in hands.items()}, cards(rest))
    return hand.settle()


def record(rules: Rules, setup: Mapping[str, Any], deck: Sequence[Card],
           moves: Sequence[tuple[int, str]] | str) -> HandRecord:
    """The record of a hand, as the audit replays it: ``moves`` are (seat, text) pairs, or a string of
    ``seat: text`` lines (``"0: bid 3\\n1: bid 4"``)."""
    if isinstance(moves, str):
        pairs = []
        for line in moves.strip().splitlines():
            seat, _, text = line.partition(":")
            pairs.append((int(seat), text.strip()))
        moves = pairs
    state = rules.new_hand(setup)
    return HandRecord(rules.name, rules.options, state.setup, tuple(deck), tuple(moves))
