"""A LAN seat's own move clock, on the mock clock: counted down at its marks, and when it runs out the
person is told that the others are now asked whether to go on without them (issue #30 item 4: a slow
player was never told)."""

from __future__ import annotations

import io

import trio
import trio.testing
from rich.console import Console

from p2pcards.cli.lan.game import LanGame
from p2pcards.cli.terminal import Terminal
from p2pcards.local import LocalRoom
from p2pcards.net.node import PeerUp
from p2pcards.table import outputs as out
from tests.net.helpers import Mesh, genesis_for, identities, make_mesh


async def _at_the_first_turn(tag: int) -> tuple[Mesh, out.YourTurn]:
    """Two nodes of a Durak table with a 40 s move clock, and seat 0's first turn (the same seeded deal,
    played offline up to it)."""
    ids = identities(2, tag=tag)
    mesh = await make_mesh(genesis_for(ids, "durak", timeout_ms=40_000), ids)
    room = LocalRoom("durak", players=2, human=0, dealer="seeded", seed=1)
    turn = room.run_until_human()
    room.close()
    assert turn is not None
    return mesh, turn


async def test_a_slow_person_is_told_when_the_others_are_asked_to_go_on_without_them(
    autojump_clock: trio.testing.MockClock,
) -> None:
    mesh, turn = await _at_the_first_turn(tag=71)
    text = io.StringIO()
    lines = io.StringIO()
    game = LanGame(mesh.nodes[0], Terminal(Console(file=text, width=200, color_system=None)), lines=None)
    programs = LanGame(mesh.nodes[0], Terminal(json_mode=True, stream=lines), lines=None)
    for seat in (game, programs):
        seat.on_event(PeerUp(1))  # the other player's laptop is connected: it is the one asked
        seat.turn = turn  # the person's turn, at the step the table is at
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(game._clock)
            nursery.start_soon(programs._clock)
            await trio.sleep(39)
            said = " ".join(text.getvalue().split())
            assert "Your move clock: 30 s left" in said and "asked whether to go on" not in said
            await trio.sleep(2)
            nursery.cancel_scope.cancel()
    finally:
        for node in mesh.nodes:
            assert node.listener is not None
            await node.listener.aclose()
    said = " ".join(text.getvalue().split())
    assert said.count("Your move clock ran out: the others are being asked whether to go on without you") == 1
    assert "Move now to stay in the hand." in said
    clock = [line for line in lines.getvalue().splitlines() if '"move_clock"' in line]
    assert clock[-1].endswith('"seconds_left": 0, "step": 0}') and len(clock) == 4  # 40, 30, 10 s, ran out


async def test_nobody_is_said_to_be_asked_when_no_other_laptop_is_connected(
    autojump_clock: trio.testing.MockClock,
) -> None:
    mesh, turn = await _at_the_first_turn(tag=72)
    text = io.StringIO()
    game = LanGame(mesh.nodes[0], Terminal(Console(file=text, width=200, color_system=None)), lines=None)
    game.turn = turn
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(game._clock)
            await trio.sleep(45)
            nursery.cancel_scope.cancel()
    finally:
        for node in mesh.nodes:
            assert node.listener is not None
            await node.listener.aclose()
    said = " ".join(text.getvalue().split())
    assert "Your move clock: 10 s left" in said and "ran out" not in said
