"""The lobby over loopback: requests with names and fingerprints, admit and refuse, bots, start, play."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio

from p2pcards.net.joining import join
from p2pcards.net.lobby import MAX_WRONG_CODES, Lobby, LobbyError, Request
from p2pcards.net.node import Node, open_listener
from p2pcards.store import MemoryStore
from p2pcards.store.peers import Peers, Trust
from p2pcards.table import outputs as out
from p2pcards.wire import fingerprint, public_bytes

from .helpers import LOOPBACK, identities, random_chooser
from .netns import Lan
from .procs import Agent


async def test_the_host_admits_and_refuses_fills_a_seat_with_a_bot_and_everyone_plays(tmp_path: Path):
    host, ann, bob, cid = identities(4, tag=20)
    peers = Peers(tmp_path / "host-home")
    lobby = Lobby(
        host, "Host", "durak", players=4, listener=await open_listener(LOOPBACK), peers=peers, dealer="mental"
    )
    joined: dict[str, Any] = {}
    nodes: list[Node] = []
    events: list[list[Any]] = []

    async def player(key: Any, name: str, address: str) -> None:
        # Each player on a machine of its own (a loopback address of its own).
        listener = await open_listener(address)
        try:
            invitation = await join((LOOPBACK, lobby.port), key, name, port=listener.socket.getsockname()[1],
                                    source=address)  # fmt: skip
        except LobbyError as exc:
            joined[name] = exc
            await listener.aclose()
            return
        joined[name] = invitation
        seen: list[Any] = []
        events.append(seen)
        node = Node(
            invitation.genesis,
            invitation.seat,
            key,
            MemoryStore(),
            listener=listener,
            addresses=invitation.dial,
            dial=set(invitation.dial),
            chooser=random_chooser(invitation.genesis, invitation.seat),
            on_event=seen.append,
        )
        nodes.append(node)
        await node.run()

    with trio.fail_after(45):
        async with trio.open_nursery() as nursery:
            await nursery.start(lobby.run)
            players = ((ann, "Ann", "127.0.0.1"), (bob, "Bob", "127.0.0.2"), (cid, "Cid", "127.0.0.3"))
            for key, name, address in players:
                nursery.start_soon(player, key, name, address)
            requests: dict[str, Request] = {}
            while len(requests) < 3:
                r = await lobby.requests.receive()
                requests[r.name] = r
            # The host sees who asks, with the fingerprint of the key each one proved.
            assert {n: r.fingerprint for n, r in requests.items()} == {
                "Ann": fingerprint(ann),
                "Bob": fingerprint(bob),
                "Cid": fingerprint(cid),
            }
            assert all(r.trust is Trust.NEW for r in requests.values())
            assert lobby.free_seats == 3
            lobby.admit(requests["Ann"])
            lobby.refuse(requests["Bob"], "not this time")
            lobby.admit(requests["Cid"])
            assert lobby.free_seats == 1 and lobby.ad().free == 1

            game = await lobby.start(bot_level="easy")
            game.nodes[0].chooser = random_chooser(game.genesis, 0)  # the host's own moves
            for node in game.nodes:
                nodes.append(node)
                nursery.start_soon(node.run)
            while len(nodes) < 4:
                await trio.sleep(0.01)
            for node in nodes:
                await node.finished.wait()
            nursery.cancel_scope.cancel()

    assert isinstance(joined["Bob"], LobbyError) and "not this time" in str(joined["Bob"])
    g = game.genesis
    # The free seat went to a computer player with a name of its own, marked as run by the host.
    # the computer player's name resembles nobody's at the table: not Anna beside Ann
    assert [s.name for s in g.seats] == ["Host", "Ann", "Cid", "Boris"]
    assert g.computers == ((3, 0),) and g.runner_of(3) == 0
    assert [s.key for s in g.seats[:3]] == [public_bytes(k) for k in (host, ann, cid)]
    assert g.nonce == lobby.lobby_id
    assert all(n.table.over and n.table.fault is None for n in nodes)
    assert len({n.table.digest() for n in nodes}) == 1
    assert all(any(isinstance(e, out.MatchOver) for e in seen) for seen in events)
    # Trust on first use: the host now knows Ann's and Cid's keys, not Bob's.
    assert peers.all() == {"Ann": public_bytes(ann), "Cid": public_bytes(cid)}


async def test_a_private_table_admits_only_with_the_code_and_backs_off_guessers():
    host, ann, eve = identities(3, tag=21)
    lobby = Lobby(host, "Host", "durak", players=2, listener=await open_listener(LOOPBACK), code="K7-Q2",
                  code_backoff=0.5)  # fmt: skip
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            await nursery.start(lobby.run)
            address = (LOOPBACK, lobby.port)
            with pytest.raises(LobbyError, match="join code required"):
                await join(address, ann, "Ann", port=1000)
            # Ann knows the lobby from discovery; with the right code her request reaches the host.
            nursery.start_soon(
                lambda: join(address, ann, "Ann", port=1000, lobby_id=lobby.lobby_id, code="k7 q2")
            )
            request = await lobby.requests.receive()
            assert request.name == "Ann" and request.key == public_bytes(ann)
            # Eve guesses (from her own address: here the same loopback address as Ann's).
            for guess in ("0000", "1111", "2222", "3333", "4444"):
                with pytest.raises(LobbyError, match="wrong join code"):
                    await join(address, eve, "Eve", port=1000, code=guess)
            with pytest.raises(LobbyError, match=r"too many wrong join codes from your address: wait \d+ s"):
                await join(address, eve, "Eve", port=1000, code="k7q2")  # right, but too soon
            # A back-off a person can wait out, not a lockout for the life of the lobby.
            await trio.sleep(0.6)
            nursery.start_soon(lambda: join(address, eve, "Eve", port=1000, code="k7q2"))
            assert (await lobby.requests.receive()).name == "Eve"
            # Each further wrong code doubles the wait.
            await trio.sleep(0.6)
            with pytest.raises(LobbyError, match="wrong join code"):
                await join(address, identities(1, tag=29)[0], "Mal", port=1000, code="5555")
            with pytest.raises(LobbyError, match="too many wrong join codes"):
                await join(address, identities(1, tag=29)[0], "Mal", port=1000, code="6666")
            assert [r.name for r in lobby.waiting] == ["Ann", "Eve"]
            nursery.cancel_scope.cancel()


async def test_concurrent_guesses_from_one_address_try_no_more_codes_than_the_limit():
    """60 connections at once from one address used to try 60 codes: each is counted as it arrives."""
    host = identities(1, tag=23)[0]
    lobby = Lobby(host, "Host", "durak", players=2, listener=await open_listener(LOOPBACK), code="4821")
    guessers = identities(60, tag=24)
    answers: list[str] = []

    async def guess(i: int) -> None:
        try:
            await join((LOOPBACK, lobby.port), guessers[i], f"G{i}", port=1000, code=f"{1000 + i:04d}")
        except LobbyError as exc:
            answers.append(str(exc))

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            await nursery.start(lobby.run)
            async with trio.open_nursery() as burst:
                for i in range(60):
                    burst.start_soon(guess, i)
            nursery.cancel_scope.cancel()
    judged = [a for a in answers if a.endswith(": wrong join code")]
    turned_away = [a for a in answers if "too many" in a]
    assert len(answers) == 60 and len(judged) <= MAX_WRONG_CODES, answers
    assert len(judged) + len(turned_away) == 60
    assert lobby.waiting == []


async def test_a_joiner_that_leaves_is_dropped_from_the_host_s_screen():
    host, ann = identities(2, tag=22)
    lobby = Lobby(host, "Host", "durak", players=3, listener=await open_listener(LOOPBACK))
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await nursery.start(lobby.run)
            ann_scope = trio.CancelScope()
            nursery.start_soon(_join_in, ann_scope, (LOOPBACK, lobby.port), ann)
            request = await lobby.requests.receive()
            assert request.state == "waiting"
            ann_scope.cancel()  # she closes her laptop
            gone = await lobby.requests.receive()
            assert gone is request and gone.state == "gone"
            assert lobby.waiting == []
            with pytest.raises(LobbyError, match="waiting"):
                lobby.admit(gone)
            nursery.cancel_scope.cancel()


async def _join_in(scope: trio.CancelScope, address: tuple[str, int], key: Any) -> None:
    with scope:
        await join(address, key, "Ann", port=1000)


async def test_host_list_join_and_play_across_namespaces(lan2: Lan):
    """The whole LAN story: a host advertises, a guest finds it by mDNS, asks to join with the lobby id
    from the advertisement, is admitted by name and fingerprint, a bot fills the third seat, all play."""
    host, guest = lan2.hosts
    agents: list[Agent] = []
    try:
        with trio.fail_after(60):
            hosting = await Agent.start(host, "host", host.address)
            agents.append(hosting)
            await hosting.until("advertised")
            joining = await Agent.start(guest, "join", guest.address)
            agents.append(joining)
            found = await joining.until("found")
            request = await hosting.until("request")
            assert request["name"] == "Guest" and request["address"][0] == guest.address
            assert found["fp"] == fingerprint(identities(1, tag=30)[0]) and found["free"] == 2
            assert request["fp"] == fingerprint(identities(1, tag=31)[0])
            seated = await joining.until("seated")
            assert seated["seat"] == 1 and seated["names"] == ["Host", "Guest", "Anna"]
            results = [await hosting.until("over"), await joining.until("over")]
    finally:
        for agent in agents:
            await agent.stop()
    assert all(r["over"] and not r["fault"] for r in results), results
    assert results[0]["digest"] == results[1]["digest"]


async def test_a_refusal_carries_the_host_s_reason_for_a_program_to_act_on():
    """A back-off is not a wrong code: the joiner must not ask the player for another code."""
    host, eve = identities(2, tag=28)
    lobby = Lobby(host, "Host", "durak", players=2, listener=await open_listener(LOOPBACK), code="4821")
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            await nursery.start(lobby.run)
            address = (LOOPBACK, lobby.port)
            with pytest.raises(LobbyError) as info:
                await join(address, eve, "Eve", port=1000)
            assert info.value.refusal == "join code required"
            for guess in ("0000", "1111", "2222", "3333", "4444"):
                with pytest.raises(LobbyError) as info:
                    await join(address, eve, "Eve", port=1000, code=guess)
                assert info.value.refusal == "wrong join code"
            with pytest.raises(LobbyError) as info:
                await join(address, eve, "Eve", port=1000, code="5555")
            assert info.value.refusal.startswith("too many wrong join codes from your address: wait ")
            nursery.cancel_scope.cancel()
