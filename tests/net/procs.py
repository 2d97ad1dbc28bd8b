"""Helper programs (``tests.net.agent``) run inside test namespaces, read line by line from trio."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import trio

from .netns import Host

ROOT = Path(__file__).resolve().parents[2]


class Agent:
    def __init__(self, proc: trio.Process) -> None:
        self.proc = proc
        self._buffer = b""
        self.output: list[str] = []
        """Every line it printed (warnings and tracebacks too): shown when a test fails."""

    @classmethod
    async def start(cls, host: Host | None, *args: str, home: str | None = None) -> Agent:
        """``tests.net.agent`` with ``args``, in ``host``'s namespace (None: this one, for loopback)."""
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
        if home is not None:
            env["P2PCARDS_HOME"] = home
        argv = [sys.executable, "-m", "tests.net.agent", *args]
        proc = await trio.lowlevel.open_process(
            host.command(*argv) if host is not None else argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            env=env,
        )
        return cls(proc)

    async def next(self) -> dict[str, Any]:
        """The next ``@`` line, decoded."""
        assert self.proc.stdout is not None
        while True:
            while b"\n" not in self._buffer:
                data = await self.proc.stdout.receive_some(65536)
                if not data:
                    raise AssertionError("the agent ended:\n" + "\n".join(self.output))
                self._buffer += data
            raw, self._buffer = self._buffer.split(b"\n", 1)
            line = raw.decode(errors="replace")
            self.output.append(line)
            if line.startswith("@"):
                event: dict[str, Any] = json.loads(line[1:])
                return event

    async def until(self, event: str) -> dict[str, Any]:
        while True:
            got = await self.next()
            if got["event"] == event:
                return got

    async def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        await self.proc.stdin.send_all(line.encode() + b"\n")

    async def close_input(self) -> None:
        assert self.proc.stdin is not None
        await self.proc.stdin.aclose()

    async def stop(self) -> None:
        """Kill it if it is still running, and reap it."""
        with trio.CancelScope(shield=True):
            if self.proc.returncode is None:
                self.proc.kill()
            await self.proc.wait()
            for stream in (self.proc.stdin, self.proc.stdout):
                if stream is not None:
                    await stream.aclose()
