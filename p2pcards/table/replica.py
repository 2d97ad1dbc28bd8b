"""One seat's replica of a game: a sans-IO state machine over the signed, hash-chained log.

Feed it what arrives (``receive``), what its player decides (``local_action``, ``decide_silent``,
``admit``) and the time (``tick``); each call returns the outputs its shell must carry out, in order
(see ``outputs``).  Everything replicated — who plays, whose turn it is, what must be revealed, the
verdict on a cheat — is a pure function of the messages the replica holds, so every honest replica
that holds the same messages decides the same, whatever order they arrived in.

The log of a game:

    genesis (all) · coin_commit (all) · coin_reveal (all)          -> the first dealer
    per hand: one or more *attempts* (see ``attempt``), each from its own first head:
        the dealer's prelude, the engine's steps, the audit, then the seal (every seat still playing
        signs the result).  Once every seal is in, the hand is final: nothing received later changes
        it or anything before it.

A verdict — a seat proved a cheater, or seats voted silent at the step that is open — voids the
attempt being played (unless it already reached its seal: then it only excuses the seat from
sealing) and the hand is dealt again without those seats.  Messages the replica receives are of
three sorts (``protocol/WIRE.md``): *steps* of some attempt, *certificates* (votes, evidence,
abandons, return requests; kept and relayed, never steps) and *transport* (catch-up).
"""

from __future__ import annotations

import hashlib
import secrets as _os_secrets
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from p2pcards.games import ActionError, AuditResult, GameError, HandState, Match
from p2pcards.table import bodies, catchup, claims, decide, policy
from p2pcards.table import outputs as out
from p2pcards.table.attempt import Attempt, DummyPolicy, Foul, Shared
from p2pcards.table.dealers import DealerFactory, mental_factory, seeded_factory
from p2pcards.table.decide import Decision
from p2pcards.table.genesis import Genesis
from p2pcards.table.policy import DISCONNECTED_MS, RETRY_MS
from p2pcards.table.seating import CHEAT, GONE, RETURN, SILENT, UNCONFIRMED, Change, start_head
from p2pcards.table.secrets import MASTER, MASTER_SIZE, SeatSecrets
from p2pcards.table.seen import Seen
from p2pcards.table.setup import Setup
from p2pcards.table.unplaced import Unplaced
from p2pcards.table.voices import Voices
from p2pcards.wire import (
    CERTIFICATE_KINDS,
    TRANSPORT_KINDS,
    Chain,
    Duplicate,
    Envelope,
    Equivocation,
    Rejected,
    Sealed,
    SignedMessage,
    WireError,
    authenticate,
    conflicting,
    encode,
    initial_head,
    load_public_key,
    seal_head,
    sign,
    verify_evidence,
)

SecretSource = Callable[[int], bytes]

TABLE_DIGEST_TAG = b"p2pcards/table/v3\x00"


UNPLACED_BYTES_PER_PEER = 1 << 20
"""Signed messages that fit no step we know yet (a peer ahead of us) kept per sending peer, in bytes."""


MAX_CONSENTS = 64
"""Our own voice's returns remembered (one is signed per decision it consents to)."""

SEEN_BYTES = 4 << 20
"""Payloads whose signature check is remembered though they were not accepted (see ``seen``)."""




@dataclass
class _Boundary:
    """The start of the first hand that is not final here."""

    hand: int
    head: bytes
    step: int
    match: Match
    carried: frozenset[Change]
    out: dict[int, str]
    """Seats out of the match before this hand, with why (``silent`` or ``cheat``)."""


@dataclass
class _Final:
    """A hand every seat still playing sealed."""

    hand: int
    attempt: Attempt
    payloads: list[bytes]
    seal_votes: dict[int, SignedMessage]
    """The votes at its seal step: they may still come after it is final, and decide which seats the
    next hand is dealt without, until that hand is final too."""

    def messages(self) -> list[bytes]:
        """What a peer needs to reach this hand as we did."""
        return self.payloads + [v.data for _, v in sorted(self.seal_votes.items())]


@dataclass
class _Asked:
    """The person's answer about the seats silent at the open step."""

    key: tuple[bytes, int]
    seats: tuple[int, ...]
    ask_at: int
    """When to ask (the moment it became due; after "keep waiting", one timeout later)."""
    end_match: bool
    go_on: bool | None = None
    asked_at: int = -1


class Table:
    """One seat's replica.  Construct, call ``start()`` (or ``restore(journal)``), then feed it.

    With ``seat=None`` (and no identity) it is an *observer*: it contributes nothing and learns only
    what is public — what ``p2pcards verify`` runs over a journal.  ``person``: a person plays this
    seat, so the table asks (``SilentSeats``) before it votes anyone silent; a computer seat decides
    by itself."""

    def __init__(
        self,
        genesis: Genesis,
        seat: int | None,
        identity: Ed25519PrivateKey | None,
        *,
        source: SecretSource | None = None,
        secrets: Mapping[str, bytes] | None = None,
        dealer_factory: DealerFactory | None = None,
        person: bool = False,
        dummy_policy: DummyPolicy | None = None,
        perspective: int | None = None,
    ) -> None:
        self.genesis = genesis
        self.game_id = genesis.game_id
        self.rules = genesis.rules()
        self.n = len(genesis.seats)
        if seat is not None and not 0 <= seat < self.n:
            raise ValueError(f"no seat {seat} at a table of {self.n}")
        if (seat is None) != (identity is None):
            raise ValueError("a seat needs its identity key; an observer (seat None) has none")
        self.seat = seat
        self.person = person
        self._voices = Voices.of(genesis)
        if perspective is not None and not 0 <= perspective < self.n:
            raise ValueError(f"no seat {perspective} at a table of {self.n}")
        me = seat if seat is not None else perspective
        self._me: int | None = None if me is None else self._voices.voice(me)
        """The voice this replica speaks or reads for: its seat's (its runner's, for a computer seat);
        for an observer, that of the seat whose journal it reads, if it was told."""
        self._identity = identity
        self._source = source
        self._keys: dict[int, Ed25519PublicKey] = {
            i: load_public_key(s.key) for i, s in enumerate(genesis.seats)
        }
        kept = dict(secrets or {})
        self._master: bytes | None = kept.get(MASTER)
        if self._master is not None and len(self._master) != MASTER_SIZE:
            raise ValueError(f"the kept master secret is {len(self._master)} bytes, not {MASTER_SIZE}")
        self._secrets: SeatSecrets | None = None
        self._given_factory = dealer_factory
        self._dealer_factory: DealerFactory | None = None
        self._shared = Shared(
            self.game_id,
            self.rules,
            self.n,
            self._keys,
            seat,
            dummy_policy if dummy_policy is not None else _dummy_policy(genesis.game),
        )
        # ---- what the replica holds
        self._by_key: dict[tuple[int, bytes, int], SignedMessage] = {}
        """Every accepted step message by (step, prev, seat), across attempts."""
        self._by_prev: dict[bytes, list[SignedMessage]] = {}
        self._accepted: set[bytes] = set()
        """Hashes of every accepted message's payload (only looked up, never iterated)."""
        self._votes: dict[tuple[int, bytes], dict[int, SignedMessage]] = {}
        self._abandons: dict[tuple[int, bytes], dict[int, SignedMessage]] = {}
        """Per step, each voice's abandon there: its word, binding on itself alone (``decide``)."""
        self._consents: list[SignedMessage] = []
        """This replica's own voice's returns: its consent to decisions naming it (``claims.binds``)."""
        self._returns: dict[int, SignedMessage] = {}
        self._evidence: dict[int, tuple[bytes, ...]] = {}
        """Per convicted seat, the payloads that prove it (a pair, or the evidence message)."""
        self._cheaters: dict[int, out.Fault] = {}
        self._unplaced = Unplaced(UNPLACED_BYTES_PER_PEER)
        self._seen = Seen(SEEN_BYTES)
        self._catchup = catchup.Catchup()
        # ---- the derivation
        self._setup = Setup(genesis, Chain(self.game_id, self._keys))
        self.match: Match | None = None
        self._boundary: _Boundary | None = None
        self._attempts: dict[bytes, Attempt] = {}
        self.attempt: Attempt | None = None
        self._path: list[Attempt] = []
        self._finals: list[_Final] = []
        self.hands_played: list[tuple[HandState, AuditResult]] = []
        self.verdicts: list[out.Fault] = []
        self._announced: set[tuple[Any, ...]] = set()
        self.over = False
        self.abandoned = False
        self.stopped: out.Fault | None = None
        """Set when the game cannot go on at all (a fault before the first hand, or one that no seat
        can be blamed for)."""
        # ---- local time and people
        self._now = 0
        self._since = 0
        self._open_key: tuple[bytes, int] | None = None
        self._last_retry = 0
        self._heard: dict[int, int] = {}
        """Per voice, when a frame from one of its seats last reached us (the connection clock)."""
        self._first_tick = 0
        self._voted: set[tuple[bytes, int]] = set()
        self._ended_at: set[tuple[bytes, int]] = set()
        self._asked: _Asked | None = None
        self._admit: dict[int, bool] = {}
        self._asking_return = False
        self._pending_gone: Decision | None = None
        """The latest decision naming this voice that it has not agreed to (``ask_to_return``)."""
        self._half_gone: Decision | None = None
        """Half the table's word naming this voice, unconsented (``policy.consents_to_word``)."""
        self._return_asked: set[tuple[int, int]] = set()
        """(seat, hand) of every return request taken: one per seat voted out and hand."""
        self._restoring = False
        self._ticked = False
        self._catchup_from: set[int] = set()
        """Peers whose complete answer a restored seat still waits for before it signs anything new
        (see ``_unanswered``)."""
        self._told_restoring: tuple[int, ...] = ()
        self._inbox: deque[tuple[int | None, bytes | SignedMessage, int]] = deque()
        """What is still to be looked at: (peer, payload or authenticated message, depth)."""
        self._ended: tuple[Match, frozenset[Change]] | None = None
        """The match ended when the seating changed (fewer than two can play): with which changes."""
        self._changes: frozenset[Change] = frozenset()
        """The changes the hand being played was dealt with (or the match ended with)."""
        self._candidates: dict[bytes, frozenset[Change]] = {}
        """Heads of the attempts the verdicts known at this hand could lead to, by the path taken."""
        self._candidate_basis: frozenset[Change] | None = None
        self._seating_end: frozenset[Change] | None = None
        """Set while the match is over only because too few seats can play (the changes that made it
        so): unlike a sealed end, a later message can still show a hand that was played to its end."""

        self._out: list[out.Output] = []

    # ================================================================ public API

    def start(self) -> list[out.Output]:
        """Open the first step and make this seat's first contribution."""
        self._init_secrets()
        self._derive()
        return self._flush()

    def restore(self, journal: Iterable[bytes]) -> list[out.Output]:
        """Rebuild from this seat's journal (accepted messages in any order), then resume: re-send this
        seat's messages of the open step and ask every peer for what it missed.  Never double-sign:
        nothing new is signed until every peer that may hold what this seat signed before it
        restarted — every other seat neither convicted nor out of the hand — sent a complete answer,
        however long that takes (``Restoring`` tells its person whom it waits for; the others may
        vote it silent meanwhile), so a seat restored from an old copy of its journal never says
        something different for a step it already spoke at.
        Returns the verdicts reached on the way (hands over, faults, refused frames) and what to
        send.  An observer (seat None) restored from any peer's journal is how a game is verified."""
        self._init_secrets()
        self._restoring = True
        try:
            self._settle()
            for payload in journal:
                self._inbox.append((None, payload, 0))
                self._settle(contribute=False)
        finally:
            self._restoring = False
        # What the replay itself would have sent or journaled is already out there (a new master
        # secret, for a seat that died before it kept one, is not: it stays).
        self._out = [o for o in self._out if not isinstance(o, (out.Send, out.Persist))]
        if self.seat is not None:
            self._catchup_from = {s for s in range(self.n) if s != self.seat and s not in self._cheaters}
            self._resend_open()
            self._out.append(out.Send(self._catchup_request()))
        self._settle()
        return self._flush()

    def receive(self, peer: int | None, payload: bytes) -> list[out.Output]:
        """A frame payload from ``peer`` (a seat number, or None if unknown)."""
        if peer is not None and 0 <= peer < self.n:
            self._heard[self._voices.voice(peer)] = self._now
        self._inbox.append((peer, payload, 0))
        self._settle()
        return self._flush()

    def local_action(self, text: str) -> list[out.Output]:
        """This seat's player chose ``text``; ``ActionError`` (and nothing sent) if it is not legal now."""
        if self.seat is None:
            raise ActionError("an observer does not play")
        if self.over or self.stopped is not None:
            raise ActionError("the game is over")
        att = self.attempt
        waiting = self._unanswered()
        if waiting:
            raise ActionError(
                f"this seat restarted: it waits for seats {list(waiting)} to say what it signed before it "
                "restarted, so that it never signs two different moves for one step"
            )
        if att is None:
            raise ActionError("it is not your turn")
        body = att.action_body(text)
        self._contribute("action", body, att.chain.step, att.chain.head)
        self._settle()
        return self._flush()

    def decide_silent(self, go_on: bool) -> list[out.Output]:
        """The person's answer to ``SilentSeats``: go on without the silent seats (the hand is void; in
        a two-player match, the match ends), or keep waiting (asked again after another timeout)."""
        asked = self._asked
        if asked is not None:
            asked.go_on = go_on
            if not go_on:
                asked.ask_at = self._now + self.genesis.timeout_ms
                asked.asked_at = -1
                asked.go_on = None
        self._maybe_vote()
        self._settle()
        return self._flush()

    def admit(self, seat: int, yes: bool) -> list[out.Output]:
        """The person's answer to ``ReturnAsked``: the seat's return is signed with our next seal."""
        self._admit[seat] = yes
        return self._flush()

    def ask_to_return(self) -> list[out.Output]:
        """This seat was voted out, or the others went on without it: agree to it (``claims.binds``)
        and ask the seats still playing to deal it in again."""
        if self.seat is None:
            return self._flush()
        gone = self._pending_gone
        if gone is not None and self.left_behind:
            # Consent names a decision: signed at its step after its head, this return accepts the
            # majority's decision there and nothing else (SPEC §6.5).
            self._asking_return = True
            self._certificate("return", {}, step=gone.step, prev=gone.prev)
            self._settle()
        elif self._out_seats().get(self.seat) in GONE:
            self._asking_return = True
            self._certificate("return", {})
            self._settle()
        return self._flush()

    def tick(self, now: int) -> list[out.Output]:
        """The local time in milliseconds: retries, and votes when seats stay silent."""
        if not self._ticked:
            # Times noted before the first tick (at start or restore) were noted at an unknown time:
            # they count from now, so a restarted seat waits the whole timeout before voting.
            self._ticked = True
            self._since = self._last_retry = self._first_tick = now
            if self._asked is not None:
                self._asked.ask_at = now
        self._now = now
        att = self.attempt
        if self.seat is not None and not self.over and self.stopped is None:
            missing = self._missing()
            if missing and now - self._last_retry >= RETRY_MS:
                self._retry()
            if att is not None:
                self._maybe_consent()
                self._maybe_vote()
            self._settle()
        return self._flush()

    # ---- reading the state

    @property
    def state(self) -> HandState | None:
        return None if self.attempt is None else self.attempt.state

    @property
    def fault(self) -> out.Fault | None:
        """The verdict that stopped the game, if one did (see ``stopped``); every other verdict voids a
        hand and the match goes on (see ``verdicts``)."""
        return self.stopped

    @property
    def chain(self) -> Chain:
        """The chain of the open attempt (the setup steps before the first hand)."""
        return self._setup.chain if self.attempt is None else self.attempt.chain

    @property
    def hand_number(self) -> int:
        return -1 if self._boundary is None else self._boundary.hand

    @property
    def unplaced(self) -> Unplaced:
        """Messages received that fit no step this replica reached (a gap, if the log ends here)."""
        return self._unplaced

    @property
    def waiting_for(self) -> tuple[int, ...]:
        return self._missing()

    @property
    def restoring_from(self) -> tuple[int, ...]:
        """The seats a restored seat still waits for before it signs anything new (SPEC §9.6); empty
        once every one of them sent all it holds, and for a seat that never restarted."""
        return self._unanswered()

    @property
    def returning(self) -> bool:
        """Whether this seat asked to be dealt in again and is not yet."""
        return self._asking_return

    @property
    def left_behind(self) -> bool:
        """Whether a majority went on without this seat's voice, and it has not agreed (yet).  A
        minority's word (an abandon) leaves nobody behind: it binds its signer alone."""
        return claims.left_behind(self._pending_gone, self._consent_keys())

    @property
    def cheaters(self) -> tuple[int, ...]:
        return tuple(sorted(self._cheaters))

    @property
    def seats_out(self) -> dict[int, str]:
        """Seats that take no part in the hand being played, with why (``cheat``/``silent``)."""
        return dict(sorted(self._out_seats().items()))

    @property
    def finals(self) -> list[tuple[int, Attempt]]:
        """Every final hand, in order, with the attempt that played it."""
        return [(f.hand, f.attempt) for f in self._finals]

    @property
    def attempts_path(self) -> list[Attempt]:
        """The attempts at the hand being played, in the order the verdicts led through them."""
        return list(self._path)

    def decisions_taken(self) -> list[tuple[Decision, int]]:
        """The decisions behind the seats out as silent or unconfirmed at steps of the hand being
        played, each with the number of voices playing its attempt: what ``claims``' invariants judge
        (the explorer and the model checker call them on every replica after every event)."""
        found: list[tuple[Decision, int]] = []
        for c in sorted(self._changes):
            if c.kind not in (SILENT, UNCONFIRMED):
                continue
            att = next((a for a in self._path if a.head_before(c.step) == c.prev), None)
            if att is None:
                continue  # (carried from an earlier hand: judged while it was taken)
            decision = self._binding_at(att, c.step, c.prev, tell=False)
            if decision is not None:
                found.append((decision, len(decide.playing(self._voices, att))))
        return found

    def votes_held(self) -> list[SignedMessage]:
        return [v for key in sorted(self._votes) for _, v in sorted(self._votes[key].items())]

    def digest(self) -> bytes:
        """What every honest replica agrees on: the final hands, the attempt being played and its
        state, the seats out and the end of the match (``protocol/SPEC.md``, the table digest):

            SHA-256("p2pcards/table/v3" 00 ‖ encode([finals, boundary, current, out, over,
                                                      abandoned, stopped]))
        """
        value = [
            [final.attempt.seal_prev for final in self._finals],
            None if self._boundary is None else self._boundary.head,
            self.attempt.digest() if self.attempt is not None else self._setup.chain.head,
            [[seat, why] for seat, why in sorted(self._out_seats().items())],
            self.over,
            self.abandoned,
            None if self.stopped is None else [self.stopped.seat, self.stopped.kind],
        ]
        return hashlib.sha256(TABLE_DIGEST_TAG + encode(value)).digest()

    # ================================================================ secrets

    def _init_secrets(self) -> None:
        if self.seat is None or self._secrets is not None:
            pass
        elif self._master is None:
            self._master = self._random(MASTER_SIZE)
            self._out.append(out.KeepSecret(MASTER, self._master))
        if self.seat is not None and self._master is not None and self._secrets is None:
            self._secrets = SeatSecrets(self._master, self.game_id)
        if self._dealer_factory is None:
            if self._given_factory is not None:
                self._dealer_factory = self._given_factory
            elif self.genesis.dealer == "seeded":
                self._dealer_factory = seeded_factory(self.rules.deck, self.genesis.seed)
            else:
                s = self._secrets
                self._dealer_factory = mental_factory(
                    self.game_id,
                    self.rules.deck,
                    self.seat,
                    key_for=None if s is None else s.hand_key,
                    source_for=None if s is None else s.source,
                )

    def _random(self, n: int) -> bytes:
        if self._source is not None:
            return self._source(n)
        return _os_secrets.token_bytes(n)

    # ================================================================ ingestion

    def _settle(self, *, contribute: bool = True) -> None:
        """Look at everything received, bring the derivation up to date, contribute what is due; again,
        until nothing moves.  A loop, never a recursion: no input can exhaust the stack."""
        for _ in range(1_000_000):
            while self._inbox:
                peer, item, depth = self._inbox.popleft()
                self._ingest(peer, item, depth=depth)
            self._derive(contribute=contribute)
            if not self._inbox:
                return

    def _ingest(self, peer: int | None, item: bytes | SignedMessage, *, depth: int) -> None:
        if isinstance(item, SignedMessage):
            msg = item  # a message authenticated when it first arrived, held until it fitted
        else:
            # Every message reaches us once from its author and once more from each relaying peer:
            # a copy of bytes we already accepted costs one hash, no decoding, no signature check.
            fingerprint = hashlib.sha256(item).digest()
            if fingerprint in self._accepted:
                return
            verdict = self._seen.verdict(fingerprint)
            if verdict is None:
                verdict = authenticate(item, game_id=self.game_id, keys=self._keys)
                self._seen.remember(fingerprint, verdict, len(item))
            if isinstance(verdict, Rejected):
                self._reject(peer, str(verdict.reason), verdict.detail)
                return
            msg = verdict.message
        kind = msg.kind
        if kind in TRANSPORT_KINDS:
            if depth > 0:
                self._reject(peer, "nested", f"a {kind} inside a catch-up answer")
            elif kind == "catchup_request":
                self._serve_catchup(peer, msg)
            elif self._seen.first_answer(hashlib.sha256(msg.data).digest()):
                self._take_catchup(peer, msg)
            return
        if kind in CERTIFICATE_KINDS:
            self._take_certificate(peer, msg)
            return
        self._take_step(peer, msg)

    def _reject(self, peer: int | None, reason: str, detail: str = "") -> None:
        self._out.append(out.Rejected(peer, reason, detail))

    def _keep(self, msg: SignedMessage, *, own: bool) -> None:
        """Journal an accepted message and relay it (the author's first send, or our relay of it)."""
        self._accepted.add(hashlib.sha256(msg.data).digest())
        if not self._restoring:
            self._out.append(out.Persist(msg.data, own=own))
            self._out.append(out.Send(msg.data))

    # ---- steps

    def _take_step(self, peer: int | None, msg: SignedMessage) -> None:
        key = (msg.step, msg.prev, msg.seat)
        held = self._by_key.get(key)
        if held is not None:
            if held.hash != msg.hash and conflicting(held, msg):
                self._equivocation(Equivocation.of(held, msg))
            return
        target = self._attempt_at(msg.step, msg.prev)
        if target is None:
            if self.attempt is None and msg.step < 3:
                self._take_setup(peer, msg)
            elif self._is_past(msg):
                self._reject(peer, "old step", f"step {msg.step}")
            else:
                self._hold(peer, msg)
            return
        outcome = target.offer(msg)
        if isinstance(outcome, Rejected):
            self._reject(peer, str(outcome.reason), outcome.detail)
            return
        if isinstance(outcome, Equivocation):
            self._equivocation(outcome)
            return
        if isinstance(outcome, Duplicate):
            return
        self._store(msg)
        self._keep(msg, own=msg.seat == self.seat)
        self._feed(target)

    def _store(self, msg: SignedMessage) -> None:
        self._by_key[(msg.step, msg.prev, msg.seat)] = msg
        self._by_prev.setdefault(msg.prev, []).append(msg)

    def _attempt_at(self, step: int, prev: bytes) -> Attempt | None:
        """The live attempt whose open step is ``step`` after head ``prev``."""
        for att in self._attempts.values():
            if att.step == step and att.head == prev and att.fault is None:
                return att
        return None

    def _is_past(self, msg: SignedMessage) -> bool:
        b = self._boundary
        return b is not None and msg.step < b.step

    def _feed(self, att: Attempt) -> None:
        """Offer ``att`` every held message that follows its head, until it stops moving; then queue
        the messages kept because they fitted nothing before and fit it now: step messages for its
        open step, certificates about any step it went through."""
        heads = [att.head]
        while att.fault is None:
            before = (att.step, att.head, len(att.seals))
            for msg in list(self._by_prev.get(att.head, ())):
                if msg.step == att.step and not att.holds(msg.step, msg.seat):
                    att.offer(msg)
            if (att.step, att.head, len(att.seals)) == before:
                break
            heads.append(att.head)
        self._requeue(self._unplaced.take(att.head, att.step))
        for head in heads:
            self._requeue(self._unplaced.take(head, certificates=True))

    def _requeue(self, taken: list[tuple[int | None, SignedMessage]]) -> None:
        for peer, msg in taken:
            self._inbox.append((peer, msg, 1))

    def _hold(self, peer: int | None, msg: SignedMessage) -> None:
        """A message that fits no step we know: a peer is ahead of us.  Kept (see ``unplaced``) and
        taken once it fits; we ask that peer to catch us up."""
        self._unplaced.hold(peer, msg)
        if peer is None or self._restoring or self.seat is None:
            return
        if self._catchup.may_ask(peer, self._now):
            self._out.append(out.Send(self._catchup_request(), to=peer))

    # ---- the setup steps: genesis and the first-dealer coin

    def _take_setup(self, peer: int | None, msg: SignedMessage) -> None:
        chain = self._setup.chain
        if msg.step == chain.step and msg.prev == chain.head and msg.seat in chain.awaited:
            problem = self._setup.problem(msg)
            if problem:
                self._setup_cheat(msg, problem)
                return
        outcome = chain.offer(msg, authenticated=True)
        if isinstance(outcome, Rejected):
            if outcome.reason == "future step" or outcome.reason == "not awaited":
                self._hold(peer, msg)
            else:
                self._reject(peer, str(outcome.reason), outcome.detail)
            return
        if isinstance(outcome, Equivocation):
            self._equivocation(outcome)
            return
        if isinstance(outcome, Duplicate):
            return
        self._store(msg)
        self._keep(msg, own=msg.seat == self.seat)
        if isinstance(outcome, Sealed):
            self._setup.open()
            self._requeue(self._unplaced.take(self._setup.chain.head, self._setup.chain.step))
            try:
                self._setup.apply(outcome.step.number, outcome.step.messages)
            except Foul as foul:
                evidence = tuple(m.data for m in outcome.step.messages if m.seat == foul.seat)
                self._stop(
                    out.Fault(
                        foul.seat,
                        outcome.step.number,
                        foul.kind,
                        foul.message,
                        evidence,
                        hand=-1,
                        seats=(foul.seat,),
                    )
                )
                return
            if self._setup.first_dealer is not None:
                self.match = self.rules.new_match(self._setup.first_dealer)
                b = self._setup.chain
                self._boundary = _Boundary(0, b.head, b.step, self.match, frozenset(), {})

    def _setup_cheat(self, msg: SignedMessage, problem: str) -> None:
        """A wrong setup message, signed: its seat is a cheater, and the message, kept and relayed,
        proves it to every replica (see ``setup``)."""
        if msg.seat in self._cheaters:
            return
        self._keep(msg, own=msg.seat == self.seat)
        fault = out.Fault(msg.seat, msg.step, "bad-message", problem, (msg.data,), hand=-1, seats=(msg.seat,))
        self._cheaters[msg.seat] = fault
        self._evidence[msg.seat] = (msg.data,)
        self._record(("cheat", msg.seat), fault)

    # ---- certificates

    def _take_certificate(self, peer: int | None, msg: SignedMessage) -> None:
        if msg.kind == "evidence":
            self._take_evidence(peer, msg)
            return
        if msg.kind == "return":
            self._take_return(peer, msg)
            return
        reason = "bad vote" if msg.kind == "void_vote" else "bad abandon"
        try:
            silent = bodies.silent_body(
                msg.body, self.n, "a void vote" if msg.kind == "void_vote" else "an abandon"
            )
        except bodies.BodyError as exc:
            self._reject(peer, reason, str(exc))
            return
        att = self._last_seal(msg.step, msg.prev) or self._attempt_with_step(msg.step, msg.prev)
        if att is None:
            if self._is_past(msg) or self.over:
                self._reject(peer, reason, f"{msg.kind} for step {msg.step} of a hand that is final")
            else:
                self._hold(peer, msg)
            return
        if msg.kind == "void_vote":
            self._take_vote(peer, msg, att, silent)
        else:
            self._take_abandon(peer, msg, att, silent)

    def _last_seal(self, step: int, prev: bytes) -> Attempt | None:
        """The last final hand's attempt, if (``step``, ``prev``) is its seal step and the next hand is
        still to be decided by it."""
        if not self._finals or self.over:
            return None
        att = self._finals[-1].attempt
        return att if (step, prev) == (att.seal_step, att.seal_prev) else None

    def _attempt_with_step(self, step: int, prev: bytes) -> Attempt | None:
        """The live attempt of the hand being played that has a step ``step`` after head ``prev``."""
        for att in self._attempts.values():
            if att.head_before(step) == prev:
                return att
        return None

    def _take_vote(self, peer: int | None, msg: SignedMessage, att: Attempt, silent: tuple[int, ...]) -> None:
        problem = claims.claim_problem(
            claims.VOTE, self._voices, msg.seat, silent, decide.view(att, msg.step, msg.prev)
        )
        if problem:
            self._reject(peer, "bad vote", problem)
            return
        if not self._claim(self._votes, msg):
            return
        named_seats = self._voices.seats_of(silent, range(self.n))
        held = [m for s in named_seats if (m := self._by_key.get((msg.step, msg.prev, s))) is not None]
        if held and msg.seat != self.seat:
            # We hold what the vote calls missing: we do not pass the vote on, we send the voter the
            # messages instead (it keeps the vote only if it voted itself and everyone else did too).
            self._accepted.add(hashlib.sha256(msg.data).digest())
            if not self._restoring:
                self._out.append(out.Persist(msg.data))
                for m in held:
                    self._out.append(out.Send(m.data, to=msg.seat if peer is None else peer))
            return
        self._keep(msg, own=msg.seat == self.seat)

    def _take_abandon(
        self, peer: int | None, msg: SignedMessage, att: Attempt, silent: tuple[int, ...]
    ) -> None:
        # An abandon is its signer's word: it binds the signer's voice alone (``decide``), so it is
        # kept and relayed whoever it names; a seat it names just goes on, unless it consents.
        problem = claims.claim_problem(
            claims.ABANDON, self._voices, msg.seat, silent, decide.view(att, msg.step, msg.prev)
        )
        if problem:
            self._reject(peer, "bad abandon", problem)
            return
        if self._claim(self._abandons, msg):
            self._keep(msg, own=msg.seat == self.seat)

    def _claim(self, book: dict[tuple[int, bytes], dict[int, SignedMessage]], msg: SignedMessage) -> bool:
        """Note a seat's vote (or end) for a step after a head: True if it is its first; a second,
        different one is equivocation."""
        held = book.setdefault((msg.step, msg.prev), {})
        prior = held.get(msg.seat)
        if prior is not None:
            if prior.hash != msg.hash:
                self._equivocation(Equivocation.of(prior, msg))
            return False
        held[msg.seat] = msg
        return True

    def _take_return(self, peer: int | None, msg: SignedMessage) -> None:
        try:
            bodies.return_body(msg.body)
        except bodies.BodyError as exc:
            self._reject(peer, "bad return", str(exc))
            return
        # Our own voice's return is its consent to what was decided about it at any step up to the
        # return's own (``claims.binds``): kept whatever the seating, so that a restore from the
        # journal consents as the seat did.
        own = self._me is not None and msg.seat == self._me and self._voices.is_person(msg.seat)
        if own and all(c.hash != msg.hash for c in self._consents):
            if len(self._consents) >= MAX_CONSENTS:
                self._consents.pop(0)
            self._consents.append(msg)
            self._candidate_basis = None
            if self._out_seats().get(msg.seat) not in GONE:
                self._keep(msg, own=msg.seat == self.seat)
        # One request per seat voted out and hand: a seat that is playing, a cheater, or a seat that
        # asked already for this hand asks for nothing (and cannot make us journal or relay more).
        b = self._boundary
        if b is None or self._out_seats().get(msg.seat) not in GONE or msg.seat in self._cheaters:
            return
        if not self._voices.is_person(msg.seat):
            return  # a computer seat comes back with its runner
        key = (msg.seat, b.hand)
        if key in self._return_asked:
            return
        self._return_asked.add(key)
        self._returns[msg.seat] = msg
        self._keep(msg, own=msg.seat == self.seat)
        if msg.seat != self.seat and self.seat is not None:
            if self.person:
                self._out.append(out.ReturnAsked(msg.seat))
            else:
                self._admit[msg.seat] = True

    def _take_evidence(self, peer: int | None, msg: SignedMessage) -> None:
        try:
            ev = Equivocation.from_body(msg.body)
        except WireError as exc:
            self._reject(peer, "bad evidence", str(exc))
            return
        accused = ev.seat
        if accused in self._cheaters:
            self._accepted.add(hashlib.sha256(msg.data).digest())
            return
        key = self._keys.get(accused)
        if key is None or ev.game_id != self.game_id or not verify_evidence(ev, key):
            self._reject(peer, "bad evidence", f"does not prove that seat {accused} equivocated")
            return
        self._keep(msg, own=msg.seat == self.seat)
        self._convict(accused, ev, relay=False)
        self._evidence[accused] = (msg.data,)  # served as it came: it convicts whoever gets it

    def _equivocation(self, ev: Equivocation) -> None:
        if ev.seat in self._cheaters:
            return
        self._convict(ev.seat, ev, relay=True)

    def _convict(self, seat: int, ev: Equivocation, *, relay: bool) -> None:
        """``seat`` signed two messages for one step after one head: a cheater, from now on.  It never
        rewrites what is sealed; it voids the hand being played if that hand has not ended."""
        message = f"signed two different messages for step {ev.step}"
        fault = out.Fault(
            seat,
            ev.step,
            "equivocation",
            message,
            (ev.first.data, ev.second.data),
            hand=self._hand_of(ev.step),
            seats=(seat,),
        )
        self._cheaters[seat] = fault
        self._evidence[seat] = (ev.first.data, ev.second.data)
        self._record(("cheat", seat), fault)
        if relay and self.seat is not None:
            # Anyone may relay evidence; only its two messages convict, never the relayer.
            data = self._signed("evidence", ev.to_body(), step=0, prev=initial_head(self.game_id))
            self._keep(SignedMessage.from_bytes(data), own=True)
            self._evidence[seat] = (data,)

    def _hand_of(self, step: int) -> int:
        """The hand a step belongs to (-1 for the setup before the first hand)."""
        for final in self._finals:
            if final.attempt.start_step <= step <= final.attempt.seal_step:
                return final.hand
        b = self._boundary
        if b is None or step < b.step:
            return -1
        return b.hand

    # ---- catch-up

    def _catchup_request(self) -> bytes:
        return self._signed(
            "catchup_request", {"after": self._catchup_after()}, step=0, prev=initial_head(self.game_id)
        )

    def _catchup_after(self) -> int:
        if self.attempt is not None:
            return self.attempt.start_step - 1
        return self._setup.chain.step - 1

    def _serve_catchup(self, peer: int | None, msg: SignedMessage) -> None:
        if self.seat is None or self._restoring:
            return  # an observer serves nobody
        try:
            after = bodies.catchup_request_body(msg.body)
        except bodies.BodyError as exc:
            self._reject(peer, "malformed", str(exc))
            return
        to = peer if peer is not None else msg.seat
        if not self._catchup.may_answer(to, self._now, after):
            return
        batch, size = catchup.batch(self._history_after(after, self._catchup.turn(to)))
        self._catchup.answered(to, size)
        # Sent even empty: it tells a seat that restarted that it has everything we hold.
        response = self._signed("catchup_response", {"msgs": batch}, step=0, prev=initial_head(self.game_id))
        self._out.append(out.Send(response, to=to))

    def _history_after(self, after: int, turn: int) -> Iterable[bytes]:
        """What a peer that holds every step up to ``after`` needs (see ``catchup``): the small
        certificates, the steps in log order, then the evidence, starting at the ``turn``-th."""
        for key in sorted(self._votes):
            for _, vote in sorted(self._votes[key].items()):
                yield vote.data
        for key in sorted(self._abandons):
            for _, ended in sorted(self._abandons[key].items()):
                yield ended.data
        for _, ret in sorted(self._returns.items()):
            yield ret.data
        if after < 2:
            for s in self._setup.chain.steps:
                if s.number > after:
                    yield from (m.data for m in s.messages)
        for final in self._finals:
            if final.attempt.seal_step > after:
                yield from final.messages()
        for att in self._path:
            yield from (m.data for m in att.messages() if m.step > after)
        proofs = [self._evidence[seat] for seat in sorted(self._evidence)]
        for i in range(len(proofs)):
            yield from proofs[(turn + i) % len(proofs)]

    def _take_catchup(self, peer: int | None, msg: SignedMessage) -> None:
        try:
            payloads = bodies.catchup_response_body(msg.body)
        except bodies.BodyError as exc:
            self._reject(peer, "malformed", str(exc))
            return
        for raw in payloads:
            self._inbox.append((peer, raw, 1))
        if msg.seat not in self._catchup_from:
            return
        # A restored seat signs nothing new until every peer told it all it holds: one peer's answer,
        # empty or short, may lack what this seat said before it died, and a clock proves nothing.
        if catchup.holds_every_step(len(msg.data)):
            self._catchup_from.discard(msg.seat)
        elif self._catchup.may_ask(msg.seat, self._now):
            self._out.append(out.Send(self._catchup_request(), to=peer if peer is not None else msg.seat))

    # ================================================================ making our messages

    def _signed(self, kind: str, body: Any, *, step: int, prev: bytes) -> bytes:
        assert self.seat is not None and self._identity is not None, "an observer signs nothing"
        env = Envelope(game_id=self.game_id, step=step, seat=self.seat, prev=prev, kind=kind, body=body)
        return sign(env, self._identity).data

    def _contribute(self, kind: str, body: Any, step: int, prev: bytes) -> None:
        """Sign our message and take it as if it had arrived: it goes through every check."""
        self._ingest(self.seat, self._signed(kind, body, step=step, prev=prev), depth=0)

    def _certificate(
        self, kind: str, body: Any, *, step: int | None = None, prev: bytes | None = None
    ) -> None:
        att = self.attempt
        if step is None or prev is None:
            step = att.step if att is not None else self._setup.chain.step
            prev = att.head if att is not None else self._setup.chain.head
        self._inbox.append((self.seat, self._signed(kind, body, step=step, prev=prev), 0))

    def _catching_up(self) -> bool:
        return bool(self._unanswered())

    def _unanswered(self) -> tuple[int, ...]:
        """The peers a restored seat still waits for (never double-sign, SPEC §9.6): every other seat
        that has not sent a complete answer since the restart, unless it is a cheater (its word proves
        nothing) or out of the hand being played (``claims.restore_wait``)."""
        if not self._catchup_from:
            return ()
        return claims.restore_wait(self._catchup_from, self.n, self._cheaters, self._out_seats())

    def _make_contributions(self) -> None:
        """Contribute to the open step if this seat is due (never while restoring).  A restored seat
        still waiting for its peers' answers (never double-sign) contributes only what it would sign
        byte for byte alike whatever it signed before (SPEC §12: keys, shuffles, shares, coins), never
        a move or a seal, whose content a person chose."""
        if self.seat is None or self._restoring or self.stopped is not None:
            return
        waiting = self._catching_up()
        if self.over:
            return
        att = self.attempt
        if att is None:
            self._setup_contribution()
            return
        done: set[tuple[bytes, int]] = set()
        for _ in range(64):  # each contribution may seal the step and open another due from us
            exp = att.own_due()
            if exp is None or att is not self.attempt or (att.head, att.step) in done:
                break
            done.add((att.head, att.step))
            if waiting and exp.kind in ("action", "seal"):
                break
            if exp.kind == "action":
                turn = att.turn_event()
                if turn is not None:
                    self._out.append(turn)
                break
            if exp.kind == "seal":
                admit = [s for s in sorted(self._admit) if self._admit[s] and self._admissible(s, att)]
                self._contribute("seal", att.seal_body(admit), att.seal_step, att.seal_prev)
            else:
                step, prev = att.chain.step, att.chain.head
                self._contribute(exp.kind, att.contribution(exp), step, prev)
            while self._inbox:
                peer, item, depth = self._inbox.popleft()
                self._ingest(peer, item, depth=depth)
            self._derive(contribute=False)
            current: Attempt | None = self.attempt
            if current is None:
                break
            att = current

    def _setup_contribution(self) -> None:
        chain = self._setup.chain
        if self._setup.done or self.seat is None or chain.lookup(chain.step, self.seat) is not None:
            return
        self._setup.open()
        kind, body = self._setup.body(self.seat, self._coin_secret())
        self._contribute(kind, body, chain.step, chain.head)

    def _coin_secret(self) -> bytes:
        if self.genesis.dealer == "seeded":
            return hashlib.sha256(f"p2pcards/seeded-coin/{self.genesis.seed}/{self.seat}".encode()).digest()
        assert self._secrets is not None
        return self._secrets.coin()

    def _admissible(self, seat: int, att: Attempt) -> bool:
        return (
            seat in self._returns
            and seat not in self._cheaters
            and self._out_seats().get(seat) in GONE
            and seat not in att.holders
        )

    # ================================================================ the derivation

    def _derive(self, *, contribute: bool = True) -> None:
        """Bring the replica to what its messages decide: the setup, the final hands, the attempt to
        play now.  Then contribute what this seat owes there."""
        if self.stopped is None:
            self._setup.open()
        for _ in range(10_000):
            b = self._boundary
            if b is None or self.stopped is not None or (self.over and self._seating_end is None):
                break
            self._recarry(b)
            att = self._canonical(b)
            if self._ended is not None:
                if self._seating_end != self._ended[1]:
                    self._end_by_seating(b, *self._ended)
                self._ended = None
                break
            if att is None:
                break
            if self._seating_end is not None:
                # The match had ended for lack of players; a hand every seat of it played to its end
                # turned up after all (verdicts learnt in another order): it counts, and so on.
                self.over = False
                self._seating_end = None
            if att.complete and att.sealed(self._excused(att)):
                self._set_current(att)
                self._close(att)
                continue
            self._set_current(att)
            break
        if self.attempt is None and self._boundary is None and self.stopped is None:
            key = (self._setup.chain.head, self._setup.chain.step)
            if self._open_key != key:
                self._open(*key, tuple(sorted(self._setup.chain.missing)))
        if contribute:
            self._make_contributions()

    def _recarry(self, b: _Boundary) -> None:
        """What the last final hand carries into ``b`` (seats voted out at its seal, returns admitted),
        from the votes and verdicts held now: until ``b`` is final, a vote at that seal may still come,
        and every replica that holds it must deal ``b`` alike."""
        if not self._finals:
            return
        last = self._finals[-1].attempt
        carried = self._carried(last, self._seal_decision(last))
        if carried != b.carried:
            b.carried = carried
            self._candidate_basis = None

    def _canonical(self, b: _Boundary) -> Attempt | None:
        """The attempt at hand ``b.hand`` that the held messages decide: start from the changes the
        previous hand carried; while the attempt is not complete, add the verdicts against it (first
        cheaters playing in it, then its earliest verdict of its own) and deal again."""
        changes = b.carried
        path: list[Attempt] = []
        self._half_gone = None  # (found again below while it still stands)
        for _ in range(64):
            att = self._attempt_for(b, changes)
            if att is None:
                complete = self._complete_attempt(b)
                if complete is not None:  # played to its end before the last verdicts were known
                    self._ended = None
                    self._path = [*path, complete]
                return complete
            path.append(att)

            if att.complete:
                break
            new = frozenset(Change(CHEAT, (s,)) for s in att.holders if s in self._cheaters)
            if not new:
                verdict = self._internal_verdict(att)
                if verdict is None:
                    break
                if verdict.kind == CHEAT and verdict.seats == (-1,):
                    self._stop(self._fault_of(att))
                    return None
                new = frozenset({verdict})
            changes = changes | new
        self._path = path
        complete = self._complete_attempt(b)
        if complete is not None and complete is not path[-1]:
            self._path = [*path, complete]
            return complete
        return path[-1]

    def _complete_attempt(self, b: _Boundary) -> Attempt | None:
        """An attempt at this hand that was played to its end, whichever verdicts led to it.

        Replicas that learnt the same verdicts in different orders may have played different attempts:
        one that every seat playing it completed is what the hand was, even for a replica that would
        have dealt again with every verdict at once (it will never be dealt again: its seats sealed
        or are sealing it).  So every attempt the known verdicts could lead to is looked for among the
        messages held, and a complete one wins (the lowest head if, impossibly, there were two)."""
        basis = frozenset(c for a in self._attempts.values() for c in a.changes) | frozenset(
            Change(CHEAT, (s,)) for s in self._cheaters
        )
        if basis != self._candidate_basis:
            self._candidate_basis = basis
            extra = sorted(basis - b.carried)[:8]
            self._candidates = {}
            for mask in range(1 << len(extra)):
                chosen = frozenset(c for i, c in enumerate(extra) if mask >> i & 1) | b.carried
                self._candidates[start_head(b.head, chosen)] = chosen
        for head in sorted(h for h in self._candidates if self._unplaced.follows(h)):
            if head not in self._attempts:
                self._attempt_for(b, self._candidates[head])
        complete = [a for a in self._attempts.values() if a.complete and a.hand == b.hand]
        return min(complete, key=lambda a: a.start_head) if complete else None

    def _attempt_for(self, b: _Boundary, changes: frozenset[Change]) -> Attempt | None:
        head = start_head(b.head, changes)
        att = self._attempts.get(head)
        if att is not None:
            return att
        match = b.match
        try:
            for change in sorted(changes):
                for seat in change.seats:
                    match = match.with_seat(seat) if change.kind == RETURN else match.without(seat)
        except GameError as exc:
            self._stop(out.Fault(-1, b.step, "bad-message", f"the seating cannot change: {exc}", hand=b.hand))
            return None
        if match.over:
            self._ended = (match, changes)  # fewer than two can play on: the match ends here
            return None
        seated = match.seated
        dummies = match.dummies
        holders = tuple(s for s in seated if s not in dummies)
        assert self._dealer_factory is not None
        att = Attempt(
            self._shared,
            hand=b.hand,
            start_step=b.step,
            start_head=head,
            changes=changes,
            match=match,
            holders=holders,
            dummies=dummies,
            dealer=self._dealer_factory(b.hand, head, holders),
        )
        self._attempts[head] = att
        att.start()
        self._feed(att)
        return att

    def _end_by_seating(self, b: _Boundary, match: Match, changes: frozenset[Change]) -> None:
        previous = self.attempt
        self._ended = None
        verdicts = tuple(
            self._announce(c, b.hand, b.step) for c in sorted(changes - b.carried) if c.kind != RETURN
        )
        if previous is not None and previous.hand == b.hand and not previous.complete:
            self._out.append(out.HandVoid(b.hand, verdicts))
        self.attempt = None
        self._changes = changes
        self._seating_end = changes
        self.match = match
        # Ended by this voice's own word, half the table or fewer: the others are not bound by it.
        self._end(abandoned=any(c.kind == UNCONFIRMED for c in changes))

    def _internal_verdict(self, att: Attempt) -> Change | None:
        """The earliest verdict inside ``att``: a decision this replica takes at one of its steps (see
        ``decide``), or a check that failed; at one step a decision comes before a fault."""
        best: Change | None = None
        best_step = -1
        latest: dict[int, int] | None = None
        for step, prev in sorted(set(self._votes) | set(self._abandons)):
            if att.head_before(step) != prev or (att.complete and step == att.seal_step):
                continue
            latest = self._latest(att) if latest is None else latest
            decision = self._binding_at(att, step, prev, latest)
            if decision is not None:
                best, best_step = self._change_of(decision), step
                break
        if att.fault is not None:
            f = att.fault
            if best is None or f.step < best_step:
                best = Change(CHEAT, (f.seat,))
        return best

    def _change_of(self, decision: Decision) -> Change:
        return claims.change_of(decision)

    def _binding_at(
        self, att: Attempt, step: int, prev: bytes, latest: Mapping[int, int] | None = None, tell: bool = True
    ) -> Decision | None:
        """The decision at ``step`` of ``att`` that this replica takes (``claims.taken``), if any; one
        naming its own voice that it does not take is told to its user (``tell``)."""
        later = self._went_on(att, step, latest)
        votes = self._votes.get((step, prev), {})
        found: list[Decision] = []
        by_votes = decide.vote_decision(
            self._voices,
            att,
            step,
            prev,
            votes,
            lambda v: claims.spent(claims.named(votes[v], self.n), later),
            self.n,
        )
        if by_votes is not None:
            found.append(by_votes)
        at = decide.view(att, step, prev)
        for _, claim in sorted(self._abandons.get((step, prev), {}).items()):
            is_spent = claims.spent(claims.named(claim, self.n), later)
            word = claims.word_of(self._voices, at, claim, is_spent, self.n)
            if word is not None:
                found.append(word)
        found += claims.half_words(found, len(decide.playing(self._voices, att)))
        decision, told = claims.taken(found, self._me, self._consent_keys())
        for other in told if tell else ():
            self._gone_without_us(other)
        return decision

    def _consent_keys(self) -> list[tuple[int, bytes]]:
        """The (step, head) of every return this replica's voice signed: the decisions it accepts."""
        return [(c.step, c.prev) for c in self._consents]

    def _went_on(self, att: Attempt, step: int, latest: Mapping[int, int] | None) -> tuple[int, ...]:
        """The voices that signed something after ``step`` of ``att`` (``latest``: per seat, the last
        step it signed there, computed once per derivation) — or, at the seal of the last final hand,
        in the next hand dealt as if nobody were voted out there: what spends a claim there."""
        if self._finals and self._finals[-1].attempt is att and step == att.seal_step:
            head = start_head(seal_head(att.seal_prev), self._carried(att, None))
            signers = set(self._unplaced.senders(head)) | {m.seat for m in self._by_prev.get(head, ())}
            return self._voices.among(signers)
        return claims.went_on(self._voices, self._latest(att) if latest is None else latest, step)

    def _latest(self, att: Attempt) -> dict[int, int]:
        """Per seat, the last step it signed something for in ``att``: a step, a seal, a vote or an
        abandon."""
        latest: dict[int, int] = {}
        for m in att.messages():
            latest[m.seat] = max(latest.get(m.seat, -1), m.step)
        for book in (self._votes, self._abandons):
            for (s, prev), signed in book.items():
                if att.head_before(s) == prev:
                    for seat in signed:
                        latest[seat] = max(latest.get(seat, -1), s)
        return latest

    def _gone_without_us(self, decision: Decision) -> None:
        """The others went on without this voice at a step (a majority's decision, or some voice's own
        word): told once.  Only the seat's own return agrees to it (``ask_to_return``): whoever runs
        the seat — its person, or the program for it — decides."""
        if decision.half:
            self._half_gone = decision  # (its signers' words are told one by one)
            return
        if decision.majority:
            # The latest a majority's decision this voice has not accepted: each one it meets is one
            # more return to sign, since a return accepts one decision by name.
            self._pending_gone = decision
        key = ("gone", decision.step, decision.prev, decision.signers)
        if key in self._announced:
            return
        self._announced.add(key)
        self._out.append(
            out.VotesContradicted(decision.step, decision.signers, decision.silent, decision.majority)
        )

    def _excused(self, att: Attempt) -> set[int]:
        """Seats whose seal ``att`` does not wait for: cheaters, and the seats dealt out at the seal."""
        decision = self._seal_decision(att)
        return set(self._cheaters) | (set(decision.seats) if decision is not None else set())

    def _seal_decision(self, att: Attempt) -> Decision | None:
        return self._binding_at(att, att.seal_step, att.seal_prev) if att.complete else None

    def _carried(self, att: Attempt, decision: Decision | None) -> frozenset[Change]:
        """What a sealed ``att`` carries into the next hand with ``decision`` taken at its seal: those
        seats out, seats whose seal was wrong out, and the seats every counted seal admitted back
        (each with the computer players it runs that are out with it)."""
        carried: set[Change] = {Change(CHEAT, (seat,)) for seat in att.bad_seals}
        if decision is not None:
            carried.add(self._change_of(decision))
        # A cheater's seal is not counted, so a seat that signs two seals cannot choose, replica by
        # replica, whose return the hand admits.
        excused = set(self._cheaters) | (set(decision.seats) if decision is not None else set())
        counted = [
            bodies.seal_body(att.seals[s].body, self.n)
            for s in att.required_sealers(excused)
            if s in att.seals
        ]
        if counted:
            # The seats out while ``att`` was played: once it closed, the next boundary's (never the
            # attempt after it, whose changes hold the very returns this computes).
            b = self._boundary
            gone = b.out if b is not None and b.hand > att.hand else self._out_seats()
            for seat in sorted(set.intersection(*(set(c.admit) for c in counted))):
                if seat not in self._cheaters:
                    carried.add(Change(RETURN, (seat,)))
                    for computer in self._voices.computers_of(seat):
                        if gone.get(computer) in GONE and computer not in self._cheaters:
                            carried.add(Change(RETURN, (computer,)))
        return frozenset(carried)

    def _set_current(self, att: Attempt) -> None:
        previous = self.attempt
        self.attempt = att
        self._changes = att.changes
        if previous is not att:
            if previous is not None and previous.hand == att.hand and not previous.complete:
                verdicts = tuple(
                    self._announce(c, att.hand, att.start_step)
                    for c in sorted(att.changes - previous.changes)
                )
                self._out.append(out.HandVoid(att.hand, verdicts))
            elif previous is None or previous.hand != att.hand:
                for change in sorted(att.changes):
                    self._announce(change, att.hand, att.start_step)
            self._out.append(
                out.Seating(att.hand, att.holders, att.dummies, tuple(sorted(self._out_seats().items())))
            )
        # Only the attempt being played speaks to the user interface.
        self._out.extend(att.events)
        for other in self._attempts.values():
            other.events.clear()
        key = (att.head, att.step)
        if key != self._open_key:
            self._open(*key, att.missing)

    def _announce(self, change: Change, hand: int, step: int) -> out.Fault:
        if change.kind == CHEAT:
            seat = change.seats[0]
            fault = (
                self._cheaters.get(seat)
                or self._fault_in_path(seat)
                or out.Fault(seat, step, "bad-message", "proved a cheater", hand=hand, seats=(seat,))
            )
        elif change.kind == SILENT:
            votes = self._votes.get((change.step, change.prev), {})
            fault = out.Fault(
                change.seats[0],
                change.step,
                "silent",
                f"seats {list(change.seats)} stayed silent; more than half of the table voted to go on "
                "without them",
                tuple(v.data for _, v in sorted(votes.items())),
                hand=hand,
                seats=change.seats,
            )
        elif change.kind == UNCONFIRMED:
            # One verdict per seat, as each is named on its own: an abandon names them all at once.
            ends = self._abandons.get((change.step, change.prev), {})
            faults = [
                out.Fault(
                    seat,
                    change.step,
                    "silent",
                    f"stayed silent; continued without seats {list(change.seats)} by half the table or "
                    "fewer (unconfirmed: binding on nobody named)",
                    tuple(v.data for _, v in sorted(ends.items())),
                    hand=hand,
                    seats=change.seats,
                    unconfirmed=True,
                )
                for seat in change.seats
            ]
            for f in faults:
                self._record((change.kind, f.seat, change.step, change.prev), f)
            return faults[0]
        else:
            fault = out.Fault(change.seats[0], step, "return", "admitted back", hand=hand, seats=change.seats)
        if change.kind == CHEAT:
            self._record(("cheat", change.seats[0]), fault)
        elif change.kind in GONE:
            self._record((change.kind, change.seats, change.step, change.prev), fault)
        return fault

    def _record(self, key: tuple[Any, ...], fault: out.Fault) -> None:
        """A verdict, reported once (whatever path of the derivation reaches it again)."""
        if key not in self._announced:
            self._announced.add(key)
            self.verdicts.append(fault)
            self._out.append(fault)

    def _fault_in_path(self, seat: int) -> out.Fault | None:
        for att in self._path:
            f = att.fault
            if f is not None and f.seat == seat:
                return out.Fault(f.seat, f.step, f.kind, f.message, f.evidence, hand=att.hand, seats=(seat,))
        return None

    def _fault_of(self, att: Attempt) -> out.Fault:
        f = att.fault
        assert f is not None
        return out.Fault(f.seat, f.step, f.kind, f.message, f.evidence, hand=att.hand, seats=(f.seat,))

    def _close(self, att: Attempt) -> None:
        """``att`` is sealed: its hand is final.  Open the next hand with what it carries."""
        b = self._boundary
        assert b is not None
        seal_key = (att.seal_step, att.seal_prev)
        seal_votes = self._votes.setdefault(seal_key, {})
        self._finals.append(_Final(b.hand, att, self._justification(att), seal_votes))
        assert att.audit is not None
        self.hands_played.append((att.state, att.audit))
        self._out.append(out.Sealed(b.hand, tuple(sorted(att.seals))))
        for seat in sorted(att.bad_seals):
            msg, problem = att.bad_seals[seat]
            fault = out.Fault(
                seat, att.seal_step, "bad-message", problem, (msg.data,), hand=b.hand, seats=(seat,)
            )
            self._cheaters.setdefault(seat, fault)
            self._record(("cheat", seat), fault)
        carried = self._carried(att, self._seal_decision(att))
        for change in sorted(carried):
            if change.kind == RETURN:
                # A request to come back is granted once: voted out again, the seat asks again.
                self._returns.pop(change.seats[0], None)
                self._admit.pop(change.seats[0], None)
        out_seats = self._out_seats()
        settled = att.settled
        assert settled is not None
        self.match = settled
        self._boundary = _Boundary(
            b.hand + 1, seal_head(att.seal_prev), att.seal_step + 1, settled, carried, out_seats
        )
        # Messages of this hand are kept by (step, head, seat) to catch late equivocation; the index
        # that feeds attempts and the votes about this hand's steps are done with, but for the votes at
        # its seal: they may still come, and decide who is dealt the next hand (``_recarry``).
        self._by_prev = {}
        self._votes = {seal_key: seal_votes}
        # Abandons at its seal likewise: one that comes after the seals still ends the match.
        self._abandons = {seal_key: self._abandons.get(seal_key, {})}
        self._attempts = {}
        self._candidate_basis = None
        self._path = []
        self.attempt = None
        if settled.over:
            self._end(abandoned=False)

    def _justification(self, att: Attempt) -> list[bytes]:
        """Every message a peer needs to reach ``att`` as we did: the attempts the verdicts led through,
        the votes behind those verdicts, then ``att`` itself (the votes at its seal: ``_Final``)."""
        payloads: list[bytes] = []
        keys = {(c.step, c.prev) for a in self._path for c in a.changes if c.kind in GONE}
        for key in sorted(keys):
            payloads += [v.data for _, v in sorted(self._votes.get(key, {}).items())]
            payloads += [v.data for _, v in sorted(self._abandons.get(key, {}).items())]
        for earlier in self._path:
            payloads += [m.data for m in earlier.messages()]
        return payloads

    def _end(self, *, abandoned: bool) -> None:
        self.over = True
        self.abandoned = abandoned
        if abandoned and self.match is not None and not self.match.over:
            self.match = self.match.abandon()
        match = self.match
        summary = "" if match is None else match.summary()
        self._out.append(out.MatchOver(summary, abandoned))

    def _stop(self, fault: out.Fault) -> None:
        if self.stopped is None:
            self.stopped = fault
            self.verdicts.append(fault)
            self._out.append(fault)

    def _out_seats(self) -> dict[int, str]:
        """Seats out of the hand being played: out before it, plus what its attempt changed."""
        b = self._boundary
        if b is None:
            return {}
        seats = dict(b.out)
        for change in sorted(self._changes):
            for seat in change.seats:
                if change.kind == RETURN:
                    seats.pop(seat, None)
                else:
                    seats[seat] = CHEAT if change.kind == CHEAT or seat in self._cheaters else change.kind
        return seats

    # ================================================================ time, retries, votes

    def _open(self, head: bytes, step: int, seats: tuple[int, ...]) -> None:
        self._open_key = (head, step)
        self._since = self._now
        self._asked = None
        if seats:
            self._out.append(out.Waiting(step, seats, self._now))

    def _missing(self) -> tuple[int, ...]:
        if self.over or self.stopped is not None:
            return ()
        att = self.attempt
        if att is None:
            return tuple(sorted(self._setup.chain.missing)) if self._setup.chain.step <= 2 else ()
        return att.missing

    def _retry(self) -> None:
        """Still waiting: say again what we said for this step and ask everyone for what we lack
        (a frame lost on a link, or a peer that restarted, must not stall the game)."""
        self._last_retry = self._now
        self._resend_open()
        self._out.append(out.Send(self._catchup_request()))
        self._ask_again_to_return()

    def _ask_again_to_return(self) -> None:
        """A seat voted out that asked to come back asks again at every hand until it is dealt in."""
        b = self._boundary
        if not self._asking_return or self.seat is None or b is None:
            return
        if self._out_seats().get(self.seat) != SILENT:
            self._asking_return = False
            return
        mine = self._returns.get(self.seat)
        if (self.seat, b.hand) in self._return_asked and mine is not None:
            self._out.append(out.Send(mine.data))
        else:
            self._certificate("return", {})

    def _resend_open(self) -> None:
        att = self.attempt
        if att is None:
            mine = (
                self._setup.chain.lookup(self._setup.chain.step, self.seat) if self.seat is not None else None
            )
            if mine is not None:
                self._out.append(out.Send(mine.data))
            return
        for msg in self._by_prev.get(att.head, ()):
            if msg.seat == self.seat and msg.step == att.step:
                self._out.append(out.Send(msg.data))
        key = (att.step, att.head)
        if self.seat is not None:
            vote = self._votes.get(key, {}).get(self.seat)
            if vote is not None:
                self._out.append(out.Send(vote.data))

    def _maybe_consent(self) -> None:
        """Consent to half the table's word naming this voice when it cannot play on otherwise
        (``policy.consents_to_word``): a return at the word's step after its head."""
        word = self._half_gone
        if word is None or self.seat is None or (word.step, word.prev) in self._consent_keys():
            return
        if policy.consents_to_word(word, self._voices.among(self._unanswered())):
            self._asking_return = True
            self._certificate("return", {}, step=word.step, prev=word.prev)

    def _maybe_vote(self) -> None:
        """A claim due at the open step (``policy``: the two clocks): ask the person (or, with no
        person, decide), then sign it — a vote, or this voice's abandon (it binds nobody else).  Only
        people sign: a computer seat never votes or abandons, its runner does for the whole machine."""
        att = self.attempt
        if att is None or self.seat is None or self.seat not in att.at_table or self._catching_up():
            return
        if not self._voices.is_person(self.seat) or self._open_key is None:
            return
        if self.left_behind:
            return  # left behind by a majority: our view of the open step is not the table's
        key = (att.head, att.step)
        # One vote and one abandon per seat and step, ever: what the journal holds counts too, so a
        # seat restored from it does not sign again with other seats named (that would be equivocation).
        own = self.seat
        if key in self._ended_at or own in self._abandons.get((att.step, att.head), {}):
            return
        # A voice whose abandon names ours has gone on without us: it is not at this step with us.
        with_us = {
            v: m
            for v, m in self._abandons.get((att.step, att.head), {}).items()
            if own not in claims.named(m, self.n)
        }
        gone_on = tuple(sorted(v for v in self._abandons.get((att.step, att.head), {}) if v not in with_us))
        held = {**self._votes.get((att.step, att.head), {}), **with_us}
        waited = self._now - self._since
        timeout = self.genesis.timeout_ms
        claim = policy.due(
            policy.Observed(
                self._voices,
                att,
                own,
                waited,
                self._now,
                self._heard,
                self._first_tick,
                timeout,
                held,
                key in self._voted or own in self._votes.get((att.step, att.head), {}),
                gone_on,
            )
        )
        if claim is None:
            return
        end_match, seats = claim.kind == claims.ABANDON, claim.named
        asked = self._asked
        if asked is None or asked.key != key or asked.seats != seats or asked.end_match != end_match:
            asked = self._asked = _Asked(key, seats, self._now, end_match)
        go = asked.go_on
        if go is None:
            if not self.person:
                # With no person to ask it votes as soon as the vote is due, and goes on by itself
                # only a timeout later (the others may be people whose laptops slept).
                if end_match and self._now - asked.ask_at < timeout:
                    return
                go = True
            elif asked.asked_at >= 0 and self._now - asked.asked_at >= timeout:
                go = True  # the person did not answer: the screen counted this down
            elif asked.asked_at < 0 and self._now >= asked.ask_at:
                asked.asked_at = self._now
                self._out.append(
                    out.SilentSeats(
                        att.step, seats, waited, True, self._now + timeout, end_match, claim.awaited
                    )
                )
                return
            else:
                return
        if not go:
            return
        (self._ended_at if end_match else self._voted).add(key)
        kind = "abandon" if end_match else "void_vote"
        self._certificate(kind, {"silent": list(seats)}, step=att.step, prev=att.head)

    # ================================================================ helpers

    def _flush(self) -> list[out.Output]:
        if self.seat is not None and not self._restoring:
            waiting = self._unanswered()
            if waiting != self._told_restoring:
                # The person of a restored seat sees why nothing happens: whom it waits for, and when
                # that wait is over (no seats).
                self._told_restoring = waiting
                att = self.attempt
                step = att.step if att is not None else self._setup.chain.step
                self._out.append(out.Restoring(step, waiting))
                if not waiting:
                    self._catchup_from.clear()
        produced, self._out = self._out, []
        return produced


def _dummy_policy(game: str) -> DummyPolicy | None:
    """The game's policy for open dummies (Spades), if it has one."""
    try:
        from importlib import import_module

        module = import_module(f"p2pcards.games.{game}.dummy")
    except ImportError:
        return None
    choose: DummyPolicy = module.choose
    return choose


__all__ = ["DISCONNECTED_MS", "RETRY_MS", "UNPLACED_BYTES_PER_PEER", "SecretSource", "Table"]
