"""Joining, as separate processes over loopback: a table whose game has started says so (and offers
``resume`` to a player seated at it), and a port given with ``--port`` is used as given or not at all.

The cases that need discovery or the default port (a name, an address without a port, two tables of
one name on one machine) are in ``test_lan_netns.py``, on a LAN of namespaces of their own."""

from __future__ import annotations

import re
import signal
import socket
from collections.abc import Iterator

import pytest
import trio

from tests.cli.test_lan import LOOPBACK, Procs, check_agreement, check_journals, host_port


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A loopback port that something else listens on."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        yield other.getsockname()[1]


async def test_a_started_game_says_so_and_offers_resume_to_a_player_seated_at_it(procs: Procs) -> None:
    with trio.fail_after(60):
        host = await procs.start("host", "host", "durak", "--players", "2", *LOOPBACK, "--port", "0",
                                 "--admit", "all", "--auto", "easy", "--json", "--timeout", "120")
        port = await host_port(host)
        address = f"127.0.0.1:{port}"
        ann = await procs.start("ann", "join", address, "--name", "Ann", "--auto", "easy", "--json")
        start = await ann.until("start")
        await ann.until("move")
        ann.proc.send_signal(signal.SIGKILL)  # her laptop crashed mid-game
        await ann.finish()

        # A latecomer is told the game has started (not "cannot connect").
        late = await procs.start("late", "join", address, "--name", "Cid", "--auto", "easy", "--json")
        assert await late.finish() == 1
        message = late.of("failed")[0]["message"]
        assert "has already started: it takes no more players" in message, late.report()

        # Ann, joining again by habit, is pointed to her seat.
        again = await procs.start("ann-join", "join", address, "--name", "Ann", "--auto", "easy", "--json",
                                  home="ann")
        assert await again.finish() == 1
        short = start["game_id"][:12]
        # the command as this machine runs it (``.venv/bin/p2pcards`` when p2pcards is not on the PATH)
        assert re.search(rf"you have a seat at it: come back to it with  \S*p2pcards resume {short}$",
                         again.of("failed")[0]["message"])
        back = await procs.start("ann-back", "resume", short, "--json", home="ann")
        codes = [await p.finish() for p in (host, back)]
    assert codes == [0, 0], procs.report()
    check_journals([host, back], check_agreement([host, back]))


async def test_a_port_given_with_port_is_used_as_given_or_the_command_says_why(
    procs: Procs, busy_port: int
) -> None:
    with trio.fail_after(30):
        host = await procs.start("host", "host", "durak", *LOOPBACK, "--port", str(busy_port), "--json")
        assert await host.finish() == 1
        message = host.of("failed")[0]["message"]
        assert f"cannot listen on port {busy_port}" in message and "choose another with --port" in message
        assert not host.of("hosting")  # it did not quietly move to another port

        # The same for a joiner's own port (the other seats connect to it).
        table = await procs.start("table", "host", "durak", "--players", "2", *LOOPBACK, "--port", "0",
                                  "--json", stdin=True)
        port = await host_port(table)
        ann = await procs.start("ann", "join", f"127.0.0.1:{port}", "--port", str(busy_port),
                                "--auto", "easy", "--json")
        assert await ann.finish() == 1
        assert f"cannot listen on port {busy_port}" in ann.of("failed")[0]["message"]
        assert ann.of("table")  # it did reach the table; it refused to sit down on another port
        await table.send("quit")
        assert await table.finish() == 0


async def test_a_joiner_refuses_a_table_whose_move_clock_is_too_short_unless_asked(procs: Procs) -> None:
    """A 5 s move clock would name a person thinking on a Wi-Fi silent: the joiner says so and signs
    nothing, unless its person asked for it by name."""
    with trio.fail_after(60):
        host = await procs.start("host", "host", "durak", *LOOPBACK, "--port", "0", "--admit", "all",
                                 "--json", "--auto", "easy", "--timeout", "5")
        port = await host_port(host)
        ann = await procs.start("ann", "join", f"127.0.0.1:{port}", "--name", "Ann", "--auto", "easy",
                                short_clock_ok=False)
        assert await ann.finish() == 1
        said = "\n".join(ann.output)
        assert "its move clock is 5 s, too short" in said and "join --allow-short-timeout" in said
        assert not host.of("admitted")
