"""Each game's drawing and wording, one module per game, named by the game's registration.

``face_for("durak", names, me)`` imports the module Durak's ``GameEntry.face`` names
(``p2pcards.cli.screen.faces.durak``) and builds its ``Face``:
the screen asks it to draw the table, name moves, explain what a move led to, give the menu's hints
and describe results, and nothing else in the screen knows which game is played.  A fourth game
needs one new module (here, or anywhere its registration names) with a ``Face`` subclass; a game
registered without one gets ``Face`` itself, which shows the hand and the moves as the engine writes
them.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from p2pcards.cli.screen import cards as cv
from p2pcards.cli.screen import words
from p2pcards.games import UNKNOWN, HandState, Match, View
from p2pcards.games.cards import card_text

TURN = "▶"

AWAY_MARKS = {"silent": "voted out", "unconfirmed": "left behind (unconfirmed)", "cheat": "out: cheated"}
"""How a seat dealt out of the hand is marked, by why it is out."""


class Face:
    """The game-specific part of the screen, for one seat (``me``) at a table of ``names``."""

    example = "play 7h"
    """A move to show in the first help line."""
    moves_help = "as listed"
    """Examples of the game's moves, for its ``help``."""
    card_note = ""
    """What a card typed alone may need, for its ``help`` (Durak: two cards for a beat)."""
    out_note = ""
    """How a player may be out of the match for good while the others play on, for its ``help``."""
    trump_suit = -1
    """The suit sorted last in a hand (Spades: spades)."""

    def __init__(self, names: Sequence[str], me: int) -> None:
        self.names = tuple(names)
        self.me = me
        self.away: dict[int, str] = {}
        """The seats dealt out of the hand being played, with why (``silent``, ``unconfirmed``,
        ``cheat``): told by the table's seating."""

    # ------------------------------------------------------------------ drawing

    def table(self, view: View) -> list[RenderableType]:
        """The table as ``view``'s seat sees it, hand included (a few lines, 80 columns)."""
        return [self.hand_line(view)]

    def hand_suit(self, view: View) -> int:
        """The suit the hand is sorted with last: the view's trump where it has one."""
        trump = getattr(view, "trump_suit", None)
        return trump if isinstance(trump, int) and trump >= 0 else self.trump_suit

    def hand_line(self, view: View, trump_suit: int | None = None) -> Text:
        suit = self.hand_suit(view) if trump_suit is None else trump_suit
        unseen = self.unseen(view)
        line = Text("Your hand: ", style="bold")
        if view.hand:
            line.append_text(cv.cards(cv.sorted_hand(view.hand, suit)))
        if unseen and view.hand:
            line.append(f"  and {words.count(unseen, 'card')} you have not looked at", style="dim")
        elif unseen:
            line.append(f"{words.count(unseen, 'card')}, not looked at yet", style="dim")
        elif not view.hand:
            line.append("no cards", style="dim")
        return line

    def unseen(self, view: View) -> int:
        """Cards in this seat's hand that it has not seen (Azi: playing blind)."""
        return 0

    def who(self, view: View, seat: int) -> Text:
        """A seat's name in a seat grid, with the turn marker."""
        text = Text()
        text.append(TURN + " " if view.to_act == seat else "  ", style="bold yellow")
        text.append(self.names[seat], style="bold" if seat == self.me else "")
        return text

    # ------------------------------------------------------------------ wording

    def away_mark(self, seat: int) -> str:
        """How a seat dealt out of the hand is marked in a seat grid ("" for a seat playing)."""
        return AWAY_MARKS.get(self.away.get(seat, ""), "")

    def name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat}"

    def you(self, seat: int) -> bool:
        return seat == self.me

    def move(self, seat: int, text: str) -> Text:
        """``seat`` made the move ``text``: one sentence (``Anna attacks with 7♥``)."""
        line = Text(f"{self.name(seat)} ", style="bold")
        line.append_text(cv.move(text))
        return line

    def after(self, seat: int, text: str, before: View | None, now: View | None) -> list[Text]:
        """What ``seat``'s move led to, from the seat's views before and after it (a trick taken,
        a bout beaten off, cards drawn)."""
        return []

    def before_move(self, seat: int, text: str, before: View | None) -> list[Text]:
        """What happened between the last move and this one that the players should know (Durak:
        the cards drawn from the talon), from the seat's view just before this move."""
        return []

    def ends_group(self, seat: int, text: str, before: View | None, now: View | None) -> bool:
        """The move closed a trick, a bout or a betting round (the log starts a new line)."""
        return False

    def hint(self, text: str, view: View) -> str:
        """A few words on what a move of the menu does."""
        return ""

    def label(self, text: str, view: View) -> str:
        """How a move is shown in the menu (its text, unless the game shows it another way)."""
        return text

    def move_cards(self, text: str, view: View) -> tuple[int, ...]:
        """The cards a move uses, for choosing it by typing a card."""
        return tuple(cv.cards_in(text))

    def menu_key(self, text: str, view: View) -> tuple[Any, ...]:
        """Where a move stands in the menu: moves with a card of the hand in the order the hand is
        shown (``Your hand``), the others after them in the engine's order."""
        shown = cv.sorted_hand(view.hand, self.hand_suit(view))
        for c in self.move_cards(text, view):
            if c in shown:
                return (0, shown.index(c))
        return (1,)

    def new_hand(self) -> None:
        """A hand starts, or is dealt again: forget what was shown of the one before."""

    def forced(self, view: View, legal: Sequence[str]) -> str | None:
        """The move to make without asking, if there is nothing to choose."""
        return legal[0] if len(legal) == 1 else None

    def hand_result(self, state: HandState, summary: str) -> list[Text]:
        return [Text(words.with_names(line, self.names, self.me)) for line in summary.splitlines()]

    def goes_on_without(self, seats: Sequence[int]) -> str:
        """What the match does from the next hand without ``seats`` (voted out, or named cheaters)."""
        them, their = self.them(seats)
        return f"The match goes on without {them}; {their} results so far stay in the standings."

    def dealt_again(self, seats: Sequence[int]) -> str:
        """How a void hand is dealt again after a verdict on ``seats`` (`` without Anna``)."""
        return f" without {words.join([self.name(s) for s in seats])}" if seats else ""

    out_rule = ""
    """The rule that puts a player out of the match for good (Azi: A15)."""

    def out_line(self, seat: int, score: int) -> str:
        """``seat`` takes no further part in the match (Azi: it cannot pay the ante)."""
        name = self.name(seat)
        return words.you_case(f"{name} {words.verb(name, 'is')} out of the match ({score}).")

    def them(self, seats: Sequence[int]) -> tuple[str, str]:
        """The pronouns for ``seats``: ``("you", "your")`` for this seat alone, else ``("them", "their")``."""
        return ("you", "your") if tuple(seats) == (self.me,) else ("them", "their")

    def match_result(self, match: Match | None, summary: str) -> list[Text]:
        return [Text(words.with_names(summary, self.names, self.me), style="bold")]

    # ------------------------------------------------------------------ for programs (--json)

    def view_json(self, view: View) -> dict[str, Any]:
        """The table as the seat knows it, as plain values (cards as text: ``7H``, ``10S`` is ``TS``)."""
        return {"hand": [card_text(c) for c in view.hand], "to_act": view.to_act}

    def result_json(self, state: HandState) -> dict[str, Any]:
        return {}

    def standings_json(self, match: Match | None) -> dict[str, Any]:
        return {}


def card_or_none(c: int) -> str | None:
    return None if c == UNKNOWN or c < 0 else card_text(c)


def face_class(game: str) -> type[Face]:
    """The class of ``game``'s face, from the module its registration names (``Face`` itself for a
    game registered without one)."""
    from p2pcards.games.registry import entry

    module_name = entry(game).face
    if module_name is None:
        return Face
    cls: type[Face] = import_module(module_name).Face
    return cls


def face_for(game: str, names: Sequence[str], me: int) -> Face:
    """The face of ``game`` for seat ``me`` at a table of ``names``."""
    return face_class(game)(names, me)


__all__ = ["TURN", "Face", "card_or_none", "face_class", "face_for"]
