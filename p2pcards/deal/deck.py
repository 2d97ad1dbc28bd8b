"""Card points, masked decks and the initial deck anyone can recompute.

A position of the deck holds an ElGamal ciphertext ``(A, B) = (r·G, M + r·H)`` of a card point ``M``
under the joint key ``H``.  The initial deck uses ``r = 1`` for every card: ``(G, M_c + H)``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from p2pcards.deal.codec import expect_bytes, expect_list
from p2pcards.deal.errors import DecryptError, EncodingError, UsageError
from p2pcards.deal.group import POINT_SIZE, G, Point, msm
from p2pcards.deal.hashing import hash_to_curve

__all__ = [
    "CIPHERTEXT_SIZE",
    "MAX_CARDS",
    "CardTable",
    "Ciphertext",
    "Deck",
    "card_label",
    "card_point",
    "card_table",
    "initial_deck",
]

#: How many card points there are: a card is an id 0..51 (what a card *is* belongs to the rules, in
#: ``p2pcards.games.cards``; the deal needs only the count, and knows nothing of the rules).
MAX_CARDS: Final = 52
CIPHERTEXT_SIZE: Final = 2 * POINT_SIZE


def card_label(card: int) -> bytes:
    """The public label of card ``card``'s point: ``p2pcards/card/<id in decimal>``."""
    return b"p2pcards/card/%d" % card


def card_point(card: int) -> Point:
    if type(card) is not int or not 0 <= card < MAX_CARDS:
        raise UsageError(f"a card id is an integer in [0, {MAX_CARDS})")
    return hash_to_curve(card_label(card))


@dataclass(frozen=True, slots=True, eq=False)
class CardTable:
    """The cards of a game's deck, their points, and the reverse lookup point → card."""

    cards: tuple[int, ...]
    points: tuple[Point, ...]
    _by_point: dict[bytes, int]

    def __len__(self) -> int:
        return len(self.cards)

    def card_of(self, point: Point) -> int:
        """The card whose point is ``point``; ``DecryptError`` if it is none of this deck's cards."""
        if point.is_identity or (card := self._by_point.get(point.encode())) is None:
            raise DecryptError("the unmasked point is not a card of this deck")
        return card


def card_table(cards: Sequence[int]) -> CardTable:
    """The table of ``cards`` (any subset of the 52 ids, in the game's order, each at most once)."""
    return _card_table(tuple(cards))


@cache
def _card_table(cards: tuple[int, ...]) -> CardTable:
    if not 1 <= len(cards) <= MAX_CARDS:
        raise UsageError(f"a deck has 1 to {MAX_CARDS} cards")
    points = tuple(card_point(c) for c in cards)
    by_point = {p.encode(): c for c, p in zip(cards, points, strict=True)}
    if len(by_point) != len(cards):
        dup = next(c for i, c in enumerate(cards) if c in cards[:i])
        raise UsageError(f"card id {dup} appears twice in the deck")
    return CardTable(cards, points, by_point)


@dataclass(frozen=True, slots=True)
class Ciphertext:
    """``(A, B) = (r·G, M + r·H)``.  Wire form: ``A ‖ B`` (66 bytes)."""

    A: Point
    B: Point

    def encode(self) -> bytes:
        return self.A.encode() + self.B.encode()

    @staticmethod
    def decode(obj: object) -> Ciphertext:
        data = expect_bytes(obj, CIPHERTEXT_SIZE, "ciphertext")
        return Ciphertext(Point.decode(data[:POINT_SIZE]), Point.decode(data[POINT_SIZE:]))

    def remask(self, r: int, joint: Point) -> Ciphertext:
        """``(A + r·G, B + r·H)``: the same card under fresh randomness."""
        return Ciphertext(msm((), (), base=r, plus=(self.A,)), msm((r,), (joint,), plus=(self.B,)))


@dataclass(frozen=True, slots=True)
class Deck:
    """The masked deck: one ciphertext per position.  Wire form: a list of 66-byte ``A ‖ B`` values."""

    positions: tuple[Ciphertext, ...]

    def __len__(self) -> int:
        return len(self.positions)

    def __getitem__(self, position: int) -> Ciphertext:
        return self.positions[position]

    def __iter__(self) -> Iterator[Ciphertext]:
        return iter(self.positions)

    def encode(self) -> bytes:
        """All positions back to back (what the Fiat–Shamir hashes bind)."""
        return b"".join(ct.encode() for ct in self.positions)

    def to_wire(self) -> list[bytes]:
        return [ct.encode() for ct in self.positions]

    @staticmethod
    def from_wire(obj: object, size: int) -> Deck:
        """Decode a deck that must have exactly ``size`` positions."""
        items = expect_list(obj, size, "deck")
        try:
            return Deck(tuple(Ciphertext.decode(item) for item in items))
        except EncodingError as exc:
            raise EncodingError(f"deck: {exc}") from None

    def position(self, position: object) -> Ciphertext:
        """The ciphertext at ``position``, checking a position that came from a peer."""
        if type(position) is not int or not 0 <= position < len(self.positions):
            shown = position if type(position) is int else type(position).__name__
            raise EncodingError(f"no position {shown} in a deck of {len(self.positions)}")
        return self.positions[position]


def initial_deck(cards: CardTable, joint: Point) -> Deck:
    """``(G, M_c + H)`` for every card, in the table's order: public, anyone recomputes it."""
    return Deck(tuple(Ciphertext(G, m + joint) for m in cards.points))
