"""The lobby's bounds over loopback: what a stranger can make the host spend, and that the host goes on.

Several loopback source addresses (127.0.0.x) stand for several machines on the Wi-Fi."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
import trio

from p2pcards.net.joining import connect, join
from p2pcards.net.lobby import (
    MAX_PER_ADDRESS,
    MAX_WAITING,
    MAX_WAITING_PER_ADDRESS,
    GameStarted,
    Lobby,
    LobbyError,
)
from p2pcards.net.node import open_listener
from p2pcards.store import PeersError
from p2pcards.store.peers import Peers

from .helpers import LOOPBACK, identities


async def stalled(port: int, source: str) -> trio.SocketStream:
    """A connection that never says anything."""
    return await trio.open_tcp_stream(LOOPBACK, port, local_address=source)


async def test_waiting_requests_are_capped_and_each_is_refused_when_the_host_does_not_answer():
    host = identities(1, tag=40)[0]
    lobby = Lobby(host, "Host", "durak", players=3, listener=await open_listener(LOOPBACK),
                  admission_timeout=1.0)  # fmt: skip
    joiners = identities(MAX_WAITING + 1, tag=41)
    results: dict[int, Any] = {}

    async def ask(i: int) -> None:
        try:
            results[i] = await join((LOOPBACK, lobby.port), joiners[i], f"P{i}", port=1000,
                                    source=f"127.0.1.{i + 1}")  # fmt: skip
        except LobbyError as exc:
            results[i] = str(exc)

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            await nursery.start(lobby.run)
            for i in range(MAX_WAITING):
                nursery.start_soon(ask, i)
            seen = [await lobby.requests.receive() for _ in range(MAX_WAITING)]
            assert len(lobby.waiting) == MAX_WAITING
            await ask(MAX_WAITING)  # one too many
            assert "already waiting for the host's answer" in results[MAX_WAITING]
            # Nobody answers: every request is refused in the end, and the host's screen is told.
            expired = [await lobby.requests.receive() for _ in range(MAX_WAITING)]
            assert {r.number for r in expired} == {r.number for r in seen}
            assert all(r.state == "refused" and "did not answer" in r.reason for r in expired)
            nursery.cancel_scope.cancel()
    assert all("did not answer within" in results[i] for i in range(MAX_WAITING))
    assert lobby.connections == 0


async def test_connections_from_one_address_are_capped_and_others_still_get_in():
    host, ann = identities(2, tag=42)
    lobby = Lobby(host, "Host", "durak", players=2, listener=await open_listener(LOOPBACK))
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await nursery.start(lobby.run)
            held = [await stalled(lobby.port, "127.0.2.1") for _ in range(MAX_PER_ADDRESS)]
            while lobby.connections < MAX_PER_ADDRESS:
                await trio.sleep(0.01)
            with pytest.raises(LobbyError, match="too many connections from your address"):
                await connect((LOOPBACK, lobby.port), ann, source="127.0.2.1")
            address = (LOOPBACK, lobby.port)
            nursery.start_soon(lambda: join(address, ann, "Ann", port=1000, source="127.0.2.2"))
            assert (await lobby.requests.receive()).name == "Ann"
            for stream in held:
                await stream.aclose()
            nursery.cancel_scope.cancel()


async def test_stalled_sockets_from_many_addresses_give_way_to_a_joiner():
    """Sockets that connect and say nothing fill the handshake slots: the oldest gives way."""
    host, ann = identities(2, tag=43)
    lobby = Lobby(host, "Host", "durak", players=2, listener=await open_listener(LOOPBACK))
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await nursery.start(lobby.run)
            held = [await stalled(lobby.port, f"127.0.3.{i + 1}") for i in range(40)]
            await trio.sleep(0.2)
            address = (LOOPBACK, lobby.port)
            nursery.start_soon(lambda: join(address, ann, "Ann", port=1000, source="127.0.3.200"))
            assert (await lobby.requests.receive()).name == "Ann"
            assert lobby.connections <= lobby.max_connections
            for stream in held:
                await stream.aclose()
            nursery.cancel_scope.cancel()


async def test_a_known_peers_file_that_cannot_be_read_refuses_the_newcomer_not_the_host(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
):
    """~1,000 joiners used to exhaust the open files: reading peers.json failed and the host crashed."""
    host, ann, bob = identities(3, tag=44)
    peers = Peers(tmp_path / "host-home")
    lobby = Lobby(host, "Host", "durak", players=3, listener=await open_listener(LOOPBACK), peers=peers)

    def out_of_files(self: Peers, name: str, key: bytes) -> Any:
        raise PeersError(self.path, "cannot read the known peers: [Errno 24] Too many open files")

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await nursery.start(lobby.run)
            with monkeypatch.context() as patch:
                patch.setattr(Peers, "check", out_of_files)
                with pytest.raises(LobbyError, match="cannot check its known players"):
                    await join((LOOPBACK, lobby.port), ann, "Ann", port=1000)
            nursery.start_soon(lambda: join((LOOPBACK, lobby.port), bob, "Bob", port=1000))
            request = await lobby.requests.receive()
            assert request.name == "Bob" and request.trust is not None
            nursery.cancel_scope.cancel()


async def test_a_latecomer_is_told_the_game_has_started_and_which_game():
    host, ann, late = identities(3, tag=45)
    lobby = Lobby(host, "Host", "durak", players=2, listener=await open_listener(LOOPBACK))
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await nursery.start(lobby.run)
            nursery.start_soon(lambda: join((LOOPBACK, lobby.port), ann, "Ann", port=1000))
            lobby.admit(await lobby.requests.receive())
            game = await lobby.start()
            with pytest.raises(GameStarted) as info:
                await connect((LOOPBACK, lobby.port), late)
            assert info.value.lobby_id == lobby.lobby_id == game.genesis.nonce
            assert info.value.host_key == game.genesis.seats[0].key
            nursery.cancel_scope.cancel()


async def test_one_address_cannot_fill_the_host_s_queue_of_requests():
    host = identities(1, tag=46)[0]
    lobby = Lobby(host, "Host", "durak", players=4, listener=await open_listener(LOOPBACK))
    joiners = identities(MAX_WAITING_PER_ADDRESS + 2, tag=47)
    address = (LOOPBACK, lobby.port)
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await nursery.start(lobby.run)
            for i in range(MAX_WAITING_PER_ADDRESS):
                nursery.start_soon(partial(join, address, joiners[i], "Same", port=1000, source="127.0.9.1"))
                await lobby.requests.receive()
            with pytest.raises(LobbyError, match="from your address already wait for the host's answer"):
                await join(address, joiners[-2], "Spam", port=1000, source="127.0.9.1")
            nursery.start_soon(lambda: join(address, joiners[-1], "Roommate", port=1000, source="127.0.9.2"))
            assert (await lobby.requests.receive()).name == "Roommate"
            nursery.cancel_scope.cancel()
