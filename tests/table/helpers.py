"""Drive tables in one process without the harness: a plain queue with no faults (``Room``), or a room
whose links an attacker (or bad luck) controls, signing as any seat, with a clock that every replica
reads (``GateRoom``)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Self

from p2pcards.games.rng import Rng
from p2pcards.room import interpret
from p2pcards.table import outputs as out
from p2pcards.table.genesis import Genesis, make_genesis
from p2pcards.table.replica import Table
from p2pcards.wire import Envelope, SignedMessage, key_from_seed, public_bytes, sign


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

TIMEOUT_MS = 2_000
"""The silence timeout of a ``GateRoom``'s tables: short, so that votes come after a few ticks."""

Hold = Callable[[int, int, SignedMessage], bool]
"""``hold(to, frm, message)``: keep this frame back instead of delivering it."""


def never(to: int, frm: int, msg: SignedMessage) -> bool:
    return False


class GateRoom(Room):
    """A room whose frames pass a gate: ``hold`` decides which are kept back (in ``held``, in order),
    as a slow, lossy or hostile link would.  ``act`` may be replaced to control every move."""

    hold: Hold = staticmethod(never)
    held: list[tuple[int, int, bytes]]

    def run(self, limit: int = 1_000_000) -> None:
        if not hasattr(self, "held"):
            self.held = []
        while self.queue and limit:
            to, frm, payload = self.queue.popleft()
            limit -= 1
            if self.hold(to, frm, SignedMessage.from_bytes(payload)):
                self.held.append((to, frm, payload))
                continue
            self.frames += 1
            self.handle(to, self.tables[to].receive(frm, payload))

    def deliver(self, to: int, frm: int, payload: bytes) -> list[out.Output]:
        """Hand one frame to one replica now, bypassing the gate; its outputs are carried out."""
        outputs = self.tables[to].receive(frm, payload)
        self.handle(to, outputs)
        return outputs

    def release(self) -> None:
        """Every frame held back so far goes back on its way."""
        held, self.held = getattr(self, "held", []), []
        self.queue.extend(held)

    def tick(self, seats: Iterable[int], start: int, stop: int, every: int = 500) -> None:
        """Advance the clock of ``seats`` from ``start`` to ``stop`` ms, running the room after each
        step (retries, catch-up and votes happen on the way)."""
        chosen = list(seats)
        for now in range(start, stop, every):
            for seat in chosen:
                self.handle(seat, self.tables[seat].tick(now))
            self.run()

    def restart(self, seat: int, journal: list[bytes] | None = None) -> Table:
        """Kill ``seat`` (what was on its way to it is lost) and restore it from its journal (or from
        the given copy of it) with the secrets it kept."""
        self.queue = type(self.queue)((j, i, p) for j, i, p in self.queue if j != seat)
        revived = Table(self.genesis, seat, identities(len(self.tables))[seat], secrets=self.secrets[seat])
        self.tables[seat] = revived
        kept = list(self.journals[seat] if journal is None else journal)
        self.journals[seat] = list(kept)
        self.handle(seat, revived.restore(kept))
        return revived


def make_room(
    game: str, n: int, *, dealer: str = "seeded", seed: int = 7, timeout_ms: int = TIMEOUT_MS, **options: Any
) -> GateRoom:
    """A ``GateRoom`` like ``Room.make``, with a short silence timeout."""
    ids = identities(n)
    genesis = make_genesis(
        game,
        [(f"p{i}", public_bytes(k)) for i, k in enumerate(ids)],
        options=options,
        dealer=dealer,
        seed=seed,
        timeout_ms=timeout_ms,
    )
    tables = [Table(genesis, i, ids[i], source=seeded_source(f"{seed}/{i}")) for i in range(n)]
    empty: list[list[Any]] = [[] for _ in range(n)]
    room = GateRoom(genesis, tables, Rng(seed), [[] for _ in range(n)], [{} for _ in range(n)], empty)
    room.held = []
    return room


Turns = list[tuple[int, out.YourTurn]]
"""The turns told, in order: (seat, its ``YourTurn``)."""


def people_room(genesis: Genesis, ids: list[Any], seed: int) -> tuple[GateRoom, Turns]:
    """A started ``GateRoom`` of ``genesis``'s tables, each a person's but its computer seats, where
    nobody moves by itself: the turns are kept for the test to play."""
    n = len(genesis.seats)
    bots = dict(genesis.computers)
    tables = [Table(genesis, i, ids[i], source=seeded_source(f"{seed}/{i}"), person=i not in bots)
              for i in range(n)]
    empty: list[list[out.Output]] = [[] for _ in range(n)]
    room = GateRoom(genesis, tables, Rng(seed), [[] for _ in range(n)], [{} for _ in range(n)], empty)
    room.held = []
    turns: Turns = []
    room.act = lambda i, turn: turns.append((i, turn))  # type: ignore[method-assign]
    room.start()
    room.run()
    return room, turns


def signed_as(genesis: Genesis, seat: int, kind: str, body: Any, step: int, prev: bytes) -> bytes:
    """A message of ``kind`` signed with the test identity of ``seat`` (what that seat can always send)."""
    env = Envelope(game_id=genesis.game_id, step=step, seat=seat, prev=prev, kind=kind, body=body)
    return sign(env, identities(len(genesis.seats))[seat]).data


def observer_of(genesis: Genesis, payloads: Iterable[bytes], perspective: int | None = None) -> Table:
    """What ``p2pcards verify`` does with a set of messages: an observer restored from them (reading
    them as seat ``perspective``'s journal, if given)."""
    observer = Table(genesis, None, None, perspective=perspective)
    observer.restore(list(payloads))
    return observer


def verdicts(table: Table) -> list[tuple[int, str]]:
    return [(f.seat, f.kind) for f in table.verdicts]
