"""The tests' LAN of network namespaces (see ``p2pcards.net.testbed``), on its own subnet."""

from __future__ import annotations

from collections.abc import Iterator

from p2pcards.net.testbed import Host, Lan, lan, unavailable

SUBNET = "10.213.0"

__all__ = ["SUBNET", "Host", "Lan", "lan_fixture", "unavailable"]


def lan_fixture(count: int, tag: str) -> Iterator[Lan]:
    yield from lan(count, tag, SUBNET)
