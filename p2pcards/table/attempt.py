"""One attempt at one hand, on one replica: the steps from the hand's first head to its seal.

The rule engine drives the hand; the attempt turns what the engine awaits into steps of the log and
checks what arrives.  Its steps, in turn:

    the dealer's prelude (key_commit, key_reveal, one shuffle per key holder)
    then what the engine awaits:
      a seat's move               -> action (that seat; it carries its shares for the cards it shows)
                                     [+ reveal round if a shown position still lacks shares]
      a Deal/Disclose/Reveal need -> share or reveal round (the key holders whose shares are due)
      an open dummy's move        -> no step: every replica runs the dummy policy on public data
    at the end: audit round (shares opening every position the rules must check)
      -> full-information replay, settlement
    seal: every seat still playing signs the hand's result over the head.

Only the *key holders* (the seats still playing; not Spades' open dummies, not seats that left)
are ever awaited.  A check that fails is a ``Foul``: the attempt stops there and the table turns it
into a verdict.  Nothing here raises on a peer's input except ``Foul``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from p2pcards.games import (
    TERMINAL,
    UNKNOWN,
    Action,
    ActionError,
    AuditResult,
    Deal,
    Disclose,
    FulfilError,
    GameError,
    HandRecord,
    HandState,
    Match,
    Reveal,
    Rules,
    View,
)
from p2pcards.games.base import canonical
from p2pcards.table import bodies
from p2pcards.table import outputs as out
from p2pcards.table.dealers import DealFault, HandDealer
from p2pcards.table.seating import Change
from p2pcards.wire import (
    Accepted,
    Chain,
    Duplicate,
    Equivocation,
    Outcome,
    Reason,
    Rejected,
    Sealed,
    SignedMessage,
    Step,
)

AUDIT_HIDDEN_ZONES = frozenset({"discard", "mucked", "undealt", "talon", "deck"})
"""Zones the audit never opens: discards and folded hands stay secret (and unplayed stock is irrelevant)."""

SEAL_TAG = b"p2pcards/seal/v1\x00"

DummyPolicy = Callable[[View, bytes], Action]
"""``choose(view, seed)``: an open dummy's move from public information only."""


class Foul(Exception):
    """``seat`` broke a check of ``kind`` (bad-message, illegal-action, renege); -1: nobody to blame."""

    def __init__(self, seat: int, kind: str, message: str) -> None:
        super().__init__(message)
        self.seat = seat
        self.kind = kind
        self.message = message


@dataclass
class Expect:
    """What the open step awaits: its kind, the seats, and for share rounds the positions each owes."""

    kind: str
    seats: tuple[int, ...]
    owed: dict[int, tuple[int, ...]] = field(default_factory=dict)
    need: Any = None


@dataclass(frozen=True)
class AttemptFault:
    """Where and why an attempt stopped."""

    seat: int
    step: int
    kind: str
    message: str
    evidence: tuple[bytes, ...]


@dataclass(frozen=True)
class Shared:
    """What every attempt of a game shares."""

    game_id: bytes
    rules: Rules
    n: int
    keys: Mapping[int, Ed25519PublicKey]
    seat: int | None
    dummy_policy: DummyPolicy | None


class Attempt:
    """One attempt at hand ``hand``: its seating, its chain from ``start_head``, the engine's state."""

    def __init__(
        self,
        shared: Shared,
        *,
        hand: int,
        start_step: int,
        start_head: bytes,
        changes: frozenset[Change],
        match: Match,
        holders: tuple[int, ...],
        dummies: tuple[int, ...],
        dealer: HandDealer,
    ) -> None:
        self.shared = shared
        self.hand = hand
        self.start_step = start_step
        self.start_head = start_head
        self.changes = changes
        self.match = match
        self.holders = holders
        self.at_table = tuple(
            s.seat for s in match.standings().seats if s.status in ("playing", "out")
        )
        """The seats still at the table: every seat of the match but those dealt out (away, or an open
        dummy); a seat out of chips (Azi) watches, and still has a voice (``decide``)."""
        self.dummies = dummies
        self.dealer = dealer
        self._full = sum(1 << s for s in holders)
        self.chain = Chain(shared.game_id, shared.keys, start_step=start_step, start_head=start_head)
        self.state: HandState = match.new_hand()
        self.prelude = [p.kind for p in dealer.prelude()]
        self._prelude_seats = [p.seats for p in dealer.prelude()]
        self.published: dict[int, int] = {}
        """Position -> bitmask of the key holders whose share of it is public (checked)."""
        self.expect: Expect | None = None
        self.pending: tuple[Action, tuple[int, ...], int] | None = None
        self.fault: AttemptFault | None = None
        self.complete = False
        """The hand was played and audited: only its seal is open."""
        self.audit: AuditResult | None = None
        self.settled: Match | None = None
        self.seal_step = -1
        self.seal_prev = b""
        self.result = b""
        self.seals: dict[int, SignedMessage] = {}
        self.bad_seals: dict[int, tuple[SignedMessage, str]] = {}
        self.events: list[out.Output] = []
        self._announced = -1
        self.opened_step: int | None = None
        """The step number the open expectation was opened at (for the time since)."""

    # ================================================================ status

    @property
    def active(self) -> tuple[int, ...]:
        """The seats still playing: the key holders, who are awaited at steps and sign the seal."""
        return self.holders

    @property
    def step(self) -> int:
        return self.seal_step if self.complete else self.chain.step

    @property
    def head(self) -> bytes:
        return self.seal_prev if self.complete else self.chain.head

    @property
    def missing(self) -> tuple[int, ...]:
        if self.fault is not None:
            return ()
        if self.complete:
            return tuple(s for s in self.holders if s not in self.seals and s not in self.bad_seals)
        return tuple(sorted(self.chain.missing))

    @property
    def awaiting(self) -> str | None:
        """The kind of message the open step awaits (``action``, ``share``, ``seal``, ...); None when
        nothing is open (a fault stopped this attempt)."""
        if self.fault is not None:
            return None
        if self.complete:
            return "seal"
        return None if self.expect is None else self.expect.kind

    def awaited_at(self, step: int) -> tuple[int, ...]:
        """The seats awaited at ``step`` of this attempt (a past step, or the open one)."""
        if self.complete and step == self.seal_step:
            return self.holders
        if step == self.chain.step:
            return tuple(sorted(self.chain.awaited))
        for sealed in self.chain.steps:
            if sealed.number == step:
                return tuple(m.seat for m in sealed.messages)
        return ()

    def head_before(self, step: int) -> bytes | None:
        if self.complete and step == self.seal_step:
            return self.seal_prev
        if step == self.chain.step:
            return self.chain.head
        for sealed in self.chain.steps:
            if sealed.number == step:
                return sealed.prev
        return None

    def holds(self, step: int, seat: int) -> bool:
        if self.complete and step == self.seal_step:
            return seat in self.seals or seat in self.bad_seals
        return self.chain.lookup(step, seat) is not None

    def signed_after(self, step: int, seat: int) -> bool:
        """Whether ``seat`` signed a message of this attempt for a step after ``step``."""
        if any(m.seat == seat for s in self.chain.steps if s.number > step for m in s.messages):
            return True
        if self.chain.step > step and any(m.seat == seat for m in self.chain.pending):
            return True
        return self.complete and self.seal_step > step and seat in self.seals

    def messages(self) -> list[SignedMessage]:
        """Every message of this attempt so far, in log order (seals last)."""
        msgs = [m for s in self.chain.steps for m in s.messages] + list(self.chain.pending)
        return msgs + [self.seals[s] for s in sorted(self.seals)]

    def digest(self) -> bytes:
        h = hashlib.sha256(b"p2pcards/attempt/v1")
        h.update(self.start_head)
        h.update(self.head)
        h.update(self.state.digest())
        return h.digest()

    # ================================================================ the flow

    def start(self) -> None:
        self._advance()

    def offer(self, msg: SignedMessage) -> Outcome:
        """Offer an authenticated message of this attempt; apply the step if it completes it."""
        if self.fault is not None:
            return Rejected(Reason.NOT_AWAITED, "the attempt stopped at a verdict", msg)
        if self.complete:
            return self._offer_seal(msg)
        outcome = self.chain.offer(msg, authenticated=True)
        if isinstance(outcome, Sealed):
            self._apply_step(outcome.step)
            self._advance()
        return outcome

    def _offer_seal(self, msg: SignedMessage) -> Outcome:
        if msg.kind != "seal" or msg.step != self.seal_step:
            return Rejected(Reason.NOT_AWAITED, f"{msg.kind} at step {msg.step}", msg)
        if msg.prev != self.seal_prev:
            return Rejected(Reason.WRONG_HEAD, msg.prev.hex(), msg)
        if msg.seat not in self.holders:
            return Rejected(Reason.NOT_AWAITED, f"seat {msg.seat}", msg)
        held = self.seals.get(msg.seat) or self.bad_seals.get(msg.seat, (None, ""))[0]
        if held is not None:
            return Duplicate(msg) if held.hash == msg.hash else Equivocation.of(held, msg)
        problem = self.seal_problem(msg)
        if problem:
            self.bad_seals[msg.seat] = (msg, problem)
        else:
            self.seals[msg.seat] = msg
        return Accepted(msg)

    def seal_problem(self, msg: SignedMessage) -> str:
        try:
            body = bodies.seal_body(msg.body, self.shared.n)
        except bodies.BodyError as exc:
            return str(exc)
        if body.hand != self.hand or body.result != self.result:
            return f"sealed another result for hand {body.hand}"
        assert self.settled is not None
        if body.over != self.settled.over:
            return "sealed the wrong end of the match"
        if set(body.admit) & set(self.holders):
            return "admitted a seat that is playing"
        return ""

    def seal_body(self, admit: Sequence[int]) -> dict[str, Any]:
        assert self.settled is not None
        return {"hand": self.hand, "result": self.result, "over": self.settled.over, "admit": list(admit)}

    # ================================================================ advancing

    def _advance(self) -> None:
        if self.fault is not None or self.complete or self.expect is not None:
            return
        try:
            exp = self._next_expectation()
        except Foul as foul:
            self._stop(foul, self.chain.step, ())
            return
        if exp is None:
            return
        self.expect = exp
        self.chain.expect(exp.seats)
        self.events.append(out.Waiting(self.chain.step, exp.seats, 0))

    def _next_expectation(self) -> Expect | None:
        if self.pending is not None:
            _, positions, _ = self.pending
            owed = self._owed(positions, self.holders)
            return Expect("reveal", tuple(sorted(owed)), owed)
        if self.prelude:
            index = len(self._prelude_seats) - len(self.prelude)
            return Expect(self.prelude[0], self._prelude_seats[index])
        state = self.state
        while True:
            to_act = state.to_act
            if to_act >= 0:
                if to_act in self.holders:
                    return Expect("action", (to_act,))
                if to_act in self.dummies:
                    if self._dummy_move(to_act):
                        return self._next_expectation()
                    continue
                raise Foul(-1, "bad-message", f"the rules await seat {to_act}, who is not playing")
            if to_act == TERMINAL:
                owed = self._owed(self.audit_positions(), self.holders)
                if not owed:
                    self._finish()
                    return None
                return Expect("audit", tuple(sorted(owed)), owed)
            need = state.need
            owed = self._need_round(need)
            if owed:
                kind = "reveal" if isinstance(need, Reveal) else "share"
                return Expect(kind, tuple(sorted(owed)), owed, need)
            self._fulfil(need)

    def _need_round(self, need: Any) -> dict[int, tuple[int, ...]]:
        """Who must publish which shares before ``need`` can be fulfilled (shares already public are
        never asked for twice)."""
        if isinstance(need, Deal):
            if not need.disclose:
                return {}
            owed: dict[int, list[int]] = {}
            for owner, positions in need.hands:
                for j in self.holders:
                    if j != owner:
                        owed.setdefault(j, []).extend(positions)
            return self._unpublished(owed)
        if isinstance(need, Disclose):
            return self._unpublished({j: list(need.positions) for j in self.holders if j != need.seat})
        assert isinstance(need, Reveal)
        return self._unpublished({j: list(need.positions) for j in self.holders})

    def _owed(self, positions: Sequence[int], seats: Iterable[int]) -> dict[int, tuple[int, ...]]:
        return self._unpublished({j: list(positions) for j in seats})

    def _unpublished(self, owed: Mapping[int, Sequence[int]]) -> dict[int, tuple[int, ...]]:
        result: dict[int, tuple[int, ...]] = {}
        for seat in sorted(owed):
            due = tuple(sorted(p for p in set(owed[seat]) if not self.published.get(p, 0) >> seat & 1))
            if due:
                result[seat] = due
        return result

    def audit_positions(self) -> list[int]:
        return sorted(p for name, ps in self.state.zones() if name not in AUDIT_HIDDEN_ZONES for p in ps)

    def is_public(self, position: int) -> bool:
        return self.published.get(position, 0) & self._full == self._full

    # ================================================================ what this seat owes

    def own_due(self) -> Expect | None:
        """The open step, if this replica's seat must still contribute to it."""
        seat = self.shared.seat
        if seat is None or self.fault is not None:
            return None
        if self.complete:
            return (
                Expect("seal", self.holders)
                if seat in self.holders and not self.holds(self.seal_step, seat)
                else None
            )
        exp = self.expect
        if exp is None or seat not in exp.seats or self.chain.lookup(self.chain.step, seat) is not None:
            return None
        return exp

    def contribution(self, exp: Expect) -> Any:
        """This seat's body for a round or a prelude step (not for an action, not for a seal)."""
        step, prev = self.chain.step, self.chain.head
        if exp.kind in ("share", "reveal", "audit"):
            assert self.shared.seat is not None
            return {"shares": self.dealer.make_shares(step, prev, exp.owed[self.shared.seat])}
        return self.dealer.contribute(exp.kind, step, prev)

    def turn_event(self) -> out.YourTurn | None:
        """``YourTurn`` the first time this seat is awaited for a move at the open step."""
        exp = self.own_due()
        if exp is None or exp.kind != "action" or self._announced == self.chain.step:
            return None
        self._announced = self.chain.step
        assert self.shared.seat is not None
        return out.YourTurn(self.hand, self.state.view(self.shared.seat))

    def action_body(self, text: str) -> dict[str, Any]:
        """Check this seat's own move and build its body; ``ActionError`` if it is not legal now."""
        seat = self.shared.seat
        exp = self.expect
        if seat is None or exp is None or exp.kind != "action" or exp.seats != (seat,):
            raise ActionError("it is not your turn")
        if self.chain.lookup(self.chain.step, seat) is not None:
            raise ActionError("you have already moved")
        state = self.state
        action = state.parse(text)
        self.check_own(state, action)
        positions = sorted(state.reveals(action))
        due = [p for p in positions if not self.published.get(p, 0) >> seat & 1]
        return {
            "a": self.shared.rules.action_text(action),
            "pos": positions,
            "shares": self.dealer.make_shares(self.chain.step, self.chain.head, due),
        }

    def check_own(self, state: HandState, action: Action) -> None:
        """Refuse our own illegal move before anything is signed (the seat knows its own cards)."""
        state.clone().apply(action)  # raises ActionError naming the legal moves; ``state`` is untouched

    # ================================================================ applying sealed steps

    def _apply_step(self, step: Step) -> None:
        exp = self.expect
        assert exp is not None
        self.expect = None
        try:
            text = self._apply(exp, step)
        except Foul as foul:
            evidence = tuple(m.data for m in step.messages if m.seat == foul.seat)
            self._stop(foul, step.number, evidence)
            return
        seats = tuple(m.seat for m in step.messages)
        self.events.append(out.StateChanged(step.number, self.digest(), self.hand, exp.kind, seats, text))

    def _stop(self, foul: Foul, step: int, evidence: tuple[bytes, ...]) -> None:
        self.fault = AttemptFault(foul.seat, step, foul.kind, foul.message, evidence)
        self.expect = None

    def _apply(self, exp: Expect, step: Step) -> str:
        msgs = step.messages
        for m in msgs:
            if m.kind != exp.kind:
                raise Foul(m.seat, "bad-message", f"sent {m.kind!r} where {exp.kind!r} was due")
        if exp.kind in ("key_commit", "key_reveal", "shuffle"):
            try:
                self.dealer.accept(exp.kind, step.number, [(m.seat, m.body) for m in msgs])
            except DealFault as exc:
                raise Foul(exc.seat, exc.kind, str(exc)) from exc
            self.prelude.pop(0)
            return ""
        if exp.kind in ("share", "reveal", "audit"):
            for m in msgs:
                try:
                    shares = bodies.shares_body(m.body)
                except bodies.BodyError as exc:
                    raise Foul(m.seat, "bad-message", str(exc)) from exc
                self._take_shares(step.number, m.seat, exp.owed[m.seat], shares)
            if exp.kind == "audit":
                self._finish()
            elif exp.kind == "reveal" and exp.need is None:
                return self.apply_pending()
            else:
                self._fulfil(exp.need)
            return ""
        assert exp.kind == "action"
        (m,) = msgs
        return self._take_action(step.number, m)

    def _take_shares(self, step: int, seat: int, positions: Sequence[int], body: Any) -> None:
        try:
            self.dealer.accept_shares(step, seat, positions, body)
        except DealFault as exc:
            raise Foul(seat, exc.kind, str(exc)) from exc
        for p in positions:
            self.published[p] = self.published.get(p, 0) | 1 << seat

    def _fulfil(self, need: Any) -> None:
        values: dict[int, int] = {}
        me = self.shared.seat
        if isinstance(need, Deal):
            if need.disclose:
                for owner, positions in need.hands:
                    for p in positions:
                        if self.is_public(p):
                            values[p] = self._open(p, own=False)
                        elif owner == me:
                            values[p] = self._open(p, own=True)
        elif isinstance(need, Disclose):
            for p in need.positions:
                if self.is_public(p):
                    values[p] = self._open(p, own=False)
                elif need.seat == me:
                    values[p] = self._open(p, own=True)
        else:
            assert isinstance(need, Reveal)
            for p in need.positions:
                values[p] = self._open(p, own=False)
        try:
            self.state.fulfil(values)
        except FulfilError as exc:
            # Only a deck that holds a card twice could get here: the deck itself is wrong.
            raise Foul(-1, "bad-message", f"the deal does not fit the hand: {exc}") from exc

    def _open(self, position: int, *, own: bool) -> int:
        try:
            return self.dealer.open(position, own)
        except DealFault as exc:
            # Every share was proved correct, so a position that opens to no card means the deck was
            # built wrong before the shuffles, which every replica recomputed: it cannot happen.
            raise Foul(-1, "bad-message", str(exc)) from exc

    def _take_action(self, step: int, m: SignedMessage) -> str:
        try:
            body = bodies.action_body(m.body)
        except bodies.BodyError as exc:
            raise Foul(m.seat, "bad-message", str(exc)) from exc
        if not set(body.positions) <= set(hand_positions(self.state, m.seat)):
            raise Foul(m.seat, "illegal-action", "tried to show a card that is not in its hand")
        try:
            action = self.shared.rules.parse_action(body.text)
        except ActionError as exc:
            raise Foul(m.seat, "illegal-action", str(exc)) from exc
        written = self.shared.rules.action_text(action)
        if body.text != written:
            # The parser is lenient for people (``PLAY as``, ``bid 0``); on the wire only the one text
            # form is an action, so that every implementation accepts exactly the same messages.
            raise Foul(m.seat, "illegal-action", f"{body.text!r} is not an action's text form ({written!r})")
        due = [p for p in body.positions if not self.published.get(p, 0) >> m.seat & 1]
        self._take_shares(step, m.seat, due, body.shares)
        self.pending = (action, body.positions, m.seat)
        if not self._owed(body.positions, self.holders):
            return self.apply_pending()
        return ""

    def apply_pending(self) -> str:
        """Apply the move whose cards are all shown now, after checking it; the text it was.  A
        declared seam: a test cheater's replica replaces it to stay blind to its own renege
        (``p2pcards.harness.byzantine``)."""
        assert self.pending is not None
        action, positions, seat = self.pending
        self.pending = None
        state = self.state
        rules = self.shared.rules
        for p in positions:
            card = self._open(p, own=False)
            try:
                state.observe(p, card)
            except FulfilError as exc:
                raise Foul(seat, "illegal-action", str(exc)) from exc
        try:
            expected = tuple(sorted(state.reveals(action)))
        except GameError as exc:
            raise Foul(seat, "illegal-action", str(exc)) from exc
        if expected != tuple(sorted(positions)):
            raise Foul(
                seat,
                "illegal-action",
                f"showed positions {sorted(positions)} for "
                f"{rules.action_text(action)!r}, which shows {list(expected)}",
            )
        try:
            state.apply(action)
        except ActionError as exc:
            raise Foul(
                seat, "illegal-action", exc.reason if exc.rule is None else f"{exc.reason} ({exc.rule})"
            ) from exc
        return rules.action_text(action)

    def _dummy_move(self, seat: int) -> bool:
        """An open dummy's move: every replica computes it from public information alone.  True if a
        reveal round must come first (it cannot, the dummy's cards being public, but it is safe)."""
        policy = self.shared.dummy_policy
        if policy is None:
            raise Foul(-1, "bad-message", f"seat {seat} is an open dummy in a game that has none")
        rules = self.shared.rules
        record = self.state.record()
        public = tuple(c if self.is_public(p) else UNKNOWN for p, c in enumerate(record.deck))
        known = HandRecord(record.game, record.options, record.setup, public, record.actions)
        # The dummy's move is computed from the public history replayed; a rule broken there (a
        # renege that public cards show) is the fault of the seat that broke it, found before the
        # dummy moves, never a fault of nobody's that stops the game.
        shown = rules.audit(known)
        if not shown.ok and shown.seat is not None:
            raise Foul(shown.seat, "renege", str(shown))
        try:
            view = rules.replay(known).view(seat)
            seed = hashlib.sha256(b"p2pcards/dummy\x00" + self.shared.game_id + self.hand.to_bytes(8, "big"))
            action = policy(view, seed.digest())
            positions = tuple(sorted(self.state.reveals(action)))
        except GameError as exc:
            raise Foul(-1, "bad-message", f"the open dummy of seat {seat} cannot move: {exc}") from exc
        self.pending = (action, positions, seat)
        if self._owed(positions, self.holders):
            return True
        text = self.apply_pending()
        self.events.append(
            out.StateChanged(self.chain.step, self.digest(), self.hand, "dummy", (seat,), text)
        )
        return False

    # ================================================================ the end of the hand

    def _finish(self) -> None:
        state = self.state
        deck = list(state.card_at)
        for p in self.audit_positions():
            if deck[p] == UNKNOWN:
                deck[p] = self._open(p, own=False)
        record = state.record()
        full = HandRecord(record.game, record.options, record.setup, tuple(deck), record.actions)
        verdict = self.shared.rules.audit(full)
        if not verdict.ok:
            seat = verdict.seat if verdict.seat is not None else -1
            raise Foul(seat, "renege", str(verdict))
        self.audit = verdict
        try:
            self.settled = self.match.settle(state)
        except GameError as exc:
            raise Foul(-1, "bad-message", f"the hand cannot be settled: {exc}") from exc
        self.complete = True
        self.seal_step = self.chain.step
        self.seal_prev = self.chain.head
        self.result = seal_result(self.hand, state, self.settled)
        self.events.append(out.HandOver(self.hand, state, verdict, summary(state), self.settled))

    def required_sealers(self, excused: Iterable[int]) -> tuple[int, ...]:
        gone = set(excused) | set(self.bad_seals)
        return tuple(s for s in self.holders if s not in gone)

    def sealed(self, excused: Iterable[int]) -> bool:
        """Every seat still required has signed a valid seal (``excused``: cheaters, seats silent at
        the seal)."""
        return self.complete and all(s in self.seals for s in self.required_sealers(excused))


def seal_result(hand: int, state: HandState, settled: Match) -> bytes:
    """What a seal signs: the hand's number, its public history (the hand digest) and the standings
    after it, in their canonical encoding (``protocol/SPEC.md``, the seal): values every
    implementation computes alike, never a sentence written for people."""
    standings = settled.standings().encode()
    return hashlib.sha256(SEAL_TAG + canonical((hand, state.digest(), standings, settled.over))).digest()


def hand_positions(state: HandState, seat: int) -> tuple[int, ...]:
    for name, ps in state.zones():
        if name == f"hand {seat}":
            return ps
    return ()


def summary(state: HandState) -> str:
    result = state.result
    text = getattr(result, "summary", None)
    return text() if callable(text) else str(result)
