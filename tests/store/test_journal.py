"""The journal file: format, appends, torn tails left by a crash, corruption, locking."""

from __future__ import annotations

import errno
import os
import stat
import struct
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.store import (
    ForeignJournal,
    GameStore,
    JournalBusy,
    JournalCorrupt,
    NotAJournal,
    StoreError,
    saved_games,
)
from p2pcards.store import journal as jf
from p2pcards.store.journal import Journal
from p2pcards.wire import Envelope, key_from_seed, sign

GAME = bytes(range(32))

PAYLOADS = [b"genesis", bytes(range(256)) * 3, b"\x00\x01", b"the last record: " + bytes(range(40))]


def make(path: Path, payloads: list[bytes], game_id: bytes | None = None) -> Path:
    with Journal.open(path, game_id=game_id) as j:
        for p in payloads:
            j.append(p, flush=False)
    return path


def test_the_format_is_header_then_length_payload_crc(tmp_path: Path) -> None:
    path = make(tmp_path / "j", [b"abc", b"de"])
    expected = b"P2PJ\x01"
    for p in (b"abc", b"de"):
        expected += struct.pack(">I", len(p)) + p + struct.pack(">I", zlib.crc32(p))
    assert path.read_bytes() == expected
    assert jf.read(path).payloads == [b"abc", b"de"]


def test_a_new_journal_is_private_and_names_its_game(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j", game_id=GAME) as j:
        assert len(j) == 0 and j.payloads() == [] and j.game_id == GAME
        assert (tmp_path / "j").read_bytes() == jf.HEADER + jf.encode_record(jf.GAME_TAG + GAME)
        assert stat.S_IMODE((tmp_path / "j").stat().st_mode) == 0o600
        j.append(b"genesis", flush=True)
    scan = jf.read(tmp_path / "j")
    assert scan.game_id == GAME and scan.payloads == [b"genesis"]


def test_a_journal_that_never_got_a_message_is_removed_on_close(tmp_path: Path) -> None:
    # Ctrl-C during a game's start-up: nothing is left that would look like a saved game.
    with Journal.open(tmp_path / "j", game_id=GAME):
        assert (tmp_path / "j").exists()
    assert not (tmp_path / "j").exists()
    with pytest.raises(KeyboardInterrupt), Journal.open(tmp_path / "j", game_id=GAME):
        raise KeyboardInterrupt
    assert not (tmp_path / "j").exists()
    # One that existed before is never removed, even when it holds nothing.
    (tmp_path / "old").write_bytes(jf.header(GAME))
    Journal.open(tmp_path / "old", game_id=GAME).close()
    assert (tmp_path / "old").exists()


def test_an_empty_journal_left_by_a_killed_process_is_no_saved_game(_private_home: Path) -> None:
    directory = _private_home / "games" / GAME.hex()
    directory.mkdir(parents=True)
    (directory / "journal").write_bytes(jf.header(GAME))  # what kill -9 during the start-up leaves
    assert jf.is_empty(directory / "journal") and saved_games() == []
    with GameStore.open(GAME) as g:
        g.persist(b"genesis", own=True)
    assert saved_games() == [GAME] and not jf.is_empty(directory / "journal")


def test_a_journal_of_another_game_is_refused_as_a_whole(tmp_path: Path) -> None:
    other = bytes(reversed(GAME))
    path = make(tmp_path / "j", [b"one", b"two"], game_id=other)
    before = path.read_bytes()
    words = f"belongs to game {other.hex()[:12]}, not to game {GAME.hex()[:12]}"
    with pytest.raises(ForeignJournal, match=words):
        Journal.open(path, game_id=GAME)
    assert path.read_bytes() == before  # nothing read into the game, nothing cut or repaired
    with Journal.open(path, game_id=other) as j:
        assert j.payloads() == [b"one", b"two"]


def test_a_journal_without_a_game_record_is_refused_even_for_its_own_game(tmp_path: Path) -> None:
    key = key_from_seed(bytes(32))
    env = Envelope(game_id=GAME, step=0, seat=0, prev=bytes(32), kind="genesis", body=b"g")
    message = sign(env, key).data
    (tmp_path / "j").write_bytes(jf.HEADER + jf.encode_record(message))  # the game record removed
    before = (tmp_path / "j").read_bytes()
    for game in (GAME, bytes(reversed(GAME))):
        with pytest.raises(NotAJournal, match="its first record is not the game record"):
            Journal.open(tmp_path / "j", game_id=game)
    with pytest.raises(NotAJournal, match="not the game record"):
        jf.require_game(jf.read(tmp_path / "j"), tmp_path / "j")
    assert (tmp_path / "j").read_bytes() == before


def test_a_journal_with_no_record_gets_its_game_record_first(tmp_path: Path) -> None:
    (tmp_path / "j").write_bytes(jf.HEADER)
    with Journal.open(tmp_path / "j", game_id=GAME) as j:
        j.append(b"genesis", flush=True)
    scan = jf.read(tmp_path / "j")
    assert jf.require_game(scan, tmp_path / "j") == GAME and scan.payloads == [b"genesis"]


def test_appends_survive_reopening(tmp_path: Path) -> None:
    path = make(tmp_path / "j", PAYLOADS[:2])
    with Journal.open(path) as j:
        assert j.repaired is None and len(j) == 2
        j.append(PAYLOADS[2], flush=True)
        assert j.payloads() == PAYLOADS[:3]
    assert jf.read(path).payloads == PAYLOADS[:3]


def test_flush_means_fsync(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = os.fsync
    with Journal.open(tmp_path / "j") as j:
        def counting(fd: int) -> None:
            calls.append(fd)
            real(fd)

        monkeypatch.setattr(os, "fsync", counting)
        j.append(b"theirs", flush=False)
        assert calls == []
        j.append(b"ours", flush=True)
        assert len(calls) == 1


def test_unflushed_appends_are_already_in_the_file(tmp_path: Path) -> None:
    # A killed process loses nothing: appends are not buffered in the process.
    with Journal.open(tmp_path / "j") as j:
        j.append(b"theirs", flush=False)
        assert jf.read(tmp_path / "j").payloads == [b"theirs"]


@pytest.mark.parametrize("payload", [b"", b"x" * (jf.MAX_RECORD + 1)])
def test_record_size_limits(tmp_path: Path, payload: bytes) -> None:
    with Journal.open(tmp_path / "j") as j, pytest.raises(ValueError):
        j.append(payload, flush=False)


# ---------------------------------------------------------------------------- torn tails


def test_a_torn_last_record_at_every_byte_offset(tmp_path: Path) -> None:
    full = make(tmp_path / "full", PAYLOADS).read_bytes()
    last = len(full) - (len(PAYLOADS[-1]) + jf.OVERHEAD)
    for cut in range(last + 1, len(full)):
        path = tmp_path / f"cut{cut}"
        path.write_bytes(full[:cut])
        scan = jf.read(path)  # never raises
        assert scan.payloads == PAYLOADS[:-1], cut
        assert scan.torn is not None and scan.torn.offset == last and scan.torn.size == cut - last
        with Journal.open(path) as j:
            assert j.repaired == scan.torn
            j.append(b"after the crash", flush=False)
        after = jf.read(path)
        assert after.payloads == [*PAYLOADS[:-1], b"after the crash"] and after.torn is None
        path.unlink()


def test_a_torn_large_record_at_every_byte_offset() -> None:
    big = bytes(range(256)) * 5  # zeros and small numbers inside, like real messages
    whole = jf.HEADER + jf.encode_record(b"first") + jf.encode_record(big)
    start = len(jf.HEADER) + jf.OVERHEAD + len(b"first")
    for cut in range(start + 1, len(whole)):
        scan = jf.parse(whole[:cut])
        assert scan.payloads == [b"first"] and scan.torn is not None, cut


def test_a_cut_at_a_record_boundary_is_not_torn(tmp_path: Path) -> None:
    full = make(tmp_path / "full", PAYLOADS).read_bytes()
    last = len(full) - (len(PAYLOADS[-1]) + jf.OVERHEAD)
    (tmp_path / "cut").write_bytes(full[:last])
    scan = jf.read(tmp_path / "cut")
    assert scan.payloads == PAYLOADS[:-1] and scan.torn is None


def test_a_bad_crc_on_the_last_record_is_a_torn_tail(tmp_path: Path) -> None:
    data = bytearray(make(tmp_path / "j", PAYLOADS).read_bytes())
    data[-1] ^= 0xFF
    (tmp_path / "j").write_bytes(bytes(data))
    scan = jf.read(tmp_path / "j")
    assert scan.payloads == PAYLOADS[:-1] and scan.torn is not None
    assert "CRC" in scan.torn.reason and "an incomplete record" in str(scan.torn)


def test_zeros_after_the_last_record_are_a_torn_tail(tmp_path: Path) -> None:
    # Some file systems extend a file before its data is written: a crash leaves zeros.
    path = make(tmp_path / "j", PAYLOADS)
    size = path.stat().st_size
    path.write_bytes(path.read_bytes() + bytes(4096))
    assert jf.read(path).payloads == PAYLOADS
    with Journal.open(path) as j:
        assert j.repaired is not None
    assert path.stat().st_size == size


@given(st.lists(st.binary(min_size=1, max_size=40), max_size=6), st.data())
@settings(max_examples=150, deadline=None)
def test_any_prefix_of_a_journal_reads_as_a_prefix_of_its_records(
    payloads: list[bytes], data: st.DataObject
) -> None:
    whole = jf.HEADER + b"".join(jf.encode_record(p) for p in payloads)
    cut = data.draw(st.integers(len(jf.HEADER), len(whole)))
    scan = jf.parse(whole[:cut])
    boundaries = [len(jf.HEADER)]
    for p in payloads:
        boundaries.append(boundaries[-1] + len(p) + jf.OVERHEAD)
    complete = sum(1 for b in boundaries[1:] if b <= cut)
    assert scan.payloads == payloads[:complete]
    assert scan.end == boundaries[complete]
    assert (scan.torn is None) == (cut == scan.end)


# ---------------------------------------------------------------------------- corruption


def _offsets(path: Path) -> list[int]:
    data = path.read_bytes()
    offsets, offset = [], len(jf.HEADER)
    while offset < len(data):
        offsets.append(offset)
        offset += jf.OVERHEAD + int.from_bytes(data[offset : offset + 4], "big")
    return offsets


@pytest.mark.parametrize("victim", [0, 1, 2])
def test_a_bad_crc_in_the_middle_names_the_offset(tmp_path: Path, victim: int) -> None:
    path = make(tmp_path / "j", PAYLOADS)
    offset = _offsets(path)[victim]
    data = bytearray(path.read_bytes())
    data[offset + 5] ^= 0x10  # a payload byte
    path.write_bytes(bytes(data))
    with pytest.raises(JournalCorrupt) as info:
        jf.read(path)
    assert info.value.offset == offset
    assert f"offset {offset}" in str(info.value) and str(path) in str(info.value)
    with pytest.raises(JournalCorrupt):
        Journal.open(path)  # never "repaired" by cutting off intact records
    assert path.read_bytes() == bytes(data)


def test_a_damaged_length_that_swallows_intact_records_is_corruption(tmp_path: Path) -> None:
    path = make(tmp_path / "j", PAYLOADS)
    offset = _offsets(path)[1]
    data = bytearray(path.read_bytes())
    data[offset : offset + 4] = struct.pack(">I", len(data))  # runs past the end, like a torn record
    path.write_bytes(bytes(data))
    with pytest.raises(JournalCorrupt) as info:
        jf.read(path)
    assert info.value.offset == offset and "intact record follows" in str(info.value)


def test_garbage_between_records_is_corruption(tmp_path: Path) -> None:
    path = make(tmp_path / "j", PAYLOADS)
    offset = _offsets(path)[2]
    data = path.read_bytes()
    path.write_bytes(data[:offset] + b"\xff\xff\xff\xff" + data[offset:])
    with pytest.raises(JournalCorrupt) as info:
        jf.read(path)
    assert info.value.offset == offset


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "P2PJ header"),
        (b"P2P", "P2PJ header"),
        (b"PK\x03\x04 a zip file", "P2PJ header"),
        (b"P2PJ\x02", "version 2"),
    ],
)
def test_not_a_journal(tmp_path: Path, content: bytes, words: str) -> None:
    path = tmp_path / "j"
    path.write_bytes(content)
    with pytest.raises(NotAJournal, match=words):
        jf.read(path)
    with pytest.raises(NotAJournal):
        Journal.open(path)


# ---------------------------------------------------------------------------- writers


def test_one_writer_at_a_time(tmp_path: Path) -> None:
    make(tmp_path / "j", [b"one"])
    with Journal.open(tmp_path / "j"), pytest.raises(JournalBusy, match="another p2pcards process"):
        Journal.open(tmp_path / "j")
    with Journal.open(tmp_path / "j"):  # released on close
        pass


def test_a_failed_write_leaves_the_journal_sound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "j"
    with Journal.open(path) as j:
        j.append(b"first", flush=True)
        real_write = os.write

        def half_then_full(fd: int, data: bytes | memoryview) -> int:
            real_write(fd, bytes(data[: len(data) // 2]))
            raise OSError(errno.ENOSPC, "No space left on device")

        with monkeypatch.context() as patch:
            patch.setattr(os, "write", half_then_full)
            with pytest.raises(StoreError, match="No space left"):
                j.append(b"second" * 10, flush=True)
        assert jf.read(path).torn is None
        j.append(b"third", flush=True)
    assert jf.read(path).payloads == [b"first", b"third"]


def test_a_transport_message_in_a_journal_is_not_given_back_to_resume_from(tmp_path: Path) -> None:
    key = key_from_seed(bytes(32))
    messages = [
        sign(Envelope(game_id=GAME, step=0, seat=0, prev=bytes(32), kind=kind, body=body), key).data
        for kind, body in (("genesis", b"g"), ("catchup_request", {"after": -1}),
                           ("catchup_response", {"msgs": []}), ("coin_commit", bytes(32)))
    ]  # fmt: skip
    make(tmp_path / "j", messages, game_id=GAME)
    assert jf.read(tmp_path / "j").payloads == messages  # the format holds any record
    with Journal.open(tmp_path / "j", game_id=GAME) as j:
        assert j.payloads() == [messages[0], messages[3]]
