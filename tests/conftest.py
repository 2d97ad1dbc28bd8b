"""The whole suite runs in parallel workers (pytest-xdist, ``-n auto`` in ``pyproject.toml``).

Every test is safe beside any other: each has its own data directory (``tmp_path``); every listener
in the machine's own network namespace takes a free port (``--port 0``, ``open_listener(..., 0)``);
the fixed ports (47474 and the next) and mDNS are used only inside network namespaces that the test
makes and removes, named after the worker's process id (``p2pcards.net.testbed``:
``p2pc-<pid>-<tag>``), so two workers never share one (``tests/net/test_parallel.py`` makes two at
once).  ``-n 0`` runs everything in one process, for a debugger.

How many workers: one more than the machine's cores, at least two.  Most of the slow tests are matches
between processes that wait on the network and on timeouts (a seat silent for ``--timeout 5``), so a
core is often idle with one worker per core; with one more they stay busy (2 cores: 3 workers, about
twice as fast as one process; see the closing note of issue 20 for the figures).
"""

from __future__ import annotations

import os

import pytest


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(2, cores + 1)
