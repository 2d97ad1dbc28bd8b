"""Drive tables in one process without the harness: a plain queue, no faults."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Self

from p2pcards.games.rng import Rng
from p2pcards.room import interpret
from p2pcards.table import outputs as out
from p2pcards.table.genesis import Genesis, make_genesis
from p2pcards.table.replica import Table
from p2pcards.wire import key_from_seed, public_bytes


def identities(n: int) -> list[Any]:
    return [key_from_seed(bytes([i + 1]) * 32) for i in range(n)]


def genesis_for(
    game: str,
    n: int,
    *,
    dealer: str = "seeded",
    seed: int = 7,
    computers: tuple[tuple[int, int], ...] = (),
    **options: Any,
) -> Genesis:
    ids = identities(n)
    return make_genesis(
        game,
        [(f"p{i}", public_bytes(k)) for i, k in enumerate(ids)],
        options=options,
        dealer=dealer,
        seed=seed,
        computers=computers,
    )


def seeded_source(label: str) -> Callable[[int], bytes]:
    rng = Rng(label)

    def source(n: int) -> bytes:
        return b"".join(rng.next64().to_bytes(8, "big") for _ in range((n + 7) // 8))[:n]

    return source


@dataclass
class Room:
    """Tables joined by a FIFO queue; computer seats pick uniformly at random.  The scheduler of the
    room's interpreter (``p2pcards.room``)."""

    genesis: Genesis
    tables: list[Table]
    rng: Rng
    journals: list[list[bytes]] = field(default_factory=list)
    secrets: list[dict[str, bytes]] = field(default_factory=list)
    events: list[list[out.Output]] = field(default_factory=list)
    queue: deque[tuple[int, int, bytes]] = field(default_factory=deque)
    frames: int = 0

    @classmethod
    def make(cls, game: str, n: int, *, dealer: str = "seeded", seed: int = 7, **options: Any) -> Self:
        """``options`` are the game's, and ``computers`` the genesis's (seat, runner) pairs."""
        computers = tuple(options.pop("computers", ()))
        g = genesis_for(game, n, dealer=dealer, seed=seed, computers=computers, **options)
        ids = identities(n)
        tables = [Table(g, i, ids[i], source=seeded_source(f"{seed}/{i}")) for i in range(n)]
        room = cls(
            g, tables, Rng(seed), [[] for _ in range(n)], [{} for _ in range(n)], [[] for _ in range(n)]
        )
        return room

    def start(self) -> None:
        for i, t in enumerate(self.tables):
            self.handle(i, t.start())

    def handle(self, i: int, outputs: list[out.Output]) -> None:
        interpret(i, outputs, self)

    # ---- the scheduler of the room: a FIFO, lists, and a random move at once

    def persist(self, i: int, payload: bytes, own: bool) -> None:
        self.journals[i].append(payload)

    def keep(self, i: int, label: str, secret: bytes) -> None:
        self.secrets[i][label] = secret

    def send(self, i: int, payload: bytes, to: int | None) -> None:
        for j in range(len(self.tables)):
            if j != i and (to is None or to == j):
                self.queue.append((j, i, payload))

    def turn(self, i: int, turn: out.YourTurn) -> None:
        self.act(i, turn)

    def event(self, i: int, event: out.Event) -> None:
        self.events[i].append(event)

    def act(self, i: int, turn: out.YourTurn) -> None:
        t = self.tables[i]
        text = t.rules.action_text(self.rng.choice(list(turn.view.legal_actions)))
        self.handle(i, t.local_action(text))

    def run(self, limit: int = 1_000_000) -> None:
        while self.queue and limit:
            j, i, payload = self.queue.popleft()
            self.frames += 1
            limit -= 1
            self.handle(j, self.tables[j].receive(i, payload))

    def digests(self) -> set[bytes]:
        return {t.digest() for t in self.tables}

    def of(self, i: int, kind: type) -> list[Any]:
        return [e for e in self.events[i] if isinstance(e, kind)]
