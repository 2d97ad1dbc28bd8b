"""Checking what the LAN commands are given: names, addresses, join codes, levels, interfaces.

Every check raises ``UsageError`` with what is wrong and what would be right (exit status 2).
"""

from __future__ import annotations

import contextlib
import getpass
import ipaddress
import socket
import unicodedata
from typing import Final

import ifaddr

from p2pcards.ai.base import LEVELS
from p2pcards.cli.common import UsageError
from p2pcards.text import MAX_NAME, name_problem, shown

PLAYER_LEVELS: Final = (*LEVELS, "random")
MIN_CODE: Final = 4
MAX_CODE: Final = 32
MIN_TIMEOUT: Final = 5
MIN_PLAYABLE_TIMEOUT: Final = 30
"""The shortest move clock a joiner sits down with unless asked by name: shorter, a person on a Wi-Fi
is named silent for thinking (SPEC §10)."""
MAX_TIMEOUT: Final = 3600


def level(value: str, flag: str) -> str:
    key = value.strip().lower()
    if key not in PLAYER_LEVELS:
        raise UsageError(f"{flag} must be one of {', '.join(PLAYER_LEVELS)}, not {value!r}")
    return key


def player_name(value: str | None) -> str:
    """The name shown to the others: ``--name``, else this computer's login name."""
    if value is None:
        try:
            value = getpass.getuser()
        except (OSError, KeyError):
            value = "Player"
        text = " ".join(value.split())[:MAX_NAME]
        return "Player" if name_problem(text) else text
    text = " ".join(value.split())
    problem = name_problem(text)
    if problem:
        raise UsageError(f"--name must be 1 to {MAX_NAME} printable characters ({problem}), "
                         f"not {shown(value, 60)!r}")
    return text


def join_code(value: str | None) -> str | None:
    """A private table's join code: letters and digits, spaces and dashes ignored (as people read it)."""
    if value is None:
        return None
    normal = "".join(ch for ch in unicodedata.normalize("NFKC", value) if ch not in " -_")
    if not MIN_CODE <= len(normal) <= MAX_CODE or not normal.isprintable():
        raise UsageError(
            f"--code must have {MIN_CODE} to {MAX_CODE} letters or digits (spaces and dashes do not "
            f"count), e.g. --code K7Q2-X9, not {value!r}"
        )
    return value


def port(value: int, flag: str = "--port") -> int:
    if not 0 <= value <= 65535:
        raise UsageError(f"{flag} must be a TCP port from 1 to 65535 (0: any free port), not {value}")
    return value


def seconds(value: float, flag: str, low: float, high: float) -> float:
    if not low <= value <= high:
        raise UsageError(f"{flag} must be from {low:g} to {high:g} seconds, not {value:g}")
    return value


def split_address(text: str) -> tuple[str, int] | None:
    """``HOST:PORT`` (``[v6]:PORT`` too) as a pair, or None if ``text`` does not look like one."""
    host, sep, digits = text.strip().rpartition(":")
    if not sep or not host or not digits.isdigit():
        return None
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    elif ":" in host:
        return None  # a bare IPv6 address needs brackets: [fe80::1]:47474
    number = int(digits)
    if not 1 <= number <= 65535:
        raise UsageError(f"{text!r}: the port must be from 1 to 65535")
    return host, number


def bare_address(text: str) -> str | None:
    """An IP address given without a port (``10.99.0.1``, ``fe80::1``, ``[fe80::1]``), or None."""
    candidate = text.strip()
    if candidate.startswith("[") and candidate.endswith("]"):
        candidate = candidate[1:-1]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return None


def local_addresses(*, loopback: bool = False) -> list[str]:
    """The IPv4 addresses of this machine's network interfaces (without 127.x unless asked)."""
    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            usable = isinstance(ip.ip, str) and ip.ip not in found
            if usable and (loopback or not ipaddress.IPv4Address(ip.ip).is_loopback):
                found.append(str(ip.ip))
    return found


def interface(value: str | None) -> str | None:
    """``--interface``: an interface name (``wlan0``) or one of this machine's IPv4 addresses; the
    IPv4 address to use, or None when not given."""
    if value is None:
        return None
    text = value.strip()
    with contextlib.suppress(ValueError):
        address = str(ipaddress.IPv4Address(text))
        if address not in local_addresses(loopback=True):
            raise UsageError(f"--interface {text}: no network interface of this machine has that address")
        return address
    names: list[str] = []
    for adapter in ifaddr.get_adapters():
        names.append(adapter.nice_name)
        if adapter.nice_name == text or adapter.name == text:
            for ip in adapter.ips:
                if isinstance(ip.ip, str):
                    return ip.ip
            raise UsageError(f"--interface {text}: that interface has no IPv4 address (is it connected?)")
    raise UsageError(f"--interface {text}: no such interface; this machine has: {', '.join(names) or 'none'}")


def is_loopback(address: str) -> bool:
    with contextlib.suppress(ValueError):
        return ipaddress.ip_address(address).is_loopback
    return False


def source_address(host: str, port_number: int) -> str:
    """The local address this machine would use to reach ``host`` (no packet is sent): where the
    other seats can reach this one back."""
    try:
        infos = socket.getaddrinfo(host, port_number, socket.AF_INET, socket.SOCK_DGRAM)
    except OSError as exc:
        raise UsageError(f"cannot resolve the host {host!r}: {exc.strerror or exc}") from None
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(infos[0][4])
        address: str = probe.getsockname()[0]
    except OSError as exc:
        raise UsageError(f"no route to {host}: {exc.strerror or exc}") from None
    finally:
        probe.close()
    return address
