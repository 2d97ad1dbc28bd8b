"""The signed envelope: what every message of a game looks like on the wire.

An envelope is the canonical msgpack array ``[version, game_id, step, seat, prev, kind, body]``.
Its encoded bytes (``raw``) are what the seat signs, what the log hashes, and what every peer keeps
and relays verbatim: nobody ever re-encodes a received message (canonical encoding makes that safe
anyway).  On the wire a signed message is the canonical array ``[raw, signature]``, both as bin.

The signature is Ed25519 over ``SIGNATURE_TAG || raw``.  The tag keeps a game signature from ever
meaning anything else the same identity key might sign (a handshake challenge, a store record).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, cast

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .codec import Encodable, Value, canonical, decode, encode
from .errors import EnvelopeError, Reason, SignatureError
from .keys import SIGNATURE_SIZE
from .kinds import KINDS

PROTOCOL_VERSION: Final = 1
HASH_SIZE: Final = 32
"""Size of a game id and of every hash (SHA-256)."""
MAX_SEATS: Final = 6
MAX_STEP: Final = 2**63 - 1
"""Steps fit a signed 64-bit integer, so other languages need no big integers."""

SIGNATURE_TAG: Final = b"p2pcards/wire/v1/signature\x00"
MESSAGE_TAG: Final = b"p2pcards/wire/v1/message\x00"

_FIELD_COUNT: Final = 7


def _as_int(name: str, value: object, low: int, high: int) -> int:
    # bool is an int in Python but not on the wire; a seat of True is a bug, not seat 1.
    if isinstance(value, bool) or not isinstance(value, int):
        raise EnvelopeError(Reason.MALFORMED, f"{name} must be an integer")
    if not low <= value <= high:
        raise EnvelopeError(Reason.MALFORMED, f"{name} {value} outside {low}..{high}")
    return int(value)


def _as_hash(name: str, value: object) -> bytes:
    if not isinstance(value, bytes | bytearray) or len(value) != HASH_SIZE:
        raise EnvelopeError(Reason.MALFORMED, f"{name} must be {HASH_SIZE} bytes")
    return bytes(value)


@dataclass(frozen=True, kw_only=True)
class Envelope:
    """The signed content of a message.  Construction validates every field.

    ``body`` is stored in canonical form (tuples for arrays, dicts sorted by key), so an envelope
    built locally equals the same envelope decoded from the wire.
    """

    version: int = PROTOCOL_VERSION
    game_id: bytes
    step: int
    seat: int
    prev: bytes
    kind: str
    body: Encodable = None
    """Any encodable value; stored in canonical form (a :data:`Value`, see :attr:`value`)."""

    def __post_init__(self) -> None:
        version = _as_int("version", self.version, -(2**63), 2**64 - 1)
        if version != PROTOCOL_VERSION:
            raise EnvelopeError(Reason.UNSUPPORTED_VERSION, f"version {version}")
        if not isinstance(self.kind, str):
            raise EnvelopeError(Reason.MALFORMED, "kind must be a string")
        # frozen: normalised values are written with object.__setattr__ (the dataclass idiom).
        object.__setattr__(self, "game_id", _as_hash("game_id", self.game_id))
        object.__setattr__(self, "step", _as_int("step", self.step, 0, MAX_STEP))
        object.__setattr__(self, "seat", _as_int("seat", self.seat, 0, MAX_SEATS - 1))
        object.__setattr__(self, "prev", _as_hash("prev", self.prev))
        object.__setattr__(self, "kind", str.__str__(self.kind))
        object.__setattr__(self, "body", canonical(self.body))

    @property
    def value(self) -> Value:
        """The body, typed as the canonical value it is."""
        return cast(Value, self.body)

    def encode(self) -> bytes:
        """The canonical bytes of this envelope (what gets signed)."""
        return encode([self.version, self.game_id, self.step, self.seat, self.prev, self.kind, self.body])

    @classmethod
    def from_raw(cls, raw: bytes) -> Envelope:
        """Parse signed envelope bytes strictly (canonical, all fields valid)."""
        value = decode(raw, max_size=len(raw) or 1)
        if not isinstance(value, tuple) or not value:
            raise EnvelopeError(Reason.MALFORMED, "an envelope is a non-empty array")
        # The version comes first and is checked before the layout, so that a later version may
        # change everything after it and still be refused with the right reason.
        version = _as_int("version", value[0], -(2**63), 2**64 - 1)
        if version != PROTOCOL_VERSION:
            raise EnvelopeError(Reason.UNSUPPORTED_VERSION, f"version {version}")
        if len(value) != _FIELD_COUNT:
            raise EnvelopeError(Reason.MALFORMED, f"an envelope has {_FIELD_COUNT} fields, not {len(value)}")
        _, game_id, step, seat, prev, kind, body = value
        if not isinstance(game_id, bytes) or not isinstance(prev, bytes):
            raise EnvelopeError(Reason.MALFORMED, "game_id and prev are bin")
        if not isinstance(kind, str):
            raise EnvelopeError(Reason.MALFORMED, "kind is a str")
        return cls(
            version=version,
            game_id=game_id,
            step=_as_int("step", step, 0, MAX_STEP),
            seat=_as_int("seat", seat, 0, MAX_SEATS - 1),
            prev=prev,
            kind=kind,
            body=body,
        )


@dataclass(frozen=True, eq=False)
class SignedMessage:
    """An envelope with its exact signed bytes and signature.

    Obtain one from :func:`sign` or :meth:`from_bytes`; the latter checks the encoding, the
    envelope, the kind and its size, but not the signature (that needs the seat's key: see
    :func:`verify`, or ``wire.chain`` which does every check in order).  Two messages are equal when
    their wire bytes are.
    """

    envelope: Envelope
    raw: bytes
    """The exact signed envelope bytes."""
    signature: bytes
    data: bytes = field(repr=False)
    """The exact bytes on the wire (the frame payload): what is stored and relayed."""

    @classmethod
    def from_bytes(cls, data: bytes, *, kinds: Mapping[str, int] = KINDS) -> SignedMessage:
        """Parse a received frame payload strictly; raise a :class:`WireError` naming the reason."""
        outer = decode(data, max_size=max(kinds.values()))
        if not isinstance(outer, tuple) or len(outer) != 2:
            raise EnvelopeError(Reason.MALFORMED, "a signed message is [bin raw, bin signature]")
        raw, signature = outer
        if not isinstance(raw, bytes) or not isinstance(signature, bytes):
            raise EnvelopeError(Reason.MALFORMED, "a signed message is [bin raw, bin signature]")
        if len(signature) != SIGNATURE_SIZE:
            raise EnvelopeError(Reason.MALFORMED, f"a signature is {SIGNATURE_SIZE} bytes")
        envelope = Envelope.from_raw(raw)
        check_kind(envelope.kind, len(data), kinds)
        return cls(envelope, raw, signature, data)

    def to_bytes(self) -> bytes:
        return self.data

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SignedMessage) and self.data == other.data

    def __hash__(self) -> int:
        return hash(self.data)

    # Shortcuts to the envelope, which is what callers usually look at.
    @property
    def game_id(self) -> bytes:
        return self.envelope.game_id

    @property
    def step(self) -> int:
        return self.envelope.step

    @property
    def seat(self) -> int:
        return self.envelope.seat

    @property
    def prev(self) -> bytes:
        return self.envelope.prev

    @property
    def kind(self) -> str:
        return self.envelope.kind

    @property
    def body(self) -> Value:
        return self.envelope.value

    @property
    def hash(self) -> bytes:
        """:func:`message_hash` of this message."""
        return message_hash(self)


def check_kind(kind: str, size: int, kinds: Mapping[str, int] = KINDS) -> None:
    """Raise EnvelopeError unless ``kind`` is registered and a message of ``size`` bytes fits it."""
    limit = kinds.get(kind)
    if limit is None:
        raise EnvelopeError(Reason.UNKNOWN_KIND, repr(kind[:64]))
    if size > limit:
        raise EnvelopeError(Reason.TOO_LARGE, f"{kind} message of {size} bytes exceeds {limit}")


def sign(
    envelope: Envelope, private_key: Ed25519PrivateKey, *, kinds: Mapping[str, int] = KINDS
) -> SignedMessage:
    """Sign ``envelope``.  Refuses (EnvelopeError) a kind or size that receivers would refuse."""
    raw = envelope.encode()
    signature = private_key.sign(SIGNATURE_TAG + raw)
    data = encode([raw, signature])
    check_kind(envelope.kind, len(data), kinds)
    return SignedMessage(envelope, raw, signature, data)


def verify(msg: SignedMessage, public_key: Ed25519PublicKey) -> None:
    """Raise :class:`SignatureError` unless ``msg`` was signed by ``public_key``."""
    try:
        public_key.verify(msg.signature, SIGNATURE_TAG + msg.raw)
    except InvalidSignature:
        raise SignatureError(Reason.BAD_SIGNATURE, f"seat {msg.seat}, step {msg.step}") from None


def message_hash(msg: SignedMessage) -> bytes:
    """SHA-256 of ``MESSAGE_TAG || raw``: the message's identity in the log.

    The signature is left out on purpose: a signer can make many valid signatures of one envelope,
    and those are the same message (a duplicate), not two.
    """
    return hashlib.sha256(MESSAGE_TAG + msg.raw).digest()
