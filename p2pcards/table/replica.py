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

import secrets as _os_secrets
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pcards.games import ActionError, AuditResult, HandState, Match, registry
from p2pcards.table import claims, contribute, held
from p2pcards.table import outputs as out
from p2pcards.table.announce import Verdicts
from p2pcards.table.attempt import Attempt, DummyPolicy, Shared
from p2pcards.table.clocks import Clock, claim_due, resend
from p2pcards.table.dealers import DealerFactory
from p2pcards.table.decide import Decision
from p2pcards.table.derive import Derivation
from p2pcards.table.genesis import Genesis
from p2pcards.table.held import Held
from p2pcards.table.ingest import Intake, Queued
from p2pcards.table.policy import DISCONNECTED_MS, RETRY_MS
from p2pcards.table.seating import GONE, Change
from p2pcards.table.secrets import MASTER, MASTER_SIZE, SeatSecrets
from p2pcards.table.seen import Seen
from p2pcards.table.setup import Setup
from p2pcards.table.signer import Signer
from p2pcards.table.unplaced import Unplaced
from p2pcards.table.voices import Voices
from p2pcards.wire import (
    Chain,
    SignedMessage,
    load_public_key,
)

SecretSource = Callable[[int], bytes]

UNPLACED_BYTES_PER_PEER = 1 << 20
"""Signed messages that fit no step we know yet (a peer ahead of us) kept per sending peer, in bytes."""

SEEN_BYTES = 4 << 20
"""Payloads whose signature check is remembered though they were not accepted (see ``seen``)."""


class Table:
    """One seat's replica.  Construct, call ``start()`` (or ``restore(journal)``), then feed it.

    With ``seat=None`` (and no identity) it is an *observer*: it contributes nothing and learns only
    what is public — what ``p2pcards verify`` runs over a journal.  ``person``: a person plays this
    seat, so the table asks (``SilentSeats``) before it votes anyone silent; a computer seat decides
    by itself.  ``signer``: what this seat signs goes through it (an honest ``Signer`` by default).

    The table owns the state and alone emits outputs; its parts return values: ``held`` (what it
    holds, and what the claims decide), ``derive`` (the final hands and the attempt to play),
    ``announce`` (the verdicts, each once), ``clocks`` (what is due when), ``contribute`` (what this
    seat owes) and ``catchup`` (what a peer is sent)."""

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
        signer: Signer | None = None,
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
        if signer is None and seat is not None and identity is not None:
            signer = Signer(genesis.game_id, seat, identity)
        self._signer = signer
        self._source = source
        self._keys = {i: load_public_key(x.key) for i, x in enumerate(genesis.seats)}
        kept = dict(secrets or {})
        self._master: bytes | None = kept.get(MASTER)
        if self._master is not None and len(self._master) != MASTER_SIZE:
            raise ValueError(f"the kept master secret is {len(self._master)} bytes, not {MASTER_SIZE}")
        self._secrets: SeatSecrets | None = None
        self._given_factory = dealer_factory
        # The game's policy for open dummies (Spades), as its registration gives it (None: it has none).
        policy = dummy_policy if dummy_policy is not None else registry.entry(genesis.game).dummy
        shared = Shared(self.game_id, self.rules, self.n, self._keys, seat, policy)
        self._held = Held()
        self._unplaced = Unplaced(UNPLACED_BYTES_PER_PEER)
        self._seen = Seen(SEEN_BYTES)
        self._setup = Setup(genesis, Chain(self.game_id, self._keys))
        self._verdicts = Verdicts()
        self._clock = Clock()
        dealt = signer.dealt if signer is not None else _honest_dealt
        self._derived = Derivation(shared, self.rules, self._voices, self._me, self._held, self._unplaced,
                                   self._verdicts, self._clock, dealt)
        self._intake = Intake(self.rules, seat, self._me, person, self._voices, self._keys, signer,
                              self._held, self._derived, self._verdicts, self._setup, self._unplaced,
                              self._seen, self._clock)
        self._asking_return = False
        self._restoring = False
        self._told_restoring: tuple[int, ...] = ()
        self._inbox: deque[Queued] = deque()
        """What is still to be looked at: (peer, payload or authenticated message, depth)."""
        self._out: list[out.Output] = []

    # ================================================================ public API

    def start(self) -> list[out.Output]:
        """Open the first step and make this seat's first contribution."""
        self._init_secrets()
        self._derive()
        return self._flush()

    def restore(self, journal: Iterable[bytes]) -> list[out.Output]:
        """Rebuild from this seat's journal (accepted messages in any order), then resume: re-send this
        seat's messages of the open step and ask every peer for what it missed; sign nothing new until
        every seat that may hold what it signed before answered (never double-sign, SPEC §9.6).  An
        observer (seat None) restored from any peer's journal is how a game is verified."""
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
            others = {s for s in range(self.n) if s != self.seat and s not in self._held.cheaters}
            self._intake.catchup_from = others
            self._resend_open()
            self._out.append(out.Send(self._intake.catchup_request()))
        self._settle()
        return self._flush()

    def receive(self, peer: int | None, payload: bytes) -> list[out.Output]:
        """A frame payload from ``peer`` (a seat number, or None if unknown)."""
        if peer is not None and 0 <= peer < self.n:
            self._clock.heard[self._voices.voice(peer)] = self._clock.now
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
            raise ActionError(f"this seat restarted: it waits for seats {list(waiting)} to say what it "
                              "signed before it restarted, so that it never signs two different moves "
                              "for one step")
        if att is None:
            raise ActionError("it is not your turn")
        assert self._signer is not None
        body = self._signer.action_body(att, text)
        self._contribute("action", body, att.chain.step, att.chain.head)
        self._settle()
        return self._flush()

    def decide_silent(self, go_on: bool) -> list[out.Output]:
        """The person's answer to ``SilentSeats``: go on without the silent seats (the hand is void; in
        a two-player match, the match ends), or keep waiting (asked again after another timeout)."""
        self._clock.answer(go_on, self.genesis.timeout_ms)
        self._maybe_vote()
        self._settle()
        return self._flush()

    def admit(self, seat: int, yes: bool) -> list[out.Output]:
        """The person's answer to ``ReturnAsked``: the seat's return is signed with our next seal."""
        self._held.admit[seat] = yes
        return self._flush()

    def ask_to_return(self) -> list[out.Output]:
        """This seat was voted out, or the others went on without it (``held.behind``): agree to it
        (``claims.binds``) and ask the seats still playing to deal it in again."""
        if self.seat is None:
            return self._flush()
        gone = held.behind(self._held, self.attempt)
        if gone is not None:
            self._consent(gone.step, gone.prev, request=True)
        elif self._derived.out_seats().get(self.seat) in GONE:
            self._asking_return = True
            self._certificate("return", {})
            self._settle()
        return self._flush()

    def watch(self) -> list[out.Output]:
        """This seat's person watches the others play on without it: its voice consents to the
        majority's decision (or half the table's word) that dealt it out (SPEC §6.3), asking nobody to
        deal it in again.  After a minority's word nothing is signed: that word binds its signer alone."""
        gone = held.behind(self._held, self.attempt)
        person = self.seat is not None and self._voices.is_person(self.seat)
        if person and gone is not None:
            self._consent(gone.step, gone.prev, request=False)
        return self._flush()

    def _consent(self, step: int, prev: bytes, *, request: bool) -> None:
        """Consent names a decision: this voice's return signed at ``step`` after ``prev`` accepts the
        decision there and nothing else (SPEC §6.5); sent to the table (``request``), it is also the
        request to be dealt in again."""
        self._asking_return = self._asking_return or request
        signed = self._certificate("return", {}, step=step, prev=prev)
        self._settle()
        if request:
            self._out.append(out.Send(signed))

    def tick(self, now: int) -> list[out.Output]:
        """The local time in milliseconds: retries, and votes when seats stay silent."""
        if not self._clock.ticked:
            self._clock.first(now)
        self._clock.now = now
        att = self.attempt
        if self.seat is not None and not self.over and self.stopped is None:
            missing = self._missing()
            if missing and now - self._clock.last_retry >= RETRY_MS:
                self._retry()
            if att is not None:
                self._maybe_consent()
                self._maybe_vote()
            self._settle()
        elif self._unanswered() and now - self._clock.last_retry >= RETRY_MS:
            # Restored, its match ended by what it holds so far: the peers it waits for may hold a
            # hand played to its end, which goes on from there (SPEC §7.5, §9.6) — it still asks.
            self._clock.last_retry = now
            self._out.append(out.Send(self._intake.catchup_request()))
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
        return -1 if self._derived.boundary is None else self._derived.boundary.hand

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
    def back(self) -> tuple[int, ...]:
        """The voices the open question about silent seats awaits that are connected (their frames
        arrive, a computer seat's counting for its runner): thinking, or back.  The table goes on
        without them only by its person's answer, never at the question's deadline."""
        return self._clock.back()

    @property
    def left_behind(self) -> bool:
        """Whether a majority, or half the table from the step this replica is at, went on without this
        seat's voice unconsented (``held.behind``).  A minority's word binds its signer alone."""
        return held.behind(self._held, self.attempt) is not None

    @property
    def cheaters(self) -> tuple[int, ...]:
        return tuple(sorted(self._held.cheaters))

    @property
    def seats_out(self) -> dict[int, str]:
        """Seats that take no part in the hand being played, with why (``cheat``/``silent``)."""
        return dict(sorted(self._derived.out_seats().items()))

    @property
    def changes(self) -> frozenset[Change]:
        """The changes of seating the hand being played was dealt with (or the match ended with)."""
        return self._derived.changes

    @property
    def secrets(self) -> SeatSecrets | None:
        """This seat's secrets, derived from its master secret (None for an observer, or before
        ``start``/``restore``): what a test harness reads to let a cheater collude with it."""
        return self._secrets

    @property
    def finals(self) -> list[tuple[int, Attempt]]:
        """Every final hand, in order, with the attempt that played it."""
        return [(f.hand, f.attempt) for f in self._derived.finals]

    @property
    def attempts_path(self) -> list[Attempt]:
        """The attempts at the hand being played, in the order the verdicts led through them."""
        return list(self._derived.path)

    def decisions_taken(self) -> list[tuple[Decision, int]]:
        """The decisions behind the seats out at steps of the hand being played (``Derivation``)."""
        return self._derived.decisions_taken()

    def votes_held(self) -> list[SignedMessage]:
        return self._held.votes_held()

    def digest(self) -> bytes:
        """What every honest replica agrees on (``protocol/SPEC.md``, the table digest; ``Derivation``)."""
        return self._derived.digest(self._setup.chain.head)

    # ---- what the derivation holds (read-only here)

    @property
    def match(self) -> Match | None:
        return self._derived.match

    @property
    def attempt(self) -> Attempt | None:
        """The attempt being played (None before the first hand and once the match is over)."""
        return self._derived.attempt

    @property
    def over(self) -> bool:
        return self._derived.over

    @property
    def abandoned(self) -> bool:
        return self._derived.abandoned

    @property
    def stopped(self) -> out.Fault | None:
        """Set when the game cannot go on at all (a fault before the first hand, or one that no seat
        can be blamed for)."""
        return self._verdicts.stopped

    @property
    def hands_played(self) -> list[tuple[HandState, AuditResult]]:
        return self._derived.hands_played

    @property
    def verdicts(self) -> list[out.Fault]:
        """Every verdict reached, in order (``stopped`` among them, if the game stopped)."""
        return self._verdicts.told

    @property
    def setup(self) -> Setup:
        """The setup steps before the first hand (genesis, the first-dealer coin)."""
        return self._setup

    # ================================================================ secrets

    def _init_secrets(self) -> None:
        if self.seat is not None and self._secrets is None and self._master is None:
            source = self._source if self._source is not None else _os_secrets.token_bytes
            self._master = source(MASTER_SIZE)
            self._out.append(out.KeepSecret(MASTER, self._master))
        if self.seat is not None and self._master is not None and self._secrets is None:
            self._secrets = SeatSecrets(self._master, self.game_id)
        if self._derived.dealer_factory is None:
            self._derived.dealer_factory = self._given_factory or contribute.dealer_factory(
                self.genesis, self.rules, self.seat, self._secrets)

    # ================================================================ ingestion (SPEC §9)

    def _settle(self, *, contribute: bool = True) -> None:
        """Look at everything received, bring the derivation up to date, contribute what is due; again,
        until nothing moves.  A loop, never a recursion: no input can exhaust the stack."""
        for _ in range(1_000_000):
            self._drain()
            self._derive(contribute=contribute)
            if not self._inbox:
                return

    def _drain(self) -> None:
        while self._inbox:
            self._ingest(*self._inbox.popleft())

    def _ingest(self, peer: int | None, item: bytes | SignedMessage, depth: int) -> None:
        told, queued = self._intake.take(peer, item, depth=depth, restoring=self._restoring)
        self._out += told
        self._inbox.extend(queued)

    def _unanswered(self) -> tuple[int, ...]:
        """The peers a restored seat still waits for (never double-sign, SPEC §9.6): every other seat
        that has not sent a complete answer since the restart, unless it is a cheater (its word proves
        nothing) or out of the hand being played (``claims.restore_wait``)."""
        wait, cheaters = self._intake.catchup_from, self._held.cheaters
        return claims.restore_wait(wait, self.n, cheaters, self._derived.out_seats()) if wait else ()

    # ================================================================ making our messages

    def _signed(self, kind: str, body: Any, *, step: int, prev: bytes) -> bytes:
        assert self._signer is not None, "an observer signs nothing"
        return self._signer.sign(kind, body, step=step, prev=prev)

    def _contribute(self, kind: str, body: Any, step: int, prev: bytes) -> None:
        """Sign our message and take it as if it had arrived: it goes through every check."""
        if self._signer is not None and not self._signer.contributes(kind):
            return
        self._ingest(self.seat, self._signed(kind, body, step=step, prev=prev), 0)

    def _certificate(
        self, kind: str, body: Any, *, step: int | None = None, prev: bytes | None = None
    ) -> bytes:
        att = self.attempt
        if step is None or prev is None:
            step = att.step if att is not None else self._setup.chain.step
            prev = att.head if att is not None else self._setup.chain.head
        signed = self._signed(kind, body, step=step, prev=prev)
        self._inbox.append((self.seat, signed, 0))
        return signed

    def _derive(self, *, contribute: bool = True) -> None:
        """Bring the replica to what its messages decide (``derive``), then contribute what this seat
        owes there."""
        if self.stopped is None:
            self._setup.open()
        told, requeued = self._derived.run()
        self._out += told
        self._inbox.extend((peer, msg, 1) for peer, msg in requeued)
        if self.attempt is None and self._derived.boundary is None and self.stopped is None:
            key = (self._setup.chain.head, self._setup.chain.step)
            if self._clock.open_key != key:
                self._out += self._clock.open(*key, tuple(sorted(self._setup.chain.missing)))
        if contribute:
            self._make_contributions()

    def _make_contributions(self) -> None:
        """Contribute to the open step if this seat is due (never while restoring).  A restored seat
        still waiting for its peers' answers (never double-sign) contributes only what it would sign
        byte for byte alike whatever it signed before (SPEC §12: keys, shuffles, shares, coins), never
        a move or a seal, whose content a person chose."""
        if self.seat is None or self._restoring or self.stopped is not None or self.over:
            return
        waiting = bool(self._unanswered())
        att = self.attempt
        if att is None:
            due = contribute.setup_due(self._setup, self.genesis, self.seat, self._secrets)
            if due is not None:
                kind, body, step, prev = due
                self._contribute(kind, body, step, prev)
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
                admit = contribute.admitted(self._held, self._derived.out_seats(), att)
                self._contribute("seal", att.seal_body(admit), att.seal_step, att.seal_prev)
            else:
                self._contribute(exp.kind, att.contribution(exp), att.chain.step, att.chain.head)
            self._drain()
            self._derive(contribute=False)
            current: Attempt | None = self.attempt
            if current is None:
                break
            att = current

    # ================================================================ time (SPEC §10)

    def _missing(self) -> tuple[int, ...]:
        return self._derived.missing(self._setup.chain)

    def _resend_open(self) -> None:
        self._out += resend(self.attempt, self._setup.chain, self.seat, self._held)

    def _retry(self) -> None:
        """Still waiting: say again what we said for this step and ask everyone for what we lack
        (a frame lost on a link, or a peer that restarted, must not stall the game).  A seat voted
        out that asked to come back asks again at every hand until it is dealt in."""
        self._clock.last_retry = self._clock.now
        self._resend_open()
        self._out.append(out.Send(self._intake.catchup_request()))
        b = self._derived.boundary
        if not self._asking_return or self.seat is None or b is None:
            return
        if self._derived.out_seats().get(self.seat) not in GONE:
            self._asking_return = False
            return
        mine = self._held.returns.get(self.seat)
        if (self.seat, b.hand) in self._held.return_asked and mine is not None:
            self._out.append(out.Send(mine.data))
        else:
            self._certificate("return", {})

    def _maybe_consent(self) -> None:
        """Consent to half the table's word naming this voice when it cannot play on otherwise
        (``policy.consents_to_word``): a return at the word's step after its head."""
        word = held.consent_due(self._held, self._voices.among(self._unanswered()))
        if word is not None and self.seat is not None:
            self._consent(word.step, word.prev, request=True)

    def _maybe_vote(self) -> None:
        """A claim due at the open step (``clocks.claim_due``).  Only people sign: a computer seat never
        votes or abandons, its runner does for the whole machine."""
        att = self.attempt
        if att is None or self.seat is None or self.seat not in att.at_table:
            return
        if not self._voices.is_person(self.seat) or self._clock.open_key is None:
            return
        if self.left_behind:
            return  # left behind by a majority: our view of the open step is not the table's
        asked, claim = claim_due(self._clock, att, self.seat, self._voices, self._held,
                                 self.genesis.timeout_ms, self.person, self.n, bool(self._unanswered()))
        self._out += asked
        if claim is not None:
            self._certificate(claim.kind, {"silent": list(claim.silent)}, step=att.step, prev=att.head)

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
                    self._intake.catchup_from.clear()
        produced, self._out = self._out, []
        return produced


def _honest_dealt(att: Attempt) -> None:
    """An observer's replica changes nothing in the attempts it deals (it has no ``Signer``)."""


__all__ = ["DISCONNECTED_MS", "RETRY_MS", "UNPLACED_BYTES_PER_PEER", "SecretSource", "Table"]
