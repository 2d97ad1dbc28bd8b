"""Computer players think in a process of their own: it answers their turns, keeps each player between
decisions, is gone when the game ends or is cancelled, reports failures as the chooser's failures,
and drops a decision nobody waits for."""

from __future__ import annotations

import dataclasses
import io
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio
from rich.console import Console

from p2pcards.cli.lan.game import LanGame
from p2pcards.cli.terminal import Terminal
from p2pcards.games import View
from p2pcards.local import LocalRoom
from p2pcards.net import thinking
from p2pcards.net.node import BotError, ComputerChooser, NodeEvent, Thinking, computer_chooser
from p2pcards.net.thinking import ComputerSpec, Thinker, ThinkerError
from p2pcards.net.worker import NICENESS, frame
from p2pcards.table import outputs as out

from .helpers import genesis_for, identities, make_mesh

GUARD = 20
"""Seconds after which a test that hangs fails (a guard against hanging, not a measure of speed)."""


def workers_of_this_process() -> list[int]:
    """The computer players' processes this test process started and has not reaped (Linux)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if int(stat[1]) == os.getpid() and b"p2pcards.net.worker" in command:
            found.append(int(entry.name))
    return found


@pytest.fixture(autouse=True)
def _no_worker_left() -> Iterator[None]:
    """Every test here leaves no computer players' process behind, however it ended."""
    yield
    if Path("/proc/self/stat").exists():
        assert workers_of_this_process() == []


def first_view(game: str, seed: int = 5) -> tuple[LocalRoom, View]:
    room = LocalRoom(game, human=0, level="easy", dealer="seeded", seed=seed)
    turn = room.run_until_human()
    assert turn is not None
    return room, turn.view


def gone(pid: int) -> bool:
    """The process ``pid`` was reaped (no zombie left behind)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def spec_of(room: LocalRoom, level: str, seed: int = 1, think_ms: int = 1000) -> ComputerSpec:
    return ComputerSpec(room.rules.name, tuple(room.rules.options), level, seed, think_ms)


async def test_a_player_in_the_worker_chooses_as_it_would_here_and_is_kept_between_decisions() -> None:
    room, view = first_view("azi")  # 988 legal actions: a random player repeats itself only by chance
    spec = spec_of(room, "random", seed=7)
    here = ComputerChooser(spec)
    thinker = Thinker()
    try:
        with trio.fail_after(GUARD):
            answers = [await thinker.choose(1, spec, view) for _ in range(3)]
        # The same player answered all three (its randomness went on), as one player here would.
        assert answers == [here(view) for _ in range(3)]
        assert len(set(answers)) > 1
        assert thinker.started == 1
        pid = thinker.pid
        assert pid is not None
        if hasattr(os, "getpriority"):
            ours = os.getpriority(os.PRIO_PROCESS, 0)
            assert os.getpriority(os.PRIO_PROCESS, pid) >= min(19, ours + NICENESS)
    finally:
        await thinker.aclose()
    assert thinker.process is None and gone(pid)


async def test_a_failing_player_is_reported_with_its_error_and_the_next_decision_goes_on() -> None:
    room, view = first_view("spades")
    _, durak_view = first_view("durak")
    thinker = Thinker()
    try:
        with trio.fail_after(GUARD):
            with pytest.raises(ThinkerError, match=r"^\w+Error: "):
                await thinker.choose(1, spec_of(room, "normal"), durak_view)  # a Spades player, a Durak view
            assert (await thinker.choose(2, spec_of(room, "easy"), view)).startswith("bid")
            assert thinker.started == 1
    finally:
        await thinker.aclose()


async def test_a_worker_that_dies_in_a_search_is_reported_and_the_next_decision_starts_another() -> None:
    room, view = first_view("spades")
    thinker = Thinker()
    try:
        with trio.fail_after(GUARD):

            async def crash() -> None:
                while thinker.process is None:
                    await trio.sleep(0.01)
                await trio.sleep(0.1)
                thinker.process.kill()

            async with trio.open_nursery() as nursery:
                nursery.start_soon(crash)
                with pytest.raises(ThinkerError, match="process ended"):
                    await thinker.choose(3, spec_of(room, "hard", think_ms=600_000), view)
            assert (await thinker.choose(2, spec_of(room, "easy"), view)).startswith("bid")
            assert thinker.started == 2
    finally:
        await thinker.aclose()


async def test_a_decision_nobody_waits_for_is_abandoned_and_the_next_one_does_not_wait_behind_it() -> None:
    room, view = first_view("spades")
    thinker = Thinker()
    try:
        with trio.fail_after(GUARD):
            await thinker.choose(2, spec_of(room, "easy"), view)  # the worker is up: Hard is interrupted
            with trio.move_on_after(0.3):  # Hard with ten minutes to think over a bid
                await thinker.choose(1, spec_of(room, "hard", think_ms=600_000), view)
                pytest.fail("Hard answered a bid with ten minutes to think within 0.3 s")
            assert (await thinker.choose(2, spec_of(room, "easy"), view)).startswith("bid")
            assert thinker.started == 1  # the same worker, which dropped the search
            # Abandoned before it began: it never begins.
            with trio.move_on_after(0) as nothing:
                await thinker.choose(1, spec_of(room, "hard", think_ms=600_000), view)
            assert nothing.cancelled_caught
            assert (await thinker.choose(2, spec_of(room, "easy"), view)).startswith("bid")
    finally:
        await thinker.aclose()


def test_a_worker_whose_parent_is_gone_ends_with_its_input_even_in_a_search() -> None:
    room, view = first_view("spades")
    for request in (None, frame(("choose", 1, 1, spec_of(room, "hard", think_ms=600_000), view))):
        child = subprocess.Popen([sys.executable, "-m", "p2pcards.net.worker"], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE)
        try:
            assert child.stdin is not None
            if request is not None:
                child.stdin.write(request)
                child.stdin.flush()
            child.stdin.close()
            assert child.wait(GUARD) == 0
        finally:
            child.kill()
            child.wait()
            if child.stdout is not None:
                child.stdout.close()


async def test_a_computer_seat_thinks_in_the_worker_says_so_and_the_worker_is_gone_after_the_game() -> None:
    ids = identities(2, tag=31)
    g = genesis_for(ids, "durak", dealer="seeded", seed=3, series_hands=1)
    mesh = await make_mesh(g, ids)
    mesh.nodes[1].chooser = computer_chooser(g.rules(), "easy", seed=3)
    with trio.fail_after(GUARD):
        async with trio.open_nursery() as nursery:
            for node in mesh.nodes:
                nursery.start_soon(node.run)
            await mesh.all_finished()
            worker = thinking.shared()
            pid = worker.pid
            assert pid is not None and worker.users == 1
            nursery.cancel_scope.cancel()
    mesh.check_agreement()
    thought = mesh.of(1, Thinking)
    moved = [e for e in mesh.events[1] if isinstance(e, out.StateChanged) and e.kind == "action"
             and e.seats == (1,)]
    assert thought and len(thought) >= len(moved)
    assert not mesh.of(1, BotError)
    assert worker.process is None and worker.users == 0 and gone(pid)


async def test_cancelling_the_game_while_a_computer_thinks_ends_the_worker() -> None:
    ids = identities(4, tag=32)
    g = genesis_for(ids, "spades", dealer="seeded", seed=2)
    mesh = await make_mesh(g, ids)
    for seat in (1, 2, 3):
        mesh.nodes[seat].chooser = computer_chooser(g.rules(), "hard", seed=seat, think_ms=600_000)
    with trio.fail_after(GUARD):
        async with trio.open_nursery() as nursery:
            for node in mesh.nodes:
                nursery.start_soon(node.run)
            worker = thinking.shared()
            while worker.pid is None:
                await trio.sleep(0.01)
            pid = worker.pid
            assert worker.users == 1  # the first seat to think; the others hold it when they do
            await trio.sleep(0.1)
            nursery.cancel_scope.cancel()
    assert worker.process is None and gone(pid)


async def test_an_error_in_the_worker_is_the_computer_players_failure() -> None:
    ids = identities(2, tag=33)
    g = genesis_for(ids, "durak", dealer="seeded", seed=3, series_hands=1)
    mesh = await make_mesh(g, ids)
    # A Spades player at a Durak table: it fails on its first view, in the worker.
    spades = genesis_for(identities(4, tag=34), "spades").rules()
    mesh.nodes[1].chooser = computer_chooser(spades, "normal", seed=3)
    with trio.fail_after(GUARD):
        async with trio.open_nursery() as nursery:
            for node in mesh.nodes:
                nursery.start_soon(node.run)
            while not mesh.of(1, BotError):
                await trio.sleep(0.01)
            nursery.cancel_scope.cancel()
    error = mesh.of(1, BotError)[0]
    assert error.seat == 1 and error.message.startswith("the computer player failed: ")
    assert "Error: " in error.message


async def test_the_hosts_screen_says_which_computer_player_is_thinking() -> None:
    ids = identities(2, tag=35)
    g = genesis_for(ids, "durak", dealer="seeded", seed=3, series_hands=1)
    mesh = await make_mesh(g, ids)
    own, computer = mesh.nodes
    own.chooser = None  # the host's person
    computer.chooser = computer_chooser(g.rules(), "easy", seed=3)
    game = LanGame(own, Terminal(Console(file=io.StringIO())), lines=None, computers=[1])
    seen: list[str] = []

    def on_computer_event(event: NodeEvent) -> None:
        game.on_computer_event(event)
        if isinstance(event, Thinking):
            seen.append(game.screen.activity_text)

    computer.on_event = on_computer_event
    with trio.fail_after(GUARD):
        async with trio.open_nursery() as nursery:
            for node in mesh.nodes:
                nursery.start_soon(node.run)
            while not seen:
                await trio.sleep(0.01)
            nursery.cancel_scope.cancel()
    assert seen[0] == "p1 is thinking…"
    step = game.thinking[1]
    assert step >= 0


async def test_a_worker_that_keeps_dying_is_the_players_failure_and_none_at_all_means_a_thread() -> None:
    ids = identities(2, tag=36)
    g = genesis_for(ids, "durak", dealer="seeded", seed=3, series_hands=1)
    mesh = await make_mesh(g, ids)
    mesh.nodes[1].chooser = computer_chooser(g.rules(), "easy", seed=3)
    worker = thinking.shared()
    worker.command = [sys.executable, "-c", "import sys; sys.stdin.buffer.read(1)"]  # dies at each request
    with trio.fail_after(GUARD):
        async with trio.open_nursery() as nursery:
            for node in mesh.nodes:
                nursery.start_soon(node.run)
            while not mesh.of(1, BotError):
                await trio.sleep(0.01)
            nursery.cancel_scope.cancel()
    [error] = mesh.of(1, BotError)
    assert error.message.startswith("the computer player failed: the computer players' process ended")
    assert worker.started == 2  # asked once more in a new worker before giving up

    mesh = await make_mesh(g, ids)
    mesh.nodes[1].chooser = computer_chooser(g.rules(), "easy", seed=3)
    worker.command = ["/nonexistent/python"]  # no process at all: it thinks in a thread
    with trio.fail_after(GUARD):
        async with trio.open_nursery() as nursery:
            for node in mesh.nodes:
                nursery.start_soon(node.run)
            await mesh.all_finished()
            nursery.cancel_scope.cancel()
    mesh.check_agreement()
    assert mesh.of(1, Thinking) and not mesh.of(1, BotError) and worker.process is None


async def test_the_hosts_waiting_line_says_a_computer_player_is_thinking_until_it_fails() -> None:
    ids = identities(2, tag=37)
    g = genesis_for(ids, "durak", dealer="seeded", seed=3, series_hands=1)
    mesh = await make_mesh(g, ids)
    own, computer = mesh.nodes
    rules = g.rules()
    quick = computer_chooser(rules, "easy", seed=1)

    def slow(view: View) -> str:  # a computer player that takes a while over every move
        time.sleep(0.2)
        return quick(view)

    computer.chooser = slow
    game = LanGame(own, Terminal(Console(file=io.StringIO())), lines=None, auto="easy", computers=[1])
    own.on_event = game.on_event
    computer.on_event = game.on_computer_event
    said: list[str] = []
    with trio.fail_after(GUARD):
        async with trio.open_nursery() as nursery:
            for node in mesh.nodes:
                nursery.start_soon(node.run)
            while not said:
                if list(own.table.waiting_for) == [1] and game.thinking.get(1) == own.table.chain.step:
                    said.append(game.waiting_text())
                await trio.sleep(0.01)
            nursery.cancel_scope.cancel()
    assert said == ["p1 is thinking"]
    game.on_computer_event(BotError(1, "the computer player failed: it broke"))
    assert 1 not in game.thinking


async def test_a_joiners_waiting_line_says_a_computer_player_on_another_laptop_is_thinking() -> None:
    """Seat 1 is a computer player on seat 2's laptop: seat 0's screen cannot see its search, but the
    genesis says it is a computer, so a move it owes is it thinking, not someone to wait for."""
    ids = identities(3, tag=38)
    g = dataclasses.replace(
        genesis_for(ids, "durak", dealer="seeded", seed=3, series_hands=1), computers=((1, 2),)
    )
    mesh = await make_mesh(g, ids)
    own, computer, runner = mesh.nodes
    rules = g.rules()
    quick = computer_chooser(rules, "easy", seed=1)

    def slow(view: View) -> str:
        time.sleep(0.2)
        return quick(view)

    computer.chooser = slow
    runner.chooser = computer_chooser(rules, "easy", seed=2)
    game = LanGame(own, Terminal(Console(file=io.StringIO())), lines=None, auto="easy")
    own.on_event = game.on_event
    said: set[str] = set()
    with trio.fail_after(GUARD):
        async with trio.open_nursery() as nursery:
            for node in mesh.nodes:
                nursery.start_soon(node.run)
            while "p1 is thinking" not in said:
                att = own.table.attempt
                if list(own.table.waiting_for) == [1] and att is not None and att.awaiting is not None:
                    said.add(f"{att.awaiting}: {game.waiting_text()}")
                    said.add(game.waiting_text())
                await trio.sleep(0.01)
            nursery.cancel_scope.cancel()
    assert "action: p1 is thinking" in said
    assert not any(s.startswith("action: waiting") for s in said)
