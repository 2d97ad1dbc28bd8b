"""A host under attack over loopback keeps serving the one player it means to admit.

A real ``p2pcards host`` process with a private table and a lowered limit of open files (256) gets,
all at once: 1,000 connections that complete the handshake and ask for a seat (from one laptop with
two addresses, with the right code: someone read it off the whiteboard), 60 concurrent guesses of
the code from another address, and 16 sockets from four more that connect and never say a word.
Meanwhile a real ``p2pcards join`` with the code asks for a seat, is admitted, and the two play
the whole match.  The host never
crashes, the guesser tries no more codes than the limit, and the host's memory (RSS, read from
``/proc``) stays bounded.  Several 127.0.0.x source addresses stand for several machines."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import trio

from p2pcards.net.handshake import ANY_BIND, Handshake, HandshakeError, join_code_key
from p2pcards.net.link import LinkError, establish
from p2pcards.net.lobby import MAX_WRONG_CODES
from p2pcards.wire import encode, key_from_seed
from tests.cli.test_lan import LOOPBACK, Procs, check_agreement, check_journals, host_port

CODE = "4821"
FLOOD = 1000
FLOOD_ADDRESSES = 2
GUESSES = 60
STALLED = 16
OPEN_FILES = 256
RSS_GROWTH_LIMIT_MIB = 48
"""Measured growth on this machine: about 10 MiB (see docs/security.md); the bound leaves room."""


def rss_mib(pid: int) -> float | None:
    """The resident memory of a running process, None once it has ended."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except (FileNotFoundError, ProcessLookupError):
        pass
    return None


async def handshake_from(source: str, port: int, bind: bytes, code_key: bytes, seed: int) -> Any:
    """A handshake from ``source`` with a code key given directly (no scrypt: a flood is cheap)."""
    stream = await trio.open_tcp_stream("127.0.0.1", port, local_address=source)
    identity = key_from_seed(seed.to_bytes(32, "big"))
    return await establish(stream, Handshake("dialer", identity, bind=bind, code_key=code_key), timeout=30)


async def test_a_host_under_a_flood_keeps_serving_the_player_it_admits(procs: Procs, tmp_path: Path) -> None:
    outcomes: dict[str, list[str]] = {"flood": [], "guess": []}
    held: list[trio.SocketStream] = []
    with trio.fail_after(120):
        host = await procs.start(
            "host", "host", "durak", "--players", "2", *LOOPBACK, "--port", "0", "--code", CODE, "--name",
            "Hana", "--auto", "easy", "--json", "--timeout", "60",
            prefix=["prlimit", f"--nofile={OPEN_FILES}:{OPEN_FILES}", "--"], stdin=True,
        )  # fmt: skip
        port = await host_port(host)
        lobby_id = await _lobby_id(port)
        right = join_code_key(CODE, lobby_id)
        start = rss_mib(host.proc.pid)
        assert start is not None
        before = peak = start

        async def watch_memory() -> None:
            nonlocal peak
            while (now := rss_mib(host.proc.pid)) is not None:
                peak = max(peak, now)
                await trio.sleep(0.05)

        async def join_request(i: int) -> None:
            source = f"127.0.5.{i % FLOOD_ADDRESSES + 1}"
            try:
                link = await handshake_from(source, port, lobby_id, right, 10_000 + i)
            except (HandshakeError, LinkError, OSError) as exc:
                outcomes["flood"].append(str(exc))
                return
            try:
                await link.send_now(encode({"t": "join", "name": f"Flood {i}", "port": 1000}))
                while (await link.receive()) is not None:
                    pass
                outcomes["flood"].append("closed")
            except LinkError as exc:
                outcomes["flood"].append(str(exc))
            finally:
                await link.aclose()

        async def guess(i: int) -> None:
            try:
                link = await handshake_from("127.0.6.1", port, lobby_id, os.urandom(32), 20_000 + i)
            except HandshakeError as exc:
                outcomes["guess"].append(exc.detail or exc.why.value)
            except (LinkError, OSError) as exc:
                outcomes["guess"].append(str(exc))
            else:
                await link.aclose()
                outcomes["guess"].append("in")

        async with trio.open_nursery() as attack:
            attack.start_soon(watch_memory)
            for i in range(STALLED):
                source = f"127.0.7.{i % 4 + 1}"
                held.append(await trio.open_tcp_stream("127.0.0.1", port, local_address=source))
            for i in range(GUESSES):
                attack.start_soon(guess, i)
            for i in range(FLOOD):
                attack.start_soon(join_request, i)
            # While it all arrives, the player the host means to admit asks for a seat.
            legit = await procs.start("legit", "join", f"127.0.0.1:{port}", "--code", CODE, "--name", "Lea",
                                      "--auto", "easy", "--json")  # fmt: skip
            request = await host.until("request", name="Lea")
            await host.send(f"admit {request['number']}")
            codes = [await p.finish() for p in (host, legit)]
            attack.cancel_scope.cancel()
        for stream in held:
            await stream.aclose()
    assert codes == [0, 0], procs.report()
    check_journals([host, legit], check_agreement([host, legit]))
    # The guesser got a verdict on at most the limit of codes; every other guess was turned away.
    verdicts = [g for g in outcomes["guess"] if g == "wrong join code"]
    assert len(verdicts) <= MAX_WRONG_CODES and "in" not in outcomes["guess"], outcomes["guess"]
    assert len(outcomes["guess"]) == GUESSES
    # The host's screen saw only a bounded number of the flood's requests.
    assert len([e for e in host.of("request") if e["name"].startswith("Flood")]) < FLOOD // 10
    growth = peak - before
    print(f"host RSS {before:.1f} MiB before the flood, peak {peak:.1f} MiB (+{growth:.1f} MiB)")
    for kind, seen in outcomes.items():
        counts: dict[str, int] = {}
        for outcome in seen:
            counts[outcome[:70]] = counts.get(outcome[:70], 0) + 1
        print(kind, sorted(counts.items(), key=lambda kv: -kv[1]))
    assert growth < RSS_GROWTH_LIMIT_MIB, (before, peak)


async def _lobby_id(port: int) -> bytes:
    """The lobby's id, as the host's hello tells anyone who tries a code (this one is wrong)."""
    stream = await trio.open_tcp_stream("127.0.0.1", port, local_address="127.0.8.1")
    handshake = Handshake("dialer", key_from_seed(b"\x09" * 32), bind=ANY_BIND, code="0000")
    with pytest.raises(HandshakeError):
        await establish(stream, handshake)
    assert handshake.bind is not None and handshake.bind != ANY_BIND
    return handshake.bind
