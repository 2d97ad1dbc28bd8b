"""The one terminal of the commands that talk with a person: text for people (rich) or JSON lines for
programs, the prompt a person answers, the spinner line; and the lines typed on standard input, read
in a worker thread so that the network keeps running meanwhile.

Every command builds one ``Terminal`` and passes it to what writes (the lobby, the game screen, the
seat); nothing about it is global, so two terminals in one process (tests) never share a prompt.

A prompt is written without a newline so the answer is typed after it.  Lines arrive at any time
(``#2 Jun asks to sit…`` while the host is asked about Ivan, a move from the network at ``Your
move:``), so no prompt ever shares its line with them: anything said while a prompt is open first
takes the prompt off its line (cleared at a terminal, ended with a newline elsewhere), and once the
lines that arrived together are written (at the next turn of trio's loop; at once outside trio) the
prompt is asked again below them.  The prompt is closed as soon as a line is read (the typed Enter
moved the cursor on).  The spinner line (what is going on) is shown only while nothing is asked.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Final, TextIO

import trio
from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.status import Status
from rich.text import Text

PROMPT_STYLE: Final = "bold cyan"
LINE_BUFFER: Final = 64
_CLEAR_LINE: Final = "\r\x1b[2K"


class Terminal:
    """Where a command reports: ``say`` is for people, ``emit`` for programs (``json_mode``)."""

    def __init__(self, console: Console | None = None, *, json_mode: bool = False,
                 stream: TextIO | None = None) -> None:
        self.console = console or Console(highlight=False)
        self.json = json_mode
        self._stream = stream
        self._prompt: str | None = None
        """The question on the current line, waiting for its answer."""
        self._pending: str | None = None
        """A question taken off its line by lines that arrived meanwhile, to be asked again below them."""
        self._status: Status | None = None
        self._status_text = ""

    @property
    def interactive(self) -> bool:
        """A person at a terminal (spinners, cleared lines) rather than a file, a pipe or a program."""
        return not self.json and self.console.is_terminal

    @property
    def prompting(self) -> str | None:
        """The question waiting for an answer on the current line (or to be asked again)."""
        return self._prompt or self._pending

    # ------------------------------------------------------------------ lines

    def say(self, *items: RenderableType, style: str | None = None) -> None:
        """Lines for people, each on lines of their own (a waiting prompt is moved below them)."""
        if self.json:
            return
        question = self._prompt
        if question is not None:
            self._leave_prompt_line()
            self._pending = question
        self.console.print(*items, style=style)
        if question is not None and not self._ask_soon():
            self._ask_again()

    def rule(self, title: Text) -> None:
        """A heading across the screen."""
        self.say(Rule(title))

    def emit(self, obj: dict[str, Any]) -> None:
        """One JSON object on one line, for programs (``--json`` only)."""
        if not self.json:
            return
        stream = self._stream or sys.stdout
        stream.write(json.dumps(obj, sort_keys=True, ensure_ascii=False) + "\n")
        stream.flush()

    def warn(self, text: str, **fields: Any) -> None:
        """Something a person must not miss (a changed key, a host that is not the one advertised)."""
        self.emit({"event": "warning", "message": text, **fields})
        self.say(Text(f"WARNING: {text}", style="bold white on red"))

    def note(self, text: str, **fields: Any) -> None:
        self.emit({"event": "notice", "message": text, **fields})
        self.say(Text(text, style="yellow"))

    def error(self, text: str) -> None:
        """A failure that ends the command: on standard error (and as an event for programs)."""
        self.emit({"event": "failed", "message": text})
        self.hide_status()
        self.end_prompt()
        Console(stderr=True, highlight=False).print(Text(text, style="bold red"))

    # ------------------------------------------------------------------ prompts

    def prompt(self, text: str) -> None:
        """Ask a question: ``text`` on the line where the answer will be typed."""
        if self.json:
            return
        self.hide_status()
        self._pending = None
        if self._prompt is not None:
            self._leave_prompt_line()
        self._write_prompt(text)

    def withdraw(self, text: str | None = None) -> None:
        """Take the waiting prompt off the screen (only if it is ``text``, when given): its question
        is moot, and must be neither answered nor written again below the lines that follow."""
        if self._pending is not None and (text is None or self._pending == text):
            self._pending = None
        if self._prompt is not None and (text is None or self._prompt == text):
            self._leave_prompt_line()

    def end_prompt(self) -> None:
        """End an open prompt's line, the question left as it was (before something is written on
        standard error); a question waiting to be asked again is dropped."""
        self._pending = None
        if self._prompt is not None:
            self._prompt = None
            self.console.file.write("\n")
            self.console.file.flush()

    def answered(self) -> None:
        """The answer was typed (with its Enter): the cursor is at the start of a fresh line."""
        self._prompt = self._pending = None

    def _write_prompt(self, text: str) -> None:
        self.console.print(Text(text, style=PROMPT_STYLE), end="")
        self.console.file.flush()
        self._prompt = text

    def _leave_prompt_line(self) -> None:
        """Take the prompt off its line: cleared at a terminal, ended with a newline elsewhere."""
        self.console.file.write(_CLEAR_LINE if self.console.is_terminal else "\n")
        self.console.file.flush()
        self._prompt = None

    def _ask_soon(self) -> bool:
        """Ask again once this burst of lines is written; False outside trio (then: at once)."""
        try:
            token = trio.lowlevel.current_trio_token()
        except RuntimeError:
            return False
        try:
            token.run_sync_soon(self._ask_again)
        except trio.RunFinishedError:
            return False
        return True

    def _ask_again(self) -> None:
        question = self._pending
        if question is not None and self._prompt is None:
            self._pending = None
            self._write_prompt(question)

    # ------------------------------------------------------------------ the spinner

    def status(self, text: str) -> None:
        """What is going on, on a line replaced as it changes (a terminal only; not while a prompt
        waits for an answer, whose line it would take)."""
        if not self.interactive or self.prompting is not None:
            return
        if self._status is None:
            self._status = self.console.status(text, spinner="dots")
            self._status.start()
        elif text != self._status_text:
            self._status.update(text)
        self._status_text = text

    def hide_status(self) -> None:
        if self._status is not None:
            self._status.stop()
            self._status = None
            self._status_text = ""


class EndOfInput(Exception):
    """Standard input is closed (Ctrl-D, or a script that has no more to say)."""


class Lines:
    """Lines from standard input, in order.  ``run`` (a task) reads them one at a time in a thread;
    ``get`` hands the next one over.  A thread blocked on a line is abandoned when the task is
    cancelled (the process ends without waiting for it).  ``term``: the terminal whose prompt a
    line answers."""

    def __init__(self, term: Terminal) -> None:
        self._term = term
        self._send, self._recv = trio.open_memory_channel[str | None](LINE_BUFFER)
        self.closed = False

    async def run(self) -> None:
        async with self._send:
            while True:
                line = await trio.to_thread.run_sync(sys.stdin.readline, abandon_on_cancel=True)
                if not line:
                    await self._send.send(None)
                    return
                self._term.answered()  # Enter was typed: the cursor is on a new line
                await self._send.send(line.rstrip("\r\n"))

    async def get(self) -> str:
        """The next line; ``EndOfInput`` once there are no more."""
        if self.closed:
            raise EndOfInput
        try:
            line = await self._recv.receive()
        except trio.EndOfChannel:
            line = None
        if line is None:
            self.closed = True
            raise EndOfInput
        return line


__all__ = ["PROMPT_STYLE", "EndOfInput", "Lines", "Terminal"]
