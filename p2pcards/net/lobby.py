"""The lobby: a host gathers players, admits or refuses each one, fills the empty seats with computer
players and starts the game.

Over one authenticated link per joiner (the handshake binds the lobby's random id, and a private
table's join code), canonical msgpack maps::

    host -> joiner    {t: "table", table, host, game, options, dealer, seed, players, free,
                       timeout_ms, private}                  what is played here, before anything
    joiner -> host    {t: "join", name, port}                port: where the joiner's game node listens
    host -> joiner    {t: "admitted"} | {t: "refused", why}
    host -> joiner    {t: "start", genesis, seat, dial: [[seat, host, port], ...]}

Once the game has started the lobby keeps answering, so that a latecomer learns why it cannot sit
down: ``{t: "started"}`` right after the handshake.

The joiner (``joining``) is shown the table (and the host's proven fingerprint) before it asks for a
seat, and it refuses a genesis that differs from what it was shown (``joining.start_problem``):
another game, other options, another dealer, a seed with the mental dealer, the seeded dealer unless
asked for, another host, or computer players run by anyone but the host.  The genesis binds nothing
until every seat has signed it in the game's first step, so a joiner that does not like it simply
does not sign.

Who dials whom in the game: the host's process (its own seat and its computer players) dials every
joiner, and joiners dial the joiners above them.  The host's machine so needs no open port but the
lobby's, and every joiner accepts connections on the port it announced.

**Bounds** (each a named constant below; ``docs/security.md`` says how they were measured).  Whoever
can reach the port can open connections, so nothing a stranger does may cost the host more than a
fixed amount, and no resource error may stop it:

- at most ``MAX_PER_ADDRESS`` connections from one address at once, and ``max_connections`` in all
  (kept well under the process's limit of open files); a newcomer beyond either is refused;
- at most ``MAX_HANDSHAKES`` connections still in their handshake: the oldest gives way (``Gate``);
- at most ``MAX_WAITING`` requests waiting for the host's answer, ``MAX_WAITING_PER_ADDRESS`` from
  one address; each is refused after ``admission_timeout`` seconds without one;
- a private table's join code: every connection from an address is counted as a guess **when it
  arrives**, and after ``MAX_WRONG_CODES`` wrong codes the address waits between tries, a back-off a
  roommate can wait out (``guesses``);
- a failure to read the known-peers file (out of file descriptors, say) refuses that newcomer and
  nothing else.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import trio
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pcards.net.discovery import TableAd, option_text
from p2pcards.net.gate import Gate
from p2pcards.net.guesses import CODE_BACKOFF, MAX_WRONG_CODES, CodeGuesses
from p2pcards.net.handshake import Handshake, HandshakeError, Hello, Why, join_code_key, refusal
from p2pcards.net.link import Address, Link, LinkError, accept, open_listener
from p2pcards.net.lobby_protocol import (
    MAX_LOBBY_MESSAGE,
    MAX_REASON,
    GameStarted,
    LobbyError,
    clean_name,
    lobby_message,
)
from p2pcards.net.node import GameEffects, Node, computer_chooser
from p2pcards.store import MemoryStore, StoreError
from p2pcards.store.peers import Peers, Trust
from p2pcards.table.genesis import Genesis, GenesisError, make_genesis
from p2pcards.text import MAX_NAME, name_problem, shown
from p2pcards.wire import encode, fingerprint, key_from_seed, public_bytes

JOIN_TIMEOUT: Final = 10.0
"""Seconds a joiner has after its handshake to say who it is."""
ADMISSION_TIMEOUT: Final = 300.0
"""Seconds a request may wait for the host's answer before it is refused."""
MAX_WAITING: Final = 8
"""Requests waiting for the host's answer at once; a newcomer beyond that is refused."""
MAX_WAITING_PER_ADDRESS: Final = 2
"""Of those, from one address: one machine cannot fill the host's screen (nor its queue)."""
MAX_PER_ADDRESS: Final = 4
"""Connections from one address at once (handshakes, requests and admitted players alike)."""
MAX_HANDSHAKES: Final = 16
"""Connections still in their handshake at once; the oldest gives way to a newcomer."""
MAX_CONNECTIONS: Final = 64
"""Lobby connections at once, in all; lowered to a quarter of the open-files limit if that is less."""
MAX_REFUSING: Final = 16
"""Refusals being written at once; beyond that a connection turned away is simply closed."""
REFUSAL_LINGER: Final = 0.5
"""Seconds a refused connection is kept to deliver its refusal."""
COMPUTER_NAMES: Final = ("Anna", "Boris", "Clara", "Dmitri", "Elena", "Farid", "Galina", "Hugo",
                          "Irina", "Jonas", "Kira", "Lev", "Marta", "Nikolai", "Olga", "Pavel", "Rosa",
                          "Stefan", "Tamara", "Viktor", "Wanda", "Yuri", "Zoe")
"""Names for the host's computer players (as offline), the first ones that resemble nobody's at the
table (``resembles``).  At most five persons sit beside a computer player, and each rules out at most
three of these, so there are always enough."""


def _folded(name: str) -> str:
    return "".join(c for c in name.casefold() if c.isalnum())


def _distance(a: str, b: str) -> int:
    """Edits (insert, delete, replace) from ``a`` to ``b``."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


def resembles(a: str, b: str) -> bool:
    """Whether two names could be taken for each other on a screen: equal but for case, spaces or
    punctuation, one the start of the other (Ann, Anna), the same first three letters (Dmitry,
    Dmitri), or a letter apart (two in names of four letters or more: Lena, Elena; Olya, Olga)."""
    x, y = _folded(a), _folded(b)
    if not x or not y:
        return x == y
    if x.startswith(y) or y.startswith(x) or (len(x) >= 3 and x[:3] == y[:3]):
        return True
    return _distance(x, y) <= (1 if min(len(x), len(y)) <= 3 else 2)


def computer_names(taken: Sequence[str], count: int) -> list[str]:
    """The first ``count`` of ``COMPUTER_NAMES`` that resemble none of ``taken`` (the people's)."""
    names = [n for n in COMPUTER_NAMES if not any(resembles(n, t) for t in taken)]
    if len(names) < count:  # not reachable at six seats; never two equal names all the same
        names += [f"Computer {i}" for i in range(1, count + 1) if f"Computer {i}" not in taken]
    return names[:count]


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
    known_key: bytes | None = None
    """The key this name had before, when ``trust`` is ``changed``."""
    state: str = "waiting"
    """waiting | admitted | refused | gone"""
    reason: str = ""
    """Why it was refused (by the host, or by the lobby itself: no answer in time)."""
    link: Link | None = field(default=None, repr=False)
    decided: trio.Event = field(default_factory=trio.Event, repr=False)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)


@dataclass
class HostedGame:
    """What ``start`` returns: the genesis and the nodes run by the host's process (its own seat,
    then its computer players).  Run each node (``Node.run`` / ``Node.play``)."""

    genesis: Genesis
    nodes: list[Node]


def open_files_limit() -> int | None:
    """The soft limit of open files of this process, where the platform has one."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else int(soft)


class Lobby:
    """The host's side.  ``run`` accepts joiners (new requests, and requests that leave or time out,
    arrive on ``requests``); ``admit`` / ``refuse`` them; ``start`` seats everybody and returns the
    host's nodes.  ``run`` goes on after the start, telling latecomers that the game has started."""

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
        admission_timeout: float = ADMISSION_TIMEOUT,
        code_backoff: float = CODE_BACKOFF,
    ) -> None:
        clean = clean_name(name)
        if clean is None:
            raise LobbyError(f"a player's name: {name_problem(name) or 'not usable'}")
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
        self.table_name = shown(table_name or f"{clean}'s table", MAX_NAME)
        self.lobby_id = os.urandom(32)
        self.private = code is not None
        self.admission_timeout = admission_timeout
        # Derived once: scrypt is deliberately slow, and every joiner's handshake needs the key.
        self._code_key = join_code_key(code, self.lobby_id) if code is not None else None
        self._requests: list[Request] = []
        self._admission: list[Request] = []
        self._guesses = CodeGuesses(backoff=code_backoff)
        self._gate = Gate(MAX_HANDSHAKES, MAX_PER_ADDRESS)
        self._open: dict[str, int] = {}
        self._connections = 0
        self._refusing = 0
        limit = open_files_limit()
        self.max_connections = MAX_CONNECTIONS if limit is None else max(4, min(MAX_CONNECTIONS, limit // 4))
        self._send, self.requests = trio.open_memory_channel[Request](64)
        self.started = False
        self.genesis: Genesis | None = None
        # Fail now, not at start, on a game or options that cannot be played.
        self.rules_options = make_genesis(
            game,
            [(f"p{i}", public_bytes(key_from_seed(bytes([i + 1]) * 32))) for i in range(players)],
            options=self.options,
        ).options

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

    @property
    def connections(self) -> int:
        """Lobby connections open now."""
        return self._connections

    def ad(self) -> TableAd:
        """This table's advertisement for ``discovery.advertise``."""
        return TableAd(
            self.table_name,
            self.game,
            option_text(self.rules_options),
            self.players,
            0 if self.started else self.free_seats,
            fingerprint(self.identity),
            self.lobby_id,
            self.private,
            self.port,
            dealer=self.dealer,
            playing=self.started,
        )

    def _offer(self) -> dict[str, Any]:
        return {
            "t": "table",
            "table": self.table_name,
            "host": self.name,
            "game": self.game,
            "options": [[k, v] for k, v in self.rules_options],
            "dealer": self.dealer,
            "seed": 0,
            "players": self.players,
            "free": self.free_seats,
            "timeout_ms": self.timeout_ms,
            "private": self.private,
        }

    def admit(self, request: Request) -> str:
        """Seat ``request``; what went wrong remembering its key ("" if nothing: the player is
        admitted either way, the known-peers file is only this host's memory)."""
        if request.state != "waiting":
            raise LobbyError(f"{request.name} is {request.state}, not waiting")
        if self.free_seats <= 0:
            raise LobbyError("the table is full")
        request.state = "admitted"
        request.decided.set()
        self._admission.append(request)
        self._tell(request, {"t": "admitted"})
        if self.peers is None:
            return ""
        try:
            # Its key proved itself in the lobby's handshake: trust on first use may remember it.
            self.peers.remember(request.name, request.key)
        except (StoreError, OSError, ValueError) as exc:
            return str(exc)
        return ""

    def refuse(self, request: Request, why: str = "not admitted") -> None:
        if request.state in ("refused", "gone"):
            return
        request.state = "refused"
        request.reason = why
        request.decided.set()
        self._tell(request, {"t": "refused", "why": why[:MAX_REASON]})
        if request.link is not None:
            request.link.finish()  # the refusal is written, then the connection closed

    def _tell(self, request: Request, message: dict[str, Any]) -> None:
        if request.link is not None:
            request.link.send(encode(message))

    def _notify(self, request: Request) -> None:
        with contextlib.suppress(trio.WouldBlock, trio.ClosedResourceError):
            self._send.send_nowait(request)

    # ------------------------------------------------------------------ accepting joiners

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Accept joiners until cancelled (after the start, only to tell them it has started)."""
        try:
            async with trio.open_nursery() as nursery:
                task_status.started()
                while True:
                    try:
                        stream = await self.listener.accept()
                    except OSError:
                        # Out of file descriptors: the connection waits in the kernel's backlog
                        # until some are free again.  Never a reason to stop.
                        await trio.sleep(0.1)
                        continue
                    nursery.start_soon(self._incoming, stream)
        finally:
            with trio.CancelScope(shield=True):
                await self.listener.aclose()

    async def _incoming(self, stream: trio.SocketStream) -> None:
        try:
            peer_ip = str(stream.socket.getpeername()[0])
        except OSError:  # already gone
            await trio.aclose_forcefully(stream)
            return
        why = self._turn_away(peer_ip)
        if why:
            await self._refuse_early(stream, why)
            return
        self._open[peer_ip] = self._open.get(peer_ip, 0) + 1
        self._connections += 1
        guessing = self._code_key is not None
        if guessing:
            self._guesses.arrived(peer_ip, trio.current_time())
        try:
            await self._serve(stream, peer_ip, guessing)
        except (OSError, StoreError, trio.BrokenResourceError, trio.ClosedResourceError):
            pass  # a resource failing costs this newcomer its connection, and nobody else anything
        finally:
            self._connections -= 1
            self._open[peer_ip] -= 1
            if self._open[peer_ip] <= 0:
                del self._open[peer_ip]
            with trio.CancelScope(shield=True):
                await trio.aclose_forcefully(stream)

    def _turn_away(self, peer_ip: str) -> str:
        """Why a new connection from ``peer_ip`` is refused at once ("" if it is not)."""
        if self._connections >= self.max_connections:
            return "the host is busy (too many connections): try again in a moment"
        if self._open.get(peer_ip, 0) >= MAX_PER_ADDRESS:
            return f"too many connections from your address ({MAX_PER_ADDRESS} at once)"
        if self._code_key is None:
            return ""
        wait = self._guesses.wait(peer_ip, trio.current_time())
        if wait <= 0:
            return ""
        return (
            f"too many wrong join codes from your address: wait {max(1, int(wait + 0.999))} s and try "
            "again (check the code with the host)"
        )

    def _judged(self, peer_ip: str, wrong: bool) -> None:
        self._guesses.judged(peer_ip, trio.current_time(), wrong=wrong)

    async def _refuse_early(self, stream: trio.SocketStream, why: str) -> None:
        """Tell a connection turned away why (if not too many are being told already), then close.

        What the dialer sent (its hello) is read until it closes, for at most ``REFUSAL_LINGER``:
        closing with unread data would reset the connection and could lose the refusal on its way."""
        if self._refusing >= MAX_REFUSING:
            await trio.aclose_forcefully(stream)
            return
        self._refusing += 1
        try:
            with trio.move_on_after(REFUSAL_LINGER):
                await stream.send_all(len(refusal(why)).to_bytes(4, "big") + refusal(why))
                with contextlib.suppress(OSError):
                    stream.socket.shutdown(socket.SHUT_WR)  # our refusal, then the end of our side
                while await stream.receive_some(4096):
                    pass
        except (OSError, trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        finally:
            self._refusing -= 1
            await trio.aclose_forcefully(stream)

    async def _serve(self, stream: trio.SocketStream, peer_ip: str, guessing: bool) -> None:
        place = self._gate.enter(peer_ip)
        if place is None:
            if guessing:
                self._judged(peer_ip, wrong=False)
            return
        judged = False

        def on_hello(hello: Hello) -> None:
            nonlocal judged
            place.leave()  # it spoke: no longer a connection that may be stalling anonymously
            if guessing and not hello.code:
                judged = True
                self._judged(peer_ip, wrong=False)  # no code, no guess (it is refused anyway)

        handshake = Handshake(
            "acceptor", self.identity, any_bind=self.lobby_id, code_key=self._code_key, on_hello=on_hello
        )
        link: Link | None = None
        try:
            with place.scope:
                link = await accept(stream, handshake, max_frame=MAX_LOBBY_MESSAGE)
        except HandshakeError as exc:
            if guessing and not judged:
                judged = True
                self._judged(peer_ip, wrong=exc.why is Why.WRONG_CODE)
            return
        except LinkError:
            pass
        finally:
            place.leave()
            if guessing and not judged:
                # Right, or never judged (it gave way, stalled or went away): not a wrong guess.
                self._judged(peer_ip, wrong=False)
        if link is not None:
            await self._talk(link, peer_ip)

    async def _talk(self, link: Link, peer_ip: str) -> None:
        first: list[dict[str, Any]] = []
        arrived = trio.Event()

        def on_payload(payload: bytes) -> None:
            message = lobby_message(payload)
            if message is None:
                link.close("not a lobby message")
            elif not first:
                first.append(message)
                arrived.set()
            elif message["t"] == "leave":
                link.close("left")

        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._serve_joiner, link, on_payload)
            if self.started:
                link.send(encode({"t": "started"}))
                link.finish()
                return
            link.send(encode(self._offer()))
            with trio.move_on_after(JOIN_TIMEOUT):
                await arrived.wait()
            request = self._request_from(link, peer_ip, first[0] if first else None)
            if request is None:
                link.finish()
                return
            with trio.move_on_after(self.admission_timeout):
                await request.decided.wait()
            if request.state == "waiting":
                minutes = self.admission_timeout / 60
                self.refuse(request, f"the host did not answer within {minutes:g} minutes")
                self._notify(request)

    async def _serve_joiner(self, link: Link, on_payload: Callable[[bytes], None]) -> None:
        await link.run(on_payload)
        for request in self._requests:
            if request.link is link and request.state in ("waiting", "admitted") and not self.started:
                request.state = "gone"
                request.decided.set()
                self._notify(request)  # the host's screen drops the player

    def _request_from(self, link: Link, peer_ip: str, message: dict[str, Any] | None) -> Request | None:
        if message is None or message.get("t") != "join":
            return None
        name, port = clean_name(message.get("name")), message.get("port")
        if name is None or not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
            link.send(encode({"t": "refused", "why": "a join request needs a name and a port"}))
            return None
        others = [r for r in self.waiting if r.key != link.peer_key]
        if len([r for r in others if r.address[0] == peer_ip]) >= MAX_WAITING_PER_ADDRESS:
            why = f"{MAX_WAITING_PER_ADDRESS} players from your address already wait for the host's answer"
            link.send(encode({"t": "refused", "why": why}))
            return None
        if len(others) >= MAX_WAITING:
            why = f"{MAX_WAITING} players are already waiting for the host's answer: try again later"
            link.send(encode({"t": "refused", "why": why}))
            return None
        trust: Trust | None = None
        known: bytes | None = None
        if self.peers is not None:
            try:
                trust = self.peers.check(name, link.peer_key)
                known = self.peers.key_of(name) if trust is Trust.CHANGED else None
            except (StoreError, OSError, ValueError):
                # Out of file descriptors, a damaged file: this request cannot be judged now.
                why = "the host cannot check its known players right now: try again in a moment"
                link.send(encode({"t": "refused", "why": why}))
                return None
        for old in self._requests:
            if old.key == link.peer_key and old.state in ("waiting", "admitted"):
                # The same player again (it reconnected): the newer request replaces the older.
                old.state = "gone"
                old.decided.set()
                if old.link is not None:
                    old.link.close("replaced by a newer request")
                self._notify(old)
        request = Request(len(self._requests), name, link.peer_key, (peer_ip, port), trust, known, link=link)
        self._requests.append(request)
        try:
            self._send.send_nowait(request)
        except trio.WouldBlock:
            self.refuse(request, "the host is busy")
        return request

    # ------------------------------------------------------------------ starting

    def _computer_names(self, taken: list[str], count: int) -> list[str]:
        """Names for ``count`` computer players that resemble nobody's at the table."""
        return computer_names(taken, count)

    async def start(
        self,
        *,
        bot_level: str = "normal",
        store_for: Callable[[Genesis, int], GameEffects] | None = None,
        bind_host: str = "127.0.0.1",
        partner: str | None = None,
    ) -> HostedGame:
        """Seat the host, the admitted players (in the order admitted) and computer players in the
        free seats; tell every joiner; return the host's nodes (not yet running).  ``partner``: the
        admitted player to seat opposite the host (seat 2 of Spades' four: the host's partner), if
        admitted.

        ``store_for(genesis, seat)`` gives each host-side seat its store (a ``GameStore`` for the
        host's own seat, so it can resume); by default everything is kept in memory.  Computer
        seats listen on ``bind_host`` (only the host's own process connects to them); the genesis
        names them as computer players run by the host's seat, so that every joiner is told that
        this laptop can see their cards."""
        if self.started:
            raise LobbyError("already started")
        self.started = True
        for request in self.waiting:
            self.refuse(request, "the game has started")
        joiners = self.admitted
        free = list(range(1, self.players))
        joiner_seats: dict[int, int] = {}
        chosen = [r for r in joiners if partner is not None and r.name == partner and 2 in free][:1]
        for r in chosen:
            joiner_seats[r.number] = 2
            free.remove(2)
        for r in joiners:
            if r.number not in joiner_seats:
                joiner_seats[r.number] = free.pop(0)
        bot_seats = free
        bots = [key_from_seed(os.urandom(32)) for _ in bot_seats]
        by_seat = {joiner_seats[r.number]: (r.name, r.key) for r in joiners}
        names = self._computer_names([self.name, *(r.name for r in joiners)], len(bots))
        by_seat.update({s: (n, public_bytes(k)) for s, n, k in zip(bot_seats, names, bots, strict=True)})
        seats = [(self.name, public_bytes(self.identity))] + [by_seat[s] for s in range(1, self.players)]
        try:
            genesis = make_genesis(
                self.game,
                seats,
                options=self.options,
                dealer=self.dealer,
                nonce=self.lobby_id,
                timeout_ms=self.timeout_ms,
                computers=tuple((s, 0) for s in bot_seats),
            )
        except GenesisError as exc:
            raise LobbyError(f"cannot seat these players: {exc}") from exc
        self.genesis = genesis
        addresses: dict[int, Address] = {joiner_seats[r.number]: r.address for r in joiners}
        stores = store_for or (lambda _g, _s: MemoryStore())

        # The host's process: its own seat and the bots dial every joiner and each other (lower dials
        # higher); only the bots listen, on loopback, for the host's seat and lower bots.
        listeners = [await open_listener(bind_host, 0) for _ in bots]
        ports = [lst.socket.getsockname()[1] for lst in listeners]
        local = {seat: (bind_host, port) for seat, port in zip(bot_seats, ports, strict=True)}
        everyone = {**addresses, **local}
        nodes = [Node(genesis, 0, self.identity, stores(genesis, 0), addresses=everyone, dial=set(everyone))]
        for seat, key, lst in zip(bot_seats, bots, listeners, strict=True):
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


__all__ = [
    "ADMISSION_TIMEOUT",
    "MAX_HANDSHAKES",
    "MAX_PER_ADDRESS",
    "MAX_WAITING",
    "MAX_WAITING_PER_ADDRESS",
    "MAX_WRONG_CODES",
    "GameStarted",
    "HostedGame",
    "Lobby",
    "LobbyError",
    "Request",
]
