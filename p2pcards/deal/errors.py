"""One exception hierarchy for the whole ``deal`` layer.

Everything a peer sends is decoded and verified by this package; the only exceptions that may leave a
decode or verify path are the ones below, so the table can catch ``DealError`` and turn it into
evidence against the seat that sent the message, never into a crash.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["DealError", "DecryptError", "EncodingError", "ProofError", "UsageError", "accepts"]


class DealError(Exception):
    """Base class of every error raised by ``p2pcards.deal``."""


class EncodingError(DealError):
    """Bytes (or a msgpack structure) that are not a valid encoding of what was expected.

    Wrong type, wrong length, a point that is not on the curve, the point at infinity, a scalar
    out of range: a peer that sends such a thing is at fault just as if its proof were wrong.
    """


class ProofError(DealError):
    """A proof, a commitment or a protocol check failed.

    ``check`` names the equation or rule that failed; ``seat`` and ``position`` say whose
    contribution and which deck position it was about, when that is known.
    """

    def __init__(self, check: str, *, seat: int | None = None, position: int | None = None) -> None:
        self.check = check
        self.seat = seat
        self.position = position
        where = []
        if seat is not None:
            where.append(f"seat {seat}")
        if position is not None:
            where.append(f"position {position}")
        super().__init__(f"{', '.join(where)}: {check}" if where else check)


class DecryptError(DealError):
    """Unmasking a position gave a point that is not one of the deck's cards.

    With verified shares from every seat this cannot happen; it means a share is missing or the
    caller combined shares of the wrong position.
    """


class UsageError(DealError):
    """The local caller asked for something inconsistent (a seat out of range, a card twice, ...)."""


def accepts(check: Callable[[], object]) -> bool:
    """Boolean convenience: ``True`` if ``check()`` returns, ``False`` if it raises a ``DealError``.

    >>> accepts(lambda: None)
    True
    >>> def refused() -> None:
    ...     raise ProofError("the shuffle's proof does not verify", seat=2)
    >>> accepts(refused)
    False

    Any other exception is a bug of the caller's, not a peer's fault, and is not swallowed:

    >>> accepts(lambda: 1 // 0)
    Traceback (most recent call last):
    ZeroDivisionError: integer division or modulo by zero
    """
    try:
        check()
    except DealError:
        return False
    return True
