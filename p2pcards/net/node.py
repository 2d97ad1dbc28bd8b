"""One seat's table on a LAN: a full mesh of links, its journal, its clock, and maybe a computer player.

The ``Table`` is sans-IO and does all the protocol work; the node only moves bytes and time:

- **Mesh.**  Each pair of seats shares one TCP connection: the lower seat dials the higher one (so
  two peers never race to open two), and redials with backoff whenever the link drops.  A seat
  accepts any seat of the game; if a second connection from the same seat arrives (it restarted,
  or the old link is half-dead), the newer one replaces the older — the deterministic rule that
  keeps exactly one.
- **Handshake slots.**  Until its hello names a key, an incoming connection holds a place in a
  ``Gate`` (``MAX_PENDING_HANDSHAKES`` in all, ``MAX_PENDING_PER_ADDRESS`` per address, the oldest
  giving way when full), so sockets that connect and say nothing cannot keep anyone out.  A hello
  naming a key that is not a seat of the game is refused at once; one naming a seat moves to that
  seat's own slot (a newer claim of a seat replaces an older one), so a seated player's link always
  gets back in, however many strangers stall.
- **Order.**  Every output list is carried out by the room's interpreter (``p2pcards.room``), the
  node's links and store its scheduler: journal, keep secrets, then send, in that order (invariant
  5), all on the trio thread, so the table is never re-entered.
- **Time.**  ``table.tick(now_ms)`` every 250 ms from trio's clock; the table decides on retries,
  catch-up requests and void votes by itself.  Frames lost while a link was down are therefore
  recovered by the table's own retry within about a second of the link coming back.
- **Computer seats.**  A node given a chooser answers its ``YourTurn`` events itself and says so
  (``Thinking``).  A ``ComputerChooser`` (what ``computer_chooser`` makes) thinks in the computer
  players' own process (``net.thinking``), so a Hard search never competes with this thread's table
  work; any other chooser runs in a worker thread.  The choice is applied only if the table is still
  waiting for that very move, and a decision whose turn is no longer current is abandoned.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Final, Protocol

import trio
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pcards.ai.budget import default_think
from p2pcards.games import ActionError, Rules, View
from p2pcards.net.gate import Gate
from p2pcards.net.handshake import Handshake, HandshakeError, Hello
from p2pcards.net.link import DEFAULT_PORT, Address, Link, LinkError, accept, dial, listen, open_listener
from p2pcards.net.thinking import ComputerSpec, Thinker, ThinkerError, ThinkerGone, ThinkerUnavailable, shared
from p2pcards.room import ComputerTurn, EventsAfter, Room, Thinking
from p2pcards.table import outputs as out
from p2pcards.table.genesis import Genesis
from p2pcards.table.replica import SecretSource, Table

TICK_MS: Final = 250
BACKOFF_FIRST: Final = 0.05
BACKOFF_MAX: Final = 2.0
HELD_FRAMES: Final = 512
HELD_BYTES: Final = 4 * 1024 * 1024
"""Bounds on the frames kept for one disconnected seat (see ``Node._hold``)."""
MAX_PENDING_HANDSHAKES: Final = 16
"""Connections that have not yet named a seat, at once; the oldest gives way to a newcomer."""
MAX_PENDING_PER_ADDRESS: Final = 4
"""Of those, from one address; a newcomer beyond that is closed at once."""
GOODBYE: Final = b"\xc1goodbye"
"""A link's last frame when its person left the game (``quit``), so that the others can say so
rather than guess at a crash.  Not a message: 0xC1 is never used by msgpack, so a replica that does
not know it refuses it as malformed and nothing changes (WIRE.md §3).  It decides nothing: the table
goes on without a seat only by its own rule, as for any seat that stopped answering."""
LEAVE_WAIT: Final = 1.0
"""Seconds a node that leaves waits for its goodbyes to be written."""

Chooser = Callable[[View], str]
"""A computer player's policy: the seat's view in, the text of one legal action out."""


class GameEffects(Protocol):
    """What a node keeps: a ``store.GameStore`` or a ``store.MemoryStore``."""

    def persist(self, payload: bytes, own: bool) -> None: ...

    def keep(self, label: str, secret: bytes) -> None: ...

    def payloads(self) -> list[bytes]: ...

    def secrets(self) -> dict[str, bytes]: ...


@dataclass(frozen=True)
class PeerUp:
    """A link to ``seat`` completed its handshake."""

    seat: int


@dataclass(frozen=True)
class PeerDown:
    """The link to ``seat`` ended (the dialling side will try again)."""

    seat: int
    reason: str
    left: bool = False
    """The seat's program said goodbye first: its person left the game (``quit``)."""


@dataclass(frozen=True)
class BotError:
    """A computer seat's chooser failed or chose an illegal move (the table is left waiting, and its
    timeout applies as for a silent human)."""

    seat: int
    message: str


NodeEvent = out.Event | PeerUp | PeerDown | Thinking | BotError
OnEvent = Callable[[NodeEvent], None]


class ComputerChooser:
    """The policy of a computer seat, made from its ``spec``: a ``Node`` hands its decisions to the
    computer players' process, where the player is made from the spec and kept between decisions.
    Called directly, it chooses in this process (its own player, made at the first call)."""

    _keys = 0

    def __init__(self, spec: ComputerSpec) -> None:
        ComputerChooser._keys += 1
        self.key = ComputerChooser._keys
        """This player's name in the worker (unique in the process)."""
        self.spec = spec
        self._here: Chooser | None = None

    def __call__(self, view: View) -> str:
        if self._here is None:
            self._here = self.spec.make()
        return self._here(view)


def computer_chooser(
    rules: Rules, level: str = "normal", seed: int = 0, think_ms: int | None = None
) -> ComputerChooser:
    """The policy of a computer seat: the AI of ``level`` (Hard thinking ``think_ms``, the process's
    think time when None), or uniform random play if that level cannot be loaded (an AI module
    missing or broken must not stop a game)."""
    spec = ComputerSpec(rules.name, tuple(rules.options), level, seed,
                        default_think() if think_ms is None else think_ms)
    return ComputerChooser(spec)


class _Mesh(EventsAfter):
    """The scheduler of a node's room: its store, its links (``Node._send``), and the turns and
    events kept for the node to act on once a call's effects are done."""

    def __init__(self, node: Node) -> None:
        super().__init__(node._after)
        self.node = node

    def persist(self, seat: int, payload: bytes, own: bool) -> None:
        self.node.store.persist(payload, own)

    def keep(self, seat: int, label: str, secret: bytes) -> None:
        self.node.store.keep(label, secret)

    def send(self, seat: int, payload: bytes, to: int | None) -> None:
        self.node._send(payload, to)


class Node:
    """Runs the ``Table`` of ``seat`` in ``genesis`` until cancelled.

    - ``store``: where its journal and secrets live; a non-empty journal means *resume* (``restore``).
    - ``listener``: where the other seats reach it (owned: closed when the node stops).
    - ``addresses``: where to reach the other seats; ``dial`` the seats this node connects to
      (default: those above it — the lower seat dials).  Every pair must be dialled by exactly one
      side; a lobby may choose otherwise (the host's machine dials the players, so that it needs
      no open port but its lobby's).
    - ``chooser``: makes this a computer seat; otherwise a player acts through ``act``.
    """

    def __init__(
        self,
        genesis: Genesis,
        seat: int,
        identity: Ed25519PrivateKey,
        store: GameEffects,
        *,
        listener: trio.SocketListener | None = None,
        addresses: Mapping[int, Address] | None = None,
        dial: Collection[int] | None = None,
        chooser: Chooser | None = None,
        on_event: OnEvent | None = None,
        source: SecretSource | None = None,
        tick_ms: int = TICK_MS,
    ) -> None:
        self.genesis = genesis
        self.seat = seat
        self.identity = identity
        self.store = store
        self.listener = listener
        self.addresses = dict(addresses or {})
        self.dial = frozenset(dial) if dial is not None else frozenset(s for s in self.addresses if s > seat)
        self._chooser = chooser
        self.on_event = on_event
        self.tick_ms = tick_ms
        self.game_id = genesis.game_id
        # A person's seat asks its person before voting anyone out; a computer seat decides itself.
        self.table = Table(genesis, seat, identity, source=source, secrets=store.secrets(),
                           person=chooser is None)
        self.keys = [s.key for s in genesis.seats]
        self._seat_of = {key: i for i, key in enumerate(self.keys)}
        self.links: dict[int, Link] = {}
        self.finished = trio.Event()
        """Set once the match is over or stopped by a fault (the node keeps serving catch-up)."""
        self.started = trio.Event()
        self.trace: list[tuple[float, str, int]] | None = None
        """If a list, ``(trio time, "act" | "applied", step)`` is appended as moves happen (bench)."""
        self._nursery: trio.Nursery | None = None
        self._gate = Gate(MAX_PENDING_HANDSHAKES, MAX_PENDING_PER_ADDRESS)
        self._claims: dict[int, trio.CancelScope] = {}
        """Per seat, the one incoming handshake that claims it (a newer claim cancels an older)."""
        self._held: dict[int, collections.deque[bytes]] = {}
        self._held_bytes: dict[int, int] = {}
        self._t0 = 0.0
        self.thinker: Thinker | None = None
        """The computer players' process this node holds while it runs (from its first decision)."""
        self._deciding: tuple[ComputerTurn, trio.CancelScope] | None = None
        """The step this computer seat is choosing a move for, and the scope to abandon it by."""
        self._goodbyes: set[int] = set()
        """Seats whose program said goodbye on their current link."""
        self._leaving = False
        self._mesh = _Mesh(self)
        self._room = Room(self._mesh, lambda seat: self.table)

    # ------------------------------------------------------------------ running

    @property
    def chooser(self) -> Chooser | None:
        return self._chooser

    @chooser.setter
    def chooser(self, chooser: Chooser | None) -> None:
        """A chooser given after the node was made (``host --auto``) makes it a computer seat too: its
        table then decides about silent seats and returns by itself, as any computer seat's does."""
        self._chooser = chooser
        self.table.person = chooser is None

    @property
    def port(self) -> int | None:
        if self.listener is None:
            return None
        port: int = self.listener.socket.getsockname()[1]
        return port

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Serve until cancelled (the caller decides how long to linger after ``finished``)."""
        self._t0 = trio.current_time()
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                if self.listener is not None:
                    nursery.start_soon(self._serve, self.listener)
                for seat, address in sorted(self.addresses.items()):
                    if seat in self.dial and seat != self.seat:
                        nursery.start_soon(self._dial_loop, seat, address)
                journal = self.store.payloads()
                if journal:
                    self._room.restore(self.seat, journal)
                else:
                    self._room.start(self.seat)
                nursery.start_soon(self._ticker)
                self.started.set()
                task_status.started()
        finally:
            self._nursery = None
            if self.thinker is not None:
                thinker, self.thinker = self.thinker, None
                await thinker.release()
            for link in list(self.links.values()):
                link.close("the node stopped")
            if self.listener is not None:
                with trio.CancelScope(shield=True):
                    await self.listener.aclose()

    async def play(self, linger: float = 3.0) -> None:
        """Run until the match ends, then linger so slower peers can still catch up from us."""
        async with trio.open_nursery() as nursery:
            await nursery.start(self.run)
            await self.finished.wait()
            await trio.sleep(linger)
            nursery.cancel_scope.cancel()

    async def act(self, text: str) -> None:
        """This seat's player chose ``text``; ``ActionError`` if it is not legal now."""
        step, when = self.table.chain.step, trio.current_time()
        outputs = self.table.local_action(text)
        if self.trace is not None:
            self.trace.append((when, "act", step))
        self._room.carry_out(self.seat, outputs)
        await trio.lowlevel.checkpoint()

    async def leave(self) -> None:
        """This seat's person left the game: say goodbye on every link, and wait (a moment at most)
        for it to be written; no link is opened again."""
        self._leaving = True
        links = list(self.links.values())
        for link in links:
            link.send(GOODBYE)
            link.finish()
        with trio.move_on_after(LEAVE_WAIT):
            for link in links:
                await link.closed.wait()

    def decide_silent(self, go_on: bool) -> None:
        """The person's answer to ``SilentSeats``: go on without the silent seats, or keep waiting."""
        self._room.decide_silent(self.seat, go_on)

    def admit(self, seat: int, yes: bool) -> None:
        """The person's answer to ``ReturnAsked``: sign ``seat``'s return with our next seal, or not."""
        self._room.admit(self.seat, seat, yes)

    def ask_to_return(self) -> None:
        """This seat was voted out: ask the seats still playing to deal it in again."""
        self._room.ask_to_return(self.seat)

    def watch(self) -> None:
        """This seat was voted out and its person watches: follow the others' game, asking nothing."""
        self._room.watch(self.seat)

    def now_ms(self) -> int:
        return int((trio.current_time() - self._t0) * 1000)

    # ------------------------------------------------------------------ the table

    def _after(self, seat: int, events: list[out.Event]) -> None:
        # The room performed Persist, KeepSecret and Send at once; the events wait until they are done.
        for event in events:
            if isinstance(event, out.StateChanged):
                self._record("applied", event.step)
            elif isinstance(event, out.YourTurn) and self.chooser is not None and self._nursery is not None:
                turn = ComputerTurn.of(self.seat, self.table, event)
                if self._deciding is None or self._deciding[0].step != turn.step:
                    self._abandon_decision()
                    scope = trio.CancelScope()
                    self._deciding = (turn, scope)
                    self._nursery.start_soon(self._bot_turn, turn, scope)
            self._emit(event)
        if self._deciding is not None and not self._deciding[0].wanted(self.table):
            self._abandon_decision()  # a void vote, a restore, the end: nobody waits for this move
        if self.table.over or self.table.stopped is not None:
            self.finished.set()

    def _abandon_decision(self) -> None:
        if self._deciding is not None:
            self._deciding[1].cancel()
            self._deciding = None

    def _send(self, payload: bytes, to: int | None) -> None:
        for seat in range(len(self.keys)) if to is None else (to,):
            if seat == self.seat:
                continue
            link = self.links.get(seat)
            if link is None or not link.send(payload):
                self._hold(seat, payload)

    def _hold(self, seat: int, payload: bytes) -> None:
        """Keep a frame for a seat that is not connected, to send the moment it is.

        The table would recover the frame anyway (it retries every second and a reconnecting seat
        asks for catch-up), but the commonest gap — the first second of a game, before the mesh is
        up — would then cost a retry period, as would every reconnection.  Stale or duplicate
        frames are harmless (the table drops them unread), so the oldest go once the bound is hit."""
        held = self._held.setdefault(seat, collections.deque())
        held.append(payload)
        self._held_bytes[seat] = self._held_bytes.get(seat, 0) + len(payload)
        while len(held) > HELD_FRAMES or self._held_bytes[seat] > HELD_BYTES:
            self._held_bytes[seat] -= len(held.popleft())

    def _emit(self, event: NodeEvent) -> None:
        if self.on_event is not None:
            self.on_event(event)

    def _record(self, what: str, step: int) -> None:
        if self.trace is not None:
            self.trace.append((trio.current_time(), what, step))

    async def _ticker(self) -> None:
        while True:
            await trio.sleep(self.tick_ms / 1000)
            self._room.tick(self.seat, self.now_ms())

    async def _bot_turn(self, turn: ComputerTurn, scope: trio.CancelScope) -> None:
        chooser = self.chooser
        if chooser is None:
            return
        self._emit(turn.thinking())
        text: str | None = None
        try:
            with scope:
                text = await self._choose(chooser, turn.turn.view)
        except ThinkerError as exc:
            self._emit(BotError(self.seat, f"the computer player failed: {exc}"))
        except Exception as exc:
            self._emit(BotError(self.seat, f"the computer player failed: {type(exc).__name__}: {exc}"))
        finally:
            if self._deciding is not None and self._deciding[1] is scope:
                self._deciding = None
        if text is None or not turn.wanted(self.table):
            return  # abandoned, failed, or the table moved on meanwhile: this choice is stale
        try:
            await self.act(text)
        except ActionError as exc:
            self._emit(BotError(self.seat, f"the computer player chose {text!r}: {exc}"))

    async def _choose(self, chooser: Chooser, view: View) -> str:
        if isinstance(chooser, ComputerChooser):
            if self.thinker is None:
                self.thinker = shared()
                self.thinker.hold()
            try:
                try:
                    return await self.thinker.choose(chooser.key, chooser.spec, view)
                except ThinkerGone:  # once more, in a new worker; a second death is the player's failure
                    return await self.thinker.choose(chooser.key, chooser.spec, view)
            except ThinkerUnavailable:
                pass  # no process to be had: think here rather than not at all
        return await trio.to_thread.run_sync(chooser, view, abandon_on_cancel=True)

    # ------------------------------------------------------------------ links

    def _on_payload(self, seat: int, payload: bytes) -> None:
        if payload == GOODBYE:
            self._goodbyes.add(seat)
            return
        self._room.receive(self.seat, seat, payload)

    async def _run_link(self, seat: int, link: Link) -> str:
        if self._leaving:
            link.close("this seat left the game")
            await link.run(lambda payload: None)
            return "this seat left the game"
        old = self.links.get(seat)
        if old is not None:
            old.close("replaced by a newer connection from the same seat")
        self.links[seat] = link
        self._goodbyes.discard(seat)
        held = self._held.pop(seat, collections.deque())
        self._held_bytes.pop(seat, None)
        for payload in held:
            link.send(payload)
        self._emit(PeerUp(seat))
        try:
            reason = await link.run(lambda payload: self._on_payload(seat, payload))
        finally:
            if self.links.get(seat) is link:
                del self.links[seat]
        if seat in self._goodbyes and seat not in self.links:
            self._goodbyes.discard(seat)
            self._emit(PeerDown(seat, "left the game", left=True))
        else:
            self._emit(PeerDown(seat, reason))
        return reason

    async def _dial_loop(self, seat: int, address: Address) -> None:
        backoff = BACKOFF_FIRST
        while not self._leaving:
            handshake = Handshake("dialer", self.identity, bind=self.game_id, expect_key=self.keys[seat])
            try:
                link = await dial(address[0], address[1], handshake)
            except (LinkError, HandshakeError):
                await trio.sleep(backoff)
                backoff = min(backoff * 2, BACKOFF_MAX)
                continue
            backoff = BACKOFF_FIRST
            await self._run_link(seat, link)
            # A link that dies at once (the peer is shutting down) must not turn into a busy loop.
            await trio.sleep(BACKOFF_FIRST)

    async def _serve(self, listener: trio.SocketListener) -> None:
        while True:
            try:
                stream = await listener.accept()
            except OSError:
                await trio.sleep(0.1)  # out of file descriptors or similar: wait, do not spin
                continue
            assert self._nursery is not None
            self._nursery.start_soon(self._incoming, stream)

    async def _incoming(self, stream: trio.SocketStream) -> None:
        try:
            address = str(stream.socket.getpeername()[0])
        except OSError:  # already gone
            await trio.aclose_forcefully(stream)
            return
        place = self._gate.enter(address)
        if place is None:
            await trio.aclose_forcefully(stream)
            return
        claimed: list[int] = []

        def on_hello(hello: Hello) -> None:
            # A seat of this game (``admit`` refused any other key): its own slot from now on.
            seat = self._seat_of[hello.key]
            place.leave()
            older = self._claims.get(seat)
            if older is not None:
                older.cancel()
            self._claims[seat] = place.scope
            claimed.append(seat)

        handshake = Handshake(
            "acceptor",
            self.identity,
            binds=[self.game_id],
            admit=lambda key: key in self._seat_of and self._seat_of[key] != self.seat,
            on_hello=on_hello,
        )
        link: Link | None = None
        try:
            with place.scope:
                link = await accept(stream, handshake)
        except (LinkError, HandshakeError):
            return
        finally:
            place.leave()
            if claimed and self._claims.get(claimed[0]) is place.scope:
                del self._claims[claimed[0]]
        if link is not None:
            await self._run_link(self._seat_of[link.peer_key], link)


__all__ = [
    "DEFAULT_PORT",
    "TICK_MS",
    "Address",
    "BotError",
    "Chooser",
    "ComputerChooser",
    "GameEffects",
    "Node",
    "NodeEvent",
    "PeerDown",
    "PeerUp",
    "Thinking",
    "computer_chooser",
    "listen",
    "open_listener",
]
