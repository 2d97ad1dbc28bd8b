"""Cards on the screen: suit symbols, red hearts and diamonds, hands sorted for reading."""

from __future__ import annotations

import re
from collections.abc import Iterable

from rich.text import Text

from p2pcards.games import UNKNOWN
from p2pcards.games.cards import DIAMONDS, HEARTS, Card, card_display, parse_card, rank_of, suit_of

RED = "bold red"
BLACK = "bold"
HIDDEN = "dim"
SUIT_ORDER = (0, 1, 3, 2)
"""Clubs, diamonds, spades, hearts: black and red alternate in a sorted hand."""

_CARD_TOKEN = re.compile(r"(?<![\w#])(10|[2-9TJQKA])([CDHS])(?!\w)", re.IGNORECASE)


def style_of(c: Card) -> str:
    return RED if suit_of(c) in (HEARTS, DIAMONDS) else BLACK


def card(c: Card) -> Text:
    """One card, ``A♠`` or ``10♦``, in its suit's colour (``??`` for a card not known)."""
    if c == UNKNOWN or c < 0:
        return Text("??", style=HIDDEN)
    return Text(card_display(c), style=style_of(c))


def cards(cs: Iterable[Card], sep: str = " ", empty: str = "—") -> Text:
    out = Text()
    for i, c in enumerate(cs):
        if i:
            out.append(sep)
        out.append_text(card(c))
    if not out.plain:
        out.append(empty, style=HIDDEN)
    return out


def sorted_hand(cs: Iterable[Card], trump_suit: int = -1) -> list[Card]:
    def key(c: Card) -> tuple[int, int, int]:
        s = suit_of(c)
        return (1 if s == trump_suit else 0, SUIT_ORDER.index(s), rank_of(c))

    return sorted(cs, key=key)


def cards_in(text: str) -> list[Card]:
    """The cards named in an action's text (``beat 7H 9H`` -> 7♥, 9♥)."""
    return [parse_card(m.group(0)) for m in _CARD_TOKEN.finditer(text)]


def move(text: str) -> Text:
    """An action's text with its cards shown as symbols in colour (``beat 7♥ 9♥``)."""
    out = Text()
    last = 0
    for m in _CARD_TOKEN.finditer(text):
        out.append(text[last:m.start()])
        out.append_text(card(parse_card(m.group(0))))
        last = m.end()
    out.append(text[last:])
    return out


def plain_move(text: str) -> str:
    return move(text).plain


_PROSE_CARD = re.compile(r"(?<![\w#])(10|[2-9TJQKA])([CDHS])(?!\w)")
"""A card in an engine's sentence: upper case only, as the engines write cards (``as`` is a word)."""


def symbols(text: str) -> str:
    """Prose with its cards written with suit symbols (``KC is not a trump`` -> ``K♣ is not a trump``)."""
    return _PROSE_CARD.sub(lambda m: card_display(parse_card(m.group(0))), text)
