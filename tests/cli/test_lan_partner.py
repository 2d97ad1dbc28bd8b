"""Hosting Spades, the host chooses a partner: the admitted player of that name sits opposite the
host (seat 2; partners are seats 0 and 2), the computer players in the seats left; a partner who is
not at the table leaves the seats in the order admitted, and the host is told so."""

from __future__ import annotations

from tests.cli.test_lan import LOOPBACK, Procs, host_port
from tests.cli.test_lan_going_on import TIMEOUT


async def _seated(procs: Procs, *partner: str) -> tuple[dict[str, object], list[str]]:
    with procs.progressing():
        host = await procs.start("host", "host", "spades", *LOOPBACK, "--port", "0", "--name", "Hana",
                                 "--admit", "all", "--bots", "easy", "--auto", "easy", "--json",
                                 "--wait-for", "1", *TIMEOUT, *partner)
        port = await host_port(host)
        ann = await procs.start("ann", "join", f"127.0.0.1:{port}", "--name", "Ann", "--auto", "easy",
                                "--json")
        start = await ann.until("start")
        await host.until("start")
    notices = [e["message"] for e in host.of("notice")]
    return start, notices


async def test_the_partner_the_host_chose_sits_opposite_the_host(procs: Procs) -> None:
    start, notices = await _seated(procs, "--partner", "Ann")
    seats = start["seats"]
    assert isinstance(seats, list)
    assert start["you"] == 2 and [s["name"] for s in seats][::2] == ["Hana", "Ann"]
    assert [s["player"] for s in seats] == ["player", "computer", "you", "computer"]
    assert not notices


async def test_a_partner_who_is_not_at_the_table_leaves_the_seats_in_the_order_admitted(procs: Procs) -> None:
    start, notices = await _seated(procs, "--partner", "Zoe")
    assert start["you"] == 1
    assert notices == ["Zoe is not at the table: the seats go in the order players were admitted."]
