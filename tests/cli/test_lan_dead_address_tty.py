"""``join HOST:PORT`` where no table answers, at a terminal: the player reads what was tried and what
to check next, as the bare-address form says it, never a raw socket error alone.  On a LAN of network
namespaces, an address where no laptop is ("No route to host"); on this machine, a closed port."""

from __future__ import annotations

import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from tests.cli.test_lan_screen import env_for
from tests.cli.test_screen_tty import COLUMNS, ROOT, ROWS, plain
from tests.net.netns import SUBNET, Lan, lan_fixture


@pytest.fixture
def lan1() -> Iterator[Lan]:
    yield from lan_fixture(1, "dead")


def join_at_a_terminal(home: Path, address: str, prefix: list[str]) -> tuple[int, str]:
    argv = [*prefix, sys.executable, "-m", "p2pcards", "join", address, "--name", "Ann"]
    child = pexpect.spawn(argv[0], argv[1:], env=env_for(home), encoding="utf-8", timeout=60,
                          dimensions=(ROWS, COLUMNS), cwd=str(ROOT))
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus or 0, " ".join(plain(child.before).split())


def advises(said: str) -> None:
    assert "Check the address on the host's screen" in said, said
    assert "its port included" in said and "still running" in said and "same network" in said, said
    assert "troubleshooting" in said and "error connecting" not in said, said


def test_an_address_where_no_laptop_is_says_what_to_check_next(lan1: Lan, tmp_path: Path) -> None:
    (me,) = lan1.hosts
    dead = f"{SUBNET}.99:47474"
    code, said = join_at_a_terminal(tmp_path / "ann", dead, me.command())
    assert code == 1
    assert f"no p2pcards table at {dead}: port 47474 cannot be reached (no route to host)." in said, said
    advises(said)


def test_a_closed_port_says_nothing_listens_and_what_to_check_next(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code, said = join_at_a_terminal(tmp_path / "ann", f"127.0.0.1:{port}", [])
    assert code == 1
    assert f"nothing listens on port {port} (the connection was refused)." in said, said
    advises(said)
