"""``p2pcards join [TABLE | HOST[:PORT]]``: sit down at a table on the local network and play.

By a table's name (found by mDNS, as ``p2pcards list`` shows it), or by the host's address, which
always works when multicast is blocked (an address without a port tries the default port, then the
tables seen at that address).  Either way the player first sees the table — its game, its dealer and
the host's fingerprint, proven by the connection — then asks for a seat, waits to be admitted and
plays with the screen of ``p2pcards play``.  This seat listens on one TCP port of its own: the other
seats connect to it directly (``--port`` fixes it, for a firewall rule).

Nothing is signed that differs from what was shown (``net.joining.start_problem``); the seeded
dealer, whose deck anyone can predict, is refused unless ``--allow-seeded-dealer`` (tests).  Trust on
first use: a name and key enter the known peers only once that key proved itself in a handshake
with this laptop (the host's in the lobby, every other seat's when its link comes up), never because
the host wrote them into the table; computer players are never remembered.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final

import trio
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from rich.text import Text

from p2pcards.ai.budget import default_think, parse_think, set_default_think
from p2pcards.cli.common import UsageError, program
from p2pcards.cli.lan import options as opt
from p2pcards.cli.lan.finding import DEALER_WORDS, find_table
from p2pcards.cli.lan.runner import Context, LanError, run_trio
from p2pcards.cli.lan.summary import changed_options
from p2pcards.cli.lan.terminal import changed_key_warning
from p2pcards.cli.screen import words
from p2pcards.cli.terminal import EndOfInput, Lines, Terminal
from p2pcards.net.discovery import TableAd, option_text
from p2pcards.net.handshake import ANY_BIND, HANDSHAKE_VERSION, Why
from p2pcards.net.joining import Invitation, Joining, connect
from p2pcards.net.link import DEFAULT_PORT, Address, open_listener
from p2pcards.net.lobby_protocol import GameStarted, LobbyError
from p2pcards.store import GameStore, Peers, StoreError, Trust, load_or_create
from p2pcards.text import MAX_NAME, shown
from p2pcards.wire import fingerprint, public_bytes

if TYPE_CHECKING:
    from p2pcards.net.node import NodeEvent
    from p2pcards.table.genesis import Genesis

# The game's screen, its node and its table are imported only once the host has started the game
# (``_play``): a quarter of a second that a player waiting to be admitted need not wait for.

DISCOVERY_TIMEOUT: Final = 10.0
BARE_LOOK: Final = 2.0
"""Seconds an address alone where nothing answers on the default port is looked for by mDNS: a
host on the network answers a query within tens of milliseconds."""
CODE_TRIES: Final = 3
SEEDED_WARNING: Final = (
    "this table is dealt by the SEEDED dealer: its deck order follows from the table's description, so "
    "the host (and anyone who sees it) knows every card. It exists for tests only"
)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "join", help="sit down at a table on the local network and play",
        description=(
            "Join a table: by its name as `p2pcards list` shows it (found by mDNS), or by the host's "
            "address HOST:PORT, which works even where discovery is blocked (an address alone tries "
            f"port {DEFAULT_PORT}, then the tables seen at that address). Without either, the only "
            "table around is joined (or, at a terminal, the one you pick)."
        ),
    )
    p.add_argument("table", nargs="?", default=None, metavar="TABLE|HOST[:PORT]",
                   help="a table's name (or its host's fingerprint), or the address the host shows")
    p.add_argument("--name", default=None, metavar="NAME",
                   help="your name at the table (default: your login)")
    p.add_argument("--code", default=None, metavar="CODE", help="the join code of a private table")
    p.add_argument("--interface", default=None, metavar="IFACE",
                   help="the network to use: an interface name (wlan0) or this machine's IPv4 address on it")
    p.add_argument("--port", type=int, default=0, metavar="P",
                   help="the TCP port this seat listens on for the other seats (default: any free port)")
    p.add_argument("--timeout", type=float, default=DISCOVERY_TIMEOUT, metavar="S",
                   help=f"seconds to look for the table on the network (default {DISCOVERY_TIMEOUT:g})")
    p.add_argument("--auto", default=None, metavar="LEVEL",
                   help="let a computer player of LEVEL play your seat (nothing is read from the keyboard)")
    p.add_argument("--think", default="1", metavar="SECONDS",
                   help="with --auto hard: how long it thinks at most per decision (default 1)")
    p.add_argument("--json", action="store_true",
                   help="print events as JSON lines; moves are read as lines from standard input")
    p.add_argument("--allow-short-timeout", action="store_true",
                   help=f"sit down at a table whose move clock is under {opt.MIN_PLAYABLE_TIMEOUT} s "
                        "(refused otherwise: a player thinking would be named silent; for trying "
                        "things out and for tests)")
    p.add_argument("--allow-seeded-dealer", action="store_true",
                   help="for tests only: sit down at a table dealt by the seeded dealer, whose deck "
                        "anyone can predict (refused otherwise)")
    p.set_defaults(run=run)


@dataclass(frozen=True)
class JoinConfig:
    table: str | None
    address: Address | None
    bare: bool
    """``address`` was given without a port: the default port is a guess."""
    name: str
    code: str | None
    interface: str | None
    port: int
    timeout: float
    auto: str | None
    allow_seeded: bool = False
    allow_short_timeout: bool = False

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> JoinConfig:
        table = args.table.strip() if args.table is not None else None
        if table == "":
            raise UsageError("the table's name is empty: give a name from `p2pcards list`, or HOST:PORT")
        address = opt.split_address(table) if table is not None else None
        bare = False
        if table is not None and address is None:
            ip = opt.bare_address(table)
            if ip is not None:
                address, bare = (ip, DEFAULT_PORT), True
        return cls(
            table=table, address=address, bare=bare, name=opt.player_name(args.name),
            code=opt.join_code(args.code), interface=opt.interface(args.interface), port=opt.port(args.port),
            timeout=opt.seconds(args.timeout, "--timeout", 0.5, 3600),
            auto=None if args.auto is None else opt.level(args.auto, "--auto"),
            allow_seeded=bool(getattr(args, "allow_seeded_dealer", False)),
            allow_short_timeout=bool(getattr(args, "allow_short_timeout", False)),
        )


@dataclass(frozen=True)
class Target:
    """Where to ask for a seat: addresses to try in turn, and what discovery said of the table."""

    addresses: list[Address]
    label: str
    ad: TableAd | None = None
    bare: bool = False


def run(args: argparse.Namespace) -> int:
    try:
        set_default_think(parse_think(args.think))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    config = JoinConfig.from_args(args)
    out = Terminal(json_mode=args.json)
    return run_trio(lambda context: join_table(config, context), out)


async def join_table(config: JoinConfig, context: Context) -> int:
    try:
        identity = load_or_create()
    except StoreError as exc:
        raise LanError(str(exc)) from exc
    lines = Lines(context.out)
    reading = config.auto is None or context.out.interactive
    async with trio.open_nursery() as root:
        if reading:
            root.start_soon(lines.run)
        code = await _join_and_play(config, context, identity, lines if reading else None)
        root.cancel_scope.cancel()
    return code


async def _join_and_play(
    config: JoinConfig, context: Context, identity: Ed25519PrivateKey, lines: Lines | None
) -> int:
    out = context.out
    target = await _target(config, out, lines)
    joining = await _connect(config, out, lines, identity, target)
    try:
        target = _check_offer(joining, target, config, out)
        bind = config.interface or opt.source_address(*joining.address)
        try:
            listener = await open_listener(bind, config.port)
        except OSError as exc:
            raise LanError(_listen_problem(bind, config.port, exc)) from exc
        port: int = listener.socket.getsockname()[1]
        try:
            invitation = await _ask_for_seat(config, out, identity, joining, target, port)
        except BaseException:
            await listener.aclose()
            raise
    finally:
        await joining.aclose()
    out.hide_status()
    if not await _accept_table(invitation, out, lines):
        await listener.aclose()
        return 1
    return await _play(config, context, identity, lines, invitation, listener, bind, port)


async def _play(
    config: JoinConfig,
    context: Context,
    identity: Ed25519PrivateKey,
    lines: Lines | None,
    invitation: Invitation,
    listener: trio.SocketListener,
    bind: str,
    port: int,
) -> int:
    from p2pcards.cli.lan import record as records
    from p2pcards.cli.lan.game import LanGame
    from p2pcards.cli.lan.runner import play_seat
    from p2pcards.net.node import Node, computer_chooser

    genesis = invitation.genesis
    try:
        store = GameStore.open(genesis.game_id)
    except StoreError as exc:
        await listener.aclose()
        raise LanError(str(exc)) from exc
    record = records.SeatRecord(role="join", genesis=genesis, seat=invitation.seat, bind=bind, port=port,
                                dial=dict(invitation.dial), auto=config.auto, think_ms=default_think())
    try:
        records.save(record)
    except (OSError, StoreError) as exc:
        store.close()
        await listener.aclose()
        raise LanError(f"cannot keep the game's seat record: {exc}") from exc
    chooser = None
    if config.auto is not None:
        chooser = computer_chooser(genesis.rules(), config.auto, seed=int.from_bytes(os.urandom(4), "big"))
    node = Node(genesis, invitation.seat, identity, store, listener=listener, addresses=invitation.dial,
                dial=set(invitation.dial), chooser=chooser)
    game = LanGame(node, context.out, lines=lines, auto=config.auto,
                   computers=[seat for seat, _ in genesis.computers])
    node.on_event = remember_proven(genesis, invitation.seat, game.on_event, context.out)
    return await play_seat(game, [node], [store], record, context)


def _listen_problem(bind: str, port: int, exc: OSError) -> str:
    if port:
        return (f"cannot listen on port {port} ({bind}): {exc.strerror or exc}. Another program (or "
                "another game) uses it: choose another with --port, or leave --port out for any free port")
    return f"cannot listen on {bind}: {exc.strerror or exc}"


# ---------------------------------------------------------------------- finding the table


async def _target(config: JoinConfig, out: Terminal, lines: Lines | None) -> Target:
    if config.address is not None:
        opt.source_address(*config.address)  # a host name that does not resolve is bad input (exit 2)
        where = f"{config.address[0]}:{config.address[1]}"
        label = config.address[0] if config.bare else where
        return Target([config.address], label, bare=config.bare)
    interfaces = [config.interface] if config.interface is not None else None
    ad = await find_table(config.table, interfaces, config.timeout, out, lines)
    return _target_of(ad, config, out)


def _target_of(ad: TableAd, config: JoinConfig, out: Terminal) -> Target:
    """Where to join the table ``ad`` describes; ``LanError`` if it cannot be joined."""
    if ad.version != HANDSHAKE_VERSION:
        raise LanError(f"{ad.name!r} is hosted by another version of p2pcards (protocol {ad.version}, "
                       f"this one speaks {HANDSHAKE_VERSION})")
    if ad.playing:
        raise LanError(started_message(ad.name, ad.lobby, ad.fingerprint))
    if ad.free <= 0:
        raise LanError(f"{ad.name!r} has no free seat")
    if not ad.addresses:
        raise LanError(f"{ad.name!r} was announced without an address: join it by HOST:PORT")
    addresses = [(a, ad.port) for a in ad.addresses]
    if config.interface is not None:
        # The address on the chosen network first.
        prefix = config.interface.rsplit(".", 1)[0] + "."
        addresses.sort(key=lambda a: not a[0].startswith(prefix))
    out.emit({"event": "found", "table": ad.name, "game": ad.game, "fingerprint": ad.fingerprint,
              "free": ad.free, "seats": ad.seats, "dealer": ad.dealer,
              "addresses": [f"{a}:{p}" for a, p in addresses]})
    found = Text("Found ")
    found.append(ad.name, style="bold")
    found.append(f": {ad.game.capitalize()}, {ad.free} of {ad.seats} seats free, "
                 f"{DEALER_WORDS.get(ad.dealer, ad.dealer)}, host key ")
    found.append(ad.fingerprint, style="bold cyan")
    out.say(found)
    return Target(addresses, ad.name, ad)


def started_message(label: str, lobby_id: bytes, host_fingerprint: str) -> str:
    """What to say of a table whose game has started: and whether this player has a seat at it
    (a game of this data directory bound to that lobby, with that host), to resume."""
    from p2pcards.cli.lan import record as records

    try:
        me = public_bytes(load_or_create())
        games = records.lan_games()
    except (StoreError, OSError):
        games, me = [], b""
    for record, _ in games:
        g = record.genesis
        host_fp = fingerprint(g.seats[0].key)
        if g.nonce != lobby_id or host_fp != host_fingerprint or g.seats[record.seat].key != me:
            continue
        short = record.game_id.hex()[:12]
        if record.finished:
            return (f"the game at {label!r} has started, and you played it to its end: "
                    f"{program()} verify {short}")
        return (f"the game at {label!r} has started, and you have a seat at it: come back to it with  "
                f"{program()} resume {short}")
    return f"the game at {label!r} has already started: it takes no more players"


async def _connect(
    config: JoinConfig, out: Terminal, lines: Lines | None, identity: Ed25519PrivateKey, target: Target
) -> Joining:
    """A conversation with the table's lobby: connected, and its table described."""
    code = config.code
    if target.ad is not None and target.ad.private and code is None:
        code = await _ask_code(out, lines, f"{target.label!r} is a private table")
    tries = 0
    while True:
        tries += 1
        lobby_id = target.ad.lobby if target.ad is not None else ANY_BIND
        problem, refusal = "", ""
        for address in target.addresses:
            where = f"{address[0]}:{address[1]}"
            out.emit({"event": "connecting", "address": where})
            out.status(f"Connecting to {target.label}…")
            try:
                return await connect(address, identity, lobby_id=lobby_id, code=code, source=config.interface)
            except GameStarted as started:
                out.hide_status()
                message = started_message(target.label, started.lobby_id, fingerprint(started.host_key))
                raise LanError(message) from started
            except LobbyError as exc:
                problem, refusal = str(exc), exc.refusal
                out.hide_status()
                if not _unreachable(problem):
                    break
        if refusal in (Why.CODE_REQUIRED.value, Why.WRONG_CODE.value):
            wrong = refusal == Why.WRONG_CODE.value
            if lines is None or not out.interactive or tries >= CODE_TRIES:
                raise UsageError(
                    f"{target.label} is a private table: "
                    + ("that join code is wrong" if wrong else "give its join code with --code CODE")
                )
            why = "wrong join code" if wrong else f"{target.label} is a private table"
            code = await _ask_code(out, lines, why)
            continue
        if target.bare and _unreachable(problem):
            # An address alone: the host may have moved to another port; discovery knows which.
            out.say(Text(f"Nothing answers at {target.label}:{DEFAULT_PORT}; looking for the tables at "
                         f"{target.label} on the network…", style="dim"))
            interfaces = [config.interface] if config.interface is not None else None
            look = min(config.timeout, BARE_LOOK)
            try:
                ad = await find_table(None, interfaces, look, out, lines, at_address=target.label)
            except LanError as exc:
                if "no table found" not in str(exc):
                    raise
                raise LanError(nobody_at(target.label, problem, look)) from None
            target = _target_of(ad, config, out)
            if target.ad is not None and target.ad.private and code is None:
                code = await _ask_code(out, lines, f"{target.label!r} is a private table")
            continue
        if _unreachable(problem):
            raise LanError(nobody_answers(target, problem))
        raise LanError(f"could not join {target.label}: {problem}")


def _tried(problem: str, host: str, port: int) -> str:
    """What happened at ``host:port``, in words, from the connection's ``problem``."""
    why = problem.split(f"{host}:{port}", 1)[-1].lstrip(": ").rstrip(".")
    if "refused" in why.lower():
        return f"nothing listens on port {port} (the connection was refused)"
    if why.startswith("within"):
        return f"port {port} gave no answer {why}"
    return f"port {port} cannot be reached ({why[:1].lower()}{why[1:]})"


_WHAT_NEXT = ("check that the host's program is still running and that both laptops are on the same "
              "network (see docs/troubleshooting.md)")


def nobody_at(address: str, problem: str, looked: float) -> str:
    """What was tried at an address alone where nothing answered, and what to try next."""
    tried = _tried(problem, address, DEFAULT_PORT)
    return (f"no p2pcards table at {address}: {tried}, and no table at {address} was announced on the "
            f"network within {looked:g} s. Check the address on the host's screen (\"Players join with: "
            f"p2pcards join HOST:PORT\") and give it with its port; {_WHAT_NEXT}")


def nobody_answers(target: Target, problem: str) -> str:
    """What was tried where nothing answered (an address with its port, or the addresses a table was
    announced at), and what to try next."""
    host, port = target.addresses[-1]
    tried = _tried(problem, host, port)
    if target.ad is None:
        return (f"no p2pcards table at {host}:{port}: {tried}. Check the address on the host's screen "
                f"(\"Players join with: p2pcards join HOST:PORT\"), its port included; {_WHAT_NEXT}")
    where = ", ".join(f"{a}:{p}" for a, p in target.addresses)
    return (f"{target.label!r} was announced at {where}, but {tried}. The host may have just closed it, "
            f"or a firewall on the host's laptop blocks the port; {_WHAT_NEXT}")


def _unreachable(problem: str) -> bool:
    return "cannot connect" in problem or "no answer" in problem


async def _ask_code(out: Terminal, lines: Lines | None, why: str) -> str:
    if lines is None or not out.interactive:
        raise UsageError(f"{why}: give its join code with --code CODE")
    out.prompt(f"{why[:1].upper()}{why[1:]}. Join code: ")
    try:
        typed = await lines.get()
    except EndOfInput:
        raise LanError("no join code given") from None
    try:
        code = opt.join_code(typed.strip())
    except UsageError as exc:
        raise LanError(str(exc).replace("--code", "the join code")) from None
    assert code is not None
    return code


# ---------------------------------------------------------------------- the table, before asking


def _check_offer(joining: Joining, target: Target, config: JoinConfig, out: Terminal) -> Target:
    """Show the table as its host describes it, with the host's proven fingerprint; refuse what this
    player must not sit down at.  The target, named after the table."""
    offer = joining.offer
    host_fp = fingerprint(offer.host_key)
    table, host = shown(offer.table, MAX_NAME), shown(offer.host, MAX_NAME)
    where = f"{joining.address[0]}:{joining.address[1]}"
    out.emit({"event": "table", "table": table, "host": host, "fingerprint": host_fp, "game": offer.game,
              "options": dict(offer.options), "dealer": offer.dealer, "players": offer.players,
              "free": offer.free, "private": offer.private, "address": where,
              "timeout_s": offer.timeout_ms // 1000})
    ad = target.ad
    if ad is not None and host_fp != ad.fingerprint:
        raise LanError(f"the host that answered has the key {host_fp}, not {ad.fingerprint} as announced for "
                       f"{ad.name!r}: it is not the table you chose. Not sitting down.")
    if ad is not None and (ad.game, ad.dealer, ad.options) != (offer.game, offer.dealer,
                                                               option_text(offer.options)):
        raise LanError(f"the host of {ad.name!r} describes another game than it announced. Not sitting down.")
    if not out.json:
        head = Text("Table ")
        head.append(table, style="bold")
        head.append(f" at {where}: {shown(offer.game, 16).capitalize()}, {offer.players} seats, "
                    f"{offer.free} free")
        options = ", ".join(changed_options(offer.game, offer.options))
        if options:  # only what differs from the defaults
            head.append(f" ({shown(options, 400)})", style="dim")
        out.say(head)
        line = Text("Host ")
        line.append(host, style="bold")
        line.append(", key ")
        line.append(host_fp, style="bold cyan")
        line.append("  (proven by this connection: it should be the one on the host's screen)", style="dim")
        out.say(line)
        if offer.dealer == "mental":
            out.say(Text("Dealer: mental poker. Every seat shuffles the deck with proofs: nobody sees or "
                         "controls it.", style="dim"))
        out.say(Text(f"Move clock: {words.duration(offer.timeout_ms // 1000)} to think over a move; after "
                     "that the others may be asked whether to go on without you.", style="dim"))
    if offer.dealer != "mental":
        out.warn(SEEDED_WARNING + ".")
        if not config.allow_seeded:
            raise LanError("not sitting down at a table with the seeded dealer (`join --allow-seeded-dealer` "
                           "accepts it, for tests)")
    if offer.timeout_ms < opt.MIN_PLAYABLE_TIMEOUT * 1000 and not config.allow_short_timeout:
        shown_clock = words.duration(offer.timeout_ms // 1000)
        raise LanError(f"not sitting down at {table!r}: its move clock is {shown_clock}, too short to think "
                       f"over a move on a Wi-Fi (the host sets it with `host --timeout`; at least "
                       f"{opt.MIN_PLAYABLE_TIMEOUT} s, or `join --allow-short-timeout` accepts it)")
    if offer.free <= 0:
        raise LanError(f"{table!r} has no free seat")
    return replace(target, label=table)


async def _ask_for_seat(
    config: JoinConfig, out: Terminal, identity: Ed25519PrivateKey, joining: Joining, target: Target,
    port: int,
) -> Invitation:
    def admitted() -> None:
        out.emit({"event": "admitted"})
        out.say(Text("The host admitted you. Waiting for the game to start…", style="green"))
        out.status("Admitted: waiting for the host to start the game…")

    out.emit({"event": "joining", "address": f"{joining.address[0]}:{joining.address[1]}",
              "name": config.name, "fingerprint": fingerprint(identity), "port": port})
    say = Text(f"Asking {target.label} for a seat as ")
    say.append(config.name, style="bold")
    say.append(" (your key ")
    say.append(fingerprint(identity), style="bold cyan")
    say.append("): the host sees both and admits you.")
    out.say(say)
    out.status("Waiting for the host to admit you…")
    try:
        return await joining.ask(identity, config.name, port=port, on_admitted=admitted,
                                 allow_seeded=config.allow_seeded, ad=target.ad)
    except LobbyError as exc:
        out.hide_status()
        raise LanError(f"could not join {target.label}: {exc}") from exc


# ---------------------------------------------------------------------- the table, before signing


async def _accept_table(invitation: Invitation, out: Terminal, lines: Lines | None) -> bool:
    """Check the table before signing it: no known name comes with another key (trust on first use),
    and say who runs the computer players.  False: this player does not sit down."""
    genesis = invitation.genesis
    computers = [seat for seat, _ in genesis.computers]
    if computers:
        names = [shown(genesis.seats[s].name, MAX_NAME) for s in computers]
        host = shown(genesis.seats[0].name, MAX_NAME)
        out.emit({"event": "computers", "seats": computers, "names": names, "runner": 0, "runner_name": host})
        are = "is a computer player" if len(names) == 1 else "are computer players"
        out.say(Text(f"{_and(names)} {are} run on {host}'s laptop, which can see "
                     f"{'its' if len(names) == 1 else 'their'} cards.", style="yellow"))
    changed: list[str] = []
    try:
        peers = Peers()
        for seat, s in enumerate(genesis.seats):
            if seat == invitation.seat or genesis.runner_of(seat) is not None:
                continue
            if peers.check(s.name, s.key) is Trust.CHANGED:
                known = peers.key_of(s.name)
                name = shown(s.name, MAX_NAME)
                before = fingerprint(known) if known is not None else "another key"
                out.emit({"event": "warning", "message": f"{name!r} has a DIFFERENT KEY than before",
                          "seat": seat, "name": name, "fingerprint": fingerprint(s.key), "known": before})
                if not out.json:
                    out.say(changed_key_warning(name, fingerprint(s.key), before, joiner=False))
                changed.append(name)
        if changed:
            if lines is None or not out.interactive:
                out.say(Text("Not sitting down with a changed key (nobody at the keyboard to decide).",
                             style="bold red"))
                return False
            out.prompt(f"Sit down with {', '.join(changed)} anyway? Check the fingerprints first. [y/N] ")
            try:
                answer = await lines.get()
            except EndOfInput:
                answer = ""
            if answer.strip().lower() not in ("y", "yes"):
                return False
        # The host proved its key in the lobby's handshake; the others will, when their links come up.
        peers.remember(genesis.seats[0].name, genesis.seats[0].key)
    except (StoreError, ValueError) as exc:
        out.note(f"the known peers could not be checked ({exc})")
    return True


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def remember_proven(genesis: Genesis, me: int, then: Callable[[NodeEvent], None], out: Terminal
                    ) -> Callable[[NodeEvent], None]:
    """``then``, after remembering each person's seat whose link comes up: that seat's key has just
    proved itself in the game's handshake (trust on first use learns nothing from the genesis
    alone).  Computer players are never remembered: their keys are new every game."""
    from p2pcards.net.node import PeerUp

    done: set[int] = {me}

    def on_event(event: NodeEvent) -> None:
        if isinstance(event, PeerUp) and event.seat not in done and genesis.runner_of(event.seat) is None:
            done.add(event.seat)
            seat = genesis.seats[event.seat]
            try:
                Peers().remember(seat.name, seat.key)
            except (StoreError, ValueError) as exc:
                out.note(f"{shown(seat.name, MAX_NAME)}'s key could not be remembered ({exc})")
        then(event)

    return on_event
