"""A match that ended by the word of half the table is listed by ``games`` as abandoned, as ``verify``
calls it, never as a finished match: the host of two, its only joiner killed, goes on by its own word
with too few players left to play, which ends the match there for it."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import signal
import sys

import pexpect
import trio

from p2pcards.cli import verify
from tests.cli.test_lan import LOOPBACK, Procs, host_port
from tests.cli.test_lan_going_on import TIMEOUT
from tests.cli.test_lan_screen import env_for
from tests.cli.test_screen_tty import COLUMNS, ROOT, ROWS, plain


async def test_a_match_ended_by_half_the_table_is_listed_as_abandoned(procs: Procs) -> None:
    with trio.fail_after(90):
        host = await procs.start("host", "host", "durak", "--players", "2", *LOOPBACK, "--port", "0",
                                 "--name", "Hana", "--admit", "all", "--auto", "easy", "--json", *TIMEOUT)
        port = await host_port(host)
        ann = await procs.start("ann", "join", f"127.0.0.1:{port}", "--name", "Ann", "--auto", "easy",
                                "--json")
        start = await host.until("start")
        await ann.until("move")  # the first hand is being played
        ann.proc.send_signal(signal.SIGKILL)
        assert await ann.finish() == -signal.SIGKILL
        over = await host.until("match_over")
        assert over["abandoned"] is True
        assert await host.finish() == 0
    game_id = start["game_id"]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        verify.run(argparse.Namespace(journal=str(host.home / "games" / game_id / "journal"), json=True))
    assert json.loads(printed.getvalue())["status"] == "abandoned"

    child = pexpect.spawn(sys.executable, ["-m", "p2pcards", "games"], env=env_for(host.home),
                          encoding="utf-8", timeout=30, dimensions=(ROWS, COLUMNS), cwd=str(ROOT))
    child.expect(pexpect.EOF)
    child.close()
    listed = plain(child.before)
    line = next(line for line in listed.split("\n") if line.startswith(game_id[:12]))
    assert "  abandoned " in line and "finished" not in line, listed
