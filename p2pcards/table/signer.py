"""What a seat signs: the one way a message of this seat leaves its replica (SPEC §2, the envelope).

A ``Table`` signs through its ``Signer``: every message it contributes to a step, every certificate
and every catch-up request or answer.  The honest signer signs what the replica built; the test
harness's cheating seats (``p2pcards.harness.byzantine``) pass a signer of their own that lies in one
chosen way, so that a cheater is the real replica with one declared seam changed, never a patched one.
"""

from __future__ import annotations

from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pcards.table.attempt import Attempt
from p2pcards.wire import Envelope, sign


class Signer:
    """An honest seat's signer: it signs exactly what its replica asks, with the seat's identity key."""

    def __init__(self, game_id: bytes, seat: int, identity: Ed25519PrivateKey) -> None:
        self.game_id = game_id
        self.seat = seat
        self.identity = identity

    def sign(self, kind: str, body: Any, *, step: int, prev: bytes) -> bytes:
        """The payload of this seat's message ``kind`` with ``body`` for ``step`` after ``prev``."""
        return self.envelope(kind, body, step=step, prev=prev)

    def envelope(self, kind: str, body: Any, *, step: int, prev: bytes) -> bytes:
        """Sign exactly this envelope (what ``sign`` does for an honest seat)."""
        env = Envelope(game_id=self.game_id, step=step, seat=self.seat, prev=prev, kind=kind, body=body)
        return sign(env, self.identity).data

    def contributes(self, kind: str) -> bool:
        """Whether this seat sends its contribution of ``kind`` to a step at all (an honest seat does)."""
        return True

    def action_body(self, att: Attempt, text: str) -> dict[str, Any]:
        """The body of this seat's move ``text`` in ``att``, checked as legal first (``ActionError``)."""
        return att.action_body(text)

    def dealt(self, att: Attempt) -> None:
        """A new attempt was dealt to this seat's replica: an honest seat changes nothing in it."""
