"""Drivers for the adversarial review of the session layer: a room whose links an attacker (or bad
luck) controls, signing as any seat, and a clock that every replica reads."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from p2pcards.games.rng import Rng
from p2pcards.table import outputs as out
from p2pcards.table.genesis import Genesis, make_genesis
from p2pcards.table.replica import Table
from p2pcards.wire import Envelope, SignedMessage, public_bytes, sign
from tests.table.helpers import Room, identities, seeded_source

TIMEOUT_MS = 2_000
"""The silence timeout of the review's tables: short, so that votes come after a few ticks."""

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
