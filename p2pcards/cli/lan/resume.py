"""``p2pcards resume [GAME_ID]``: bring a LAN seat back after a crash, a kill or a `quit`.

The seat's journal and secrets are on disk (invariant 5), and its seat record says where it listens
and whom it dials.  The table is restored from the journal, asks the others for what it missed, and
the game goes on where it stopped.  A host brings back its computer players too (their journals are
kept beside its own).
"""

from __future__ import annotations

import argparse
import datetime
import os

import trio
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from rich.text import Text

from p2pcards.ai.budget import set_default_think
from p2pcards.cli.common import UsageError, program, think_time
from p2pcards.cli.lan import options as opt
from p2pcards.cli.lan import record as records
from p2pcards.cli.lan.game import LanGame
from p2pcards.cli.lan.runner import Closable, Context, LanError, play_seat, run_trio
from p2pcards.cli.terminal import Lines, Terminal
from p2pcards.net.node import Address, Node, computer_chooser, open_listener
from p2pcards.store import GameStore, StoreError, load_or_create, saved_games
from p2pcards.text import MAX_NAME, shown
from p2pcards.wire import public_bytes

LOOPBACK = "127.0.0.1"


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "resume", help="continue a saved game where it stopped, offline or on the local network",
        description=(
            "Restart a network game from its journal: the seat reconnects to the others, catches up "
            "and plays on. Without GAME_ID, the one unfinished network game is resumed."
        ),
    )
    p.add_argument("game_id", nargs="?", default=None, metavar="GAME_ID",
                   help="the game's id as printed at the table (its first 6 hex digits or more)")
    p.add_argument("--auto", default=None, metavar="LEVEL",
                   help="let a computer player of LEVEL play your seat (default: as the seat was played)")
    p.add_argument("--think", default=None, metavar="SECONDS",
                   help="how long a Hard computer player thinks at most per decision (default: as long as "
                        "when the game was started)")
    p.add_argument("--json", action="store_true",
                   help="print events as JSON lines; moves are read as lines from standard input")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    auto = None if args.auto is None else opt.level(args.auto, "--auto")
    record = pick(args.game_id)
    set_default_think(think_time(args.think, record.think_ms))
    out = Terminal(json_mode=args.json)
    return run_trio(lambda context: resume(record, auto or record.auto, context), out)


def pick(game_id: str | None) -> records.SeatRecord:
    """The record of the game to resume; ``UsageError`` when the argument does not name one."""
    if game_id is not None:
        prefix = game_id.strip().lower()
        if len(prefix) < 6 or any(c not in "0123456789abcdef" for c in prefix):
            raise UsageError(f"GAME_ID is the game's id in hex (6 digits or more), not {game_id!r}")
        matches = [g for g in saved_games() if g.hex().startswith(prefix)]
        if not matches:
            raise UsageError(f"no saved game has an id starting with {prefix}")
        if len(matches) > 1:
            raise UsageError(f"{prefix} fits {len(matches)} saved games: give more of the id")
        try:
            record = records.load(matches[0])
        except StoreError as exc:
            raise LanError(str(exc)) from exc
        if record is None:
            raise UsageError(f"game {prefix} was not played on the network (an offline game from "
                             f"`{program()} play` cannot be resumed)")
        return record
    unfinished = [(r, when) for r, when in records.lan_games() if not r.finished]
    if not unfinished:
        raise UsageError("there is no unfinished network game to resume")
    if len(unfinished) > 1:
        listed = "; ".join(_describe(r, when) for r, when in unfinished[:6])
        raise UsageError(f"{len(unfinished)} network games are unfinished: {listed}. Name one: "
                         f"{program()} resume GAME_ID")
    return unfinished[0][0]


def _describe(record: records.SeatRecord, when: float) -> str:
    stamp = datetime.datetime.fromtimestamp(when).strftime("%Y-%m-%d %H:%M")
    return f"{record.game_id.hex()[:12]} ({_players(record)}, {stamp})"


def _players(record: records.SeatRecord) -> str:
    """``durak with Ann, Bob and Kai``: the names as the other seats chose them, made safe to print."""
    names = [shown(s.name, MAX_NAME) for s in record.genesis.seats]
    return f"{record.genesis.game} with {', '.join(names[:-1])} and {names[-1]}"


def what_comes_back(record: records.SeatRecord) -> str:
    """What ``resume`` reopens, said before it does: the seat, and for a host that its lobby is not
    reopened (nobody new can join; whoever tries is not told that the game goes on here)."""
    me = shown(record.genesis.seats[record.seat].name, MAX_NAME)
    text = (f"Resuming game {record.game_id.hex()[:12]} ({_players(record)}) as {me}: the seats "
            "reconnect to each other and the game goes on where it stopped.")
    if record.role == "host":
        text += (" Only the game comes back: the table's lobby is not reopened, so it is no longer announced "
                 "on the network and nobody new can join it.")
        if record.computers:
            count = len(record.computers)
            text += f" Your {count} computer player{'s come' if count != 1 else ' comes'} back with you."
    return text


async def resume(record: records.SeatRecord, auto: str | None, context: Context) -> int:
    out = context.out
    genesis = record.genesis
    if record.finished:
        out.emit({"event": "over", "game_id": record.game_id.hex()})
        out.say(Text(f"This game is over. Check it with  {program()} verify {record.game_id.hex()[:12]}"))
        return 0
    try:
        identity = load_or_create()
    except StoreError as exc:
        raise LanError(str(exc)) from exc
    if genesis.seats[record.seat].key != public_bytes(identity):
        raise LanError("this data directory's identity key is not the one that sat at this table "
                       "(P2PCARDS_HOME points elsewhere?)")
    closables: list[Closable] = []
    try:
        nodes = await _nodes(record, identity, auto, closables)
    except BaseException:
        for c in closables:
            c.close()
        raise
    out.say(Text(what_comes_back(record), style="dim"))
    lines = Lines(out) if auto is None or out.interactive else None
    game = LanGame(nodes[0], out, lines=lines, auto=auto, computers=list(record.computers), resumed=True)
    nodes[0].on_event = game.on_event
    for node in nodes[1:]:
        node.on_event = game.on_computer_event
    async with trio.open_nursery() as root:
        if lines is not None:
            root.start_soon(lines.run)
        code = await play_seat(game, nodes, closables, record, context)
        root.cancel_scope.cancel()
    return code


def _seed() -> int:
    return int.from_bytes(os.urandom(4), "big")


def _open(game_id: bytes, seat: int | None) -> GameStore:
    try:
        return GameStore.open(game_id) if seat is None else records.computer_store(game_id, seat)
    except StoreError as exc:
        raise LanError(f"{exc} (is the game still running in another window?)") from exc


async def _nodes(
    record: records.SeatRecord, identity: Ed25519PrivateKey, auto: str | None, closables: list[Closable]
) -> list[Node]:
    genesis = record.genesis
    rules = genesis.rules()
    store = _open(record.game_id, None)
    closables.append(store)
    chooser = None if auto is None else computer_chooser(rules, auto, seed=_seed())
    if record.role == "join":
        listener = await _listen_again(record.bind, record.port)
        node = Node(genesis, record.seat, identity, store, listener=listener, addresses=record.dial,
                    dial=set(record.dial), chooser=chooser)
        return [node]
    # The host: its own seat dials everyone; its computer players listen on loopback for it.
    local: dict[int, Address] = {}
    listeners: dict[int, trio.SocketListener] = {}
    for seat in sorted(record.computers):
        lst = await open_listener(LOOPBACK, 0)
        listeners[seat] = lst
        local[seat] = (LOOPBACK, lst.socket.getsockname()[1])
    everyone = {**record.dial, **local}
    nodes = [
        Node(genesis, record.seat, identity, store, addresses=everyone, dial=set(everyone), chooser=chooser)
    ]
    for seat, computer in sorted(record.computers.items()):
        bot_store = _open(record.game_id, seat)
        closables.append(bot_store)
        dials = set(record.dial) | {s for s in local if s > seat}
        nodes.append(Node(genesis, seat, computer.identity, bot_store, listener=listeners[seat],
                          addresses=everyone, dial=dials,
                          chooser=computer_chooser(rules, computer.level, seed=_seed())))
    return nodes


async def _listen_again(bind: str, port: int) -> trio.SocketListener:
    """The same port as before (the other seats dial it), on the same address if it still exists."""
    problem: OSError | None = None
    for host in (bind, "0.0.0.0"):
        try:
            return await open_listener(host, port)
        except OSError as exc:
            problem = exc
    assert problem is not None
    raise LanError(f"cannot listen on port {port} again, where the other seats reach this one: "
                   f"{problem.strerror or problem}")
