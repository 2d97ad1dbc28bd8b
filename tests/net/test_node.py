"""Whole games between nodes over loopback TCP: agreement, dropped links, a restart from the journal."""

from __future__ import annotations

from pathlib import Path

import trio

from p2pcards.net.node import Node, PeerDown, PeerUp, computer_chooser, open_listener
from p2pcards.store import GameStore
from p2pcards.table import outputs as out

from .helpers import LOOPBACK, genesis_for, identities, make_mesh
from .netns import Lan
from .procs import Agent


async def wait_for_step(node: Node, step: int) -> None:
    while node.table.chain.step < step and not node.finished.is_set():
        await trio.sleep(0.02)


async def test_four_nodes_play_a_mental_poker_durak_hand_and_agree():
    ids = identities(4, tag=1)
    g = genesis_for(ids, "durak", dealer="mental", seed=4)
    mesh = await make_mesh(g, ids)
    # One seat is played by the real computer player (random play for the others keeps it quick).
    mesh.nodes[3].chooser = computer_chooser(g.rules(), "easy", seed=3)
    with trio.fail_after(45):
        async with trio.open_nursery() as nursery:
            for node in mesh.nodes:
                nursery.start_soon(node.run)
            await mesh.all_finished()
            nursery.cancel_scope.cancel()
    mesh.check_agreement()
    for i in range(4):
        ups = {e.seat for e in mesh.of(i, PeerUp)}
        assert ups == set(range(4)) - {i}  # a full mesh
        assert mesh.of(i, out.MatchOver)
    # Everything was closed when the nodes stopped.
    assert all(not n.links for n in mesh.nodes)


async def test_a_link_killed_mid_game_reconnects_and_the_game_finishes():
    ids = identities(3, tag=2)
    g = genesis_for(ids, "durak", dealer="seeded", seed=5)
    mesh = await make_mesh(g, ids)
    kills = 0
    with trio.fail_after(45):
        async with trio.open_nursery() as nursery:
            for node in mesh.nodes:
                nursery.start_soon(node.run)
            for step in (20, 60, 100):
                await wait_for_step(mesh.nodes[1], step)
                for a, b in ((0, 1), (1, 2)):
                    link = mesh.nodes[a].links.get(b)
                    if link is not None:
                        # Abrupt, as a Wi-Fi drop would be: queued frames are lost with the socket.
                        link.close("killed by the test")
                        kills += 1
            await mesh.all_finished()
            nursery.cancel_scope.cancel()
    assert kills >= 2
    mesh.check_agreement()
    downs = [e for e in mesh.of(0, PeerDown) if e.seat == 1 and e.reason == "killed by the test"]
    assert downs
    assert len([e for e in mesh.of(0, PeerUp) if e.seat == 1]) >= 2  # it came back


async def test_a_node_restarted_from_its_journal_finishes_the_game(tmp_path: Path):
    ids = identities(3, tag=3)
    g = genesis_for(ids, "durak", dealer="mental", seed=6)
    homes = [tmp_path / f"seat{i}" for i in range(3)]
    stores = [GameStore.open(g.game_id, home) for home in homes]
    mesh = await make_mesh(g, ids, stores)
    victim = 1
    try:
        with trio.fail_after(50):
            async with trio.open_nursery() as nursery:
                for i, node in enumerate(mesh.nodes):
                    if i != victim:
                        nursery.start_soon(node.run)
                victim_scope = trio.CancelScope()
                done = trio.Event()
                nursery.start_soon(_run_in, mesh.nodes[victim], victim_scope, done)
                await wait_for_step(mesh.nodes[victim], 40)
                victim_scope.cancel()  # killed: its sockets close, its memory is gone
                await done.wait()
                await trio.sleep(0.3)  # the others notice and keep waiting for it
                before = mesh.nodes[victim].table.chain.step
                stores[victim].close()

                # A new process: the journal and secrets on disk are all that is left.
                stores[victim] = GameStore.open(g.game_id, homes[victim])
                assert stores[victim].payloads()
                listener = await open_listener(LOOPBACK, mesh.ports[victim])
                reborn = mesh.node_for(victim, stores[victim], listener)
                mesh.nodes[victim] = reborn
                nursery.start_soon(reborn.run)
                await mesh.all_finished()
                nursery.cancel_scope.cancel()
    finally:
        for store in stores:
            store.close()
    assert before >= 40
    mesh.check_agreement()


async def test_a_seat_that_vanishes_is_voted_silent_on_the_table_s_clock():
    ids = identities(3, tag=4)
    g = genesis_for(ids, "durak", dealer="seeded", seed=8, timeout_ms=2_000)
    mesh = await make_mesh(g, ids)
    victim = 2
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            for i, node in enumerate(mesh.nodes):
                if i != victim:
                    nursery.start_soon(node.run)
            victim_scope = trio.CancelScope()
            done = trio.Event()
            nursery.start_soon(_run_in, mesh.nodes[victim], victim_scope, done)
            await wait_for_step(mesh.nodes[victim], 10)
            victim_scope.cancel()  # gone for good
            await done.wait()
            for node in mesh.nodes[:victim]:
                await node.finished.wait()
            nursery.cancel_scope.cancel()
    for node in mesh.nodes[:victim]:
        t = node.table
        assert [(f.seat, f.kind) for f in t.verdicts] == [(victim, "silent")], t.verdicts
        assert t.over and t.seats_out == {victim: "silent"}, "the others played the hand again, to its end"
    assert len({n.table.digest() for n in mesh.nodes[:victim]}) == 1


async def test_a_seated_player_s_dropped_link_gets_back_in_past_stalled_sockets():
    """Sockets that connect and never speak, kept up by a stranger, used to fill the 16 handshake
    slots for good: a seat whose link dropped could then never reconnect."""
    ids = identities(2, tag=5)
    g = genesis_for(ids, "durak", dealer="seeded", seed=9)
    mesh = await make_mesh(g, ids)
    acceptor = mesh.nodes[1]  # seat 0 dials seat 1
    port = mesh.ports[1]
    stop = trio.Event()

    async def keep_stalling(source: str) -> None:
        while not stop.is_set():
            try:
                stream = await trio.open_tcp_stream(LOOPBACK, port, local_address=source)
            except OSError:
                await trio.sleep(0.2)
                continue
            async with stream:
                with trio.move_on_after(30):
                    await stream.receive_some(1)  # until the node closes it
            await trio.sleep(0)  # and at once another one, to keep every slot taken

    with trio.fail_after(40):
        async with trio.open_nursery() as nursery:
            for node in mesh.nodes:
                nursery.start_soon(node.run)
            await wait_for_step(acceptor, 10)
            for i in range(24):  # more than the 16 slots, from 6 addresses
                nursery.start_soon(keep_stalling, f"127.0.4.{i % 6 + 1}")
            await trio.sleep(1.0)
            ups = len([e for e in mesh.of(0, PeerUp) if e.seat == 1])
            link = mesh.nodes[0].links[1]
            link.close("killed by the test")
            while len([e for e in mesh.of(0, PeerUp) if e.seat == 1]) == ups:
                await trio.sleep(0.05)
            await mesh.all_finished()
            stop.set()
            nursery.cancel_scope.cancel()
    mesh.check_agreement()
    assert acceptor._gate.evicted > 0  # the stalled ones gave way, the seat did not


async def _run_in(node: Node, scope: trio.CancelScope, done: trio.Event) -> None:
    try:
        with scope:
            await node.run()
    finally:
        done.set()


async def test_a_whole_game_across_namespaces(lan3: Lan):
    ips = [h.address for h in lan3.hosts]
    agents: list[Agent] = []
    try:
        with trio.fail_after(60):
            for seat, host in enumerate(lan3.hosts):
                agents.append(await Agent.start(host, "seat", str(seat), *ips))
            results = [await agent.until("over") for agent in agents]
    finally:
        for agent in agents:
            await agent.stop()
    assert all(r["over"] and not r["fault"] for r in results), results
    assert len({r["digest"] for r in results}) == 1
