"""Move latency over loopback: ``python -m tests.net.latency [PEERS] [GAMES] [DEALER]``.

A thin wrapper over ``p2pcards.bench.net`` (``p2pcards bench net`` measures the same and more): for
every move, the time from its ``local_action`` to the moment each peer has applied it.  Not a test:
speed is measured, not asserted.
"""

from __future__ import annotations

import sys

import trio

from p2pcards.bench.net import latency


async def main(peers: int, games: int, dealer: str) -> None:
    result = await latency(peers, dealer, games)
    print(f"{peers} peers, {games} games, {dealer} dealer")
    for label, key in (("each other peer", "each_peer"), ("every peer", "every_peer")):
        s = result[key]
        print(
            f"  until {label}: {s['samples']} samples, p50 {s['p50_ms']:.1f} ms, p90 {s['p90_ms']:.1f} ms, "
            f"p99 {s['p99_ms']:.1f} ms, max {s['max_ms']:.1f} ms"
        )


if __name__ == "__main__":
    args = sys.argv[1:]
    trio.run(
        main,
        int(args[0]) if args else 4,
        int(args[1]) if len(args) > 1 else 5,
        args[2] if len(args) > 2 else "mental",
    )
