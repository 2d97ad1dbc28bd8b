"""A deliberately broken implementation of the harness pipe, to show that the conformance cases catch
what they claim to: ``python tests/harness/broken_peer.py FLAW``, with FLAW one of ``FLAWS``."""

from __future__ import annotations

import importlib
import sys
from typing import Any

from p2pcards.harness.pipe_peer import serve
from p2pcards.table import attempt

FLAWS = ("no-shuffle-proof-check", "takes-illegal-own-moves")


def _never_check_shuffles() -> None:
    proofs = importlib.import_module("p2pcards.deal.shuffle")  # the module, not the function of its name
    setattr(proofs, "_check", lambda *args, **kwargs: None)  # noqa: B010 (the name is private)


def _take_illegal_own_moves() -> None:
    def check_own(self: Any, state: Any, action: Any) -> None:
        return None

    attempt.Attempt.check_own = check_own  # type: ignore[method-assign]


if __name__ == "__main__":
    flaw = sys.argv[1] if len(sys.argv) > 1 else ""
    if flaw not in FLAWS:
        sys.exit(f"say a flaw: {', '.join(FLAWS)}")
    flaws = {
        "no-shuffle-proof-check": _never_check_shuffles,
        "takes-illegal-own-moves": _take_illegal_own_moves,
    }
    flaws[flaw]()
    sys.exit(serve(sys.stdin.buffer, sys.stdout.buffer))
