"""The genesis of a game: who sits where, with which identity key, playing what.

Every seat signs the genesis before any card is dealt (the first step of the log), and the game id
that every later message names is the hash of its canonical encoding, so no message can be carried
from one table, or one set of options, to another.
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass
from typing import Any

from p2pcards import games
from p2pcards.wire import DecodeError, EncodeError, decode, encode
from p2pcards.wire.keys import weak_key_problem

GENESIS_TAG = b"p2pcards/genesis/v1\x00"
DEALERS = ("mental", "seeded")
MAX_SEATS = 6
MAX_NAME = 40


class GenesisError(ValueError):
    """A genesis that cannot be played: the message says which field is wrong."""


@dataclass(frozen=True)
class Seat:
    name: str
    key: bytes
    """The seat's Ed25519 identity public key (32 raw bytes)."""


@dataclass(frozen=True)
class Genesis:
    game: str
    options: tuple[tuple[str, Any], ...]
    seats: tuple[Seat, ...]
    dealer: str = "mental"
    """``mental`` (the mental-poker dealer) or ``seeded`` (a known deck order, for tournaments and tests)."""
    seed: int = 0
    """The deck seed of a ``seeded`` dealer; unused by the mental-poker dealer."""
    nonce: bytes = b""
    """Chosen by the host so two tables with the same players and options have different ids."""
    timeout_ms: int = 60_000
    """How long a seat may stay silent before the others may vote the hand void."""
    computers: tuple[tuple[int, int], ...] = ()
    """``(seat, runner)`` for every seat played by a computer player, ascending: the runner is the seat
    whose laptop runs it (and can therefore see its cards).  Shown to everyone before they sign."""

    def __post_init__(self) -> None:
        if self.game not in games.GAMES:
            raise GenesisError(f"unknown game {self.game!r}")
        if not 2 <= len(self.seats) <= MAX_SEATS:
            raise GenesisError(f"a table has 2 to {MAX_SEATS} seats, not {len(self.seats)}")
        for i, seat in enumerate(self.seats):
            if not isinstance(seat.key, bytes) or len(seat.key) != 32:
                raise GenesisError(f"seat {i}'s identity key must be 32 bytes")
            problem = weak_key_problem(seat.key)
            if problem:
                raise GenesisError(f"seat {i}'s identity key is unusable: {problem}")
            problem = name_problem(seat.name) if isinstance(seat.name, str) else "a name is text"
            if problem:
                raise GenesisError(f"seat {i}'s name: {problem}")
        if len({s.key for s in self.seats}) != len(self.seats):
            raise GenesisError("two seats have the same identity key")
        if self.dealer not in DEALERS:
            raise GenesisError(f"dealer must be one of {', '.join(DEALERS)}")
        if not 1_000 <= self.timeout_ms <= 3_600_000:
            raise GenesisError("timeout_ms must be between 1 s and 1 h")
        if len(self.nonce) > 32:
            raise GenesisError("the nonce is at most 32 bytes")
        seen: set[int] = set()
        for entry in self.computers:
            if (
                not isinstance(entry, tuple)
                or len(entry) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in entry)
            ):
                raise GenesisError("each computer player is a pair [seat, runner seat]")
            played, runner = entry
            if not (0 <= played < len(self.seats) and 0 <= runner < len(self.seats)):
                raise GenesisError(f"computer player [{played}, {runner}] names a seat that does not exist")
            if played in seen:
                raise GenesisError(f"seat {played} is listed twice as a computer player")
            seen.add(played)
        computer_seats = [played for played, _ in self.computers]
        if computer_seats != sorted(computer_seats):
            raise GenesisError("computer players are listed by ascending seat")
        if any(runner in seen for _, runner in self.computers):
            raise GenesisError("a computer player is run by a person's seat, not by another computer")
        rules = self.rules()
        if rules.players != len(self.seats):
            raise GenesisError(f"{self.game} with these options seats {rules.players}, not {len(self.seats)}")

    def runner_of(self, seat: int) -> int | None:
        """The seat whose laptop runs ``seat``'s computer player, or None for a person's seat."""
        for s, runner in self.computers:
            if s == seat:
                return runner
        return None

    def rules(self) -> games.Rules:
        try:
            return games.load(self.game, **dict(self.options))
        except games.GameError as exc:
            raise GenesisError(str(exc)) from exc

    def to_value(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": [[k, v] for k, v in self.options],
            "seats": [[s.name, s.key] for s in self.seats],
            "dealer": self.dealer,
            "seed": self.seed,
            "nonce": self.nonce,
            "timeout_ms": self.timeout_ms,
            "computers": [[seat, runner] for seat, runner in self.computers],
        }

    def encode(self) -> bytes:
        try:
            return encode(self.to_value())
        except EncodeError as exc:
            raise GenesisError(f"the genesis cannot be encoded: {exc}") from exc

    @property
    def game_id(self) -> bytes:
        return hashlib.sha256(GENESIS_TAG + self.encode()).digest()

    @classmethod
    def decode(cls, raw: bytes) -> Genesis:
        try:
            v: Any = decode(raw)
            if not isinstance(v, dict):
                raise GenesisError("a genesis is a map")
            seats = tuple(Seat(str(name), bytes(key)) for name, key in v["seats"])
            options = tuple((str(k), val) for k, val in v["options"])
            g = cls(
                game=v["game"],
                options=options,
                seats=seats,
                dealer=v["dealer"],
                seed=v["seed"],
                nonce=v["nonce"],
                timeout_ms=v["timeout_ms"],
                computers=tuple(tuple(c) for c in v["computers"]),
            )
        except (DecodeError, KeyError, TypeError, ValueError) as exc:
            raise GenesisError(f"not a genesis: {exc}") from exc
        if g.encode() != raw:
            raise GenesisError("the genesis is not in canonical form")
        return g


def name_problem(name: str) -> str:
    """Why ``name`` cannot be a seat's name ("" if it can): 1 to 40 Unicode code points, none of them a
    control or format character (escape sequences, bidi overrides and the like would reach screens)."""
    if not 1 <= len(name) <= MAX_NAME:
        return f"a name has 1 to {MAX_NAME} characters, not {len(name)}"
    for ch in name:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            return f"a name may not contain the character U+{ord(ch):04X}"
    if name != name.strip():
        return "a name does not start or end with a space"
    return ""


def make_genesis(
    game: str,
    names_and_keys: list[tuple[str, bytes]],
    *,
    options: dict[str, Any] | None = None,
    dealer: str = "mental",
    seed: int = 0,
    nonce: bytes = b"",
    timeout_ms: int = 60_000,
    computers: tuple[tuple[int, int], ...] = (),
) -> Genesis:
    """A genesis whose options are the game's full, normalised option list (so ids are canonical)."""
    opts = dict(options or {})
    opts.setdefault("players", len(names_and_keys))
    try:
        rules = games.load(game, **opts)
    except games.GameError as exc:
        raise GenesisError(str(exc)) from exc
    seats = tuple(Seat(n, k) for n, k in names_and_keys)
    return Genesis(game, rules.options, seats, dealer, seed, nonce, timeout_ms, tuple(computers))
