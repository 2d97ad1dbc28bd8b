"""The connection handshake, as data (sans-IO): who is on the other end, and for which game.

Four messages, each one frame (canonical msgpack maps)::

    dialer   -> acceptor   hello  {t, v, key, nonce, bind, code}
    acceptor -> dialer     hello  {t, v, key, nonce, bind, code}     (or refuse {t, why})
    dialer   -> acceptor   proof  {t, sig, mac}                      (or refuse)
    acceptor -> dialer     proof  {t, sig, mac}                      (or refuse)

``bind`` is the 32-byte game id (or lobby id) the dialer wants; the acceptor answers only if it
serves it, and echoes it.  The *transcript* is a hash of both hellos exactly as sent, so each side's
signature covers the other side's fresh nonce: a recorded proof is worthless in any other
connection, and both sides end up bound to the same game.  Each direction signs under its own tag,
so a dialer's proof can never be reflected back as an acceptor's.

A private table adds a join code.  The code itself never crosses the network: each proof carries
an HMAC of the transcript under a key stretched from the code with scrypt (salted with the bind).
The acceptor proves the code only after the dialer has, so a stranger dialling a host learns
nothing to guess the code offline from; the host refuses a wrong code and the caller (the lobby)
can rate-limit attempts.  (Whoever *accepts* a joiner's connection — the host, or someone
impersonating it on the LAN — receives the joiner's MAC and could guess a short code offline, slowed
only by scrypt; a PAKE would close that gap.)

The identity keys are the players' Ed25519 keys from ``store.identity``; the signature domain is
separate from the game's (``wire.SIGNATURE_TAG``), so a handshake signature is never a game message.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import unicodedata
from collections.abc import Callable, Collection
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from p2pcards.text import shown
from p2pcards.wire import DecodeError, SignatureError, decode, encode, load_public_key, public_bytes
from p2pcards.wire.keys import weak_key_problem

HANDSHAKE_VERSION: Final = 1
NONCE_SIZE: Final = 32
BIND_SIZE: Final = 32
ANY_BIND: Final = bytes(BIND_SIZE)
"""A dialer's bind meaning "the lobby hosted at this address" (see ``Handshake``)."""
MAX_HANDSHAKE_MESSAGE: Final = 1024
"""Every handshake message fits in this (a link refuses a longer frame before buffering it)."""
MAX_REASON: Final = 200
"""A refusal's reason is shown cut to this many characters (it is the other side's text)."""

TRANSCRIPT_TAG: Final = b"p2pcards/handshake/v1/transcript\x00"
SIGN_TAGS: Final = {
    "dialer": b"p2pcards/handshake/v1/dialer-signs\x00",
    "acceptor": b"p2pcards/handshake/v1/acceptor-signs\x00",
}
MAC_TAGS: Final = {
    "dialer": b"p2pcards/handshake/v1/dialer-code\x00",
    "acceptor": b"p2pcards/handshake/v1/acceptor-code\x00",
}
CODE_SALT_TAG: Final = b"p2pcards/join-code/v1\x00"

# scrypt cost: ~16 MiB and a few tens of ms per derivation, once per lobby (acceptor) or per
# attempt (dialer).  It slows an offline guess of a short code by the same factor.
SCRYPT_N: Final = 2**14
SCRYPT_R: Final = 8
SCRYPT_P: Final = 1


class Why(StrEnum):
    """Why a handshake failed (also sent to the other side in a ``refuse`` message)."""

    MALFORMED = "malformed"
    VERSION = "unsupported version"
    WRONG_GAME = "wrong game"
    WRONG_KEY = "wrong key"
    WEAK_KEY = "unusable key"
    BAD_SIGNATURE = "bad signature"
    CODE_REQUIRED = "join code required"
    WRONG_CODE = "wrong join code"
    NOT_ADMITTED = "not admitted"
    REFUSED = "refused by peer"


class HandshakeError(Exception):
    """The handshake failed.  ``reply`` (if not None) is a refusal to send before closing, so the
    other side learns why; it is never sent for a refusal that came from the other side."""

    def __init__(self, why: Why, detail: str = "", reply: bytes | None = None) -> None:
        super().__init__(f"{why.value}: {detail}" if detail else why.value)
        self.why = why
        self.detail = detail
        self.reply = reply


def join_code_key(code: str, bind: bytes) -> bytes:
    """The 32-byte key a join code stands for at the table ``bind``.

    The code is normalised (NFKC, case and spaces/dashes ignored) so that people reading it aloud
    and typing it differently still agree."""
    normal = "".join(ch for ch in unicodedata.normalize("NFKC", code).casefold() if ch not in " -_")
    if not normal:
        raise ValueError("a join code cannot be empty")
    kdf = Scrypt(salt=CODE_SALT_TAG + bind, length=32, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P)
    return kdf.derive(normal.encode("utf-8"))


@dataclass(frozen=True)
class Hello:
    version: int
    key: bytes
    nonce: bytes
    bind: bytes
    code: bool

    def encode(self) -> bytes:
        return encode(
            {
                "t": "hello",
                "v": self.version,
                "key": self.key,
                "nonce": self.nonce,
                "bind": self.bind,
                "code": self.code,
            }
        )


def _refusal(why: Why) -> bytes:
    return encode({"t": "refuse", "why": why.value})


def refusal(reason: str) -> bytes:
    """A ``refuse`` message with a reason of our own, for a connection turned away before its
    handshake starts (a busy lobby, a back-off); the dialer shows ``reason`` to its player."""
    return encode({"t": "refuse", "why": reason[:MAX_REASON]})


def _refuse(why: Why, detail: str) -> HandshakeError:
    """A failure of ours that the other side is told about."""
    return HandshakeError(why, detail, _refusal(why))


def _parse(data: bytes) -> dict[str, Any]:
    try:
        value = decode(data, max_size=MAX_HANDSHAKE_MESSAGE)
    except DecodeError as exc:
        raise _refuse(Why.MALFORMED, str(exc)) from None
    if not isinstance(value, dict) or not isinstance(value.get("t"), str):
        raise _refuse(Why.MALFORMED, "a handshake message is a map with a type")
    if value["t"] == "refuse":
        why = value.get("why")
        detail = why if isinstance(why, str) else "no reason given"
        raise HandshakeError(Why.REFUSED, shown(detail, MAX_REASON))
    return value


def _parse_hello(data: bytes) -> Hello:
    v = _parse(data)
    malformed = _refuse(Why.MALFORMED, "bad hello")
    if v["t"] != "hello" or set(v) != {"t", "v", "key", "nonce", "bind", "code"}:
        raise malformed
    version, key, nonce, bind, code = v["v"], v["key"], v["nonce"], v["bind"], v["code"]
    if isinstance(version, bool) or not isinstance(version, int):
        raise malformed
    if version != HANDSHAKE_VERSION:
        raise _refuse(Why.VERSION, f"peer speaks version {version}")
    if not (isinstance(key, bytes) and len(key) == 32):
        raise malformed
    problem = weak_key_problem(key)
    if problem:
        # A small-order key verifies forged signatures: refused before any proof is looked at.
        raise _refuse(Why.WEAK_KEY, problem)
    if not (isinstance(nonce, bytes) and len(nonce) == NONCE_SIZE):
        raise malformed
    if not (isinstance(bind, bytes) and len(bind) == BIND_SIZE) or not isinstance(code, bool):
        raise malformed
    return Hello(version, key, nonce, bind, code)


def transcript(dialer_hello: bytes, acceptor_hello: bytes) -> bytes:
    """What both proofs are about: both hellos exactly as sent, in the dialer-first order."""
    return hashlib.sha256(TRANSCRIPT_TAG + encode([dialer_hello, acceptor_hello])).digest()


class Handshake:
    """One side of one handshake.  Call ``start()`` and send what it returns, then feed each
    received message to ``receive()`` and send what it returns, until ``done``.  Any failure
    raises ``HandshakeError`` (send its ``reply``, if any, then close).

    - ``role``: ``"dialer"`` (opened the connection) or ``"acceptor"``.
    - ``bind``: the dialer's wanted game or lobby id; for an acceptor, ``binds`` lists those it serves.
    - ``expect_key``: the dialer refuses any other acceptor key (it dials a known seat).
    - ``admit``: the acceptor refuses a key this returns False for (not a seat of the game): as
      soon as the hello names it, and again once it is proven.
    - ``on_hello``: the acceptor calls it with the dialer's hello once it passed every check, before
      answering (a node moves the connection to the slot of the seat it claims; a lobby counts a join
      code attempt); it may raise ``HandshakeError`` to refuse.
    - ``code_key``: ``join_code_key(code, bind)``; both sides must hold the same one, or neither.
      A dialer may give the ``code`` itself instead (needed with ``ANY_BIND``: the key is salted
      with a bind it learns only from the acceptor's hello); an acceptor serving several binds
      gives ``codes(bind)``.
    - ``ANY_BIND``: a dialer that knows only ``host:port`` (a manual join) asks for whatever lobby
      is hosted there; an acceptor with ``any_bind`` answers with that lobby's id, which is what
      both transcripts then bind.  A game node sets no ``any_bind``: games are always named.
    """

    def __init__(
        self,
        role: str,
        identity: Ed25519PrivateKey,
        *,
        bind: bytes | None = None,
        binds: Collection[bytes] = (),
        expect_key: bytes | None = None,
        admit: Callable[[bytes], bool] | None = None,
        on_hello: Callable[[Hello], None] | None = None,
        code_key: bytes | None = None,
        code: str | None = None,
        codes: Callable[[bytes], bytes | None] | None = None,
        any_bind: bytes | None = None,
        nonce: bytes | None = None,
    ) -> None:
        if role not in SIGN_TAGS:
            raise ValueError("role is 'dialer' or 'acceptor'")
        if role == "dialer" and (bind is None or len(bind) != BIND_SIZE):
            raise ValueError("a dialer names the 32-byte game or lobby id it wants")
        self.role = role
        self.identity = identity
        self.key = public_bytes(identity)
        self.bind = bind
        self.binds = frozenset(binds) | frozenset(b for b in (bind, any_bind) if b is not None)
        self.any_bind = any_bind
        self._code_text = code
        self._given_code_key = code_key
        self.expect_key = expect_key
        self.admit = admit
        self.on_hello = on_hello
        # The acceptor may serve several binds, each with or without a code: ``codes(bind)``.
        self._codes = codes if codes is not None else (lambda _bind: code_key)
        if role == "acceptor" and code is not None:
            raise ValueError("an acceptor gives code_key or codes (derived once, not per connection)")
        self.nonce = nonce if nonce is not None else os.urandom(NONCE_SIZE)
        if len(self.nonce) != NONCE_SIZE:
            raise ValueError(f"a nonce is {NONCE_SIZE} bytes")
        self._ours: bytes | None = None
        self._theirs: bytes | None = None
        self._peer: Hello | None = None
        self._code_key: bytes | None = None
        self._transcript: bytes | None = None
        self._state = "new"
        self.peer_key: bytes | None = None
        """The other side's identity key, once proven."""

    @property
    def done(self) -> bool:
        return self._state == "done"

    @property
    def transcript(self) -> bytes:
        assert self._transcript is not None, "no transcript before both hellos"
        return self._transcript

    def start(self) -> list[bytes]:
        """The dialer speaks first; the acceptor waits."""
        if self._state != "new":
            raise RuntimeError("start() once")
        if self.role == "acceptor":
            self._state = "await-hello"
            return []
        assert self.bind is not None
        with_code = self._code_text is not None or self._given_code_key is not None
        self._ours = Hello(HANDSHAKE_VERSION, self.key, self.nonce, self.bind, with_code).encode()
        self._state = "await-hello"
        return [self._ours]

    def receive(self, data: bytes) -> list[bytes]:
        if self._state in ("new", "done", "failed"):
            raise RuntimeError(f"receive() in state {self._state}")
        try:
            if self.role == "dialer":
                return self._dialer(data)
            return self._acceptor(data)
        except HandshakeError:
            self._state = "failed"
            raise

    # ------------------------------------------------------------------ the two roles

    def _dialer(self, data: bytes) -> list[bytes]:
        if self._state == "await-hello":
            peer = _parse_hello(data)
            if self.bind == ANY_BIND and peer.bind != ANY_BIND:
                self.bind = peer.bind  # a manual join: whatever lobby is hosted there
            if peer.bind != self.bind:
                raise _refuse(Why.WRONG_GAME, "the peer answered for another game")
            self._code_key = self._given_code_key
            if self._code_key is None and self._code_text is not None:
                self._code_key = join_code_key(self._code_text, self.bind)
            if self.expect_key is not None and peer.key != self.expect_key:
                raise _refuse(Why.WRONG_KEY, "not the key of the seat dialled")
            if peer.code != (self._code_key is not None):
                why = Why.CODE_REQUIRED if peer.code else Why.WRONG_CODE
                raise _refuse(why, "join code mismatch")
            assert self._ours is not None
            self._peer, self._theirs = peer, data
            self._transcript = transcript(self._ours, data)
            self._state = "await-proof"
            return [self._proof()]
        if self._state == "await-proof":
            self._check_proof(data, "acceptor")
            self._state = "done"
            return []
        raise RuntimeError(self._state)

    def _acceptor(self, data: bytes) -> list[bytes]:
        if self._state == "await-hello":
            peer = _parse_hello(data)
            wanted = self.any_bind if peer.bind == ANY_BIND and self.any_bind is not None else peer.bind
            if wanted not in self.binds or wanted == ANY_BIND:
                raise _refuse(Why.WRONG_GAME, "this peer does not serve that game")
            if peer.key == self.key:
                raise _refuse(Why.WRONG_KEY, "the peer claims our own key")
            if self.admit is not None and not self.admit(peer.key):
                raise _refuse(Why.NOT_ADMITTED, "key not admitted here")
            self._code_key = self._codes(wanted)
            if peer.code != (self._code_key is not None):
                why = Why.CODE_REQUIRED if self._code_key is not None else Why.WRONG_CODE
                raise _refuse(why, "join code mismatch")
            if self.on_hello is not None:
                self.on_hello(peer)
            self._peer, self._theirs = peer, data
            self.bind = wanted
            self._ours = Hello(HANDSHAKE_VERSION, self.key, self.nonce, wanted, peer.code).encode()
            self._transcript = transcript(data, self._ours)
            self._state = "await-proof"
            return [self._ours]
        if self._state == "await-proof":
            # The dialer proves first: only then does the acceptor give its own proof (and its code MAC).
            self._check_proof(data, "dialer")
            assert self.peer_key is not None
            if self.admit is not None and not self.admit(self.peer_key):
                raise _refuse(Why.NOT_ADMITTED, "key not admitted here")
            self._state = "done"
            return [self._proof()]
        raise RuntimeError(self._state)

    def _proof(self) -> bytes:
        t = self.transcript
        sig = self.identity.sign(SIGN_TAGS[self.role] + t)
        mac = b""
        if self._code_key is not None:
            mac = hmac.digest(self._code_key, MAC_TAGS[self.role] + t, "sha256")
        return encode({"t": "proof", "sig": sig, "mac": mac})

    def _check_proof(self, data: bytes, their_role: str) -> None:
        v = _parse(data)
        sig, mac = v.get("sig"), v.get("mac")
        if v["t"] != "proof" or set(v) != {"t", "sig", "mac"}:
            raise _refuse(Why.MALFORMED, "bad proof")
        if not isinstance(sig, bytes) or not isinstance(mac, bytes):
            raise _refuse(Why.MALFORMED, "bad proof")
        assert self._peer is not None
        t = self.transcript
        if self._code_key is not None:
            want = hmac.digest(self._code_key, MAC_TAGS[their_role] + t, "sha256")
            if not hmac.compare_digest(want, mac):
                raise _refuse(Why.WRONG_CODE, "the join code does not match")
        try:
            load_public_key(self._peer.key).verify(sig, SIGN_TAGS[their_role] + t)
        except (SignatureError, InvalidSignature):
            raise HandshakeError(
                Why.BAD_SIGNATURE, "the peer did not prove its key", _refusal(Why.BAD_SIGNATURE)
            ) from None
        self.peer_key = self._peer.key


def handshake_pair(dialer: Handshake, acceptor: Handshake) -> None:
    """Run two handshakes against each other in memory (for tests and the simulated network)."""
    to_acceptor = dialer.start()
    acceptor.start()
    while to_acceptor:
        to_dialer: list[bytes] = []
        for m in to_acceptor:
            to_dialer += acceptor.receive(m)
        to_acceptor = []
        for m in to_dialer:
            to_acceptor += dialer.receive(m)


__all__ = [
    "ANY_BIND",
    "HANDSHAKE_VERSION",
    "MAX_HANDSHAKE_MESSAGE",
    "Handshake",
    "HandshakeError",
    "Hello",
    "Why",
    "handshake_pair",
    "join_code_key",
    "refusal",
    "transcript",
]
