"""What the Durak players share: card strength and what a seat may know from its view."""

from __future__ import annotations

from dataclasses import dataclass

from p2pcards.games.base import UNKNOWN
from p2pcards.games.cards import Card
from p2pcards.games.durak import actions as A
from p2pcards.games.durak.state import DurakView, beats

TRUMP_BONUS = 13


def strength(c: Card, trump: int) -> int:
    """The order a player ranks its cards in: non-trumps 6..A as 4..12, then trumps 6..A as 17..25."""
    r = c % 13
    return r + TRUMP_BONUS if c // 13 == trump else r


def lowest(cards: list[Card] | tuple[Card, ...], trump: int) -> Card:
    """The weakest card (a non-trump before any trump; ties by card id, so never by chance)."""
    return min(cards, key=lambda c: (strength(c, trump), c))


def beaters(cards: list[Card] | tuple[Card, ...], attack: Card, trump: int) -> list[Card]:
    return [c for c in cards if beats(c, attack, trump)]


def split(action: int) -> tuple[int, Card, Card]:
    """``(kind, card, defence card)`` of an action known to be legal (no deck check: fast)."""
    if action >= A.TRANSFER:
        return A.K_TRANSFER, action - A.TRANSFER, -1
    if action >= A.BEAT:
        a, d = divmod(action - A.BEAT, 64)
        return A.K_BEAT, a, d
    if action == A.TAKE:
        return A.K_TAKE, -1, -1
    if action == A.PASS:
        return A.K_PASS, -1, -1
    if action == A.SHOW_NONE:
        return A.K_SHOW_NONE, -1, -1
    kind, c = divmod(action, 64)
    return (A.K_ATTACK, A.K_ADD, A.K_SHOW)[kind], c, -1


@dataclass(slots=True)
class Seen:
    """A seat's view, flattened for the heuristics."""

    me: int
    hand: tuple[Card, ...]
    trump: int
    talon: int
    attacker: int
    defender: int
    taking: bool
    unbeaten: tuple[Card, ...]
    table: tuple[Card, ...]
    """Every card on the table (attack and defence)."""
    attacks: int
    limit: int
    sizes: tuple[int, ...]
    known: tuple[tuple[Card, ...], ...]
    unseen: tuple[Card, ...]
    """Cards this seat cannot place: in others' hidden hand cards or the hidden talon."""
    out: int
    """Mask of seats that are out."""

    @classmethod
    def of(cls, view: DurakView) -> Seen:
        unbeaten = tuple(a for a, d in view.table if d == UNKNOWN)
        table = tuple(a for a, _ in view.table) + tuple(d for _, d in view.table if d != UNKNOWN)
        out = 0
        for group in view.out_order:
            for s in group:
                out |= 1 << s
        return cls(view.seat, view.hand, view.trump_suit, view.talon_size, view.attacker, view.defender,
                   view.taking, unbeaten, table, len(view.table), view.limit, view.hand_sizes,
                   view.known_cards, view.unseen_cards, out)

    def hidden_count(self, seat: int) -> int:
        """How many of ``seat``'s cards this seat cannot see."""
        return self.sizes[seat] - len(self.known[seat])
