"""A small LAN of Linux network namespaces, made and removed by a test or a benchmark.

Topology: a *switch* namespace holds a bridge; each host namespace is joined to it by a veth pair
and gets ``<subnet>.<i+1>/24`` and a multicast route.  Nothing is created in the machine's own
namespace and no namespace has a route out, so multicast (mDNS) can be used freely without ever
touching the real network.  Needs root and the ``ip`` binary (iproute2).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass


def unavailable() -> str | None:
    """Why namespaces cannot be made here (said to the user as is), or None."""
    if not sys.platform.startswith("linux"):
        return "network namespaces are Linux only"
    if os.geteuid() != 0:
        return "network namespaces need root (CI runs as root)"
    if shutil.which("ip") is None:
        return "network namespaces need the `ip` binary (iproute2)"
    return None


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=20)


@dataclass(frozen=True)
class Host:
    netns: str
    address: str

    def command(self, *argv: str) -> list[str]:
        """``argv`` run inside this host's namespace."""
        return ["ip", "netns", "exec", self.netns, *argv]


@dataclass
class Lan:
    switch: str
    hosts: list[Host]


def make_lan(count: int, tag: str, subnet: str) -> Lan:
    """``count`` hosts named ``p2pc-<pid>-<tag>-<i>`` on ``subnet`` (three octets, e.g. ``10.213.0``)."""
    prefix = f"p2pc-{os.getpid()}-{tag}"
    switch = f"{prefix}-sw"
    lan = Lan(switch, [])
    _ip("netns", "add", switch)
    try:
        _ip("-n", switch, "link", "add", "br0", "type", "bridge")
        # Without snooping the bridge floods multicast to every port, like a home Wi-Fi router.
        _ip("-n", switch, "link", "set", "br0", "type", "bridge", "mcast_snooping", "0")
        _ip("-n", switch, "link", "set", "br0", "up")
        for i in range(count):
            host = Host(f"{prefix}-{i}", f"{subnet}.{i + 1}")
            _ip("netns", "add", host.netns)
            lan.hosts.append(host)
            port = f"port{i}"
            _ip("link", "add", "name", port, "netns", switch, "type", "veth",
                "peer", "name", "eth0", "netns", host.netns)  # fmt: skip
            _ip("-n", switch, "link", "set", port, "master", "br0")
            _ip("-n", switch, "link", "set", port, "up")
            _ip("-n", host.netns, "link", "set", "lo", "up")
            _ip("-n", host.netns, "addr", "add", f"{host.address}/24", "dev", "eth0")
            _ip("-n", host.netns, "link", "set", "eth0", "up")
            _ip("-n", host.netns, "route", "add", "224.0.0.0/4", "dev", "eth0")
    except BaseException:
        remove_lan(lan)
        raise
    return lan


def remove_lan(lan: Lan) -> None:
    """Delete every namespace (their veth ends go with them)."""
    for name in [h.netns for h in lan.hosts] + [lan.switch]:
        subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=20)


def lan(count: int, tag: str, subnet: str) -> Iterator[Lan]:
    """A LAN for the length of a ``with`` (via ``contextlib.contextmanager``) or a pytest fixture."""
    made = make_lan(count, tag, subnet)
    try:
        yield made
    finally:
        remove_lan(made)
