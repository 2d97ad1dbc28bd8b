import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pcards.wire import DEFAULT_MAX_FRAME_SIZE, FrameDecoder, FrameError, Reason, encode_frame


def test_encode_frame_prefixes_the_big_endian_length() -> None:
    assert encode_frame(b"abc") == b"\x00\x00\x00\x03abc"
    with pytest.raises(FrameError):
        encode_frame(b"")
    with pytest.raises(FrameError) as info:
        encode_frame(b"x" * 11, max_frame_size=10)
    assert info.value.reason is Reason.TOO_LARGE


def test_frames_come_out_whole_and_in_order() -> None:
    decoder = FrameDecoder()
    stream = encode_frame(b"one") + encode_frame(b"two") + encode_frame(b"three")[:5]
    assert decoder.feed(stream) == [b"one", b"two"]
    assert decoder.buffered == 1  # the header of "three" was consumed, one payload byte is held
    assert decoder.feed(b"hree") == [b"three"]
    assert decoder.buffered == 0
    assert decoder.feed(b"") == []


def test_a_gigabyte_header_is_refused_after_four_bytes() -> None:
    decoder = FrameDecoder()
    header = (1 << 30).to_bytes(4, "big")
    assert decoder.feed(header[:3]) == []
    with pytest.raises(FrameError) as info:
        decoder.feed(header[3:] + b"\x00" * 1000)
    assert info.value.reason is Reason.TOO_LARGE
    assert decoder.failed
    assert decoder.buffered == 0  # not one payload byte was kept
    with pytest.raises(FrameError):  # permanently failed: the connection is to be closed
        decoder.feed(encode_frame(b"fine"))


def test_limit_is_exact_and_configurable() -> None:
    decoder = FrameDecoder(max_frame_size=10)
    assert decoder.feed(encode_frame(b"x" * 10)) == [b"x" * 10]
    with pytest.raises(FrameError):
        decoder.feed((11).to_bytes(4, "big"))
    assert FrameDecoder().max_frame_size == DEFAULT_MAX_FRAME_SIZE == 64 * 1024
    with pytest.raises(ValueError):
        FrameDecoder(0)


def test_zero_length_is_malformed_and_earlier_frames_are_handed_over() -> None:
    decoder = FrameDecoder()
    with pytest.raises(FrameError) as info:
        decoder.feed(encode_frame(b"good") + b"\x00\x00\x00\x00" + encode_frame(b"never"))
    assert info.value.reason is Reason.MALFORMED
    assert info.value.frames == [b"good"]


def _feed_all(decoder: FrameDecoder, chunks: list[bytes]) -> tuple[list[bytes], Reason | None]:
    frames: list[bytes] = []
    for chunk in chunks:
        try:
            frames += decoder.feed(chunk)
        except FrameError as exc:
            return frames + exc.frames, exc.reason
    return frames, None


@given(
    st.lists(st.binary(min_size=1, max_size=300), max_size=8),
    st.binary(max_size=12),  # junk after the valid frames: maybe a partial or bad header
    st.lists(st.integers(0, 4000), max_size=10),
)
def test_fragmentation_does_not_matter(payloads: list[bytes], tail: bytes, cuts: list[int]) -> None:
    stream = b"".join(encode_frame(p) for p in payloads) + tail
    whole = _feed_all(FrameDecoder(max_frame_size=512), [stream])
    bytewise = _feed_all(FrameDecoder(max_frame_size=512), [stream[i : i + 1] for i in range(len(stream))])
    points = sorted({0, len(stream), *(c % (len(stream) + 1) for c in cuts)})
    pieces = [stream[a:b] for a, b in itertools.pairwise(points)]
    chunked = _feed_all(FrameDecoder(max_frame_size=512), pieces)
    assert whole == bytewise == chunked
    assert whole[0][: len(payloads)] == payloads


@given(st.binary(max_size=2000), st.integers(1, 600))
def test_buffer_never_exceeds_header_plus_limit(data: bytes, limit: int) -> None:
    decoder = FrameDecoder(max_frame_size=limit)
    for i in range(0, len(data), 97):
        try:
            frames = decoder.feed(data[i : i + 97])
        except FrameError:
            assert decoder.buffered == 0
            return
        assert all(1 <= len(f) <= limit for f in frames)
        assert decoder.buffered <= 4 + limit
