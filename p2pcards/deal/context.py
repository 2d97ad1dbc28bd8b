"""The context every proof and commitment is bound to.

A proof made for one (protocol version, game, hand, seat, step) fails in every other, so a proof cannot
be replayed in another game, another hand, by another seat or at another step of the log.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from p2pcards.deal.errors import UsageError

__all__ = ["PROTOCOL_VERSION", "TABLE", "Context"]

#: The version of the deal protocol described in protocol/DEAL.md.
PROTOCOL_VERSION: Final = 1
#: The seat field of a context that belongs to the whole table rather than one seat (the coin value).
TABLE: Final = None
_NO_SEAT: Final = (1 << 64) - 1
_MAX_GAME_ID: Final = 255


def _check_int(name: str, value: object, limit: int) -> None:
    if type(value) is not int or not 0 <= value < limit:
        raise UsageError(f"context {name} must be an integer in [0, {limit})")


@dataclass(frozen=True, slots=True, kw_only=True)
class Context:
    """Who proves what, where: bound into every Fiat–Shamir hash and every commitment.

    ``step`` is the number of the log step the message belongs to; ``seat`` is the seat that makes
    the proof or commitment (``None`` only for values that belong to the whole table).
    """

    game_id: bytes
    hand: int
    seat: int | None
    step: int
    version: int = PROTOCOL_VERSION

    def __post_init__(self) -> None:
        if type(self.game_id) is not bytes or not 1 <= len(self.game_id) <= _MAX_GAME_ID:
            raise UsageError(f"context game_id must be 1 to {_MAX_GAME_ID} bytes")
        _check_int("version", self.version, 1 << 64)
        _check_int("hand", self.hand, 1 << 64)
        _check_int("step", self.step, 1 << 64)
        if self.seat is not None:
            _check_int("seat", self.seat, _NO_SEAT)

    def encode(self) -> bytes:
        """``u64 version ‖ u32 len(game_id) ‖ game_id ‖ u64 hand ‖ u64 seat ‖ u64 step`` (big-endian;
        seat ``None`` is encoded as 2^64 − 1)."""
        seat = _NO_SEAT if self.seat is None else self.seat
        return b"".join(
            (
                self.version.to_bytes(8, "big"),
                len(self.game_id).to_bytes(4, "big"),
                self.game_id,
                self.hand.to_bytes(8, "big"),
                seat.to_bytes(8, "big"),
                self.step.to_bytes(8, "big"),
            )
        )

    def for_seat(self, seat: int | None) -> Context:
        return replace(self, seat=seat)

    def at_step(self, step: int) -> Context:
        return replace(self, step=step)

    def require_seat(self) -> int:
        """The seat of a context that must belong to one seat."""
        if self.seat is None:
            raise UsageError("this context must name a seat")
        return self.seat
