"""Hostile input: random and mutated frames are rejected, raise nothing but WireError, change nothing."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2pcards.wire import (
    MAX_MESSAGE_SIZE,
    Chain,
    Duplicate,
    FrameDecoder,
    FrameError,
    Reason,
    Rejected,
    SignedMessage,
    WireError,
    accept,
    encode_frame,
)

from .helpers import GAME, PUBLIC, message

# A chain in mid-game: step 0 sealed (seat 0), step 1 open for seats 0, 1, 2 with seat 0 in.
GENESIS = message(0, 0, kind="genesis", body={"seats": 3})
_head1 = Chain(GAME, PUBLIC)
_head1.expect({0})
_head1.offer(GENESIS)
HEAD1 = _head1.head
SHARE0 = message(1, 0, HEAD1, kind="share", body={"positions": [1, 2, 3], "proof": b"\x02" * 97})
SHARE1 = message(1, 1, HEAD1, kind="share", body={"positions": [4, 5], "proof": b"\x03" * 97})
VALID = [GENESIS.data, SHARE0.data, SHARE1.data]


def _chain() -> Chain:
    chain = Chain(GAME, PUBLIC)
    chain.expect({0})
    chain.offer(GENESIS)
    chain.expect({0, 1, 2})
    chain.offer(SHARE0)
    return chain


def _state(chain: Chain) -> tuple[object, ...]:
    return (chain.step, chain.head, chain.awaited, chain.pending, chain.steps)


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(VALID)))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["flip", "set", "insert", "delete", "truncate", "extend"]))
        i = draw(st.integers(0, len(data) - 1)) if data else 0
        if op == "flip" and data:
            data[i] ^= 1 << draw(st.integers(0, 7))
        elif op == "set" and data:
            data[i] = draw(st.integers(0, 255))
        elif op == "insert":
            data[i:i] = draw(st.binary(min_size=1, max_size=4))
        elif op == "delete" and data:
            del data[i : i + draw(st.integers(1, 4))]
        elif op == "truncate":
            del data[i:]
        else:
            data += draw(st.binary(min_size=1, max_size=4))
    return bytes(data)


hostile = st.binary(max_size=400) | mutated()


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(hostile)
def test_hostile_payloads_never_change_the_chain(data: bytes) -> None:
    chain = _chain()
    before = _state(chain)
    outcome = chain.offer(data)
    if data in VALID:  # a mutation can give back the original bytes
        return
    assert isinstance(outcome, Rejected), outcome
    assert _state(chain) == before


CAUGHT_AFTER_PARSING = {Reason.TOO_LARGE, Reason.ANOTHER_GAME, Reason.UNKNOWN_SEAT, Reason.BAD_SIGNATURE}


@settings(max_examples=200)
@given(hostile)
def test_hostile_payloads_raise_only_wire_errors(data: bytes) -> None:
    try:
        msg: SignedMessage | None = SignedMessage.from_bytes(data)
    except WireError:
        msg = None
    verdict = accept(data, game_id=GAME, step=1, prev=HEAD1, awaited={0, 1, 2}, keys=PUBLIC)
    if data not in VALID:
        # Whatever still parses is a different message: at the latest its signature fails.
        assert isinstance(verdict, Rejected)
        assert msg is None or verdict.reason in CAUGHT_AFTER_PARSING


@settings(max_examples=200)
@given(st.lists(hostile, min_size=1, max_size=5), st.integers(1, 64))
def test_hostile_streams_through_the_decoder(payloads: list[bytes], chunk: int) -> None:
    stream = b"".join(encode_frame(p) if p else b"\x00\x00\x00\x00" for p in payloads)
    decoder = FrameDecoder(MAX_MESSAGE_SIZE)
    chain = _chain()
    before = _state(chain)
    try:
        for i in range(0, len(stream), chunk):
            for frame in decoder.feed(stream[i : i + chunk]):
                outcome = chain.offer(frame)
                assert isinstance(outcome, Rejected | Duplicate) or frame in VALID
    except FrameError:
        assert b"" in payloads
    if not any(p in VALID for p in payloads):
        assert _state(chain) == before


@given(st.binary(min_size=4, max_size=64))
def test_random_bytes_into_a_decoder(data: bytes) -> None:
    decoder = FrameDecoder()
    try:
        decoder.feed(data)
    except FrameError:
        assert decoder.failed
