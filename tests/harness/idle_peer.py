"""A program that does nothing and says it did: it runs a real replica for the setup (every frame is
read, every message of the replica sent), then plays no card, to show that no case in which the program
is asked to play can be passed that way: ``python tests/harness/idle_peer.py MODE``, MODE one of
``MODES``:

- ``abandon``: every status says the match is over, ended by the seat's own word (``abandoned``);
- ``abandon-claims``: the same, and its verdicts name seat 1 (the cheater of every case of group 4)
  with every kind there is;
- ``follow``: its status is its replica's, which follows the others after they vote it out.
"""

from __future__ import annotations

import sys
from typing import Any

from p2pcards.harness.pipe import read_record
from p2pcards.harness.pipe_peer import PipePeer

MODES = ("abandon", "abandon-claims", "follow")
KINDS = ("equivocation", "bad-message", "bad-proof", "illegal-action", "renege", "silent")


class IdlePeer(PipePeer):
    def __init__(self, mode: str) -> None:
        super().__init__(sys.stdout.buffer)
        self.mode = mode

    def _emit(self, record: dict[str, Any]) -> None:
        if record.get("out") == "your_turn":
            return  # plays no card: the harness never hears that it may
        super()._emit(record)

    def status(self) -> dict[str, Any] | None:
        status = super().status()
        if status is None or self.mode == "follow":
            return status
        status |= {"over": True, "abandoned": True, "waiting": []}
        if self.mode == "abandon-claims":
            status["verdicts"] = [
                {"seat": 1, "seats": [1], "kind": k, "step": 3, "hand": 0, "unconfirmed": False, "message": k}
                for k in KINDS
            ]
        return status


def main(mode: str) -> int:
    peer = IdlePeer(mode)
    while (record := read_record(sys.stdin.buffer)) is not None and peer.handle(record):
        pass
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in MODES:
        sys.exit(f"say a mode: {', '.join(MODES)}")
    sys.exit(main(sys.argv[1]))
