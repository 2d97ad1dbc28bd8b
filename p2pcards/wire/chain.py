"""The log as a hash chain of steps, and the checks that admit a message into it.

The replicated state (above this layer) says who is awaited at each step: one seat (a move, a
shuffle) or several (a round: key commitments, decryption shares).  Every contribution to a step is
bound to the same previous head; once all awaited seats have contributed, the step is sealed and its
messages are handed over in seat order, whatever order they arrived in, so every replica applies
them identically.  The head after a step is

    head = SHA-256(HEAD_TAG || prev head || message_hash(m) for each message m in seat order)

and the head before step 0 is ``initial_head(game_id)``, so a head names one position of one game.
A *seal* step (every seat signing the result of a hand over the head) is the one exception: its head
is ``SHA-256(SEAL_TAG || prev head)``, whichever valid seals made it complete, so seals are
certificates over a head and never fork the log.

Two different messages of one seat that follow the same head at the same step are equivocation.
A message of that seat for that step bound to another head is not: it may be the seat's honest word
on another branch of the hand (after a verdict restarted it), and it cannot be accepted here anyway.

Nothing here raises on anything a peer sends: every input ends as one outcome
(:class:`Accepted`, :class:`Sealed`, :class:`Duplicate`, :class:`Rejected` or
:class:`~p2pcards.wire.evidence.Equivocation`), and only ``Accepted`` and ``Sealed`` change state.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from .envelope import HASH_SIZE, MAX_SEATS, SignedMessage, check_kind, verify
from .errors import Reason, WireError
from .evidence import Equivocation
from .kinds import KINDS, NON_STEP_KINDS

HEAD_TAG: Final = b"p2pcards/wire/v1/head\x00"
SEAL_TAG: Final = b"p2pcards/wire/v1/seal\x00"
GENESIS_TAG: Final = b"p2pcards/wire/v1/genesis\x00"


def initial_head(game_id: bytes) -> bytes:
    """The head before step 0: SHA-256(GENESIS_TAG || game_id)."""
    return hashlib.sha256(GENESIS_TAG + game_id).digest()


def seal_head(prev: bytes) -> bytes:
    """The head after a seal step that follows ``prev``: SHA-256(SEAL_TAG || prev)."""
    if len(prev) != HASH_SIZE:
        raise ValueError("a head follows a 32-byte head")
    return hashlib.sha256(SEAL_TAG + prev).digest()


def step_head(prev: bytes, message_hashes: Sequence[bytes]) -> bytes:
    """The head after a step whose messages, in seat order, have these hashes."""
    if len(prev) != HASH_SIZE or not message_hashes or any(len(h) != HASH_SIZE for h in message_hashes):
        raise ValueError("a head follows a 32-byte head and covers one or more 32-byte hashes")
    return hashlib.sha256(HEAD_TAG + prev + b"".join(message_hashes)).digest()


@dataclass(frozen=True)
class Step:
    """A sealed step: its number, the head it follows, the head it makes, its messages in seat order."""

    number: int
    prev: bytes
    head: bytes
    messages: tuple[SignedMessage, ...]

    def by_seat(self, seat: int) -> SignedMessage | None:
        for msg in self.messages:
            if msg.seat == seat:
                return msg
        return None


# --- outcomes --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Accepted:
    """The message passed every check (and, in a chain or round, was stored)."""

    message: SignedMessage


@dataclass(frozen=True)
class Sealed:
    """The message was stored and completed its step, which is now part of the chain."""

    message: SignedMessage
    step: Step


@dataclass(frozen=True)
class Duplicate:
    """A message already held (relayed or re-sent): ignored."""

    message: SignedMessage


@dataclass(frozen=True)
class Rejected:
    """Refused for ``reason``.  ``message`` is set once the message parsed; it is signature-checked
    (hence attributable to its seat) for every reason after ``bad signature`` in the check order."""

    reason: Reason
    detail: str = ""
    message: SignedMessage | None = None


Acceptance = Accepted | Rejected
Outcome = Accepted | Sealed | Duplicate | Rejected | Equivocation


# --- checks ------------------------------------------------------------------------------------


def authenticate(
    data: bytes | SignedMessage,
    *,
    game_id: bytes,
    keys: Mapping[int, Ed25519PublicKey],
    kinds: Mapping[str, int] = KINDS,
) -> Acceptance:
    """Checks 1-7 of WIRE.md: the message parses, is of a known kind within its size, belongs to
    this game, comes from a seat we know, and that seat signed it.  Enough for catch-up messages."""
    try:
        if isinstance(data, SignedMessage):
            msg = data
            check_kind(msg.kind, len(msg.data), kinds)
        else:
            msg = SignedMessage.from_bytes(data, kinds=kinds)
    except WireError as exc:
        return Rejected(exc.reason, exc.detail)
    if msg.game_id != game_id:
        return Rejected(Reason.ANOTHER_GAME, msg.game_id.hex(), msg)
    key = keys.get(msg.seat)
    if key is None:
        return Rejected(Reason.UNKNOWN_SEAT, f"seat {msg.seat}", msg)
    try:
        verify(msg, key)
    except WireError as exc:
        return Rejected(exc.reason, exc.detail, msg)
    return Accepted(msg)


def position(msg: SignedMessage, *, step: int, prev: bytes, awaited: Iterable[int]) -> Rejected | None:
    """Checks 8-12 of WIRE.md: is this message the awaited contribution to the current step?"""
    if msg.kind in NON_STEP_KINDS:
        return Rejected(Reason.NOT_A_STEP, msg.kind, msg)
    if msg.step < step:
        return Rejected(Reason.OLD_STEP, f"step {msg.step} < {step}", msg)
    if msg.step > step:
        return Rejected(Reason.FUTURE_STEP, f"step {msg.step} > {step}", msg)
    if msg.prev != prev:
        return Rejected(Reason.WRONG_HEAD, msg.prev.hex(), msg)
    if msg.seat not in awaited:
        return Rejected(Reason.NOT_AWAITED, f"seat {msg.seat}", msg)
    return None


def accept(
    data: bytes | SignedMessage,
    *,
    game_id: bytes,
    step: int,
    prev: bytes,
    awaited: Iterable[int],
    keys: Mapping[int, Ed25519PublicKey],
    kinds: Mapping[str, int] = KINDS,
) -> Acceptance:
    """Every check of WIRE.md, in order, against an explicit expectation; pure (no state)."""
    verdict = authenticate(data, game_id=game_id, keys=keys, kinds=kinds)
    if isinstance(verdict, Rejected):
        return verdict
    return position(verdict.message, step=step, prev=prev, awaited=frozenset(awaited)) or verdict


# --- a round ------------------------------------------------------------------------------------


class Round:
    """Collects the contributions of a set of seats to one step, in any arrival order.

    ``add`` expects messages already authenticated (game, seat key, signature); it checks the
    position itself and detects duplicates and equivocation.
    """

    def __init__(self, step: int, prev: bytes, seats: Iterable[int], *, seal: bool = False) -> None:
        self.step = step
        self.prev = prev
        self.seats = frozenset(seats)
        self.is_seal = seal
        if not self.seats or not all(0 <= seat < MAX_SEATS for seat in self.seats):
            raise ValueError("a round awaits one or more seats in 0..5")
        self._received: dict[int, SignedMessage] = {}

    @property
    def missing(self) -> frozenset[int]:
        return self.seats - self._received.keys()

    @property
    def complete(self) -> bool:
        return not self.missing

    @property
    def received(self) -> tuple[SignedMessage, ...]:
        """The contributions so far, in seat order."""
        return tuple(self._received[seat] for seat in sorted(self._received))

    def get(self, seat: int) -> SignedMessage | None:
        return self._received.get(seat)

    def add(self, msg: SignedMessage) -> Accepted | Duplicate | Equivocation | Rejected:
        # A seat that already contributed is judged against its contribution first: the same message
        # again is a duplicate, any other message it signed for this step after the same head is
        # equivocation.
        prior = self._received.get(msg.seat)
        if prior is not None and msg.step == self.step and msg.kind not in NON_STEP_KINDS:
            if prior.hash == msg.hash:
                return Duplicate(msg)
            if msg.prev == self.prev:
                return Equivocation.of(prior, msg)
        rejected = position(msg, step=self.step, prev=self.prev, awaited=self.seats)
        if rejected is not None:
            return rejected
        self._received[msg.seat] = msg
        return Accepted(msg)

    def messages(self) -> tuple[SignedMessage, ...]:
        """All contributions in seat order; only once complete."""
        if not self.complete:
            raise RuntimeError(f"round of step {self.step} still misses seats {sorted(self.missing)}")
        return self.received

    def release(self, seats: Iterable[int]) -> None:
        """Stop waiting for ``seats`` (a seal round whose missing seats were removed by a verdict)."""
        if not self.is_seal:
            raise RuntimeError("only a seal round may complete without some of its seats")
        self.seats = self.seats - (frozenset(seats) - self._received.keys())

    def seal(self) -> Step:
        messages = self.messages()
        if self.is_seal:
            return Step(self.step, self.prev, seal_head(self.prev), messages)
        return Step(self.step, self.prev, step_head(self.prev, [m.hash for m in messages]), messages)


# --- the chain ------------------------------------------------------------------------------------


class Chain:
    """One game's log at the wire level: sealed steps, the head, and the round being collected.

    Usage: ``expect(seats)`` opens the current step for those seats (the replicated state says who
    is awaited); ``offer(frame)`` for every received payload and every message signed locally; on
    :class:`Sealed`, apply the step's messages in order, then ``expect`` the next step.  While no
    step is open, a message for the current step is ``not awaited`` (or ``wrong head``).

    ``start_step``/``start_head`` resume a chain from a later position (for instance after
    replaying a journal elsewhere); equivocation on steps before it then goes undetected here.
    """

    def __init__(
        self,
        game_id: bytes,
        keys: Mapping[int, Ed25519PublicKey],
        *,
        kinds: Mapping[str, int] = KINDS,
        start_step: int = 0,
        start_head: bytes | None = None,
    ) -> None:
        if len(game_id) != HASH_SIZE or (start_head is not None and len(start_head) != HASH_SIZE):
            raise ValueError("a game id and a head are 32 bytes")
        self.game_id = bytes(game_id)
        self.keys: Mapping[int, Ed25519PublicKey] = MappingProxyType(dict(keys))
        self.kinds = kinds
        self._base = start_step
        self._step = start_step
        self._head = initial_head(game_id) if start_head is None else bytes(start_head)
        self._steps: list[Step] = []
        self._round: Round | None = None

    @property
    def step(self) -> int:
        """The number of the step being collected (the next one to seal)."""
        return self._step

    @property
    def head(self) -> bytes:
        """The head after the last sealed step: what every contribution to ``step`` must name."""
        return self._head

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple(self._steps)

    @property
    def awaited(self) -> frozenset[int]:
        return frozenset() if self._round is None else self._round.seats

    @property
    def missing(self) -> frozenset[int]:
        return frozenset() if self._round is None else self._round.missing

    @property
    def pending(self) -> tuple[SignedMessage, ...]:
        """Contributions to the open step so far, in seat order."""
        return () if self._round is None else self._round.received

    def expect(self, seats: Iterable[int], *, seal: bool = False) -> None:
        """Open the current step for ``seats`` (``seal``: a seal step, see the module docstring).
        Only when no step is open."""
        if self._round is not None:
            raise RuntimeError(f"step {self._step} is already open")
        wanted = frozenset(seats)
        if not wanted <= self.keys.keys():
            raise ValueError(f"no key for seats {sorted(wanted - self.keys.keys())}")
        self._round = Round(self._step, self._head, wanted, seal=seal)

    def release(self, seats: Iterable[int]) -> Sealed | None:
        """Stop waiting for ``seats`` in the open seal step; the step if that completed it."""
        if self._round is None:
            return None
        self._round.release(seats)
        if self._round.received and self._round.complete:
            return self._seal(self._round.received[-1])
        return None

    def _seal(self, last: SignedMessage) -> Sealed:
        assert self._round is not None
        sealed = self._round.seal()
        self._steps.append(sealed)
        self._head = sealed.head
        self._step += 1
        self._round = None
        return Sealed(last, sealed)

    def lookup(self, step: int, seat: int) -> SignedMessage | None:
        """The message ``seat`` contributed to ``step`` (sealed or pending), if any."""
        if step == self._step and self._round is not None:
            return self._round.get(seat)
        if self._base <= step < self._step:
            return self._steps[step - self._base].by_seat(seat)
        return None

    def messages_after(self, step: int) -> tuple[SignedMessage, ...]:
        """Sealed messages of the steps after ``step`` (-1 for all), then the pending ones: what a
        peer catching up needs, in log order."""
        start = max(step + 1 - self._base, 0)
        sealed = tuple(msg for s in self._steps[start:] for msg in s.messages)
        return sealed + self.pending

    def offer(self, data: bytes | SignedMessage, *, authenticated: bool = False) -> Outcome:
        """Run every check on a received payload (or a locally signed message) and store it if due.

        ``authenticated``: the caller already ran :func:`authenticate` on this very ``SignedMessage``
        with this chain's game id, keys and kinds (a signature is costly: check it once)."""
        if authenticated and isinstance(data, SignedMessage):
            msg = data
        else:
            verdict = authenticate(data, game_id=self.game_id, keys=self.keys, kinds=self.kinds)
            if isinstance(verdict, Rejected):
                return verdict
            msg = verdict.message
        if msg.kind in NON_STEP_KINDS:
            return Rejected(Reason.NOT_A_STEP, msg.kind, msg)
        if msg.step < self._step:
            return self._offer_old(msg)
        if msg.step > self._step:
            return Rejected(Reason.FUTURE_STEP, f"step {msg.step} > {self._step}", msg)
        if self._round is None:
            # Nobody is awaited yet: the message is either bound to a wrong head or not awaited.
            return position(msg, step=self._step, prev=self._head, awaited=()) or Rejected(
                Reason.NOT_AWAITED, f"seat {msg.seat}", msg
            )
        outcome = self._round.add(msg)
        if isinstance(outcome, Accepted) and self._round.complete:
            return self._seal(msg)
        return outcome

    def _offer_old(self, msg: SignedMessage) -> Duplicate | Equivocation | Rejected:
        held = self.lookup(msg.step, msg.seat)
        if held is None or (held.hash != msg.hash and held.prev != msg.prev):
            return Rejected(Reason.OLD_STEP, f"step {msg.step} < {self._step}", msg)
        if held.hash == msg.hash:
            return Duplicate(msg)
        return Equivocation.of(held, msg)
