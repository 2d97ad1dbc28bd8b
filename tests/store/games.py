"""Real games for the store's tests: tables with the mental dealer, each seat journalling through a
``GameStore`` and the room's ``carry_out`` exactly as a shell does, over an in-memory queue.

``played(game)`` plays one match (options chosen so it ends after one hand) once per test process
and keeps every seat's data directory; tests copy what they change.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import os
import shutil
import tempfile
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pcards.games.rng import Rng
from p2pcards.room import carry_out
from p2pcards.store import GameStore
from p2pcards.store import journal as jf
from p2pcards.table import outputs as out
from p2pcards.table.genesis import Genesis, make_genesis
from p2pcards.table.replica import Table
from p2pcards.wire import key_from_seed, public_bytes

SETUPS: dict[str, tuple[int, dict[str, Any]]] = {
    # Durak: a series of one hand.  Spades: any score ends the match after its first hand.
    "durak": (3, {"series_hands": 1}),
    "spades": (4, {"target": 1, "floor": -1}),
}
LONGER: dict[str, tuple[int, dict[str, Any]]] = {"durak": (3, {"series_hands": 3})}
"""A match of several hands (its journal can be cut right after a hand's seal)."""


def seat_key(seat: int) -> Ed25519PrivateKey:
    return key_from_seed(bytes([seat + 1]) * 32)


def source(seat: int) -> Callable[[int], bytes]:
    """Deterministic randomness for a seat's dealer secrets, so a test run is repeatable."""
    counter = 0

    def draw(n: int) -> bytes:
        nonlocal counter
        counter += 1
        return hashlib.shake_256(f"test source {seat} {counter}".encode()).digest(n)

    return draw


@dataclass(frozen=True)
class Crash:
    """Kill ``seat`` when the ``at``-th frame is delivered (frames to it are lost while it is down),
    leave ``torn`` bytes of a half-written record at the end of its journal, and restart it from its
    store ``down_for`` frames later (or when nothing else is left to deliver)."""

    seat: int
    at: int
    torn: bytes = b""
    down_for: int = 40


@dataclass
class Played:
    genesis: Genesis
    homes: list[Path]
    tables: list[Table]
    events: list[list[Any]] = field(default_factory=list)
    restarted_at: int | None = None
    """The step the crashed seat's table was at after restoring from its journal."""

    def journal(self, seat: int) -> Path:
        return self.homes[seat] / "games" / self.genesis.game_id.hex() / "journal"

    def hand_overs(self, seat: int) -> list[out.HandOver]:
        return [e for e in self.events[seat] if isinstance(e, out.HandOver)]


def play(
    game: str, root: Path, *, seed: int = 3, crash: Crash | None = None,
    setup: tuple[int, dict[str, Any]] | None = None,
) -> Played:
    n, options = setup or SETUPS[game]
    keys = [seat_key(i) for i in range(n)]
    genesis = make_genesis(
        game, [(f"p{i}", public_bytes(k)) for i, k in enumerate(keys)], options=options, nonce=b"store tests"
    )
    homes = [root / f"seat{i}" for i in range(n)]
    stores = [GameStore.open(genesis.game_id, home) for home in homes]
    tables = [Table(genesis, i, keys[i], source=source(i)) for i in range(n)]
    played = Played(genesis, homes, tables, [[] for _ in range(n)])
    rng = Rng(seed)
    queue: deque[tuple[int, int, bytes]] = deque()
    down: int | None = None

    def handle(seat: int, outputs: list[out.Output]) -> None:
        def send(payload: bytes, to: int | None) -> None:
            queue.extend((j, seat, payload) for j in range(n) if j != seat and to in (None, j))

        for event in carry_out(outputs, stores[seat], send):
            played.events[seat].append(event)
            if isinstance(event, out.YourTurn):
                action = tables[seat].rules.action_text(rng.choice(list(event.view.legal_actions)))
                handle(seat, tables[seat].local_action(action))

    def restart(seat: int) -> None:
        # What a shell does on start-up: open the store, rebuild the table, carry out what it says.
        stores[seat] = GameStore.open(genesis.game_id, homes[seat])
        secrets = stores[seat].secrets()
        tables[seat] = Table(genesis, seat, keys[seat], secrets=secrets, source=source(seat + n))
        outputs = tables[seat].restore(stores[seat].payloads())
        played.restarted_at = tables[seat].chain.step
        handle(seat, outputs)

    try:
        for i in range(n):
            handle(i, tables[i].start())
        delivered = 0
        while queue or down is not None:
            back = crash is not None and delivered >= crash.at + crash.down_for
            if down is not None and crash is not None and (back or not queue):
                down = None
                restart(crash.seat)
                continue
            to, sender, payload = queue.popleft()
            delivered += 1
            if crash is not None and delivered == crash.at:
                down = crash.seat
                stores[down].close()
                with played.journal(down).open("ab") as f:
                    f.write(crash.torn)
            if to != down:
                handle(to, tables[to].receive(sender, payload))
    finally:
        for s in stores:
            s.close()
    return played


def ram_dir(prefix: str) -> Path:
    """A fresh directory, on a RAM file system when there is one: a game makes hundreds of fsyncs,
    and the tests should not wait for a disk."""
    shm = Path("/dev/shm")
    where = shm if shm.is_dir() and os.access(shm, os.W_OK) else None
    return Path(tempfile.mkdtemp(prefix=prefix, dir=where))


@functools.cache
def played(game: str) -> Played:
    root = ram_dir(f"p2pcards-store-{game}-")
    atexit.register(shutil.rmtree, root, True)
    return play(game, root)


@functools.cache
def played_longer(game: str) -> Played:
    root = ram_dir(f"p2pcards-store-{game}-longer-")
    atexit.register(shutil.rmtree, root, True)
    return play(game, root, setup=LONGER[game])


# ---------------------------------------------------------------------------- journal surgery


def records(path: Path) -> list[tuple[int, bytes]]:
    """(offset, payload) of every record of a sound journal."""
    data = path.read_bytes()
    offset = len(jf.HEADER)
    found = []
    while offset < len(data):
        length = int.from_bytes(data[offset : offset + 4], "big")
        found.append((offset, data[offset + 4 : offset + 4 + length]))
        offset += 8 + length
    return found


def rewrite(path: Path, payloads: list[bytes]) -> None:
    """Write ``payloads`` as a journal of the game ``path`` holds now, with its game record and correct
    CRCs (what a careful forger would do)."""
    game_id = jf.read(path).game_id
    path.write_bytes(jf.header(game_id) + b"".join(jf.encode_record(p) for p in payloads))


def tamper(payload: bytes, index: int) -> bytes:
    """``payload`` with one byte flipped."""
    return payload[:index] + bytes([payload[index] ^ 0x01]) + payload[index + 1 :]


def crc(payload: bytes) -> int:
    return zlib.crc32(payload)
