"""Real discovery: a host announces its table by mDNS on a LAN of network namespaces; ``list`` sees it
appear, change and start; two players find it by name and by the host's fingerprint, join and play;
a latecomer is told the game has started.  Then the default port: an address without a port, a host
that moves to the next port, two tables of one name on one machine, a busy port given by hand.  Last,
a player's laptop killed for good in the middle of a hand: the others play on with an open dummy.

The namespaces are made by the test and removed afterwards (``tests/net/netns.py``); zeroconf is
bound to their interfaces only, and they have no route out."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest
import trio

from p2pcards.net.link import DEFAULT_PORT
from tests.cli.test_lan import Procs, check_agreement, check_journals
from tests.cli.test_lan_going_on import verified
from tests.net.netns import Lan, lan_fixture


@pytest.fixture
def lan3() -> Iterator[Lan]:
    yield from lan_fixture(3, "cli")


async def test_players_find_the_table_by_mdns_join_and_play(lan3: Lan, procs: Procs) -> None:
    one, two, three = lan3.hosts
    with trio.fail_after(60):
        host = await procs.start("host", "host", "durak", "--players", "3", "--name", "Hana",
                                 "--interface", one.address, "--admit", "all", "--auto", "easy", "--json",
                                 prefix=one.command())
        hosting = await host.until("hosting")
        assert hosting["advertised"] is True and hosting["table"] == "Hana's table"
        assert hosting["addresses"] == [f"{one.address}:{hosting['port']}"]

        watcher = await procs.start("list", "list", "--interface", two.address, "--timeout", "50", "--json",
                                    prefix=two.command())
        seen = await watcher.until("appeared", name="Hana's table")
        assert seen["game"] == "durak" and seen["free"] == 2 and seen["seats"] == 3
        assert seen["fingerprint"] == hosting["fingerprint"] and seen["private"] is False
        assert (seen["addresses"], seen["port"]) == ([one.address], hosting["port"])

        ann = await procs.start("ann", "join", "Hana's table", "--name", "Ann", "--interface", two.address,
                                "--auto", "easy", "--json", prefix=two.command())
        assert (await ann.until("found"))["fingerprint"] == hosting["fingerprint"]
        # Before asking for a seat: the table as the host describes it, with its proven fingerprint.
        table = await ann.until("table")
        assert table["fingerprint"] == hosting["fingerprint"] and table["dealer"] == "mental"
        await ann.until("joining")
        await host.until("admitted", name="Ann")
        assert (await watcher.until("changed", name="Hana's table"))["free"] == 1  # a seat was taken

        # By the host's fingerprint, as read from the host's screen.
        bob = await procs.start("bob", "join", hosting["fingerprint"], "--name", "Bob", "--interface",
                                three.address, "--auto", "easy", "--json", prefix=three.command())
        request = await host.until("request", name="Bob")
        assert request["address"].startswith(three.address + ":")
        # The game started: the table is still announced, as playing, so that nobody looks in vain.
        assert (await watcher.until("changed", name="Hana's table", playing=True))["free"] == 0
        late = await procs.start("late", "join", "Hana's table", "--name", "Cid", "--interface",
                                 three.address, "--auto", "easy", "--json", prefix=three.command(),
                                 home="cid")
        assert await late.finish() == 1
        assert "has already started" in late.of("failed")[0]["message"], late.report()
        codes = [await p.finish() for p in (host, ann, bob)]
    assert codes == [0, 0, 0], procs.report()
    game_id = check_agreement([host, ann, bob])
    check_journals([host, ann, bob], game_id)


async def test_the_default_port_an_address_alone_and_two_tables_of_one_name(lan3: Lan, procs: Procs) -> None:
    one, two, three = lan3.hosts
    table = ("host", "durak", "--players", "2", "--name", "Kai", "--interface", one.address, "--admit", "all",
             "--auto", "easy", "--json", "--timeout", "60")  # fmt: skip
    with trio.fail_after(90):
        first = await procs.start("first", *table, prefix=one.command())
        assert (await first.until("hosting"))["port"] == DEFAULT_PORT
        # Another table on the same machine: the default port is taken, so it moves on to the next.
        second = await procs.start("second", *table, prefix=one.command(), home="second")
        second_hosting = await second.until("hosting")
        assert second_hosting["port"] == DEFAULT_PORT + 1
        # A port given by hand is used as given, or not at all.
        fixed = await procs.start("fixed", *table, "--port", str(DEFAULT_PORT), prefix=one.command(),
                                  home="fixed")  # fmt: skip
        assert await fixed.finish() == 1
        assert f"cannot listen on port {DEFAULT_PORT}" in fixed.of("failed")[0]["message"]

        # Both are seen, as two tables: their instance names differ by port.
        watcher = await procs.start("list", "list", "--interface", two.address, "--timeout", "60", "--json",
                                    prefix=two.command())
        seen = [await watcher.until("appeared", name="Kai's table") for _ in range(2)]
        assert sorted(s["port"] for s in seen) == [DEFAULT_PORT, DEFAULT_PORT + 1]
        assert len({s["instance"] for s in seen}) == 2

        # An address alone: the default port.
        ann = await procs.start("ann", "join", one.address, "--name", "Ann", "--interface", two.address,
                                "--auto", "easy", "--json", prefix=two.command())
        assert (await ann.until("table"))["address"] == f"{one.address}:{DEFAULT_PORT}"
        assert [await p.finish() for p in (first, ann)] == [0, 0], procs.report()

        # Nothing answers on the default port any more: the tables seen at that address are next.
        bob = await procs.start("bob", "join", one.address, "--name", "Bob", "--interface", three.address,
                                "--auto", "easy", "--json", prefix=three.command())
        assert (await bob.until("table"))["address"] == f"{one.address}:{DEFAULT_PORT + 1}"
        assert [await p.finish() for p in (second, bob)] == [0, 0], procs.report()
    check_journals([first, ann], check_agreement([first, ann]))
    check_journals([second, bob], check_agreement([second, bob]))


async def test_across_namespaces_a_player_killed_for_good_becomes_an_open_dummy(
    lan3: Lan, procs: Procs
) -> None:
    """The game goes on (see ``test_lan_going_on.py``) across real interfaces: Jun's laptop, in a
    namespace of its own, is killed; Hana and the two computer players finish with Jun's seat an open
    dummy, voted out after the table's short timeout."""
    one, two, _ = lan3.hosts
    with trio.fail_after(150):
        host = await procs.start("host", "host", "spades", "-o", "target=50", "--name", "Hana",
                                 "--interface", one.address, "--no-mdns", "--admit", "all", "--bots", "easy",
                                 "--auto", "easy", "--json", "--wait-for", "1", "--timeout", "5",
                                 prefix=one.command())
        hosting = await host.until("hosting")
        jun = await procs.start("jun", "join", hosting["addresses"][0], "--name", "Jun", "--interface",
                                two.address, "--auto", "easy", "--json", prefix=two.command())
        seat = (await jun.until("start"))["you"]
        for _ in range(6):
            await jun.until("move", hand=0)
        jun.proc.send_signal(signal.SIGKILL)
        assert await jun.finish() == -signal.SIGKILL
        seating = await host.until("seating", dummies=[seat])
        # The host's machine is one voice of two: it goes on by its own word (unconfirmed).
        assert {"seat": seat, "name": "Jun", "why": "unconfirmed"} in seating["out"]
        await host.until("move", seat=seat)  # the open dummy plays
        assert await host.finish() == 0, host.report()
    assert [f["stopped"] for f in host.of("fault")] == [False] and host.of("fault")[0]["names"] == ["Jun"]
    assert host.of("match_over")[-1]["scores"]["winner"] in (0, 1)
    verified(host, host.of("start")[-1]["game_id"])
