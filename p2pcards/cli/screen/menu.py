"""The numbered legal moves, and reading what the player typed.

A player may type a move's number, the move itself (``play AS``, ``beat 7h 9h``, ``bid 4``), or only
a card (``10h``): the one legal move that uses that card, if there is exactly one.  A run of bets or
raises (Azi: ``bet 5`` .. ``bet 1000``) is one entry of the menu; its number asks for the amount.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.table import Table
from rich.text import Text

from p2pcards.cli.screen import cards as cv
from p2pcards.games import ActionError, Rules, View
from p2pcards.games.azi.view import AziView
from p2pcards.games.cards import CardError, card_display, parse_card

COMMANDS = {
    "help": "help", "h": "help", "?": "help",
    "rules": "rules",
    "quit": "quit", "q": "quit", "exit": "quit", "leave": "quit",
    "table": "table", "t": "table", "moves": "table", "m": "table", "look around": "table",
}


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

    @property
    def is_run(self) -> bool:
        return bool(self.verb)

    def label(self) -> Text:
        if self.is_run:
            body = Text(f"{self.verb} N", style="bold")
            body.append(f"  (N from {self.low} to {self.high})", style="")
        else:
            body = cv.move(self.text)
            body.stylize("bold")
        if self.hint:
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
class Command:
    name: str
    """``help``, ``rules``, ``quit`` or ``table``."""


@dataclass(frozen=True)
class Problem:
    message: str


Resolution = Chosen | NeedAmount | Command | Problem


# ============================================================================ building the menu


def build(rules: Rules, view: View) -> list[Entry]:
    entries: list[Entry] = []
    run: dict[str, list[int]] = {}
    for action in view.legal_actions:
        text = rules.action_text(action)
        verb, _, arg = text.partition(" ")
        if verb in ("bet", "raise") and arg.isdigit():
            run.setdefault(verb, []).append(int(arg))
            continue
        hint = _hint(rules.name, text, view)
        entries.append(Entry(len(entries) + 1, text, hint, card_ids=_cards_of(text, view)))
    for verb, amounts in run.items():
        low, high = min(amounts), max(amounts)
        if low == high:
            text = f"{verb} {low}"
            entries.append(Entry(len(entries) + 1, text, _hint(rules.name, text, view)))
        else:
            hint = _hint(rules.name, verb, view)
            entries.append(Entry(len(entries) + 1, f"{verb} {low}", hint, verb, low, high))
    return entries


def render(entries: list[Entry], rows: int = 7) -> Table:
    """The numbered moves; a long list of short moves (Spades' bids) in several columns."""
    grid = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1, 0, 0))
    short = all(len(e.label().plain) <= 30 for e in entries)
    columns = 1 if len(entries) <= rows + 1 or not short else -(-len(entries) // rows)
    height = -(-len(entries) // columns)
    for _ in range(columns):
        grid.add_column(justify="right", style="cyan")
        grid.add_column(min_width=12 if columns > 1 else None)
    for r in range(height):
        cells: list[str | Text] = []
        for c in range(columns):
            i = c * height + r
            if i < len(entries):
                cells += [f"{entries[i].number:>2}", entries[i].label()]
            else:
                cells += ["", ""]
        grid.add_row(*cells)
    return grid


def _cards_of(text: str, view: View) -> tuple[int, ...]:
    found = tuple(cv.cards_in(text))
    if text.startswith("discard #") and isinstance(view, AziView):
        slot = int(text.removeprefix("discard #")) - 1
        if len(view.hand) == view.hand_sizes[view.seat] and 0 <= slot < len(view.hand):
            return (view.hand[slot],)
    return found


def _hint(game: str, text: str, view: View) -> str:
    verb, _, arg = text.partition(" ")
    if game == "durak":
        if verb == "beat":
            a, d = cv.cards_in(text)
            return f"cover {card_display(a)} with {card_display(d)}"
        return {
            "add": "throw it in",
            "take": "pick up every card on the table",
            "pass": "throw in nothing more",
            "show": "you hold no trump" if arg == "none" else "your lowest trump (the lowest trump leads)",
        }.get(verb, "")
    if game == "spades":
        if text == "bid nil":
            return "take no trick: ±100"
        return ""
    if game == "azi" and isinstance(view, AziView):
        me = view.seat
        if verb == "discard":
            cs = _cards_of(text, view)
            return f"({card_display(cs[0])}, kept secret)" if cs else "(a card you have not seen)"
        if verb == "bet":
            return "open the betting" + (" (a blind bet counts double)" if view.blind[me] else "")
        if verb == "raise":
            blind = " (counts double: blind)" if view.blind[me] else ""
            return f"pay {view.call_cost} to call and N more{blind}"
        return {
            "fold": "give up the hand (what you paid stays in the pot)",
            "call": f"pay {view.call_cost} to match the bet",
            "allin": f"pay all your {view.stacks[me]} chips",
            "look": "look at your cards (you stop playing blind)",
            "buyin": f"pay {view.buy_in_price} to join the azi replay",
            "decline": "sit out the azi replay",
        }.get(verb, "")
    return ""


# ============================================================================ reading input


def resolve(raw: str, entries: list[Entry], rules: Rules) -> Resolution:
    typed = " ".join(raw.strip().split())
    if not typed:
        return Problem(f"Type a move's number (1 to {len(entries)}), a move, a card, or 'help'.")
    lowered = typed.lower()
    if lowered in COMMANDS:
        return Command(COMMANDS[lowered])
    if lowered.isdigit():
        number = int(lowered)
        if not 1 <= number <= len(entries):
            return Problem(f"There is no move {number}: choose a number from 1 to {len(entries)}.")
        entry = entries[number - 1]
        return NeedAmount(entry) if entry.is_run else Chosen(entry.text)
    try:
        action = rules.parse_action(typed)
    except ActionError as exc:
        parse_error: str | None = exc.reason
    else:
        return Chosen(rules.action_text(action))
    by_cards = _by_cards(typed, entries, rules)
    if by_cards is not None:
        return by_cards
    first = lowered.split()[0]
    if any(first == e.text.split()[0] or first == e.verb for e in entries) and parse_error:
        return Problem(parse_error[:1].upper() + parse_error[1:])
    example = entries[0].text.lower() if entries else "play 10h"
    return Problem(
        f"'{typed}' is not a move, a move number or a card. Type a number from 1 to {len(entries)}, "
        f"a move as listed (e.g. '{example}'), a card (e.g. '10h'), or 'help'."
    )


def _by_cards(typed: str, entries: list[Entry], rules: Rules) -> Resolution | None:
    """Cards alone (``10h``, or ``7h 9h`` for a Durak beat): the one legal move using all of them."""
    try:
        wanted = [parse_card(word) for word in typed.split()]
    except CardError:
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
    options = ", ".join(f"{e.number} ({cv.plain_move(e.text)})" for e in matches)
    return Problem(f"{shown} fits {len(matches)} moves: {options}. Type the number of the one you mean.")


def resolve_amount(raw: str, entry: Entry) -> Chosen | Problem:
    typed = raw.strip().lower().removeprefix(entry.verb).strip()
    if not typed.isdigit() or not entry.low <= int(typed) <= entry.high:
        return Problem(f"{entry.verb.capitalize()} how many chips? A whole number from {entry.low} to "
                       f"{entry.high}.")
    return Chosen(f"{entry.verb} {int(typed)}")
