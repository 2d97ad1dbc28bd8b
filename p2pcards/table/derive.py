"""The derivation (SPEC §7): from the messages held, the final hands and the attempt to play now.

``Derivation`` owns what is derived — the boundary (the first hand not final here), the attempts at
it, the path the verdicts led through, the final hands, the end of the match — and brings it up to
date with ``run``, which returns the outputs that tell what changed and the held messages that fit
an attempt now (to be looked at again).  It reads what the replica holds (``Held``), the messages
kept because they fitted nothing (``Unplaced``), and tells verdicts through ``Verdicts``; it never
signs, sends or journals.  Every honest replica holding the same messages derives the same: nothing
here reads a clock or the order messages arrived in.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from p2pcards.games import AuditResult, GameError, HandState, Match, Rules
from p2pcards.table import claims, decide, held
from p2pcards.table import outputs as out
from p2pcards.table.announce import Verdicts, fault_of
from p2pcards.table.attempt import Attempt, Shared
from p2pcards.table.clocks import Clock
from p2pcards.table.dealers import DealerFactory
from p2pcards.table.decide import Decision
from p2pcards.table.held import Held
from p2pcards.table.seating import CHEAT, GONE, RETURN, SILENT, UNCONFIRMED, Change, start_head
from p2pcards.table.unplaced import Unplaced
from p2pcards.table.voices import Voices
from p2pcards.wire import Chain, SignedMessage, encode, seal_head

TABLE_DIGEST_TAG = b"p2pcards/table/v3\x00"

MAX_FORKS = 8
"""Attempts played along a cheater's second version of a step (``Held.alternatives``), per hand."""

Requeued = list[tuple[int | None, SignedMessage]]
"""Held messages that fit an attempt now: (peer it came from, message), to be looked at again."""


@dataclass
class Boundary:
    """The start of the first hand that is not final here."""

    hand: int
    head: bytes
    step: int
    match: Match
    carried: frozenset[Change]
    out: dict[int, str]
    """Seats out of the match before this hand, with why (``silent`` or ``cheat``)."""


@dataclass
class Final:
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


class Derivation:
    """What the held messages decide: the final hands and the attempt being played."""

    def __init__(
        self,
        shared: Shared,
        rules: Rules,
        voices: Voices,
        me: int | None,
        held_: Held,
        unplaced: Unplaced,
        verdicts: Verdicts,
        clock: Clock,
        dealt: Callable[[Attempt], None],
    ) -> None:
        self.shared = shared
        self.rules = rules
        self.n = shared.n
        self.voices = voices
        self.me = me
        self.held = held_
        self.unplaced = unplaced
        self.verdicts = verdicts
        self.clock = clock
        self.dealt = dealt
        """Told of every attempt dealt (a test cheater's seam, ``Signer.dealt``)."""
        self.dealer_factory: DealerFactory | None = None
        self.match: Match | None = None
        self.boundary: Boundary | None = None
        self.attempts: dict[bytes, Attempt] = {}
        self.attempt: Attempt | None = None
        self.path: list[Attempt] = []
        self.finals: list[Final] = []
        self.hands_played: list[tuple[HandState, AuditResult]] = []
        self.over = False
        self.abandoned = False
        self.ended: tuple[Match, frozenset[Change]] | None = None
        """The match ended when the seating changed (fewer than two can play): with which changes."""
        self.changes: frozenset[Change] = frozenset()
        """The changes the hand being played was dealt with (or the match ended with)."""
        self.candidates: dict[bytes, frozenset[Change]] = {}
        """Heads of the attempts the verdicts known at this hand could lead to, by the path taken."""
        self.candidate_basis: frozenset[Change] | None = None
        self.seating_end: frozenset[Change] | None = None
        """Set while the match is over only because too few seats can play (the changes that made it
        so): unlike a sealed end, a later message can still show a hand that was played to its end."""
        self._told: list[out.Output] = []
        self._requeued: Requeued = []

    # ---- reading

    def begin(self, match: Match, head: bytes, step: int) -> None:
        """The setup is done: the first hand starts at ``step`` after ``head``."""
        self.match = match
        self.boundary = Boundary(0, head, step, match, frozenset(), {})

    def out_seats(self) -> dict[int, str]:
        """Seats out of the hand being played: out before it, plus what its attempt changed.  A seat
        proved a cheater is out as one whenever the proof came (SPEC §7.6): a replica that convicts
        it after the hand that dealt it out holds the same messages as one that held the proof
        first, and says the same."""
        b = self.boundary
        if b is None:
            return {}
        seats = {seat: CHEAT if seat in self.held.cheaters else why for seat, why in b.out.items()}
        for change in sorted(self.changes):
            for seat in change.seats:
                if change.kind == RETURN:
                    seats.pop(seat, None)
                else:
                    seats[seat] = CHEAT if change.kind == CHEAT or seat in self.held.cheaters else change.kind
        return seats

    def missing(self, setup: Chain) -> tuple[int, ...]:
        """The seats the open step still awaits (``setup``: the setup steps, before the first hand)."""
        if self.over or self.verdicts.stopped is not None:
            return ()
        att = self.attempt
        if att is None:
            return tuple(sorted(setup.missing)) if setup.step <= 2 else ()
        return att.missing

    def digest(self, setup_head: bytes) -> bytes:
        """What every honest replica agrees on: the final hands, the attempt being played and its
        state, the seats out and the end of the match (``protocol/SPEC.md``, the table digest):

            SHA-256("p2pcards/table/v3" 00 ‖ encode([finals, boundary, current, out, over,
                                                      abandoned, stopped]))

        ``setup_head``: the head of the setup steps, the current state before the first hand."""
        stopped = self.verdicts.stopped
        value = [
            [final.attempt.seal_prev for final in self.finals],
            None if self.boundary is None else self.boundary.head,
            self.attempt.digest() if self.attempt is not None else setup_head,
            [[seat, why] for seat, why in sorted(self.out_seats().items())],
            self.over,
            self.abandoned,
            None if stopped is None else [stopped.seat, stopped.kind],
        ]
        return hashlib.sha256(TABLE_DIGEST_TAG + encode(value)).digest()

    def attempt_at(self, step: int, prev: bytes) -> Attempt | None:
        """The live attempt whose open step is ``step`` after head ``prev``."""
        for att in self.attempts.values():
            if att.step == step and att.head == prev and att.fault is None:
                return att
        return None

    def attempt_with_step(self, step: int, prev: bytes) -> Attempt | None:
        """The live attempt of the hand being played that has a step ``step`` after head ``prev``."""
        for att in self.attempts.values():
            if att.head_before(step) == prev:
                return att
        return None

    def last_seal(self, step: int, prev: bytes) -> Attempt | None:
        """The last final hand's attempt, if (``step``, ``prev``) is its seal step and the next hand is
        still to be decided by it."""
        if not self.finals or self.over:
            return None
        att = self.finals[-1].attempt
        return att if (step, prev) == (att.seal_step, att.seal_prev) else None

    def is_past(self, step: int) -> bool:
        b = self.boundary
        return b is not None and step < b.step

    def hand_of(self, step: int) -> int:
        """The hand a step belongs to (-1 for the setup before the first hand)."""
        for final in self.finals:
            if final.attempt.start_step <= step <= final.attempt.seal_step:
                return final.hand
        b = self.boundary
        if b is None or step < b.step:
            return -1
        return b.hand

    def feed(self, att: Attempt) -> Requeued:
        """Offer ``att`` every held message that follows its head, until it stops moving; then return
        the messages kept because they fitted nothing before and fit it now: step messages for its
        open step, certificates about any step it went through."""
        heads = [att.head]
        while att.fault is None:
            before = (att.step, att.head, len(att.seals))
            for msg in list(self.held.by_prev.get(att.head, ())):
                if msg.step == att.step and not att.holds(msg.step, msg.seat):
                    att.offer(msg)
            if (att.step, att.head, len(att.seals)) == before:
                break
            heads.append(att.head)
        taken = self.unplaced.take(att.head, att.step)
        for head in heads:
            taken += self.unplaced.take(head, certificates=True)
        return taken

    # ---- the derivation

    def run(self) -> tuple[list[out.Output], Requeued]:
        """Bring the derivation to what the held messages decide: the final hands, the attempt to
        play now.  Returns what to tell, and the held messages that fit now."""
        for _ in range(10_000):
            b = self.boundary
            if b is None or self.verdicts.stopped is not None or (self.over and self.seating_end is None):
                break
            self._recarry(b)
            att = self._canonical(b)
            if self.ended is not None:
                if self.seating_end != self.ended[1]:
                    self._end_by_seating(b, *self.ended)
                self.ended = None
                break
            if att is None:
                break
            if self.seating_end is not None:
                # The match had ended for lack of players; a hand every seat of it played to its end
                # turned up after all (verdicts learnt in another order): it counts, and so on.
                self.over = False
                self.seating_end = None
            if att.complete and att.sealed(held.excused(self.held, self._seal_decision(att))):
                self._set_current(att)
                self._close(att)
                continue
            self._set_current(att)
            break
        told, self._told = self._told, []
        requeued, self._requeued = self._requeued, []
        return told, requeued

    def _recarry(self, b: Boundary) -> None:
        """What the last final hand carries into ``b`` (seats voted out at its seal, returns admitted),
        from the votes and verdicts held now: until ``b`` is final, a vote at that seal may still come,
        and every replica that holds it must deal ``b`` alike."""
        if not self.finals:
            return
        last = self.finals[-1].attempt
        carried = self._carried(last, self._seal_decision(last))
        if carried != b.carried:
            b.carried = carried
            self.candidate_basis = None

    def _canonical(self, b: Boundary) -> Attempt | None:
        """The attempt at hand ``b.hand`` that the held messages decide: start from the changes the
        previous hand carried; while the attempt is not complete, add the verdicts against it (first
        cheaters playing in it, then its earliest verdict of its own) and deal again."""
        changes = b.carried
        path: list[Attempt] = []
        self.held.half_gone = None  # (found again below while it still stands)
        for _ in range(64):
            att = self._attempt_for(b, changes)
            if att is None:
                complete = self._complete_attempt(b)
                if complete is not None:  # played to its end before the last verdicts were known
                    self.ended = None
                    self.path = [*path, complete]
                return complete
            path.append(att)

            if att.complete:
                break
            new = frozenset(Change(CHEAT, (s,)) for s in att.holders if s in self.held.cheaters)
            if not new:
                verdict = self._internal_verdict(att)
                if verdict is None:
                    break
                if verdict.kind == CHEAT and verdict.seats == (-1,):
                    self._told += self.verdicts.stop(fault_of(att))
                    return None
                new = frozenset({verdict})
            changes = changes | new
        self.path = path
        complete = self._complete_attempt(b)
        if complete is not None and complete is not path[-1]:
            self.path = [*path, complete]
            return complete
        return path[-1]

    def _complete_attempt(self, b: Boundary) -> Attempt | None:
        """An attempt at this hand that was played to its end, whichever verdicts led to it.

        Replicas that learnt the same verdicts in different orders may have played different attempts:
        one that every seat playing it completed is what the hand was, even for a replica that would
        have dealt again with every verdict at once (it will never be dealt again: its seats sealed
        or are sealing it).  So every attempt the known verdicts could lead to is looked for among the
        messages held, and a complete one wins (the lowest head if, impossibly, there were two)."""
        self._fork_at_equivocations(b)
        for _ in range(8):  # (an attempt dealt here may know one more verdict: look again)
            basis = self._known_changes()
            if basis != self.candidate_basis:
                self.candidate_basis = basis
                extra = sorted(basis - b.carried)[:8]
                self.candidates = {}
                for mask in range(1 << len(extra)):
                    chosen = frozenset(c for i, c in enumerate(extra) if mask >> i & 1) | b.carried
                    self.candidates[start_head(b.head, chosen)] = chosen
            dealt = len(self.attempts)
            for head in sorted(h for h in self.candidates if self.unplaced.follows(h)):
                if head not in self.attempts:
                    self._attempt_for(b, self.candidates[head])
            if len(self.attempts) == dealt:
                break
        complete = [a for a in self.attempts.values() if a.complete and a.hand == b.hand]
        return min(complete, key=lambda a: a.start_head) if complete else None

    def _fork_at_equivocations(self, b: Boundary) -> None:
        """For each attempt dealt here and each step of it where this replica holds a second version
        of a seat's message (``Held.alternatives``), the same attempt played along that version: the
        others may have taken it first and played the hand to its end, which then wins (SPEC §7.1) —
        whichever version this replica took first.  A fork may be forked again at a later step (a
        cheater that signed several second versions); at most one fork per attempt and alternative,
        and ``MAX_FORKS`` at a hand, the earliest steps first: each replays its attempt, and a
        cheater's versions cost it nothing."""
        forks = sum(1 for key, att in self.attempts.items() if key != att.start_head)
        for (step, prev, seat), alt in sorted(self.held.alternatives.items(), key=lambda kv: kv[0]):
            for key, att in sorted(self.attempts.items(), key=lambda kv: kv[0]):
                if att.hand != b.hand or att.head_before(step) != prev:
                    continue
                mine = att.chain.lookup(step, seat)
                if mine is None or mine.hash == alt.hash:
                    continue
                fork_key = hashlib.sha256(b"p2pcards/fork" + key + alt.hash).digest()
                if fork_key not in self.attempts:
                    if forks >= MAX_FORKS:
                        return
                    forks += 1
                    self._fork(att, fork_key, alt)

    def _fork(self, att: Attempt, key: bytes, alt: SignedMessage) -> None:
        assert self.dealer_factory is not None
        fork = Attempt(
            self.shared,
            hand=att.hand,
            start_step=att.start_step,
            start_head=att.start_head,
            changes=att.changes,
            match=att.match,
            holders=att.holders,
            dummies=att.dummies,
            dealer=self.dealer_factory(att.hand, att.start_head, att.holders),
        )
        self.attempts[key] = fork
        fork.start()
        for msg in att.messages():
            if msg.step > alt.step:
                break
            if fork.fault is None:
                fork.offer(alt if (msg.step, msg.seat) == (alt.step, alt.seat) else msg)
        self._requeued += self.feed(fork)
        self.dealt(fork)

    def _known_changes(self) -> frozenset[Change]:
        """The changes the verdicts known at this hand are made of: those of every attempt held, every
        cheater's, and the verdict each attempt held reaches of its own (SPEC §7.1) — also where a
        cheater found in it came first, so this replica deals it again otherwise: the others may
        have taken that verdict before they knew of the cheater, and played on to the end."""
        known = {c for a in self.attempts.values() for c in a.changes}
        known |= {Change(CHEAT, (s,)) for s in self.held.cheaters}
        for att in list(self.attempts.values()):
            if not att.complete:
                verdict = self._internal_verdict(att, tell=False)
                if verdict is not None and verdict.seats != (-1,):
                    known.add(verdict)
        return frozenset(known)

    def _attempt_for(self, b: Boundary, changes: frozenset[Change]) -> Attempt | None:
        head = start_head(b.head, changes)
        att = self.attempts.get(head)
        if att is not None:
            return att
        match = b.match
        try:
            for change in sorted(changes):
                for seat in change.seats:
                    match = match.with_seat(seat) if change.kind == RETURN else match.without(seat)
        except GameError as exc:
            fault = out.Fault(-1, b.step, "bad-message", f"the seating cannot change: {exc}", hand=b.hand)
            self._told += self.verdicts.stop(fault)
            return None
        if match.over:
            self.ended = (match, changes)  # fewer than two can play on: the match ends here
            return None
        seated = match.seated
        dummies = match.dummies
        holders = tuple(s for s in seated if s not in dummies)
        assert self.dealer_factory is not None
        att = Attempt(
            self.shared,
            hand=b.hand,
            start_step=b.step,
            start_head=head,
            changes=changes,
            match=match,
            holders=holders,
            dummies=dummies,
            dealer=self.dealer_factory(b.hand, head, holders),
        )
        self.attempts[head] = att
        att.start()
        self._requeued += self.feed(att)
        self.dealt(att)
        return att

    def _end_by_seating(self, b: Boundary, match: Match, changes: frozenset[Change]) -> None:
        previous = self.attempt
        self.ended = None
        verdicts = tuple(
            self._announce(c, b.hand, b.step) for c in sorted(changes - b.carried) if c.kind != RETURN
        )
        if previous is not None and previous.hand == b.hand and not previous.complete:
            self._told.append(out.HandVoid(b.hand, verdicts))
        self.attempt = None
        self.changes = changes
        self.seating_end = changes
        self.match = match
        # Ended by this voice's own word, half the table or fewer: the others are not bound by it.
        self._end(abandoned=any(c.kind == UNCONFIRMED for c in changes))

    def _internal_verdict(self, att: Attempt, tell: bool = True) -> Change | None:
        """The earliest verdict inside ``att``: a decision this replica takes at one of its steps (see
        ``decide``), or a check that failed; at one step a decision comes before a fault."""
        best: Change | None = None
        best_step = -1
        latest: dict[int, int] | None = None
        for step, prev in sorted(set(self.held.votes) | set(self.held.abandons)):
            if att.head_before(step) != prev or (att.complete and step == att.seal_step):
                continue
            latest = held.latest(self.held, att) if latest is None else latest
            decision = self._binding_at(att, step, prev, latest, tell)
            if decision is not None:
                best, best_step = claims.change_of(decision), step
                break
        if att.fault is not None:
            f = att.fault
            if best is None or f.step < best_step:
                best = Change(CHEAT, (f.seat,))
        return best

    def _binding_at(
        self, att: Attempt, step: int, prev: bytes, latest: dict[int, int] | None = None, tell: bool = True
    ) -> Decision | None:
        """The decision at ``step`` of ``att`` that this replica takes, if any; one naming its own voice
        that it does not take is told to its user (``tell``)."""
        decision, told = held.binding_at(
            self.held, self.voices, self.me, att, step, prev, self._went_on(att, step, latest), self.n
        )
        halves = [d.silent for d in told if d.half]
        for other in told if tell else ():
            if other.half:
                self.held.half_gone = other
            elif other.silent in halves:
                continue  # one of the words of half the table, told as theirs together
            # Only the seat's own return agrees to it (``ask_to_return``): whoever runs the seat —
            # its person, or the program for it — decides.
            if other.majority:
                # The latest a majority's decision this voice has not accepted: each one it meets is
                # one more return to sign, since a return accepts one decision by name.
                self.held.pending_gone = other
            self._told += self.verdicts.gone_without_us(other)
        return decision

    def _went_on(self, att: Attempt, step: int, latest: dict[int, int] | None) -> tuple[int, ...]:
        """The voices that signed something after ``step`` of ``att`` (``latest``: per seat, the last
        step it signed there, computed once per derivation) — or, at the seal of the last final hand,
        in the next hand dealt as if nobody were voted out there: what spends a claim there."""
        if self.finals and self.finals[-1].attempt is att and step == att.seal_step:
            head = start_head(seal_head(att.seal_prev), self._carried(att, None))
            signers = set(self.unplaced.senders(head)) | {m.seat for m in self.held.by_prev.get(head, ())}
            return self.voices.among(signers)
        return claims.went_on(self.voices, held.latest(self.held, att) if latest is None else latest, step)

    def _seal_decision(self, att: Attempt) -> Decision | None:
        return self._binding_at(att, att.seal_step, att.seal_prev) if att.complete else None

    def _carried(self, att: Attempt, decision: Decision | None) -> frozenset[Change]:
        # The seats out while ``att`` was played: once it closed, the next boundary's (never the
        # attempt after it, whose changes hold the very returns this computes).
        b = self.boundary
        gone = b.out if b is not None and b.hand > att.hand else self.out_seats()
        return held.carried(self.held, self.voices, att, decision, gone, self.n)

    def decisions_taken(self) -> list[tuple[Decision, int]]:
        """The decisions behind the seats out as silent or unconfirmed at steps of the hand being
        played, each with the number of voices playing its attempt: what ``claims``' invariants judge
        (the explorer and the model checker call them on every replica after every event)."""
        found: list[tuple[Decision, int]] = []
        for c in sorted(self.changes):
            if c.kind not in (SILENT, UNCONFIRMED):
                continue
            att = next((a for a in self.path if a.head_before(c.step) == c.prev), None)
            if att is None:
                continue  # (carried from an earlier hand: judged while it was taken)
            decision = self._binding_at(att, c.step, c.prev, tell=False)
            if decision is not None:
                found.append((decision, len(decide.playing(self.voices, att))))
        return found

    def _announce(self, change: Change, hand: int, step: int) -> out.Fault:
        fault, told = self.verdicts.announce(change, hand, step, self.held, self.path)
        self._told += told
        return fault

    def _set_current(self, att: Attempt) -> None:
        previous = self.attempt
        self.attempt = att
        self.changes = att.changes
        if previous is not att:
            if previous is not None and previous.hand == att.hand and not previous.complete:
                verdicts = tuple(
                    self._announce(c, att.hand, att.start_step)
                    for c in sorted(att.changes - previous.changes)
                )
                self._told.append(out.HandVoid(att.hand, verdicts))
            elif previous is None or previous.hand != att.hand:
                for change in sorted(att.changes):
                    self._announce(change, att.hand, att.start_step)
            self._told.append(
                out.Seating(att.hand, att.holders, att.dummies, tuple(sorted(self.out_seats().items())))
            )
        # Only the attempt being played speaks to the user interface.
        self._told.extend(att.events)
        for other in self.attempts.values():
            other.events.clear()
        key = (att.head, att.step)
        if key != self.clock.open_key:
            self._told += self.clock.open(*key, att.missing)

    def _close(self, att: Attempt) -> None:
        """``att`` is sealed: its hand is final.  Open the next hand with what it carries."""
        b = self.boundary
        assert b is not None
        h = self.held
        seal_key = (att.seal_step, att.seal_prev)
        seal_votes = h.votes.setdefault(seal_key, {})
        self.finals.append(Final(b.hand, att, self._justification(att), seal_votes))
        assert att.audit is not None
        self.hands_played.append((att.state, att.audit))
        self._told.append(out.Sealed(b.hand, tuple(sorted(att.seals))))
        for seat in sorted(att.bad_seals):
            msg, problem = att.bad_seals[seat]
            fault = out.Fault(
                seat, att.seal_step, "bad-message", problem, (msg.data,), hand=b.hand, seats=(seat,)
            )
            h.cheaters.setdefault(seat, fault)
            self._told += self.verdicts.record(("cheat", seat), fault)
        carried = self._carried(att, self._seal_decision(att))
        for change in sorted(carried):
            if change.kind == RETURN:
                # A request to come back is granted once: voted out again, the seat asks again.
                h.returns.pop(change.seats[0], None)
                h.admit.pop(change.seats[0], None)
        out_seats = self.out_seats()
        settled = att.settled
        assert settled is not None
        self.match = settled
        self.boundary = Boundary(
            b.hand + 1, seal_head(att.seal_prev), att.seal_step + 1, settled, carried, out_seats
        )
        # Messages of this hand are kept by (step, head, seat) to catch late equivocation; the index
        # that feeds attempts and the votes about this hand's steps are done with, but for the votes at
        # its seal: they may still come, and decide who is dealt the next hand (``_recarry``).
        h.by_prev = {}
        h.votes = {seal_key: seal_votes}
        # Abandons at its seal likewise: one that comes after the seals still ends the match.
        h.abandons = {seal_key: h.abandons.get(seal_key, {})}
        self.attempts = {}
        self.candidate_basis = None
        self.path = []
        self.attempt = None
        if settled.over:
            self._end(abandoned=False)

    def _justification(self, att: Attempt) -> list[bytes]:
        """Every message a peer needs to reach ``att`` as we did: the attempts the verdicts led through,
        the votes behind those verdicts, then ``att`` itself (the votes at its seal: ``Final``)."""
        payloads: list[bytes] = []
        keys = {(c.step, c.prev) for a in self.path for c in a.changes if c.kind in GONE}
        for key in sorted(keys):
            payloads += [v.data for _, v in sorted(self.held.votes.get(key, {}).items())]
            payloads += [v.data for _, v in sorted(self.held.abandons.get(key, {}).items())]
        for earlier in self.path:
            payloads += [m.data for m in earlier.messages()]
        return payloads

    def _end(self, *, abandoned: bool) -> None:
        self.over = True
        self.abandoned = abandoned
        if abandoned and self.match is not None and not self.match.over:
            self.match = self.match.abandon()
        match = self.match
        summary = "" if match is None else match.summary()
        self._told.append(out.MatchOver(summary, abandoned))
