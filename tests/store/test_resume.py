"""Invariant 5 at the store's level: kill a seat mid-game (leaving a half-written record), restart it
from its journal and secrets, and the game goes on to the same end on every replica."""

from __future__ import annotations

from pathlib import Path

from p2pcards.cli.verify import verify
from p2pcards.store import journal as jf

from .games import Crash, play


def test_a_seat_killed_mid_hand_resumes_from_its_store(ram_path: Path) -> None:
    torn = jf.encode_record(b"a message being written when the power went")[:11]
    p = play("durak", ram_path, crash=Crash(seat=1, at=600, torn=torn))
    assert p.restarted_at is not None and p.restarted_at > 20  # restored mid-hand, not from scratch
    assert all(t.over and t.fault is None for t in p.tables)
    assert len({t.digest() for t in p.tables}) == 1
    scan = jf.read(p.journal(1))
    assert scan.torn is None  # cut off on restart, and appended after since
    report = verify(p.journal(1), scan)
    assert report.ok and report.finished and [h.audit.ok for h in report.hands] == [True]
