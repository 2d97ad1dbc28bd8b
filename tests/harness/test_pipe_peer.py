"""``p2pcards peer --stdio`` takes what the harness says as hostile until checked: a record with a
field out of shape ends the run with status 2 and one line naming the field, never a traceback."""

from __future__ import annotations

import io
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2pcards.harness.pipe import PipeError, pack, read_record
from p2pcards.harness.pipe_peer import PipePeer
from p2pcards.harness.run import _identity_seeds
from p2pcards.table.genesis import make_genesis
from p2pcards.wire import encode_frame, key_from_seed, public_bytes

SEEDS = _identity_seeds(3, 1)
GENESIS = make_genesis(
    "durak", [(f"seat {i}", public_bytes(key_from_seed(s))) for i, s in enumerate(SEEDS)], nonce=b"pipe peer"
)
START: dict[str, Any] = {
    "cmd": "start", "version": 1, "seat": 0, "genesis": GENESIS.encode(), "identity": SEEDS[0],
    "entropy": bytes(32), "secrets": {}, "journal": [],
}


def _peer(stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "p2pcards", "peer", "--stdio"], input=stdin,
                          capture_output=True, timeout=60)


@pytest.mark.parametrize(
    ("edit", "named"),
    [
        ({"seat": 99}, "start's seat is a seat of the table, 0 to 2, not 99"),
        ({"seat": -1}, "start's seat is a seat of the table, 0 to 2, not -1"),
        ({"identity": b"12345"}, "start's identity is 32 bytes, not 5"),
        ({"secrets": {"master": b"1"}}, "start's secrets: 'master' is 32 bytes, not 1"),
        ({"secrets": {"master": 7}}, "start's secrets maps text labels to bytes, not str to int"),
        ({"journal": [1, 2]}, "start's journal holds messages as bytes; entry 0 is int"),
        ({"journal": ["a"]}, "start's journal holds messages as bytes; entry 0 is str"),
        ({"journal": [[b"a"]]}, "start's journal holds messages as bytes; entry 0 is list"),
    ],
)
def test_a_start_with_a_field_out_of_shape_is_status_2_and_one_line_naming_it(edit, named):
    done = _peer(pack(START | edit))
    assert done.returncode == 2, done.stderr
    assert done.stderr.decode() == f"p2pcards peer: the harness pipe broke its rules: {named}\n"


def _answer(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every record our peer writes for ``records``, in process (``PipeError`` as it would end it)."""
    stdout = io.BytesIO()
    peer = PipePeer(stdout)
    for r in records:
        peer.handle(r)
    stdout.seek(0)
    said = []
    while (record := read_record(stdout)) is not None:
        said.append(record)
    return said


@pytest.mark.parametrize(
    ("records", "named"),
    [
        ([START, START], "a second start"),
        ([START | {"identity": SEEDS[1]}], "start's identity is not the key of seat 0"),
        ([START | {"entropy": b"x"}], "start's entropy is 32 bytes, not 1"),
        ([START | {"journal": [b"x" * 3_000_000]}], "start's journal entry 0 is 3000000 bytes, over the"),
        ([START, {"cmd": "frame", "from": 0, "data": b""}], "another seat than the program's"),
        ([START, {"cmd": "frame", "from": 3, "data": b""}], "frame's from is a seat of the table, 0 to 2"),
        ([START, {"cmd": "tick", "now": -5}], "tick's now is a time in ms from 0, not -5"),
        ([START, {"cmd": "act", "text": "x" * 10_000}], "act's text is at most 4096 characters"),
    ],
)
def test_every_other_command_out_of_shape_is_a_pipe_error_naming_the_field(records, named):
    with pytest.raises(PipeError, match=named):
        _answer(records)


def test_frames_whole_before_a_bad_length_are_taken_and_the_next_bytes_open_a_new_connection():
    seat1 = _answer([START | {"seat": 1, "identity": SEEDS[1]}])
    commitment = next(r["payload"] for r in seat1 if r.get("out") == "send")
    said = _answer([START, {"cmd": "frame", "from": 1, "data": encode_frame(commitment) + bytes(4)}])
    assert [r["out"] for r in said if r["out"] in ("persist", "close")][-2:] == ["persist", "close"]
    assert said[-3]["payload"] == commitment  # seat 1's commitment, taken before the connection closed
    # The closed stream is not read again: the same bytes from seat 1 open a new connection.
    again = _answer([START, {"cmd": "frame", "from": 1, "data": bytes(4)},
                     {"cmd": "frame", "from": 1, "data": encode_frame(commitment)}])
    assert [r["payload"] for r in again if r["out"] == "persist"][-1] == commitment


_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.binary(max_size=40)
    | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=st.sampled_from(sorted(START)), value=_VALUES,
       then=st.sampled_from(["tick", "frame", "act", "report"]), arg=_VALUES)
def test_no_record_makes_our_peer_fail_other_than_by_naming_the_pipes_rule(field, value, then, arg):
    key = {"tick": "now", "frame": "from", "act": "text", "report": "x"}[then]
    try:
        _answer([START | {field: value}, {"cmd": then, key: arg, "data": b"\x00\x00\x00\x01\x00"}])
    except PipeError as exc:
        assert "\n" not in str(exc)
