"""The guard of the tests that play matches between processes (``Procs.progressing``): a match that
goes on, however slowly, is never failed for its length; one where nobody prints anything for a while
is, with what each process printed.  Run on trio's mock clock: the seconds are the guard's logic."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import pytest
import trio
import trio.testing

from tests.cli.test_lan import Proc, Procs


class Talking:
    """Stands for a process: the lines it printed, the report a failure shows."""

    name = "talking"

    def __init__(self) -> None:
        self.output: list[str] = []

    def report(self) -> str:
        return f"--- {self.name}: {len(self.output)} lines"


async def test_a_slow_match_that_goes_on_is_not_failed_for_its_length(
    tmp_path: Path, nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    group = Procs(tmp_path, nursery)
    seat = Talking()
    group.running.append(cast(Proc, seat))
    with group.progressing(quiet_s=60, limit_s=3600):
        for _ in range(20):  # a line every 50 s: 1000 s of match, far past the old deadlines
            await trio.sleep(50)
            seat.output.append("a move")
        group.running.clear()
    assert trio.current_time() >= 1000


async def test_a_match_where_nobody_prints_anything_fails_with_what_they_printed(
    tmp_path: Path, nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    group = Procs(tmp_path, nursery)
    group.running.append(cast(Proc, Talking()))
    started = trio.current_time()
    quiet = pytest.raises(AssertionError, match=r"nothing printed for 60 s\n--- talking: 0 lines")
    with quiet, group.progressing(quiet_s=60, limit_s=600):
        await trio.sleep_forever()
    assert 60 <= trio.current_time() - started <= 120


async def test_a_match_that_talks_forever_fails_at_the_limit(
    tmp_path: Path, nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    group = Procs(tmp_path, nursery)
    seat = Talking()
    group.running.append(cast(Proc, seat))
    with pytest.raises(AssertionError, match="not over after 600 s"), group.progressing(60, 600):
        while True:
            await trio.sleep(1)
            seat.output.append("waiting")
    assert trio.current_time() == pytest.approx(600)
