"""The numbered legal moves, and reading what the player typed.

A player may type a move's number, the move itself (``play AS``, ``beat 7h 9h``, ``bid 4``,
``discard 8s``), or only a card (``10h``): the one legal move that uses that card, if there is
exactly one.  A run of bets or raises (Azi: ``bet 5`` .. ``bet 1000``) is one entry of the menu; its
number, or its verb alone (``raise``), asks for the amount.  What each move is called, its hint and
where it stands in the list come from the game's face (``p2pcards.cli.screen.faces``).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.table import Table
from rich.text import Text

from p2pcards.cli.screen import cards as cv
from p2pcards.cli.screen.faces import Face
from p2pcards.games import ActionError, Rules, View
from p2pcards.games.cards import CardError, card_display, parse_card

ROWS = 6
"""Rows of the menu at most, so that a whole turn fits an 80x24 terminal."""

COMMANDS = {
    "help": "help", "h": "help", "?": "help",
    "rules": "rules",
    "quit": "quit", "q": "quit", "exit": "quit", "leave": "quit",
    "table": "table", "t": "table", "moves": "table", "m": "table", "look around": "table",
}
"""What may be typed at any prompt of a game, besides moves."""


@dataclass(frozen=True)
class Entry:
    """One line of the menu: a single move (``text``), or a run of amounts (``verb`` low..high)."""

    number: int
    text: str
    hint: str = ""
    verb: str = ""
    low: int = 0
    high: int = 0
    card_ids: tuple[int, ...] = ()
    """The cards this move uses (a discard's card too, when the seat has seen it)."""
    shown: str = ""
    """The move as the menu shows it, when not its text (Azi: ``discard 8♠`` for ``discard #2``)."""

    @property
    def is_run(self) -> bool:
        return bool(self.verb)

    def label(self, hints: bool = True) -> Text:
        if self.is_run:
            body = Text(f"{self.verb} N", style="bold")
            body.append(f"  (N from {self.low} to {self.high})", style="")
        else:
            body = cv.move(self.shown or self.text)
            body.stylize("bold")
        if self.hint and hints:
            body.append(f"  {self.hint}", style="dim")
        return body


@dataclass(frozen=True)
class Chosen:
    text: str
    """The action's text form, as the table reads it."""


@dataclass(frozen=True)
class NeedAmount:
    entry: Entry


@dataclass(frozen=True)
class Back:
    """Enter alone or ``back`` at "how many chips?": not this move after all; the list of moves again."""


BACK_WORDS = ("", "back", "b", "cancel")


@dataclass(frozen=True)
class Command:
    name: str
    """``help``, ``rules``, ``quit`` or ``table``."""
    arg: str = ""
    """For ``rules``: a section's number or ``all`` (nothing: the list of sections)."""


def command(typed: str) -> Command | None:
    """The command ``typed`` is (at any prompt), if it is one: ``rules 3`` is a section of the rules."""
    lowered = " ".join(typed.lower().split())
    if lowered in COMMANDS:
        return Command(COMMANDS[lowered])
    verb, _, arg = lowered.partition(" ")
    if verb == "rules" and (arg.isdigit() or arg == "all"):
        return Command("rules", arg)
    return None


@dataclass(frozen=True)
class Problem:
    message: str


Resolution = Chosen | NeedAmount | Command | Problem


# ============================================================================ building the menu


def build(rules: Rules, view: View, face: Face | None = None) -> list[Entry]:
    """The numbered moves of ``view``: its legal actions, a run of bets or raises as one entry, in
    the order, with the labels and hints, of the game's face."""
    face = face or Face((), view.seat)
    singles: list[tuple[tuple[object, ...], str]] = []
    run: dict[str, list[int]] = {}
    for action in view.legal_actions:
        text = rules.action_text(action)
        verb, _, arg = text.partition(" ")
        if verb in ("bet", "raise") and arg.isdigit():
            run.setdefault(verb, []).append(int(arg))
            continue
        singles.append((face.menu_key(text, view), text))
    singles.sort(key=lambda pair: pair[0])  # stable: the engine's order where the face gives none
    entries: list[Entry] = []
    for _, text in singles:
        label = face.label(text, view)
        entries.append(Entry(len(entries) + 1, text, face.hint(text, view),
                             card_ids=face.move_cards(text, view), shown="" if label == text else label))
    for verb, amounts in run.items():
        low, high = min(amounts), max(amounts)
        if low == high:
            text = f"{verb} {low}"
            entries.append(Entry(len(entries) + 1, text, face.hint(text, view)))
        else:
            entries.append(Entry(len(entries) + 1, f"{verb} {low}", face.hint(verb, view), verb, low, high))
    return entries


def render(entries: list[Entry], rows: int = ROWS) -> Table:
    """The numbered moves in at most ``rows`` rows: a longer list goes in columns, without the hints
    when they would not fit in 80 columns."""
    grid = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1, 0, 0))
    columns = max(1, -(-len(entries) // rows))
    hints = columns == 1 or all(len(e.label().plain) <= 76 // columns - 4 for e in entries)
    height = -(-len(entries) // columns)
    for _ in range(columns):
        grid.add_column(justify="right", style="cyan")
        grid.add_column(min_width=12 if columns > 1 else None)
    for r in range(height):
        cells: list[str | Text] = []
        for c in range(columns):
            i = c * height + r
            if i < len(entries):
                cells += [f"{entries[i].number:>2}", entries[i].label(hints)]
            else:
                cells += ["", ""]
        grid.add_row(*cells)
    return grid


# ============================================================================ reading input


def resolve(raw: str, entries: list[Entry], rules: Rules) -> Resolution:
    typed = " ".join(raw.strip().split())
    if not typed:
        which = "1" if len(entries) == 1 else f"1 to {len(entries)}"
        return Problem(f"Type a move's number ({which}), a move, a card, or 'help'.")
    lowered = typed.lower()
    asked = command(lowered)
    if asked is not None:
        return asked
    if lowered.isdigit():
        number = int(lowered)
        if not 1 <= number <= len(entries):
            if len(entries) == 1:
                return Problem(f"There is no move {number}: there is one move, number 1.")
            return Problem(f"There is no move {number}: choose a number from 1 to {len(entries)}.")
        entry = entries[number - 1]
        return NeedAmount(entry) if entry.is_run else Chosen(entry.text)
    runs = [e for e in entries if e.is_run and e.verb == lowered]
    if runs:
        return NeedAmount(runs[0])  # ``raise`` alone asks for the amount, as its number does
    try:
        action = rules.parse_action(typed)
    except ActionError as exc:
        parse_error = exc.reason
    else:
        return Chosen(rules.action_text(action))
    first, _, rest = lowered.partition(" ")
    same_verb = [e for e in entries if not e.is_run and e.text.split()[0] == first]
    by_cards = _by_cards(rest, same_verb, rules) if rest and same_verb else None  # ``discard 8s``
    if by_cards is None:
        by_cards = _by_cards(typed, entries, rules)
    if by_cards is not None:
        return by_cards
    if any(first == e.text.split()[0] or first == e.verb for e in entries) and parse_error:
        return Problem(cv.symbols(parse_error[:1].upper() + parse_error[1:]))
    example = (entries[0].shown or entries[0].text).lower() if entries else "play 10h"
    return Problem(
        f"'{typed}' is not a move, a move number or a card. Type "
        f"{'1' if len(entries) == 1 else f'a number from 1 to {len(entries)}'}, "
        f"a move as listed (e.g. '{cv.plain_move(example)}'), a card (e.g. '10h'), or 'help'."
    )


def _by_cards(typed: str, entries: list[Entry], rules: Rules) -> Resolution | None:
    """Cards alone (``10h``, or ``7h 9h`` for a Durak beat): the one legal move using all of them."""
    try:
        wanted = [parse_card(word) for word in typed.split()]
    except CardError:
        return None
    if not wanted:
        return None
    missing = [c for c in wanted if c not in rules.deck]
    if missing:
        return Problem(f"{card_display(missing[0])} is not in this game's deck.")
    matches = [e for e in entries if not e.is_run and all(c in e.card_ids for c in wanted)]
    shown = " ".join(card_display(c) for c in wanted)
    if len(matches) == 1:
        return Chosen(matches[0].text)
    if not matches:
        return Problem(f"No legal move uses {shown} now. Choose one of the numbered moves.")
    options = ", ".join(f"{e.number} ({cv.plain_move(e.shown or e.text)})" for e in matches)
    return Problem(f"{shown} fits {len(matches)} moves: {options}. Type the number of the one you mean.")


def amount_prompt(entry: Entry) -> str:
    """The question of a run's amount, with the way back to the moves."""
    return f"{entry.verb.capitalize()} how many chips ({entry.low}-{entry.high}; Enter: back)? "


def resolve_amount(raw: str, entry: Entry) -> Chosen | Problem | Command | Back:
    """The answer to "how many chips?": an amount in the run's range (or a command: quit, help…, or
    the way back to the list of moves)."""
    lowered = " ".join(raw.strip().lower().split())
    if lowered in BACK_WORDS:
        return Back()
    asked = command(lowered)
    if asked is not None:
        return asked
    typed = lowered.removeprefix(entry.verb).strip()
    if not typed.isdigit() or not entry.low <= int(typed) <= entry.high:
        return Problem(f"{entry.verb.capitalize()} how many chips? A whole number from {entry.low} to "
                       f"{entry.high}, or Enter to choose another move.")
    return Chosen(f"{entry.verb} {int(typed)}")
