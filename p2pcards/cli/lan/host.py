"""``p2pcards host GAME``: open a table on the local network, admit players, fill the empty seats with
computer players, and play.

The table is advertised by mDNS and reachable at ``address:port`` (printed) for a manual join.  Each
joiner arrives with a name and the fingerprint of the key it proved; the host admits or refuses it
(``--admit all`` admits everyone whose key is not a changed one).  The game starts when the table is
full, when ``--wait-for N`` players have been admitted, or when the host types ``start``; empty seats
then go to computer players, each a peer with its own keys in this process.
"""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import trio
from rich.cells import cell_len
from rich.text import Text

from p2pcards import games
from p2pcards.ai.budget import default_think, parse_think, set_default_think
from p2pcards.cli.common import UsageError, add_game_argument, game_options, load_rules
from p2pcards.cli.lan import options as opt
from p2pcards.cli.lan import record as records
from p2pcards.cli.lan.admission import Admission
from p2pcards.cli.lan.game import LanGame
from p2pcards.cli.lan.runner import Context, LanError, play_seat, run_trio
from p2pcards.cli.lan.summary import options_line
from p2pcards.cli.terminal import Lines, Terminal
from p2pcards.local import DEALERS
from p2pcards.net.discovery import Advertisement, advertise
from p2pcards.net.lobby import HostedGame, Lobby, LobbyError
from p2pcards.net.node import DEFAULT_PORT, GameEffects, computer_chooser, listen, open_listener
from p2pcards.store import GameStore, Peers, StoreError, load_or_create
from p2pcards.table.genesis import Genesis, GenesisError
from p2pcards.text import name_problem
from p2pcards.wire import fingerprint

DEFAULT_TIMEOUT = 180
"""The move clock of a table, in seconds: long enough for a person to think over a hard trick or an
Azi raise, so that a person at the table is never named silent for thinking (SPEC §10)."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "host", help="open a table on the local network and play",
        description=(
            "Open a table on the local network: it is announced by mDNS (see `p2pcards list`) and can "
            "also be joined by address. You see each player's name and key fingerprint and admit or "
            "refuse them; computer players take the seats still free when the game starts."
        ),
    )
    add_game_argument(p)
    p.add_argument("--players", type=int, default=None, metavar="N",
                   help="seats at the table, yours included (Spades: 4; Durak and Azi: 2-6)")
    p.add_argument("--name", default=None, metavar="NAME",
                   help="your name at the table (default: your login)")
    p.add_argument("--code", default=None, metavar="CODE",
                   help="make the table private: players need this join code (4 to 32 letters or digits)")
    p.add_argument("--bots", default="normal", metavar="LEVEL",
                   help=f"level of the computer players in the free seats: {', '.join(opt.PLAYER_LEVELS)} "
                        "(default normal)")
    p.add_argument("--think", default="1", metavar="SECONDS",
                   help="how long a Hard computer player thinks at most per decision (default 1)")
    p.add_argument("--wait-for", type=int, default=None, metavar="N",
                   help="start as soon as N players have been admitted (default: when the table is full, "
                        "or when you type `start`)")
    p.add_argument("--partner", default=None, metavar="NAME",
                   help="Spades: the player of this name, once admitted, sits opposite you as your partner "
                        "(default: seats go in the order players are admitted)")
    p.add_argument("--port", type=int, default=None, metavar="P",
                   help=f"TCP port players join on (default {DEFAULT_PORT}, or the next free one; a port "
                        "given here is used as it is, or the table does not open; 0: any free port)")
    p.add_argument("--interface", default=None, metavar="IFACE",
                   help="the network to host on: an interface name (wlan0) or this machine's IPv4 address "
                        "on it (default: every network)")
    p.add_argument("--admit", choices=("ask", "all"), default="ask",
                   help="ask: you admit or refuse each player (default); all: admit everyone whose key "
                        "is new or known (a changed key is refused)")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="S",
                   help=f"the move clock: seconds a connected player may think over a move before the "
                        f"others are asked whether to go on without them (default {DEFAULT_TIMEOUT}; a "
                        f"laptop that stops answering is asked about after 10 s); joiners refuse under "
                        f"{opt.MIN_PLAYABLE_TIMEOUT} s unless they pass `join --allow-short-timeout`")
    p.add_argument("--no-mdns", action="store_true",
                   help="do not announce the table (players join by address)")
    p.add_argument("--auto", default=None, metavar="LEVEL",
                   help="let a computer player of LEVEL play your seat (nothing is read from the keyboard)")
    p.add_argument("--json", action="store_true",
                   help="print events as JSON lines; commands and moves are read as lines from "
                        "standard input")
    p.add_argument("--dealer", default="mental", choices=DEALERS,
                   help="mental (default: mental poker). seeded is for tests only: its deck order is public, "
                        "so everyone can know every card, and joiners refuse it unless they pass "
                        "`join --allow-seeded-dealer`")
    p.set_defaults(run=run)


@dataclass(frozen=True)
class HostConfig:
    game: str
    options: dict[str, Any]
    players: int
    name: str
    code: str | None
    bots: str
    wait_for: int | None
    port: int | None
    """None: the default port, or the next free one; a number: that port exactly (0: any)."""
    interface: str | None
    admit_all: bool
    timeout_ms: int
    mdns: bool
    auto: str | None
    dealer: str
    partner: str | None = None
    """Spades: the admitted player seated opposite the host."""

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> HostConfig:
        game = args.game.strip().lower()
        if game not in games.GAMES:
            raise UsageError(f"unknown game {args.game!r}; the games are: {', '.join(games.GAMES)}")
        options = game_options(args.option)
        if args.players is not None:
            if not 2 <= args.players <= 6:
                raise UsageError(f"--players must be from 2 to 6, not {args.players}")
            options["players"] = args.players
        players = load_rules(game, options).players
        options.pop("players", None)
        if args.wait_for is not None and not 1 <= args.wait_for <= players - 1:
            raise UsageError(f"--wait-for must be from 1 to {players - 1} at a table of {players}, "
                             f"not {args.wait_for}")
        timeout = opt.seconds(args.timeout, "--timeout", opt.MIN_TIMEOUT, opt.MAX_TIMEOUT)
        partner = None if getattr(args, "partner", None) is None else " ".join(args.partner.split())
        if partner is not None and (game != "spades" or players != 4):
            raise UsageError("--partner is for Spades, where partners sit opposite each other")
        if partner is not None and name_problem(partner):
            raise UsageError(f"--partner must be a player's name ({name_problem(partner)})")
        return cls(
            game=game, options=options, players=players, name=opt.player_name(args.name),
            code=opt.join_code(args.code), bots=opt.level(args.bots, "--bots"), wait_for=args.wait_for,
            port=None if args.port is None else opt.port(args.port),
            interface=opt.interface(args.interface), admit_all=args.admit == "all",
            timeout_ms=int(timeout * 1000), mdns=not args.no_mdns,
            auto=None if args.auto is None else opt.level(args.auto, "--auto"), dealer=args.dealer,
            partner=partner,
        )

    @property
    def bind(self) -> str:
        return self.interface or "0.0.0.0"

    def mdns_interfaces(self) -> list[str]:
        """Where the table is announced: the chosen interface, or every network (never loopback)."""
        if not self.mdns:
            return []
        if self.interface is not None:
            return [] if opt.is_loopback(self.interface) else [self.interface]
        return opt.local_addresses()

    def join_addresses(self) -> list[str]:
        """The addresses players can type to join by hand."""
        if self.interface is not None:
            return [self.interface]
        return opt.local_addresses() or ["127.0.0.1"]


def run(args: argparse.Namespace) -> int:
    try:
        set_default_think(parse_think(args.think))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    config = HostConfig.from_args(args)
    out = Terminal(json_mode=args.json)
    return run_trio(lambda context: host(config, context), out)


async def host(config: HostConfig, context: Context) -> int:
    out = context.out
    try:
        identity = load_or_create()
        peers = Peers()
        peers.all()  # a damaged known-peers file is named now, not at the first joiner
    except StoreError as exc:
        raise LanError(str(exc)) from exc
    try:
        if config.port is None:
            listener = await listen(config.bind, DEFAULT_PORT)
        else:
            listener = await open_listener(config.bind, config.port)
    except OSError as exc:
        if config.port:
            raise LanError(f"cannot listen on port {config.port} ({config.bind}): {exc.strerror or exc}. "
                           "Another program (or another table) uses it: choose another with --port, or "
                           f"leave --port out ({DEFAULT_PORT}, or the next free port)") from exc
        raise LanError(f"cannot listen on {config.bind}: {exc.strerror or exc}") from exc
    try:
        lobby = Lobby(
            identity, config.name, config.game, players=config.players, listener=listener,
            options=dict(config.options), code=config.code, peers=peers, dealer=config.dealer,
            timeout_ms=config.timeout_ms,
        )
    except (LobbyError, GenesisError, games.GameError) as exc:
        await listener.aclose()
        raise UsageError(str(exc)) from exc
    if config.dealer != "mental":
        out.warn("the seeded dealer is for tests only: its deck order is public, so every card can be "
                 "known; joiners refuse it unless they pass `join --allow-seeded-dealer`")
    lines = Lines(out)
    reading = config.auto is None or not config.admit_all or out.interactive
    async with trio.open_nursery() as root:
        if reading:
            root.start_soon(lines.run)
        # The lobby serves for the whole command: after the start it tells latecomers so.
        await root.start(lobby.run)
        async with _advertising(lobby, config, out) as advertisement:
            started = await _gather(lobby, config, out, lines if reading else None, advertisement)
            if started is None:
                root.cancel_scope.cancel()
                return 0
            if advertisement is not None:
                root.start_soon(_announce_playing, advertisement, out)
            code = await _play(*started, config, context, lines if reading else None)
        root.cancel_scope.cancel()
    return code


async def _announce_playing(advertisement: Advertisement, out: Terminal) -> None:
    try:
        await advertisement.update(free=0, playing=True)
    except Exception as exc:  # the announcement is a convenience
        out.note(f"the table's announcement could not be updated ({exc})")


async def _gather(
    lobby: Lobby, config: HostConfig, out: Terminal, lines: Lines | None, advertisement: Advertisement | None
) -> tuple[HostedGame, list[GameStore]] | None:
    """The lobby until the game starts (its nodes and their journals) or the host closes the table."""
    stores: list[GameStore] = []

    def store_for(genesis: Genesis, seat: int) -> GameEffects:
        try:
            game_id = genesis.game_id
            store = GameStore.open(game_id) if seat == 0 else records.computer_store(game_id, seat)
        except StoreError as exc:
            raise LanError(str(exc)) from exc
        stores.append(store)
        return store

    _announce(lobby, config, out, advertisement)
    admission = Admission(lobby, out, lines, advertisement, admit_all=config.admit_all,
                          wait_for=config.wait_for)
    if not await admission.run():
        out.emit({"event": "closed"})
        out.say(Text("The table is closed.", style="bold"))
        return None
    out.status("Starting: seating everybody…")
    try:
        hosted = await lobby.start(bot_level=config.bots, store_for=store_for, partner=config.partner)
    except LobbyError as exc:
        for store in stores:
            store.close()
        raise LanError(str(exc)) from exc
    if config.partner is not None and hosted.genesis.seats[2].name != config.partner:
        out.note(f"{config.partner} is not at the table: the seats go in the order players were admitted.")
    return hosted, stores


async def _play(
    hosted: HostedGame, stores: list[GameStore], config: HostConfig, context: Context, lines: Lines | None
) -> int:
    genesis = hosted.genesis
    own, computers = hosted.nodes[0], hosted.nodes[1:]
    rules = genesis.rules()
    if config.auto is not None:
        own.chooser = computer_chooser(rules, config.auto, seed=int.from_bytes(os.urandom(4), "big"))
    record = records.SeatRecord(
        role="host", genesis=genesis, seat=0, bind=config.bind, port=0,
        dial={s: a for s, a in own.addresses.items() if s not in {n.seat for n in computers}},
        computers={n.seat: records.Computer(n.identity.private_bytes_raw(), config.bots) for n in computers},
        auto=config.auto, think_ms=default_think(),
    )
    try:
        records.save(record)
    except (OSError, StoreError) as exc:
        for store in stores:
            store.close()
        raise LanError(f"cannot keep the game's seat record: {exc}") from exc
    game = LanGame(own, context.out, lines=lines, auto=config.auto, computers=[n.seat for n in computers])
    own.on_event = game.on_event
    for node in computers:
        node.on_event = game.on_computer_event
    return await play_seat(game, hosted.nodes, stores, record, context)


@contextlib.asynccontextmanager
async def _advertising(
    lobby: Lobby, config: HostConfig, out: Terminal
) -> AsyncIterator[Advertisement | None]:
    interfaces = config.mdns_interfaces()
    async with contextlib.AsyncExitStack() as stack:
        advertisement: Advertisement | None = None
        if interfaces:
            out.status("Announcing the table on the local network…")
            try:
                advertisement = await stack.enter_async_context(advertise(lobby.ad(), interfaces))
            except Exception as exc:  # zeroconf's failures are many; none stops a manual join
                out.warn(f"the table could not be announced by mDNS ({type(exc).__name__}: {exc}); "
                         "players can still join by address")
            out.hide_status()
        yield advertisement


def join_commands(table: str | None, addresses: list[str], code: str | None) -> list[str]:
    """What players type to join: by the table's name (when it is announced), then by each address;
    with the join code of a private table (quoted if it has spaces)."""
    suffix = "" if code is None else (f" --code {code}" if " " not in code else f' --code "{code}"')
    commands = [] if table is None else [f'p2pcards join "{table}"{suffix}']
    return commands + [f"p2pcards join {address}{suffix}" for address in addresses]


def _announce(lobby: Lobby, config: HostConfig, out: Terminal, advertisement: Advertisement | None) -> None:
    addresses = [f"{a}:{lobby.port}" for a in config.join_addresses()]
    table = advertisement.name if advertisement is not None else lobby.table_name
    rules = load_rules(config.game, {**config.options, "players": config.players})
    commands = join_commands(table if advertisement is not None else None, addresses,
                             config.code if lobby.private else None)  # fmt: skip
    out.emit({
        "event": "hosting", "table": table, "game": config.game, "options": dict(rules.options),
        "players": config.players, "port": lobby.port, "addresses": addresses,
        "fingerprint": fingerprint(lobby.identity), "name": lobby.name, "private": lobby.private,
        "advertised": advertisement is not None, "dealer": config.dealer,
        "instance": advertisement.instance if advertisement is not None else None, "join": commands,
    })
    if out.json:
        return
    dealer = "mental poker" if config.dealer == "mental" else "SEEDED dealer (tests only)"
    head = Text(f"Hosting {table!r}: {config.game.capitalize()}, {config.players} seats, {dealer}",
                style="bold")
    if cell_len(head.plain) + 4 <= out.console.width:
        out.rule(head)
    else:
        out.say(head)  # a rule would cut its title: a line that wraps between words instead
    # on a line of its own (it wraps between options, never inside one), only what is not as usual
    out.say(Text(f"Options: {options_line(config.game, rules.options)}", style="dim"))
    fp = Text("Your key fingerprint: ")
    fp.append(fingerprint(lobby.identity), style="bold cyan")
    fp.append("  (players see it next to your table: they should check it with you)", style="dim")
    out.say(fp)
    if lobby.private and config.code is not None:
        out.say(Text.assemble("Private table: players need the join code ", (config.code, "bold")))
    for i, command in enumerate(commands):
        how = "   (by address: always works)"
        if advertisement is not None and i == 0:
            how = "   (found on the network)"
        lead = "             or:  " if i else "Players join with:  "
        out.say(Text.assemble(lead, (command, "bold"), (how, "dim")))
    if advertisement is None and config.mdns and not config.mdns_interfaces():
        out.say(Text("The table is not announced (no network interface besides loopback).", style="dim"))
    free = config.players - 1
    how = "when the table is full"
    if config.wait_for is not None:
        how = f"once {config.wait_for} player{' is' if config.wait_for == 1 else 's are'} in"
    out.say(Text(f"{free} seat{'s' if free != 1 else ''} to fill. The game starts {how}, or when you type "
                 f"`start` (computer players, {config.bots}, take the free seats). `help` lists the "
                 "commands.", style="dim"))
