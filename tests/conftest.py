"""The whole suite runs in parallel workers (pytest-xdist, ``-n auto`` in ``pyproject.toml``).

Every test is safe beside any other: each has its own data directory (``tmp_path``); every listener
in the machine's own network namespace takes a free port (``--port 0``, ``open_listener(..., 0)``);
the fixed ports (47474 and the next) and mDNS are used only inside network namespaces that the test
makes and removes, named after the worker's process id (``p2pcards.net.testbed``:
``p2pc-<pid>-<tag>``), so two workers never share one (``tests/net/test_parallel.py`` makes two at
once).  ``-n 0`` runs everything in one process, for a debugger.

How many workers: one more than the machine's cores, at least two, and work stealing (``--dist
worksteal`` in ``pyproject.toml``): an idle worker takes tests queued at a busy one, so no worker sits
idle while another still has a queue behind a long match.  The matches between programs (the files
``WAITING_FIRST`` names) are collected first: they mostly wait on clocks, so started early they overlap
with the CPU-bound tests instead of running alone at the end.  Most of the slow tests are matches
between processes that wait on the network and on timeouts (a seat silent for ``--timeout 5``), so a
core is often idle with one worker per core; with one more they stay busy (2 cores: 3 workers, about
twice as fast as one process; see the closing note of issue 20 for the figures).

No test touches the user's own files: every test runs with ``P2PCARDS_HOME`` (the data directory the
program reads) and ``XDG_DATA_HOME`` (where ``platformdirs`` puts it when ``P2PCARDS_HOME`` is unset)
inside its own ``tmp_path``, and so does every program a test starts with the test's environment.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from p2pcards.store.paths import HOME_ENV

WAITING_FIRST = ("tests/cli/test_lan", "_tty.py", "tests/net/test_lobby.py", "tests/net/test_node.py")
"""Test files whose tests start programs and wait on move clocks (path prefixes or endings)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def waits(item: pytest.Item) -> bool:
        path = item.nodeid.split("::")[0]
        return any(path.startswith(w) or path.endswith(w) for w in WAITING_FIRST)

    items.sort(key=lambda item: not waits(item))  # stable: the order within each group is kept


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(2, cores + 1)


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A data directory of the test's own, for the test and for the programs it starts.

    Not created here: a test that makes ``tmp_path / "home"`` itself still can.  Tests that change
    the environment temporarily use ``monkeypatch.context()``, never ``monkeypatch.undo()``, which
    would undo this too."""
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    # A second fence: code that ignored P2PCARDS_HOME (or a test that unsets it to reach the
    # platform's default) lands in the test's own directory too.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
