"""``p2pcards play GAME``: play offline against computer players, in the terminal.

Every seat is a peer in this process (``p2pcards.local.LocalRoom``): its own identity key, its own
replica of the table, the mental-poker dealer, the signed log — the code path of a LAN game.  The
player's seat is journalled like any peer's, so ``p2pcards verify`` can check the game afterwards.

``--auto LEVEL`` lets a computer play the player's seat; ``--json`` prints events as JSON lines (and
reads moves as plain lines from standard input).  Exit status: 0 when the match ended or the player
left, 1 when a fault stopped the game, 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.markdown import Markdown
from rich.status import Status
from rich.text import Text

from p2pcards import games, store
from p2pcards.ai.base import LEVELS
from p2pcards.cli.common import UsageError, add_game_argument, game_options, load_rules, print_json
from p2pcards.cli.rules import rules_text
from p2pcards.cli.screen import describe, menu, tables
from p2pcards.games import ActionError, View
from p2pcards.games.cards import card_text
from p2pcards.games.durak.state import DurakView
from p2pcards.local import DEALERS, NAMES, Event, HandEnded, LocalRoom, Moved, Notice, Progress, Thinking
from p2pcards.table import outputs as out
from p2pcards.table.genesis import GenesisError

PLAYER_LEVELS = (*LEVELS, "random")

HELP = """\
Answer "Your move" with:
  a number    the move with that number in the list
  a move      as listed, cards as letters: attack 7h, beat 7h 9h, bid 4, play qs
  a card      10h, qs, a♠: the one legal move that uses that card
              (two cards for a Durak beat: 7h 9h)
  table       show the table and the moves again
  rules       the rules of this game
  help        this text
  quit        leave the game (asks first; end of input leaves at once)
Ranks 2-10, J, Q, K, A (T is ten too); suits c ♣, d ♦, h ♥, s ♠."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "play", help="play offline against computer players",
        description=(
            "Play a match against computer players on this machine. Every seat is a peer with its own "
            "key and the deck is dealt by mental poker, exactly as on the LAN."
        ),
    )
    add_game_argument(p)
    p.add_argument("--players", type=int, default=None, metavar="N",
                   help="how many players, you included (Spades: 4; Durak and Azi: 2-6)")
    p.add_argument("--level", default="normal", metavar="LEVEL",
                   help=f"the computer players' level: {', '.join(PLAYER_LEVELS)} (default normal)")
    p.add_argument("--seat", type=int, default=0, metavar="K", help="your seat, 0 to N-1 (default 0)")
    p.add_argument("--auto", default=None, metavar="LEVEL",
                   help="let a computer player of LEVEL play your seat (nothing is read from the keyboard)")
    p.add_argument("--json", action="store_true",
                   help="print events as JSON lines; moves are read as lines from standard input")
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help="make the game reproducible: keys, deck secrets and computer players from S")
    p.add_argument("--dealer", default="mental", metavar="KIND",
                   help="mental (default: mental poker) or seeded (a public test deck, for quick tests)")
    p.add_argument("--no-save", action="store_true",
                   help="do not keep the game's journal (by default it is kept for `p2pcards verify`)")
    p.set_defaults(run=run)


def _level(value: str, flag: str) -> str:
    key = value.strip().lower()
    if key not in PLAYER_LEVELS:
        raise UsageError(f"{flag} must be one of {', '.join(PLAYER_LEVELS)}, not {value!r}")
    return key


def make_room(args: argparse.Namespace) -> LocalRoom:
    """The room the arguments describe; ``UsageError`` on anything wrong with them."""
    options = game_options(args.option)
    level = _level(args.level, "--level")
    auto = None if args.auto is None else _level(args.auto, "--auto")
    if args.dealer not in DEALERS:
        raise UsageError(f"--dealer must be one of {', '.join(DEALERS)}, not {args.dealer!r}")
    if args.game.strip().lower() not in games.GAMES:
        raise UsageError(f"unknown game {args.game!r}; the games are: {', '.join(games.GAMES)}")
    if args.players is not None and not 2 <= args.players <= 6:
        raise UsageError(f"--players must be from 2 to 6, not {args.players}")
    journal = None if args.no_save else _open_journal
    game = args.game.strip().lower()
    if args.players is not None:
        options["players"] = args.players
    n = load_rules(game, options).players
    if not 0 <= args.seat < n:
        raise UsageError(f"--seat must be from 0 to {n - 1} at a table of {n}, not {args.seat}")
    kwargs: dict[str, Any] = {"options": options, "level": level, "dealer": args.dealer, "seed": args.seed}
    if auto is None:
        kwargs.update(human=args.seat)
    else:
        # A computer in the player's seat still sits there as "You", so the screen reads the same.
        names = ["You" if seat == args.seat else NAMES[seat] for seat in range(n)]
        kwargs.update(human=None, viewpoint=args.seat, levels={args.seat: auto}, names=names)
    try:
        try:
            return LocalRoom(game, **kwargs, journal=journal)
        except store.StoreError as exc:
            print(f"p2pcards play: note: the game will not be saved ({exc})", file=sys.stderr)
            return LocalRoom(game, **kwargs)
    except (games.GameError, GenesisError) as exc:
        raise UsageError(str(exc)) from exc


def _open_journal(game_id: bytes) -> store.GameStore:
    """The game's store, new: a seed replayed gives the same game id, and a journal holds one run."""
    path = store.paths.journal_path(game_id)
    if path.exists():
        raise store.StoreError(path, "this game (the same seed, players and options) was saved before")
    return store.GameStore.open(game_id)


def run(args: argparse.Namespace) -> int:
    room = make_room(args)
    try:
        saved = isinstance(room.stores[room.viewpoint], store.GameStore)
        session = Session(room, json_mode=args.json, saved=saved)
        return session.play()
    finally:
        room.close()


# ============================================================================ the session


class _Leave(Exception):
    """The player left (quit confirmed, or end of input)."""


class Session:
    """One match at the terminal: shows the table, reads moves, prints what happens."""

    def __init__(self, room: LocalRoom, *, json_mode: bool = False, saved: bool = False,
                 console: Console | None = None, read: Callable[[str], str] | None = None) -> None:
        self.room = room
        self.json = json_mode
        self.saved = saved
        self.console = console or Console(highlight=False, stderr=False)
        self._read = read
        self.names = room.names
        self.seats = tables.Seats(room.names, room.viewpoint)
        self.game = room.rules.name
        self.dealer = room.genesis.dealer
        self._status: Status | None = None
        self._shuffles: dict[int, int] = {}
        """Per hand, the proven shuffles seen so far."""
        self._bout = (-1, 0, 0)
        """Durak: (hand, bout, cards discarded) when last seen."""

    # ------------------------------------------------------------------ output helpers

    def say(self, *items: Any, style: str | None = None) -> None:
        if not self.json:
            self.console.print(*items, style=style)

    def emit(self, obj: dict[str, Any]) -> None:
        if self.json:
            print_json(obj)
            sys.stdout.flush()

    def read(self, prompt: str) -> str:
        """A line of input; ``EOFError`` at the end of input."""
        if self._read is not None:
            return self._read(prompt)
        if self.json:
            line = sys.stdin.readline()
            if not line:
                raise EOFError
            return line.rstrip("\n")
        return self.console.input(Text(prompt, style="bold cyan"))

    # ------------------------------------------------------------------ the match

    def play(self) -> int:
        self.intro()
        try:
            while True:
                turn = self.advance()
                if turn is None:
                    return self.finish()
                self.take_turn(turn)
        except _Leave:
            return self.leave()

    def intro(self) -> None:
        room = self.room
        seats = []
        for seat, name in enumerate(self.names):
            level = room.level_of(seat)
            seats.append({"seat": seat, "name": name, "player": "you" if level is None else "computer",
                          "level": level})
        self.emit({"event": "start", "game": self.game, "options": dict(room.rules.options),
                   "seats": seats, "you": room.viewpoint, "dealer": self.dealer, "seed": room.seed,
                   "game_id": room.game_id.hex()})
        if self.json:
            return
        title = f"{self.game.capitalize()} — {room.n} players, offline"
        self.console.rule(Text(title, style="bold"))
        for s in seats:
            who = Text(f"  {s['name']:<8}", style="bold" if s["seat"] == room.viewpoint else "")
            who.append(f"seat {s['seat']}   ")
            if s["seat"] == room.viewpoint and room.human is None:
                who.append(f"played for you by a computer ({s['level']})", style="dim")
            elif s["player"] == "computer":
                who.append(f"computer ({s['level']})", style="dim")
            self.console.print(who)
        if self.dealer == "mental":
            self.say(Text("Every seat is a peer with its own key; all of them shuffle the deck with proofs "
                          "(mental poker), and each computer player sees only its own cards.", style="dim"))
        else:
            self.say(Text("Seeded test dealer: the deck order follows from a public seed (for tests only).",
                          style="yellow"))
        if room.human is not None:
            example = {"durak": "attack 7h", "spades": "play 7h"}.get(self.game, "call")
            self.say(Text(f"Type a move's number, the move ({example}), a card (7h), help, rules or quit.",
                          style="dim"))

    def advance(self) -> out.YourTurn | None:
        """Let the computer seats play until it is the player's turn or the match is over."""
        if self.json or not self.console.is_terminal:
            turn = self.room.run_until_human(self.on_event)
        else:
            with self.console.status("Shuffling…", spinner="dots") as status:
                self._status = status
                try:
                    turn = self.room.run_until_human(self.on_event)
                finally:
                    self._status = None
        return turn

    def _spin(self, text: str) -> None:
        if self._status is not None:
            self._status.update(text)

    # ------------------------------------------------------------------ events

    def on_event(self, event: Event) -> None:
        if isinstance(event, Thinking):
            self._spin(f"{self.names[event.seat]} is thinking…")
        elif isinstance(event, Progress):
            self._spin(describe.progress(event.kind, event.seats, self.names, event.hand) + "…")
            if event.kind == "shuffle":
                self._shuffles[event.hand] = self._shuffles.get(event.hand, 0) + 1
                if self._shuffles[event.hand] == self.room.n:
                    self.deal_line(event.hand)
        elif isinstance(event, Moved):
            if self.dealer != "mental" and event.hand not in self._shuffles:
                self._shuffles[event.hand] = 0
                self.deal_line(event.hand)
            self.emit({"event": "move", "hand": event.hand, "seat": event.seat, "move": event.text})
            self.say(describe.move(self.names[event.seat], event.text))
            if not self.json:
                self.narrate(event)
        elif isinstance(event, out.YourTurn):
            self.emit(self.turn_json(event))
        elif isinstance(event, HandEnded):
            self.hand_over(event)
        elif isinstance(event, out.MatchOver):
            self.emit({"event": "match_over", "summary": event.summary,
                       "standings": describe.with_names(event.summary, self.names)})
            if not self.json:
                self.console.rule(Text("Match over", style="bold"))
            self.say(Text(describe.with_names(event.summary, self.names), style="bold"))
        elif isinstance(event, out.Fault):
            self.emit({"event": "fault", "seat": event.seat, "kind": event.kind, "step": event.step,
                       "message": event.message})
            self.say(describe.fault_line(event, self.names))
        elif isinstance(event, Notice):
            self.emit({"event": "notice", "seat": event.seat, "message": event.text})
            self.say(Text(event.text, style="yellow"))

    def deal_line(self, hand: int) -> None:
        if self.json:
            return
        n = self.room.n
        if self.dealer == "mental":
            text = f"Hand {hand + 1}: the deck was shuffled by all {n} seats ({n} proofs of shuffle checked)."
        else:
            text = f"Hand {hand + 1}: dealt from the seeded test deck."
        self.say(Text(text, style="dim"))

    def narrate(self, moved: Moved) -> None:
        """What a move led to, read off the viewing seat's replica: who took a trick, a bout beaten off."""
        view = self.room.view()
        line = describe.consequence(moved, view, self.names, self._bout)
        if isinstance(view, DurakView):
            self._bout = (moved.hand, view.bout, len(view.discard))
        if line is not None:
            self.say(line)

    def turn_json(self, turn: out.YourTurn) -> dict[str, Any]:
        view = turn.view
        rules = self.room.rules
        return {"event": "turn", "hand": turn.hand, "seat": view.seat,
                "cards": [card_text(c) for c in view.hand],
                "legal": [rules.action_text(a) for a in view.legal_actions]}

    def hand_over(self, ended: HandEnded) -> None:
        over = ended.over
        audit = over.audit
        self.emit({"event": "hand_over", "hand": over.hand, "summary": over.summary,
                   "result": "\n".join(t.plain for t in describe.hand_result(over.state, self.names,
                                                                              over.summary)),
                   "audit": {"ok": audit.ok, "seat": audit.seat, "rule": audit.rule, "move": audit.step,
                             "message": audit.message},
                   "verified": describe.audit_text(audit, self.dealer),
                   "standings": describe.with_names(ended.standings, self.names)})
        if self.json:
            return
        self.console.rule(Text(f"Hand {over.hand + 1} over", style="bold"))
        for line in describe.hand_result(over.state, self.names, over.summary):
            self.console.print(line)
        self.console.print(describe.audit_line(audit, self.dealer))
        if not self.room.over:  # at the end of the match the standings follow as its result
            self.console.print(Text(describe.with_names(ended.standings, self.names), style="dim"))

    # ------------------------------------------------------------------ the player's turn

    def take_turn(self, turn: out.YourTurn) -> None:
        view = turn.view
        entries = menu.build(self.room.rules, view)
        self.show(view, entries, turn.hand)
        while True:
            try:
                raw = self.read("Your move: " if not self.json else "")
            except EOFError:
                raise _Leave from None
            resolution = menu.resolve(raw, entries, self.room.rules)
            if isinstance(resolution, menu.NeedAmount):
                resolution = self.ask_amount(resolution.entry)
            if isinstance(resolution, menu.Command):
                self.command(resolution.name, view, entries, turn.hand)
            elif isinstance(resolution, menu.Problem):
                self.problem(raw, resolution.message)
            else:
                try:
                    self.room.human_action(resolution.text)
                except ActionError as exc:
                    self.problem(raw, describe.with_names(_explain(exc), self.names))
                    continue
                return

    def ask_amount(self, entry: menu.Entry) -> menu.Chosen | menu.Problem:
        try:
            raw = self.read(f"{entry.verb.capitalize()} how many chips ({entry.low}-{entry.high})? ")
        except EOFError:
            raise _Leave from None
        return menu.resolve_amount(raw, entry)

    def problem(self, raw: str, message: str) -> None:
        self.emit({"event": "error", "input": raw, "message": message})
        self.say(Text(message, style="yellow"))

    def command(self, name: str, view: View, entries: list[menu.Entry], hand: int) -> None:
        if name == "help":
            self.say(Text(HELP))
        elif name == "rules":
            text = rules_text(self.game)
            if self.json:
                self.emit({"event": "rules", "text": text})
            else:
                self.console.print(Markdown(text))
        elif name == "table":
            self.show(view, entries, hand)
        elif name == "quit":
            try:
                answer = self.read("Leave the game? It cannot be finished without you. [y/N] ")
            except EOFError:
                answer = "y"
            if answer.strip().lower() in ("y", "yes"):
                raise _Leave
            self.say(Text("Carry on, then.", style="dim"))

    def show(self, view: View, entries: list[menu.Entry], hand: int) -> None:
        if self.json:
            return
        self.console.print()
        title = f"{self.game.capitalize()} · hand {hand + 1} · your turn"
        self.console.print(tables.render(view, self.seats, title))
        self.console.print(Text("Your moves:", style="bold"))
        self.console.print(menu.render(entries))

    # ------------------------------------------------------------------ the end

    def finish(self) -> int:
        room = self.room
        self.saved_line()
        if room.fault is not None:
            return 1
        if not room.over:  # nothing left to do and no verdict: cannot happen with honest seats
            self.emit({"event": "stuck", "standings": room.standings()})
            self.say(Text("The table stopped without finishing the match.", style="bold red"))
            return 1
        return 0

    def leave(self) -> int:
        standings = describe.with_names(self.room.standings(), self.names)
        self.emit({"event": "left", "hand": self.room.hand_number, "standings": standings})
        self.say()
        self.say(Text("You left the table. Standings so far:", style="bold"))
        self.say(Text(standings))
        self.saved_line()
        return 0

    def saved_line(self) -> None:
        if not self.saved:
            return
        game_id = self.room.game_id.hex()
        self.emit({"event": "saved", "game_id": game_id})
        self.say(Text(f"The game's journal is kept: check it any time with  p2pcards verify {game_id[:12]}",
                      style="dim"))


def _explain(exc: ActionError) -> str:
    reason = exc.reason.rstrip(".")
    text = f"That move is not allowed: {reason}"
    if exc.rule:
        text += f" (rule {exc.rule})"
    return text + ". Choose one of the numbered moves."


__all__ = ["Session", "make_room", "register", "run"]
