"""Cards as small integers, shared by every game.

A card is ``suit * 13 + (rank - 2)``: ranks run 2..14 (J=11, Q=12, K=13, A=14) and suits are
clubs, diamonds, hearts, spades (0..3).  Every game uses a subset of these 52 ids, so a card
keeps the same number, text and symbol whatever game it is in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
SUITS: tuple[int, ...] = (CLUBS, DIAMONDS, HEARTS, SPADES)
SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

JACK, QUEEN, KING, ACE = 11, 12, 13, 14
RANKS: tuple[int, ...] = tuple(range(2, 15))
_RANK_TEXT = {10: "T", JACK: "J", QUEEN: "Q", KING: "K", ACE: "A"}
_RANK_DISPLAY = {10: "10", JACK: "J", QUEEN: "Q", KING: "K", ACE: "A"}
_RANK_FROM_TEXT = {"T": 10, "10": 10, "J": JACK, "Q": QUEEN, "K": KING, "A": ACE} | {
    str(r): r for r in range(2, 10)
}
_SUIT_FROM_TEXT = {letter: i for i, letter in enumerate(SUIT_LETTERS)} | {
    symbol: i for i, symbol in enumerate(SUIT_SYMBOLS)
}

Card = int


class CardError(ValueError):
    """A card's text could not be read."""


def card(rank: int, suit: int) -> Card:
    if rank not in RANKS or suit not in SUITS:
        raise CardError(f"no card of rank {rank} and suit {suit}")
    return suit * 13 + rank - 2


def rank_of(c: Card) -> int:
    return c % 13 + 2


def suit_of(c: Card) -> int:
    return c // 13


def card_text(c: Card) -> str:
    """The stable two-character form used on the wire and in logs: ``AS``, ``TD``, ``6H``."""
    r = rank_of(c)
    return _RANK_TEXT.get(r, str(r)) + SUIT_LETTERS[suit_of(c)]


def card_display(c: Card) -> str:
    """The form shown to people: ``A♠``, ``10♦``."""
    r = rank_of(c)
    return _RANK_DISPLAY.get(r, str(r)) + SUIT_SYMBOLS[suit_of(c)]


def parse_card(text: str, deck: Sequence[Card] | None = None) -> Card:
    """Read ``AS``, ``as``, ``10h``, ``TD`` or ``A♠``; with ``deck``, also insist the card is in it."""
    t = text.strip().upper()
    if len(t) < 2:
        raise CardError(f"{text!r} is not a card: write a rank and a suit, like AS, 10H or 6D")
    rank_part, suit_part = t[:-1], t[-1]
    rank = _RANK_FROM_TEXT.get(rank_part)
    suit = _SUIT_FROM_TEXT.get(suit_part)
    if rank is None or suit is None:
        raise CardError(
            f"{text!r} is not a card: ranks are 2-10, J, Q, K, A (or T for ten), suits C, D, H, S"
        )
    c = card(rank, suit)
    if deck is not None and c not in deck:
        raise CardError(f"{card_text(c)} is not in this game's deck")
    return c


def deck_of(ranks: Iterable[int], suits: Iterable[int]) -> tuple[Card, ...]:
    """The cards of the given ranks and suits, in id order."""
    ranks_t = tuple(ranks)
    return tuple(sorted(card(r, s) for s in suits for r in ranks_t))


def cards_text(cs: Iterable[Card]) -> str:
    return " ".join(card_text(c) for c in cs)
