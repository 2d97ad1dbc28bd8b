"""The one error family of the wire layer, and the reason strings a receiver reports.

Everything a peer can send us is parsed by code that raises only :class:`WireError` (or returns a
rejection carrying a :class:`Reason`), so a caller needs exactly one ``except`` to survive any input.
The reason strings are part of the protocol (see ``protocol/WIRE.md``): every implementation reports
the same reason for the same bad message, which makes fault reports comparable across replicas.
"""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    """Why a frame or message was refused.  The values are normative (``protocol/WIRE.md``)."""

    MALFORMED = "malformed"
    TOO_LARGE = "too large"
    UNSUPPORTED_VERSION = "unsupported version"
    UNKNOWN_KIND = "unknown kind"
    ANOTHER_GAME = "another game"
    UNKNOWN_SEAT = "unknown seat"
    BAD_SIGNATURE = "bad signature"
    NOT_A_STEP = "not a step"
    OLD_STEP = "old step"
    FUTURE_STEP = "future step"
    WRONG_HEAD = "wrong head"
    NOT_AWAITED = "not awaited"


class WireError(Exception):
    """Base of every error raised on bad input.  ``reason`` says which check failed."""

    reason: Reason

    def __init__(self, reason: Reason, detail: str = "") -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(f"{reason}: {detail}" if detail else str(reason))


class FrameError(WireError):
    """A frame header announced an impossible length; the connection must be closed."""

    def __init__(self, reason: Reason, detail: str = "", frames: list[bytes] | None = None) -> None:
        super().__init__(reason, detail)
        # Frames completed earlier in the same feed() call: they are intact and signed, so the
        # caller may still process them before closing (and feeding byte by byte or in one chunk
        # then yields the same frames).
        self.frames: list[bytes] = frames if frames is not None else []


class DecodeError(WireError):
    """Bytes that are not one canonical value of the msgpack subset (see ``codec``)."""

    def __init__(self, detail: str, reason: Reason = Reason.MALFORMED) -> None:
        super().__init__(reason, detail)


class EncodeError(WireError):
    """A local value outside the encodable subset (a float, a non-str map key, a huge int...)."""

    def __init__(self, detail: str) -> None:
        super().__init__(Reason.MALFORMED, detail)


class EnvelopeError(WireError):
    """An envelope that decodes but breaks the envelope rules (version, fields, kind, size)."""


class SignatureError(WireError):
    """A signature that does not verify, or a public key that cannot be loaded."""
