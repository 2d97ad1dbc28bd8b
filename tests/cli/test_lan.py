"""``host``, ``join`` and ``resume`` as separate processes over loopback: whole matches, a seat killed
mid-hand and resumed, a private table, a person's seat that leaves and comes back.

Every process has a data directory of its own and speaks JSON lines; every journal is verified at
the end and all seats must agree.  Nothing here leaves 127.0.0.1, and every process is killed and
reaped whatever happens (the ``procs`` fixture)."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import trio

from p2pcards.cli import verify
from p2pcards.store.paths import HOME_ENV

ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = ["--interface", "127.0.0.1"]


class Proc:
    """A ``p2pcards`` process.  A task reads its output all the time (a full pipe would stall it);
    JSON lines become events, anything else is kept for the report."""

    def __init__(self, name: str, home: Path, proc: trio.Process) -> None:
        self.name = name
        self.home = home
        self.proc = proc
        self.events: list[dict[str, Any]] = []
        self.output: list[str] = []
        self.ended = trio.Event()
        self._cursor = 0
        self._news = trio.Event()

    @classmethod
    async def start(
        cls, nursery: trio.Nursery, name: str, home: Path, *args: str, prefix: Sequence[str] = (),
        stdin: bool = False,
    ) -> Proc:
        env = {**os.environ, HOME_ENV: str(home), "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
        env.pop("XDG_DATA_HOME", None)
        proc = await trio.lowlevel.open_process(
            [*prefix, sys.executable, "-m", "p2pcards", *args],
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            env=env,
        )
        self = cls(name, home, proc)
        nursery.start_soon(self._pump)
        return self

    async def _pump(self) -> None:
        assert self.proc.stdout is not None
        buffer = b""
        try:
            while True:
                data = await self.proc.stdout.receive_some(65536)
                if not data:
                    break
                buffer += data
                *complete, buffer = buffer.split(b"\n")
                for raw in complete:
                    self._take(raw.decode(errors="replace"))
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            pass
        finally:
            if buffer:
                self._take(buffer.decode(errors="replace"))
            self.ended.set()
            self._tell()

    def _take(self, line: str) -> None:
        self.output.append(line)
        if line.startswith("{"):
            self.events.append(json.loads(line))
            self._tell()

    def _tell(self) -> None:
        # every task waiting holds the event that was current when it began to wait: all wake up
        self._news.set()
        self._news = trio.Event()

    def report(self) -> str:
        return f"--- {self.name} (exit {self.proc.returncode}):\n" + "\n".join(self.output[-40:])

    async def until(self, kind: str, **fields: Any) -> dict[str, Any]:
        """The next event of ``kind`` (with these fields) after the last one waited for."""
        while True:
            while self._cursor < len(self.events):
                event = self.events[self._cursor]
                self._cursor += 1
                if event["event"] == kind and all(event.get(k) == v for k, v in fields.items()):
                    return event
            if self.ended.is_set():
                raise AssertionError(f"{self.name} ended before a {kind!r} event\n{self.report()}")
            await self._news.wait()

    async def beyond(self, count: int) -> None:
        """Until it has printed more than ``count`` events, or its output ended."""
        while len(self.events) <= count and not self.ended.is_set():
            await self._news.wait()

    async def finish(self) -> int:
        """Wait for the end of its output and of the process; its exit status."""
        await self.ended.wait()
        return await self.proc.wait()

    async def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        await self.proc.stdin.send_all(line.encode() + b"\n")

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["event"] == kind]

    async def stop(self) -> None:
        with trio.CancelScope(shield=True):
            if self.proc.returncode is None:
                self.proc.kill()
            await self.proc.wait()
            for stream in (self.proc.stdin, self.proc.stdout):
                if stream is not None:
                    await stream.aclose()


class Procs:
    """The processes of one test, all killed and reaped at its end."""

    def __init__(self, root: Path, nursery: trio.Nursery) -> None:
        self.root = root
        self.nursery = nursery
        self.running: list[Proc] = []

    async def start(self, name: str, *args: str, home: str | None = None, prefix: Sequence[str] = (),
                    stdin: bool = False, short_clock_ok: bool = True) -> Proc:
        """Start ``p2pcards ARGS``.  The tables of these tests run move clocks of seconds, which a
        joiner refuses unless told: every ``join`` here is told (``--allow-short-timeout``), but where
        ``short_clock_ok`` is False."""
        if args[:1] == ("join",) and short_clock_ok:
            args = (*args, "--allow-short-timeout")
        proc = await Proc.start(self.nursery, name, self.root / (home or name), *args, prefix=prefix,
                                stdin=stdin)
        self.running.append(proc)
        return proc

    def report(self) -> str:
        return "\n".join(p.report() for p in self.running)

    @contextlib.contextmanager
    def progressing(self, quiet_s: float = 60, limit_s: float = 600) -> Iterator[None]:
        """Fails the block when none of the processes has printed a line for ``quiet_s`` seconds (a
        stuck match), or after ``limit_s`` in all (a match that never ends although it talks).

        A deadline on the whole match instead fails a match that is only slow on a loaded machine,
        where every process moves on, however slowly: the seconds of the move clocks they run are
        theirs, not the test's, so a mock clock here would not reach them."""
        body = trio.CancelScope(deadline=trio.current_time() + limit_s)
        watcher = trio.CancelScope()
        stuck: list[int] = []

        async def watch() -> None:
            with watcher:
                seen = -1
                while True:
                    printed = sum(len(p.output) for p in self.running)
                    if printed == seen:
                        stuck.append(printed)
                        body.cancel()
                        return
                    seen = printed
                    await trio.sleep(quiet_s)

        self.nursery.start_soon(watch)
        try:
            with body:
                yield
        finally:
            watcher.cancel()
        if body.cancelled_caught:
            why = f"nothing printed for {quiet_s} s" if stuck else f"not over after {limit_s} s"
            raise AssertionError(f"{why}\n{self.report()}")


async def host_port(host: Proc) -> int:
    hosting = await host.until("hosting")
    assert hosting["advertised"] is False  # loopback: never announced on any network
    port: int = hosting["port"]
    return port


def check_journals(seats: Sequence[Proc], game_id: str) -> list[list[str]]:
    """``p2pcards verify --json`` passes every seat's journal, finished, and all hold the same hands
    with the same verdicts; the hands' summaries."""
    verdicts = []
    for seat in seats:
        path = seat.home / "games" / game_id / "journal"
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            code = verify.run(argparse.Namespace(journal=str(path), json=True))
        report = json.loads(printed.getvalue())
        assert code == 0 and report["ok"] and report["finished"], (seat.name, report["problems"])
        assert report["hands"] and all(h["audit"]["ok"] for h in report["hands"])
        verdicts.append([(h["summary"], h["audit"]["ok"]) for h in report["hands"]])
    assert all(v == verdicts[0] for v in verdicts), verdicts
    return [[summary for summary, _ in v] for v in verdicts]


def check_agreement(seats: Sequence[Proc]) -> str:
    """Everyone played the same game to the same end; its id."""
    starts = [s.of("start")[-1] for s in seats]
    game_ids: set[str] = {s["game_id"] for s in starts}
    assert len(game_ids) == 1, game_ids
    digests = {s.of("match_over")[-1]["digest"] for s in seats}
    assert len(digests) == 1, digests
    for seat in seats:
        assert seat.of("hand_over") and all(h["audit"]["ok"] for h in seat.of("hand_over"))
        assert not seat.of("fault")
        assert seat.of("saved")[-1]["finished"] is True
    return game_ids.pop()


# ============================================================================ whole matches


def start_players(options: list[str]) -> int:
    return int(options[options.index("--players") + 1]) if "--players" in options else 4


MATCHES = [
    ("durak", ["--players", "4"]),
    ("spades", ["-o", "target=100"]),
    ("azi", ["--players", "4", "-o", "bankroll=30"]),
]


@pytest.mark.parametrize(("game", "options"), MATCHES)
async def test_a_host_two_joiners_and_a_computer_play_a_whole_match(
    game: str, options: list[str], procs: Procs
) -> None:
    with trio.fail_after(60):
        host = await procs.start("host", "host", game, *options, *LOOPBACK, "--port", "0", "--name", "Hana",
                                 "--admit", "all", "--bots", "easy", "--auto", "easy", "--json",
                                 "--wait-for", "2")
        port = await host_port(host)
        joiners = [
            await procs.start(name, "join", f"127.0.0.1:{port}", "--name", name, "--auto", "easy", "--json")
            for name in ("Ann", "Bob")
        ]
        codes = [await p.finish() for p in (host, *joiners)]
    assert codes == [0, 0, 0], procs.report()
    # Each joiner saw the table and the host's proven fingerprint before it asked for a seat.
    for joiner in joiners:
        kinds = [e["event"] for e in joiner.events]
        assert kinds.index("table") < kinds.index("joining")
        table = joiner.of("table")[0]
        assert table["fingerprint"] == host.of("hosting")[0]["fingerprint"] and table["host"] == "Hana"
        assert (table["game"], table["dealer"], table["players"]) == (game, "mental", start_players(options))
        # ... and, before signing, that the host's laptop runs the computer player (and sees its cards).
        computers = joiner.of("computers")[0]
        assert computers["seats"] == [3] and computers["runner"] == 0 and computers["runner_name"] == "Hana"
    # The host saw each joiner's name with the fingerprint of the key it proved.
    asked = {e["name"]: e["fingerprint"] for e in host.of("request")}
    assert asked == {j.name: j.of("joining")[0]["fingerprint"] for j in joiners}
    assert all(e["trust"] == "new" for e in host.of("request"))
    start = host.of("start")[0]
    assert start["game"] == game and start["dealer"] == "mental" and start["you"] == 0
    assert [s["player"] for s in start["seats"]] == ["you", "player", "player", "computer"]
    assert {s["name"] for s in start["seats"][1:3]} == {"Ann", "Bob"}
    game_id = check_agreement([host, *joiners])
    hands = check_journals([host, *joiners], game_id)
    assert len(hands[0]) == len(host.of("hand_over"))


# ============================================================================ crash and resume


async def test_a_joiner_killed_mid_hand_resumes_and_the_game_ends_for_everyone(procs: Procs) -> None:
    with trio.fail_after(60):
        host = await procs.start("host", "host", "durak", "--players", "4", *LOOPBACK, "--port", "0",
                                 "--admit", "all", "--bots", "easy", "--auto", "easy", "--json",
                                 "--wait-for", "2")
        port = await host_port(host)
        address = f"127.0.0.1:{port}"
        ann = await procs.start("ann", "join", address, "--name", "Ann", "--auto", "easy", "--json")
        await host.until("admitted", name="Ann")  # Ann sits in seat 1, Bob in seat 2
        bob = await procs.start("bob", "join", address, "--name", "Bob", "--auto", "easy", "--json")
        start = await bob.until("start")
        for _ in range(8):
            await bob.until("move", hand=0)
        bob.proc.send_signal(signal.SIGKILL)
        assert await bob.finish() == -signal.SIGKILL
        assert not bob.of("hand_over")  # killed in the middle of the first hand

        again = await procs.start("bob-again", "resume", "--json", home="bob")
        resumed = await again.until("start")
        assert resumed["resumed"] is True and resumed["game_id"] == start["game_id"]
        assert resumed["you"] == start["you"] == 2 and resumed["auto"] == "easy"
        codes = [await p.finish() for p in (host, ann, again)]
    assert codes == [0, 0, 0], procs.report()
    game_id = check_agreement([host, ann, again])
    check_journals([host, ann, again], game_id)
    # The host's computer player keeps a journal of its own too, for the host's own resume.
    assert (host.home / "games" / game_id / "computers" / "seat-3" / "journal").is_file()


async def test_a_person_who_leaves_is_waited_for_and_comes_back_with_resume(procs: Procs) -> None:
    with trio.fail_after(60):
        host = await procs.start("host", "host", "durak", "--players", "3", *LOOPBACK, "--port", "0",
                                 "--admit", "all", "--bots", "easy", "--auto", "easy", "--json",
                                 "--wait-for", "1", "--timeout", "120")
        port = await host_port(host)
        ann = await procs.start("ann", "join", f"127.0.0.1:{port}", "--name", "Ann", "--json", stdin=True)
        turn = await ann.until("turn")
        await ann.send("zz")  # not a move: an error, and the turn stays open
        error = await ann.until("error")
        assert error["input"] == "zz" and "not a move" in error["message"]
        await ann.send("1")
        await ann.until("move", seat=turn["seat"], move=turn["legal"][0])
        await ann.until("turn")
        # Nobody answers: the others see whom the game waits for, and for how long.
        waiting = await host.until("waiting")
        assert waiting["names"] == ["Ann"] and waiting["seconds"] >= 5
        await ann.send("table")
        await ann.send("quit")
        await ann.send("y")
        left = await ann.until("left")
        assert "standings" in left
        assert await ann.finish() == 0
        assert ann.of("saved")[-1]["finished"] is False
        down = await host.until("peer", name="Ann", up=False)
        assert down["seat"] == turn["seat"]

        back = await procs.start("ann-back", "resume", "--auto", "easy", "--json", home="ann")
        assert (await back.until("start"))["resumed"] is True
        codes = [await p.finish() for p in (host, back)]
    assert codes == [0, 0], procs.report()
    game_id = check_agreement([host, back])
    check_journals([host, back], game_id)


# ============================================================================ a private table


async def test_a_private_table_needs_its_join_code(procs: Procs) -> None:
    with trio.fail_after(40):
        host = await procs.start("host", "host", "durak", "--players", "2", *LOOPBACK, "--port", "0",
                                 "--code", "K7Q2-X9", "--admit", "all", "--auto", "easy", "--json")
        port = await host_port(host)
        assert host.of("hosting")[0]["private"] is True
        address = f"127.0.0.1:{port}"
        # The way to join that the host's screen gives includes the code.
        assert host.of("hosting")[0]["join"] == [f"p2pcards join {address} --code K7Q2-X9"]
        bare = await procs.start("bare", "join", address, "--auto", "easy", "--json")
        assert await bare.finish() == 2
        assert any("give its join code with --code CODE" in line for line in bare.output), bare.report()
        wrong = await procs.start("wrong", "join", address, "--code", "0000", "--auto", "easy", "--json")
        assert await wrong.finish() == 2
        assert any("that join code is wrong" in line for line in wrong.output), wrong.report()
        # Codes are read aloud: case, spaces and dashes do not matter.
        ann = await procs.start("ann", "join", address, "--code", "k7 q2 x9", "--name", "Ann",
                                "--auto", "easy", "--json")
        codes = [await p.finish() for p in (host, ann)]
    assert codes == [0, 0], procs.report()
    assert [e["name"] for e in host.of("request")] == ["Ann"]  # the others never reached the host's screen
    check_journals([host, ann], check_agreement([host, ann]))
