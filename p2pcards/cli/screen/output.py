"""Where the game screen writes: lines for people, JSON lines for programs, and the one rule of a
terminal shared by a prompt and a network: a prompt and a background line never share a line.

A prompt is written without a newline so the answer is typed after it.  When a line must be shown
meanwhile (a move arriving from the network, a player connecting), the prompt's line is cleared
first (at a terminal; elsewhere the line is ended), the line is written on its own, and the prompt
is written again below it.  The spinner line (what the table is doing) is shown only while no
prompt is waiting for an answer.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from rich.console import Console, RenderableType
from rich.status import Status
from rich.text import Text

PROMPT_STYLE = "bold cyan"
_CLEAR_LINE = "\r\x1b[2K"


class Terminal:
    """The screen's output: ``say`` for people, ``emit`` for programs (``json_mode``)."""

    def __init__(self, console: Console | None = None, *, json_mode: bool = False,
                 stream: TextIO | None = None) -> None:
        self.console = console or Console(highlight=False)
        self.json = json_mode
        self._stream = stream
        self._prompt: str | None = None
        self._status: Status | None = None
        self._status_text = ""

    @property
    def interactive(self) -> bool:
        """A person at a terminal (spinners, cleared lines) rather than a file, a pipe or a program."""
        return not self.json and self.console.is_terminal

    @property
    def prompting(self) -> bool:
        return self._prompt is not None

    # ------------------------------------------------------------------ lines

    def say(self, *items: RenderableType, style: str | None = None) -> None:
        """Lines for people, each on lines of their own (a waiting prompt is moved below them)."""
        if self.json:
            return
        shown = self._prompt
        if shown is not None:
            self._leave_prompt_line()
        self.console.print(*items, style=style)
        if shown is not None:
            self._write_prompt(shown)

    def emit(self, obj: dict[str, Any]) -> None:
        """One JSON object on one line, for programs (``--json`` only)."""
        if not self.json:
            return
        stream = self._stream or sys.stdout
        stream.write(json.dumps(obj, sort_keys=True, ensure_ascii=False) + "\n")
        stream.flush()

    # ------------------------------------------------------------------ prompts

    def prompt(self, text: str) -> None:
        """Ask a question: ``text`` on the line where the answer will be typed."""
        if self.json:
            return
        self.hide_status()
        if self._prompt is not None:
            self._leave_prompt_line()
        self._write_prompt(text)

    def withdraw(self, text: str | None = None) -> None:
        """Take the waiting prompt off the screen (only if it is ``text``, when given): its question
        is moot, and must be neither answered nor written again below the lines that follow."""
        if self._prompt is not None and (text is None or self._prompt == text):
            self._leave_prompt_line()

    def answered(self) -> None:
        """The answer was typed (with its Enter): the cursor is at the start of a fresh line."""
        self._prompt = None

    def _write_prompt(self, text: str) -> None:
        self.console.print(Text(text, style=PROMPT_STYLE), end="")
        self.console.file.flush()
        self._prompt = text

    def _leave_prompt_line(self) -> None:
        """Take the prompt off its line: cleared at a terminal, ended with a newline elsewhere."""
        self.console.file.write(_CLEAR_LINE if self.console.is_terminal else "\n")
        self.console.file.flush()
        self._prompt = None

    # ------------------------------------------------------------------ the spinner

    def status(self, text: str) -> None:
        """What the table is doing, on a line replaced as it changes (a terminal only, no prompt)."""
        if not self.interactive or self._prompt is not None:
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


__all__ = ["PROMPT_STYLE", "Terminal"]
