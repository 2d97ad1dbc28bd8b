"""Voices on the LAN, over loopback: a host's computer players count with the host's machine.

A computer player runs on the host's laptop: it never votes, never ends the match, and never names
the host silent however long the host's person thinks. When the only joiner vanishes, the host's
machine is one voice of two: it goes on with its computer players by its own word, which binds
nobody named (unconfirmed), and the journal verifies as a finished match with no vote against anyone
who was there.
"""

from __future__ import annotations

import signal

import trio

from tests.cli.test_lan import LOOPBACK, Procs, host_port
from tests.cli.test_lan_going_on import TIMEOUT, fits, verified

THINK_S = 16
"""The host's person thinks over one move for three times the move clock (``TIMEOUT``, 5 s)."""


async def test_a_host_thinking_past_the_move_clock_is_never_named_by_its_own_computer_players(
    procs: Procs,
) -> None:
    with trio.fail_after(150):
        host = await procs.start("host", "host", "durak", "--players", "3", "-o", "series_hands=1",
                                 *LOOPBACK, "--port", "0", "--name", "Hana", "--admit", "all",
                                 "--bots", "easy", "--json", "--wait-for", "1", *TIMEOUT, stdin=True)
        port = await host_port(host)
        ann = await procs.start("ann", "join", f"127.0.0.1:{port}", "--name", "Ann", "--auto", "easy",
                                "--json")
        start = await ann.until("start")
        ann_seat = start["you"]
        await host.until("turn", hand=0)
        ann.proc.send_signal(signal.SIGKILL)
        assert await ann.finish() == -signal.SIGKILL
        await trio.sleep(THINK_S)  # Hana thinks; her computer player and Ann's absence say nothing
        assert not [f for f in host.of("fault") if f["kind"] == "silent" and 0 in f["seats"]]
        assert not host.of("votes_contradicted")
        clock = host.of("move_clock")  # her own screen counted her move clock down, and said so once
        assert len(clock) == 1 and clock[0]["seconds_left"] <= 5
        # Hana now plays at once (the first legal move each turn) and, asked about Ann, goes on
        # without her, with the computer player.
        asked: list[dict[str, object]] = []
        seen = max(i for i, e in enumerate(host.events) if e["event"] == "turn")  # the one she thought over
        while not host.ended.is_set():
            for event in host.events[seen:]:
                seen += 1
                if event["event"] == "turn":
                    await host.send("1")
                elif event["event"] == "prompt" and event.get("question") == "silent":
                    asked.append(event)
                    await host.send("y")
            await trio.sleep(0.05)
        assert [q["seats"] for q in asked] == [[ann_seat]]
        gone = [f for f in host.of("fault") if f["kind"] == "silent"]
        assert [f["seats"] for f in gone] == [[ann_seat]] and "unconfirmed" in gone[0]["message"]
        assert gone[0]["unconfirmed"] is True
        ann_out = {"seat": ann_seat, "name": "Ann", "why": "unconfirmed"}
        assert any(ann_out in e["out"] for e in host.of("seating"))
        over = host.of("match_over")[-1]
        assert over["abandoned"] is False
        assert await host.finish() == 0, host.report()
    fits(host)
    report = verified(host, host.of("start")[-1]["game_id"])
    assert not [p for p in report["problems"] if "contradict" in p]
    assert all(0 not in v["seats"] for v in report["verdicts"]), report["verdicts"]
