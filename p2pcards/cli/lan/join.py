"""``p2pcards join [TABLE | HOST:PORT]``: sit down at a table on the local network and play.

By a table's name (found by mDNS, as ``p2pcards list`` shows it), or by the host's address, which
always works when multicast is blocked.  The player then waits to be admitted and plays with the
screen of ``p2pcards play``.  This seat listens on one TCP port of its own: the other seats connect
to it directly (``--port`` fixes it, for a firewall rule).
"""

from __future__ import annotations

import argparse
import os
import re
from dataclasses import dataclass
from typing import Final

import trio
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from rich.text import Text

from p2pcards.cli.common import UsageError
from p2pcards.cli.lan import options as opt
from p2pcards.cli.lan import record as records
from p2pcards.cli.lan.finding import find_table
from p2pcards.cli.lan.game import LanGame
from p2pcards.cli.lan.runner import Context, LanError, play_seat, run_trio
from p2pcards.cli.lan.terminal import EndOfInput, Lines, Out
from p2pcards.net.discovery import TableAd
from p2pcards.net.handshake import ANY_BIND, HANDSHAKE_VERSION, Why
from p2pcards.net.lobby import Invitation, LobbyError, join
from p2pcards.net.node import Address, Node, computer_chooser, open_listener
from p2pcards.store import GameStore, Peers, StoreError, Trust, load_or_create
from p2pcards.wire import fingerprint

DISCOVERY_TIMEOUT: Final = 10.0
CODE_TRIES: Final = 3
COMPUTER_NAME: Final = re.compile(r"Computer \d+")
"""The host's computer players: fresh keys every game, so never remembered as known peers."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "join", help="sit down at a table on the local network and play",
        description=(
            "Join a table: by its name as `p2pcards list` shows it (found by mDNS), or by the host's "
            "address HOST:PORT, which works even where discovery is blocked. Without either, the only "
            "table around is joined (or, at a terminal, the one you pick)."
        ),
    )
    p.add_argument("table", nargs="?", default=None, metavar="TABLE|HOST:PORT",
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
    p.add_argument("--json", action="store_true",
                   help="print events as JSON lines; moves are read as lines from standard input")
    p.set_defaults(run=run)


@dataclass(frozen=True)
class JoinConfig:
    table: str | None
    address: Address | None
    name: str
    code: str | None
    interface: str | None
    port: int
    timeout: float
    auto: str | None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> JoinConfig:
        table = args.table.strip() if args.table is not None else None
        if table == "":
            raise UsageError("the table's name is empty: give a name from `p2pcards list`, or HOST:PORT")
        address = opt.split_address(table) if table is not None else None
        return cls(
            table=table, address=address, name=opt.player_name(args.name), code=opt.join_code(args.code),
            interface=opt.interface(args.interface), port=opt.port(args.port),
            timeout=opt.seconds(args.timeout, "--timeout", 0.5, 3600),
            auto=None if args.auto is None else opt.level(args.auto, "--auto"),
        )


@dataclass(frozen=True)
class Target:
    """Where to ask for a seat: addresses to try in turn, and what discovery said of the table."""

    addresses: list[Address]
    label: str
    ad: TableAd | None = None


def run(args: argparse.Namespace) -> int:
    config = JoinConfig.from_args(args)
    out = Out(args.json)
    return run_trio(lambda context: join_table(config, context), out)


async def join_table(config: JoinConfig, context: Context) -> int:
    out = context.out
    try:
        identity = load_or_create()
    except StoreError as exc:
        raise LanError(str(exc)) from exc
    lines = Lines()
    reading = config.auto is None or out.interactive
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
    first = target.addresses[0]
    bind = config.interface or opt.source_address(*first)
    try:
        listener = await open_listener(bind, config.port)
    except OSError as exc:
        raise LanError(f"cannot listen on {bind}:{config.port}: {exc.strerror or exc}") from exc
    port: int = listener.socket.getsockname()[1]
    try:
        invitation = await _ask_for_seat(config, out, lines, identity, target, port)
    except BaseException:
        await listener.aclose()
        raise
    out.hide_status()
    if not await _accept_table(invitation, target, out, lines):
        await listener.aclose()
        return 1
    genesis = invitation.genesis
    try:
        store = GameStore.open(genesis.game_id)
    except StoreError as exc:
        await listener.aclose()
        raise LanError(str(exc)) from exc
    record = records.SeatRecord(role="join", genesis=genesis, seat=invitation.seat, bind=bind, port=port,
                                dial=dict(invitation.dial), auto=config.auto)
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
    game = LanGame(node, out, lines=lines, auto=config.auto)
    node.on_event = game.on_event
    return await play_seat(game, [node], [store], record, context)


async def _target(config: JoinConfig, out: Out, lines: Lines | None) -> Target:
    if config.address is not None:
        return Target([config.address], f"{config.address[0]}:{config.address[1]}")
    interfaces = [config.interface] if config.interface is not None else None
    ad = await find_table(config.table, interfaces, config.timeout, out, lines)
    if ad.version != HANDSHAKE_VERSION:
        raise LanError(f"{ad.name!r} is hosted by another version of p2pcards (protocol {ad.version}, "
                       f"this one speaks {HANDSHAKE_VERSION})")
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
              "free": ad.free, "seats": ad.seats, "addresses": [f"{a}:{p}" for a, p in addresses]})
    found = Text("Found ")
    found.append(ad.name, style="bold")
    found.append(f": {ad.game.capitalize()}, {ad.free} of {ad.seats} seats free, host key ")
    found.append(ad.fingerprint, style="bold cyan")
    out.say(found)
    return Target(addresses, ad.name, ad)


async def _ask_for_seat(
    config: JoinConfig, out: Out, lines: Lines | None, identity: Ed25519PrivateKey, target: Target, port: int
) -> Invitation:
    code = config.code
    if target.ad is not None and target.ad.private and code is None:
        code = await _ask_code(out, lines, f"{target.label!r} is a private table")
    lobby_id = target.ad.lobby if target.ad is not None else ANY_BIND

    def admitted() -> None:
        out.emit({"event": "admitted"})
        out.say(Text("The host admitted you. Waiting for the game to start…", style="green"))
        out.status("Admitted: waiting for the host to start the game…")

    tries = 0
    while True:
        tries += 1
        problem = ""
        for address in target.addresses:
            where = f"{address[0]}:{address[1]}"
            out.emit({"event": "joining", "address": where, "name": config.name,
                      "fingerprint": fingerprint(identity), "port": port})
            say = Text(f"Asking {target.label} for a seat as ")
            say.append(config.name, style="bold")
            say.append(" (your key ")
            say.append(fingerprint(identity), style="bold cyan")
            say.append("): the host sees both and admits you.")
            out.say(say)
            out.status("Waiting for the host to admit you…")
            try:
                return await join(address, identity, config.name, port=port, lobby_id=lobby_id, code=code,
                                  on_admitted=admitted)
            except LobbyError as exc:
                problem = str(exc)
                out.hide_status()
                if not _unreachable(problem):
                    break
        if Why.CODE_REQUIRED.value in problem or Why.WRONG_CODE.value in problem:
            if lines is None or not out.interactive or tries >= CODE_TRIES:
                wrong = Why.WRONG_CODE.value in problem
                raise UsageError(
                    f"{target.label} is a private table: "
                    + ("that join code is wrong" if wrong else "give its join code with --code CODE")
                )
            code = await _ask_code(out, lines, "wrong join code" if Why.WRONG_CODE.value in problem
                                   else f"{target.label} is a private table")
            continue
        raise LanError(f"could not join {target.label}: {problem}")


def _unreachable(problem: str) -> bool:
    return "cannot connect" in problem or "no answer" in problem


async def _ask_code(out: Out, lines: Lines | None, why: str) -> str:
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


async def _accept_table(invitation: Invitation, target: Target, out: Out, lines: Lines | None) -> bool:
    """Check the table before signing it: the host is the one announced, and no known name comes with
    another key (trust on first use).  False: this player does not sit down."""
    genesis = invitation.genesis
    host_fp = fingerprint(invitation.host_key)
    if target.ad is not None and host_fp != target.ad.fingerprint:
        out.warn(f"the host that answered has the key {host_fp}, not {target.ad.fingerprint} as announced "
                 "for this table: it is not the table you chose. Not sitting down.")
        return False
    changed: list[str] = []
    try:
        peers = Peers()
        for seat, s in enumerate(genesis.seats):
            if seat == invitation.seat or COMPUTER_NAME.fullmatch(s.name):
                continue
            if peers.check(s.name, s.key) is Trust.CHANGED:
                known = peers.key_of(s.name)
                before = fingerprint(known) if known is not None else "another key"
                out.warn(f"{s.name!r} (seat {seat}) has a DIFFERENT KEY than before: {fingerprint(s.key)}, "
                         f"not {before}. It may be someone else using that name.", seat=seat, name=s.name)
                changed.append(s.name)
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
        for seat, s in enumerate(genesis.seats):
            if seat != invitation.seat and not COMPUTER_NAME.fullmatch(s.name) and s.name not in changed:
                peers.remember(s.name, s.key)
    except StoreError as exc:
        out.note(f"the known peers could not be checked ({exc})")
    return True
