"""The host's side of the lobby on screen: who asks to sit down, with which key, and the host's answer.

Each request shows the player's name, the fingerprint of the key it proved and where it comes from;
a name that arrives with another key than before gets a loud warning, each fingerprint on a line of
its own so that it is read whole.  The host answers ``y`` / ``n`` (the oldest request waiting),
``admit N`` / ``refuse N``, or types ``start``.  Every name shown is the joiner's own text, made safe
to print (``text.shown``); the prompt never shares its line with a request arriving meanwhile
(``terminal``).
"""

from __future__ import annotations

from typing import Final

import trio
from rich.text import Text

from p2pcards.cli.lan.terminal import changed_key_warning
from p2pcards.cli.terminal import EndOfInput, Lines, Terminal
from p2pcards.net.discovery import Advertisement
from p2pcards.net.lobby import Lobby, LobbyError, Request
from p2pcards.store.peers import Trust
from p2pcards.text import MAX_NAME, shown
from p2pcards.wire import fingerprint

HELP: Final = """\
While players arrive:
  y / n         admit or refuse the player asked about
  admit N       admit request number N     refuse N   refuse it
  who           who is seated and who is waiting
  start         start now: computer players take the free seats
  quit          close the table (asks first: the players seated leave too)
  help          this text"""

CHANGED_REFUSAL: Final = "the host does not admit a name whose key has changed without asking"


class Admission:
    """Runs until the game should start (``run`` returns True) or the host closes the table (False)."""

    def __init__(
        self,
        lobby: Lobby,
        out: Terminal,
        lines: Lines | None,
        advertisement: Advertisement | None,
        *,
        admit_all: bool,
        wait_for: int | None,
    ) -> None:
        self.lobby = lobby
        self.out = out
        self.lines = lines
        self.advertisement = advertisement
        self.admit_all = admit_all
        self.wait_for = wait_for
        self.decided = trio.Event()
        self.start = False
        self._free_changed = trio.Event()
        self._closing = False
        """The host typed ``quit`` at a terminal and is asked whether to close the table."""

    async def run(self) -> bool:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._requests)
            nursery.start_soon(self._announce_free_seats)
            if self.lines is not None:
                nursery.start_soon(self._console)
            await self.decided.wait()
            nursery.cancel_scope.cancel()
        return self.start

    def _decide(self, start: bool) -> None:
        if not self.decided.is_set():
            self.start = start
            self.decided.set()

    # ------------------------------------------------------------------ requests

    async def _requests(self) -> None:
        async for request in self.lobby.requests:
            name = shown(request.name, MAX_NAME)
            if request.state == "gone":
                self.out.emit({"event": "gone", "number": request.number + 1, "name": name})
                self.out.say(Text(f"#{request.number + 1} {name} left.", style="yellow"))
            elif request.state == "refused":  # by the lobby itself: nobody answered in time
                self.out.emit({"event": "refused", "number": request.number + 1, "name": name,
                               "reason": request.reason})
                self.out.say(Text(f"#{request.number + 1} {name} was refused ({request.reason}).",
                                  style="yellow"))
            elif request.state == "waiting":
                self._show(request)
                if self.admit_all:
                    if request.trust is Trust.CHANGED:
                        self._refuse(request, CHANGED_REFUSAL)
                    else:
                        self._admit(request)
            self._changed()

    def _show(self, request: Request) -> None:
        name = shown(request.name, MAX_NAME)
        trust = request.trust.value if request.trust is not None else None
        address = f"{request.address[0]}:{request.address[1]}"
        self.out.emit({"event": "request", "number": request.number + 1, "name": name,
                       "fingerprint": request.fingerprint, "trust": trust, "address": address})
        if request.trust is Trust.CHANGED:
            known = request.known_key
            before = fingerprint(known) if known is not None else "another key"
            message = f"{name!r} arrives with a DIFFERENT KEY than before"
            self.out.emit({"event": "warning", "message": message, "name": name,
                           "fingerprint": request.fingerprint, "known": before})
            self.out.say(changed_key_warning(name, request.fingerprint, before, joiner=True))
        if self.out.json:
            return
        line = Text(f"#{request.number + 1} ", style="bold")
        line.append(name, style="bold")
        line.append(" asks to sit at your table   key ")
        line.append(request.fingerprint, style="bold cyan")
        note = {
            Trust.NEW: "  (new: the first time you see this name)",
            Trust.KNOWN: "  (known: the key this name had before)",
            Trust.CHANGED: "  (CHANGED KEY)",
        }.get(request.trust) if request.trust is not None else None
        if note:
            line.append(note, style="bold red" if request.trust is Trust.CHANGED else "dim")
        line.append(f"   from {address}", style="dim")
        self.out.say(line)

    def _admit(self, request: Request) -> None:
        name = shown(request.name, MAX_NAME)
        try:
            problem = self.lobby.admit(request)
        except LobbyError as exc:
            self.out.say(Text(f"Cannot admit {name}: {exc}", style="yellow"))
            if self.lobby.free_seats <= 0:
                self._refuse(request, "the table is full")
            return
        self.out.emit({"event": "admitted", "number": request.number + 1, "name": name,
                       "fingerprint": request.fingerprint, "free": self.lobby.free_seats})
        self.out.say(Text(f"{name} sits down ({self._free_text()}).", style="green"))
        if problem:
            self.out.note(f"{name}'s key could not be remembered ({problem})")
        self._free_changed.set()

    def _refuse(self, request: Request, why: str) -> None:
        self.lobby.refuse(request, why)
        name = shown(request.name, MAX_NAME)
        self.out.emit({"event": "refused", "number": request.number + 1, "name": name, "reason": why})
        self.out.say(Text(f"{name} was refused ({why}).", style="yellow"))

    def _free_text(self) -> str:
        free = self.lobby.free_seats
        return "the table is full" if free <= 0 else f"{free} seat{'s' if free != 1 else ''} free"

    async def _announce_free_seats(self) -> None:
        """Keep the advertisement's free seats up to date, in the background: zeroconf takes most of
        a second to send an update, and nobody at the keyboard should wait for it."""
        if self.advertisement is None:
            return
        while True:
            await self._free_changed.wait()
            self._free_changed = trio.Event()
            try:
                await self.advertisement.update(free=max(0, self.lobby.free_seats))
            except Exception as exc:  # the advertisement is a convenience; a manual join still works
                self.out.note(f"the table's announcement could not be updated ({exc})")

    def _changed(self) -> None:
        """After any change: start if it is time, else ask about the next request."""
        enough = self.wait_for is not None and len(self.lobby.admitted) >= self.wait_for
        if self.lobby.free_seats <= 0 or enough:
            self._decide(True)
        else:
            self._ask_next()

    def _ask_next(self) -> None:
        if self._closing:
            self.out.prompt(f"Close the table? {self._sent_away()}[y/N] ")
            return
        if self.admit_all or self.lines is None:
            return
        waiting = self.lobby.waiting
        if not waiting:
            return
        request = waiting[0]
        self.out.prompt(f"Admit {shown(request.name, MAX_NAME)} ({request.fingerprint})? [y/n] ")

    # ------------------------------------------------------------------ the host's commands

    async def _console(self) -> None:
        assert self.lines is not None
        while True:
            try:
                raw = await self.lines.get()
            except EndOfInput:
                if not self.admit_all:
                    self._decide(False)  # nobody left to answer the requests
                return
            self._command(" ".join(raw.split()).lower())

    def _sent_away(self) -> str:
        seated = [shown(r.name, MAX_NAME) for r in self.lobby.admitted]
        if not seated:
            return ""
        return f"{' and '.join(seated) if len(seated) < 3 else ', '.join(seated)} must leave it too. "

    def _command(self, typed: str) -> None:
        words = typed.split()
        waiting = self.lobby.waiting
        if self._closing:
            self._closing = False
            if typed in ("y", "yes"):
                self._decide(False)
                return
            self.out.say(Text("The table stays open.", style="dim"))
            self._changed()
            return
        if not words:
            self._ask_next()
            return
        verb = words[0]
        if verb in ("y", "yes", "n", "no") and len(words) == 1:
            if not waiting:
                self._problem(typed, "Nobody is waiting to be admitted.")
            elif verb.startswith("y"):
                self._admit(waiting[0])
            else:
                self._refuse(waiting[0], "the host said no")
        elif verb in ("admit", "refuse") and len(words) == 2 and words[1].lstrip("#").isdigit():
            number = int(words[1].lstrip("#"))
            request = next((r for r in waiting if r.number + 1 == number), None)
            if request is None:
                self._problem(typed, f"No request #{number} is waiting.")
            elif verb == "admit":
                self._admit(request)
            else:
                self._refuse(request, "the host said no")
        elif verb in ("start", "go"):
            self._decide(True)
            return
        elif verb in ("quit", "exit", "close"):
            if self.out.json:
                self._decide(False)  # a program's command is its decision
                return
            self._closing = True  # a person is asked first: one word closes the table for everyone
        elif verb in ("who", "list"):
            self._who()
        elif verb in ("help", "h", "?"):
            self.out.say(Text(HELP))
        else:
            self._problem(typed, f"{shown(typed, 40)!r} is not a command here: type y, n, admit N, "
                                 "refuse N, start or help.")
        self._changed()

    def _problem(self, typed: str, message: str) -> None:
        self.out.emit({"event": "error", "input": typed, "message": message})
        self.out.say(Text(message, style="yellow"))

    def _who(self) -> None:
        seated = [self.lobby.name + " (you)"] + [shown(r.name, MAX_NAME) for r in self.lobby.admitted]
        waiting = [f"#{r.number + 1} {shown(r.name, MAX_NAME)}" for r in self.lobby.waiting]
        self.out.emit({"event": "who", "seated": seated, "waiting": waiting, "free": self.lobby.free_seats})
        self.out.say(Text(f"Seated: {', '.join(seated)} ({self._free_text()})."))
        if waiting:
            self.out.say(Text(f"Waiting: {', '.join(waiting)}."))
