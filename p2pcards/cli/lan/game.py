"""The game at one seat on the LAN: the screen of ``p2pcards play`` driven by a ``Node``.

The node runs the seat's table on the mesh and calls ``on_event`` (on the trio thread) with what
happens; this class shows it — the same table, numbered moves, sentences and audit lines as the
offline game — and reads the player's moves from standard input while the network keeps going.
Who the game waits for, and for how long, is shown while it is not this seat's turn.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, Final

import trio
from rich.markdown import Markdown
from rich.text import Text

from p2pcards.cli.lan.terminal import EndOfInput, Lines, Out
from p2pcards.cli.rules import rules_text
from p2pcards.cli.screen import describe, menu, tables
from p2pcards.games import ActionError, View
from p2pcards.games.cards import card_text
from p2pcards.games.durak.state import DurakView
from p2pcards.local import Moved
from p2pcards.net.node import BotError, Node, NodeEvent, PeerDown, PeerUp
from p2pcards.store import paths as store_paths
from p2pcards.table import outputs as out
from p2pcards.wire import fingerprint

LINGER: Final = 2.0
"""Seconds a finished seat keeps serving, so that slower peers can still catch up from it."""
FINISH_WAIT: Final = 10.0
"""Seconds the host's process waits for its other seats (computer players) to finish too."""
CLOCK: Final = 0.5
JSON_WAIT_FIRST: Final = 5.0
JSON_WAIT_EVERY: Final = 10.0
TEXT_WAIT_EVERY: Final = 15.0

HELP = """\
Answer "Your move" with:
  a number    the move with that number in the list
  a move      as listed, cards as letters: attack 7h, beat 7h 9h, bid 4, play qs
  a card      10h, qs, a♠: the one legal move that uses that card
              (two cards for a Durak beat: 7h 9h)
  table       show the table (and your moves) again
  rules       the rules of this game
  help        this text
  quit        leave the table (asks first); the others wait for you, and
              `p2pcards resume` brings you back to the same game
Moves are read on your turn only; table, rules, help and quit work at any time.
Ranks 2-10, J, Q, K, A (T is ten too); suits c ♣, d ♦, h ♥, s ♠."""


def display_names(names: Sequence[str], me: int) -> tuple[str, ...]:
    """The names as this seat's screen shows them: ``You`` for itself, and a seat number after a
    name that two seats share."""
    shown = []
    for seat, name in enumerate(names):
        if seat == me:
            shown.append("You")
        elif list(names).count(name) > 1 or name == "You":
            shown.append(f"{name} ({seat})")
        else:
            shown.append(name)
    return tuple(shown)


class LanGame:
    """One seat's match: ``play(nodes)`` runs the nodes of this process (the seat's own first) and
    returns the exit status — 0 when the match ended or the player left, 1 on a fault."""

    def __init__(
        self,
        node: Node,
        out_: Out,
        *,
        lines: Lines | None,
        auto: str | None = None,
        computers: Collection[int] = (),
        resumed: bool = False,
        linger: float = LINGER,
    ) -> None:
        self.node = node
        self.out = out_
        self.lines = lines
        self.auto = auto
        self.computers = frozenset(computers)
        self.resumed = resumed
        self.linger = linger
        self.table = node.table
        self.rules = node.table.rules
        self.genesis = node.genesis
        self.me = node.seat
        self.real_names = tuple(s.name for s in self.genesis.seats)
        self.names = display_names(self.real_names, self.me)
        self.seats = tables.Seats(self.names, self.me)
        self.game = self.rules.name
        self.dealer = self.genesis.dealer
        self.game_id = self.genesis.game_id
        self.turn: out.YourTurn | None = None
        self.entries: list[menu.Entry] = []
        self.asking: menu.Entry | None = None
        self.confirming = False
        self.left = False
        self.done = trio.Event()
        self.replaying = False
        self.hand = 0
        self.connected: set[int] = set()
        self.dropped: set[int] = set()
        """Seats whose link went down and has not come back."""
        self._shuffles: dict[int, int] = {}
        self._bout = (-1, 0, 0)
        self._step_since = (-1, 0.0)
        self._reported = 0.0

    # ================================================================ running

    async def play(self, nodes: Sequence[Node]) -> int:
        self.intro()
        async with trio.open_nursery() as nursery:
            self.replaying = True
            try:
                for node in nodes:
                    await nursery.start(node.run)
            finally:
                self.replaying = False
            nursery.start_soon(self._clock)
            nursery.start_soon(self._watch)
            if self.lines is not None and self.auto is None:
                nursery.start_soon(self._input)
            await self.done.wait()
            if not self.left:
                self.out.status("Staying a moment so that every seat can catch up…")
                with trio.move_on_after(FINISH_WAIT):
                    for node in nodes:
                        await node.finished.wait()
                await trio.sleep(self.linger)
            nursery.cancel_scope.cancel()
        self.out.hide_status()
        return self.finish()

    async def _watch(self) -> None:
        await self.node.finished.wait()
        self.turn = None
        self.done.set()

    @property
    def finished(self) -> bool:
        return self.table.over or self.table.fault is not None

    # ================================================================ the start

    def intro(self) -> None:
        seats: list[dict[str, Any]] = []
        for seat, sat in enumerate(self.genesis.seats):
            kind = "you" if seat == self.me else "computer" if seat in self.computers else "player"
            seats.append({"seat": seat, "name": sat.name, "fingerprint": fingerprint(sat.key),
                          "player": kind})
        self.out.emit({
            "event": "start", "game": self.game, "options": dict(self.rules.options), "seats": seats,
            "you": self.me, "dealer": self.dealer, "game_id": self.game_id.hex(),
            "timeout_s": self.genesis.timeout_ms // 1000, "resumed": self.resumed, "auto": self.auto,
        })
        if self.out.json:
            return
        how = "resumed from its journal" if self.resumed else "on the local network"
        self.out.console.rule(Text(f"{self.game.capitalize()} — {len(seats)} players, {how}", style="bold"))
        for s in seats:
            line = Text(f"  seat {s['seat']}  ")
            line.append(f"{s['name']:<16}", style="bold" if s["seat"] == self.me else "")
            line.append(f" {s['fingerprint']}", style="dim")
            if s["seat"] == self.me:
                line.append("  you" + (f" (played by a computer, {self.auto})" if self.auto else ""))
            elif s["player"] == "computer":
                line.append("  computer player on the host's machine", style="dim")
            self.out.say(line)
        self.out.say(Text(
            "Every seat signs this table before the first card; the deck is shuffled by all seats with "
            "proofs (mental poker), and each machine sees only its own cards.", style="dim"))
        if self.auto is None:
            self.out.say(Text("On your turn type a move's number, the move, a card, help, rules or quit.",
                              style="dim"))

    # ================================================================ events from the node

    def on_event(self, event: NodeEvent) -> None:
        if isinstance(event, out.StateChanged):
            self._observe(event.step)
        elif isinstance(event, out.YourTurn):
            self._your_turn(event)
        elif isinstance(event, out.HandOver):
            self._hand_over(event)
        elif isinstance(event, out.MatchOver):
            self.turn = None
            self.out.emit({"event": "match_over", "summary": event.summary,
                           "digest": self.table.digest().hex(),
                           "standings": describe.with_names(event.summary, self.names)})
            self.out.hide_status()
            if not self.out.json:
                self.out.console.rule(Text("Match over", style="bold"))
            self.out.say(Text(describe.with_names(event.summary, self.names), style="bold"))
        elif isinstance(event, out.Fault):
            self.turn = None
            self.out.emit({"event": "fault", "seat": event.seat, "kind": event.kind, "step": event.step,
                           "message": event.message})
            self.out.hide_status()
            self.out.say(describe.fault_line(event, self.names))
        elif isinstance(event, PeerUp | PeerDown):
            self._peer(event)
        elif isinstance(event, BotError):
            self.out.note(f"{self.names[event.seat]}: {event.message}", seat=event.seat)

    def on_computer_event(self, event: NodeEvent) -> None:
        """What the host's computer seats report: only their failures matter to the host."""
        if isinstance(event, BotError):
            self.out.note(f"{self.names[event.seat]}: {event.message}", seat=event.seat)

    def _peer(self, event: PeerUp | PeerDown) -> None:
        name = self.names[event.seat]
        if isinstance(event, PeerUp):
            known = event.seat in self.connected
            self.connected.add(event.seat)
            self.dropped.discard(event.seat)
            self.out.emit({"event": "peer", "seat": event.seat, "name": self.real_names[event.seat],
                           "up": True})
            if event.seat not in self.computers:
                self.out.say(Text(f"{name} is {'back' if known else 'connected'}.", style="dim"))
            return
        if self.finished or self.done.is_set():
            return
        self.dropped.add(event.seat)
        self.out.emit({"event": "peer", "seat": event.seat, "name": self.real_names[event.seat], "up": False,
                       "reason": event.reason})
        self.out.say(Text(f"Lost the connection to {name} ({event.reason}); it comes back by itself.",
                          style="yellow"))

    def _observe(self, step: int) -> None:
        """A step was applied: a move (shown) or a step of the dealer's protocol (progress)."""
        chain = self.table.chain
        messages = [m for s in range(len(self.names)) if (m := chain.lookup(step, s)) is not None]
        if not messages:
            return
        kind = messages[0].kind
        if kind != "action":
            if kind == "shuffle":
                self._shuffles[self.hand] = self._shuffles.get(self.hand, 0) + 1
                if self._shuffles[self.hand] == len(self.names):
                    self._deal_line()
            self.out.status(describe.progress(kind, tuple(m.seat for m in messages), self.names, self.hand)
                            + "…")
            return
        body = messages[0].body
        text = str(body.get("a")) if isinstance(body, dict) else "?"
        moved = Moved(self.hand, messages[0].seat, text)
        if self.dealer != "mental" and self.hand not in self._shuffles:
            self._shuffles[self.hand] = 0
            self._deal_line()
        self.out.emit({"event": "move", "hand": moved.hand, "seat": moved.seat, "move": moved.text})
        if self.out.json:
            return
        self.out.say(describe.move(self.names[moved.seat], moved.text))
        view = self._view()
        line = describe.consequence(moved, view, self.names, self._bout)
        if isinstance(view, DurakView):
            self._bout = (moved.hand, view.bout, len(view.discard))
        if line is not None:
            self.out.say(line)

    def _deal_line(self) -> None:
        n = len(self.names)
        if self.dealer == "mental":
            text = (f"Hand {self.hand + 1}: the deck was shuffled by all {n} seats "
                    f"({n} proofs of shuffle checked).")
        else:
            text = f"Hand {self.hand + 1}: dealt from the seeded test deck."
        self.out.say(Text(text, style="dim"))

    def _view(self) -> View | None:
        state = self.table.state
        return None if state is None else state.view(self.me)

    def _hand_over(self, over: out.HandOver) -> None:
        audit = over.audit
        match = self.table.match
        standings = describe.with_names("" if match is None else match.summary(), self.names)
        self.out.emit({
            "event": "hand_over", "hand": over.hand, "summary": over.summary, "replayed": self.replaying,
            "result": "\n".join(t.plain for t in describe.hand_result(over.state, self.names, over.summary)),
            "audit": {"ok": audit.ok, "seat": audit.seat, "rule": audit.rule, "move": audit.step,
                      "message": audit.message},
            "verified": describe.audit_text(audit, self.dealer), "standings": standings,
        })
        self.hand = over.hand + 1
        if self.out.json:
            return
        self.out.hide_status()
        title = f"Hand {over.hand + 1} over" + (" (replayed from the journal)" if self.replaying else "")
        self.out.console.rule(Text(title, style="bold"))
        for line in describe.hand_result(over.state, self.names, over.summary):
            self.out.say(line)
        self.out.say(describe.audit_line(audit, self.dealer))
        if not self.table.over:
            self.out.say(Text(standings, style="dim"))

    # ================================================================ this seat's turn

    def _your_turn(self, turn: out.YourTurn) -> None:
        view = turn.view
        self.out.emit({"event": "turn", "hand": turn.hand, "seat": view.seat,
                       "cards": [card_text(c) for c in view.hand],
                       "legal": [self.rules.action_text(a) for a in view.legal_actions]})
        if self.auto is not None:
            self.out.status(f"Your seat's computer player ({self.auto}) is thinking…")
            return
        self.turn = turn
        self.entries = menu.build(self.rules, view)
        self.asking = None
        self._show(view, self.entries, turn.hand)
        self._ask()

    def _ask(self) -> None:
        if self.confirming:
            self.out.prompt("Leave the game? [y/N] ")
        elif self.turn is not None and self.asking is not None:
            e = self.asking
            self.out.prompt(f"{e.verb.capitalize()} how many chips ({e.low}-{e.high})? ")
        elif self.turn is not None:
            self.out.prompt("Your move: ")

    def _show(self, view: View, entries: list[menu.Entry], hand: int) -> None:
        if self.out.json:
            return
        self.out.hide_status()
        self.out.say()
        mine = "your turn" if self.turn is not None else self.waiting_text()
        self.out.say(tables.render(view, self.seats, f"{self.game.capitalize()} · hand {hand + 1} · {mine}"))
        if entries:
            self.out.say(Text("Your moves:", style="bold"))
            self.out.say(menu.render(entries))

    async def _input(self) -> None:
        assert self.lines is not None
        while True:
            try:
                raw = await self.lines.get()
            except EndOfInput:
                self._leave()
                return
            await self._typed(raw)

    async def _typed(self, raw: str) -> None:
        if self.done.is_set():
            return
        if self.confirming:
            self.confirming = False
            if raw.strip().lower() in ("y", "yes"):
                self._leave()
                return
            self.out.say(Text("Carry on, then.", style="dim"))
            self._ask()
            return
        if self.turn is None:
            typed = " ".join(raw.split()).lower()
            if typed in menu.COMMANDS:
                self._command(menu.COMMANDS[typed])
            elif typed:
                self._problem(raw, f"It is not your turn: {self.waiting_text()}.")
            return
        if self.asking is not None:
            entry, self.asking = self.asking, None
            amount = menu.resolve_amount(raw, entry)
            if isinstance(amount, menu.Problem):
                self._problem(raw, amount.message)
                self.asking = entry
                self._ask()
            else:
                await self._move(amount.text)
            return
        resolution = menu.resolve(raw, self.entries, self.rules)
        if isinstance(resolution, menu.NeedAmount):
            self.asking = resolution.entry
            self._ask()
        elif isinstance(resolution, menu.Command):
            self._command(resolution.name)
        elif isinstance(resolution, menu.Problem):
            self._problem(raw, resolution.message)
            self._ask()
        else:
            await self._move(resolution.text)

    async def _move(self, text: str) -> None:
        turn, self.turn = self.turn, None  # acting may bring this seat's next turn at once
        try:
            await self.node.act(text)
        except ActionError as exc:
            if self.turn is None and self.me in self.table.waiting_for and not self.finished:
                self.turn = turn
            self._problem(text, describe.with_names(_explain(exc), self.names))
            self._ask()

    def _problem(self, raw: str, message: str) -> None:
        self.out.emit({"event": "error", "input": raw, "message": message})
        self.out.say(Text(message, style="yellow"))

    def _command(self, name: str) -> None:
        if name == "help":
            self.out.say(Text(HELP))
        elif name == "rules":
            text = rules_text(self.game)
            self.out.emit({"event": "rules", "text": text})
            if not self.out.json:
                self.out.hide_status()
                self.out.console.print(Markdown(text))
        elif name == "table":
            view = self._view()
            if view is None:
                self.out.say(Text(f"No hand is being played yet: {self.waiting_text()}.", style="dim"))
            else:
                self._show(view, self.entries if self.turn is not None else [], self.hand)
        elif name == "quit":
            self.confirming = True
            if not self.out.json:
                short = self.game_id.hex()[:12]
                self.out.say(Text(f"If you leave, the others wait for you; `p2pcards resume {short}` brings "
                                  "you back to this game.", style="dim"))
        self._ask()

    def _leave(self) -> None:
        self.left = True
        self.turn = None
        self.done.set()

    # ================================================================ who the game waits for

    def waiting_text(self) -> str:
        missing = [s for s in self.table.waiting_for if s != self.me]
        if not missing:
            return "the table is working"
        names = [self.names[s] + (" (disconnected)" if s in self.dropped else "") for s in missing]
        return "waiting for " + ", ".join(names)

    async def _clock(self) -> None:
        while True:
            await trio.sleep(CLOCK)
            self._tick_wait()

    def _tick_wait(self) -> None:
        if self.finished or self.done.is_set():
            return
        step, now = self.table.chain.step, trio.current_time()
        if step != self._step_since[0]:
            self._step_since = (step, now)
            self._reported = 0.0
        waited = now - self._step_since[1]
        missing = [s for s in self.table.waiting_for if s != self.me]
        if not missing or self.turn is not None or self.confirming:
            return
        waiting = self.waiting_text()
        text = f"{waiting[:1].upper()}{waiting[1:]} · {int(waited)} s"
        timeout = self.genesis.timeout_ms / 1000
        if waited > timeout / 2:
            text += f" (after {timeout:g} s the others may vote the hand void)"
        if self.out.json:
            if waited >= JSON_WAIT_FIRST and waited - self._reported >= JSON_WAIT_EVERY:
                self._reported = waited
                self.out.emit({"event": "waiting", "step": step, "seats": missing,
                               "names": [self.real_names[s] for s in missing], "seconds": int(waited)})
        elif self.out.interactive:
            self.out.status(text + "…")
        elif waited >= TEXT_WAIT_EVERY and waited - self._reported >= TEXT_WAIT_EVERY:
            self._reported = waited
            self.out.say(Text(text, style="dim"))

    # ================================================================ the end

    def finish(self) -> int:
        if self.left:
            standings = describe.with_names(self._standings(), self.names)
            self.out.emit({"event": "left", "hand": self.hand, "standings": standings})
            self.out.say()
            self.out.say(Text("You left the table. Standings so far:", style="bold"))
            self.out.say(Text(standings or "no hand finished yet"))
        self._saved_line()
        if self.left:
            return 0
        if self.table.fault is not None:
            return 1
        if not self.table.over:
            self.out.emit({"event": "stuck", "standings": self._standings()})
            self.out.say(Text("The table stopped without finishing the match.", style="bold red"))
            return 1
        return 0

    def _standings(self) -> str:
        match = self.table.match
        return "" if match is None else match.summary()

    def _saved_line(self) -> None:
        game_id = self.game_id.hex()
        self.out.emit({"event": "saved", "game_id": game_id, "finished": self.finished,
                       "journal": str(store_paths.journal_path(self.game_id))})
        self.out.say(Text("The game's journal is kept: check it any time with  "
                          f"p2pcards verify {game_id[:12]}", style="dim"))
        if not self.finished:
            self.out.say(Text(f"Come back to this game with  p2pcards resume {game_id[:12]}", style="bold"))


def _explain(exc: ActionError) -> str:
    text = f"That move is not allowed: {exc.reason.rstrip('.')}"
    if exc.rule:
        text += f" (rule {exc.rule})"
    return text + ". Choose one of the numbered moves."

