"""Ingestion (SPEC §9): what the replica makes of each item that reaches it.

Every item is hostile until checked.  ``Intake.take`` authenticates it (a copy of bytes already
accepted costs one hash), sorts it — a step of some attempt or of the setup, a certificate (vote,
abandon, return, evidence), or transport (catch-up) — and stores what it accepts in ``Held``; it
returns the outputs (journal and relay what was accepted, refusals, verdicts, catch-up requests and
answers) and the items to look at next (held messages that fit now, a catch-up answer's contents).
It reads the derivation to place steps but never runs it: the replica does, between items.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from p2pcards.games import Rules
from p2pcards.table import bodies, catchup, claims, decide, held
from p2pcards.table import outputs as out
from p2pcards.table.announce import Verdicts
from p2pcards.table.attempt import Foul
from p2pcards.table.clocks import Clock
from p2pcards.table.derive import Derivation, Requeued
from p2pcards.table.held import Held
from p2pcards.table.seating import GONE
from p2pcards.table.seen import Seen
from p2pcards.table.setup import Setup
from p2pcards.table.signer import Signer
from p2pcards.table.unplaced import Unplaced
from p2pcards.table.voices import Voices
from p2pcards.wire import (
    CERTIFICATE_KINDS,
    TRANSPORT_KINDS,
    Duplicate,
    Equivocation,
    Rejected,
    Sealed,
    SignedMessage,
    WireError,
    authenticate,
    conflicting,
    initial_head,
    verify_evidence,
)

MAX_CONSENTS = 64
"""Our own voice's returns remembered (one is signed per decision it consents to)."""

Queued = tuple[int | None, bytes | SignedMessage, int]
"""An item still to be looked at: (peer, payload or authenticated message, depth)."""


class Intake:
    """One replica's ingestion: it holds nothing of its own but the seats a restored seat waits for."""

    def __init__(
        self,
        rules: Rules,
        seat: int | None,
        me: int | None,
        person: bool,
        voices: Voices,
        keys: Mapping[int, Ed25519PublicKey],
        signer: Signer | None,
        held_: Held,
        derived: Derivation,
        verdicts: Verdicts,
        setup: Setup,
        unplaced: Unplaced,
        seen: Seen,
        clock: Clock,
    ) -> None:
        self.rules = rules
        self.game_id = setup.genesis.game_id
        self.n = len(keys)
        self.seat = seat
        self.person = person
        self._me = me
        self._voices = voices
        self._keys = keys
        self._signer = signer
        self._held = held_
        self._derived = derived
        self._verdicts = verdicts
        self._setup = setup
        self._unplaced = unplaced
        self._seen = seen
        self._clock = clock
        self._catchup = catchup.Catchup()
        self.catchup_from: set[int] = set()
        """Peers whose complete answer a restored seat still waits for before it signs anything new."""
        self._restoring = False
        self._told: list[out.Output] = []
        self._queued: list[Queued] = []

    def _sign(self, kind: str, body: Any, *, step: int, prev: bytes) -> bytes:
        assert self._signer is not None, "an observer signs nothing"
        return self._signer.sign(kind, body, step=step, prev=prev)

    def take(
        self, peer: int | None, item: bytes | SignedMessage, *, depth: int, restoring: bool
    ) -> tuple[list[out.Output], list[Queued]]:
        """Look at one item from ``peer`` (``depth`` 1: from inside a catch-up answer, or held until it
        fitted); ``restoring``: replaying the journal (nothing is journaled, relayed or answered).
        Returns the outputs, and the items to look at next."""
        self._restoring = restoring
        self._look(peer, item, depth=depth)
        told, self._told = self._told, []
        queued, self._queued = self._queued, []
        return told, queued

    def _look(self, peer: int | None, item: bytes | SignedMessage, *, depth: int) -> None:
        if isinstance(item, SignedMessage):
            msg = item  # a message authenticated when it first arrived, held until it fitted
        else:
            # Every message reaches us once from its author and once more from each relaying peer:
            # a copy of bytes we already accepted costs one hash, no decoding, no signature check.
            fingerprint = hashlib.sha256(item).digest()
            if fingerprint in self._held.accepted:
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
        self._told.append(out.Rejected(peer, reason, detail))

    def _keep(self, msg: SignedMessage, *, own: bool) -> None:
        """Journal an accepted message and relay it (the author's first send, or our relay of it)."""
        self._held.accept(msg.data)
        if not self._restoring:
            self._told.append(out.Persist(msg.data, own=own))
            self._told.append(out.Send(msg.data))

    def _keep_consent(self, msg: SignedMessage) -> None:
        """Journal our own voice's consent and pass it to this voice's other seats only (its computer
        players' replicas take it as theirs): a consent binds nobody else, and sent to the table it
        would read as a request to be dealt in again.  A seat that asks to come back sends it to every
        peer itself (``Table.ask_to_return``)."""
        self._held.accept(msg.data)
        if not self._restoring:
            self._told.append(out.Persist(msg.data, own=msg.seat == self.seat))
            own_seats = (msg.seat, *self._voices.computers_of(msg.seat))
            self._told += [out.Send(msg.data, to=s) for s in own_seats if s != self.seat]

    def _requeue(self, taken: Requeued) -> None:
        for peer, msg in taken:
            self._queued.append((peer, msg, 1))

    def _hold(self, peer: int | None, msg: SignedMessage) -> None:
        """A message that fits no step we know: a peer is ahead of us.  Kept (see ``unplaced``) and
        taken once it fits; we ask that peer to catch us up."""
        self._unplaced.hold(peer, msg)
        if peer is None or self._restoring or self.seat is None:
            return
        if self._catchup.may_ask(peer, self._clock.now):
            self._told.append(out.Send(self.catchup_request(), to=peer))

    def _take_step(self, peer: int | None, msg: SignedMessage) -> None:
        key = (msg.step, msg.prev, msg.seat)
        prior = self._held.by_key.get(key)
        if prior is not None:
            if prior.hash != msg.hash and conflicting(prior, msg):
                if key not in self._held.alternatives and msg.kind != "seal":
                    # Kept and journaled: whichever version came first, a replica holding both can
                    # find the hand the others played to its end along either (SPEC §7.1).
                    self._held.alternatives[key] = msg
                    self._held.accept(msg.data)
                    if not self._restoring:
                        self._told.append(out.Persist(msg.data))
                    self._derived.candidate_basis = None
                self._equivocation(Equivocation.of(prior, msg))
            return
        target = self._derived.attempt_at(msg.step, msg.prev)
        if target is None:
            if self._derived.attempt is None and msg.step < 3:
                self._take_setup(peer, msg)
            elif self._derived.is_past(msg.step):
                self._reject(peer, "old step", f"step {msg.step}")
            else:
                self._hold(peer, msg)
            return
        outcome = target.offer(msg)
        if isinstance(outcome, Rejected):
            self._reject(peer, str(outcome.reason), outcome.detail)
        elif isinstance(outcome, Equivocation):
            self._equivocation(outcome)
        elif not isinstance(outcome, Duplicate):
            self._held.store(msg)
            self._keep(msg, own=msg.seat == self.seat)
            self._requeue(self._derived.feed(target))

    def _take_setup(self, peer: int | None, msg: SignedMessage) -> None:
        """Steps 0-2: genesis and the first-dealer coin.  A wrong setup message, signed, proves its
        seat a cheater to every replica: it is kept and relayed (see ``setup``)."""
        chain = self._setup.chain
        if msg.step == chain.step and msg.prev == chain.head and msg.seat in chain.awaited:
            problem = self._setup.problem(msg)
            if problem:
                if msg.seat not in self._held.cheaters:
                    self._keep(msg, own=msg.seat == self.seat)
                    f = out.Fault(
                        msg.seat, msg.step, "bad-message", problem, (msg.data,), hand=-1, seats=(msg.seat,)
                    )
                    self._held.cheaters[msg.seat] = f
                    self._held.evidence[msg.seat] = (msg.data,)
                    self._told += self._verdicts.record(("cheat", msg.seat), f)
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
        self._held.store(msg)
        self._keep(msg, own=msg.seat == self.seat)
        if isinstance(outcome, Sealed):
            self._setup.open()
            self._requeue(self._unplaced.take(self._setup.chain.head, self._setup.chain.step))
            try:
                self._setup.apply(outcome.step.number, outcome.step.messages)
            except Foul as foul:
                evidence = tuple(m.data for m in outcome.step.messages if m.seat == foul.seat)
                step = outcome.step.number
                fault = out.Fault(
                    foul.seat, step, foul.kind, foul.message, evidence, hand=-1, seats=(foul.seat,)
                )
                self._told += self._verdicts.stop(fault)
                return
            if self._setup.first_dealer is not None:
                b = self._setup.chain
                self._derived.begin(self.rules.new_match(self._setup.first_dealer), b.head, b.step)

    # ---- certificates

    def _take_certificate(self, peer: int | None, msg: SignedMessage) -> None:
        if msg.kind == "evidence":
            self._take_evidence(peer, msg)
            return
        if msg.kind == "return":
            self._take_return(peer, msg)
            return
        vote = msg.kind == "void_vote"
        reason = "bad vote" if vote else "bad abandon"
        try:
            silent = bodies.silent_body(msg.body, self.n, "a void vote" if vote else "an abandon")
        except bodies.BodyError as exc:
            self._reject(peer, reason, str(exc))
            return
        att = self._derived.last_seal(msg.step, msg.prev) or self._derived.attempt_with_step(
            msg.step, msg.prev
        )
        if att is None:
            if self._derived.is_past(msg.step) or self._derived.over:
                self._reject(peer, reason, f"{msg.kind} for step {msg.step} of a hand that is final")
            else:
                self._hold(peer, msg)
            return
        # An abandon is its signer's word: it binds the signer's voice alone (``decide``), so it is
        # kept and relayed whoever it names; a seat it names just goes on, unless it consents.
        kind = claims.VOTE if vote else claims.ABANDON
        problem = claims.claim_problem(
            kind, self._voices, msg.seat, silent, decide.view(att, msg.step, msg.prev)
        )
        if problem:
            self._reject(peer, reason, problem)
            return
        first = held.note(self._held.votes if vote else self._held.abandons, msg)
        if isinstance(first, Equivocation):
            self._equivocation(first)
        if first is not True:
            return
        named_seats = self._voices.seats_of(silent, range(self.n)) if vote else ()
        by_key = self._held.by_key
        kept = [m for s in named_seats if (m := by_key.get((msg.step, msg.prev, s))) is not None]
        if kept and msg.seat != self.seat:
            # We hold what the vote calls missing: we do not pass the vote on, we send the voter the
            # messages instead (it keeps the vote only if it voted itself and everyone else did too).
            self._held.accept(msg.data)
            if not self._restoring:
                self._told.append(out.Persist(msg.data))
                self._told += [out.Send(m.data, to=msg.seat if peer is None else peer) for m in kept]
            return
        self._keep(msg, own=msg.seat == self.seat)

    def _take_return(self, peer: int | None, msg: SignedMessage) -> None:
        try:
            bodies.return_body(msg.body)
        except bodies.BodyError as exc:
            self._reject(peer, "bad return", str(exc))
            return
        h = self._held
        # Our own voice's return is its consent to what was decided about it at any step up to the
        # return's own (``claims.binds``): kept whatever the seating, so that a restore from the
        # journal consents as the seat did.
        own = self._me is not None and msg.seat == self._me and self._voices.is_person(msg.seat)
        if own and all(c.hash != msg.hash for c in h.consents):
            if len(h.consents) >= MAX_CONSENTS:
                h.consents.pop(0)
            h.consents.append(msg)
            self._derived.candidate_basis = None
            if self._derived.out_seats().get(msg.seat) not in GONE:
                self._keep_consent(msg)
        # One request per seat voted out and hand: a seat that is playing, a cheater, or a seat that
        # asked already for this hand asks for nothing (and cannot make us journal or relay more).
        b = self._derived.boundary
        if b is None or self._derived.out_seats().get(msg.seat) not in GONE or msg.seat in h.cheaters:
            return
        if not self._voices.is_person(msg.seat):
            return  # a computer seat comes back with its runner
        key = (msg.seat, b.hand)
        if key in h.return_asked:
            return
        h.return_asked.add(key)
        h.returns[msg.seat] = msg
        self._keep(msg, own=msg.seat == self.seat)
        if msg.seat != self.seat and self.seat is not None:
            if self.person:
                self._told.append(out.ReturnAsked(msg.seat))
            else:
                h.admit[msg.seat] = True

    def _take_evidence(self, peer: int | None, msg: SignedMessage) -> None:
        try:
            ev = Equivocation.from_body(msg.body)
        except WireError as exc:
            self._reject(peer, "bad evidence", str(exc))
            return
        accused = ev.seat
        if accused in self._held.cheaters:
            self._held.accept(msg.data)
            return
        key = self._keys.get(accused)
        if key is None or ev.game_id != self.game_id or not verify_evidence(ev, key):
            self._reject(peer, "bad evidence", f"does not prove that seat {accused} equivocated")
            return
        self._keep(msg, own=msg.seat == self.seat)
        self._convict(accused, ev, relay=False)
        self._held.evidence[accused] = (msg.data,)  # served as it came: it convicts whoever gets it

    def _equivocation(self, ev: Equivocation) -> None:
        if ev.seat not in self._held.cheaters:
            self._convict(ev.seat, ev, relay=True)

    def _convict(self, seat: int, ev: Equivocation, *, relay: bool) -> None:
        """``seat`` signed two messages for one step after one head: a cheater, from now on.  It never
        rewrites what is sealed; it voids the hand being played if that hand has not ended."""
        message = f"signed two different messages for step {ev.step}"
        evidence = (ev.first.data, ev.second.data)
        fault = out.Fault(
            seat,
            ev.step,
            "equivocation",
            message,
            evidence,
            hand=self._derived.hand_of(ev.step),
            seats=(seat,),
        )
        self._held.cheaters[seat] = fault
        self._held.evidence[seat] = evidence
        self._told += self._verdicts.record(("cheat", seat), fault)
        if relay and self._signer is not None:
            # Anyone may relay evidence; only its two messages convict, never the relayer.
            data = self._sign("evidence", ev.to_body(), step=0, prev=initial_head(self.game_id))
            self._keep(SignedMessage.from_bytes(data), own=True)
            self._held.evidence[seat] = (data,)

    # ---- catch-up

    def catchup_request(self) -> bytes:
        """This seat's request for every step after those it holds of the hand being played."""
        after = (
            self._derived.attempt.start_step - 1
            if self._derived.attempt is not None
            else self._setup.chain.step - 1
        )
        return self._sign("catchup_request", {"after": after}, step=0, prev=initial_head(self.game_id))

    def _serve_catchup(self, peer: int | None, msg: SignedMessage) -> None:
        if self.seat is None or self._restoring:
            return  # an observer serves nobody
        try:
            after = bodies.catchup_request_body(msg.body)
        except bodies.BodyError as exc:
            self._reject(peer, "malformed", str(exc))
            return
        to = peer if peer is not None else msg.seat
        if not self._catchup.may_answer(to, self._clock.now, after):
            return
        setup_steps = ((s.number, s.messages) for s in self._setup.chain.steps)
        finals = ((f.attempt.seal_step, f.messages()) for f in self._derived.finals)
        same_voice = to is not None and 0 <= to < self.n and self._voices.voice(to) == self._me
        history = catchup.history_after(
            self._held, setup_steps, finals, self._derived.path, after, self._catchup.turn(to), same_voice
        )
        batch, size = catchup.batch(history)
        self._catchup.answered(to, size)
        # Sent even empty: it tells a seat that restarted that it has everything we hold.
        response = self._sign("catchup_response", {"msgs": batch}, step=0, prev=initial_head(self.game_id))
        self._told.append(out.Send(response, to=to))

    def _take_catchup(self, peer: int | None, msg: SignedMessage) -> None:
        try:
            payloads = bodies.catchup_response_body(msg.body)
        except bodies.BodyError as exc:
            self._reject(peer, "malformed", str(exc))
            return
        for raw in payloads:
            self._queued.append((peer, raw, 1))
        if msg.seat not in self.catchup_from:
            return
        # A restored seat signs nothing new until every peer told it all it holds: one peer's answer,
        # empty or short, may lack what this seat said before it died, and a clock proves nothing.
        if catchup.holds_every_step(len(msg.data)):
            self.catchup_from.discard(msg.seat)
        elif self._catchup.may_ask(msg.seat, self._clock.now):
            self._told.append(out.Send(self.catchup_request(), to=peer if peer is not None else msg.seat))
