"""The one game screen of ``play``, ``host``, ``join`` and ``resume``.

It consumes the events of one seat's replica (``p2pcards.table.outputs``), whatever carries them —
``LocalRoom`` offline, a ``Node`` on the LAN — reads what it needs from that replica, and writes the
screen for people or JSON lines for programs.  Each kind of event is drawn by one function of the
registry ``RENDERERS`` (``@renders(Kind)``); a kind without one is ignored, so a shell or a newer
table may send events this screen does not know.  What differs between games is asked of the game's
face (``faces``); what differs between offline and the LAN (reading the keyboard, the network's own
events) stays with the command that drives the screen.

Moves are logged one group to a line (a trick, a bout, a round of bets), so that what happened
since the player's last turn and the table itself fit on an 80x24 terminal together.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from rich.cells import cell_len
from rich.console import Group
from rich.rule import Rule
from rich.text import Text

from p2pcards.cli.screen import describe, faces, menu, questions, words
from p2pcards.cli.screen.output import Terminal
from p2pcards.games import HandState, Match, View
from p2pcards.games.cards import card_text
from p2pcards.table import outputs as out
from p2pcards.table.genesis import Genesis
from p2pcards.table.replica import Table

WIDTH = 80
SEPARATOR = " · "

Renderer = Callable[["GameScreen", Any], None]
RENDERERS: dict[type, Renderer] = {}
"""Event class -> the function that shows it."""

E = TypeVar("E")


def renders(*kinds: type) -> Callable[[Callable[[GameScreen, E], None]], Callable[[GameScreen, E], None]]:
    """Register the decorated function as the renderer of events of ``kinds``."""

    def register(fn: Callable[[GameScreen, E], None]) -> Callable[[GameScreen, E], None]:
        for kind in kinds:
            RENDERERS[kind] = fn
        return fn

    return register


class GameScreen:
    """One seat's screen.  ``table`` gives the seat's replica (read, never fed, by the screen)."""

    def __init__(self, term: Terminal, genesis: Genesis, me: int, table: Callable[[], Table],
                 names: Sequence[str]) -> None:
        self.term = term
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
        return self.table.match

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

    def ask_if_out(self, match: Match | None = None) -> None:
        """This seat does not play now (voted out, out of chips): ask its person what to do (not
        once the match is over: ``match``, the match after the hand just played, may say so)."""
        from p2pcards.cli.screen.going_on import out_question

        question = None if match is not None and match.over else out_question(self)
        if question is not None:
            self.ask(question)

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

    def render(self, event: object) -> None:
        """Show ``event`` with its renderer; an event of a kind without one is ignored."""
        renderer = RENDERERS.get(type(event))
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


# ============================================================================ the table's events


@renders(out.StateChanged)
def _state_changed(screen: GameScreen, event: out.StateChanged) -> None:
    kind = event.kind
    if not kind or not event.seats:
        return
    if kind not in ("action", "dummy"):
        _progress(screen, kind, event.seats)
        return
    text = event.text or "?"
    seat = event.seats[0]
    if screen.dealer != "mental" and screen.hand not in screen._shuffles:
        screen._shuffles[screen.hand] = 0
        _deal_line(screen)
    before, now = screen._before, screen.view()
    screen._before = now
    screen.term.emit({"event": "move", "hand": screen.hand, "seat": seat, "name": screen.real_names[seat],
                      "move": text, "table": None if now is None else screen.face.view_json(now)})
    if screen.summing or screen.term.json:
        return
    for line in screen.face.before_move(seat, text, before):
        screen.log(line, alone=True)
    forced, screen._forced = screen._forced, None
    if not (seat == screen.me and text == forced):
        screen.log(screen.face.move(seat, text))
    for line in screen.face.after(seat, text, before, now):
        screen.log(line)
    if screen.face.ends_group(seat, text, before, now):
        screen.flush()


def _progress(screen: GameScreen, kind: str, seats: tuple[int, ...]) -> None:
    if kind in ("share", "reveal"):  # cards dealt or turned up: the next move starts from here
        screen._before = screen.view()
    if kind == "shuffle":
        screen._shuffles[screen.hand] = screen._shuffles.get(screen.hand, 0) + 1
        if screen._shuffles[screen.hand] == screen.shufflers:
            _deal_line(screen)
    if not screen.summing:
        screen.activity(describe.progress(kind, seats, screen.names, screen.hand) + "…")


def _deal_line(screen: GameScreen) -> None:
    view = screen.view()
    dealer = getattr(view, "dealer", None)
    screen.term.emit({"event": "deal", "hand": screen.hand, "dealer": dealer, "dealt_by": screen.dealer,
                      "shuffles": screen._shuffles.get(screen.hand, 0)})
    if not screen.summing:
        screen.say(Text(describe.deal_line(screen.hand, screen.shufflers, screen.dealer), style="dim"))


@renders(out.HandOver)
def _hand_over(screen: GameScreen, event: out.HandOver) -> None:
    audit = event.audit
    face = screen.face
    result = face.hand_result(event.state, event.summary)
    screen.term.emit({
        "event": "hand_over", "hand": event.hand, "summary": event.summary, "replayed": screen.replaying,
        "result": "\n".join(t.plain for t in result), "outcome": face.result_json(event.state),
        "audit": {"ok": audit.ok, "seat": audit.seat, "rule": audit.rule, "move": audit.step,
                  "message": audit.message},
        "verified": describe.audit_text(audit, screen.dealer), **screen.result_json(event.match),
    })
    screen.hand = event.hand + 1
    screen._before = None
    screen.face.new_hand()
    if not screen.term.json:
        _hand_result(screen, event, result)
    going_on.announce_out(screen, event.hand, event.match)


def _hand_result(screen: GameScreen, event: out.HandOver, result: list[Text]) -> None:
    screen.flush()
    if screen.summing:  # a hand played before a resume, or without this seat: one line
        first = result[0].plain if result else ""
        how = "replayed from the journal" if screen.replaying else screen.summing_up
        screen.say(Text(f"Hand {event.hand + 1} ({how}): {first}", style="dim"))
        return
    screen.term.hide_status()
    screen.say(Rule(Text(f"Hand {event.hand + 1} over", style="bold")))
    for line in result:
        screen.say(line)
    screen.say(describe.audit_line(event.audit, screen.dealer, screen.names))
    if event.match is None or not event.match.over:  # the match's end gives the standings as its result
        screen.say(Text(screen.standings(event.match), style="dim"))


@renders(out.MatchOver)
def _match_over(screen: GameScreen, event: out.MatchOver) -> None:
    lines = screen.face.match_result(screen.match, event.summary)
    screen.summing_up = ""
    screen.term.emit({"event": "match_over", "summary": event.summary, "digest": screen.table.digest().hex(),
                      "result": "\n".join(t.plain for t in lines), "abandoned": event.abandoned,
                      **screen.result_json()})
    if screen.term.json:
        return
    screen.flush()
    screen.term.hide_status()
    screen.say(Rule(Text("Match over", style="bold")))
    if event.abandoned:
        screen.say(Text("The match ended early: the last two players were left and one of them was silent, "
                        "so the other ended it. It is recorded as abandoned.", style="bold yellow"))
    for line in lines:
        screen.say(line)


@renders(out.YourTurn, out.Waiting, out.Rejected)
def _quiet(screen: GameScreen, event: object) -> None:
    """Turns are shown by the command that reads the answer; waiting and refused frames by the
    network's own line (who the game waits for)."""


from p2pcards.cli.screen import going_on  # noqa: E402  (its renderers need the registry above)

__all__ = ["RENDERERS", "WIDTH", "GameScreen", "renders", "status_line"]
