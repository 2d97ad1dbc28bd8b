"""Move latency over loopback: ``python -m tests.net.latency [PEERS] [GAMES] [DEALER]``.

For every move made by a computer seat, the time from its ``local_action`` to the moment each peer
has applied it (the action step sealed, and when the move shows a card, the reveal round after it
too).  All nodes run in one process, so they share one clock; the numbers include signing,
verification, journalling (in memory), framing and loopback TCP, and are an upper bound for the
network part because every peer competes for the same CPU.  Not a test: speed is measured, not asserted.
"""

from __future__ import annotations

import statistics
import sys

import trio

from .helpers import genesis_for, identities, make_mesh


async def one_game(peers: int, seed: int, dealer: str) -> tuple[list[float], list[float]]:
    """Per (move, other peer) latencies, and per move the latency until the last peer has it."""
    ids = identities(peers, tag=40 + seed)
    g = genesis_for(ids, "durak", dealer=dealer, seed=seed)
    mesh = await make_mesh(g, ids)
    for node in mesh.nodes:
        node.trace = []
    async with trio.open_nursery() as nursery:
        for node in mesh.nodes:
            nursery.start_soon(node.run)
        await mesh.all_finished()
        nursery.cancel_scope.cancel()
    kinds = {s.number: s.messages[0].kind for s in mesh.nodes[0].table.chain.steps}
    acts = [
        (t, step, i)
        for i, node in enumerate(mesh.nodes)
        for t, what, step in node.trace or []
        if what == "act"
    ]
    applied = [{step: t for t, what, step in node.trace or [] if what == "applied"} for node in mesh.nodes]
    samples, everyone = [], []
    for t0, step, actor in acts:
        target = step + 1 if kinds.get(step + 1) == "reveal" else step
        these = [
            (seen[target] - t0) * 1000 for i, seen in enumerate(applied) if i != actor and target in seen
        ]
        samples += these
        if len(these) == peers - 1:
            everyone.append(max(these))
    return samples, everyone


async def main(peers: int, games: int, dealer: str) -> None:
    samples: list[float] = []
    everyone: list[float] = []
    for seed in range(1, games + 1):
        per_peer, all_peers = await one_game(peers, seed, dealer)
        samples += per_peer
        everyone += all_peers
    print(f"{peers} peers, {games} games, {dealer} dealer")
    for label, values in (("each other peer", samples), ("every peer", everyone)):
        values.sort()
        q = statistics.quantiles(values, n=100)
        print(
            f"  until {label}: {len(values)} samples, p50 {q[49]:.1f} ms, p90 {q[89]:.1f} ms, "
            f"p99 {q[98]:.1f} ms, max {values[-1]:.1f} ms"
        )


if __name__ == "__main__":
    args = sys.argv[1:]
    trio.run(
        main,
        int(args[0]) if args else 4,
        int(args[1]) if len(args) > 1 else 5,
        args[2] if len(args) > 2 else "mental",
    )
