"""The supervisor of one run of a program under test (``protocol/HARNESS.md`` §1): every process the
program starts is gone when its run ends.

The harness does not start the program itself but this small process, ``python -I -S
pipe_supervisor.py HARNESS_PID COMMAND...``, which starts the program in a process group of its own
with the supervisor's standard input, output and error (the pipe), and waits.  On Linux it is the
*subreaper* of everything below it (``prctl(PR_SET_CHILD_SUBREAPER)``): a helper the program started
and left behind, even one that started a new session of its own (``setsid``) to leave the program's
process group, becomes the supervisor's child instead of init's.  When the program exits, or the
harness says so (SIGTERM), or the harness itself dies (``PR_SET_PDEATHSIG``), the supervisor kills
the program's process group and every process below itself, reaps them, and exits with the program's
status (128 + the signal for a program killed by one).

It imports nothing but the standard library (it runs with ``-I -S``: no site packages, no
environment), so it starts in a few milliseconds.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
ROUNDS = 200
"""Rounds of killing and reaping before giving up on a process that keeps forking (each 5 ms)."""


class _Told(Exception):
    """The harness said the run is over (SIGTERM)."""


def _told(signum: int, frame: object) -> None:
    raise _Told


def _prctl(option: int, value: int) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(option, value, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _descendants(root: int) -> list[int]:
    """Every process below ``root``, from ``/proc`` (empty where there is none)."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for name in entries:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue  # gone meanwhile
        # The name in parentheses may hold anything, spaces and parentheses included: the fields
        # after the last ")" are state, then the parent's pid.
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1:
            children.setdefault(int(fields[1]), []).append(int(name))
    found: list[int] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _end_everything(group: int) -> None:
    """Kill the program's process group and every process below this one, and reap them all."""
    me = os.getpid()
    for _ in range(ROUNDS):
        with contextlib.suppress(OSError):
            os.killpg(group, signal.SIGKILL)
        below = _descendants(me)
        for pid in below:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        reaped = False
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                pid = -1
            if pid <= 0:
                break
            reaped = True
        if not below and not reaped:
            try:
                os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return  # no child left, and nothing below: done
        time.sleep(0.005)


def main(argv: list[str]) -> int:
    if len(argv) < 2 or not argv[0].isdigit():
        print("usage: pipe_supervisor.py HARNESS_PID COMMAND [ARG...]", file=sys.stderr)
        return 2
    harness = int(argv[0])
    signal.signal(signal.SIGTERM, _told)
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != harness:
        return 1  # the harness died before it could be watched: nobody is left to answer
    try:
        program = subprocess.Popen(argv[1:], process_group=0)
    except OSError as exc:
        print(f"cannot start {argv[1]!r}: {exc.strerror or exc}", file=sys.stderr)
        return 127
    # The pipe is the program's: with the supervisor's copies closed, the harness sees the end of
    # its output when the program and its helpers are gone, not when this process is.
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        os.dup2(devnull, fd)
    status = 1
    try:
        status = program.wait()
    except _Told:
        pass
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        _end_everything(program.pid)
    return status if status >= 0 else 128 - status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
