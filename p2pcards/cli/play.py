"""``p2pcards play GAME``: play offline against computer players, in the terminal.

Every seat is a peer in this process (``p2pcards.local.LocalRoom``): its own identity key, its own
replica of the table, the mental-poker dealer, the signed log — the code path of a LAN game.  The
game is saved as it goes (the player's seat's journal, every seat's key and secrets, see
``p2pcards.cli.games``), so ``p2pcards verify`` can check it and ``p2pcards resume`` can continue it
after ``quit``, Ctrl-C or a crash.

``--auto LEVEL`` lets a computer play the player's seat; ``--json`` prints events as JSON lines (and
reads moves as plain lines from standard input).  Exit status: 0 when the match ended or the player
left with ``quit``, 1 when a fault stopped the game, 2 on bad arguments, 3 when the input ended
before the match did, 130 after Ctrl-C (the game is kept in the last two cases).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import select
import sys
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.text import Text

from p2pcards import games, store
from p2pcards.ai.base import LEVELS
from p2pcards.ai.budget import parse_think, set_default_think
from p2pcards.cli import games as saved_games
from p2pcards.cli.common import (
    UsageError,
    add_game_argument,
    game_options,
    load_rules,
    program,
    think_time,
)
from p2pcards.cli.screen import going_on, menu, questions, words
from p2pcards.cli.screen.events import game_screen
from p2pcards.cli.screen.screen import GameScreen
from p2pcards.cli.seat import (
    LEAVE_PROMPT,
    MOVE_PROMPT,
    RETURN,
    Again,
    Answer,
    Decision,
    Leave,
    Move,
    Problem,
    Seat,
)
from p2pcards.cli.terminal import Terminal
from p2pcards.games import ActionError
from p2pcards.local import DEALERS, NAMES, LocalRoom, Notice, Thinking
from p2pcards.table import outputs as out
from p2pcards.table.genesis import GenesisError

PLAYER_LEVELS = (*LEVELS, "random")
EXIT_INPUT_ENDED = 3
EXIT_INTERRUPTED = 130
COMPUTERS_PLAY = "the computers are playing"
NOT_YOUR_TURN = ("It is not your turn: the computer players are playing. help, table, rules and quit work "
                 "now.")


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "play", help="play offline against computer players",
        description=(
            "Play a match against computer players on this machine. Every seat is a peer with its own "
            "key and the deck is dealt by mental poker, exactly as on the LAN. Exit status: 0 the match "
            "ended or you left, 1 a fault stopped the game, 2 bad arguments, 3 the input ended first, "
            "130 interrupted (the game is kept: p2pcards resume)."
        ),
    )
    add_game_argument(p)
    p.add_argument("--players", type=int, default=None, metavar="N",
                   help="how many players, you included (Spades: 4; Durak and Azi: 2-6)")
    p.add_argument("--level", default="normal", metavar="LEVEL",
                   help=f"the computer players' level: {', '.join(PLAYER_LEVELS)} (default normal)")
    p.add_argument("--seat", type=int, default=0, metavar="K", help="your seat, 0 to N-1 (default 0)")
    p.add_argument("--think", default="1", metavar="SECONDS",
                   help="how long a Hard computer player thinks at most per decision (default 1)")
    p.add_argument("--auto", default=None, metavar="LEVEL",
                   help="let a computer player of LEVEL play your seat (nothing is read from the keyboard)")
    p.add_argument("--json", action="store_true",
                   help="print events as JSON lines; moves are read as lines from standard input")
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help="make the game reproducible: keys, deck secrets and computer players from S")
    p.add_argument("--dealer", default="mental", metavar="KIND",
                   help="mental (default: mental poker) or seeded (a public test deck, for quick tests)")
    p.add_argument("--no-save", action="store_true",
                   help="do not keep the game (by default it is kept for `p2pcards verify` and `resume`)")
    p.set_defaults(run=run)


def _level(value: str, flag: str) -> str:
    key = value.strip().lower()
    if key not in PLAYER_LEVELS:
        raise UsageError(f"{flag} must be one of {', '.join(PLAYER_LEVELS)}, not {value!r}")
    return key


check_level = _level


def make_room(args: argparse.Namespace) -> LocalRoom:
    """The room the arguments describe; ``UsageError`` on anything wrong with them."""
    options = game_options(args.option)
    level = _level(args.level, "--level")
    try:
        set_default_think(parse_think(args.think))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    auto = None if args.auto is None else _level(args.auto, "--auto")
    if args.dealer not in DEALERS:
        raise UsageError(f"--dealer must be one of {', '.join(DEALERS)}, not {args.dealer!r}")
    if args.game.strip().lower() not in games.GAMES:
        raise UsageError(f"unknown game {args.game!r}; the games are: {', '.join(games.GAMES)}")
    if args.players is not None and not 2 <= args.players <= 6:
        raise UsageError(f"--players must be from 2 to 6, not {args.players}")
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
        if args.no_save:
            return LocalRoom(game, **kwargs)
        try:
            room = LocalRoom(game, **kwargs, journal=saved_games.new_store)
        except store.StoreError as exc:
            print(f"p2pcards play: note: the game will not be saved ({exc})", file=sys.stderr)
            return LocalRoom(game, **kwargs)
    except (games.GameError, GenesisError) as exc:
        raise UsageError(str(exc)) from exc
    try:
        saved_games.save_offline(saved_games.OfflineRecord.of(room, auto))
    except (OSError, store.StoreError) as exc:
        room.close()
        raise UsageError(f"the game cannot be saved ({exc}); use --no-save to play without saving") from exc
    return room


def run(args: argparse.Namespace) -> int:
    room = make_room(args)
    return play_room(room, json_mode=args.json)


def resume(
    record: saved_games.OfflineRecord, *, auto: str | None, json_mode: bool, think: str | None = None
) -> int:
    """``p2pcards resume`` of an offline game: every seat restored from the journal, then play on, the
    computer players thinking for ``think`` seconds (``--think``), or as long as when it was started."""
    set_default_think(think_time(think, record.think_ms))
    game_id = record.game_id.hex()
    if record.finished:
        if json_mode:
            Terminal(json_mode=True).emit({"event": "over", "game_id": game_id})
        else:
            print(f"This game is over. Check it with  {program()} verify {game_id[:12]}")
        return 0
    if auto is not None:
        levels = dict(record.levels)
        levels[record.viewpoint] = _level(auto, "--auto")
        from dataclasses import replace

        record = replace(record, human=None, levels=levels, auto=levels[record.viewpoint])
    try:
        room = saved_games.resume_room(record)
    except store.JournalBusy as exc:
        raise UsageError(f"{exc} (is the game still running in another window?)") from exc
    except store.StoreError as exc:
        raise UsageError(f"the game cannot be resumed: {exc}") from exc
    return play_room(room, json_mode=json_mode, resumed=True)


def play_room(room: LocalRoom, *, json_mode: bool, resumed: bool = False) -> int:
    """Play ``room`` at this terminal (or for a program, ``json_mode``) to its end or until the player
    leaves; the room's journal is closed on the way out, whatever happens."""
    saved = saved_games.is_saved(room)
    session: Session | None = None
    closed = False
    try:
        session = Session(room, json_mode=json_mode, saved=saved, resumed=resumed)
        try:
            return session.play()
        except KeyboardInterrupt:
            session.interrupted()
            return EXIT_INTERRUPTED
        except BrokenPipeError:
            closed = True
            raise
    finally:
        room.close()
        # Nothing to keep: stopped before the first message, or nobody could have played it (its
        # output was closed, ``--json | head``, before a person made a move; a new game only).
        unplayed = closed and not resumed and (session is None or not session.moved)
        if saved and (unplayed or not saved_games.has_messages(room.game_id)):
            with contextlib.suppress(OSError, store.StoreError):
                saved_games.remove(room.game_id)


# ============================================================================ the session


class _Leave(Exception):
    """The player left: ``quit`` confirmed (``ended`` False) or the end of input (``ended`` True)."""

    def __init__(self, ended: bool) -> None:
        super().__init__("left")
        self.ended = ended


class Session:
    """One match at the terminal: the offline loop around the seat controller (``p2pcards.cli.seat``,
    shared with the LAN game): lines are read between the computers' frames, and what they mean is
    carried out on the room."""

    def __init__(self, room: LocalRoom, *, json_mode: bool = False, saved: bool = False,
                 console: Console | None = None, read: Callable[[str], str] | None = None,
                 resumed: bool = False) -> None:
        self.room = room
        self.json = json_mode
        self.saved = saved
        self.resumed = resumed
        self.term = Terminal(console or Console(highlight=False), json_mode=json_mode)
        self._read = read
        self.names = room.names
        self.screen = game_screen(self.term, room.genesis, room.viewpoint, lambda: room.table, room.names)
        self.screen.register(_thinking, Thinking)
        self.screen.register(_notice, Notice)
        self.seat = Seat(self.screen, lan=False)
        self.game = room.rules.name
        self.kept: bool | None = None
        """Whether a game left unfinished is kept for later (None: not asked)."""
        self.moved = False
        """A person made a move at this session (a game nobody played is not kept if its output closes)."""
        self.question: questions.Question | None = None
        """A question for the player that arrived while the computers played (asked between frames)."""
        room.table_listener = self._table_event
        if room.human is not None:  # with --auto nothing is read: the player's seat watches on
            self.screen.asker = self._question

    @property
    def console(self) -> Console:
        return self.term.console

    # ------------------------------------------------------------------ reading

    def read(self, prompt: str, question: str | None = None, *, told: bool = False) -> str:
        """A line of input; ``EOFError`` at the end of input.  ``question``: the kind of question it
        answers, for programs (``--json``), unless they were ``told`` of the prompt already."""
        if self._read is not None:
            return self._read(prompt)
        if self.json:
            asked: dict[str, Any] = {"event": "prompt", "prompt": prompt.strip()}
            if question is not None:
                asked["question"] = question
            if not told:
                self.term.emit(asked)
            line = sys.stdin.readline()
            if not line:
                raise EOFError
            return line.rstrip("\n")
        self.screen.flush()
        self.term.prompt(prompt)
        try:
            return input()
        finally:
            self.term.answered()

    def _typed_meanwhile(self) -> bool:
        """A line is waiting on the keyboard while the computers play (a terminal only)."""
        if self._read is not None or self.json or not sys.stdin.isatty() or os.name != "posix":
            return False
        ready, _, _ = select.select([sys.stdin], [], [], 0)
        return bool(ready)

    # ------------------------------------------------------------------ the match

    def play(self) -> int:
        self.intro()
        try:
            if self.resumed:
                self.restore()
            while True:
                if self.question is not None:
                    self.meanwhile()
                turn = self.advance()
                if self.question is not None:
                    self.meanwhile()
                    if turn is None:
                        continue
                if turn is None and self.room.interrupted:
                    self.meanwhile()
                    continue
                if turn is None:
                    return self.finish()
                self.take_turn(turn)
        except _Leave as leaving:
            return self.leave(leaving.ended)

    def intro(self) -> None:
        room = self.room
        seats = []
        rows: list[Text] = []
        for seat, name in enumerate(self.names):
            level = room.level_of(seat)
            seats.append({"seat": seat, "name": name, "player": "you" if level is None else "computer",
                          "level": level})
            row = Text(f"  {name:<8}", style="bold" if seat == room.viewpoint else "")
            row.append(f"seat {seat}   ")
            if seat == room.viewpoint and room.human is None:
                row.append(f"played for you by a computer ({level})", style="dim")
            elif level is not None:
                row.append(f"computer ({level})", style="dim")
            rows.append(row)
        if room.genesis.dealer == "mental":
            notes = [Text("Every seat is a peer with its own key; all of them shuffle the deck with proofs "
                          "(mental poker), and each computer player sees only its own cards.", style="dim")]
        else:
            notes = [Text("Seeded test dealer: the deck order follows from a public seed (for tests only).",
                          style="yellow")]
        if room.human is not None:
            notes.append(Text(f"Type a move's number, the move ({self.screen.face.example}), a card (7h), "
                              "help, rules or quit.", style="dim"))
        if self.resumed:
            notes.append(Text("Restoring the game from its journal…", style="dim"))
        how = "offline, resumed" if self.resumed else "offline"
        self.seat.intro({"seats": seats, "you": room.viewpoint, "dealer": room.genesis.dealer,
                         "seed": room.seed, "game_id": room.game_id.hex(), "resumed": self.resumed,
                         "saved": self.saved}, f"{room.n} players, {how}", rows, notes)

    def advance(self) -> out.YourTurn | None:
        """Let the computer seats play until it is the player's turn, the match is over, or the
        player typed something meanwhile (``room.interrupted``)."""
        turn = self.room.run_until_human(self.on_event, interrupt=self._interrupt)
        self.screen.activity("")
        self.term.hide_status()
        return turn

    def restore(self) -> None:
        """Replay the saved game (its hands summed up), then say where it stands and, if the player
        was out of the match already, ask again what to do before anything else happens."""
        self.screen.replaying = True
        try:
            self.room.start()
        finally:
            self.screen.replaying = False
        if not self.json:
            standings = self.screen.standings()
            said = f"Resumed at hand {self.room.hand_number + 1}."
            if standings:
                said += f" {standings[:1].upper()}{standings[1:]}"
            self.screen.say(Text(said, style="bold"))
        going_on.ask_if_out(self.screen)

    def _table_event(self, event: object) -> None:
        if isinstance(event, out.YourTurn) and self.room.human is None:
            # The player's seat is played by a computer (--auto): its turns are shown as they come.
            self.seat.begin(event, person=False)
        self.screen.render(event)

    def on_event(self, event: object) -> None:
        """The room's own events (the table's come through ``table_listener``)."""
        if isinstance(event, Thinking | Notice):
            self.screen.render(event)

    def _interrupt(self) -> bool:
        return self.question is not None or self._typed_meanwhile()

    def _question(self, question: questions.Question) -> None:
        """The screen has a question for the player: asked as soon as the room stops between frames."""
        self.question = question

    def answer(self, question: questions.Question) -> None:
        """Ask ``question`` until it is answered (Ctrl-D: leave, keeping the game); the commands
        work meanwhile."""
        for line in question.lines:
            self.screen.say(line)
        while True:
            try:
                raw = self.read(question.prompt, question.kind)
            except EOFError:
                raise _Leave(ended=True) from None
            decision = self.seat.read(raw, question)
            if isinstance(decision, Answer):
                break
            self.carry_out(decision, raw)
        meaning = decision.meaning
        self.term.emit({"event": "answer", "question": question.kind, "answer": meaning})
        if question.kind == questions.OUT and meaning == "leave":
            raise _Leave(ended=False)
        if question.kind == questions.OUT:
            self.screen.say(Text("You watch the others play on; `quit` leaves at any time.", style="dim"))

    def meanwhile(self) -> None:
        """The player typed while the computers were playing: commands work, moves wait their turn;
        or the screen has a question for the player."""
        question, self.question = self.question, None
        if question is not None:
            if not self.room.finished:  # a question the end of the match made moot is not asked
                self.answer(question)
            return
        line = sys.stdin.readline()
        if not line:
            raise _Leave(ended=True)
        self.carry_out(self.seat.read(line, not_your_turn=NOT_YOUR_TURN), line.strip())

    # ------------------------------------------------------------------ the player's turn

    def take_turn(self, turn: out.YourTurn) -> None:
        forced = self.seat.begin(turn, person=True)
        if forced is not None:
            self.room.human_action(forced)
            return
        while self.seat.turn is not None:
            prompt = self.seat.prompt() or MOVE_PROMPT
            try:
                raw = self.read(prompt)
            except EOFError:
                raise _Leave(ended=True) from None
            self.carry_out(self.seat.read(raw), raw)

    def carry_out(self, decision: Decision, raw: str) -> None:
        """What the seat made of a typed line, done: a move played, a command carried out, a
        mistake told."""
        if isinstance(decision, Move):
            turn = self.seat.moved()
            try:
                self.room.human_action(decision.text)
            except ActionError as exc:
                self.seat.turn = turn
                self.screen.problem(raw, self.screen.explain(exc))
                return
            self.moved = True
        elif isinstance(decision, menu.Command) and decision == RETURN:
            self.screen.problem(raw, "You are playing: there is nothing to come back to.")
        elif isinstance(decision, menu.Command):
            self.seat.command(decision, lambda: COMPUTERS_PLAY)
            if self.seat.confirming:
                self.confirm_quit()
        elif isinstance(decision, Problem):
            self.screen.problem(raw, decision.message)
        elif isinstance(decision, Again) and decision.said:
            self.screen.say(Text(decision.said, style="dim"))
        elif isinstance(decision, Leave):
            raise _Leave(ended=False)

    def confirm_quit(self) -> None:
        """``quit``: leave? (the end of input says yes) — and whether to keep the game for later."""
        try:
            answer = self.read(LEAVE_PROMPT, told=True)
        except EOFError:
            answer = "y"
        decision = self.seat.read(answer)
        if isinstance(decision, Leave) and self.saved and not self.room.finished:
            short = self.room.game_id.hex()[:12]
            try:
                keep = self.read(f"Keep the game to finish later ({program()} resume {short})? [Y/n] ")
            except EOFError:
                keep = "y"
            self.kept = keep.strip().lower() not in ("n", "no")
        self.carry_out(decision, answer)

    # ------------------------------------------------------------------ the end

    def finish(self) -> int:
        room = self.room
        if room.finished:
            saved_games.mark_finished(room)
        self.saved_line()
        if room.fault is not None:
            return 1
        if not room.over:  # nothing left to do and no verdict: cannot happen with honest seats
            self.seat.stuck()
            return 1
        return 0

    def leave(self, ended: bool) -> int:
        self.seat.left(self.room.hand_number, ended)
        if self.kept is False:
            self._forget()
        else:
            self.saved_line()
        return EXIT_INPUT_ENDED if ended else 0

    def _forget(self) -> None:
        self.room.close()
        saved_games.remove(self.room.game_id)
        self.term.emit({"event": "removed", "game_id": self.room.game_id.hex()})
        self.screen.say(Text("The game was not kept.", style="dim"))

    def interrupted(self) -> None:
        self.term.hide_status()
        game_id = self.room.game_id.hex()
        self.term.emit({"event": "interrupted", "game_id": game_id, "kept": self.saved})
        if self.json:
            return
        self.term.answered()
        self.screen.say()  # off the line of the prompt (or of the ^C the terminal echoed)
        if self.saved and not self.room.finished and self.room.table.chain.step > 0:
            self.screen.say(words.with_command("Interrupted. The game is kept: come back to it with",
                                                f"{program()} resume {game_id[:12]}", self.width, "bold"))
        else:
            self.screen.say(Text("Interrupted.", style="dim"))

    def saved_line(self) -> None:
        if self.saved:
            self.seat.saved(self.room.game_id, self.room.finished)

    @property
    def width(self) -> int:
        return self.term.console.width


# ============================================================================ the room's own events


def _thinking(screen: GameScreen, event: Thinking) -> None:
    screen.thinking(event.seat)


def _notice(screen: GameScreen, event: Notice) -> None:
    screen.note(event.text, event.seat)


__all__ = ["EXIT_INPUT_ENDED", "Session", "make_room", "play_room", "register", "resume", "run"]
