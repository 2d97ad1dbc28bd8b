"""Programs that misuse the harness pipe as a careless or hostile implementation might, to show that the
harness survives them: ``python tests/harness/rogue_peer.py MODE [ARG]``, MODE one of ``MODES``.

It speaks the pipe with msgpack alone, as another implementation would, and plays no game."""

from __future__ import annotations

import subprocess
import sys
import time
from typing import Any

import msgpack

ESCAPES = "\x1b[2J\x1b]0;owned\x07\x9b31m"
"""Clear the screen, set the window's title, a C1 CSI: what no report may print raw."""
MODES = (
    "stderr-escapes", "error-escapes", "verdict-escapes", "never-reads", "big-answer", "big-run", "helpers",
)


def say(record: dict[str, Any]) -> None:
    body = msgpack.packb(record, use_bin_type=True)
    sys.stdout.buffer.write(len(body).to_bytes(4, "big") + body)
    sys.stdout.buffer.flush()


def read() -> dict[str, Any] | None:
    head = sys.stdin.buffer.read(4)
    if len(head) < 4:
        return None
    record: dict[str, Any] = msgpack.unpackb(sys.stdin.buffer.read(int.from_bytes(head, "big")), raw=False)
    return record


def _status(verdict_kind: str = "silent") -> dict[str, Any]:
    return {"step": 0, "head": bytes(32), "over": True, "abandoned": False,
            "verdicts": [{"seat": 1, "kind": verdict_kind, "message": ESCAPES}]}


def answer_all(status: dict[str, Any], extra: list[dict[str, Any]] | None = None) -> None:
    """Answer every command with ``extra`` and ``done``, and ``report`` with a digest nobody shares."""
    while (r := read()) is not None and r.get("cmd") != "stop":
        for e in extra or []:
            say(e)
        if r.get("cmd") == "report":
            say({"out": "report", "digest": bytes(32), "status": status})
        say({"out": "done", "status": status})


def helpers(pid_file: str, then: str) -> None:
    """Two helpers that would outlive the program: one in its process group, one in a new session;
    then the program dies (``exit``) or never answers (``hang``)."""
    sleeper = [sys.executable, "-c", "import time; time.sleep(600)"]
    mates = subprocess.Popen(sleeper)
    loner = subprocess.Popen(sleeper, start_new_session=True)
    with open(pid_file, "w") as f:
        f.write(f"{mates.pid} {loner.pid}\n")
    read()
    if then == "hang":
        time.sleep(600)
    sys.exit(1)


def main(mode: str, arg: str) -> None:
    if mode == "stderr-escapes":
        read()
        print(f"oops {ESCAPES}", file=sys.stderr, flush=True)
        sys.exit(1)
    if mode == "error-escapes":
        read()
        say({"out": "error", "reason": ESCAPES})
        say({"out": "done", "status": None})
        read()
        sys.exit(0)
    if mode == "verdict-escapes":
        answer_all(_status(ESCAPES))
    elif mode == "never-reads":
        # Answers every command without reading one: the harness's commands pile up in the pipe.
        done = msgpack.packb({"out": "done", "status": _status()}, use_bin_type=True)
        for _ in range(100_000):
            sys.stdout.buffer.write(len(done).to_bytes(4, "big") + done)
        sys.stdout.buffer.flush()
        time.sleep(600)
    elif mode == "big-answer":
        read()
        for _ in range(16):
            say({"out": "rejected", "peer": None, "reason": "x", "detail": "y" * int(arg)})
        say({"out": "done", "status": None})
        answer_all(_status())
    elif mode == "big-run":
        answer_all(_status(), [{"out": "rejected", "peer": None, "reason": "x", "detail": "y" * int(arg)}])
    elif mode == "helpers":
        helpers(arg, sys.argv[3])


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in MODES:
        sys.exit(f"say a mode: {', '.join(MODES)}")
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "")
