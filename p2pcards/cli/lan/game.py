"""The game at one seat on the LAN: the game screen of ``p2pcards play`` driven by a ``Node``.

The node runs the seat's table on the mesh and calls ``on_event`` (on the trio thread) with what
happens; the screen (``p2pcards.cli.screen``) shows it — the same table, numbered moves, sentences and
audit lines as the offline game — while the player's lines are read from standard input and the
network keeps going.  What a line means, and the lines every seat writes alike, are the seat
controller's (``p2pcards.cli.seat``, shared with the offline game): this is the loop around it.
A line from the network never lands on the prompt's line: the prompt is moved below it.  Who the
game waits for, and for how long, is shown while it is not this seat's turn.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any, Final

import trio
from rich.text import Text

from p2pcards.cli.common import program
from p2pcards.cli.screen import going_on, menu, questions, words
from p2pcards.cli.screen.asking import OpenQuestions
from p2pcards.cli.screen.events import game_screen
from p2pcards.cli.screen.screen import GameScreen
from p2pcards.cli.seat import RETURN, Answer, Late, Leave, Move, Problem, Seat
from p2pcards.cli.terminal import EndOfInput, Lines, Terminal
from p2pcards.games import ActionError
from p2pcards.net.node import BotError, Node, NodeEvent, PeerDown, PeerUp, Thinking
from p2pcards.store import paths as store_paths
from p2pcards.table import outputs as out
from p2pcards.table.genesis import Genesis
from p2pcards.table.replica import DISCONNECTED_MS
from p2pcards.wire import fingerprint

LINGER: Final = 2.0
"""Seconds a finished seat keeps serving, so that slower peers can still catch up from it."""
FINISH_WAIT: Final = 10.0
"""Seconds the host's process waits for its other seats (computer players) to finish too."""
CLOCK: Final = 0.5
JSON_WAIT_FIRST: Final = 5.0
JSON_WAIT_EVERY: Final = 10.0
TEXT_WAIT_EVERY: Final = 15.0
EXIT_INPUT_ENDED: Final = 3


def laptop(genesis: Genesis, names: Sequence[str], me: int, seat: int) -> str:
    """Whose laptop runs the computer player at ``seat``: "your laptop", "Hana's laptop"."""
    runner = genesis.runner_of(seat)
    if runner is None:
        return "another laptop"
    return "your laptop" if runner == me else f"{words.possessive(names[runner])} laptop"


def who_sees(genesis: Genesis, names: Sequence[str], me: int) -> str:
    """What each laptop can see, in plain words: its own seat's cards, and those of the computer
    players it runs (the genesis says which)."""
    runs: dict[int, list[int]] = {}
    for seat, runner in sorted(genesis.computers):
        runs.setdefault(runner, []).append(seat)
    said = ["Each laptop sees only the cards of its own seat."]
    for runner, seats in sorted(runs.items()):
        whose = "Your laptop" if runner == me else f"{words.possessive(names[runner])} laptop"
        plural = "s" if len(seats) > 1 else ""
        said.append(f"{whose} also sees the cards of {words.join([names[s] for s in seats])}, the computer "
                    f"player{plural} it runs.")
    return " ".join(said)


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


MOVE_CLOCK_MARKS_S = (60, 30, 10)
"""Seconds left on the person's own move clock at which their screen says so."""

class LanGame:
    """One seat's match: ``play(nodes)`` runs the nodes of this process (the seat's own first) and
    returns the exit status — 0 when the match ended or the player left, 1 on a fault, 3 when the
    input ended first."""

    def __init__(
        self,
        node: Node,
        term: Terminal,
        *,
        lines: Lines | None,
        auto: str | None = None,
        computers: Collection[int] = (),
        resumed: bool = False,
        linger: float = LINGER,
    ) -> None:
        self.node = node
        self.term = term
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
        self.screen = game_screen(self.term, self.genesis, self.me, lambda: node.table, self.names)
        self.screen.register(self._peer, PeerUp, PeerDown)
        self.screen.register(_thinking, Thinking)
        self.screen.register(_bot_error, BotError)
        self.game = self.rules.name
        self.game_id = self.genesis.game_id
        self.seat = Seat(self.screen, lan=True)
        self.left = False
        self.input_ended = False
        self.done = trio.Event()
        self.connected: set[int] = set()
        self.dropped: set[int] = set()
        """Seats whose link went down and has not come back."""
        self.thinking: dict[int, int] = {}
        """Per computer seat of this process, the step whose move it was last choosing."""
        self._step_since = (-1, 0.0)
        self._since = 0.0
        """When this program's nodes were running (trio's clock): how long nobody has come since."""
        self._nobody_told = False
        self._restored_step = -1
        """The step open when a resumed seat caught up from its journal: the others have waited for
        it since before this program started, for a time it cannot know."""
        self._clock_said: set[tuple[int, int]] = set()
        """(step, seconds left) of every move-clock warning said on this seat's own turn."""
        self._reported = 0.0
        self._forced_send, self._forced_recv = trio.open_memory_channel[tuple[str, int]](16)
        self.questions = OpenQuestions(self.screen, node, self._leave)
        self._later_send, self._later_recv = trio.open_memory_channel[Callable[[], None]](16)
        """What must wait until the node is done carrying out the outputs at hand (an answer
        a computer-played seat gives at once)."""
        self._hands_at_start = 0
        self._verdicts_at_start = 0
        self.screen.clock = node.now_ms
        self.screen.asker = self._question

    # ================================================================ running

    async def play(self, nodes: Sequence[Node]) -> int:
        self.term.hide_status()
        self.intro()
        async with trio.open_nursery() as nursery:
            self.screen.replaying = True
            try:
                for node in nodes:
                    await nursery.start(node.run)
            finally:
                self.screen.replaying = False
            self._since = trio.current_time()
            if self.resumed:
                self._restored_step = self.table.chain.step
            self._hands_at_start = len(self.table.hands_played)
            self._verdicts_at_start = len(self.table.verdicts)
            if self.resumed and self.me in self.table.seats_out:
                self.screen.summing_up = going_on.AWAY  # summed up, then asked, at the first tick
            nursery.start_soon(self._clock)
            nursery.start_soon(self._watch)
            nursery.start_soon(self._forced_moves)
            nursery.start_soon(self._later)
            if self.lines is not None and self.auto is None:
                nursery.start_soon(self._input)
            await self.done.wait()
            if self.left:
                # The others are told that this person left, rather than left to guess at a crash.
                for node in nodes:
                    await node.leave()
            else:
                self.screen.activity("Staying a moment so that every seat can catch up…")
                with trio.move_on_after(FINISH_WAIT):
                    for node in nodes:
                        await node.finished.wait()
                await trio.sleep(self.linger)
            nursery.cancel_scope.cancel()
        self.term.hide_status()
        self.term.withdraw()  # the shell's prompt comes after the last line, never after a question
        return self.finish()

    async def _watch(self) -> None:
        await self.node.finished.wait()
        self.turn = None
        self.done.set()

    @property
    def finished(self) -> bool:
        return self.table.over or self.table.fault is not None

    @property
    def watching(self) -> bool:
        """This seat's person follows the others without playing: out of the match, or out of the hand
        (or left behind) without asking back.  Left so, the match may end elsewhere without it."""
        if self.finished:
            return False
        out_now = self.table.seats_out.get(self.me) in ("silent", "unconfirmed") or self.table.left_behind
        return self.me in self.screen.out_of_match or (out_now and not self.questions.returning)

    def tick_nobody(self, now: float) -> None:
        """A resumed seat that hears from no other laptop of the match for the connection clock is told
        so, once, with what that means for its copy of the match (issue 30: a watcher back after
        everyone left found its game unfinished for ever, and nothing said why)."""
        if self._nobody_told or not self.resumed or self.finished or self.done.is_set():
            return
        if any(self.genesis.runner_of(s) != self.me for s in self.connected if s != self.me):
            return
        waited = DISCONNECTED_MS // 1000
        if now - self._since < waited:
            return
        self._nobody_told = True
        hands = len(self.table.hands_played)
        held = f"{words.count(hands, 'hand')} played" if hands else "no hand played yet"
        gone = f"nothing came from any other laptop in {waited} s"
        if self.watching:
            text = (f"Nobody of this match is on the network: {gone}, so their programs are not running, "
                    f"and the match may have ended without you. This laptop holds it unfinished ({held}). "
                    "Only a player of it who is on the network can bring it to its end here: `resume` it "
                    "again while one of them plays. `quit` keeps it as it is.")
        else:
            text = (f"Nobody of this match is on the network yet: {gone}. The game goes on when one of them "
                    f"comes back (`{program()} resume` on their laptop); if the others played on and ended "
                    "it without you, their programs ended with it, and this copy stays unfinished. `quit` "
                    "keeps it as it is.")
        self.term.emit({"event": "notice", "message": text})
        self.screen.say(Text(text, style="yellow"))

    # ================================================================ the start

    def intro(self) -> None:
        seats: list[dict[str, Any]] = []
        rows: list[Text] = []
        for seat, sat in enumerate(self.genesis.seats):
            kind = "you" if seat == self.me else "computer" if seat in self.computers else "player"
            seats.append({"seat": seat, "name": sat.name, "fingerprint": fingerprint(sat.key),
                          "player": kind})
            line = Text(f"  seat {seat}  ")
            line.append(f"{sat.name:<16}", style="bold" if seat == self.me else "")
            line.append(f" {fingerprint(sat.key)}", style="dim")
            if seat == self.me:
                line.append("  you" + (f" (played by a computer, {self.auto})" if self.auto else ""))
            elif kind == "computer":
                line.append(f"  computer player, run by {laptop(self.genesis, self.names, self.me, seat)}",
                            style="dim")
            rows.append(line)
        notes = [Text("Every seat signs this table before the first card, and the deck is shuffled by all "
                      "seats with proofs (mental poker). " + who_sees(self.genesis, self.names, self.me),
                      style="dim")]
        if self.auto is None:
            notes.append(Text("On your turn type a move's number, the move, a card, help, rules or quit.",
                              style="dim"))
        how = "resumed from its journal" if self.resumed else "on the local network"
        self.seat.intro({"seats": seats, "you": self.me, "dealer": self.genesis.dealer,
                         "game_id": self.game_id.hex(), "timeout_s": self.genesis.timeout_ms // 1000,
                         "resumed": self.resumed, "auto": self.auto},
                        f"{len(seats)} players, {how}", rows, notes)

    # ================================================================ events from the node

    def on_event(self, event: NodeEvent) -> None:
        if isinstance(event, out.YourTurn):
            self._your_turn(event)
            return
        if isinstance(event, Thinking):
            return  # this seat's own computer player (--auto): its turn said so already
        if isinstance(event, out.MatchOver | out.Fault):
            self.turn = None
        # A question this event made moot goes before the event is shown, not written again below it.
        before = self.questions.current
        self.questions.prune()
        pruned = self.questions.current is not before
        self.screen.render(event)
        behind = self.turn is not None and self.table.left_behind
        if behind:
            self.turn = None  # the others went past the step this turn is at: no move of it can count
        if (pruned or behind) and not self.done.is_set() and not self.screen.replaying:
            self._ask()

    def on_computer_event(self, event: NodeEvent) -> None:
        """What the host's computer seats report: that one is thinking, and their failures."""
        if isinstance(event, Thinking):
            self.thinking[event.seat] = event.step
            if self.turn is None and not self.done.is_set():
                self.screen.render(event)
        elif isinstance(event, BotError):
            self.thinking.pop(event.seat, None)  # it stopped: the table waits for it, as for anyone
            self.screen.render(event)

    # ================================================================ this seat's turn

    @property
    def turn(self) -> out.YourTurn | None:
        """The turn waiting for the person's move (None: not this seat's turn)."""
        return self.seat.turn

    @turn.setter
    def turn(self, turn: out.YourTurn | None) -> None:
        self.seat.turn = turn

    def _your_turn(self, turn: out.YourTurn) -> None:
        if self.table.left_behind:
            # More than half of the table went on without this seat (it is back to find so, or was cut
            # off): the step it is asked about is behind them, and it plays again only after `return`.
            return
        if self.auto is not None:
            self.seat.begin(turn, person=False)
            self.screen.activity(f"Your seat's computer player ({self.auto}) is thinking…")
            return
        forced = self.seat.begin(turn)
        if forced is not None:
            # Not from here: the node is still carrying out the outputs that brought this turn.
            self._forced_send.send_nowait((forced, self.table.chain.step))
            return
        self._ask()

    def _ask(self) -> None:
        """Ask what is asked now (a question the table put, a move, an amount, whether to leave), or
        take the old prompt away when nothing is."""
        question = None if self.seat.confirming or self.screen.summing_up else self.questions.current
        if question is not None:
            self.questions.show()
        if self.term.json:
            return
        prompt = self.seat.prompt(question)
        if prompt is None:
            self.term.withdraw()  # nothing is asked now: no old prompt stays to be typed at
            return
        self.screen.flush()
        self.term.prompt(prompt)

    async def _input(self) -> None:
        assert self.lines is not None
        while True:
            try:
                raw = await self.lines.get()
            except EndOfInput:
                self.input_ended = True
                self._leave()
                return
            self.term.answered()
            await self._typed(raw)

    async def _typed(self, raw: str) -> None:
        if self.done.is_set():
            return
        decision = self.seat.read(raw, self.questions.current, self.questions.gone,
                                  not_your_turn=f"It is not your turn: {self.waiting_text()}.")
        if isinstance(decision, Leave):
            self._leave()
            return
        if isinstance(decision, Move):
            await self._move(decision.text)
            return
        if isinstance(decision, menu.Command):
            self._command(decision)
            return
        if isinstance(decision, Answer):
            self.questions.answer(decision.question, decision.meaning)
        elif isinstance(decision, Late):
            self.questions.late(decision.why)
        elif isinstance(decision, Problem):
            self.screen.problem(raw, decision.message)
        elif decision.said:
            self.screen.say(Text(decision.said, style="dim"))
        self._ask()

    async def _move(self, text: str) -> None:
        turn = self.seat.moved()  # acting may bring this seat's next turn at once
        try:
            await self.node.act(text)
        except ActionError as exc:
            if self.turn is None and self.me in self.table.waiting_for and not self.finished:
                self.turn = turn
            self.screen.problem(text, self.screen.explain(exc))
            self._ask()

    def _command(self, command: menu.Command) -> None:
        if command == RETURN:
            self._return()
            return
        short = self.game_id.hex()[:12]
        leaving = () if self.term.json else (Text(
            "If you leave, the others are told that you left, and they may go on without you (the hand "
            f"being played is then dealt again without you). `{program()} resume {short}` brings you back "
            "to this game.", style="dim"),)
        self.seat.command(command, self.waiting_text, leaving)
        self._ask()

    def _leave(self) -> None:
        self.left = True
        self.turn = None
        self.done.set()

    # ================================================================ the game going on without this seat

    def _question(self, question: questions.Question) -> None:
        """A question from the screen: a person is asked; a computer-played seat answers at once
        (it asks to play again; it watches when out of the match; it admits a player back, as a
        computer seat does: else that player's return would wait for an answer nobody gives)."""
        if question.kind == questions.RETURN and self.questions.returning:
            return  # asked already: the others sign it at the end of the hand
        if self.auto is not None or self.lines is None:
            if question.kind == questions.RETURN:
                self._later_send.send_nowait(self.questions.ask_to_return)
            elif question.kind == questions.OUT:
                self._later_send.send_nowait(self.questions.answers.watch)
            elif question.kind == questions.ADMIT:
                seat = question.seats[0]
                self._later_send.send_nowait(lambda: self.questions.answers.admit(seat, True))
            return
        self.questions.add(question)
        if self.questions.current is question and not self.screen.summing_up:
            self._later_send.send_nowait(self._ask)

    def _last_hand(self) -> bool:
        """The hand being played is the match's last: there is no next one to be dealt in at."""
        match = self.table.match
        left = None if match is None else match.hands_left()
        return left is not None and left <= 1

    def _return(self) -> None:
        why = self.table.seats_out.get(self.me)
        if why == "unconfirmed" or self.table.left_behind:
            why = "silent"  # out, or left behind by the others: either way it may ask to come back
        if self.table.left_behind and going_on.ends_without(self.screen, (self.me,)):
            self.questions.ask_to_return()  # agrees that the others' word ended the match
        elif why == "silent" and self._last_hand() and not self.questions.returning:
            self.screen.problem("return", "This is the match's last hand: there is no next hand to be dealt "
                                          "in at. You may watch it to its end, or leave.")
        elif why == "silent" and not self.questions.returning:
            self.questions.ask_to_return()
        elif why == "silent":
            self.screen.say(Text("You asked already: the players still at the table sign your return at "
                                 "the end of this hand.", style="dim"))
        elif why == "cheat":
            self.screen.problem("return", "A seat named a cheater cannot come back to this match.")
        else:
            self.screen.problem("return", "You are playing: there is nothing to come back to.")
        self._ask()

    async def _later(self) -> None:
        async for call in self._later_recv:
            if not self.done.is_set():
                call()

    def _away_summary(self) -> None:
        """Back after a while (``resume``, or a link that came back) to find the others went on
        without this seat: what happened meanwhile, then the question what to do."""
        table = self.table
        hands = table.hands_played[self._hands_at_start:]
        verdicts = [v for v in table.verdicts[self._verdicts_at_start:] if v.kind != "return"]
        first = self._hands_at_start + 1
        self.term.emit({"event": "away", "hands": len(hands), "first_hand": first - 1,
                        "verdicts": [{"kind": v.kind, "hand": v.hand, "seats": list(v.seats or (v.seat,)),
                                      "names": [self.real_names[s] for s in (v.seats or (v.seat,))]}
                                     for v in verdicts],
                        "why": table.seats_out.get(self.me)})
        if hands:
            span = f"hand {first}" if len(hands) == 1 else f"hands {first} to {first + len(hands) - 1}"
            were = "was" if len(hands) == 1 else "were"
            played = f"{words.count(len(hands), 'hand')} {were} played without you"
            text = f"While you were away {played} ({span})."
        else:
            text = "While you were away the others went on without you; no hand has ended since."
        self.screen.say(Text(text, style="bold"))
        for v in verdicts:
            seats = v.seats or (v.seat,)
            who = words.join([self.names[s] for s in seats])
            was = "were" if len(seats) > 1 or who == words.YOU else "was"
            kind = "voted out (silent)" if v.kind == "silent" else f"named a cheater ({v.kind})"
            line = words.you_case(f"  Hand {v.hand + 1}: {who} {was} {kind}.")
            self.screen.say(Text(line, style="dim"))
        standings = self.screen.standings()
        if standings:
            self.screen.say(Text(standings, style="dim"))

    # ================================================================ who the game waits for

    def waiting_text(self) -> str:
        why = self.table.seats_out.get(self.me)
        if why == "unconfirmed" or self.table.left_behind:
            why = "silent"
        if self.me in self.screen.out_of_match:
            return "you are out of the match and watch the others"
        if why == "silent" and self.questions.returning:
            return "you asked to play again: waiting for the players still at the table to sign it"
        if why == "silent" and self._last_hand():
            return "the others play the match's last hand without you: watch it to its end, or `quit`"
        if why == "silent":
            return "the others play on without you: type `return` to ask to play again, or `quit`"
        if why == "cheat":
            return "you are out of the match (named a cheater) and watch the others"
        missing = [s for s in self.table.waiting_for if s != self.me]
        if not missing:
            return "the table is working"
        step = self.table.chain.step
        if all(self.thinking.get(s) == step or self._remote_computer_moving(s) for s in missing):
            names = [self.names[s] for s in missing]
            return f"{words.join(names)} {'is' if len(names) == 1 else 'are'} thinking"
        names = [self.names[s] + (" (disconnected)" if s in self.dropped else "") for s in missing]
        return "waiting for " + words.join(names)

    def _remote_computer_moving(self, seat: int) -> bool:
        """A computer player on another laptop, connected, whose move the table waits for: it thinks
        (this laptop cannot see its search, but nothing else can hold it up)."""
        att = self.table.attempt
        exp = att.expect if att is not None else None
        return (
            exp is not None
            and exp.kind == "action"
            and seat not in self.computers
            and seat not in self.dropped
            and self.genesis.runner_of(seat) not in (None, self.me)
        )

    async def _clock(self) -> None:
        while True:
            await trio.sleep(CLOCK)
            self._tick_questions()
            self._tick_wait()
            self.tick_nobody(trio.current_time())

    def _tick_questions(self) -> None:
        if self.done.is_set():
            return
        if self.screen.summing_up and not self.finished:
            # What arrived in the burst since this seat found itself out is summed up: now say what
            # happened meanwhile, and ask what to do.
            self.screen.summing_up = ""
            self._away_summary()
            if not self.questions.open:
                going_on.ask_if_out(self.screen)
            self._ask()
            return
        before = self.questions.current
        self.questions.prune()
        self.questions.countdown()
        if self.questions.current is not before:
            self._ask()

    async def _forced_moves(self) -> None:
        """Play the moves there was no choice about, once the node is done with the turn's outputs."""
        async for text, step in self._forced_recv:
            if self.finished or self.table.chain.step != step or self.me not in self.table.waiting_for:
                continue  # the table moved on meanwhile (a restore, a vote): nothing to play
            try:
                await self.node.act(text)
            except ActionError as exc:
                self.screen.problem(text, self.screen.explain(exc))

    def _tick_wait(self) -> None:
        if self.finished or self.done.is_set():
            return
        step, now = self.table.chain.step, trio.current_time()
        if step != self._step_since[0]:
            self._step_since = (step, now)
            self._reported = 0.0
        waited = now - self._step_since[1]
        if self.turn is not None and self.auto is None:
            self._warn_move_clock(step, waited)
        missing = [s for s in self.table.waiting_for if s != self.me]
        if not missing or self.turn is not None or self.seat.confirming:
            return
        waiting = self.waiting_text()
        text = f"{waiting[:1].upper()}{waiting[1:]} · {int(waited)} s"
        timeout = self.genesis.timeout_ms // 1000
        if self.me in self.table.seats_out or self.me in self.screen.out_of_match:
            text = f"{waiting[:1].upper()}{waiting[1:]}"
        elif timeout / 2 < waited < timeout:
            # counted down, as the seconds waited are counted up beside it
            left = words.duration(max(1, int(timeout - waited)))
            text += (f" (in {left} you are asked whether to go on without them)" if self.auto is None
                     else f" (in {left} your program may vote to go on without them)")
        if self.term.json:
            if waited >= JSON_WAIT_FIRST and waited - self._reported >= JSON_WAIT_EVERY:
                self._reported = waited
                self.term.emit({"event": "waiting", "step": step, "seats": missing,
                                "names": [self.real_names[s] for s in missing], "seconds": int(waited)})
        elif self.term.interactive:
            self.screen.activity(text + "…")
        elif waited >= TEXT_WAIT_EVERY and waited - self._reported >= TEXT_WAIT_EVERY:
            self._reported = waited
            self.screen.say(Text(text, style="dim"))

    def _warn_move_clock(self, step: int, waited: float) -> None:
        """The person's own move clock, counted down on their screen: at each mark before it runs out
        (once per step), say how long is left and what happens then (SPEC §10: a connected player is
        never named silent before it ran out)."""
        if step == self._restored_step:
            # Not a fresh clock: the others' has run since before this program started.
            if (step, -1) not in self._clock_said:
                self._clock_said.add((step, -1))
                self.term.emit({"event": "move_clock", "step": step, "seconds_left": 0})
                self.screen.say(Text("The others have waited for this move since before you were back, for "
                                     "longer than this screen can know: they may be asked already whether to "
                                     "go on without you. Move now to stay in the hand.", style="bold yellow"))
            return
        if waited * 1000 >= self.genesis.timeout_ms:
            # Run out: the others' tables now ask their people (or vote) whether to go on without this
            # seat; nothing of it reaches this table until they have decided, so it is said from here.
            if (step, 0) not in self._clock_said and self._others_asked():
                self._clock_said.add((step, 0))
                self.term.emit({"event": "move_clock", "step": step, "seconds_left": 0})
                self.screen.say(Text("Your move clock ran out: the others are being asked whether to go on "
                                     "without you. Move now to stay in the hand.", style="bold yellow"))
            return
        left = int(self.genesis.timeout_ms / 1000 - waited)
        marks = [m for m in MOVE_CLOCK_MARKS_S if left <= m and (step, m) not in self._clock_said]
        if not marks or left < 0:
            return
        self._clock_said.update((step, m) for m in marks)
        self.term.emit({"event": "move_clock", "step": step, "seconds_left": max(0, left)})
        self.screen.say(Text(f"Your move clock: {words.duration(max(0, left))} left; then the others may go "
                             "on without you.", style="bold yellow"))

    def _others_asked(self) -> bool:
        """Whether anyone is asked about this seat once its move clock ran out: another laptop's seat,
        connected and still at the table (this laptop's own computer players never name it)."""
        out_now = self.table.seats_out
        return any(
            seat != self.me and seat not in self.computers and self.genesis.runner_of(seat) != self.me
            and seat in self.connected and seat not in self.dropped and seat not in out_now
            for seat in range(len(self.genesis.seats))
        )

    # ================================================================ the end

    def finish(self) -> int:
        if self.left:
            others = self.connected - self.dropped - self.computers  # not this laptop's own seats
            told = " The others were told that you left." if others else ""
            self.seat.left(self.screen.hand, self.input_ended, told)
        self.seat.saved(self.game_id, self.finished, journal=str(store_paths.journal_path(self.game_id)))
        if self.left:
            return EXIT_INPUT_ENDED if self.input_ended else 0
        if self.table.fault is not None:
            return 1
        if not self.table.over:
            self.seat.stuck()
            return 1
        return 0

    # ================================================================ the network's own events

    def _peer(self, screen: GameScreen, event: PeerUp | PeerDown) -> None:
        """A peer's link came up or went down (this screen's renderer of both)."""
        name = screen.names[event.seat]
        real = screen.real_names[event.seat]
        if isinstance(event, PeerUp):
            known = event.seat in self.connected
            self.connected.add(event.seat)
            self.dropped.discard(event.seat)
            screen.term.emit({"event": "peer", "seat": event.seat, "name": real, "up": True})
            if event.seat in self.table.seats_out:
                screen.say(Text(f"{name}'s program is connected again: {name} follows the game and may "
                                "ask to play again.", style="dim"))
            elif event.seat not in self.computers:
                back = "back: the connection was restored" if known else "connected"
                screen.say(Text(f"{name} is {back}.", style="dim"))
            return
        if self.finished or self.done.is_set():
            return
        self.dropped.add(event.seat)
        screen.term.emit({"event": "peer", "seat": event.seat, "name": real, "up": False,
                          "reason": event.reason})
        if event.seat in self.table.seats_out or event.seat in screen.out_of_match:
            screen.say(Text(f"{name}'s program is no longer connected ({event.reason}).", style="dim"))
            return
        gone = words.duration(DISCONNECTED_MS // 1000)
        then = "you are asked whether to go on without them" if self.auto is None else \
            "the table may go on without them"
        if event.left:
            if self.genesis.runner_of(event.seat) is not None:
                runner = laptop(self.genesis, screen.names, self.me, event.seat)
                screen.say(Text(f"{name}, the computer player {runner} runs, left the game with it.",
                                style="yellow"))
                return
            screen.say(Text(f"{name} left the game (quit). When the game waits for {name}, {then}; {name} "
                            "may come back to this game later and ask to be dealt in again.", style="yellow"))
            return
        screen.say(Text(f"Lost the connection to {name} ({event.reason}). If {name}'s program is still "
                        f"running it reconnects; if nothing comes from {name}'s laptop for {gone} while the "
                        f"game waits for them, {then}.", style="yellow"))


# ============================================================================ the network's own events


def _thinking(screen: GameScreen, event: Thinking) -> None:
    screen.thinking(event.seat)


def _bot_error(screen: GameScreen, event: BotError) -> None:
    screen.note(f"{screen.names[event.seat]}: {event.message}", seat=event.seat)
