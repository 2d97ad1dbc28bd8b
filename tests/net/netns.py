"""A small LAN of Linux network namespaces, made and removed by a test.

Topology: a *switch* namespace holds a bridge; each host namespace is joined to it by a veth pair
and gets ``10.213.0.<i+1>/24`` and a multicast route.  Nothing is created in the machine's own
namespace and no namespace has a route out, so a test can use multicast (mDNS) freely without ever
touching the real network.  Needs root and the ``ip`` binary.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass

SUBNET = "10.213.0"


def unavailable() -> str | None:
    """Why namespaces cannot be used here (the exact skip reason), or None."""
    if os.geteuid() != 0:
        return "network namespace tests need root (CI runs them as root)"
    if shutil.which("ip") is None:
        return "network namespace tests need the `ip` binary (iproute2)"
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


def make_lan(count: int, tag: str) -> Lan:
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
            host = Host(f"{prefix}-{i}", f"{SUBNET}.{i + 1}")
            _ip("netns", "add", host.netns)
            lan.hosts.append(host)
            port = f"port{i}"
            _ip(
                "link",
                "add",
                "name",
                port,
                "netns",
                switch,
                "type",
                "veth",
                "peer",
                "name",
                "eth0",
                "netns",
                host.netns,
            )
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


def lan_fixture(count: int, tag: str) -> Iterator[Lan]:
    lan = make_lan(count, tag)
    try:
        yield lan
    finally:
        remove_lan(lan)
