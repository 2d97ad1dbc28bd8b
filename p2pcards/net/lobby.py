"""The lobby: a host gathers players, admits or refuses each one, fills the empty seats with computer
players and starts the game.

Over one authenticated link per joiner (the handshake binds the lobby's random id, and a private
table's join code), canonical msgpack maps::

    joiner -> host    {t: "join", name, port}          port: where the joiner's game node listens
    host -> joiner    {t: "admitted"} | {t: "refused", why}
    host -> joiner    {t: "start", genesis, seat, dial: [[seat, host, port], ...]}

The host sees each request's name and *proven* key fingerprint (and, with a known-peers file, whether
that name came with that key before) and decides.  On ``start`` the genesis names every seat's key;
it binds nothing until every seat has signed it in the game's first step, so a joiner that does not
like what it is sent simply does not sign.

Who dials whom in the game: the host's process (its own seat and its computer players) dials every
joiner, and joiners dial the joiners above them.  The host's machine so needs no open port but the
lobby's, and every joiner accepts connections on the port it announced.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import trio
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pcards import games
from p2pcards.net.discovery import TableAd
from p2pcards.net.handshake import ANY_BIND, Handshake, HandshakeError, Why, join_code_key
from p2pcards.net.link import Link, LinkError, accept, dial
from p2pcards.net.node import Address, GameEffects, Node, computer_chooser, open_listener
from p2pcards.store import MemoryStore
from p2pcards.store.peers import Peers, Trust
from p2pcards.table.genesis import MAX_NAME, Genesis, GenesisError, make_genesis
from p2pcards.wire import DecodeError, EncodeError, decode, encode, fingerprint, key_from_seed, public_bytes

JOIN_TIMEOUT: Final = 10.0
"""Seconds a joiner has after its handshake to say who it is."""
MAX_WRONG_CODES: Final = 5
"""Wrong join codes from one address before the lobby stops listening to it (online guessing)."""
MAX_LOBBY_MESSAGE: Final = 32 * 1024


class LobbyError(Exception):
    """The lobby could not be joined or did not start (the message says why, for people)."""


def _message(payload: bytes) -> dict[str, Any] | None:
    try:
        value = decode(payload, max_size=MAX_LOBBY_MESSAGE)
    except DecodeError:
        return None
    return value if isinstance(value, dict) and isinstance(value.get("t"), str) else None


def _clean_name(name: Any) -> str | None:
    if not isinstance(name, str):
        return None
    text = " ".join(name.split())
    if not 1 <= len(text) <= MAX_NAME or not text.isprintable():
        return None
    return text


@dataclass
class Request:
    """Somebody asking to sit at the table; the host admits or refuses it."""

    number: int
    name: str
    key: bytes
    address: Address
    """Where that player's game node listens (its address as seen by the host, its announced port)."""
    trust: Trust | None
    """``new`` / ``known`` / ``changed`` for this name and key, with a known-peers file."""
    state: str = "waiting"
    """waiting | admitted | refused | gone"""
    link: Link | None = field(default=None, repr=False)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)


@dataclass
class HostedGame:
    """What ``start`` returns: the genesis and the nodes run by the host's process (its own seat,
    then its computer players).  Run each node (``Node.run`` / ``Node.play``)."""

    genesis: Genesis
    nodes: list[Node]


class Lobby:
    """The host's side.  ``run`` accepts joiners (new requests arrive on ``requests``); ``admit`` /
    ``refuse`` them; ``start`` seats everybody and returns the host's nodes."""

    def __init__(
        self,
        identity: Ed25519PrivateKey,
        name: str,
        game: str,
        *,
        players: int,
        listener: trio.SocketListener,
        options: dict[str, Any] | None = None,
        code: str | None = None,
        peers: Peers | None = None,
        dealer: str = "mental",
        timeout_ms: int = 60_000,
        table_name: str | None = None,
    ) -> None:
        clean = _clean_name(name)
        if clean is None:
            raise LobbyError(f"a player's name has 1 to {MAX_NAME} printable characters")
        self.identity = identity
        self.name = clean
        self.game = game
        self.options = dict(options or {})
        self.options["players"] = players
        self.players = players
        self.dealer = dealer
        self.timeout_ms = timeout_ms
        self.listener = listener
        self.peers = peers
        self.table_name = table_name or f"{clean}'s table"
        self.lobby_id = os.urandom(32)
        self.private = code is not None
        # Derived once: scrypt is deliberately slow, and every joiner's handshake needs the key.
        self._code_key = join_code_key(code, self.lobby_id) if code is not None else None
        self._requests: list[Request] = []
        self._admission: list[Request] = []
        self._wrong_codes: dict[str, int] = {}
        self._send, self.requests = trio.open_memory_channel[Request](64)
        self.started = False
        self._nursery: trio.Nursery | None = None
        # Fail now, not at start, on a game or options that cannot be played.
        self._rules_options()

    def _rules_options(self) -> tuple[tuple[str, Any], ...]:
        """The game's full, normalised options (what the genesis will carry)."""
        try:
            return games.load(self.game, **{**self.options, "players": self.players}).options
        except games.GameError as exc:
            raise GenesisError(str(exc)) from exc

    # ------------------------------------------------------------------ what the host sees

    @property
    def admitted(self) -> list[Request]:
        """In the order they were admitted: the order they sit in."""
        return [r for r in self._admission if r.state == "admitted"]

    @property
    def waiting(self) -> list[Request]:
        return [r for r in self._requests if r.state == "waiting"]

    @property
    def free_seats(self) -> int:
        return self.players - 1 - len(self.admitted)

    @property
    def port(self) -> int:
        port: int = self.listener.socket.getsockname()[1]
        return port

    def ad(self) -> TableAd:
        """This table's advertisement for ``discovery.advertise``."""
        rules = self._rules_options()
        return TableAd(
            self.table_name,
            self.game,
            tuple((k, str(v).lower() if isinstance(v, bool) else str(v)) for k, v in rules),
            self.players,
            self.free_seats,
            fingerprint(self.identity),
            self.lobby_id,
            self.private,
            self.port,
        )

    def admit(self, request: Request) -> None:
        if request.state != "waiting":
            raise LobbyError(f"{request.name} is {request.state}, not waiting")
        if self.free_seats <= 0:
            raise LobbyError("the table is full")
        request.state = "admitted"
        self._admission.append(request)
        if self.peers is not None:
            self.peers.remember(request.name, request.key)
        self._tell(request, {"t": "admitted"})

    def refuse(self, request: Request, why: str = "not admitted") -> None:
        if request.state in ("refused", "gone"):
            return
        request.state = "refused"
        self._tell(request, {"t": "refused", "why": why})
        if request.link is not None:
            request.link.finish()  # the refusal is written, then the connection closed

    def _tell(self, request: Request, message: dict[str, Any]) -> None:
        if request.link is not None:
            request.link.send(encode(message))

    # ------------------------------------------------------------------ accepting joiners

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Accept joiners until cancelled or started."""
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                task_status.started()
                while not self.started:
                    try:
                        stream = await self.listener.accept()
                    except OSError:
                        await trio.sleep(0.1)
                        continue
                    nursery.start_soon(self._incoming, stream)
        finally:
            self._nursery = None
            with trio.CancelScope(shield=True):
                await self.listener.aclose()

    async def _incoming(self, stream: trio.SocketStream) -> None:
        try:
            peer_ip = str(stream.socket.getpeername()[0])
        except OSError:  # already gone
            await trio.aclose_forcefully(stream)
            return
        if self._wrong_codes.get(peer_ip, 0) >= MAX_WRONG_CODES or self.started:
            await trio.aclose_forcefully(stream)
            return
        handshake = Handshake("acceptor", self.identity, any_bind=self.lobby_id, code_key=self._code_key)
        try:
            link = await accept(stream, handshake)
        except HandshakeError as exc:
            if exc.why is Why.WRONG_CODE:
                self._wrong_codes[peer_ip] = self._wrong_codes.get(peer_ip, 0) + 1
            return
        except LinkError:
            return
        first: list[dict[str, Any]] = []
        arrived = trio.Event()

        def on_payload(payload: bytes) -> None:
            message = _message(payload)
            if message is None:
                link.close("not a lobby message")
            elif not first:
                first.append(message)
                arrived.set()
            elif message["t"] == "leave":
                link.close("left")

        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._serve_joiner, link, on_payload)
            with trio.move_on_after(JOIN_TIMEOUT):
                await arrived.wait()
            request = self._request_from(link, peer_ip, first[0] if first else None)
            if request is None:
                link.finish()

    async def _serve_joiner(self, link: Link, on_payload: Callable[[bytes], None]) -> None:
        await link.run(on_payload)
        for request in self._requests:
            if request.link is link and request.state in ("waiting", "admitted") and not self.started:
                request.state = "gone"
                with contextlib.suppress(trio.WouldBlock):
                    self._send.send_nowait(request)  # the host's screen drops the player

    def _request_from(self, link: Link, peer_ip: str, message: dict[str, Any] | None) -> Request | None:
        if message is None or message.get("t") != "join":
            return None
        name, port = _clean_name(message.get("name")), message.get("port")
        if name is None or not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
            link.send(encode({"t": "refused", "why": "a join request needs a name and a port"}))
            return None
        for old in self._requests:
            if old.key == link.peer_key and old.state in ("waiting", "admitted"):
                # The same player again (it reconnected): the newer request replaces the older.
                old.state = "gone"
                if old.link is not None:
                    old.link.close("replaced by a newer request")
        trust = self.peers.check(name, link.peer_key) if self.peers is not None else None
        request = Request(len(self._requests), name, link.peer_key, (peer_ip, port), trust, link=link)
        self._requests.append(request)
        try:
            self._send.send_nowait(request)
        except trio.WouldBlock:
            self.refuse(request, "the host is busy")
        return request

    # ------------------------------------------------------------------ starting

    async def start(
        self,
        *,
        bot_level: str = "normal",
        store_for: Callable[[Genesis, int], GameEffects] | None = None,
        bind_host: str = "127.0.0.1",
    ) -> HostedGame:
        """Seat the host, the admitted players (in the order admitted) and computer players in the
        free seats; tell every joiner; return the host's nodes (not yet running).

        ``store_for(genesis, seat)`` gives each host-side seat its store (a ``GameStore`` for the
        host's own seat, so it can resume); by default everything is kept in memory.  Computer
        seats listen on ``bind_host`` (only the host's own process connects to them)."""
        if self.started:
            raise LobbyError("already started")
        self.started = True
        for request in self.waiting:
            self.refuse(request, "the game has started")
        joiners = self.admitted
        bots = [key_from_seed(os.urandom(32)) for _ in range(self.players - 1 - len(joiners))]
        seats = [(self.name, public_bytes(self.identity))]
        seats += [(r.name, r.key) for r in joiners]
        seats += [(f"Computer {i + 1}", public_bytes(k)) for i, k in enumerate(bots)]
        try:
            genesis = make_genesis(
                self.game,
                seats,
                options=self.options,
                dealer=self.dealer,
                nonce=self.lobby_id,
                timeout_ms=self.timeout_ms,
            )
        except GenesisError as exc:
            raise LobbyError(f"cannot seat these players: {exc}") from exc
        joiner_seats = {r.number: 1 + i for i, r in enumerate(joiners)}
        first_bot = 1 + len(joiners)
        addresses: dict[int, Address] = {joiner_seats[r.number]: r.address for r in joiners}
        stores = store_for or (lambda _g, _s: MemoryStore())

        # The host's process: its own seat and the bots dial every joiner and each other (lower dials
        # higher); only the bots listen, on loopback, for the host's seat and lower bots.
        listeners = [await open_listener(bind_host, 0) for _ in bots]
        local = {first_bot + i: (bind_host, lst.socket.getsockname()[1]) for i, lst in enumerate(listeners)}
        everyone = {**addresses, **local}
        nodes = [Node(genesis, 0, self.identity, stores(genesis, 0), addresses=everyone, dial=set(everyone))]
        for i, (key, lst) in enumerate(zip(bots, listeners, strict=True)):
            seat = first_bot + i
            dials = set(addresses) | {s for s in local if s > seat}
            chooser = computer_chooser(genesis.rules(), bot_level, seed=int.from_bytes(os.urandom(4), "big"))
            nodes.append(
                Node(
                    genesis,
                    seat,
                    key,
                    stores(genesis, seat),
                    listener=lst,
                    addresses=everyone,
                    dial=dials,
                    chooser=chooser,
                )
            )
        raw = genesis.encode()
        for r in joiners:
            seat = joiner_seats[r.number]
            dial_list = [[s, a[0], a[1]] for s, a in sorted(addresses.items()) if s > seat]
            self._tell(r, {"t": "start", "genesis": raw, "seat": seat, "dial": dial_list})
        # Let the start messages leave before the lobby's links go (a clean close flushes them).
        for r in joiners:
            if r.link is not None:
                r.link.finish()
                with trio.move_on_after(2):
                    await r.link.closed.wait()
        return HostedGame(genesis, nodes)


# ---------------------------------------------------------------------- the joiner's side


@dataclass
class Invitation:
    """What the host sent when it started: where this player sits and whom it dials."""

    genesis: Genesis
    seat: int
    dial: dict[int, Address]
    host_key: bytes


async def join(
    address: Address,
    identity: Ed25519PrivateKey,
    name: str,
    *,
    port: int,
    lobby_id: bytes = ANY_BIND,
    code: str | None = None,
    expect_key: bytes | None = None,
    on_admitted: Callable[[], None] | None = None,
) -> Invitation:
    """Ask the host at ``address`` for a seat, wait to be admitted and for the game to start.

    ``port`` is where this player's game node will listen.  ``lobby_id`` and ``expect_key`` come from
    discovery (a manual join knows neither: the handshake then binds whatever lobby is there, and the
    host's fingerprint is for the player to compare).  ``LobbyError`` if refused or cut off."""
    clean = _clean_name(name)
    if clean is None:
        raise LobbyError(f"a player's name has 1 to {MAX_NAME} printable characters")
    handshake = Handshake("dialer", identity, bind=lobby_id, code=code, expect_key=expect_key)
    try:
        link = await dial(address[0], address[1], handshake)
    except HandshakeError as exc:
        raise LobbyError(f"the host refused the connection: {exc.detail or exc.why.value}") from exc
    except LinkError as exc:
        raise LobbyError(str(exc)) from exc
    result: list[Invitation] = []
    refused: list[str] = []
    me = public_bytes(identity)

    def on_payload(payload: bytes) -> None:
        message = _message(payload)
        if message is None:
            link.close("not a lobby message")
        elif message["t"] == "admitted":
            if on_admitted is not None:
                on_admitted()
        elif message["t"] == "refused":
            why = message.get("why")
            refused.append(why if isinstance(why, str) else "refused")
            link.close("refused")
        elif message["t"] == "start":
            invitation = _invitation(message, me, link.peer_key)
            if invitation is None:
                refused.append("the host sent a start this player cannot accept")
            else:
                result.append(invitation)
            link.close("started")

    try:
        link.send(encode({"t": "join", "name": clean, "port": port}))
    except EncodeError as exc:
        raise LobbyError(str(exc)) from exc
    reason = await link.run(on_payload)
    if result:
        return result[0]
    if refused:
        raise LobbyError(f"not admitted: {refused[0][:200]}")
    raise LobbyError(f"the host went away: {reason}")


def _invitation(message: dict[str, Any], me: bytes, host_key: bytes) -> Invitation | None:
    raw, seat, dial_list = message.get("genesis"), message.get("seat"), message.get("dial")
    if not isinstance(raw, bytes) or not isinstance(seat, int) or not isinstance(dial_list, tuple):
        return None
    try:
        genesis = Genesis.decode(raw)
    except GenesisError:
        return None
    keys = [s.key for s in genesis.seats]
    # Our own key at our seat, the host's at seat 0: otherwise this is not the table we asked to join.
    if not 0 < seat < len(keys) or keys[seat] != me or keys[0] != host_key:
        return None
    dials: dict[int, Address] = {}
    for entry in dial_list:
        if not (isinstance(entry, tuple) and len(entry) == 3):
            return None
        s, host, port = entry
        if not (isinstance(s, int) and isinstance(host, str) and isinstance(port, int)):
            return None
        if not (seat < s < len(keys) and 0 < port < 65536):
            return None
        dials[s] = (host, port)
    return Invitation(genesis, seat, dials, host_key)


__all__ = ["HostedGame", "Invitation", "Lobby", "LobbyError", "Request", "join"]
