"""Length-prefixed frames over a byte stream, sans-IO.

A frame is a 4-byte big-endian length ``n`` followed by ``n`` bytes of payload (one signed message).
The length is checked the moment its 4 bytes are complete, before a single payload byte is kept,
so a peer announcing a gigabyte costs us 4 bytes of buffer.  A bad length leaves no way to find the
next frame boundary, so the decoder fails for good and the connection is to be closed.
"""

from __future__ import annotations

from typing import Final, NoReturn

from .errors import FrameError, Reason

HEADER_SIZE: Final = 4
DEFAULT_MAX_FRAME_SIZE: Final = 64 * 1024
"""Default payload limit.  A node that accepts every kind uses ``wire.MAX_MESSAGE_SIZE`` instead
(the largest per-kind limit); the per-kind limit itself is checked once the kind is known."""

_LENGTH_FIELD_MAX: Final = 2**32 - 1


def encode_frame(payload: bytes, *, max_frame_size: int = _LENGTH_FIELD_MAX) -> bytes:
    """``payload`` with its length prefix.  Refuses an empty payload or one over ``max_frame_size``."""
    size = len(payload)
    if size == 0:
        raise FrameError(Reason.MALFORMED, "empty frame")
    if size > min(max_frame_size, _LENGTH_FIELD_MAX):
        raise FrameError(Reason.TOO_LARGE, f"frame of {size} bytes exceeds {max_frame_size}")
    return size.to_bytes(HEADER_SIZE, "big") + payload


class FrameDecoder:
    """Turns a stream of received chunks into complete frame payloads.

    The internal buffer never holds more than ``HEADER_SIZE + max_frame_size`` bytes: complete
    frames are cut out of each chunk as it is scanned, and only an unfinished tail is kept.
    """

    def __init__(self, max_frame_size: int = DEFAULT_MAX_FRAME_SIZE) -> None:
        if not 1 <= max_frame_size <= _LENGTH_FIELD_MAX:
            raise ValueError("max_frame_size must be between 1 and 2**32 - 1")
        self.max_frame_size = max_frame_size
        self._buffer = bytearray()
        self._expected: int | None = None  # payload length once the header is complete
        self._failure: FrameError | None = None

    @property
    def failed(self) -> bool:
        """True once a bad header was seen; every later feed() raises."""
        return self._failure is not None

    @property
    def buffered(self) -> int:
        """Bytes held for an unfinished frame (header or payload)."""
        return len(self._buffer)

    def feed(self, data: bytes) -> list[bytes]:
        """Consume ``data``; return the payloads of the frames it completed, in order.

        Raises :class:`FrameError` on a length of zero or above the limit (and on every call after
        that); frames completed earlier in the same call are attached to the error as ``frames``.
        """
        if self._failure is not None:
            raise FrameError(self._failure.reason, "decoder already failed: " + self._failure.detail)
        frames: list[bytes] = []
        view = memoryview(data)
        pos, end = 0, len(view)
        while pos < end:
            if self._expected is None:
                pos = self._take(view, pos, HEADER_SIZE)
                if len(self._buffer) < HEADER_SIZE:
                    break
                length = int.from_bytes(self._buffer, "big")
                self._buffer.clear()
                if length == 0 or length > self.max_frame_size:
                    self._fail(length, frames)
                self._expected = length
            pos = self._take(view, pos, self._expected)
            if len(self._buffer) < self._expected:
                break
            frames.append(bytes(self._buffer))
            self._buffer.clear()
            self._expected = None
        return frames

    def _take(self, view: memoryview, pos: int, goal: int) -> int:
        """Move bytes from ``view[pos:]`` into the buffer until it holds ``goal``; return the new pos."""
        wanted = goal - len(self._buffer)
        chunk = view[pos : pos + wanted]
        self._buffer += chunk
        return pos + len(chunk)

    def _fail(self, length: int, frames: list[bytes]) -> NoReturn:
        if length == 0:
            error = FrameError(Reason.MALFORMED, "frame length 0", frames)
        else:
            error = FrameError(
                Reason.TOO_LARGE, f"frame length {length} exceeds {self.max_frame_size}", frames
            )
        self._failure = error
        self._buffer.clear()
        raise error
