"""The one game screen of ``play``, ``host``, ``join`` and ``resume``.

It consumes the events of one seat's replica (``p2pcards.table.outputs``), whatever carries them —
``LocalRoom`` offline, a ``Node`` on the LAN — reads what it needs from that replica, and writes the
screen for people or JSON lines for programs.  Each kind of event is drawn by the renderer registered
for it on this screen (``GameScreen.register``): the table's own events by ``screen.events`` (which
builds the screen, ``events.game_screen``), the game going on without a seat by ``screen.going_on``,
and what only offline play or the LAN has by the command that drives the screen.  A kind without a
renderer is ignored, so a shell or a newer table may send events this screen does not know.  What
differs between games is asked of the game's face (``faces``).

Moves are logged one group to a line (a trick, a bout, a round of bets), so that what happened
since the player's last turn and the table itself fit on an 80x24 terminal together.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from rich.cells import cell_len
from rich.console import Group
from rich.text import Text

from p2pcards.cli.screen import faces, menu, questions, words
from p2pcards.cli.terminal import Terminal
from p2pcards.games import GameError, HandState, Match, View
from p2pcards.games.cards import card_text
from p2pcards.table import outputs as out
from p2pcards.table.genesis import Genesis
from p2pcards.table.replica import Table

WIDTH = 80
SEPARATOR = " · "

Renderer = Callable[["GameScreen", Any], None]
"""What shows one kind of event on a screen."""


class GameScreen:
    """One seat's screen.  ``table`` gives the seat's replica (read, never fed, by the screen)."""

    def __init__(self, term: Terminal, genesis: Genesis, me: int, table: Callable[[], Table],
                 names: Sequence[str], renderers: Mapping[type, Renderer] = MappingProxyType({})) -> None:
        self.term = term
        self.renderers: dict[type, Renderer] = dict(renderers)
        """Event class -> the function that shows it on this screen."""
        self.genesis = genesis
        self.me = me
        self._table = table
        self.names = tuple(names)
        self.real_names = tuple(s.name for s in genesis.seats)
        self.rules = genesis.rules()
        self.game = self.rules.name
        self.dealer = genesis.dealer
        self.n = len(genesis.seats)
        self.face = faces.face_for(self.game, self.names, me)
        self.hand = 0
        """The hand being played, as this screen counts them (0 for the first)."""
        self.replaying = False
        """Events come from a journal being replayed (resume): hands are summed up, not narrated."""
        self.summing_up = ""
        """Set (to how the hands are described) while this seat catches up with hands it did not
        play: each is summed up in one line, as when replaying (see ``going_on``)."""
        self.asker: Callable[[questions.Question], None] | None = None
        """Where a question for the person goes (the command that reads the answers); None: nobody
        is asked (a computer plays the seat, and the table decides for itself)."""
        self.clock: Callable[[], int] | None = None
        """The local time in ms as the table is ticked with it (to count a question's deadline down)."""
        self.seating: out.Seating | None = None
        """Who plays the hand being played (the last ``Seating``)."""
        self.removed: str | None = None
        """Why this seat does not play now: ``silent`` or ``cheat`` (a verdict), None while it plays."""
        self.restoring = False
        """Whether this seat, back from its journal, waits for the others (``out.Restoring``)."""
        self.out_of_match: set[int] = set()
        """Seats out of the match for good (Azi A15), each announced once."""
        self.voided = -1
        """The last hand declared void (it is dealt again)."""
        self._before: View | None = None
        self._shuffles: dict[int, int] = {}
        self._group: Text | None = None
        self._activity = ""
        self._forced: str | None = None

    # ================================================================ reading the replica

    @property
    def table(self) -> Table:
        return self._table()

    def view(self) -> View | None:
        """The seat's view of the hand this screen is showing (its final state once the replica has
        gone on to the next hand)."""
        table = self.table
        played = table.hands_played
        state: HandState | None = played[self.hand][0] if len(played) > self.hand else table.state
        return None if state is None else state.view(self.me)

    @property
    def match(self) -> Match | None:
        """The match as the hand being played is played: the replica's (the match at the last seal),
        with the seats that hand dealt back in playing (the replica's match still has them away, or
        open dummies, until the hand ends)."""
        match = self.table.match
        seating = self.seating
        if match is None or seating is None or seating.hand != self.table.hand_number:
            return match
        try:
            for seat in seating.playing:
                if seat in match.dummies or seat not in match.seated:
                    match = match.with_seat(seat)
        except GameError:
            return self.table.match  # a seating the match cannot take: the replica's, as it is
        return match

    def standings(self, match: Match | None = None) -> str:
        """The match's standings in words: ``match``, or the replica's (which a hand's result joins
        only once the hand is sealed)."""
        match = match or self.match
        return "" if match is None else words.with_names(match.summary(), self.names)

    def now_ms(self) -> int:
        return 0 if self.clock is None else self.clock()

    # ================================================================ questions

    def ask(self, question: questions.Question) -> None:
        """Hand a question to the person (nothing happens when nobody is asked)."""
        if self.asker is not None:
            self.asker(question)

    def restart_hand(self, hand: int) -> None:
        """Hand ``hand`` is dealt again: its deal and moves are shown afresh."""
        self.flush()
        self._shuffles.pop(hand, None)
        self._before = None
        self.hand = hand
        self.face.new_hand()

    @property
    def shufflers(self) -> int:
        """How many seats shuffle the deck of the hand being played: those playing it (an open dummy
        or a seat voted out holds no key)."""
        return self.n if self.seating is None else len(self.seating.playing)

    @property
    def summing(self) -> bool:
        """Hands are summed up rather than narrated move by move (replaying, or catching up)."""
        return self.replaying or bool(self.summing_up)

    # ================================================================ events

    def register(self, renderer: Renderer, *kinds: type) -> None:
        """Show events of ``kinds`` with ``renderer`` from now on."""
        for kind in kinds:
            self.renderers[kind] = renderer

    def render(self, event: object) -> None:
        """Show ``event`` with its renderer; an event of a kind without one is ignored."""
        renderer = self.renderers.get(type(event))
        if renderer is not None:
            renderer(self, event)

    # ================================================================ the log of moves

    def log(self, line: Text, *, alone: bool = False) -> None:
        """Add ``line`` to the current group's line (``alone``: on a line of its own)."""
        if self.term.json:
            return
        group = self._group
        if group is not None and not alone and len(group.plain) + len(SEPARATOR) + len(line.plain) <= WIDTH:
            group.append(SEPARATOR, style="dim")
            group.append_text(line)
        else:
            self.flush()
            if alone:
                self.term.say(line)
                return
            self._group = line.copy()
        self._refresh()

    def flush(self) -> None:
        """Write the current group's line (before anything else is shown)."""
        group, self._group = self._group, None
        if group is not None:
            self.term.say(group)
            self._refresh()

    def say(self, *items: Any, style: str | None = None) -> None:
        self.flush()
        self.term.say(*items, style=style)

    def activity(self, text: str) -> None:
        """What the table is doing now (who is thinking, whom it waits for), on the spinner line."""
        self._activity = text
        self._refresh()

    @property
    def activity_text(self) -> str:
        """What the spinner line says the table is doing (shown at a terminal only)."""
        return self._activity

    def _refresh(self) -> None:
        if not self.term.interactive:
            return
        line = status_line(self._activity, self._group.plain if self._group is not None else "",
                           self.term.console.width - 3)  # the spinner and its space, and a margin
        if line:
            self.term.status(line)

    # ================================================================ the player's turn

    def news(self, view: View) -> None:
        """What happened since the last move that the player should know before choosing (Durak:
        the cards drawn from the talon), said before the turn rather than after the player's move."""
        for line in self.face.before_move(self.me, "", view):
            self.log(line, alone=True)

    def show_turn(self, view: View, entries: list[menu.Entry], heading: str) -> None:
        """The table, the hand and the numbered moves (no prompt)."""
        self.news(view)
        self.flush()
        if self.term.json:
            return
        self.term.hide_status()
        title = Text(f"{self.game.capitalize()} · hand {self.hand + 1} · {heading}", style="bold underline")
        parts: list[Any] = [title, *self.face.table(view)]
        if entries:
            parts.append(Text("Your moves:", style="bold"))
            parts.append(menu.render(entries))
        self.term.say(Group(*parts))

    def turn_json(self, turn: out.YourTurn, entries: list[menu.Entry]) -> None:
        view = turn.view
        self.term.emit({
            "event": "turn", "hand": turn.hand, "seat": view.seat, "cards": [card_text(c) for c in view.hand],
            "legal": [self.rules.action_text(a) for a in view.legal_actions],
            "moves": [{"number": e.number, "move": e.text, "label": e.label(False).plain, "hint": e.hint,
                       "low": e.low if e.is_run else None, "high": e.high if e.is_run else None}
                      for e in entries],
            "table": self.face.view_json(view),
        })
        self._before = view

    def forced_move(self, text: str) -> None:
        """A move made without asking: there was nothing else to do."""
        self.term.emit({"event": "forced", "hand": self.hand, "move": text})
        view = self.view()
        if view is not None:
            self.news(view)
        line = Text("Your only move: ", style="dim")
        line.append_text(self.face.move(self.me, text))
        self.log(line, alone=True)
        self._forced = text  # said: the move's own line, when the table applies it, is not said again

    def problem(self, raw: str, message: str) -> None:
        self.term.emit({"event": "error", "input": raw, "message": message})
        self.say(Text(message, style="yellow"))

    def thinking(self, seat: int) -> None:
        """A computer player of ``seat`` is choosing its move: said on the spinner line, and to a
        program (``--json``) as an event, so that it can show who the table waits for."""
        name = self.names[seat]
        self.term.emit({"event": "thinking", "seat": seat, "name": name})
        self.activity(f"{name} {words.verb(name, 'is')} thinking…")

    def note(self, message: str, seat: int | None = None) -> None:
        self.term.emit({"event": "notice", "seat": seat, "message": message})
        self.say(Text(message, style="yellow"))

    def explain(self, exc: Exception) -> str:
        """Why the table refused a move, in the players' words."""
        reason = str(getattr(exc, "reason", exc)).rstrip(".")
        rule = getattr(exc, "rule", None)
        text = f"That move is not allowed: {words.with_names(reason, self.names)}"
        if rule:
            text += f" (rule {rule})"
        return text + ". Choose one of the numbered moves."

    # ================================================================ the end

    def result_json(self, match: Match | None = None) -> dict[str, Any]:
        match = match or self.match
        return {"standings": self.standings(match), "scores": self.face.standings_json(match)}


def status_line(activity: str, moves: str, width: int) -> str:
    """The spinner's line in ``width`` columns: what the table is doing (whom it waits for, for how
    long) first and whole where it fits, then the latest of the moves since the player's turn, cut
    from the left (``…Hana beats 6♣ with 7♣``)."""
    width = max(width, 10)
    if cell_len(activity) >= width:
        return _cut_right(activity, width)
    if not moves:
        return activity
    if not activity:
        return moves if cell_len(moves) <= width else "…" + _cut_left(moves, width - 1)
    room = width - cell_len(activity) - len(" — ")
    if room < 12:  # too little of the moves to read: the activity alone
        return activity
    if cell_len(moves) > room:
        moves = "…" + _cut_left(moves, room - 1)
    return f"{activity} — {moves}"


def _cut_right(text: str, width: int) -> str:
    while cell_len(text) > width - 1:
        text = text[:-1]
    return text.rstrip() + "…"


def _cut_left(text: str, width: int) -> str:
    while cell_len(text) > width:
        text = text[1:]
    return text.lstrip()


__all__ = ["SEPARATOR", "WIDTH", "GameScreen", "Renderer", "status_line"]
