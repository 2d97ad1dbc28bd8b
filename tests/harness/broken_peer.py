"""A deliberately broken implementation of the harness pipe, to show that the conformance cases catch
what they claim to: ``python tests/harness/broken_peer.py FLAW``, with FLAW one of ``FLAWS``."""

from __future__ import annotations

import importlib
import sys
from typing import Any

from p2pcards.harness.pipe_peer import serve
from p2pcards.table import attempt

FLAWS = ("no-shuffle-proof-check", "takes-illegal-own-moves", "sends-before-persisting", "reuses-hand-key")


def _never_check_shuffles() -> None:
    proofs = importlib.import_module("p2pcards.deal.shuffle")  # the module, not the function of its name
    setattr(proofs, "_check", lambda *args, **kwargs: None)  # noqa: B010 (the name is private)


def _take_illegal_own_moves() -> None:
    def check_own(self: Any, state: Any, action: Any) -> None:
        return None

    attempt.Attempt.check_own = check_own  # type: ignore[method-assign]


def _send_before_persisting() -> None:
    from p2pcards.table import outputs as out
    from p2pcards.table.ingest import Intake

    keep = Intake._keep

    def sends_first(self: Any, msg: Any, *, own: bool) -> None:
        keep(self, msg, own=own)
        tail = self._told[-2:]
        if [type(o) for o in tail] == [out.Persist, out.Send]:
            self._told[-2:] = tail[::-1]

    Intake._keep = sends_first  # type: ignore[method-assign]


def _reuse_hand_key() -> None:
    from p2pcards.table.secrets import SeatSecrets

    key = SeatSecrets.hand_key
    SeatSecrets.hand_key = lambda self, hand, start_head: key(self, 0, b"")  # type: ignore[method-assign]


if __name__ == "__main__":
    flaw = sys.argv[1] if len(sys.argv) > 1 else ""
    if flaw not in FLAWS:
        sys.exit(f"say a flaw: {', '.join(FLAWS)}")
    flaws = {
        "no-shuffle-proof-check": _never_check_shuffles,
        "takes-illegal-own-moves": _take_illegal_own_moves,
        "sends-before-persisting": _send_before_persisting,
        "reuses-hand-key": _reuse_hand_key,
    }
    flaws[flaw]()
    sys.exit(serve(sys.stdin.buffer, sys.stdout.buffer))
