"""Tables of nodes on loopback, in one trio run."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import trio
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pcards.ai.base import RandomPlayer
from p2pcards.net.node import Chooser, GameEffects, Node, NodeEvent, open_listener
from p2pcards.store import MemoryStore
from p2pcards.table import outputs as out
from p2pcards.table.genesis import Genesis, make_genesis
from p2pcards.wire import key_from_seed, public_bytes

LOOPBACK = "127.0.0.1"


def identities(n: int, tag: int = 0) -> list[Ed25519PrivateKey]:
    return [key_from_seed(bytes([tag, i + 1]) * 16) for i in range(n)]


def genesis_for(
    ids: Sequence[Ed25519PrivateKey],
    game: str = "durak",
    *,
    dealer: str = "seeded",
    seed: int = 1,
    timeout_ms: int = 60_000,
    **options: Any,
) -> Genesis:
    return make_genesis(
        game,
        [(f"p{i}", public_bytes(k)) for i, k in enumerate(ids)],
        options=options,
        dealer=dealer,
        seed=seed,
        nonce=seed.to_bytes(8, "big"),
        timeout_ms=timeout_ms,
    )


def random_chooser(genesis: Genesis, seed: int) -> Chooser:
    rules = genesis.rules()
    player = RandomPlayer(rules, seed)
    return lambda view: rules.action_text(player.choose(view))


@dataclass
class Mesh:
    genesis: Genesis
    ids: list[Ed25519PrivateKey]
    nodes: list[Node]
    ports: list[int]
    events: list[list[NodeEvent]] = field(default_factory=list)

    @property
    def addresses(self) -> dict[int, tuple[str, int]]:
        return {i: (LOOPBACK, p) for i, p in enumerate(self.ports)}

    def node_for(
        self, seat: int, store: GameEffects, listener: trio.SocketListener, chooser: Chooser | None = None
    ) -> Node:
        return Node(
            self.genesis,
            seat,
            self.ids[seat],
            store,
            listener=listener,
            addresses=self.addresses,
            chooser=chooser or random_chooser(self.genesis, seat),
            on_event=self.events[seat].append,
        )

    def of(self, seat: int, kind: type) -> list[Any]:
        return [e for e in self.events[seat] if isinstance(e, kind)]

    def digests(self) -> set[bytes]:
        return {n.table.digest() for n in self.nodes}

    async def all_finished(self) -> None:
        for node in self.nodes:
            await node.finished.wait()

    def check_agreement(self) -> None:
        """Every seat finished the match, with no fault, the same audited hands and the same digest."""
        assert all(n.table.over for n in self.nodes), [n.table.waiting_for for n in self.nodes]
        assert all(n.table.fault is None for n in self.nodes)
        assert len(self.digests()) == 1
        summaries = {tuple(h.summary for h in self.of(i, out.HandOver)) for i in range(len(self.nodes))}
        assert len(summaries) == 1 and summaries != {()}
        assert all(h.audit.ok for i in range(len(self.nodes)) for h in self.of(i, out.HandOver))


async def make_mesh(
    genesis: Genesis, ids: list[Ed25519PrivateKey], stores: Sequence[GameEffects] | None = None
) -> Mesh:
    n = len(ids)
    listeners = [await open_listener(LOOPBACK) for _ in range(n)]
    ports = [lst.socket.getsockname()[1] for lst in listeners]
    mesh = Mesh(genesis, ids, [], ports, [[] for _ in range(n)])
    stores = stores if stores is not None else [MemoryStore() for _ in range(n)]
    mesh.nodes = [mesh.node_for(i, stores[i], listeners[i]) for i in range(n)]
    return mesh
