"""The wire layer: canonical msgpack, framing, signed envelopes, the hash chain of steps.

Pure and sans-IO: it imports only msgpack and cryptography, and never touches a socket, a file or a
clock.  The normative description of everything here is ``protocol/WIRE.md``.

Typical use by a node::

    decoder = FrameDecoder(MAX_MESSAGE_SIZE)          # one per connection
    for payload in decoder.feed(received_bytes):      # FrameError: close the connection
        outcome = chain.offer(payload)                # never raises on peer input
        match outcome:
            case Sealed(step=step): ...               # apply step.messages in order, then chain.expect(...)
            case Equivocation(): ...                  # evidence against outcome.seat
            case Rejected(reason=reason): ...         # log it; nothing changed
"""

from .chain import (
    GENESIS_TAG,
    HEAD_TAG,
    SEAL_TAG,
    Acceptance,
    Accepted,
    Chain,
    Duplicate,
    Outcome,
    Rejected,
    Round,
    Sealed,
    Step,
    accept,
    authenticate,
    initial_head,
    position,
    seal_head,
    step_head,
)
from .codec import MAX_DEPTH, Encodable, Value, canonical, decode, encode
from .envelope import (
    HASH_SIZE,
    MAX_SEATS,
    MAX_STEP,
    MESSAGE_TAG,
    PROTOCOL_VERSION,
    SIGNATURE_TAG,
    Envelope,
    SignedMessage,
    check_kind,
    message_hash,
    sign,
    verify,
)
from .errors import (
    DecodeError,
    EncodeError,
    EnvelopeError,
    FrameError,
    Reason,
    SignatureError,
    WireError,
)
from .evidence import Equivocation, conflicting, verify_evidence
from .framing import DEFAULT_MAX_FRAME_SIZE, FrameDecoder, encode_frame
from .keys import fingerprint, key_from_seed, load_public_key, public_bytes
from .kinds import CERTIFICATE_KINDS, KINDS, MAX_MESSAGE_SIZE, NON_STEP_KINDS, TRANSPORT_KINDS

__all__ = [
    "CERTIFICATE_KINDS",
    "DEFAULT_MAX_FRAME_SIZE",
    "GENESIS_TAG",
    "HASH_SIZE",
    "HEAD_TAG",
    "KINDS",
    "MAX_DEPTH",
    "MAX_MESSAGE_SIZE",
    "MAX_SEATS",
    "MAX_STEP",
    "MESSAGE_TAG",
    "NON_STEP_KINDS",
    "PROTOCOL_VERSION",
    "SEAL_TAG",
    "SIGNATURE_TAG",
    "TRANSPORT_KINDS",
    "Acceptance",
    "Accepted",
    "Chain",
    "DecodeError",
    "Duplicate",
    "Encodable",
    "EncodeError",
    "Envelope",
    "EnvelopeError",
    "Equivocation",
    "FrameDecoder",
    "FrameError",
    "Outcome",
    "Reason",
    "Rejected",
    "Round",
    "Sealed",
    "SignatureError",
    "SignedMessage",
    "Step",
    "Value",
    "WireError",
    "accept",
    "authenticate",
    "canonical",
    "check_kind",
    "conflicting",
    "decode",
    "encode",
    "encode_frame",
    "fingerprint",
    "initial_head",
    "key_from_seed",
    "load_public_key",
    "message_hash",
    "position",
    "public_bytes",
    "seal_head",
    "sign",
    "step_head",
    "verify",
    "verify_evidence",
]
