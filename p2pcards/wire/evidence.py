"""Equivocation: two different messages signed by one seat for one step of one game, after one head.

Each is harmless alone; together they prove the seat told different peers different things at the
same point of the log.  The pair is self-contained evidence: anyone holding the seat's public key can
check it, without the log.  Two votes of one seat for one step after one head that name different
seats are equivocation too; a vote and a step message are not (a seat may contribute to a round and
vote that others are silent in it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from .codec import Value
from .envelope import SignedMessage, verify
from .errors import EnvelopeError, Reason, WireError
from .kinds import CERTIFICATE_KINDS, KINDS, TRANSPORT_KINDS

EVIDENCE_TYPE = "equivocation"


@dataclass(frozen=True)
class Equivocation:
    """Evidence that ``seat`` signed two different messages for ``step``.

    The two messages are kept in canonical order (smaller message hash first), so every replica that
    sees the same pair builds the same evidence, byte for byte, whatever the arrival order.
    Build it with :meth:`of`; check it with :func:`verify_evidence`.
    """

    first: SignedMessage
    second: SignedMessage

    @classmethod
    def of(cls, a: SignedMessage, b: SignedMessage) -> Equivocation:
        if a.hash == b.hash:
            raise ValueError("the same message twice is a duplicate, not an equivocation")
        return cls(a, b) if a.hash < b.hash else cls(b, a)

    @property
    def game_id(self) -> bytes:
        return self.first.game_id

    @property
    def step(self) -> int:
        return self.first.step

    @property
    def seat(self) -> int:
        return self.first.seat

    def to_body(self) -> Value:
        """The body of an ``evidence`` message carrying this proof (both messages verbatim)."""
        return {"type": EVIDENCE_TYPE, "a": self.first.data, "b": self.second.data}

    @classmethod
    def from_body(cls, body: Value, *, kinds: Mapping[str, int] = KINDS) -> Equivocation:
        """Parse an evidence body; WireError if it is not a well-formed equivocation proof.

        Parsing checks form only: call :func:`verify_evidence` with the seat's key to check the proof.
        """
        if not (
            isinstance(body, dict)
            and set(body) == {"type", "a", "b"}
            and body["type"] == EVIDENCE_TYPE
            and isinstance(body["a"], bytes)
            and isinstance(body["b"], bytes)
        ):
            raise EnvelopeError(Reason.MALFORMED, "not an equivocation body")
        a = SignedMessage.from_bytes(body["a"], kinds=kinds)
        b = SignedMessage.from_bytes(body["b"], kinds=kinds)
        try:
            evidence = cls.of(a, b)
        except ValueError:
            raise EnvelopeError(Reason.MALFORMED, "the two messages are the same") from None
        if evidence.first is not a:
            raise EnvelopeError(Reason.MALFORMED, "messages out of canonical order")
        return evidence


def conflicting(a: SignedMessage, b: SignedMessage) -> bool:
    """Whether ``a`` and ``b`` (already authenticated) are an equivocation: same game, seat, step and
    head, different signed content, and both steps of the log, both void votes or both abandons
    (transport messages and the other certificates make no claim about a step)."""
    if a.raw == b.raw or a.kind in TRANSPORT_KINDS or b.kind in TRANSPORT_KINDS:
        return False
    claims = ("void_vote", "abandon")
    if a.kind in claims or b.kind in claims:
        if a.kind != b.kind:
            return False
    elif a.kind in CERTIFICATE_KINDS or b.kind in CERTIFICATE_KINDS:
        return False
    return (a.game_id, a.step, a.seat, a.prev) == (b.game_id, b.step, b.seat, b.prev)


def verify_evidence(evidence: Equivocation, public_key: Ed25519PublicKey) -> bool:
    """True when the two messages really convict the holder of ``public_key`` of equivocation:
    both signed by that key and :func:`conflicting`."""
    a, b = evidence.first, evidence.second
    if not conflicting(a, b):
        return False
    try:
        verify(a, public_key)
        verify(b, public_key)
    except WireError:
        return False
    return True
