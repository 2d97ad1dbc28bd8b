"""The genesis of a game: who sits where, with which identity key, playing what, dealt how.

Every seat signs the genesis before any card is dealt (the first step of the log), and the game id
that every later message names is the hash of its canonical encoding, so no message can be carried
from one table, or one set of options, to another.  A genesis that breaks any rule below is refused
as a whole (``protocol/SPEC.md`` §2 lists them, one by one, with their messages).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from p2pcards import games
from p2pcards.text import MAX_NAME as MAX_NAME
from p2pcards.text import name_problem
from p2pcards.wire import DecodeError, EncodeError, decode, encode
from p2pcards.wire.keys import weak_key_problem

GENESIS_TAG = b"p2pcards/genesis/v1\x00"
DEALERS = ("mental", "seeded")
MIN_SEATS = 2
MAX_SEATS = 6
MAX_NONCE = 32
MAX_SEED = 2**64 - 1
TIMEOUT_RANGE = (1_000, 3_600_000)
FIELDS = ("computers", "dealer", "game", "nonce", "options", "seats", "seed", "timeout_ms")


class GenesisError(ValueError):
    """A genesis that cannot be played: the message says which field is wrong."""


@dataclass(frozen=True)
class Seat:
    name: str
    key: bytes
    """The seat's Ed25519 identity public key (32 raw bytes)."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _same_values(given: tuple[tuple[str, Any], ...], normal: tuple[tuple[str, Any], ...]) -> bool:
    """``given`` is exactly ``normal``, value types included: ``1`` equals ``True`` in Python, but a
    genesis that writes 1 for true is another encoding of the table, hence another game id."""
    return len(given) == len(normal) and all(
        k == nk and type(v) is type(nv) and v == nv for (k, v), (nk, nv) in zip(given, normal, strict=True)
    )


@dataclass(frozen=True)
class Genesis:
    game: str
    options: tuple[tuple[str, Any], ...]
    """Every option of the game with its value, defaults filled in, sorted by name."""
    seats: tuple[Seat, ...]
    dealer: str = "mental"
    """``mental`` (the mental-poker dealer) or ``seeded`` (a known deck order, for tournaments and tests)."""
    seed: int = 0
    """The deck seed of a ``seeded`` dealer; 0 with the mental-poker dealer."""
    nonce: bytes = b""
    """Chosen by the host so two tables with the same players and options have different ids."""
    timeout_ms: int = 60_000
    """How long a seat may stay silent before the others are asked whether to go on without it."""
    computers: tuple[tuple[int, int], ...] = ()
    """``(seat, runner)`` for every seat played by a computer player, ascending: the runner is the seat
    whose laptop runs it (and can therefore see its cards).  Shown to everyone before they sign."""

    def __post_init__(self) -> None:
        if not isinstance(self.game, str) or self.game not in games.GAMES:
            raise GenesisError(f"unknown game {self.game!r}; the games are {', '.join(games.GAMES)}")
        self._check_seats()
        self._check_options()
        if self.dealer not in DEALERS:
            raise GenesisError(f"dealer must be one of {', '.join(DEALERS)}, not {self.dealer!r}")
        if not _is_int(self.seed) or not 0 <= self.seed <= MAX_SEED:
            raise GenesisError(f"seed must be an integer from 0 to {MAX_SEED}")
        if self.dealer == "mental" and self.seed != 0:
            raise GenesisError("seed must be 0 with the mental dealer (a seed would make the deck known)")
        if not isinstance(self.nonce, bytes) or len(self.nonce) > MAX_NONCE:
            raise GenesisError(f"the nonce is at most {MAX_NONCE} bytes")
        low, high = TIMEOUT_RANGE
        if not _is_int(self.timeout_ms) or not low <= self.timeout_ms <= high:
            raise GenesisError(f"timeout_ms must be an integer from {low} (1 s) to {high} (1 h)")
        self._check_computers()

    def _check_seats(self) -> None:
        if not isinstance(self.seats, tuple) or not MIN_SEATS <= len(self.seats) <= MAX_SEATS:
            count = len(self.seats) if isinstance(self.seats, tuple) else "no"
            raise GenesisError(f"a table has {MIN_SEATS} to {MAX_SEATS} seats, not {count}")
        for i, seat in enumerate(self.seats):
            if not isinstance(seat.key, bytes) or len(seat.key) != 32:
                raise GenesisError(f"seat {i}'s identity key must be 32 bytes")
            problem = weak_key_problem(seat.key)
            if problem:
                raise GenesisError(f"seat {i}'s identity key is unusable: {problem}")
            problem = name_problem(seat.name)
            if problem:
                raise GenesisError(f"seat {i}'s name: {problem}")
        if len({s.key for s in self.seats}) != len(self.seats):
            raise GenesisError("two seats have the same identity key")

    def _check_options(self) -> None:
        names = [k for k, _ in self.options]
        if names != sorted(set(names)):
            raise GenesisError("the options are sorted by name, each once")
        rules = self.rules()
        if not _same_values(self.options, rules.options):
            given, full = dict(self.options), dict(rules.options)
            missing = sorted(set(full) - set(given))
            if missing:
                raise GenesisError(f"every option of {self.game} is listed: missing {', '.join(missing)}")
            changed = sorted(
                k for k in given if type(given[k]) is not type(full.get(k)) or given[k] != full.get(k)
            )
            raise GenesisError(f"option {changed[0] if changed else '?'} is not in its normal form")
        if rules.players != len(self.seats):
            raise GenesisError(f"{self.game} with these options seats {rules.players}, not {len(self.seats)}")

    def _check_computers(self) -> None:
        seen: set[int] = set()
        for entry in self.computers:
            if not isinstance(entry, tuple) or len(entry) != 2 or not all(_is_int(v) for v in entry):
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
        except (TypeError, ValueError) as exc:  # a value an engine let through but cannot read
            raise GenesisError(f"the options do not fit {self.game}: {exc}") from exc

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
        """Read a genesis from its canonical bytes; ``GenesisError`` naming the first rule it breaks."""
        try:
            v: Any = decode(raw)
        except DecodeError as exc:
            raise GenesisError(f"not a genesis: {exc}") from exc
        if not isinstance(v, dict) or tuple(sorted(v)) != FIELDS:
            raise GenesisError(f"not a genesis: a genesis is a map of exactly {', '.join(FIELDS)}")
        seats, options, computers = v["seats"], v["options"], v["computers"]
        if not isinstance(seats, tuple) or not all(
            isinstance(s, tuple) and len(s) == 2 and isinstance(s[0], str) and isinstance(s[1], bytes)
            for s in seats
        ):
            raise GenesisError("not a genesis: seats are [name, key] pairs")
        if not isinstance(options, tuple) or not all(
            isinstance(o, tuple) and len(o) == 2 and isinstance(o[0], str) for o in options
        ):
            raise GenesisError("not a genesis: options are [name, value] pairs")
        if not isinstance(computers, tuple) or not all(isinstance(c, tuple) for c in computers):
            raise GenesisError("not a genesis: computers are [seat, runner] pairs")
        for key in ("game", "dealer"):
            if not isinstance(v[key], str):
                raise GenesisError(f"not a genesis: {key} is text")
        if not isinstance(v["nonce"], bytes):
            raise GenesisError("not a genesis: the nonce is bytes")
        g = cls(
            game=v["game"],
            options=tuple((k, val) for k, val in options),
            seats=tuple(Seat(name, key) for name, key in seats),
            dealer=v["dealer"],
            seed=v["seed"],
            nonce=v["nonce"],
            timeout_ms=v["timeout_ms"],
            computers=tuple((c[0], c[1]) if len(c) == 2 else c for c in computers),
        )
        if g.encode() != raw:
            raise GenesisError("the genesis is not in canonical form")
        return g


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
    """A genesis whose options are the game's full, normalised option list (so ids are canonical).
    ``seed`` is the seeded dealer's deck seed; with the mental dealer the genesis carries 0."""
    opts = dict(options or {})
    opts.setdefault("players", len(names_and_keys))
    try:
        rules = games.load(game, **opts)
    except games.GameError as exc:
        raise GenesisError(str(exc)) from exc
    seats = tuple(Seat(n, k) for n, k in names_and_keys)
    deck_seed = seed if dealer == "seeded" else 0
    return Genesis(game, rules.options, seats, dealer, deck_seed, nonce, timeout_ms, tuple(computers))
