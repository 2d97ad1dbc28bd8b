"""Saved games: ``p2pcards games`` (list, show, remove, clean), and what an offline game keeps so
that ``p2pcards resume`` can continue it.

An offline game (``p2pcards play``) keeps, in its game directory::

    journal        the player's seat's journal: every message of every seat (nothing leaves the
                   process, so this one journal is what every seat restarts from)
    secrets        every seat's secrets: the player's under their labels, seat N's under "seat N/"
    offline.json   owner-only: {"version": 1, "genesis": hex, "keys": [hex, ...] (every seat's
                   identity seed), "viewpoint": seat, "human": seat | null, "levels": {seat: level},
                   "seed": S | null, "auto": level | null, "finished": bool, "think_ms": ms (the
                   computer players' think time, ``play --think``; 1000 in a record kept without it)}

A LAN game keeps ``lan.json`` instead (``p2pcards.cli.lan.record``).  ``resume`` looks at which one
a game has: an offline game is continued here, a LAN game by ``p2pcards.cli.lan.resume``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import shutil
import sys
import textwrap
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from rich.cells import cell_len

from p2pcards import store, wire
from p2pcards.ai.budget import DEFAULT_THINK_MS, MAX_THINK_MS, default_think
from p2pcards.cli.common import UsageError, print_json, program
from p2pcards.store import journal as journal_file
from p2pcards.store import paths
from p2pcards.store.files import PRIVATE_MODE, atomic_write, check_private
from p2pcards.table.genesis import Genesis, GenesisError
from p2pcards.text import options_text

if TYPE_CHECKING:  # the room is only named here: the commands that make one import it
    from p2pcards.local import LocalRoom

OFFLINE_FILE: Final = "offline.json"
LAN_FILE: Final = "lan.json"
FORMAT_VERSION: Final = 1


# ============================================================================ an offline game's record


@dataclass(frozen=True)
class OfflineRecord:
    genesis: Genesis
    keys: tuple[bytes, ...]
    viewpoint: int
    human: int | None
    levels: dict[int, str]
    seed: int | None = None
    auto: str | None = None
    finished: bool = False
    think_ms: int = DEFAULT_THINK_MS
    """The computer players' think time the game was played with (what ``resume`` gives them)."""

    @property
    def game_id(self) -> bytes:
        return self.genesis.game_id

    @classmethod
    def of(cls, room: LocalRoom, auto: str | None = None) -> OfflineRecord:
        levels = {s: lvl for s in range(room.n) if (lvl := room.level_of(s)) is not None}
        return cls(room.genesis, tuple(k.private_bytes_raw() for k in room.keys), room.viewpoint, room.human,
                   levels, room.seed, auto, think_ms=default_think())

    def to_json(self) -> dict[str, Any]:
        return {"version": FORMAT_VERSION, "genesis": self.genesis.encode().hex(),
                "keys": [k.hex() for k in self.keys], "viewpoint": self.viewpoint, "human": self.human,
                "levels": {str(s): lvl for s, lvl in sorted(self.levels.items())}, "seed": self.seed,
                "auto": self.auto, "finished": self.finished, "think_ms": self.think_ms}

    @classmethod
    def from_json(cls, doc: Any) -> OfflineRecord:
        """``ValueError`` naming what is wrong."""
        if not isinstance(doc, dict) or doc.get("version") != FORMAT_VERSION:
            raise ValueError(f"not a version {FORMAT_VERSION} record of an offline game")
        try:
            genesis = Genesis.decode(bytes.fromhex(doc["genesis"]))
            keys = tuple(bytes.fromhex(k) for k in doc["keys"])
            human = None if doc["human"] is None else int(doc["human"])
            record = cls(genesis, keys, int(doc["viewpoint"]), human,
                         {int(s): str(lvl) for s, lvl in doc["levels"].items()},
                         None if doc.get("seed") is None else int(doc["seed"]),
                         None if doc.get("auto") is None else str(doc["auto"]), bool(doc.get("finished")),
                         think_ms=int(doc.get("think_ms", DEFAULT_THINK_MS)))
        except (KeyError, TypeError, ValueError, AttributeError, GenesisError) as exc:
            raise ValueError(f"a field is missing or malformed ({exc})") from exc
        n = len(genesis.seats)
        if len(keys) != n or any(len(k) != 32 for k in keys):
            raise ValueError("it does not hold one 32-byte key per seat")
        if not 0 <= record.viewpoint < n or (record.human is not None and not 0 <= record.human < n):
            raise ValueError("its seats do not fit the game")
        if not 1 <= record.think_ms <= MAX_THINK_MS:
            raise ValueError(f"its think time of {record.think_ms} ms is out of range")
        for seat, key in enumerate(keys):
            if wire.public_bytes(wire.key_from_seed(key)) != genesis.seats[seat].key:
                raise ValueError(f"the key kept for seat {seat} is not the one that signed the table")
        return record


def offline_path(game_id: bytes) -> Path:
    return paths.game_dir(game_id) / OFFLINE_FILE


def new_store(game_id: bytes) -> store.GameStore:
    """A new game's store: a seed replayed gives the same game id, and a journal holds one run."""
    path = paths.journal_path(game_id)
    if path.exists() and not journal_file.is_empty(path):
        raise store.StoreError(path, "this game (the same seed, players and options) was saved before")
    return store.GameStore.open(game_id)


def save_offline(record: OfflineRecord) -> None:
    path = offline_path(record.game_id)
    paths.ensure_private_dir(path.parent)
    data = json.dumps(record.to_json(), indent=1, sort_keys=True).encode("utf-8") + b"\n"
    atomic_write(path, data, mode=PRIVATE_MODE)


def load_offline(game_id: bytes) -> OfflineRecord | None:
    """The record of an offline game, None if the game has none; ``StoreError`` if it is damaged."""
    path = offline_path(game_id)
    check_private(path, "record of an offline game")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise store.StoreError(path, f"cannot read the game's record: {exc}") from exc
    try:
        record = OfflineRecord.from_json(json.loads(text))
    except ValueError as exc:
        raise store.StoreError(path, f"the game's record is damaged: {exc}") from exc
    if record.game_id != game_id:
        raise store.StoreError(path, "the record belongs to another game")
    return record


def is_saved(room: LocalRoom) -> bool:
    return isinstance(room.stores[room.viewpoint], store.GameStore)


def mark_finished(room: LocalRoom) -> None:
    if not is_saved(room):
        return
    try:
        record = load_offline(room.game_id)
        if record is not None and not record.finished:
            save_offline(replace(record, finished=True))
    except (OSError, store.StoreError) as exc:
        print(f"p2pcards: note: the game could not be marked finished ({exc})", file=sys.stderr)


def has_messages(game_id: bytes) -> bool:
    """The game's journal holds at least one message (it got past its start-up)."""
    path = paths.journal_path(game_id)
    return path.is_file() and not journal_file.is_empty(path)


def remove(game_id: bytes) -> None:
    """Remove a saved game: its journal, secrets and records.  ``JournalBusy`` if it is being played."""
    directory = paths.game_dir(game_id)
    journal = directory / "journal"
    if journal.exists():
        store.Journal.open(journal, create=False).close()  # refuses a game another process has open
    if directory.exists():
        shutil.rmtree(directory)


def resume_room(record: OfflineRecord) -> LocalRoom:
    """The room of a saved offline game, restored from its journal (``StoreError`` on damage)."""
    from p2pcards.local import LocalRoom, SavedRoom

    game = store.GameStore.open(record.game_id)
    try:
        journal = tuple(game.payloads())
        saved = SavedRoom(record.genesis, record.keys, journal, game.secrets(), record.viewpoint)
        rules = record.genesis.rules()
        return LocalRoom(rules.name, options=dict(rules.options), human=record.human,
                         viewpoint=record.viewpoint,
                         levels={s: lvl for s, lvl in record.levels.items() if s != record.human},
                         dealer=record.genesis.dealer, seed=record.seed, saved=saved,
                         journal=lambda _game_id: game)
    except BaseException:
        game.close()
        raise


# ============================================================================ listing


@dataclass(frozen=True)
class Saved:
    game_id: bytes
    kind: str
    """``offline``, ``LAN`` or ``?`` (a journal without a record: an older offline game)."""
    genesis: Genesis | None
    finished: bool | None
    size: int
    modified: float
    directory: Path
    end: str = ""
    """How a finished network game ended (``over``, ``abandoned``, ``stopped``; see ``SeatRecord``)."""
    watched: bool = False
    """Unfinished, left while its person watched the others: it may have ended elsewhere."""

    @property
    def unfinished(self) -> bool:
        return self.finished is False


def _first_genesis(path: Path) -> Genesis | None:
    """The genesis at the start of a journal, reading no more than its first records."""
    try:
        with path.open("rb") as f:
            head = f.read(64 * 1024)
        scan = journal_file.parse(head, path)
    except (OSError, store.StoreError):
        return None
    for payload in scan.payloads[:1]:
        try:
            msg = wire.SignedMessage.from_bytes(payload)
            if msg.kind == "genesis" and isinstance(msg.body, bytes):
                return Genesis.decode(msg.body)
        except (wire.WireError, GenesisError):
            return None
    return None


def describe_game(game_id: bytes) -> Saved:
    directory = paths.game_dir(game_id)
    journal = directory / "journal"
    size = sum(p.stat().st_size for p in directory.rglob("*") if p.is_file())
    genesis: Genesis | None = None
    finished: bool | None = None
    kind, end, watched = "?", "", False
    try:
        offline = load_offline(game_id)
    except store.StoreError:
        offline = None
    if offline is not None:
        kind, genesis, finished = "offline", offline.genesis, offline.finished
    elif (directory / LAN_FILE).exists():
        kind = "LAN"
        try:
            doc = json.loads((directory / LAN_FILE).read_text(encoding="utf-8"))
            genesis = Genesis.decode(bytes.fromhex(doc["genesis"]))
            finished = bool(doc.get("finished"))
            end = str(doc.get("end") or "")
            watched = bool(doc.get("watching")) and not finished
        except (OSError, ValueError, KeyError, TypeError, GenesisError):
            pass
    if genesis is None:
        genesis = _first_genesis(journal)
    return Saved(game_id, kind, genesis, finished, size, journal.stat().st_mtime, directory, end, watched)


def all_saved() -> list[Saved]:
    """Every saved game, the most recently played first."""
    found = [describe_game(g) for g in store.saved_games()]
    found.sort(key=lambda s: s.modified, reverse=True)
    return found


def pick(prefix: str) -> bytes:
    """The saved game whose id starts with ``prefix``; ``UsageError`` otherwise."""
    text = prefix.strip().lower()
    if len(text) < 6 or any(c not in "0123456789abcdef" for c in text):
        raise UsageError(f"GAME_ID is the game's id in hex (6 digits or more), not {prefix!r}")
    matches = [g for g in store.saved_games() if g.hex().startswith(text)]
    if not matches:
        raise UsageError(f"no saved game has an id starting with {text} (see `{program()} games`)")
    if len(matches) > 1:
        raise UsageError(f"{text} fits {len(matches)} saved games: give more of the id")
    return matches[0]


def human_size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n / (1024 * 1024):.1f} MB"


def _when(t: float) -> str:
    return datetime.datetime.fromtimestamp(t).strftime("%Y-%m-%d %H:%M")


def _state(s: Saved) -> str:
    if s.finished is None:
        return "?"
    if s.finished and s.end in ("abandoned", "stopped"):
        return s.end  # not played to its end: as `verify` says it
    if s.watched:
        return "watched"  # unfinished here; the others may have played it to its end since
    return "finished" if s.finished else "unfinished"


def as_json(s: Saved) -> dict[str, Any]:
    g = s.genesis
    return {"game_id": s.game_id.hex(), "kind": s.kind, "game": None if g is None else g.game,
            "players": None if g is None else [seat.name for seat in g.seats],
            "options": None if g is None else dict(g.options), "dealer": None if g is None else g.dealer,
            "finished": s.finished, "state": _state(s), "bytes": s.size, "modified": _when(s.modified),
            "directory": str(s.directory)}


# ============================================================================ the command


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "games", help="list, show or remove saved games",
        description="The games kept in the data directory: offline games (p2pcards play) and network "
                    "games. Exit status: 0 done, 1 a game could not be removed, 2 bad arguments.",
    )
    p.add_argument("action", nargs="?", default="list", choices=("list", "show", "remove", "clean"),
                   help="list (default), show GAME_ID, remove GAME_ID..., clean (remove every finished game)")
    p.add_argument("game_ids", nargs="*", metavar="GAME_ID",
                   help="a game's id (its first 6 hex digits or more)")
    p.add_argument("--yes", action="store_true", help="remove without asking")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.action == "list":
        if args.game_ids:
            raise UsageError("`games list` takes no GAME_ID (see `games show GAME_ID`)")
        return _list(args.json)
    if args.action == "show":
        if len(args.game_ids) != 1:
            raise UsageError("`games show` takes one GAME_ID")
        return _show(pick(args.game_ids[0]), args.json)
    if args.action == "clean":
        if args.game_ids:
            raise UsageError("`games clean` takes no GAME_ID: it removes every finished game")
        return _remove([s.game_id for s in all_saved() if s.finished], args)
    if not args.game_ids:
        raise UsageError("`games remove` needs the GAME_ID of each game to remove")
    return _remove([pick(g) for g in args.game_ids], args)


WATCHED_NOTE = ("watched: you left while watching the others; the match may have ended elsewhere since. Only "
                "a player of it who is on the network can bring this copy to its end: `resume` it while one "
                "of them plays.")


def _list(as_json_doc: bool) -> int:
    found = all_saved()
    if as_json_doc:
        print_json({"games": [as_json(s) for s in found]})
        return 0
    if not found:
        print("No saved games.")
        return 0
    for s in found:
        print(line_of(s, _width()))
    unfinished = [s for s in found if s.unfinished]
    if unfinished:
        said, command = f"{len(unfinished)} unfinished: continue one with", f"{program()} resume GAME_ID"
        width = _width()
        fits = width is None or len(said) + len(command) + 1 <= width
        print(f"{said} {command}" if fits else f"{said}\n  {command}")
    if any(s.watched for s in found):
        width = _width()
        print(WATCHED_NOTE if width is None else textwrap.fill(WATCHED_NOTE, width, break_long_words=False))
    return 0


def line_of(s: Saved, width: int | None = None) -> str:
    """One saved game on one line, as ``games`` lists it: within ``width`` columns if given (the
    players named as far as they fit, then how many more), so that a terminal never wraps it."""
    head = (f"{s.game_id.hex()[:12]}  {_when(s.modified)}  {s.kind:<7}  {_state(s):<10}  "
            f"{human_size(s.size):>8}  ")
    g = s.genesis
    if g is None:
        return head + "?"
    what = f"{g.game} with {', '.join(seat.name for seat in g.seats)}"
    if width is None or cell_len(head + what) <= width:
        return head + what
    # the players on lines of their own below, broken between names, never inside one
    indent = " " * 14
    below = textwrap.wrap("with " + ", ".join(seat.name for seat in g.seats), max(20, width - len(indent)),
                          break_long_words=False, break_on_hyphens=False)
    return "\n".join([head + g.game, *(indent + line for line in below)])


def _width(margin: int = 0) -> int | None:
    """The columns a listing may use: the terminal's, less ``margin`` (None: not a terminal)."""
    if not sys.stdout.isatty():
        return None
    return shutil.get_terminal_size().columns - margin


def choose(offered: list[Saved], question: str) -> bytes | None:
    """Ask the person at the terminal to pick one of ``offered`` by number (None: Enter alone, or the
    end of input); asked again until the answer is one."""
    for i, s in enumerate(offered, 1):
        print(f"{i:>2}  {line_of(s, _width(4))}".replace("\n", "\n    "))
    while True:
        try:
            raw = input(f"{question} Type its number (1 to {len(offered)}), or Enter for none: ").strip()
        except EOFError:
            print()
            return None
        if not raw:
            return None
        if raw.isdigit() and 1 <= int(raw) <= len(offered):
            return offered[int(raw) - 1].game_id
        print(f"There is no game {raw}: type a number from 1 to {len(offered)}.")


def _show(game_id: bytes, as_json_doc: bool) -> int:
    s = describe_game(game_id)
    try:
        scan = journal_file.read(s.directory / "journal")
        records: int | None = len(scan.payloads)
    except store.StoreError:
        records = None
    doc = as_json(s) | {"records": records}
    if as_json_doc:
        print_json(doc)
        return 0
    g = s.genesis
    print(f"game     {game_id.hex()}")
    print(f"kind     {s.kind}, {_state(s)}, last played {_when(s.modified)}")
    if g is not None:
        print(f"rules    {g.game} ({options_text(g.options)}), {g.dealer} dealer")
        width = max(len(seat.name) for seat in g.seats)
        for i, seat in enumerate(g.seats):
            print(f"{f'seat {i}':<9}{seat.name:<{width}}  {wire.fingerprint(seat.key)}")
    print(f"kept     {human_size(s.size)} in {s.directory}"
          + ("" if records is None else f" ({records} messages in the journal)"))
    short = game_id.hex()[:12]
    print(f"verify   {program()} verify {short}")
    if s.unfinished:
        print(f"resume   {program()} resume {short}")
    print(f"remove   {program()} games remove {short}")
    return 0


def _remove(ids: list[bytes], args: argparse.Namespace) -> int:
    if not ids:
        print("Nothing to remove.")
        return 0
    if not args.yes:
        if not sys.stdin.isatty():
            raise UsageError("removing games asks first at a terminal; add --yes to remove without asking")
        listed = ", ".join(g.hex()[:12] for g in ids)
        answer = input(f"Remove {len(ids)} saved game{'s' if len(ids) != 1 else ''} ({listed})? [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            print("Nothing removed.")
            return 0
    failed = 0
    for game_id in ids:
        try:
            remove(game_id)
        except (OSError, store.StoreError) as exc:
            failed += 1
            print(f"p2pcards games: cannot remove {game_id.hex()[:12]}: {exc}", file=sys.stderr)
            continue
        if args.json:
            print_json({"removed": game_id.hex()})
        else:
            print(f"removed {game_id.hex()[:12]}")
    return 1 if failed else 0


__all__ = [
    "OfflineRecord",
    "Saved",
    "all_saved",
    "choose",
    "describe_game",
    "has_messages",
    "is_saved",
    "line_of",
    "load_offline",
    "mark_finished",
    "new_store",
    "pick",
    "register",
    "remove",
    "resume_room",
    "run",
    "save_offline",
]
