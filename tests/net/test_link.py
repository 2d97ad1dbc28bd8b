"""One TCP connection over loopback: handshake, frames both ways, limits, clean close."""

from __future__ import annotations

from typing import Any

import pytest
import trio

from p2pcards.net.handshake import Handshake, HandshakeError, Why, join_code_key
from p2pcards.net.link import Link, LinkError, accept, dial, establish
from p2pcards.wire import MAX_MESSAGE_SIZE, key_from_seed, public_bytes

ALICE = key_from_seed(b"\x01" * 32)
BOB = key_from_seed(b"\x02" * 32)
GAME = b"G" * 32


async def listener() -> trio.SocketListener:
    (sock,) = await trio.open_tcp_listeners(0, host="127.0.0.1")
    assert isinstance(sock, trio.SocketListener)
    return sock


def port_of(lst: trio.SocketListener) -> int:
    port: int = lst.socket.getsockname()[1]
    return port


async def connect(
    dialer: Handshake | None = None, acceptor: Handshake | None = None
) -> tuple[Link | BaseException, Link | BaseException]:
    """Dial a fresh listener; each side's Link, or the exception its side raised."""
    dialer = dialer or Handshake("dialer", ALICE, bind=GAME, expect_key=public_bytes(BOB))
    acceptor = acceptor or Handshake("acceptor", BOB, binds=[GAME])
    lst = await listener()
    result: dict[str, Any] = {}

    async def accept_side() -> None:
        stream = await lst.accept()
        try:
            result["a"] = await accept(stream, acceptor)
        except (HandshakeError, LinkError) as exc:
            result["a"] = exc

    async with trio.open_nursery() as nursery:
        nursery.start_soon(accept_side)
        try:
            result["d"] = await dial("127.0.0.1", port_of(lst), dialer)
        except (HandshakeError, LinkError) as exc:
            result["d"] = exc
    await lst.aclose()
    return result["d"], result["a"]


async def test_two_links_exchange_frames_both_ways_and_close_cleanly():
    with trio.fail_after(10):
        d, a = await connect()
        assert isinstance(d, Link) and isinstance(a, Link)
        assert d.peer_key == public_bytes(BOB) and a.peer_key == public_bytes(ALICE)
        got_a: list[bytes] = []
        got_d: list[bytes] = []
        # Sent before either side runs: the first frames may arrive in the handshake's last read.
        d.send(b"one")
        d.send(b"x" * 200_000)
        a.send(b"back")
        async with trio.open_nursery() as nursery:
            nursery.start_soon(d.run, got_d.append)
            nursery.start_soon(a.run, got_a.append)
            while len(got_a) < 2 or len(got_d) < 1:
                await trio.sleep(0.01)
            d.close("done")
        assert got_a == [b"one", b"x" * 200_000]
        assert got_d == [b"back"]
        assert d.close_reason == "done"
        assert a.close_reason == "the peer closed the connection"
        assert not d.send(b"late")


async def test_a_wrong_game_is_refused_over_tcp_and_both_sides_know_why():
    with trio.fail_after(10):
        d, a = await connect(dialer=Handshake("dialer", ALICE, bind=b"H" * 32))
        assert isinstance(a, HandshakeError) and a.why is Why.WRONG_GAME
        assert isinstance(d, HandshakeError) and d.why is Why.REFUSED and "wrong game" in d.detail


async def test_a_wrong_join_code_is_refused_over_tcp():
    with trio.fail_after(20):
        d, a = await connect(
            dialer=Handshake("dialer", ALICE, bind=GAME, code_key=join_code_key("1234", GAME)),
            acceptor=Handshake("acceptor", BOB, binds=[GAME], code_key=join_code_key("4321", GAME)),
        )
        assert isinstance(a, HandshakeError) and a.why is Why.WRONG_CODE
        assert isinstance(d, HandshakeError) and "wrong join code" in d.detail


async def test_an_oversized_frame_closes_that_link_only():
    with trio.fail_after(10):
        d1, a1 = await connect()
        d2, a2 = await connect()
        assert isinstance(d1, Link) and isinstance(a1, Link)
        assert isinstance(d2, Link) and isinstance(a2, Link)
        got1: list[bytes] = []
        got2: list[bytes] = []
        async with trio.open_nursery() as nursery:
            nursery.start_soon(a1.run, got1.append)
            nursery.start_soon(a2.run, got2.append)
            nursery.start_soon(d2.run, lambda _payload: None)
            # A good frame, then a header announcing more than any message may be: the good one is
            # delivered, the link is closed at the header, and none of the announced bytes are awaited.
            await d1.stream.send_all(
                b"\x00\x00\x00\x02ok" + (MAX_MESSAGE_SIZE + 1).to_bytes(4, "big") + b"zz"
            )
            await a1.closed.wait()
            d2.send(b"still here")
            while not got2:
                await trio.sleep(0.01)
            assert a2.is_open
            d2.close("test over")
        assert got1 == [b"ok"]
        assert a1.close_reason is not None and "bad frame" in a1.close_reason
        assert got2 == [b"still here"]
        await trio.aclose_forcefully(d1.stream)


async def test_an_oversized_handshake_frame_is_refused_before_buffering():
    with trio.fail_after(10):
        lst = await listener()
        async with trio.open_nursery() as nursery:
            client = await trio.open_tcp_stream("127.0.0.1", port_of(lst))
            server = await lst.accept()
            await client.send_all((10**6).to_bytes(4, "big"))
            with pytest.raises(HandshakeError) as err:
                await establish(server, Handshake("acceptor", BOB, binds=[GAME]))
            assert err.value.why is Why.MALFORMED
            nursery.cancel_scope.cancel()
        await client.aclose()
        await lst.aclose()


async def test_a_silent_peer_is_cut_off_by_the_handshake_timeout():
    with trio.fail_after(10):
        lst = await listener()
        client = await trio.open_tcp_stream("127.0.0.1", port_of(lst))
        server = await lst.accept()
        with pytest.raises(LinkError, match="not completed"):
            await establish(server, Handshake("acceptor", BOB, binds=[GAME]), timeout=0.2)
        await client.aclose()
        await lst.aclose()


async def test_dialing_a_closed_port_is_a_link_error():
    with trio.fail_after(10):
        lst = await listener()
        port = port_of(lst)
        await lst.aclose()
        with pytest.raises(LinkError, match="cannot connect"):
            await dial("127.0.0.1", port, Handshake("dialer", ALICE, bind=GAME))


async def test_a_finished_link_writes_what_was_queued_then_closes():
    with trio.fail_after(10):
        d, a = await connect()
        assert isinstance(d, Link) and isinstance(a, Link)
        got: list[bytes] = []
        d.send(b"last words")
        d.finish()
        assert not d.send(b"too late")
        async with trio.open_nursery() as nursery:
            nursery.start_soon(a.run, got.append)
            await d.run(lambda _payload: None)
            await a.closed.wait()
        assert got == [b"last words"]
