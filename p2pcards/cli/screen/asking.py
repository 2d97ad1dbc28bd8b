"""The questions open for the person at a LAN seat, and where their answers go.

The table's questions arrive while the network goes on (a seat goes silent during the person's own
turn, a seat asks to come back in the middle of a hand), so more than one may be open: they are
answered oldest first, and a line that answers none of them is left to the turn and the commands.
A question the table has moved past is dropped (the silent seat spoke after all, the hand went on by
itself at the deadline, the seat that asked is back); a silent seat's deadline is counted down.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from rich.text import Text

from p2pcards.cli.screen import questions, words
from p2pcards.cli.screen.questions import Question
from p2pcards.cli.screen.screen import GameScreen
from p2pcards.table.outputs import Fault

MOOT_WHY = {
    "over": "the match is over",
    "out": "you are out of this hand",
    "spoke": "they answered after all",
    "went on": "the table went on without them",
    "back": "they are back at the table",
    "asked": "you asked already",
}
"""Why a question was dropped, as a late answer to it is told."""

COUNTDOWN_S = (120, 60, 30, 10)
"""Seconds before a silent seat's deadline at which the screen says how long is left."""

BACK = -1
"""The countdown mark of a question whose seats are connected again (no deadline to count)."""
KEPT = -2
"""The mark of a question whose deadline passed while its seats were connected (the program waits)."""


class Answers(Protocol):
    """Where the answers go: a ``p2pcards.net.node.Node`` (or a table's shell of the same shape)."""

    def decide_silent(self, go_on: bool) -> None: ...

    def admit(self, seat: int, yes: bool) -> None: ...

    def ask_to_return(self) -> None: ...

    def watch(self) -> None: ...


class OpenQuestions:
    """The person's open questions at one seat (``screen``); ``leave`` ends the game for them."""

    def __init__(self, screen: GameScreen, answers: Answers, leave: Callable[[], None]) -> None:
        self.screen = screen
        self.answers = answers
        self.leave = leave
        self.open: list[Question] = []
        self._shown: list[Question] = []
        self._counted: dict[int, int] = {}
        """Per silent step, the last countdown mark said."""
        self.returning = False
        """This seat asked to be dealt in again and waits for the others to sign it."""
        self._gone: tuple[Question, str] | None = None
        """The last question dropped as moot, and why: a late answer to it is told so."""

    @property
    def current(self) -> Question | None:
        return self.open[0] if self.open else None

    def add(self, question: Question) -> None:
        """Open ``question`` (replacing an open one of the same kind about the same seats)."""
        self.open = [q for q in self.open if (q.kind, q.seats) != (question.kind, question.seats)]
        self.open.append(question)

    def show(self) -> None:
        """Say what the current question is about (once), and tell programs what the next line answers."""
        question = self.current
        if question is None or any(q is question for q in self._shown):
            return
        self._shown = [q for q in self._shown if any(q is o for o in self.open)] + [question]
        term = self.screen.term
        term.emit({"event": "prompt", "prompt": question.prompt.strip(), "question": question.kind,
                   "seats": list(question.seats), **question.fields})
        for line in question.lines:
            self.screen.say(line)

    @property
    def gone(self) -> tuple[Question, str] | None:
        """The last question dropped as moot, and why (a late answer to it is told so)."""
        return self._gone

    def take(self, raw: str) -> bool:
        """Answer the current question with ``raw`` if it is an answer to it (or tell a late answer
        to the last moot one that it came late); whether it was."""
        question = self.current
        if question is None and self._gone is not None and self._gone[0].read(raw) is not None:
            self.late(self._gone[1])
            return True
        meaning = None if question is None else question.read(raw)
        if question is None or meaning is None:
            return False
        self.answer(question, meaning)
        return True

    def late(self, why: str) -> None:
        """A late answer to a question the table moved past: say so, rather than read it as a move."""
        self._gone = None
        self.screen.say(Text(f"That question is no longer open ({MOOT_WHY.get(why, why)}).", style="dim"))

    def answer(self, question: Question, meaning: str) -> None:
        """``question`` (an open one) is answered with ``meaning``: carried out."""
        self.open = [q for q in self.open if q is not question]
        self.screen.term.emit({"event": "answer", "question": question.kind, "answer": meaning,
                               "seats": list(question.seats)})
        self._carry_out(question, meaning)

    def ask_to_return(self) -> None:
        """Ask the seats still playing to deal this seat in again (``return``, or its question);
        once is enough until they answer."""
        self.open = [q for q in self.open if q.kind != questions.RETURN]
        if self.returning:
            return
        from p2pcards.cli.screen.going_on import ends_without

        self.returning = True
        hand = max(self.screen.table.hand_number, 0)
        ended = self.screen.table.left_behind and ends_without(self.screen, (self.screen.me,))
        self.screen.term.emit({"event": "returning", "hand": hand})
        self.answers.ask_to_return()
        if ended:
            # The others' word ended the match: agreeing ends it here too; there is no hand to come.
            self.screen.say(Text("You agreed that the match ended without you: your laptop records the same "
                                 "end.", style="bold"))
            return
        self.screen.say(Text(f"You asked to play again: the players still at the table sign your return at "
                             f"the end of hand {hand + 1}, and you are dealt in from the next one.",
                             style="bold"))

    def _carry_out(self, question: Question, meaning: str) -> None:
        names = self.screen.names
        if question.kind == questions.SILENT:
            self.answers.decide_silent(meaning == "go")
            who = words.join([names[s] for s in question.seats])
            if meaning == "go" and question.fields.get("end_match"):
                self.screen.say(Text(f"Your program goes on without {who} by your own word (unconfirmed: it "
                                     "binds nobody named).", style="dim"))
            elif meaning == "go":
                self.screen.say(Text(f"Your program votes to go on without {who}; the table goes on once "
                                     "more than half of the table agrees.", style="dim"))
            else:
                self.screen.say(Text(f"You keep waiting for {who}; you are asked again if they stay silent.",
                                     style="dim"))
        elif question.kind == questions.ADMIT:
            seat = question.seats[0]
            self.answers.admit(seat, meaning == "yes")
            said = "your program signs their return with this hand's seal" if meaning == "yes" else \
                "they stay out; they may ask again"
            self.screen.say(Text(f"{names[seat]}: {said}.", style="dim"))
        elif question.kind == questions.RETURN:
            if meaning == "ask":
                self.ask_to_return()
            else:
                self.answers.watch()
                self.screen.say(Text("You watch the others play on; type `return` at any time to ask to "
                                     "play again, `quit` to leave.", style="dim"))
        elif question.kind == questions.OUT:
            if meaning == "leave":
                self.leave()
            else:
                self.answers.watch()
                self.screen.say(Text("You watch the others play on; `quit` leaves at any time.", style="dim"))

    # ------------------------------------------------------------------ as the table moves on

    def prune(self) -> None:
        """Drop the questions the table has moved past (saying so for a silent seat that spoke)."""
        kept = []
        for question in self.open:
            reason = self._moot(question)
            if reason is None:
                kept.append(question)
                continue
            self.screen.term.emit({"event": "moot", "question": question.kind, "seats": list(question.seats),
                                   "reason": reason})
            self.screen.term.withdraw(question.prompt)
            self._gone = (question, reason)
            if self.screen.replaying:
                continue
            who = words.join([self.screen.names[s] for s in question.seats])
            if reason == "spoke":
                self.screen.say(Text(f"{who} answered after all: no need to decide.", style="dim"))
            elif self._went_on_by_itself(question, reason):
                # What the program did on its person's behalf, said plainly (SPEC §10).
                self.screen.say(Text(self._by_itself_line(question, who), style="yellow"))
        self.open = kept
        if self.returning and self.screen.me not in self.screen.table.seats_out:
            self.returning = False

    def _went_on_by_itself(self, question: Question, reason: str) -> bool:
        """Whether the table went past an unanswered silent question with this seat's vote at its step,
        or by its own word (an abandon: half the table, which may end a match of two): the program did
        it for its person, at the deadline (only once the seats were gone, SPEC §10)."""
        if question.kind != questions.SILENT or reason not in ("went on", "over"):
            return False
        return self._own_vote(question) or self._own_word(question) is not None

    def _own_vote(self, question: Question) -> bool:
        me = self.screen.me
        return any(v.seat == me and v.step == question.step for v in self.screen.table.votes_held())

    def _own_word(self, question: Question) -> Fault | None:
        """The verdict of this voice's own word at the question's step naming its seats (an unconfirmed
        verdict naming others is always this replica's own word: nobody else's binds it)."""
        named = set(question.seats)
        return next((f for f in self.screen.table.verdicts
                     if f.unconfirmed and f.step == question.step and named <= set(f.seats)), None)

    def _by_itself_line(self, question: Question, who: str) -> str:
        said = f"You did not answer, and nothing came from {who} any more: at the deadline "
        if self._own_vote(question):
            return said + f"your program went on without {who} for you."
        if self.screen.table.over:
            return (said + f"your program ended the match for you, by your word alone: with {who} gone, too "
                    f"few players were left to play on. It is recorded as abandoned here; {who}'s laptop, "
                    "not connected, still holds it unfinished.")
        return (said + f"your program went on without {who} for you, by your word alone (half the table: it "
                f"binds only you). {who} is told so on coming back.")

    def _moot(self, question: Question) -> str | None:
        table = self.screen.table
        if table.over or table.stopped is not None:
            return "over"
        me = self.screen.me
        out = table.seats_out
        if question.kind == questions.SILENT:
            if me in out:
                return "out"
            if table.chain.step != question.step or not set(question.seats) <= set(table.waiting_for):
                return "spoke" if not any(s in out for s in question.seats) else "went on"
        elif question.kind == questions.ADMIT:
            if question.seats[0] not in out:
                return "back"
        elif question.kind == questions.RETURN and (
            (me not in out and not table.left_behind) or self.returning
        ):
            return "back" if me not in out else "asked"
        return None

    def countdown(self) -> None:
        """At each mark of ``COUNTDOWN_S`` before a silent seat's deadline, say how long is left."""
        question = self.current
        if question is None or question.kind != questions.SILENT or question.auto_at is None:
            return
        back = [s for s in question.seats if s in self.screen.table.back]
        left = (question.auto_at - self.screen.now_ms()) // 1000
        if back:
            who = words.join([self.screen.names[s] for s in back])
            if left <= 0 and self._counted.get(question.step) != KEPT:
                # The deadline passed and the program did nothing on its person's behalf: say so.
                self._counted[question.step] = KEPT
                self.screen.say(Text(f"The deadline passed, but {who} {'is' if len(back) == 1 else 'are'} "
                                     "still connected: your program keeps waiting; answer y to go on without "
                                     f"{who}.", style="yellow"))
                return
            if self._counted.get(question.step) not in (BACK, KEPT):
                self._counted[question.step] = BACK
                if back == question.fields.get("connected"):
                    return  # connected all along: the question itself said what the program does
                self.screen.term.emit({"event": "countdown", "question": question.kind,
                                       "seats": list(question.seats), "seconds": None, "back": back})
                self.screen.say(Text(f"{who} {'is' if len(back) == 1 else 'are'} connected again: the table "
                                     f"no longer goes on without {who} by itself, only if you answer y.",
                                     style="yellow"))
            return
        if self._counted.get(question.step) in (BACK, KEPT):
            self._counted.pop(question.step)  # gone again: the deadline holds again
        marks = [m for m in COUNTDOWN_S if left <= m]
        if not marks:
            return
        mark = marks[-1]
        if self._counted.get(question.step, 1 << 30) <= mark:
            return
        self._counted[question.step] = mark
        first = question.fields.get("auto_in_s")
        if isinstance(first, int) and first <= mark:
            return  # the question itself said as much a moment ago
        self.screen.term.emit({"event": "countdown", "question": question.kind, "seats": list(question.seats),
                               "seconds": max(0, left)})
        who = words.join([self.screen.names[s] for s in question.seats])
        action = f"goes on without {who} by your word" if question.fields.get("end_match") else \
            f"goes on without {who}"
        self.screen.say(Text(f"The table {action} by itself in {words.duration(max(0, left))} unless you "
                             "answer.", style="yellow"))


__all__ = ["COUNTDOWN_S", "Answers", "OpenQuestions"]
