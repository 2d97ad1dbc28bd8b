"""Offline play: a whole table in one process, every seat a peer.

``LocalRoom`` seats one ``Table`` per player, each with its own Ed25519 identity key, and joins them
with an in-memory FIFO: the same replicas, the same signed log and the same mental-poker dealer as a
game on the LAN (invariant 2 of the design), with nothing in between that could lose a frame.  The
computer seats choose with ``p2pcards.ai``; the human's seat is driven from outside through a pull
API::

    room = LocalRoom("durak", players=3, human=0, level="normal")
    turn = room.run_until_human()          # runs the computer seats; the human's YourTurn, or None
    while turn is not None:
        room.human_action("attack 7H")     # ActionError with the table's message if not legal
        turn = room.run_until_human()
    room.take_events()                     # what happened, in order (moves, hands over, the end)

The room is pure Python and does no I/O of its own: time comes from the caller (``tick``; the FIFO
loses nothing, so a room that is never ticked simply never times a seat out), and a journal is an
``Effects`` (``p2pcards.store``) that the caller opens for the game id, so ``p2pcards verify`` can
check the human's seat afterwards.

With every seat a computer (``human=None``) and the seeded dealer, a room is what ``p2pcards sim``
plays each unit of a tournament on (``p2pcards.ai.tournament``): ``computers`` seats its own players,
and its listener calls ``halt()`` where the tournament's unit ends, which may be short of the match's.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pcards import games
from p2pcards.ai import player as ai_player
from p2pcards.ai.base import LEVELS, Player, RandomPlayer
from p2pcards.games import ActionError, OptionError, Rules
from p2pcards.room import ComputerTurn, EventsAfter, Moved, Room, Thinking
from p2pcards.store.effects import Effects, MemoryStore
from p2pcards.table import outputs as out
from p2pcards.table.genesis import Genesis, make_genesis
from p2pcards.table.replica import Table
from p2pcards.wire import key_from_seed, public_bytes

__all__ = [
    "DEALERS",
    "LEVELS",
    "ActionError",
    "Event",
    "HandEnded",
    "LocalRoom",
    "Moved",
    "Notice",
    "Progress",
    "SavedRoom",
    "SeatSecrets",
    "Thinking",
]

DEALERS = ("mental", "seeded")
NAMES = ("Anna", "Boris", "Clara", "Dmitri", "Elena", "Farid")
"""Names of the computer seats, by seat."""
LOCAL_TIMEOUT_MS = 3_600_000
"""The timeout the genesis of an offline table names.  It never runs out: a room never ticks its
replicas (``LocalRoom.tick``), so a person may think as long as they like."""
INTERRUPT_EVERY = 16
"""Frames delivered between two questions to ``run_until_human``'s ``interrupt``."""


@dataclass(frozen=True)
class SavedRoom:
    """What a room is resumed from: its genesis, every seat's identity key (32-byte seeds), the
    viewing seat's journal and every seat's secrets (``secrets``: the viewing seat's under their own
    labels, another seat's under ``seat N/label``)."""

    genesis: Genesis
    keys: tuple[bytes, ...]
    journal: tuple[bytes, ...]
    secrets: Mapping[str, bytes]
    viewpoint: int

    def secrets_of(self, seat: int) -> dict[str, bytes]:
        if seat == self.viewpoint:
            return {k: v for k, v in self.secrets.items() if not k.startswith("seat ")}
        prefix = f"seat {seat}/"
        return {k.removeprefix(prefix): v for k, v in self.secrets.items() if k.startswith(prefix)}


class SeatSecrets:
    """The ``Effects`` of a seat of a saved room other than the viewing one: its messages are in the
    viewing seat's journal already (nothing leaves the process), its secrets go beside that seat's,
    under ``seat N/``."""

    def __init__(self, store: Effects, seat: int) -> None:
        self.store = store
        self.seat = seat

    def persist(self, payload: bytes, own: bool) -> None:
        """Nothing to do: the viewing seat journals every message before any seat acts on it."""

    def keep(self, label: str, secret: bytes) -> None:
        self.store.keep(f"seat {self.seat}/{label}", secret)


# ============================================================================ events


@dataclass(frozen=True)
class Progress:
    """A step of the protocol that is not a move was sealed: ``kind`` is ``genesis``, ``coin_commit``,
    ``coin_reveal``, ``key_commit``, ``key_reveal``, ``shuffle`` (each seat's proven shuffle, verified),
    ``share`` (cards dealt), ``reveal`` (cards turned up) or ``audit`` (the hand opened and checked)."""

    hand: int
    step: int
    kind: str
    seats: tuple[int, ...]


@dataclass(frozen=True)
class HandEnded:
    """A hand ended and was audited; ``standings`` is the match after it (``Match.summary``)."""

    over: out.HandOver
    standings: str


@dataclass(frozen=True)
class Notice:
    """Something the player should know that is not part of the game (a computer player replaced)."""

    seat: int | None
    text: str


Event = Progress | Moved | Thinking | HandEnded | Notice | out.YourTurn | out.MatchOver | out.Fault
EventHook = Callable[[Event], None]


# ============================================================================ the room


@dataclass
class _Computer:
    player: Player
    level: str


class LocalRoom:
    """N replicas of one game in one process: the human's seat (``human``, or None when every seat is
    a computer) and computer seats of ``level`` (``levels`` may set a seat's level on its own, and
    ``computers`` may seat a ready-made player, e.g. one whose decisions its owner times).

    ``viewpoint`` is the seat whose replica the events describe (the human's by default).  ``seed``
    makes a room reproducible (identity keys, the dealers' secrets, the seeded dealer's decks and the
    computer players it makes all derive from it); without one, keys and secrets are fresh from the
    operating system.  ``journal``, if given, is called with the game id and returns where the viewing
    seat's outputs are kept (a ``p2pcards.store.GameStore`` to keep the game on disk); the other seats
    keep theirs in memory.
    """

    def __init__(
        self,
        game: str,
        *,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        human: int | None = 0,
        level: str = "normal",
        levels: Mapping[int, str] | None = None,
        computers: Mapping[int, Player] | None = None,
        viewpoint: int | None = None,
        dealer: str = "mental",
        seed: int | None = None,
        names: Sequence[str] | None = None,
        journal: Callable[[bytes], Effects] | None = None,
        saved: SavedRoom | None = None,
    ) -> None:
        opts = dict(options or {})
        seat_levels = dict(levels or {})
        ready_made = dict(computers or {})
        if players is not None:
            opts["players"] = players
        rules = games.load(game, **opts)
        n = rules.players
        if dealer not in DEALERS:
            raise OptionError(f"unknown dealer {dealer!r}; the dealers are: {', '.join(DEALERS)}")
        if human is not None and not 0 <= human < n:
            raise OptionError(f"there is no seat {human} at a table of {n}; the seats are 0 to {n - 1}")
        if viewpoint is None:
            viewpoint = 0 if human is None else human
        if not 0 <= viewpoint < n:
            raise OptionError(f"there is no seat {viewpoint} at a table of {n}")
        for seat in (*seat_levels, *ready_made):
            if not 0 <= seat < n or seat == human:
                raise OptionError(f"seat {seat} is not a computer seat of this table")
            if seat in seat_levels and seat in ready_made:
                raise OptionError(f"seat {seat} is given both a level and a player")
        self.seed = seed
        self.human = human
        self.viewpoint = viewpoint
        self.rules: Rules = rules
        self.n = n
        self._saved = saved
        if saved is None:
            keys = [self._identity(i) for i in range(n)]
            seat_names = list(names) if names is not None else self._default_names(n, human)
            if len(seat_names) != n:
                raise OptionError(f"{len(seat_names)} names for {n} seats")
            self.genesis: Genesis = make_genesis(
                rules.name,
                [(name, public_bytes(k)) for name, k in zip(seat_names, keys, strict=True)],
                options=opts,
                dealer=dealer,
                seed=0 if seed is None else seed,
                nonce=self._random(b"nonce", 16),
                timeout_ms=LOCAL_TIMEOUT_MS,
            )
        else:
            keys = [key_from_seed(k) for k in saved.keys]
            self.genesis = saved.genesis
        self.keys = keys
        """Every seat's identity key (kept with a saved game, so that it can be resumed)."""
        resumed = 0 if saved is None else len(saved.journal)
        self.tables = [
            Table(self.genesis, i, keys[i], source=None if seed is None else _seeded_source(seed, i, resumed),
                  secrets=None if saved is None else saved.secrets_of(i))
            for i in range(n)
        ]
        self._computers: dict[int, _Computer] = {}
        self._notices: list[Notice] = []
        for seat in range(n):
            if seat in ready_made:
                self._computers[seat] = _Computer(ready_made[seat], ready_made[seat].level)
            elif seat != human:
                self._computers[seat] = self._make_player(seat, seat_levels.get(seat, level))
        self.stores: list[Effects] = [MemoryStore() for _ in range(n)]
        if journal is not None:  # last: nothing after it may fail and leave the journal open
            kept = journal(self.genesis.game_id)
            # One journal for the room: every seat's messages reach the viewing seat's replica in this
            # process, and nothing leaves it, so what the viewing seat journalled is what every seat
            # restarts from.  Each seat keeps its own secrets, beside the viewing seat's.
            self.stores = [kept if seat == viewpoint else SeatSecrets(kept, seat) for seat in range(n)]
        self._fifo = _Fifo(self)
        self._room = Room(self._fifo, self.tables.__getitem__)
        self._frames: deque[tuple[int, int, bytes]] = deque()
        self._bot_turns: deque[tuple[int, out.YourTurn]] = deque()
        self._turn: out.YourTurn | None = None
        self._events: list[Event] = list(self._notices)
        self.listener: EventHook | None = None
        """Called with each event as it happens (they are also kept for ``take_events``)."""
        self.table_listener: Callable[[out.Output], None] | None = None
        """Called with each event of the viewing seat's replica, as the table produced it (what the
        game screen consumes, the same events as a ``Node``'s on the LAN)."""
        self._hand = 0
        self._started = False
        self._halted = False
        self.interrupted = False
        """The last ``run_until_human`` stopped because its ``interrupt`` asked it to."""
        self.delivered = 0
        """Frames delivered so far (a measure of the work done)."""
        self.now = 0
        """The latest time given to ``tick`` (kept, never passed on: see there)."""

    # ------------------------------------------------------------------ set-up

    @staticmethod
    def _default_names(n: int, human: int | None) -> list[str]:
        return ["You" if seat == human else NAMES[seat] for seat in range(n)]

    def _derive(self, label: bytes, size: int) -> bytes:
        assert self.seed is not None
        return hashlib.shake_256(b"p2pcards/local/" + str(self.seed).encode() + b"/" + label).digest(size)

    def _random(self, label: bytes, size: int) -> bytes:
        return secrets.token_bytes(size) if self.seed is None else self._derive(label, size)

    def _identity(self, seat: int) -> Ed25519PrivateKey:
        if self.seed is None:
            return Ed25519PrivateKey.generate()
        return key_from_seed(self._derive(f"identity {seat}".encode(), 32))

    def _make_player(self, seat: int, level: str) -> _Computer:
        key = level.strip().lower()
        if key not in (*LEVELS, "random"):
            raise OptionError(f"unknown level {level!r}; the levels are: {', '.join(LEVELS)}, random")
        ai_seed = int.from_bytes(self._random(f"ai {seat}".encode(), 8), "big")
        if key == "random":
            return _Computer(RandomPlayer(self.rules, ai_seed), key)
        try:
            return _Computer(ai_player(self.rules, key, ai_seed), key)
        except (ImportError, AttributeError, KeyError) as exc:
            self._notices.append(
                Notice(seat, f"no {key} computer player for {self.rules.name} ({exc}); "
                             f"{self.name(seat)} plays random legal moves instead")
            )
            return _Computer(RandomPlayer(self.rules, ai_seed), "random")

    # ------------------------------------------------------------------ what the UI reads

    @property
    def table(self) -> Table:
        """The viewing seat's replica."""
        return self.tables[self.viewpoint]

    @property
    def game_id(self) -> bytes:
        return self.genesis.game_id

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.genesis.seats)

    def name(self, seat: int) -> str:
        return self.genesis.seats[seat].name

    def level_of(self, seat: int) -> str | None:
        """The level of a computer seat (``random`` if its level was not available), None for the human."""
        computer = self._computers.get(seat)
        return None if computer is None else computer.level

    @property
    def over(self) -> bool:
        """The match ended normally."""
        return self.table.over

    @property
    def fault(self) -> out.Fault | None:
        return self.table.fault

    @property
    def finished(self) -> bool:
        return self.table.over or self.table.fault is not None

    @property
    def hand_number(self) -> int:
        """The hand being played (0 for the first), as the viewing seat counts them."""
        return self._hand

    def view(self) -> games.View | None:
        """What the viewing seat knows of the hand now (None before the first hand)."""
        state = self.table.state
        return None if state is None else state.view(self.viewpoint)

    def standings(self) -> str:
        match = self.table.match
        return "" if match is None else match.summary()

    def take_events(self) -> list[Event]:
        """The events since the last call, in order."""
        taken, self._events = self._events, []
        return taken

    # ------------------------------------------------------------------ running

    def start(self) -> None:
        """Start every replica (``run_until_human`` does it on its first call): from the genesis, or
        for a saved room from its journal (the events of the hands already played come again, the
        viewing seat's first, as its replica replays them)."""
        if self._started:
            return
        self._started = True
        saved = self._saved
        for seat in range(self.n):
            if saved is None:
                self._room.start(seat)
            else:
                self._room.restore(seat, list(saved.journal))

    def run_until_human(
        self, on_event: EventHook | None = None, *, interrupt: Callable[[], bool] | None = None
    ) -> out.YourTurn | None:
        """Deliver frames and let the computer seats move until the human must act (its ``YourTurn``)
        or nothing is left to do (None: the match is over, stopped by a fault, every seat is a
        computer and the match ended, or the room was halted).  ``on_event``, if given, replaces
        ``listener``.  ``interrupt`` is asked now and then (between two frames) whether to stop for
        a while; when it says yes, None is returned with ``interrupted`` set, and the next call goes
        on where this one stopped."""
        if on_event is not None:
            self.listener = on_event
        self.interrupted = False
        if not self._halted:
            self.start()
        polled = 0
        while not self._halted:
            polled += 1
            if interrupt is not None and polled % INTERRUPT_EVERY == 0 and interrupt():
                self.interrupted = True
                return None
            if self._frames:
                to, sender, payload = self._frames.popleft()
                self.delivered += 1
                self._room.receive(to, sender, payload)
            elif self._bot_turns:
                seat, turn = self._bot_turns.popleft()
                self._computer_moves(seat, turn)
            elif self._turn is not None:
                return self._turn
            else:
                return None
        return None

    def halt(self) -> None:
        """Stop running for good: ``run`` and ``run_until_human`` return (None) before their next step,
        so a listener may call it to end play where the caller's unit ends, short of the match's end.
        Frames in flight stay undelivered, so the replicas may stand at different steps."""
        self._halted = True

    @property
    def halted(self) -> bool:
        return self._halted

    def run(self, on_event: EventHook | None = None) -> None:
        """Run to the end of the match, or until halted (every seat a computer: ``human=None``)."""
        if self.human is not None:
            raise RuntimeError("a room with a human seat runs with run_until_human()")
        self.run_until_human(on_event)

    @property
    def turn(self) -> out.YourTurn | None:
        """The human's pending turn, if it is the human's turn."""
        return self._turn

    def human_action(self, text: str) -> None:
        """The human's move; raises ``ActionError`` with the table's explanation if it is not legal now
        (nothing is sent then, and the turn stays open)."""
        if self.human is None:
            raise ActionError("every seat of this room is a computer")
        if self._turn is None:
            raise ActionError("it is not your turn")
        outputs = self.tables[self.human].local_action(text)
        self._turn = None
        self._room.carry_out(self.human, outputs)

    def tick(self, now: int) -> None:
        """The local time in milliseconds.  Offline it changes nothing, on purpose: the FIFO loses no
        frame, so no replica has anything to retry, and a computer seat that timed the person out
        would vote a person who is only thinking out of the game.  Nobody is ever voted out of a
        room; the replicas are never ticked."""
        self.now = max(self.now, now)

    def close(self) -> None:
        """Close the viewing seat's journal, if it can be closed."""
        closer = getattr(self.stores[self.viewpoint], "close", None)
        if callable(closer):
            closer()

    # ------------------------------------------------------------------ plumbing

    def _after(self, seat: int, events: list[out.Event]) -> None:
        # The room did the effects first (journal, secrets, frames into the FIFO); then what they tell.
        for event in events:
            if seat == self.viewpoint and self.table_listener is not None:
                self.table_listener(event)
            if isinstance(event, out.YourTurn):
                if seat == self.human:
                    self._turn = event
                    if seat == self.viewpoint:
                        self._emit(event)
                else:
                    self._bot_turns.append((seat, event))
            elif seat == self.viewpoint:
                self._observe(event)

    def _observe(self, event: out.Output) -> None:
        if isinstance(event, out.StateChanged):
            if not event.kind or not event.seats:
                return
            moved = Moved.of(event, self._hand)
            if moved is not None:
                self._emit(moved)
            else:
                self._emit(Progress(self._hand, event.step, event.kind, event.seats))
        elif isinstance(event, out.HandOver):
            standings = event.match.summary() if event.match is not None else self.standings()
            self._emit(HandEnded(event, standings))
            self._hand = event.hand + 1
        elif isinstance(event, (out.MatchOver, out.Fault)):
            self._emit(event)

    def _emit(self, event: Event) -> None:
        self._events.append(event)
        if self.listener is not None:
            self.listener(event)

    def _computer_moves(self, seat: int, turn: out.YourTurn) -> None:
        if seat == self.viewpoint:
            self._emit(turn)
        table = self.tables[seat]
        self._emit(ComputerTurn.of(seat, table, turn).thinking())
        computer = self._computers[seat]
        legal = turn.view.legal_actions
        try:
            action = computer.player.choose(turn.view)
            if action not in legal:
                raise ActionError(f"chose {action!r}, which is not a legal action")
            text = self.rules.action_text(action)
            outputs = table.local_action(text)
        except Exception as exc:  # a broken computer player must not stop the people's game
            self._emit(Notice(seat, f"{self.name(seat)}'s {computer.level} player failed ({exc}); "
                                    "it plays random legal moves from now on"))
            computer.player = RandomPlayer(self.rules, turn.hand * 131 + seat)
            computer.level = "random"
            outputs = table.local_action(self.rules.action_text(computer.player.choose(turn.view)))
        self._room.carry_out(seat, outputs)


class _Fifo(EventsAfter):
    """The scheduler of a ``LocalRoom``'s room: each seat's store, an in-memory FIFO that loses no
    frame, and the turns and events kept for the room to act on once a call's effects are done."""

    def __init__(self, room: LocalRoom) -> None:
        super().__init__(room._after)
        self.room = room

    def persist(self, seat: int, payload: bytes, own: bool) -> None:
        self.room.stores[seat].persist(payload, own)

    def keep(self, seat: int, label: str, secret: bytes) -> None:
        self.room.stores[seat].keep(label, secret)

    def send(self, seat: int, payload: bytes, to: int | None) -> None:
        for j in range(self.room.n):
            if j != seat and (to is None or to == j):
                self.room._frames.append((j, seat, payload))


def _seeded_source(seed: int, seat: int, resumed: int = 0) -> Callable[[int], bytes]:
    """A reproducible stand-in for the operating system's randomness (a room made with a seed).
    A room resumed from ``resumed`` journal records draws from another series, so that no secret
    of the hands before is drawn again."""
    counter = 0
    series = f"secrets {seat}" + (f"/resumed {resumed}" if resumed else "")

    def draw(size: int) -> bytes:
        nonlocal counter
        counter += 1
        return hashlib.shake_256(f"p2pcards/local/{seed}/{series}/{counter}".encode()).digest(size)

    return draw
