"""No downgrade, and trust only what proved itself: ``p2pcards join`` against hosts that cheat, as
separate processes over loopback.

- A table dealt by the seeded dealer (a deck anyone can predict) is refused unless the player asks
  for it by name (``--allow-seeded-dealer``); a host that shows mental poker and starts a seeded
  game is not signed.
- A host that writes a seat "Bob" with a key of its choosing into the genesis does not teach the
  joiner that key: the real Bob, met later, is new, not a "changed key"."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import trio

from p2pcards.store import Peers
from p2pcards.wire import fingerprint
from tests.cli.test_lan import LOOPBACK, Procs, check_agreement, check_journals, host_port
from tests.net.procs import Agent


@pytest.fixture
async def liar() -> AsyncIterator[list[Agent]]:
    agents: list[Agent] = []
    try:
        yield agents
    finally:
        for agent in agents:
            await agent.stop()


async def test_the_seeded_dealer_is_refused_unless_asked_for_by_name(procs: Procs) -> None:
    with trio.fail_after(60):
        host = await procs.start("host", "host", "durak", "--players", "2", *LOOPBACK, "--port", "0",
                                 "--dealer", "seeded", "--admit", "all", "--auto", "easy", "--json")
        port = await host_port(host)
        assert host.of("hosting")[0]["dealer"] == "seeded"
        assert any("seeded dealer is for tests only" in e["message"] for e in host.of("warning"))
        address = f"127.0.0.1:{port}"
        wary = await procs.start("wary", "join", address, "--auto", "easy", "--json")
        assert await wary.finish() == 1
        table = wary.of("table")[0]
        assert table["dealer"] == "seeded" and table["fingerprint"] == host.of("hosting")[0]["fingerprint"]
        assert "not sitting down at a table with the seeded dealer" in wary.of("failed")[0]["message"]
        assert not wary.of("joining")  # refused before asking for a seat
        tester = await procs.start("tester", "join", address, "--name", "Tess", "--auto", "easy", "--json",
                                   "--allow-seeded-dealer")
        codes = [await p.finish() for p in (host, tester)]
    assert codes == [0, 0], procs.report()
    assert [e["name"] for e in host.of("request")] == ["Tess"]  # the wary one never reached the host
    check_journals([host, tester], check_agreement([host, tester]))


async def test_a_host_that_shows_mental_poker_and_starts_a_seeded_game_is_not_signed(
    procs: Procs, liar: list[Agent], tmp_path: Path
) -> None:
    with trio.fail_after(40):
        liar.append(await Agent.start(None, "lying-host", "127.0.0.1", "seeded", home=str(tmp_path / "liar")))
        port = (await liar[0].until("listening"))["port"]
        ann = await procs.start("ann", "join", f"127.0.0.1:{port}", "--name", "Ann", "--auto", "easy",
                                "--json", "--allow-seeded-dealer")
        assert await ann.finish() == 1
    assert ann.of("table")[0]["dealer"] == "mental"  # what it was shown
    failed = ann.of("failed")[0]["message"]
    assert "not signing the table the host sent: the dealer is seeded, not mental as shown" in failed
    assert not ann.of("start")  # nothing was signed
    assert (await liar[0].until("started"))["dealer"] == "seeded"


async def test_a_name_the_host_wrote_into_the_table_is_not_trusted_until_its_key_proves_itself(
    procs: Procs, liar: list[Agent], tmp_path: Path
) -> None:
    with trio.fail_after(60):
        liar.append(await Agent.start(None, "lying-host", "127.0.0.1", "bob", home=str(tmp_path / "liar")))
        listening = await liar[0].until("listening")
        ann = await procs.start("ann", "join", f"127.0.0.1:{listening['port']}", "--name", "Ann",
                                "--auto", "easy", "--json")
        start = await ann.until("start")
        assert [s["name"] for s in start["seats"]] == ["Host", "Ann", "Bob"]
        await ann.until("peer", name="Host", up=True)  # the host's seat proved its key in the game too
        await trio.sleep(0.5)
        await ann.stop()  # "Bob" never comes: Ann gives up on this table
        known = Peers(ann.home).all()
        assert fingerprint(known["Host"]) == listening["fingerprint"]
        assert "Bob" not in known  # only a claim of the host: never proven to Ann

        # The real Bob hosts a table later: to Ann he is new, not a changed key.
        bob = await procs.start("bob", "host", "durak", "--players", "2", "--name", "Bob", *LOOPBACK,
                                "--port", "0", "--admit", "all", "--auto", "easy", "--json")
        port = await host_port(bob)
        again = await procs.start("ann-again", "join", f"127.0.0.1:{port}", "--name", "Ann", "--auto", "easy",
                                  "--json", home="ann")
        codes = [await p.finish() for p in (bob, again)]
    assert codes == [0, 0], procs.report()
    assert not again.of("warning")
    assert fingerprint(Peers(ann.home).all()["Bob"]) == bob.of("hosting")[0]["fingerprint"]
    assert json.loads((ann.home / "peers.json").read_text())["peers"].keys() == {"Host", "Bob"}
