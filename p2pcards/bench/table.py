"""A hand through the whole stack: 4 peers in one process, each a real ``Table`` with the mental-poker
dealer, journalling to disk; where the time goes (crypto, engine, wire, journal) and what crosses
the network (frames, bytes).

Time is split by wrapping the entry points of each layer for the length of the run; a call inside
another category's call is charged to the inner one only (an exclusive profile), and everything
not wrapped (the table's own bookkeeping, the in-memory transport) is ``other``.
"""

from __future__ import annotations

import platform
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from p2pcards import deal, games
from p2pcards.games.rng import Rng
from p2pcards.room import interpret
from p2pcards.store.game import GameStore
from p2pcards.table import ingest, signer
from p2pcards.table import outputs as out
from p2pcards.table.genesis import make_genesis
from p2pcards.table.replica import Table
from p2pcards.wire import Chain, key_from_seed, public_bytes

CATEGORIES = ("crypto", "engine", "wire", "journal", "other")
CASES: tuple[tuple[str, int, dict[str, Any]], ...] = (("spades", 4, {}), ("durak", 4, {}))

_DEAL_FUNCTIONS = (
    "shuffle",
    "verify_shuffle_chain",
    "make_share",
    "verify_share",
    "open_card",
    "announce_key",
    "verify_key",
    "key_commitment",
    "verify_key_commitment",
    "initial_deck",
    "joint_key",
    "coin_commitment",
    "verify_coin_reveal",
    "coin_value",
    "coin_below",
    "new_hand_key",
)
_ENGINE_METHODS = (
    "apply",
    "fulfil",
    "observe",
    "view",
    "record",
    "legal_actions",
    "reveals",
    "zones",
    "digest",
)


class _Clock:
    """Exclusive time per category: entering a category pauses the one it was called from."""

    def __init__(self) -> None:
        self.spent = dict.fromkeys(CATEGORIES, 0.0)
        self._stack: list[tuple[str, float]] = []

    def wrap(self, category: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            now = time.perf_counter()
            if self._stack:
                outer, since = self._stack[-1]
                self.spent[outer] += now - since
            self._stack.append((category, now))
            try:
                return fn(*args, **kwargs)
            finally:
                end = time.perf_counter()
                cat, since = self._stack.pop()
                self.spent[cat] += end - since
                if self._stack:
                    self._stack[-1] = (self._stack[-1][0], end)

        return timed


@contextmanager
def _patched(clock: _Clock, state_type: type) -> Iterator[None]:
    saved: list[tuple[Any, str, Any]] = []

    def patch(owner: Any, name: str, category: str) -> None:
        original = getattr(owner, name)
        saved.append((owner, name, original))
        setattr(owner, name, clock.wrap(category, original))

    for name in _DEAL_FUNCTIONS:
        patch(deal, name, "crypto")
    for name in _ENGINE_METHODS:
        patch(state_type, name, "engine")
    patch(games.Rules, "audit", "engine")
    patch(ingest, "authenticate", "wire")
    patch(signer, "sign", "wire")
    patch(Chain, "offer", "wire")
    patch(GameStore, "persist", "journal")
    patch(GameStore, "keep", "journal")
    try:
        yield
    finally:
        for owner, name, original in reversed(saved):
            setattr(owner, name, original)


def _one_hand(game: str, n: int, options: dict[str, Any], seed: int, home: str) -> dict[str, Any]:
    ids = [key_from_seed(Rng(f"bench/{seed}/{i}").next64().to_bytes(8, "big") * 4) for i in range(n)]
    genesis = make_genesis(
        game,
        [(f"p{i}", public_bytes(k)) for i, k in enumerate(ids)],
        options=options,
        nonce=seed.to_bytes(8, "big"),
    )
    tables = [Table(genesis, i, ids[i]) for i in range(n)]
    stores = [GameStore.open(genesis.game_id, f"{home}/{i}") for i in range(n)]
    rng = Rng(seed)
    queue: deque[tuple[int, int, bytes]] = deque()
    counts = {"messages": 0, "frames": 0, "bytes": 0}
    done = [False] * n

    class Bench:
        """The room's scheduler for one timed hand: a FIFO of frames, turns played at random."""

        def persist(self, seat: int, payload: bytes, own: bool) -> None:
            stores[seat].persist(payload, own)
            counts["messages"] += own

        def keep(self, seat: int, label: str, secret: bytes) -> None:
            stores[seat].keep(label, secret)

        def send(self, seat: int, payload: bytes, to: int | None) -> None:
            for j in range(n):
                if j != seat and (to is None or to == j):
                    queue.append((j, seat, payload))
                    counts["frames"] += 1
                    counts["bytes"] += len(payload) + 4

        def turn(self, seat: int, turn: out.YourTurn) -> None:
            text = tables[seat].rules.action_text(rng.choice(list(turn.view.legal_actions)))
            interpret(seat, tables[seat].local_action(text), self)

        def event(self, seat: int, event: out.Event) -> None:
            if isinstance(event, (out.HandOver, out.MatchOver, out.Fault)):
                done[seat] = True

    bench = Bench()

    def handle(i: int, outputs: list[out.Output]) -> None:
        interpret(i, outputs, bench)

    clock = _Clock()
    started = time.perf_counter()
    with _patched(clock, type(games.load(game, **options).new_match(0).new_hand())):
        for i, t in enumerate(tables):
            handle(i, t.start())
        while queue and not all(done):
            j, i, payload = queue.popleft()
            handle(j, tables[j].receive(i, payload))
    wall = time.perf_counter() - started
    for s in stores:
        s.close()
    if len({t.digest() for t in tables}) != 1:
        raise RuntimeError("the replicas disagree: the benchmark measured a broken run")
    split = {k: v for k, v in clock.spent.items() if k != "other"}
    split["other"] = max(wall - sum(split.values()), 0.0)
    return {"wall": wall, "split": split} | counts


def run(repeat: int = 3, seed: int = 1) -> dict[str, Any]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="p2pcards-bench-") as home:
        for game, n, options in CASES:
            runs = [_one_hand(game, n, options, seed + k, f"{home}/{game}{k}") for k in range(repeat)]
            best = min(runs, key=lambda r: r["wall"])
            rows.append(
                {
                    "game": game,
                    "peers": n,
                    "wall_ms": round(best["wall"] * 1000, 1),
                    "split_ms": {k: round(v * 1000, 1) for k, v in best["split"].items()},
                    "messages": best["messages"],
                    "frames": best["frames"],
                    "bytes": best["bytes"],
                }
            )
    return {
        "bench": "table",
        "machine": f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}",
        "method": "one hand, all peers in one process, mental-poker dealer, journals on disk; best of "
        f"{repeat} deals; exclusive time per layer",
        "rows": rows,
    }


def format_table(result: dict[str, Any]) -> str:
    head = (
        f"{'hand':14} {'wall ms':>8} "
        + " ".join(f"{c:>8}" for c in CATEGORIES)
        + f" {'messages':>9} {'frames':>7} {'KiB':>7}"
    )
    lines = [head]
    for r in result["rows"]:
        split = " ".join(f"{r['split_ms'][c]:>8.1f}" for c in CATEGORIES)
        lines.append(
            f"{r['game'] + ' ' + str(r['peers']) + ' peers':14} {r['wall_ms']:>8.1f} {split} "
            f"{r['messages']:>9} {r['frames']:>7} {r['bytes'] / 1024:>7.1f}"
        )
    lines.append(f"machine: {result['machine']}; {result['method']}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(format_table(run()))
