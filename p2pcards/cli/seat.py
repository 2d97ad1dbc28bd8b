"""One seat at the terminal, the same offline (``play``, ``resume``) and on the LAN (``host``,
``join``, ``resume``): what a typed line means, and the lines every seat writes the same way.

``Seat.read`` takes a typed line, with the seat's turn (``begin``) and the question open for its
person, and gives back what the line is, as a value: a move (``Move``), a command (``menu.Command``:
``help``, ``rules``, ``table``, ``quit``, ``return``), an answer to the open question (``Answer``), a
late answer to a question the table moved past (``Late``), a mistake (``Problem``), a confirmed
``quit`` (``Leave``), or nothing to carry out but a prompt to ask again (``Again``).  It does no I/O:
the two loops around it carry the value out — ``play.Session`` on a ``LocalRoom`` between the
computers' frames, ``lan.game.LanGame`` on a ``Node`` while the network goes on.

The seat also writes what both loops show alike, once: the intro, a turn (its table and moves, or the
only move there is), the commands' answers, the prompt of the moment, and the closing lines (left,
stuck, where the journal is kept).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from rich.markdown import Markdown
from rich.text import Text

from p2pcards.cli.common import program
from p2pcards.cli.pager import page
from p2pcards.cli.rules import rules_page, rules_text
from p2pcards.cli.screen import menu, questions, words
from p2pcards.cli.screen.helptext import help_text
from p2pcards.cli.screen.screen import GameScreen
from p2pcards.games import View
from p2pcards.table import outputs as out

LEAVE_PROMPT: Final = "Leave the game? [y/N] "
MOVE_PROMPT: Final = "Your move: "


@dataclass(frozen=True)
class Move:
    """A move of the seat's turn, as the table reads it."""

    text: str


@dataclass(frozen=True)
class Answer:
    """The line answers the open question."""

    question: questions.Question
    meaning: str


@dataclass(frozen=True)
class Late:
    """The line answers a question the table has moved past (``why``: as ``asking.MOOT_WHY`` says)."""

    why: str


@dataclass(frozen=True)
class Problem:
    """The line is none of what may be typed now: ``message`` says what may."""

    message: str


@dataclass(frozen=True)
class Again:
    """Nothing to carry out: ask what is asked now (``said``: a line to say first)."""

    said: str = ""


@dataclass(frozen=True)
class Leave:
    """``quit``, confirmed."""


Decision = Move | menu.Command | Answer | Late | Problem | Again | Leave

RETURN: Final = menu.Command("return")
"""``return``: a seat the others went on without asks to be dealt in again."""


class Seat:
    """One seat's controller on ``screen``.  ``lan``: at a table on the network (its help, and the
    rules a section at a time, since a pager would share the terminal with the network's lines)."""

    def __init__(self, screen: GameScreen, *, lan: bool) -> None:
        self.screen = screen
        self.term = screen.term
        self.lan = lan
        self.rules = screen.rules
        self.game = screen.game
        self.turn: out.YourTurn | None = None
        """The turn waiting for a move from this seat's person (None: not its turn)."""
        self.entries: list[menu.Entry] = []
        """The numbered moves of ``turn``."""
        self.asking: menu.Entry | None = None
        """A run of bets or raises whose amount is asked."""
        self.confirming = False
        """``quit`` was typed: the next line says whether to leave."""

    # ================================================================ what a line means

    def read(self, raw: str, question: questions.Question | None = None,
             gone: tuple[questions.Question, str] | None = None, *, not_your_turn: str = "") -> Decision:
        """What ``raw`` means now: ``question`` is the one open for the person (answered first),
        ``gone`` the last one the table moved past (and why), ``not_your_turn`` what to say of a move
        typed while it is not this seat's turn."""
        if self.confirming:
            self.confirming = False
            return Leave() if raw.strip().lower() in ("y", "yes") else Again("Carry on, then.")
        typed = " ".join(raw.split()).lower()
        meaning = None if question is None else question.read(raw)
        if question is not None and meaning is not None:
            return Answer(question, meaning)
        if question is None and gone is not None and gone[0].read(raw) is not None:
            return Late(gone[1])
        if typed == "return":
            return RETURN
        if self.turn is None:
            asked = menu.command(typed)
            if asked is not None:
                return asked
            if question is not None and typed:
                return Problem(question.hint)
            return Problem(not_your_turn) if typed else Again()
        if self.asking is not None:
            entry, self.asking = self.asking, None
            amount = menu.resolve_amount(raw, entry)
            if isinstance(amount, menu.Problem):
                self.asking = entry
                return Problem(amount.message)
            if isinstance(amount, menu.Back):
                return Again()
            return amount if isinstance(amount, menu.Command) else Move(amount.text)
        resolution = menu.resolve(raw, self.entries, self.rules)
        if isinstance(resolution, menu.NeedAmount):
            self.asking = resolution.entry
            return Again()
        if isinstance(resolution, menu.Problem):
            return Problem(resolution.message)
        return resolution if isinstance(resolution, menu.Command) else Move(resolution.text)

    def prompt(self, question: questions.Question | None = None) -> str | None:
        """What is asked now (None: nothing), with ``question`` open for the person."""
        if self.confirming:
            return LEAVE_PROMPT
        if question is not None:
            return question.prompt
        if self.turn is not None and self.asking is not None:
            return menu.amount_prompt(self.asking)
        return MOVE_PROMPT if self.turn is not None else None

    # ================================================================ the seat's turn

    def begin(self, turn: out.YourTurn, *, person: bool = True) -> str | None:
        """This seat's turn: told to programs; for a person (``person``) the table and the moves are
        shown, or the only move there is is made without asking (its text returned, for the loop to
        play).  A program answers every turn, and a seat asked whether to leave is not moved for."""
        view = turn.view
        entries = menu.build(self.rules, view, self.screen.face)
        self.screen.turn_json(turn, entries)
        if not person:
            return None
        self.turn, self.entries, self.asking = turn, entries, None
        forced = self.screen.face.forced(view, [e.text for e in entries if not e.is_run])
        if forced is not None and len(entries) == 1 and not self.confirming and not self.term.json:
            self.screen.forced_move(forced)
            self.turn = None
            return forced
        self.show(view, "your turn")
        return None

    def moved(self) -> out.YourTurn | None:
        """The move of the turn is on its way: the turn is over (given back if the table refuses it)."""
        turn, self.turn = self.turn, None
        return turn

    def show(self, view: View, heading: str) -> None:
        """The table, the seat's hand and (on its turn) its numbered moves."""
        self.screen.show_turn(view, self.entries if self.turn is not None else [], heading)

    # ================================================================ commands

    def command(self, command: menu.Command, waiting: Callable[[], str],
                leaving: Sequence[Text] = ()) -> None:
        """Carry out ``help``, ``rules``, ``table`` or ``quit`` (``return`` is the loop's: only the
        table knows whether there is anything to come back to).  ``waiting``: what the table is doing
        when it is not this seat's turn; ``leaving``: what leaving means, said before asking."""
        name = command.name
        if name == "help":
            text = help_text(self.game, lan=self.lan)
            self.term.emit({"event": "help", "text": text})
            self.screen.say(Text(text))
        elif name == "rules" and (command.arg or self.lan):
            # On the LAN one section at a time: a pager would share the terminal with the network's
            # lines, and a hundred lines at once scroll the table away while the game goes on.
            self.term.emit({"event": "rules", "game": self.game,
                            "text": rules_page(self.game, command.arg or "all")})
            if not self.term.json:
                self.screen.say(Markdown(rules_page(self.game, command.arg)))
        elif name == "rules":
            text = rules_text(self.game)
            self.term.emit({"event": "rules", "game": self.game, "text": text})
            if not self.term.json:
                self.screen.flush()
                page(self.term.console, Markdown(text))
                view = self.screen.view()
                if view is not None:  # the pager took the screen: the table again, as it was
                    self.show(view, "your turn" if self.turn is not None else waiting())
        elif name == "table":
            view = self.screen.view()
            if view is None:
                self.screen.say(Text(f"No hand is being played yet: {waiting()}.", style="dim"))
            else:
                self.show(view, "your turn" if self.turn is not None else waiting())
        elif name == "quit":
            self.confirming = True
            self.term.emit({"event": "prompt", "prompt": LEAVE_PROMPT.strip()})
            for line in leaving:
                self.screen.say(line)

    # ================================================================ the start and the end

    def intro(self, start: dict[str, Any], title: str, seats: Sequence[Text], notes: Sequence[Text]) -> None:
        """The match's first lines: ``start`` for programs; for people a heading, a line a seat and
        what to know (how the deck is dealt, what to type)."""
        self.term.emit({"event": "start", "game": self.game, "options": dict(self.rules.options), **start})
        if self.term.json:
            return
        self.term.rule(Text(f"{self.game.capitalize()} — {title}", style="bold"))
        for line in (*seats, *notes):
            self.term.say(line)

    def left(self, hand: int, input_ended: bool, told: str = "") -> None:
        """The person left (``quit``, or the end of input): the standings so far."""
        self.term.emit({"event": "left", "hand": hand, "input_ended": input_ended,
                        **self.screen.result_json()})
        self.screen.say()
        self.screen.say(Text(f"You left the table.{told} Standings so far:", style="bold"))
        self.screen.say(Text(self.screen.standings() or "no hand finished yet"))

    def stuck(self) -> None:
        """Nothing left to do, and no end: with honest seats it cannot happen."""
        self.term.emit({"event": "stuck", "standings": self.screen.standings()})
        self.screen.say(Text("The table stopped without finishing the match.", style="bold red"))

    def saved(self, game_id: bytes, finished: bool, **fields: Any) -> None:
        """Where the game is kept: to check it, and to come back to it when it is not over."""
        short = game_id.hex()[:12]
        self.term.emit({"event": "saved", "game_id": game_id.hex(), "finished": finished, **fields})
        width = self.term.console.width
        self.screen.say(words.with_command("The game's journal is kept: check it any time with",
                                            f"{program()} verify {short}", width, "dim"))
        if not finished:
            self.screen.say(words.with_command("Come back to this game with",
                                                f"{program()} resume {short}", width, "bold"))


__all__ = ["LEAVE_PROMPT", "MOVE_PROMPT", "RETURN", "Again", "Answer", "Decision", "Late", "Leave", "Move",
           "Problem", "Seat"]
