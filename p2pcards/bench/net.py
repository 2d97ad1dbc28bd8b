"""``p2pcards bench net``: move latency over loopback, and how long mDNS discovery takes.

**Move latency.**  For each table size, ``repeat`` Durak matches between computer seats (random legal
moves, mental-poker dealer), every seat a real ``Node`` on a loopback TCP mesh, all in one trio run so
that they share one clock.  For every move: the time from its ``local_action`` to the moment each other
peer has applied it (the action step sealed, and when the move shows a card, the reveal round after it
too); "every peer" is the time until the last of them has.  The numbers include signing,
verification, journalling (in memory), framing and loopback TCP, and are an upper bound for the
network part because every peer competes for the same CPU.

**Discovery.**  ``announce``: a browser is already watching when a table starts advertising; the time
from the ``advertise`` call (name probing included) until the browser reports the table.  ``browse``:
the table is already advertised; the time from the ``browse`` call until it is reported.  Measured
on one host over loopback (if zeroconf can use multicast there; otherwise the result says why), and
between two hosts of a bridged LAN of network namespaces made for the run (root and ``ip`` needed;
otherwise the result says why).  Each host of that LAN is a child process
(``python -m p2pcards.bench.net agent ...``); both sides read ``time.monotonic``, one clock for the
whole machine.  Nothing is created in the machine's own namespace; every namespace, process, socket
and task is removed or closed before ``run`` returns, also on error.

**Joining.**  What a person waits for: a table that has been up for a while (``UP_FOR`` seconds, past
the responder's one-second rate limit that dominates a browse right after registering), then
``p2pcards join NAME`` typed on the other host; the time from starting that command (Python's own
start-up and imports included) until the host's process reports the request, which is when its
admission prompt appears.  Both are real ``p2pcards`` processes in the namespaces, with data
directories of their own; the host refuses each joiner, who exits, and the next round begins.

Progress goes to standard error while it runs (``progress``), so that the result on standard output
stays plain.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any, Final

import trio

from p2pcards.net import testbed

__all__ = ["CASES", "format_table", "latency", "run"]

Progress = Callable[[str], None]


def _to_stderr(text: str) -> None:
    print(f"bench net: {text}", file=sys.stderr, flush=True)


def _quiet(text: str) -> None:
    pass

#: (peers, dealer) of the latency cases.
CASES: Final[tuple[tuple[int, str], ...]] = ((4, "mental"), (6, "mental"))
GAME: Final = "durak"
LOOPBACK: Final = "127.0.0.1"
GAME_TIMEOUT: Final = 60.0
"""Seconds one match may take before the bench gives up on it (it should take one to three)."""
DISCOVERY_TIMEOUT: Final = 10.0
"""Seconds to wait for one sighting before calling discovery unavailable."""
MAX_DISCOVERY_ROUNDS: Final = 3
"""Discovery rounds per setting, whatever ``repeat`` is (each costs about a second of probing)."""
SUBNET: Final = "10.214.0"
UP_FOR: Final = 3.0
"""Seconds the table is up before the first ``join`` of the joining measurement."""
BETWEEN_JOINS: Final = 1.5
"""Seconds between two joins (each one is refused by the host, and its process ends)."""
JOIN_TIMEOUT: Final = 30.0
"""Seconds one ``join`` may take to reach the host before the bench gives up on it."""
_FINGERPRINT: Final = "BNCH-AAAA-BBBB-CCCC"
_ROOT: Final = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------------------------- statistics


def _summary(values: Sequence[float]) -> dict[str, Any]:
    """Count, p50, p90, p99 and max in ms (two decimals); percentiles are 0 with no sample.

    Inclusive percentiles: never outside the samples, even with only a few."""
    data = sorted(values)
    if not data:
        return {"samples": 0, "p50_ms": 0.0, "p90_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0}
    q = statistics.quantiles(data, n=100, method="inclusive") if len(data) > 1 else [data[0]] * 99
    return {
        "samples": len(data),
        "p50_ms": round(q[49], 2),
        "p90_ms": round(q[89], 2),
        "p99_ms": round(q[98], 2),
        "max_ms": round(data[-1], 2),
    }


# ---------------------------------------------------------------------------------- latency


async def _one_game(peers: int, seed: int, dealer: str) -> tuple[list[float], list[float]]:
    """Per (move, other peer) latencies in ms, and per move the latency until the last peer has it."""
    from p2pcards.ai.base import RandomPlayer
    from p2pcards.net.node import Chooser, Node, open_listener
    from p2pcards.store import MemoryStore
    from p2pcards.table.genesis import make_genesis
    from p2pcards.wire import key_from_seed, public_bytes

    ids = [key_from_seed(bytes([200 + peers, seed % 256, i + 1]) * 8 + bytes(8)) for i in range(peers)]
    genesis = make_genesis(
        GAME,
        [(f"p{i}", public_bytes(k)) for i, k in enumerate(ids)],
        dealer=dealer,
        seed=seed,
        nonce=seed.to_bytes(8, "big"),
    )
    rules = genesis.rules()

    def chooser(seat: int) -> Chooser:
        player = RandomPlayer(rules, seed * 10 + seat)
        return lambda view: rules.action_text(player.choose(view))

    listeners: list[trio.SocketListener] = []
    try:
        for _ in range(peers):
            listeners.append(await open_listener(LOOPBACK))
        addresses = {i: (LOOPBACK, lst.socket.getsockname()[1]) for i, lst in enumerate(listeners)}
        nodes = [
            Node(
                genesis,
                i,
                ids[i],
                MemoryStore(),
                listener=listeners[i],
                addresses=addresses,
                chooser=chooser(i),
            )
            for i in range(peers)
        ]
        for node in nodes:
            node.trace = []
        with trio.fail_after(GAME_TIMEOUT):
            async with trio.open_nursery() as nursery:
                for node in nodes:
                    nursery.start_soon(node.run)
                for node in nodes:
                    await node.finished.wait()
                nursery.cancel_scope.cancel()
    finally:
        with trio.CancelScope(shield=True):
            for lst in listeners:  # the nodes close theirs; this covers a failure before they ran
                await lst.aclose()
    faults = [n.table.fault for n in nodes if n.table.fault is not None]
    if faults or not all(n.table.over for n in nodes):
        raise RuntimeError(f"the benchmark match did not end cleanly: {faults!r}")
    kinds = {s.number: s.messages[0].kind for s in nodes[0].table.chain.steps}
    applied = [{step: t for t, what, step in node.trace or [] if what == "applied"} for node in nodes]
    samples: list[float] = []
    everyone: list[float] = []
    for actor, node in enumerate(nodes):
        for t0, what, step in node.trace or []:
            if what != "act":
                continue
            target = step + 1 if kinds.get(step + 1) == "reveal" else step
            these = [
                (seen[target] - t0) * 1000 for i, seen in enumerate(applied) if i != actor and target in seen
            ]
            samples += these
            if len(these) == peers - 1:
                everyone.append(max(these))
    return samples, everyone


async def latency(peers: int, dealer: str, games: int, progress: Progress = _quiet) -> dict[str, Any]:
    samples: list[float] = []
    everyone: list[float] = []
    start = time.perf_counter()
    for seed in range(1, games + 1):
        progress(f"move latency, {peers} peers: match {seed} of {games}…")
        per_peer, all_peers = await _one_game(peers, seed, dealer)
        samples += per_peer
        everyone += all_peers
    return {
        "peers": peers,
        "dealer": dealer,
        "game": GAME,
        "games": games,
        "moves": len(everyone),
        "wall_s": round(time.perf_counter() - start, 2),
        "each_peer": _summary(samples),
        "every_peer": _summary(everyone),
    }


# ---------------------------------------------------------------------------------- discovery


def _ad(name: str) -> Any:
    from p2pcards.net.discovery import TableAd

    return TableAd(name, GAME, (("players", "4"),), 4, 3, _FINGERPRINT, b"B" * 32, port=4242)


async def _sighted(sightings: trio.MemoryReceiveChannel[Any], name: str) -> float:
    """``time.monotonic()`` when ``name`` first appears on ``sightings``."""
    from p2pcards.net.discovery import Appeared

    async for s in sightings:
        if isinstance(s, Appeared) and s.ad.name == name:
            return time.monotonic()
    raise RuntimeError("the browser stopped")


async def _announce_once(ip: str, name: str) -> float:
    """ms from ``advertise`` to the sighting, a browser on ``ip`` already watching."""
    from p2pcards.net.discovery import advertise, browse

    async with browse([ip]) as sightings:
        t0 = time.monotonic()
        async with advertise(_ad(name), [ip]) as adv:
            with trio.fail_after(DISCOVERY_TIMEOUT):
                return (await _sighted(sightings, adv.name) - t0) * 1000


async def _browse_once(ip: str, name: str) -> float:
    """ms from ``browse`` to the sighting of a table already advertised on ``ip``."""
    from p2pcards.net.discovery import advertise, browse

    async with advertise(_ad(name), [ip]) as adv:
        t0 = time.monotonic()
        async with browse([ip]) as sightings:
            with trio.fail_after(DISCOVERY_TIMEOUT):
                return (await _sighted(sightings, adv.name) - t0) * 1000


def _discovery_result(announce: list[float], browse_: list[float], where: str) -> dict[str, Any]:
    return {
        "available": True,
        "where": where,
        "note": None,
        "announce": _summary(announce),
        "browse": _summary(browse_),
    }


def _unavailable(where: str, note: str) -> dict[str, Any]:
    return {"available": False, "where": where, "note": note, "announce": None, "browse": None}


async def _discovery_loopback(rounds: int) -> dict[str, Any]:
    where = "one host, 127.0.0.1"
    try:
        import zeroconf  # noqa: F401
    except ImportError:
        return _unavailable(where, "zeroconf is not installed")
    announce: list[float] = []
    browse_: list[float] = []
    try:
        for i in range(rounds):
            announce.append(await _announce_once(LOOPBACK, f"bench lo a{os.getpid()}-{i}"))
            browse_.append(await _browse_once(LOOPBACK, f"bench lo b{os.getpid()}-{i}"))
    except trio.TooSlowError:
        return _unavailable(
            where,
            f"no sighting within {DISCOVERY_TIMEOUT:g} s: zeroconf cannot use multicast on loopback here"
            " (the interface has no MULTICAST flag); the namespace measurement is the one that counts",
        )
    except (OSError, RuntimeError) as e:
        return _unavailable(where, f"zeroconf could not run on loopback: {type(e).__name__}: {e}")
    return _discovery_result(announce, browse_, where)


# --- namespaces: a bridged LAN of two hosts, each a child process in its own namespace


def namespaces_unavailable() -> str | None:
    """Why a LAN of namespaces cannot be made here (as a note in the result), or None."""
    reason = testbed.unavailable()
    return None if reason is None else f"skipped: {reason}"


class _Agent:
    """A child process in a namespace (``python -m p2pcards.bench.net agent ...``, or ``p2pcards``
    itself), read as JSON lines (those starting with ``prefix``; ``@`` for the agent)."""

    def __init__(self, proc: trio.Process, prefix: str = "@") -> None:
        self.proc = proc
        self.prefix = prefix
        self._buffer = b""
        self.output: list[str] = []

    async def next(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        while b"\n" not in self._buffer:
            data = await self.proc.stdout.receive_some(65536)
            if not data:
                raise RuntimeError("a discovery agent ended: " + " | ".join(self.output[-5:]))
            self._buffer += data
        raw, self._buffer = self._buffer.split(b"\n", 1)
        line = raw.decode(errors="replace")
        self.output.append(line)
        if line.startswith(self.prefix):
            event: dict[str, Any] = json.loads(line[1:] if self.prefix == "@" else line)
            return event
        return await self.next()

    async def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        await self.proc.stdin.send_all(line.encode() + b"\n")

    async def until(self, event: str, name: str | None = None) -> dict[str, Any]:
        while True:
            got = await self.next()
            if got["event"] == event and (name is None or got.get("name") == name):
                return got

    async def stop(self) -> None:
        """Close its input (it withdraws and exits), kill it if it lingers, reap it."""
        with trio.CancelScope(shield=True):
            if self.proc.stdin is not None:
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                    await self.proc.stdin.aclose()
            with trio.move_on_after(5):
                await self.proc.wait()
            if self.proc.returncode is None:
                self.proc.kill()
                await self.proc.wait()
            if self.proc.stdout is not None:
                await self.proc.stdout.aclose()


@contextlib.asynccontextmanager
async def _agent(
    host: testbed.Host, *args: str, module: str = "p2pcards.bench.net", home: str | None = None
) -> AsyncIterator[_Agent]:
    env = {**os.environ, "PYTHONPATH": str(_ROOT), "PYTHONUNBUFFERED": "1"}
    if home is not None:
        env["P2PCARDS_HOME"] = home
    extra = ("agent",) if module == "p2pcards.bench.net" else ()
    proc = await trio.lowlevel.open_process(
        host.command(sys.executable, "-m", module, *extra, *args),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
    )
    agent = _Agent(proc, "@" if module == "p2pcards.bench.net" else "{")
    try:
        yield agent
    finally:
        await agent.stop()


async def _discovery_namespaces(rounds: int) -> dict[str, Any]:
    where = "two network namespaces on a bridge"
    reason = namespaces_unavailable()
    if reason is not None:
        return _unavailable(where, reason)
    try:
        import zeroconf  # noqa: F401
    except ImportError:
        return _unavailable(where, "zeroconf is not installed")
    announce: list[float] = []
    browse_: list[float] = []
    try:
        with contextlib.contextmanager(testbed.lan)(2, "bench", SUBNET) as made:
            host, guest = made.hosts
            with trio.fail_after(DISCOVERY_TIMEOUT * (2 * rounds + 2)):
                # announce: the guest browses throughout; the host advertises a new table each round
                async with _agent(guest, "browse", guest.address) as browser:
                    await browser.until("browsing")
                    for i in range(rounds):
                        name = f"bench ns a{i}"
                        async with _agent(host, "advertise", host.address, name) as adv:
                            t0 = (await adv.until("advertising"))["t"]
                            with trio.fail_after(DISCOVERY_TIMEOUT):
                                seen = await browser.until("appeared", name)
                            announce.append((seen["t"] - t0) * 1000)
                # browse: the host advertises throughout; a new browser starts each round
                async with _agent(host, "advertise", host.address, "bench ns b") as adv:
                    await adv.until("registered")
                    for _ in range(rounds):
                        async with _agent(guest, "browse", guest.address) as browser:
                            t0 = (await browser.until("browsing"))["t0"]
                            with trio.fail_after(DISCOVERY_TIMEOUT):
                                seen = await browser.until("appeared", "bench ns b")
                            browse_.append((seen["t"] - t0) * 1000)
    except subprocess.SubprocessError as e:
        detail = (
            e.stderr.decode(errors="replace").strip() if isinstance(e, subprocess.CalledProcessError) else ""
        )
        return _unavailable(where, f"could not make the namespaces: {e} {detail}".strip())
    except trio.TooSlowError:
        return _unavailable(where, f"no sighting within {DISCOVERY_TIMEOUT:g} s between the namespaces")
    except RuntimeError as e:
        return _unavailable(where, str(e))
    return _discovery_result(announce, browse_, where)


async def _join_namespaces(rounds: int, progress: Progress) -> dict[str, Any]:
    """``p2pcards join NAME`` on one host until the request reaches the host of a table up a while."""
    where = "two network namespaces on a bridge"
    reason = namespaces_unavailable()
    if reason is not None:
        return {"available": False, "where": where, "note": reason, "to_prompt": None}
    ways: dict[str, list[float]] = {way: [] for way, _ in _ways("")}
    try:
        with (
            tempfile.TemporaryDirectory(prefix="p2pcards-bench-") as homes,
            contextlib.contextmanager(testbed.lan)(2, "join", "10.214.1") as made,
            trio.fail_after(JOIN_TIMEOUT * len(ways) * (rounds + 1) + UP_FOR),
        ):
            host, guest = made.hosts
            async with _agent(
                host, "host", "durak", "--players", "3", "--name", "Hana", "--interface", host.address,
                "--json", module="p2pcards", home=os.path.join(homes, "host"),
            ) as hosting:  # fmt: skip
                await hosting.until("hosting")
                progress(f"joining: the table is up; waiting {UP_FOR:g} s before the first join…")
                await trio.sleep(UP_FOR)
                for i in range(rounds):
                    for way, table in _ways(host.address):
                        shown = " ".join(shlex.quote(w) for w in table) or "(no table named)"
                        progress(f"joining: `p2pcards join {shown}`, round {i + 1} of {rounds}…")
                        t0 = time.monotonic()
                        async with _agent(
                            guest, "join", *table, "--name", f"Joiner {i}", "--interface", guest.address,
                            "--json", module="p2pcards", home=os.path.join(homes, f"j{i}{way}"),
                        ) as joining:  # fmt: skip
                            await hosting.until("request")
                            ways[way].append((time.monotonic() - t0) * 1000)
                            await hosting.send("n")
                            with trio.move_on_after(10):
                                await joining.proc.wait()
                        await trio.sleep(BETWEEN_JOINS)
    except subprocess.SubprocessError as e:
        return {"available": False, "where": where, "note": f"could not make the namespaces: {e}",
                "to_prompt": None}  # fmt: skip
    except trio.TooSlowError:
        return {"available": False, "where": where, "note": f"a join took over {JOIN_TIMEOUT:g} s",
                "to_prompt": None}  # fmt: skip
    except RuntimeError as e:
        return {"available": False, "where": where, "note": str(e), "to_prompt": None}
    summary = _summary(ways["name"])
    return {"available": True, "where": where, "note": None, "up_for_s": UP_FOR, "to_prompt": summary,
            "ways": {way: _summary(samples) for way, samples in ways.items()}}


def _ways(address: str) -> list[tuple[str, list[str]]]:
    """Every way of naming the table to ``join``: its whole name, a part of it, nothing (the only
    table around), and the host's address (with its port, and alone)."""
    return [("name", ["Hana's table"]), ("part", ["hana"]), ("none", []), ("address", [address])]


# --- the agent side (child process)


def _say(**fields: Any) -> None:
    print("@" + json.dumps(fields), flush=True)


async def _until_eof() -> None:
    stdin = trio.lowlevel.FdStream(os.dup(0))
    try:
        while await stdin.receive_some(4096):
            pass
    finally:
        await stdin.aclose()


async def _agent_main(*argv: str) -> None:
    command, ip, name = (*argv, "")[:3]
    from p2pcards.net.discovery import Appeared, advertise, browse

    if command == "advertise":
        t0 = time.monotonic()
        _say(event="advertising", t=t0)
        async with advertise(_ad(name), [ip]) as adv:
            _say(event="registered", name=adv.name, t=time.monotonic())
            await _until_eof()
    elif command == "browse":
        t0 = time.monotonic()
        async with browse([ip]) as sightings, trio.open_nursery() as nursery:
            _say(event="browsing", t0=t0)

            async def stop_at_eof() -> None:
                await _until_eof()
                nursery.cancel_scope.cancel()

            nursery.start_soon(stop_at_eof)
            async for s in sightings:
                if isinstance(s, Appeared):
                    _say(event="appeared", name=s.ad.name, t=time.monotonic())
    else:
        raise SystemExit(f"unknown agent command {command!r}")


# ---------------------------------------------------------------------------------- the bench


async def _run(
    repeat: int, peers: Sequence[int], discovery: bool, namespaces: bool, progress: Progress
) -> dict[str, Any]:
    cases = [await latency(p, dealer, repeat, progress) for p, dealer in CASES if p in peers]
    cases += [await latency(p, "mental", repeat, progress) for p in peers if p not in {c[0] for c in CASES}]
    rounds = max(1, min(repeat, MAX_DISCOVERY_ROUNDS))
    skipped = "not measured (not asked for)"
    if discovery:
        progress("discovery on one host (127.0.0.1)…")
    loopback = await _discovery_loopback(rounds) if discovery else _unavailable("one host", skipped)
    spaces = _unavailable("namespaces", skipped)
    if discovery and namespaces:
        progress("discovery between two network namespaces…")
        spaces = await _discovery_namespaces(rounds)
    if namespaces:
        joining = await _join_namespaces(rounds, progress)
    else:
        joining = {"available": False, "where": "namespaces", "note": skipped, "to_prompt": None}
    progress("done.")
    return {
        "repeat": repeat,
        "clock": "monotonic wall clock; all peers in one process",
        "latency": cases,
        "discovery": {"rounds": rounds, "loopback": loopback, "namespaces": spaces},
        "join": {"rounds": rounds, **joining},
    }


def run(
    repeat: int = 3,
    *,
    peers: Sequence[int] = (4, 6),
    discovery: bool = True,
    namespaces: bool = True,
    progress: Progress = _to_stderr,
) -> dict[str, Any]:
    """``repeat`` matches per table size and up to three discovery and joining rounds per setting;
    plain JSON.  ``progress`` is told what is being measured as it goes (standard error by default)."""
    if repeat < 1:
        raise ValueError("repeat must be at least 1")
    return trio.run(_run, repeat, tuple(peers), discovery, namespaces, progress)


def _ms(s: dict[str, Any]) -> str:
    return f"{s['p50_ms']:.1f} / {s['p99_ms']:.1f}"


_COLUMNS: tuple[tuple[str, Callable[[dict[str, Any]], str]], ...] = (
    ("peers", lambda c: str(c["peers"])),
    ("dealer", lambda c: c["dealer"]),
    ("games", lambda c: str(c["games"])),
    ("moves", lambda c: str(c["moves"])),
    ("each other peer p50 / p99 ms", lambda c: _ms(c["each_peer"])),
    ("every peer p50 / p99 ms", lambda c: _ms(c["every_peer"])),
    ("max ms", lambda c: f"{c['every_peer']['max_ms']:.1f}"),
)


def format_table(result: dict[str, Any]) -> str:
    """The latency table, then one line per discovery setting."""
    rows = [[name for name, _ in _COLUMNS]]
    rows += [[cell(c) for _, cell in _COLUMNS] for c in result["latency"]]
    widths = [max(len(r[i]) for r in rows) for i in range(len(_COLUMNS))]
    lines = ["  ".join(cell.rjust(w) for cell, w in zip(r, widths, strict=True)) for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines += ["", f"move latency over loopback TCP, {GAME}; {result['clock']}", ""]
    d = result["discovery"]
    lines.append(f"discovery ({d['rounds']} rounds; median / max ms):")
    for key in ("loopback", "namespaces"):
        r = d[key]
        if r["available"]:
            a, b = r["announce"], r["browse"]
            lines.append(
                f"  {r['where']}: announce {a['p50_ms']:.0f} / {a['max_ms']:.0f}, "
                f"browse {b['p50_ms']:.0f} / {b['max_ms']:.0f}"
            )
        else:
            lines.append(f"  {r['where']}: {r['note']}")
    j = result["join"]
    lines.append("")
    if j["available"]:
        t = j["to_prompt"]
        lines.append(
            f"join NAME to the host's prompt ({j['rounds']} rounds, table up {j['up_for_s']:g} s first), "
            f"{j['where']}: median {t['p50_ms']:.0f} ms, max {t['max_ms']:.0f} ms"
        )
        for way, w in j.get("ways", {}).items():
            if way != "name" and w["samples"]:
                lines.append(f"  join by {way}: median {w['p50_ms']:.0f} ms, max {w['max_ms']:.0f} ms")
    else:
        lines.append(f"join NAME to the host's prompt: {j['note']}")
    return "\n".join(lines)


if __name__ == "__main__":
    if sys.argv[1:2] == ["agent"]:
        trio.run(_agent_main, *sys.argv[2:5])
    else:
        print(format_table(run()))
