"""Real discovery: a host announces its table by mDNS on a LAN of network namespaces; ``list`` sees it
appear, change and vanish; two players find it by name and by the host's fingerprint, join and play.

The namespaces are made by the test and removed afterwards (``tests/net/netns.py``); zeroconf is
bound to their interfaces only, and they have no route out."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import trio

from tests.cli.test_lan import Procs, check_agreement, check_journals
from tests.net.netns import Lan, lan_fixture, unavailable


@pytest.fixture
def lan3() -> Iterator[Lan]:
    reason = unavailable()
    if reason is not None:
        pytest.skip(reason)
    yield from lan_fixture(3, "cli")


@pytest.fixture
async def procs(tmp_path: Path, nursery: trio.Nursery) -> AsyncIterator[Procs]:
    group = Procs(tmp_path, nursery)
    try:
        yield group
    finally:
        for proc in group.running:
            await proc.stop()


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
        await host.until("admitted", name="Ann")
        assert (await watcher.until("changed", name="Hana's table"))["free"] == 1  # a seat was taken

        # By the host's fingerprint, as read from the host's screen.
        bob = await procs.start("bob", "join", hosting["fingerprint"], "--name", "Bob", "--interface",
                                three.address, "--auto", "easy", "--json", prefix=three.command())
        request = await host.until("request", name="Bob")
        assert request["address"].startswith(three.address + ":")
        await watcher.until("vanished", name="Hana's table")  # the game started: no longer open
        codes = [await p.finish() for p in (host, ann, bob)]
    assert codes == [0, 0, 0], procs.report()
    game_id = check_agreement([host, ann, bob])
    check_journals([host, ann, bob], game_id)
