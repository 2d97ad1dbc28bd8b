"""The tests' LAN of network namespaces (see ``p2pcards.net.testbed``), on its own subnet."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from p2pcards.net.testbed import Host, Lan, lan, unavailable

SUBNET = "10.213.0"

__all__ = ["SUBNET", "Host", "Lan", "lan_fixture", "unavailable"]


def lan_fixture(count: int, tag: str) -> Iterator[Lan]:
    """``count`` hosts on a LAN of their own, removed afterwards; the test is skipped, with the reason,
    on a machine where network namespaces cannot be made (``unavailable`` says why: not Linux, not root)."""
    reason = unavailable()
    if reason is not None:
        pytest.skip(reason)
    yield from lan(count, tag, SUBNET)
