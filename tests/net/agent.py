"""A helper program run inside a test namespace: ``python -m tests.net.agent COMMAND ...``.

Every line meant for the test starts with ``@`` followed by JSON, so that stray warnings on the same
stream are ignored.  Commands:

- ``advertise IP NAME FREE``: advertise a table on IP; reads ``free N`` lines (update) until EOF.
- ``browse IP``: print each sighting until EOF on stdin.
- ``seat SEAT IPS...``: play one seat of a test game (mental dealer) with the seats at IPS.
- ``host IP``: advertise a 3-seat Durak lobby, admit the first joiner, add a bot, play.
- ``join IP``: find a table by mDNS, ask to join, play the seat given.
- ``lying-host IP LIE``: a dishonest host on IP (port printed), for a real ``p2pcards join`` to meet.
  It admits the first joiner, then starts a game that is not what it showed: ``seeded`` (it said
  mental poker), or ``bob`` (it writes a seat "Bob" with a key that nobody proves, to poison the
  joiner's known peers).  It plays its own seat only.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import trio

from p2pcards.net.discovery import Appeared, Changed, TableAd, Vanished, advertise, browse
from p2pcards.net.joining import join
from p2pcards.net.lobby import HostedGame, Lobby
from p2pcards.net.node import Node, open_listener
from p2pcards.store import MemoryStore
from p2pcards.table.genesis import make_genesis
from p2pcards.wire import fingerprint, key_from_seed, public_bytes

from .helpers import genesis_for, identities, random_chooser

SEAT_PORT = 47_000


def say(**fields: Any) -> None:
    print("@" + json.dumps(fields), flush=True)


async def lines() -> Any:
    stdin = trio.lowlevel.FdStream(0)
    buffer = b""
    while True:
        data = await stdin.receive_some(4096)
        if not data:
            return
        buffer += data
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            yield line.decode()


async def do_advertise(ip: str, name: str, free: int) -> None:
    ids = identities(1, tag=9)
    ad = TableAd(name, "durak", (("players", "4"),), 4, free, fingerprint(ids[0]), b"L" * 32, port=4242)
    async with advertise(ad, [ip]) as adv:
        say(event="registered", name=adv.name)
        async for line in lines():
            if line.startswith("free "):
                await adv.update(free=int(line.split()[1]))
                say(event="updated")


async def do_browse(ip: str) -> None:
    async with browse([ip]) as sightings, trio.open_nursery() as nursery:
        say(event="browsing")

        async def until_eof() -> None:
            async for _ in lines():
                pass
            nursery.cancel_scope.cancel()

        nursery.start_soon(until_eof)
        async for s in sightings:
            if isinstance(s, (Appeared, Changed)):
                a = s.ad
                say(
                    event=type(s).__name__.lower(),
                    name=a.name,
                    game=a.game,
                    free=a.free,
                    seats=a.seats,
                    fp=a.fingerprint,
                    port=a.port,
                    addresses=list(a.addresses),
                    options=[list(o) for o in a.options],
                    lobby=a.lobby.hex(),
                    private=a.private,
                )
            elif isinstance(s, Vanished):
                say(event="vanished", name=s.name)


async def do_seat(seat: int, ips: list[str]) -> None:
    ids = identities(len(ips), tag=7)
    g = genesis_for(ids, "durak", dealer="mental", seed=77)
    listener = await open_listener(ips[seat], SEAT_PORT)
    node = Node(
        g,
        seat,
        ids[seat],
        MemoryStore(),
        listener=listener,
        addresses={i: (ip, SEAT_PORT) for i, ip in enumerate(ips)},
        chooser=random_chooser(g, seat),
    )
    with trio.fail_after(60):
        await node.play(linger=2.0)
    say(
        event="over",
        over=node.table.over,
        fault=node.table.fault is not None,
        digest=node.table.digest().hex(),
    )


async def do_host(ip: str) -> None:
    (key,) = identities(1, tag=30)
    lobby = Lobby(key, "Host", "durak", players=3, listener=await open_listener(ip, 0), dealer="mental")
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery, advertise(lobby.ad(), [ip]):
            await nursery.start(lobby.run)
            say(event="advertised", port=lobby.port)
            request = await lobby.requests.receive()
            say(event="request", name=request.name, fp=request.fingerprint, address=list(request.address))
            lobby.admit(request)
            game = await lobby.start(bot_level="easy")
            nursery.cancel_scope.cancel()
    game.nodes[0].chooser = random_chooser(game.genesis, 0)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            for node in game.nodes:
                nursery.start_soon(node.play, 2.0)
    table = game.nodes[0].table
    say(event="over", over=table.over, fault=table.fault is not None, digest=table.digest().hex())


async def do_join(ip: str) -> None:
    (key,) = identities(1, tag=31)
    with trio.fail_after(60):
        async with browse([ip]) as sightings:
            async for sighting in sightings:
                if isinstance(sighting, Appeared) and sighting.ad.game == "durak":
                    ad = sighting.ad
                    break
        say(event="found", name=ad.name, fp=ad.fingerprint, free=ad.free)
        listener = await open_listener(ip, 0)
        invitation = await join(
            (ad.addresses[0], ad.port), key, "Guest", port=listener.socket.getsockname()[1], lobby_id=ad.lobby
        )
        if fingerprint(invitation.host_key) != ad.fingerprint:
            raise SystemExit("the host is not the one advertised")
        say(event="seated", seat=invitation.seat, names=[s.name for s in invitation.genesis.seats])
        node = Node(
            invitation.genesis,
            invitation.seat,
            key,
            MemoryStore(),
            listener=listener,
            addresses=invitation.dial,
            dial=set(invitation.dial),
            chooser=random_chooser(invitation.genesis, invitation.seat),
        )
        await node.play(linger=2.0)
    say(
        event="over",
        over=node.table.over,
        fault=node.table.fault is not None,
        digest=node.table.digest().hex(),
    )


class _LyingLobby(Lobby):
    def __init__(self, *args: Any, lie: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lie = lie

    async def start(self, **kwargs: Any) -> HostedGame:
        if self.lie == "seeded":
            self.dealer = "seeded"  # the table it showed said mental poker
            return await super().start(**kwargs)
        # A seat "Bob" with a key of the host's choosing, written as a person's seat, never run.
        self.started = True
        (ann,) = self.admitted
        seats = [(self.name, public_bytes(self.identity)), (ann.name, ann.key)]
        seats.append(("Bob", public_bytes(key_from_seed(os.urandom(32)))))
        genesis = make_genesis(self.game, seats, options=self.options, nonce=self.lobby_id,
                               timeout_ms=self.timeout_ms)  # fmt: skip
        self._tell(ann, {"t": "start", "genesis": genesis.encode(), "seat": 1, "dial": []})
        if ann.link is not None:
            ann.link.finish()
            with trio.move_on_after(2):
                await ann.link.closed.wait()
        node = Node(genesis, 0, self.identity, MemoryStore(), addresses={1: ann.address}, dial={1})
        return HostedGame(genesis, [node])


async def do_lying_host(ip: str, lie: str) -> None:
    (key,) = identities(1, tag=32)
    lobby = _LyingLobby(key, "Host", "durak", players=3 if lie == "bob" else 2,
                        listener=await open_listener(ip, 0), lie=lie)  # fmt: skip
    async with trio.open_nursery() as nursery:
        await nursery.start(lobby.run)
        say(event="listening", port=lobby.port, fingerprint=fingerprint(key))
        lobby.admit(await lobby.requests.receive())
        game = await lobby.start(bot_level="easy")
        say(event="started", dealer=game.genesis.dealer, names=[s.name for s in game.genesis.seats])
        game.nodes[0].chooser = random_chooser(game.genesis, 0)
        nursery.start_soon(game.nodes[0].run)
        async for _ in lines():
            pass
        nursery.cancel_scope.cancel()


def main(argv: list[str]) -> None:
    command, args = argv[0], argv[1:]
    if command == "advertise":
        trio.run(do_advertise, args[0], args[1], int(args[2]))
    elif command == "browse":
        trio.run(do_browse, args[0])
    elif command == "host":
        trio.run(do_host, args[0])
    elif command == "join":
        trio.run(do_join, args[0])
    elif command == "lying-host":
        trio.run(do_lying_host, args[0], args[1])
    elif command == "seat":
        trio.run(do_seat, int(args[0]), args[1:])
    else:
        raise SystemExit(f"unknown command {command!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
