"""The LAN commands' two faces: text for people (rich) or JSON lines for programs; and the lines
typed on standard input, read in a worker thread so the network keeps running meanwhile."""

from __future__ import annotations

import sys
from typing import Any, Final

import trio
from rich.console import Console, RenderableType
from rich.status import Status
from rich.text import Text

from p2pcards.cli.common import print_json

LINE_BUFFER: Final = 64


class Out:
    """Where a command reports: ``say`` is for people, ``emit`` for programs (``--json``)."""

    def __init__(self, json_mode: bool, console: Console | None = None) -> None:
        self.json = json_mode
        self.console = console or Console(highlight=False)
        self._status: Status | None = None
        self._status_text = ""

    @property
    def interactive(self) -> bool:
        return not self.json and self.console.is_terminal

    def say(self, *items: RenderableType, style: str | None = None) -> None:
        if not self.json:
            self.console.print(*items, style=style)

    def prompt(self, text: str) -> None:
        """A question on the line where the answer will be typed."""
        if not self.json:
            self.hide_status()
            self.console.print(Text(text, style="bold cyan"), end="")
            self.console.file.flush()

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
        Console(stderr=True, highlight=False).print(Text(text, style="bold red"))

    # ------------------------------------------------------------------ the spinner

    def status(self, text: str) -> None:
        """A line that says what is going on, replaced as it changes (at a terminal only)."""
        if not self.interactive:
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
