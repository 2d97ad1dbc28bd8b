"""Fixtures of the command-line tests that run real processes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import trio

from tests.cli.test_lan import Procs


@pytest.fixture
async def procs(tmp_path: Path, nursery: trio.Nursery) -> AsyncIterator[Procs]:
    """The processes a test starts, each stopped at its end whatever happened."""
    group = Procs(tmp_path, nursery)
    try:
        yield group
    finally:
        for proc in group.running:
            await proc.stop()
