"""What a LAN seat keeps beside its journal so that ``p2pcards resume`` can bring it back.

``<game dir>/lan.json`` (owner-only: it holds the keys of the host's computer players)::

    {"version": 1, "role": "host" | "join", "genesis": hex, "seat": n,
     "bind": address, "port": p,                 where this seat listens (a joiner: the port it
                                                 announced, which the others dial again)
     "dial": {seat: [host, port]},               the seats this process dials
     "computers": {seat: {"key": hex, "level": L}},   a host's computer players
     "auto": level | null, "finished": bool,
     "think_ms": ms}                             the computer players' think time (``host --think``;
                                                 1000 in a record kept without it)

A host's computer players keep their journals and secrets under ``<game dir>/computers/seat-N/``:
they are peers like any other, and a host restarted from its journal needs them back as they were.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pcards.ai.budget import DEFAULT_THINK_MS, MAX_THINK_MS
from p2pcards.net.node import Address
from p2pcards.store import GameStore, StoreError, saved_games
from p2pcards.store import paths as store_paths
from p2pcards.store.files import PRIVATE_MODE, atomic_write, check_private
from p2pcards.store.journal import Journal
from p2pcards.store.secrets_file import Secrets
from p2pcards.table.genesis import Genesis, GenesisError
from p2pcards.wire import key_from_seed

FILE_NAME: Final = "lan.json"
FORMAT_VERSION: Final = 1


@dataclass(frozen=True)
class Computer:
    key: bytes
    """The 32-byte seed of its identity key."""
    level: str

    @property
    def identity(self) -> Ed25519PrivateKey:
        return key_from_seed(self.key)


@dataclass(frozen=True)
class SeatRecord:
    role: str
    genesis: Genesis
    seat: int
    bind: str
    port: int
    dial: dict[int, Address]
    computers: dict[int, Computer] = field(default_factory=dict)
    auto: str | None = None
    finished: bool = False
    end: str = ""
    """How a finished game ended: ``over`` (played to its end), ``abandoned`` (ended by the word of
    half the table or fewer, as ``verify`` calls it) or ``stopped`` (by a fault); empty before."""
    think_ms: int = DEFAULT_THINK_MS
    """The computer players' think time the game was played with (what ``resume`` gives them)."""
    watching: bool = False
    """The program last ended, unfinished, while its person watched the others (out of the hand, not
    asking back): the match may have ended elsewhere without this laptop (``games`` says so)."""

    @property
    def game_id(self) -> bytes:
        return self.genesis.game_id

    def to_json(self) -> dict[str, Any]:
        return {
            "version": FORMAT_VERSION,
            "role": self.role,
            "genesis": self.genesis.encode().hex(),
            "seat": self.seat,
            "bind": self.bind,
            "port": self.port,
            "dial": {str(s): [a[0], a[1]] for s, a in sorted(self.dial.items())},
            "computers": {
                str(s): {"key": c.key.hex(), "level": c.level} for s, c in sorted(self.computers.items())
            },
            "auto": self.auto,
            "finished": self.finished,
            "end": self.end,
            "think_ms": self.think_ms,
            "watching": self.watching,
        }

    @classmethod
    def from_json(cls, doc: Any) -> SeatRecord:
        """``ValueError`` naming what is wrong."""
        if not isinstance(doc, dict) or doc.get("version") != FORMAT_VERSION:
            raise ValueError(f"not a version {FORMAT_VERSION} seat record")
        try:
            genesis = Genesis.decode(bytes.fromhex(doc["genesis"]))
            dial = {int(s): (str(a[0]), int(a[1])) for s, a in doc["dial"].items()}
            computers = {
                int(s): Computer(bytes.fromhex(c["key"]), str(c["level"]))
                for s, c in doc["computers"].items()
            }
            record = cls(
                role=str(doc["role"]),
                genesis=genesis,
                seat=int(doc["seat"]),
                bind=str(doc["bind"]),
                port=int(doc["port"]),
                dial=dial,
                computers=computers,
                auto=None if doc.get("auto") is None else str(doc["auto"]),
                finished=bool(doc.get("finished", False)),
                end=str(doc.get("end") or ""),
                think_ms=int(doc.get("think_ms", DEFAULT_THINK_MS)),
                watching=bool(doc.get("watching", False)),
            )
        except (KeyError, TypeError, AttributeError, IndexError, GenesisError) as exc:
            raise ValueError(f"a field is missing or malformed ({exc})") from exc
        n = len(genesis.seats)
        if record.role not in ("host", "join") or not 0 <= record.seat < n:
            raise ValueError("its role or seat does not fit the game")
        if any(not 0 <= s < n for s in [*record.dial, *record.computers]):
            raise ValueError("it names a seat the game does not have")
        if any(len(c.key) != 32 for c in record.computers.values()):
            raise ValueError("a computer player's key is not 32 bytes")
        if not 1 <= record.think_ms <= MAX_THINK_MS:
            raise ValueError(f"its think time of {record.think_ms} ms is out of range")
        return record


def record_path(game_id: bytes) -> Path:
    return store_paths.game_dir(game_id) / FILE_NAME


def save(record: SeatRecord) -> None:
    path = record_path(record.game_id)
    store_paths.ensure_private_dir(path.parent)
    data = json.dumps(record.to_json(), indent=1, sort_keys=True).encode("utf-8") + b"\n"
    atomic_write(path, data, mode=PRIVATE_MODE)


def load(game_id: bytes) -> SeatRecord | None:
    """The seat record of a saved game, None if it was not a LAN game; ``StoreError`` if damaged."""
    path = record_path(game_id)
    check_private(path, "seat record")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise StoreError(path, f"cannot read the seat record: {exc}") from exc
    try:
        record = SeatRecord.from_json(json.loads(text))
    except ValueError as exc:
        raise StoreError(path, f"the seat record is damaged: {exc}") from exc
    if record.game_id != game_id:
        raise StoreError(path, "the seat record belongs to another game")
    return record


def mark_finished(record: SeatRecord, end: str = "over") -> SeatRecord:
    done = replace(record, finished=True, end=end, watching=False)
    save(done)
    return done


def mark_watching(record: SeatRecord, watching: bool) -> SeatRecord:
    """Record whether the program ended, the match unfinished, with its person watching the others."""
    if record.watching == watching:
        return record
    kept = replace(record, watching=watching)
    save(kept)
    return kept


def lan_games() -> list[tuple[SeatRecord, float]]:
    """Every saved LAN game with the time its record was last written, newest first (records that
    cannot be read are left out: ``resume GAME_ID`` names their problem)."""
    found: list[tuple[SeatRecord, float]] = []
    for game_id in saved_games():
        try:
            record = load(game_id)
        except StoreError:
            continue
        if record is not None:
            found.append((record, record_path(game_id).stat().st_mtime))
    found.sort(key=lambda pair: pair[1], reverse=True)
    return found


def computer_store(game_id: bytes, seat: int) -> GameStore:
    """The journal and secrets of the host's computer player in ``seat``."""
    directory = store_paths.game_dir(game_id) / "computers" / f"seat-{seat}"
    store_paths.ensure_private_dir(directory)
    journal = Journal.open(directory / "journal", game_id=game_id)
    return GameStore(game_id, directory, journal, Secrets(directory / "secrets"))
