"""Sentences with people in them: names for seat numbers, "you" where it is this seat, plurals."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.text import Text

from p2pcards.cli.screen import cards as cv

YOU = "You"

_AGREE = {"does": "do", "has": "have", "is": "are", "was": "were", "wins": "win", "gets": "get",
          "holds": "hold", "deals": "deal", "takes": "take", "goes": "go", "plays": "play", "leads": "lead",
          "must": "must", "pays": "pay", "loses": "lose", "bids": "bid", "shows": "show", "draws": "draw",
          "shuffles": "shuffle", "picks": "pick"}


def with_command(sentence: str, command: str, width: int, style: str = "") -> RenderableType:
    """``sentence`` followed by a command to type: on one line when it fits in ``width``, else the
    command on a line of its own, never broken (a command cut across two lines cannot be copied)."""
    if cell_len(sentence) + 2 + cell_len(command) <= width:
        return Text(f"{sentence}  {command}", style=style)
    return Group(Text(sentence.rstrip(), style=style),
                 Text(f"  {command}", style=style, no_wrap=True, overflow="ignore"))


def count(n: int, word: str, plural: str | None = None) -> str:
    """``1 card``, ``3 cards``."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def duration(seconds: int) -> str:
    """``45 s``, ``5 min``, ``2 min 30 s``."""
    seconds = max(0, seconds)
    if seconds < 60:
        return f"{seconds} s"
    minutes, rest = divmod(seconds, 60)
    return f"{minutes} min" + (f" {rest} s" if rest else "")


def join(items: Sequence[str]) -> str:
    """``Anna``, ``Anna and Boris``, ``Anna, Boris and Clara``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def all_seats(n: int) -> str:
    return "both seats" if n == 2 else f"all {n} seats"


def possessive(name: str) -> str:
    return "Your" if name == YOU else f"{name}'s"


def verb(name: str, third: str) -> str:
    """The verb as it goes with ``name``: ``Anna wins``, ``You win``."""
    return _AGREE.get(third, third) if name == YOU else third


def with_names(text: str, names: Sequence[str], me: int | None = None) -> str:
    """An engine's sentence (``seat 2 wins``, ``seats 0 and 1``) with the players' names, "you"
    agreeing with its verb and in lower case inside a sentence, and cards shown with suit symbols."""

    def one(m: re.Match[str]) -> str:
        seat = int(m.group(1))
        return names[seat] if seat < len(names) else m.group(0)

    def several(m: re.Match[str]) -> str:
        seats = [int(s) for s in re.findall(r"\d+", m.group(0))]
        return join([names[s] if s < len(names) else str(s) for s in seats])

    text = re.sub(r"\bseats (\d+(?:, \d+)*(?: and \d+)?)", several, text)
    text = re.sub(r"\bseat (\d+)\b", one, text)
    return you_case(cv.symbols(text))


def you_case(text: str) -> str:
    """``You`` agrees with its verb (``You wins`` -> ``You win``) and is ``you`` inside a sentence, as
    ``Your`` is ``your`` (``possessive``)."""
    text = re.sub(r"\bYou (\w+)\b", lambda m: f"You {_AGREE.get(m.group(1), m.group(1))}", text)
    return re.sub(r"\bYou(r?)\b", lambda m: _lower_you(text, m.start()) + m.group(1), text)


def _lower_you(text: str, at: int) -> str:
    before = text[:at].rstrip()
    if not before or before[-1] in ".!?—\n":
        return YOU
    return "you"


__all__ = ["YOU", "all_seats", "count", "duration", "join", "possessive", "verb", "with_names", "you_case"]
