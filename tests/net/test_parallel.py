"""The suite's workers run side by side (``tests/conftest.py``): two of them can each make a LAN of
network namespaces at the same moment, with the same tag and subnet, and neither sees the other's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .netns import SUBNET, unavailable

ROOT = Path(__file__).resolve().parents[2]

MAKE = f"""
import contextlib, sys, time
from p2pcards.net.testbed import lan
with contextlib.contextmanager(lan)(1, "same", "{SUBNET}") as made:
    print(" ".join(h.netns for h in made.hosts), flush=True)
    sys.stdin.readline()  # both LANs exist at once until the test says so
"""


def test_two_workers_make_a_lan_each_at_the_same_time_without_colliding() -> None:
    reason = unavailable()
    if reason is not None:
        pytest.skip(reason)
    workers = [subprocess.Popen([sys.executable, "-c", MAKE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=ROOT) for _ in range(2)]
    try:
        names = [w.stdout.readline().split() for w in workers if w.stdout is not None]
        assert len(names) == 2 and all(len(n) == 1 for n in names), [w.stderr for w in workers]
        assert not set(names[0]) & set(names[1])  # named after each worker's process
        listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, timeout=20).stdout
        assert all(n in listed for pair in names for n in pair)
    finally:
        for w in workers:
            assert w.stdin is not None
            w.stdin.close()
        codes = [w.wait(60) for w in workers]
    assert codes == [0, 0], [w.stderr.read() if w.stderr else "" for w in workers]
    left = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, timeout=20).stdout
    assert not any(n in left for pair in names for n in pair)  # each removed its own
