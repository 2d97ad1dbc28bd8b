"""One TCP connection to one peer: the handshake, then length-prefixed frames both ways.

- Every frame is checked against its limit the moment its 4-byte length is read, before any of it
  is buffered (``wire.FrameDecoder``).  A bad frame closes *this* connection and nothing else; the
  node dials again and the table's catch-up fills in whatever was lost.
- Sending never blocks the caller: the table's outputs are carried out synchronously, so frames go
  to a per-link outbox that a task writes out.  A peer too slow to drain a bounded outbox is cut
  off (it will reconnect and catch up) rather than letting its backlog grow without bound.
- TCP keepalive and a user timeout notice a peer whose Wi-Fi vanished without a FIN: otherwise
  a silent link would look alive for the many minutes of TCP's retransmission give-up.
"""

from __future__ import annotations

import collections
import contextlib
import math
import socket
from collections.abc import Callable
from typing import Final

import trio

from p2pcards.net.handshake import MAX_HANDSHAKE_MESSAGE, Handshake, HandshakeError, Why
from p2pcards.wire import MAX_MESSAGE_SIZE, FrameDecoder, FrameError, encode_frame

HANDSHAKE_TIMEOUT: Final = 10.0
"""Seconds a connection may take to complete the handshake (a slow-loris peer is cut off)."""
DIAL_TIMEOUT: Final = 5.0
RECEIVE_CHUNK: Final = 64 * 1024
OUTBOX_LIMIT: Final = 8 * 1024 * 1024
"""Bytes queued for one peer before the link is cut as too slow."""
HEADER: Final = 4
DEFAULT_PORT: Final = 47_474
"""Where a host listens unless told otherwise (``docs/troubleshooting.md`` names it for firewalls)."""

Address = tuple[str, int]


def connection_problem(exc: BaseException) -> str:
    """What went wrong with a connection, in words: ``connection timed out``, never the raw
    ``[Errno 110] Connection timed out`` of an ``OSError`` (which trio's errors carry as their cause)."""
    seen: list[BaseException] = [exc]
    while seen:  # the error itself, what caused it, and each error of a group (every address tried)
        cause = seen.pop(0)
        if isinstance(cause, OSError) and cause.strerror:
            # trio's strerror repeats the address: "Error connecting to ('10.0.0.9', 47474): No route to host"
            said = cause.strerror
            if said.lower().startswith("error connecting"):
                said = said.rpartition("): ")[2]
            return said[:1].lower() + said[1:]
        if isinstance(cause, BaseExceptionGroup):
            seen.extend(cause.exceptions)
        seen.extend(e for e in (cause.__cause__, cause.__context__) if e is not None)
    if isinstance(exc, trio.ClosedResourceError):
        return "the connection was closed"
    if isinstance(exc, trio.BrokenResourceError):
        return "the connection broke"
    return str(exc) or type(exc).__name__


class LinkError(Exception):
    """The connection could not be opened or the handshake's transport failed."""


def _tune(stream: trio.SocketStream) -> None:
    """Low latency (moves are tiny frames) and prompt detection of a vanished peer."""
    options = [
        (socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),
        (socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1),
    ]
    # Linux names: probe after 5 s idle, every 2 s, give up after 3; unsent data gives up after 10 s.
    for name, value in (
        ("TCP_KEEPIDLE", 5),
        ("TCP_KEEPINTVL", 2),
        ("TCP_KEEPCNT", 3),
        ("TCP_USER_TIMEOUT", 10_000),
    ):
        if hasattr(socket, name):
            options.append((socket.IPPROTO_TCP, getattr(socket, name), value))
    for level, option, value in options:
        # An option this platform lacks only costs detection speed.
        with contextlib.suppress(OSError):
            stream.setsockopt(level, option, value)


class _Reader:
    """Exact frames off a stream for the handshake, keeping whatever follows for the link."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.buffer = bytearray()

    async def _fill(self, size: int) -> None:
        while len(self.buffer) < size:
            data = await self.stream.receive_some(RECEIVE_CHUNK)
            if not data:
                raise LinkError("the peer closed the connection during the handshake")
            self.buffer += data

    async def frame(self, limit: int) -> bytes:
        await self._fill(HEADER)
        length = int.from_bytes(self.buffer[:HEADER], "big")
        if not 1 <= length <= limit:
            raise HandshakeError(Why.MALFORMED, f"handshake frame of {length} bytes")
        await self._fill(HEADER + length)
        payload = bytes(self.buffer[HEADER : HEADER + length])
        del self.buffer[: HEADER + length]
        return payload


class Link:
    """An authenticated connection: ``peer_key`` proved itself for ``bind``.

    ``send(payload)`` queues a frame; ``run(on_payload)`` moves frames both ways until the
    connection ends, and returns why.  ``close(reason)`` ends it from outside.

    A short conversation (a joiner talking to a lobby) may instead pull frames one at a time with
    ``receive()`` and write with ``send_now()``, and end with ``aclose()``; never both styles on one
    link.  ``max_frame`` bounds every received frame (a lobby's are small)."""

    def __init__(
        self,
        stream: trio.abc.Stream,
        peer_key: bytes,
        bind: bytes,
        leftover: bytes = b"",
        *,
        max_frame: int = MAX_MESSAGE_SIZE,
    ) -> None:
        self.stream = stream
        self.peer_key = peer_key
        self.bind = bind
        self._leftover = leftover
        self._decoder = FrameDecoder(max_frame)
        self._ready: collections.deque[bytes] = collections.deque()
        self._bad_frame: str | None = None
        self._outbox_send, self._outbox_recv = trio.open_memory_channel[bytes](math.inf)
        self._queued = 0
        self._scope: trio.CancelScope | None = None
        self.close_reason: str | None = None
        self.closed = trio.Event()
        self.frames_in = 0
        self.frames_out = 0

    @property
    def is_open(self) -> bool:
        return self.close_reason is None

    def send(self, payload: bytes) -> bool:
        """Queue ``payload`` as one frame; False if the link is closed (or was just cut as too slow)."""
        if self.close_reason is not None:
            return False
        frame = encode_frame(payload, max_frame_size=MAX_MESSAGE_SIZE)
        if self._queued + len(frame) > OUTBOX_LIMIT:
            self.close("the peer does not keep up (outbox full)")
            return False
        try:
            self._outbox_send.send_nowait(frame)
        except trio.ClosedResourceError:
            return False  # finishing: no new frames
        self._queued += len(frame)
        return True

    def finish(self) -> None:
        """Take no more frames; end the link once those already queued are written."""
        self._outbox_send.close()

    def close(self, reason: str) -> None:
        if self.close_reason is None:
            self.close_reason = reason
        self._outbox_send.close()
        if self._scope is not None:
            self._scope.cancel()

    async def run(self, on_payload: Callable[[bytes], None]) -> str:
        """Carry frames until the connection ends; hand each received payload to ``on_payload``
        (synchronously, in order).  Always closes the stream; returns the reason it ended."""
        try:
            with trio.CancelScope() as scope:
                self._scope = scope
                if self.close_reason is None:
                    async with trio.open_nursery() as nursery:
                        nursery.start_soon(self._sender)
                        nursery.start_soon(self._receiver, on_payload)
        finally:
            self.close(self.close_reason or "closed")
            with trio.CancelScope(shield=True):
                await trio.aclose_forcefully(self.stream)
            self.closed.set()
        assert self.close_reason is not None
        return self.close_reason

    # ------------------------------------------------------------------ pulling, for short talks

    async def receive(self) -> bytes | None:
        """The next frame's payload, or None once the peer closed the connection; ``LinkError`` if
        the connection failed or the peer sent a bad frame (frames before it are delivered first)."""
        while not self._ready and self._bad_frame is None:
            data, self._leftover = self._leftover, b""
            if not data:
                try:
                    data = bytes(await self.stream.receive_some(RECEIVE_CHUNK))
                except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
                    raise LinkError(f"receive failed: {connection_problem(exc)}") from None
                if not data:
                    return None
            try:
                self._ready.extend(self._decoder.feed(data))
            except FrameError as exc:
                self._ready.extend(exc.frames)
                self._bad_frame = f"bad frame: {exc}"
        if self._ready:
            self.frames_in += 1
            return self._ready.popleft()
        assert self._bad_frame is not None
        raise LinkError(self._bad_frame)

    async def send_now(self, payload: bytes) -> None:
        """Write one frame and wait until it is handed to the network; ``LinkError`` if it cannot be."""
        frame = encode_frame(payload, max_frame_size=MAX_MESSAGE_SIZE)
        try:
            await self.stream.send_all(frame)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            raise LinkError(f"send failed: {connection_problem(exc)}") from None
        self.frames_out += 1

    async def aclose(self) -> None:
        """End a link used with ``receive`` / ``send_now``."""
        self.close(self.close_reason or "closed")
        with trio.CancelScope(shield=True):
            await trio.aclose_forcefully(self.stream)
        self.closed.set()

    async def _sender(self) -> None:
        try:
            async for frame in self._outbox_recv:
                await self.stream.send_all(frame)
                self._queued -= len(frame)
                self.frames_out += 1
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            self.close(f"send failed: {connection_problem(exc)}")
        else:
            self.close(self.close_reason or "closed")

    async def _receiver(self, on_payload: Callable[[bytes], None]) -> None:
        data, self._leftover = self._leftover, b""
        try:
            while True:
                if data:
                    try:
                        payloads = self._decoder.feed(data)
                    except FrameError as exc:
                        # Frames completed before the bad length are still good ones.
                        for payload in exc.frames:
                            self.frames_in += 1
                            on_payload(payload)
                        self.close(f"bad frame: {exc}")
                        return
                    for payload in payloads:
                        self.frames_in += 1
                        on_payload(payload)
                data = bytes(await self.stream.receive_some(RECEIVE_CHUNK))
                if not data:
                    self.close("the peer closed the connection")
                    return
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            self.close(f"receive failed: {connection_problem(exc)}")


async def establish(
    stream: trio.abc.Stream,
    handshake: Handshake,
    *,
    timeout: float = HANDSHAKE_TIMEOUT,
    max_frame: int = MAX_MESSAGE_SIZE,
) -> Link:
    """Run ``handshake`` over ``stream``; the authenticated ``Link``, or ``HandshakeError`` /
    ``LinkError`` (after telling the peer why, where the handshake says so).  The stream is closed
    on failure."""
    reader = _Reader(stream)
    try:
        with trio.fail_after(timeout):
            for message in handshake.start():
                await stream.send_all(encode_frame(message))
            while not handshake.done:
                payload = await reader.frame(MAX_HANDSHAKE_MESSAGE)
                try:
                    replies = handshake.receive(payload)
                except HandshakeError as exc:
                    if exc.reply is not None:
                        await stream.send_all(encode_frame(exc.reply))
                    raise
                for message in replies:
                    await stream.send_all(encode_frame(message))
    except trio.TooSlowError:
        await trio.aclose_forcefully(stream)
        raise LinkError(f"handshake not completed within {timeout} s") from None
    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
        await trio.aclose_forcefully(stream)
        raise LinkError(f"connection lost during the handshake: {connection_problem(exc)}") from None
    except BaseException:
        await trio.aclose_forcefully(stream)
        raise
    assert handshake.peer_key is not None and handshake.bind is not None
    return Link(stream, handshake.peer_key, handshake.bind, bytes(reader.buffer), max_frame=max_frame)


async def dial(
    host: str,
    port: int,
    handshake: Handshake,
    *,
    timeout: float = DIAL_TIMEOUT,
    max_frame: int = MAX_MESSAGE_SIZE,
    source: str | None = None,
) -> Link:
    """Connect to ``host:port`` (from the local address ``source``, if given: the network chosen)
    and run the handshake as the dialer."""
    try:
        with trio.fail_after(timeout):
            stream = await trio.open_tcp_stream(host, port, local_address=source)
    except trio.TooSlowError:
        raise LinkError(f"no answer from {host}:{port} within {timeout:g} s") from None
    except OSError as exc:
        raise LinkError(f"cannot connect to {host}:{port}: {connection_problem(exc)}") from None
    _tune(stream)
    return await establish(stream, handshake, max_frame=max_frame)


async def accept(
    stream: trio.SocketStream, handshake: Handshake, *, max_frame: int = MAX_MESSAGE_SIZE
) -> Link:
    """Run the handshake as the acceptor on a stream from a listener."""
    _tune(stream)
    return await establish(stream, handshake, max_frame=max_frame)


async def listen(host: str = "0.0.0.0", port: int = DEFAULT_PORT, tries: int = 10) -> trio.SocketListener:
    """A listener on ``port`` or one of the next ``tries - 1`` ports (a fixed, documented port is
    what a firewall rule can name), else on any free port."""
    for candidate in range(port, port + tries):
        try:
            return await open_listener(host, candidate)
        except OSError:
            continue
    return await open_listener(host, 0)


async def open_listener(host: str = "127.0.0.1", port: int = 0) -> trio.SocketListener:
    """A TCP listener on one address (port 0: any free port)."""
    listeners = await trio.open_tcp_listeners(port, host=host)
    first = listeners[0]
    for extra in listeners[1:]:
        with contextlib.suppress(OSError):
            await extra.aclose()
    assert isinstance(first, trio.SocketListener)
    return first


__all__ = [
    "DEFAULT_PORT",
    "DIAL_TIMEOUT",
    "HANDSHAKE_TIMEOUT",
    "OUTBOX_LIMIT",
    "Address",
    "Link",
    "LinkError",
    "accept",
    "connection_problem",
    "dial",
    "establish",
    "listen",
    "open_listener",
]
