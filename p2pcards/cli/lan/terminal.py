"""The LAN commands' two faces: text for people (rich) or JSON lines for programs; and the lines
typed on standard input, read in a worker thread so the network keeps running meanwhile.

A prompt (``Out.prompt``) leaves the cursor after its question, where the answer is typed.  Lines
from the network arrive at any time (``#2 Jun asks to sit…`` while the host is asked about Ivan,
``Hana is connected.`` at ``Your move:``), so no prompt ever shares its line with them: anything
printed while a prompt is open first ends the prompt's line, and once the lines that arrived
together are printed (at the next turn of trio's loop) the prompt is asked again below them.  The
prompt is closed as soon as a line is read (the typed Enter moved the cursor on)."""

from __future__ import annotations

import sys
from typing import Any, Final

import trio
from rich.console import Console, RenderableType
from rich.status import Status
from rich.text import Text

from p2pcards.cli.common import print_json

LINE_BUFFER: Final = 64
PROMPT_STYLE: Final = "bold cyan"


class _OpenPrompt:
    """The question on the terminal's current line, if any (one terminal per process), and one
    waiting to be asked again after lines that interrupted it."""

    text: str | None = None
    pending: str | None = None

    def answered(self) -> None:
        self.text = self.pending = None


_OPEN = _OpenPrompt()


class PromptConsole(Console):
    """A console that never writes on the line of an open prompt: it ends that line first, prints,
    then asks the prompt again on a line of its own, after the other lines that came with it."""

    def print(self, *objects: Any, **kwargs: Any) -> None:
        question = _OPEN.text
        if question is not None:
            _OPEN.text = None
            super().print()
            _OPEN.pending = question
        super().print(*objects, **kwargs)
        if question is not None and not self._ask_soon():
            self._ask_again()

    def _ask_soon(self) -> bool:
        """Ask again once this burst of lines is printed; False outside trio (then: at once)."""
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
        question = _OPEN.pending
        if question is not None and _OPEN.text is None:
            self.ask(question)

    def ask(self, question: str) -> None:
        """Print ``question`` and leave the cursor after it."""
        super().print(Text(question, style=PROMPT_STYLE), end="")
        self.file.flush()
        _OPEN.text, _OPEN.pending = question, None

    def end_prompt(self) -> None:
        """End an open prompt's line (before something is written elsewhere, on standard error, or
        before another question); a question waiting to be asked again is dropped."""
        _OPEN.pending = None
        if _OPEN.text is not None:
            _OPEN.text = None
            super().print()


def prompt_open() -> str | None:
    """The prompt waiting for an answer on the terminal's current line (or to be asked again)."""
    return _OPEN.text or _OPEN.pending


class Out:
    """Where a command reports: ``say`` is for people, ``emit`` for programs (``--json``)."""

    def __init__(self, json_mode: bool, console: PromptConsole | None = None) -> None:
        self.json = json_mode
        self.console = console or PromptConsole(highlight=False)
        self._status: Status | None = None
        self._status_text = ""

    @property
    def interactive(self) -> bool:
        return not self.json and self.console.is_terminal

    def say(self, *items: RenderableType, style: str | None = None) -> None:
        if not self.json:
            self.console.print(*items, style=style)

    def prompt(self, text: str) -> None:
        """A question on the line where the answer will be typed (a line of its own: see above)."""
        if not self.json:
            self.hide_status()
            self.console.end_prompt()
            self.console.ask(text)

    def emit(self, obj: dict[str, Any]) -> None:
        if self.json:
            print_json(obj)
            sys.stdout.flush()

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
        self.console.end_prompt()
        Console(stderr=True, highlight=False).print(Text(text, style="bold red"))

    # ------------------------------------------------------------------ the spinner

    def status(self, text: str) -> None:
        """A line that says what is going on, replaced as it changes (at a terminal only; not while
        a prompt waits for an answer, whose line it would take)."""
        if not self.interactive or prompt_open() is not None:
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


def changed_key_warning(name: str, now: str, before: str, *, joiner: bool) -> Text:
    """The warning for a known name with another key: the fingerprints each on a line of their own."""
    text = Text(f"WARNING: {name!r} arrives with a DIFFERENT KEY than before.", style="bold white on red")
    text.append("\n  key now:     ")
    text.append(now, style="bold")
    text.append("\n  key before:  ")
    text.append(before, style="bold")
    if joiner:
        advice = f"It may be someone else using that name. Admit only if {name} reads you the key now from"
        text.append(f"\n{advice} their own screen.")
    else:
        text.append("\nIt may be someone else using that name: check the key with that player first.")
    return text


class EndOfInput(Exception):
    """Standard input is closed (Ctrl-D, or a script that has no more to say)."""


class Lines:
    """Lines from standard input, in order.  ``run`` (a task) reads them one at a time in a thread;
    ``get`` hands the next one over.  A thread blocked on a line is abandoned when the task is
    cancelled (the process ends without waiting for it)."""

    def __init__(self) -> None:
        self._send, self._recv = trio.open_memory_channel[str | None](LINE_BUFFER)
        self.closed = False

    async def run(self) -> None:
        async with self._send:
            while True:
                line = await trio.to_thread.run_sync(sys.stdin.readline, abandon_on_cancel=True)
                if not line:
                    await self._send.send(None)
                    return
                _OPEN.answered()  # Enter was typed: the cursor is on a new line
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
