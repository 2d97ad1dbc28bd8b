"""An exhaustive check of the rule (SPEC §6.5, §9.6, §10) on an abstract table, driving the production
rule code: ``claims``, ``decide``, ``policy`` and the glue in ``held`` that reads held messages into
decisions (``held.note``, ``held.latest``, ``held.binding_at``, ``held.consent_due``), with
``claims.went_on``, ``claims.left_behind``, ``claims.restore_wait`` and the invariant predicates.

``model_check`` drives whole replicas (``table.Table``): exact, and too slow to reach one whole vote,
consent and restore cycle.  This checker keeps of a replica only what the rule reads, and calls the
same functions the replica calls on it, so every reachable state of the abstract table is explored
to a depth that covers the cycle.

*What the abstraction keeps.*

* The voices (people) and their seats: computer seats (run by a person's machine, so their voice is
  that person's) and watchers (seats out of chips: at the table, with a voice, never awaited);
  a cheating minority of voices.
* **One attempt** of one hand, or (``attempts``) more: steps ``0 .. S-1``, step ``s`` awaiting one key
  holder (``turn[s]``, the holders in turn).  A replica whose attempt a decision ends deals the hand
  again as ``derive`` does (``_canonical``, ``_attempt_for``): without the seats the decision names, from
  the start head ``seating.start_head`` gives for the hand's start and the changes so far, its steps
  numbered from the hand's start again, the turn the same order without those seats; the claims it
  holds of every earlier attempt are still read (``held.binding_at`` over each attempt, the earliest
  decision of each), so a claim that arrives late can change which attempt a replica plays.  A step
  is one opaque signed ``action`` message (``wire`` ``SignedMessage``, signed once per abstract
  message and cached); the head after step ``s`` is that message's hash, so a second message for a
  step (an equivocation, or a restored seat saying otherwise) starts another branch of heads, as on
  the real chain.
* Votes, abandons and returns as real signed claims with real bodies (``bodies``), at any step and
  head they can name.
* Per honest machine (one per voice): the set of messages it holds (its journal) and its restart state
  — restoring or not, and whom it still waits for (``claims.restore_wait``); restoring, it signs no
  move and no abandon, but the votes ``claims.repeats`` allows, as ``clocks.claim_due`` does (every
  step of this table awaits one seat, so every vote is one it could sign whenever: the check shows
  that signing them while restoring never double-signs; a step awaiting several voices, where
  ``repeats`` refuses, is the dealer's, not modelled).  Everything the rule
  says about a replica is a function of these: the decision it takes, the decision it is told about
  (``pending_gone``/``half_gone``, as ``derive`` records them), whom it convicts.

*What it drops, and why that is sound for the rule.*

* **Game moves.**  The rule never reads a body of a step: only who signed which step after which head
  (``held.latest``, ``Attempt.awaited_at``, ``head_before``).  A move's content matters only in that a
  restored seat may say otherwise; so a machine's move body is its restart count, and every move it
  signs again after a restart differs from the one before.
* **Attempts beyond ``attempts``, and hands.**  A replica whose last attempt a decision ends signs
  nothing more.  Of ``derive``'s attempts it keeps the canonical path only: a cheater convicted ends
  the model (the real replica deals again without it; here its two messages are simply not placed), and
  the forks at an equivocation and an attempt played to its end before the verdicts were known
  (``_complete_attempt``) are not modelled, nor are seals, or spending at the seal of the last final
  hand by the next hand.  A cheater signs in the attempts some replica deals (an honest one from what
  it holds, or one holding everything signed), at any head held there.
* **Time.**  ``policy.due`` is asked with every clock that could be: the move clock run out, and any
  set of the other voices disconnected — every claim the policy could produce at some time.
* **Frames.**  A message, once signed, may reach any honest replica at any later moment, in any order
  (``d``), or everything on its way to one replica at once (``D``, so that hearing late costs one
  event, not one per message: the states it reaches are reached by ``d`` too, deeper).  A frame lost
  is a frame late, since the invariants are about what happened and a prefix of a run that lost a
  frame is a prefix of one where it came late.  Cheaters see every message at once.
* **Relaying and catch-up requests.**  A peer's catch-up answer to a restoring machine (``A``) carries
  everything that peer holds (an honest one) or nothing (a cheater: it may answer as if it held
  nothing); either way it counts as answered (``claims.restore_wait``).  ``A*``: every peer's answer
  at once, and ``D*``: every honest machine hears everything (the network heals) — each one event
  for what ``A`` and ``D`` reach in several, so that a whole cycle fits in fewer events.
* **The documented limit of the restore** (SPEC §9.6, docs/security.md): a restart from an older copy
  is only explored when every own message that copy lacks reached an honest peer the restored seat
  will wait for.  A message that reached only a cheater, who answers as if it held nothing, can be
  shown later, and no rule can prevent it: no peer's word proves what a seat never signed.
* **A cheater's return**: a replica reads only its own voice's returns as consent
  (``Held.consents``), so a cheater's return changes no honest replica.

*The invariants*, after every event, on every honest replica: the ``claims`` predicates
(``no_honest_seat_convicted``, ``binds_only_by_majority``, ``present_seat_dealt_out_only_by_majority``
with every honest voice present, ``same_messages_same_state`` — the replica derived from its messages
read in two orders), and, with an oracle of their own from what the replica holds: *never
double-sign* (no honest seat signed two different steps, votes or abandons for one step after one
head), *consent names a decision* (a decision naming the replica's voice is taken only with that
voice's return at that decision's step and head), *every voice spends* (a majority's decision taken
has more than half of the voices with a vote no message the replica holds spends).

*Reductions*, each sound for these invariants:

* **State hashing.**  A state is the tuple of what each machine holds and its restart state, what was
  signed, and the budgets spent; every invariant is a function of it, and so is every event that can
  follow.  A state reached again at no greater depth is not explored again.  This merges the
  interleavings of deliveries to different replicas, which commute (a delivery changes one replica's
  held set and nothing else), so that every order of them is one state.
* **Lazy deliveries.**  After a single delivery to replica ``r``, the next event is a delivery to
  ``r`` again or an event that reads what ``r`` holds (its own, a restart's check of its peers, a
  catch-up answer from it, a cheater's in a later attempt); any other is cut.  A delivery changes
  nothing but ``r``'s held set and an event that does not read it does the same before it as after
  it, so each path cut reaches the state of a path with the delivery moved on — to right before the
  next event that reads ``r``'s messages, or to the end — which is tried, at the same length.  What the
  cut states held is judged all the same: every invariant is a function of one replica's held set
  (or of what was signed), and the held set each replica has in a cut state is the one it has in a
  state tried, right after the deliveries to it (the test compares every held set and every signed
  set reached with and without the reduction).  ``D`` (everything signed so far, to one replica) is not
  moved later past a signature.  ``Bounds.lazy`` False: every delivery at every moment, only the two
  orders of two deliveries to different replicas merged.  A state's record keeps what it was explored
  under (any event next, or only those after a delivery to one replica), and a state reached again
  under a restriction it was not explored under is explored again.
* **Held sets judged once.**  The invariants of a replica are a function of its voice and what it
  holds, so each (voice, held set) is judged once, however many states hold it.
* **Symmetry.**  Honest voices are interchangeable only up to the turn order (there are no cards), so
  no permutation of seats maps a state to another one here except of honest watchers, which are never
  awaited: in the ``5w`` shape their two voices are swapped into a canonical order before hashing.

A violation is shrunk (events removed while the same invariant breaks) and printed as a command that
replays it: ``p2pcards harness GAME --rule-check --shape SHAPE --replay EVENTS``.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

from p2pcards.table import claims, clocks, decide, held, policy
from p2pcards.table.claims import ABANDON, VOTE, Decision
from p2pcards.table.held import Held
from p2pcards.table.seating import Change, start_head
from p2pcards.table.voices import Voices
from p2pcards.wire import Envelope, SignedMessage, key_from_seed, sign

GAME_ID = hashlib.sha256(b"p2pcards/rule-check").digest()
START = hashlib.sha256(b"p2pcards/rule-check/start").digest()
"""The head before step 0 of the one attempt."""


@dataclass(frozen=True)
class Shape:
    name: str
    runner: tuple[int, ...]
    """Per seat, the seat of the person whose voice it is (itself for a person)."""
    holders: tuple[int, ...]
    """The key holders: the seats awaited in turn; the others at the table watch."""
    cheaters: tuple[int, ...]
    """The cheating voices (a minority)."""
    order: tuple[int, ...] = ()
    """The turn order of the holders, if not ascending."""

    @property
    def n(self) -> int:
        return len(self.runner)

    @property
    def voices(self) -> tuple[int, ...]:
        return tuple(sorted(set(self.runner)))

    @property
    def honest(self) -> tuple[int, ...]:
        return tuple(v for v in self.voices if v not in self.cheaters)


SHAPES = {
    "3": Shape("3", (0, 1, 2), (0, 1, 2), (2,)),
    "4": Shape("4", (0, 1, 2, 3), (0, 1, 2, 3), (3,)),
    "5": Shape("5", (0, 1, 2, 3, 4), (0, 1, 2, 3, 4), (3, 4)),
    "5c": Shape("5c", (0, 1, 2, 0, 1), (0, 1, 2, 3, 4), (2,), (0, 3, 1, 4, 2)),
    "5w": Shape("5w", (0, 1, 2, 3, 4), (0, 1), (4,)),
    "4o": Shape("4o", (0, 1, 2, 3), (0, 1, 2, 3), (3,), (0, 3, 1, 2)),
}
"""3 and 4 people, one cheating; 5 people, two cheating; ``5c``: five seats of three voices (seats 3
and 4 are computer players run by seats 0 and 1, and move right after them), one cheating; ``5w``:
five voices of which only seats 0 and 1 hold keys and the others watch (Azi's seats out of chips),
one watcher cheating; ``4o``: four people, the cheater second in turn (so that it can be voted out,
and a second attempt dealt, in a few events)."""

REINTRODUCE = ("sign-without-waiting", "consent-by-step", "spent-by-signer", "minority-binds")
"""The fixes of issue 27's rule classes, each undone by replacing one function (``reintroduced``):

* ``sign-without-waiting`` (class 1): ``claims.restore_wait`` waits for nobody, so a machine restored
  from an older copy signs again at once;
* ``consent-by-step`` (class 2): ``claims.consents_to`` accepts any decision at or before the step of a
  return, not the one decision it names — found only with ``minority-binds`` too, over two attempts
  (today's ``binds`` takes a decision naming a voice only if it is a majority's or half the table's,
  and the only such decision a return could misname is spent, or comes later in change order);
* ``spent-by-signer`` (class 3): ``held.latest`` counts only step messages, so a claim is spent only
  by a voice that signs steps, and a watcher's old vote stays completable;
* ``minority-binds`` (class 4): ``claims.binds`` lets a decision naming a voice bind it on its consent
  alone, a minority's word included."""


@dataclass(frozen=True)
class Bounds:
    depth: int = 8
    steps: int = 3
    """Steps of the attempt."""
    restarts: int = 1
    back: int = 1
    """How many of its own last messages an older journal copy may lack."""
    cheats: int = 1
    """Cheaters' messages other than a first step message at one head, per path."""
    states: int = 10_000_000
    attempts: int = 1
    """Attempts of the hand a replica may deal: after a decision in one, the next is dealt without the
    seats it names (``seating.start_head``), up to this many; a decision in the last ends the model."""
    lazy: bool = True
    """Deliveries to a replica only right before an event that reads what it holds (``Search``);
    False: every delivery at every moment (the same states judged, for comparison)."""


Key = tuple[Any, ...]
"""An abstract message: ("s", step, prev, seat, variant), ("v"|"a", step, prev, seat, voices) or
("q", step, prev, seat)."""


class Signer:
    """Every abstract message as a real signed message, signed once."""

    def __init__(self, n: int) -> None:
        self.keys = [key_from_seed(bytes([i + 1]) * 32) for i in range(n)]
        self.cache: dict[Key, SignedMessage] = {}
        self.hashes: dict[Key, bytes] = {}

    def msg(self, key: Key) -> SignedMessage:
        m = self.cache.get(key)
        if m is None:
            kind, step, prev, seat = key[0], key[1], key[2], key[3]
            if kind == "s":
                env = Envelope(game_id=GAME_ID, step=step, seat=seat, prev=prev, kind="action",
                               body={"v": key[4]})
            elif kind == "q":
                env = Envelope(game_id=GAME_ID, step=step, seat=seat, prev=prev, kind="return", body={})
            else:
                env = Envelope(game_id=GAME_ID, step=step, seat=seat, prev=prev,
                               kind=VOTE if kind == "v" else ABANDON, body={"silent": list(key[4])})
            m = self.cache[key] = sign(env, self.keys[seat])
            self.hashes[key] = m.hash
        return m

    def hash(self, key: Key) -> bytes:
        got = self.hashes.get(key)
        if got is None:
            got = self.msg(key).hash
        return got


def short(h: bytes) -> str:
    return h.hex()[:6]


@dataclass(frozen=True)
class State:
    held: tuple[frozenset[Key], ...]
    """Per voice, what its machine holds (a cheater's: nothing; it sees ``signed``)."""
    wait: tuple[frozenset[int] | None, ...]
    """Per voice, restoring: the seats it has no answer from; None: not restoring."""
    gen: tuple[int, ...]
    """Per voice, its machine's restarts: the variant of every move it signs."""
    log: tuple[tuple[tuple[Key, frozenset[Key]], ...], ...]
    """Per voice, its last own messages, each with what it held before signing it."""
    signed: frozenset[Key]
    cheats: int = 0
    restarts: int = 0


@dataclass(frozen=True)
class Deal:
    """How an attempt is dealt: its start head, who is at its table, who holds keys, the turn."""

    start: bytes
    at_table: tuple[int, ...]
    holders: tuple[int, ...]
    turn: tuple[int, ...]


class AbstractAttempt:
    """One attempt as one replica holds it: a ``decide.AttemptView`` and ``policy.OpenAttempt``."""

    def __init__(self, deal: Deal, chain: list[SignedMessage], heads: list[bytes]) -> None:
        self.deal = deal
        self.at_table = deal.at_table
        self.active = deal.holders
        self.turn = deal.turn
        self.chain = chain
        self.heads = heads
        """The head before each step held, and after the last."""

    @property
    def step(self) -> int:
        return len(self.chain)

    @property
    def missing(self) -> tuple[int, ...]:
        return (self.turn[self.step],) if self.step < len(self.turn) else ()

    def holds(self, step: int, seat: int) -> bool:
        return step < len(self.chain) and self.chain[step].seat == seat

    def awaited_at(self, step: int) -> tuple[int, ...]:
        return (self.turn[step],) if step <= len(self.chain) and step < len(self.turn) else ()

    def head_before(self, step: int) -> bytes | None:
        return self.heads[step] if 0 <= step < len(self.heads) else None

    def messages(self) -> list[SignedMessage]:
        return list(self.chain)


@dataclass
class View:
    """What the rule makes of what one machine holds."""

    att: AbstractAttempt
    """The attempt this replica plays: the last it dealt."""
    held: Held
    convicted: set[int]
    taken: Decision | None
    """The decision this replica takes in its last attempt (the earliest step with one): it ends there."""
    playing: int
    digest: bytes
    path: list[tuple[AbstractAttempt, Decision, int]] = field(default_factory=list)
    """Each attempt it dealt that a decision ended, with that decision and the voices playing it."""
    due: list[tuple[str, tuple[int, ...]]] | None = None
    """The claims ``policy`` lets this voice sign at the open step (``Checker._due``), once asked."""


class Violation(Exception):
    def __init__(self, message: str, invariant: str) -> None:
        super().__init__(message)
        self.invariant = invariant


INVARIANTS = (
    "no-honest-seat-convicted",
    "a-decision-binds-only-by-majority",
    "a-present-seat-is-dealt-out-only-by-a-majority",
    "same-messages-same-state",
    "never-double-sign",
    "consent-names-a-decision",
    "every-voice-spends",
)


def _slot(key: Key) -> tuple[Any, ...] | None:
    """Two different messages of one slot are an equivocation (a return is the same bytes always)."""
    return None if key[0] == "q" else (key[0], key[1], key[2], key[3])


class Checker:
    def __init__(self, shape: Shape, bounds: Bounds) -> None:
        self.shape = shape
        self.bounds = bounds
        self.voices = Voices(shape.runner)
        self.signer = Signer(shape.n)
        order = shape.order or shape.holders
        self.order = order
        self.turn = tuple(order[i % len(order)] for i in range(bounds.steps))
        self.first = Deal(START, tuple(range(shape.n)), shape.holders, self.turn)
        self.deals: dict[tuple[bytes, Change], Deal] = {}
        self._changes: dict[bytes, tuple[Change, ...]] = {START: ()}
        self.cheat_seats = frozenset(s for s in range(shape.n) if shape.runner[s] in shape.cheaters)
        self.views: dict[tuple[int, frozenset[Key]], View] = {}
        self.judged: set[tuple[int, frozenset[Key]]] = set()
        self.honest = shape.honest
        self.all_voices = shape.voices

    # ---------------------------------------------------------------- deriving a replica

    def view(self, me: int, have: frozenset[Key]) -> View:
        got = self.views.get((me, have))
        if got is None:
            if len(self.views) > 400_000:
                self.views.clear()
            got = self.views[(me, have)] = self._derive(me, sorted(have))
        return got

    def _derive(self, me: int, keys: Sequence[Key]) -> View:
        sig = self.signer.msg
        h = Held()
        convicted: set[int] = set()
        steps: dict[tuple[int, bytes], list[Key]] = {}
        slots: dict[tuple[Any, ...], Key] = {}
        for key in keys:
            m = sig(key)
            if key[0] == "s":
                steps.setdefault((key[1], key[2]), []).append(key)
                other = slots.setdefault(("s", key[1], key[2], key[3]), key)
                if other != key:
                    convicted.add(key[3])
            elif key[0] == "q":
                if self.voices.voice(key[3]) == me:
                    h.consents.append(m)
            else:
                first = held.note(h.votes if key[0] == "v" else h.abandons, m)
                if not isinstance(first, bool):
                    convicted.add(key[3])
        # The attempts this replica deals, as ``derive`` deals them at one hand: the first; while a
        # decision ends the last, the next without the seats it names (up to ``bounds.attempts``).
        deal = self.first
        path: list[tuple[AbstractAttempt, Decision, int]] = []
        d = hashlib.sha256(b"view")
        while True:
            att = self._attempt(deal, steps)
            playing = len(decide.playing(self.voices, att))
            taken = None if convicted else self._taken(h, me, att)
            # A cheater convicted voids the attempt (it is dealt again without it, out of this model's
            # scope): which of its two messages a replica placed first no longer matters.
            for head in att.heads if not convicted else ():
                d.update(head)
            if taken is None:
                break
            path.append((att, taken, playing))
            d.update(repr((taken.step, taken.prev, taken.silent, taken.majority)).encode())
            if len(path) >= self.bounds.attempts:
                break
            deal = self.deal_after(deal, taken)
        d.update(repr(sorted(convicted)).encode())
        for dec in (h.pending_gone, h.half_gone):
            d.update(b"-" if dec is None else repr((dec.step, dec.prev, dec.silent, dec.majority)).encode())
        last = path[-1][1] if path and path[-1][0] is att else None
        return View(att, h, convicted, last, playing, d.digest(), path=path)

    def _attempt(self, deal: Deal, steps: dict[tuple[int, bytes], list[Key]]) -> AbstractAttempt:
        """The attempt ``deal`` along the step messages held (the first held at each head)."""
        chain: list[SignedMessage] = []
        head = deal.start
        heads = [head]
        while len(chain) < len(deal.turn):
            here = [k for k in steps.get((len(chain), head), []) if k[3] == deal.turn[len(chain)]]
            if not here:
                break
            chain.append(self.signer.msg(here[0]))
            head = self.signer.hash(here[0])
            heads.append(head)
        return AbstractAttempt(deal, chain, heads)

    def _taken(self, h: Held, me: int, att: AbstractAttempt) -> Decision | None:
        """The decision this replica takes in ``att``: at its earliest step with one (``derive``'s
        ``_internal_verdict``), recording what it is told as ``derive`` does."""
        latest = held.latest(h, att)
        for step in range(len(att.heads)):
            prev = att.heads[step]
            if (step, prev) not in h.votes and (step, prev) not in h.abandons:
                continue
            later = claims.went_on(self.voices, latest, step)
            decision, told = held.binding_at(h, self.voices, me, att, step, prev, later, self.shape.n)
            # As ``derive`` records them: half the table's word, the latest majority's decision.
            for about in told:
                if about.half:
                    h.half_gone = about
                elif about.majority:
                    h.pending_gone = about
            if decision is not None:
                return decision
        return None

    def deal_after(self, deal: Deal, decision: Decision) -> Deal:
        """The attempt dealt after ``decision`` ended ``deal``: the same hand (its steps numbered from
        the hand's start again), without the seats named, its start head ``seating.start_head`` of the
        hand's start and the changes so far (``derive._attempt_for``)."""
        change = claims.change_of(decision)
        got = self.deals.get((deal.start, change))
        if got is None:
            changes = [change, *self._changes.get(deal.start, ())]
            start = start_head(START, changes)
            holders = tuple(s for s in deal.holders if s not in decision.seats)
            at_table = tuple(s for s in deal.at_table if s not in decision.seats)
            order = [s for s in self.order if s in holders]
            turn = tuple(order[i % len(order)] for i in range(self.bounds.steps)) if order else ()
            got = self.deals[(deal.start, change)] = Deal(start, at_table, holders, turn)
            self._changes[start] = tuple(changes)
        return got

    def blocked(self, st: State, v: int, vw: View) -> tuple[int, ...]:
        wait = st.wait[v]
        if wait is None:
            return ()
        out = [s for _, d, _ in vw.path for s in d.seats]
        return claims.restore_wait(wait, self.shape.n, vw.convicted, out)

    # ---------------------------------------------------------------- events

    def start(self) -> State:
        nv = self.shape.n
        return State(
            held=tuple(frozenset() for _ in range(nv)),
            wait=tuple(None for _ in range(nv)),
            gen=tuple(0 for _ in range(nv)),
            log=tuple(() for _ in range(nv)),
            signed=frozenset(),
        )

    def _sign(self, st: State, v: int, key: Key) -> State:
        """Voice ``v``'s machine signs ``key``: it holds it at once."""
        have = st.held[v] | {key}
        # (With no restart left, what an older copy would hold can never matter: not kept, so that
        # states that differ only there are one.)
        spare = st.restarts < self.bounds.restarts and self.bounds.back > 0
        log = (*st.log[v], (key, st.held[v]))[-self.bounds.back:] if spare else ()
        return replace(st, held=_put(st.held, v, have), log=_put(st.log, v, log),
                       signed=st.signed | {key})

    def events(self, st: State) -> list[tuple[str, State]]:
        found: list[tuple[str, State]] = []
        for v in self.honest:
            found += self._honest(st, v)
        found += self._cheats(st)
        for v in self.honest:
            lacks = st.signed - st.held[v]
            for key in sorted(lacks):
                found.append((f"d{v}.{short(self.signer.hash(key))}",
                              replace(st, held=_put(st.held, v, st.held[v] | {key}))))
            if len(lacks) > 1:
                # Everything on its way arrives at once: what a machine hears late costs one event.
                found.append((f"D{v}", replace(st, held=_put(st.held, v, st.signed))))
        behind = [v for v in self.honest if st.held[v] != st.signed]
        if len(behind) > 1:
            # The network heals: every honest machine hears everything (one event, as ``D`` for each).
            everyone = tuple(st.signed if v in self.honest else h for v, h in enumerate(st.held))
            found.append(("D*", replace(st, held=everyone)))
        return found

    def _honest(self, st: State, v: int) -> list[tuple[str, State]]:
        found: list[tuple[str, State]] = []
        vw = self.view(v, st.held[v])
        att, h = vw.att, vw.held
        waits = self.blocked(st, v, vw)
        settled = vw.taken is None and not vw.convicted
        step = att.step
        if settled and step < len(att.turn):
            head = att.heads[step]
            mover = att.turn[step]
            if self.voices.voice(mover) == v:
                if not waits:
                    found.append((f"m{v}", self._sign(st, v, ("s", step, head, mover, st.gen[v]))))
            else:
                if vw.due is None:
                    vw.due = self._due(v, att, h)
                at = decide.view(att, step, head)
                for kind, named in vw.due:
                    if waits and not claims.repeats(kind, named, self.voices, at, v):
                        continue  # restoring: only what is the same bytes whenever signed (``claim_due``)
                    key = ("v" if kind == VOTE else "a", step, head, v, named)
                    if key not in st.held[v]:
                        tag = "v" if kind == VOTE else "a"
                        found.append((f"{tag}{v}-{_names(named)}", self._sign(st, v, key)))
        # A return: to a majority's decision that leaves this voice behind, or, restoring, to half the
        # table's word naming a seat it waits for (the same bytes whenever signed: no wait needed).
        consents = held.consent_keys(h)
        pending = h.pending_gone
        for d in ((pending if claims.left_behind(pending, consents) else None),
                  held.consent_due(h, self.voices.among(waits))):
            if d is not None:
                ret: Key = ("q", d.step, d.prev, v)
                if ret not in st.held[v]:
                    found.append((f"q{v}", self._sign(st, v, ret)))
                    break
        if st.restarts < self.bounds.restarts:
            for back in range(0, min(self.bounds.back, len(st.log[v])) + 1):
                nxt = self._restart(st, v, back)
                if nxt is not None:
                    found.append((f"r{v}.{back}", nxt))
        wait = st.wait[v]
        if wait is not None:
            for fv in sorted({self.voices.voice(s) for s in wait}):
                have = st.held[v]
                if fv in self.honest:
                    have = have | st.held[fv]
                left = frozenset(s for s in wait if self.voices.voice(s) != fv)
                nxt = replace(st, held=_put(st.held, v, have), wait=_put(st.wait, v, left or None))
                found.append((f"A{v}.{fv}", nxt))
            if len({self.voices.voice(s) for s in wait}) > 1:
                # Every peer's answer arrives at once (one event, as each ``A`` in turn).
                have = st.held[v]
                for w in self.honest:
                    if any(self.voices.voice(s) == w for s in wait):
                        have = have | st.held[w]
                nxt = replace(st, held=_put(st.held, v, have), wait=_put(st.wait, v, None))
                found.append((f"A{v}*", nxt))
        return found

    def _due(self, v: int, att: AbstractAttempt, h: Held) -> list[tuple[str, tuple[int, ...]]]:
        """Every claim ``policy.due`` lets voice ``v`` sign at the open step at some clock: the move
        clock run out, and any set of the other voices disconnected.  What is held is read as the
        replica reads it (``clocks.claims_at``)."""
        key = (att.step, att.heads[att.step])
        at_step = clocks.claims_at(h, *key, v, self.shape.n)
        if at_step is None:
            return []
        held_claims, gone_on = at_step
        votes = h.votes.get(key, {})
        others = [w for w in self.all_voices if w != v]
        found: set[tuple[str, tuple[int, ...]]] = set()
        for k in range(len(others) + 1):
            for away in combinations(others, k):
                now = policy.DISCONNECTED_MS
                heard = {w: (0 if w in away else now) for w in self.all_voices}
                c = policy.due(policy.Observed(self.voices, att, v, now, now, heard, 0, 0, held_claims,
                                               v in votes, gone_on))
                if c is not None:
                    found.add((c.kind, c.named))
        return sorted(found)

    def _restart(self, st: State, v: int, back: int) -> State | None:
        log = st.log[v]
        have = st.held[v] if back == 0 else log[len(log) - back][1]
        wait = frozenset(s for s in range(self.shape.n) if self.voices.voice(s) != v)
        nxt = replace(st, held=_put(st.held, v, have), wait=_put(st.wait, v, wait),
                      gen=_put(st.gen, v, st.gen[v] + 1), log=_put(st.log, v, ()),
                      restarts=st.restarts + 1)
        lost = st.held[v] - have
        if lost:
            # The documented limit: what the old copy lacks must have reached an honest peer it waits for.
            # (Read from the rule as stated, not from ``claims.restore_wait``, which a reintroduction
            # may replace: the honest peers neither convicted nor dealt out on the restored replica.)
            vw = self.view(v, have)
            out = {w for _, d, _ in vw.path for w in d.silent}
            peers = [w for w in self.honest if w != v and w not in out and w not in vw.convicted]
            if not all(any(k in st.held[w] for w in peers) for k in lost):
                return None
        return nxt

    def _cheats(self, st: State) -> list[tuple[str, State]]:
        found: list[tuple[str, State]] = []
        spare = st.cheats < self.bounds.cheats
        for step, head, deal in self._heads(st):
            if step >= len(deal.turn):
                continue
            mover = deal.turn[step]
            if mover in self.cheat_seats:
                for variant in (0, 1):
                    key: Key = ("s", step, head, mover, variant)
                    if key in st.signed or (variant and not spare):
                        continue
                    nxt = replace(st, signed=st.signed | {key}, cheats=st.cheats + variant)
                    found.append((f"c{mover}.m{step}.{short(head)}.{variant}", nxt))
            if not spare:
                continue
            at = claims.StepView(step, head, deal.at_table, deal.holders, (mover,))
            for c in self.shape.cheaters:
                others = [w for w in self.all_voices if w != c]
                for k in range(1, len(others) + 1):
                    for named in combinations(others, k):
                        for kind, tag in ((VOTE, "v"), (ABANDON, "a")):
                            if claims.claim_problem(kind, self.voices, c, named, at):
                                continue
                            key = (tag, step, head, c, named)
                            if key in st.signed:
                                continue
                            nxt = replace(st, signed=st.signed | {key}, cheats=st.cheats + 1)
                            found.append((f"c{c}.{tag}{step}.{short(head)}.{_names(named)}", nxt))
        return found

    def _heads(self, st: State) -> list[tuple[int, bytes, Deal]]:
        """Every (step, head before it, attempt) a cheater can sign at: the start of each attempt some
        replica deals — an honest one from what it holds, or one holding everything signed — and the
        head after every step message signed in one of them."""
        deals = {self.first.start: self.first}
        readers = [(v, st.held[v]) for v in self.honest]
        if self.bounds.attempts > 1:
            readers += [(c, st.signed) for c in self.shape.cheaters]
        for v, have in readers if self.bounds.attempts > 1 else ():
            vw = self.view(v, have)
            for att, _, _ in vw.path:
                deals.setdefault(att.deal.start, att.deal)
            deals.setdefault(vw.att.deal.start, vw.att.deal)
        pos = {start: (0, deal) for start, deal in deals.items()}
        for k in sorted((k for k in st.signed if k[0] == "s"), key=lambda k: (k[1], k)):
            at = pos.get(k[2])
            if at is not None and at[0] == k[1]:
                pos.setdefault(self.signer.hash(k), (k[1] + 1, at[1]))
        return sorted(((step, head, deal) for head, (step, deal) in pos.items()), key=lambda x: x[:2])

    # ---------------------------------------------------------------- invariants

    def check(self, st: State, before: State | None = None) -> None:
        """The invariants in ``st``; given the state ``before`` the event, only where it changed (each
        invariant of a replica is a function of what it holds, and never-double-sign of what was
        signed)."""
        honest_seats = [s for s in range(self.shape.n) if s not in self.cheat_seats]
        if before is None or st.signed is not before.signed:
            slots: dict[tuple[Any, ...], Key] = {}
            for key in sorted(st.signed):
                slot = _slot(key)
                if slot is None or key[3] in self.cheat_seats:
                    continue
                other = slots.setdefault(slot, key)
                if other != key:
                    raise Violation(f"seat {key[3]} signed two different messages for step {key[1]} after "
                                    f"head {short(key[2])}", INVARIANTS[4])
        for v in self.honest:
            if before is not None and st.held[v] is before.held[v]:
                continue
            # Every invariant of a replica below is a function of its voice and what it holds: a held set
            # judged once is judged (a cache; dropping it costs time only).
            if (v, st.held[v]) in self.judged:
                continue
            vw = self.view(v, st.held[v])
            if not claims.no_honest_seat_convicted(vw.convicted, honest_seats):
                raise Violation(f"voice {v}'s replica convicts honest seat(s) "
                                f"{sorted(set(vw.convicted) & set(honest_seats))}", INVARIANTS[0])
            for _, d, playing in vw.path:
                if not claims.binds_only_by_majority([d], v, playing):
                    raise Violation(f"voice {v}'s replica takes {_said(d)}", INVARIANTS[1])
                if not claims.present_seat_dealt_out_only_by_majority([d], self.honest, v):
                    raise Violation(f"voice {v}'s replica takes {_said(d)}, naming an honest voice",
                                    INVARIANTS[2])
            again = self._derive(v, sorted(st.held[v], reverse=True))
            hashes = frozenset(self.signer.hash(k) for k in st.held[v])
            if not claims.same_messages_same_state([(hashes, v, vw.digest), (hashes, v, again.digest)]):
                raise Violation(f"voice {v}'s replica reads its messages in two orders as two states",
                                INVARIANTS[3])
            for att, d, playing in vw.path:
                if v in d.silent and ("q", d.step, d.prev, v) not in st.held[v]:
                    raise Violation(f"voice {v}'s replica takes {_said(d)} naming it, with no return of "
                                    "its own at that step and head", INVARIANTS[5])
                if d.majority:
                    live = self._unspent(st, v, att, d)
                    if 2 * len(live) <= playing:
                        raise Violation(f"voice {v}'s replica takes {_said(d)} with unspent votes of only "
                                        f"{sorted(live)} of {playing} voices", INVARIANTS[6])
            if len(self.judged) > 1_000_000:
                self.judged.clear()
            self.judged.add((v, st.held[v]))

    def _unspent(self, st: State, v: int, att: AbstractAttempt, d: Decision) -> set[int]:
        """The oracle's spending (SPEC §6.5): a vote is spent by any message this replica holds of a
        voice it does not name, for a later step of the attempt — its step, or a claim there."""
        later: list[tuple[int, int]] = []
        for m in att.chain:
            later.append((m.step, self.voices.voice(m.seat)))
        for key in st.held[v]:
            if key[0] in ("v", "a") and key[1] < len(att.heads) and key[2] == att.heads[key[1]]:
                later.append((key[1], self.voices.voice(key[3])))
        live = set()
        for m in d.messages:
            names = claims.named(m, self.shape.n)
            if not any(step > d.step and w not in names for step, w in later):
                live.add(self.voices.voice(m.seat))
        return live

    # ---------------------------------------------------------------- symmetry

    def canon(self, st: State) -> State:
        if self.shape.name != "5w":
            return st
        a, b = 2, 3  # the honest watchers: never awaited, interchangeable
        swapped = self._swap(st, a, b)
        return min(st, swapped, key=_order)

    def canon_voice(self, st: State, key: State, v: int) -> int:
        """Voice ``v`` of ``st`` as it is in ``key``, ``st``'s canonical form."""
        if key is st or self.shape.name != "5w":
            return v
        return {2: 3, 3: 2}.get(v, v)

    def _swap(self, st: State, a: int, b: int) -> State:
        def k(key: Key) -> Key:
            seat = {a: b, b: a}.get(key[3], key[3])
            if key[0] in ("v", "a"):
                named = tuple(sorted({a: b, b: a}.get(x, x) for x in key[4]))
                return (key[0], key[1], key[2], seat, named)
            return (*key[:3], seat, *key[4:])

        def ks(keys: frozenset[Key]) -> frozenset[Key]:
            return frozenset(k(x) for x in keys)

        def perm(t: tuple[Any, ...]) -> tuple[Any, ...]:
            x = list(t)
            x[a], x[b] = x[b], x[a]
            return tuple(x)

        return State(
            held=perm(tuple(ks(x) for x in st.held)),
            wait=perm(tuple(None if w is None else frozenset({a: b, b: a}.get(s, s) for s in w)
                            for w in st.wait)),
            gen=perm(st.gen),
            log=perm(tuple(tuple((k(x), ks(y)) for x, y in lg) for lg in st.log)),
            signed=ks(st.signed),
            cheats=st.cheats,
            restarts=st.restarts,
        )


def _order(st: State) -> tuple[Any, ...]:
    """A total order of states (of every field, so that a state and its mirror image pick one)."""
    return (tuple(tuple(sorted(h)) for h in st.held),
            tuple(() if w is None else (1, *sorted(w)) for w in st.wait), st.gen,
            tuple(sorted(st.signed)), tuple(tuple((k, tuple(sorted(h))) for k, h in lg) for lg in st.log),
            st.cheats, st.restarts)


def _put(t: tuple[Any, ...], i: int, x: Any) -> tuple[Any, ...]:
    return (*t[:i], x, *t[i + 1:])


def _names(voices: Sequence[int]) -> str:
    return "".join(str(v) for v in voices)


def _said(d: Decision) -> str:
    who = "a majority's decision" if d.majority else ("half the table's word" if d.half else "a word")
    return (f"{who} at step {d.step} (head {short(d.prev)}) naming {list(d.silent)}, signed by "
            f"{list(d.signers)}")


# ==================================================================== the search


@dataclass
class Report:
    shape: str
    bounds: Bounds
    reintroduce: tuple[str, ...] = ()
    game: str = "durak"
    """Only for the replay command: the rule check does not depend on the game."""
    states: int = 0
    events: int = 0
    revisits: int = 0
    deepest: int = 0
    exhaustive: bool = True
    seconds: float = 0.0
    cpu: float = 0.0
    violation: str | None = None
    invariant: str | None = None
    path: list[str] = field(default_factory=list)
    replay: str | None = None

    @property
    def voices(self) -> tuple[int, ...]:
        return SHAPES[self.shape].voices

    @property
    def cheaters(self) -> tuple[int, ...]:
        return SHAPES[self.shape].cheaters

    def to_dict(self) -> dict[str, Any]:
        b = self.bounds
        return {
            "level": "rule",
            "shape": self.shape,
            "voices": len(self.voices),
            "cheaters": list(self.cheaters),
            "bounds": {"depth": b.depth, "steps": b.steps, "attempts": b.attempts, "restarts": b.restarts,
                       "back": b.back, "cheats": b.cheats, "lazy_deliveries": b.lazy},
            "reintroduce": list(self.reintroduce),
            "states": self.states,
            "events": self.events,
            "revisits": self.revisits,
            "deepest": self.deepest,
            "exhaustive": self.exhaustive,
            "seconds": self.seconds,
            "cpu_seconds": self.cpu,
            "violation": self.violation,
            "invariant": self.invariant,
            "path": self.path,
            "replay": self.replay,
        }


class _Found(Exception):
    def __init__(self, violation: Violation, path: list[str]) -> None:
        super().__init__(str(violation))
        self.violation = violation
        self.path = path


def _target(event: str) -> int | None:
    """The replica a delivery reaches (None: not a delivery)."""
    if event.startswith("d"):
        return int(event[1:event.index(".")])
    return int(event[1:]) if event.startswith("D") and event != "D*" else None


ANY = -1


def _reads(event: str, attempts: int) -> tuple[int, ...]:
    """The replicas whose held messages ``event`` (not a delivery) reads, to happen at all or to
    do what it does; ``(ANY,)``: any of them.  An honest machine's own event reads its own; a restart
    reads every honest peer's (the documented limit of the restore), a catch-up answer the answering
    peer's; a cheater's event reads nothing held unless it signs in later attempts, whose start heads
    it takes from what the replicas deal (``Checker._heads``); ``D*`` overwrites every one."""
    kind = event[0]
    if kind in "mvaq":
        return (int(event[1]),)
    if kind == "A":
        return (ANY,) if event.endswith("*") else (int(event[1]), int(event[3]))
    if kind == "c":
        return (ANY,) if attempts > 1 else ()
    return (ANY,)  # (r, D*)


class Search:
    def __init__(self, checker: Checker, report: Report,
                 progress: Callable[[Report], None] | None) -> None:
        self.c = checker
        self.report = report
        self.progress = progress
        self.seen: dict[State, tuple[int, int]] = {}
        """Per canonical state, (depth reached at, the restriction it was explored under: ``ANY`` none,
        else the replica the delivery it was reached by went to)."""
        self.started = time.perf_counter()
        self.cpu0 = time.process_time()
        self.last = self.started

    def run(self) -> None:
        root = self.c.start()
        self.c.check(root)
        self.report.states = 1
        self._visit(root, [], ANY)

    def _visit(self, st: State, path: list[str], after: int) -> None:
        """Explore from ``st``, reached by ``path``; ``after``: the replica the last event delivered to
        (``ANY`` if it was no delivery to one replica).

        *Lazy deliveries* (``bounds.lazy``).  After a delivery to replica ``r`` the next event is a
        delivery to ``r`` again or an event that reads what ``r`` holds (``_reads``); any other is not
        tried.  Sound: a delivery changes only ``r``'s held set, and an event that does not read it is
        enabled and does the same before the delivery as after it, so a path where it follows the
        delivery reaches the state of the path with the delivery moved after it — moved on, the
        delivery comes right before the next event that reads ``r``'s messages, or at the end, and
        that path is tried (same length; and ``D*``, which overwrites every held set, reaches the same
        state without the delivery).  ``D`` (everything signed so far, to one replica) delivers what was
        signed by then, so it restricts nothing after it; a ``D`` to another replica after ``d`` is
        cut, the other order being tried.  The states skipped are judged anyway: every invariant is a
        function of one replica's held set (and of what was signed), and each held set a skipped state
        gives a replica is the one it has in the state right after the deliveries to it, which is
        checked — only its successors are cut.  (``bounds.lazy`` False: after a delivery to ``r``, no
        delivery to a lower-numbered replica, the other order being tried.)"""
        depth = len(path)
        self.report.deepest = max(self.report.deepest, depth)
        if depth >= self.c.bounds.depth:
            return
        lazy = self.c.bounds.lazy
        for event, nxt in self.c.events(st):
            to = _target(event)
            if after != ANY:
                if not lazy:
                    if to is not None and to < after:
                        continue  # (partial order: the other order of the two deliveries is explored)
                elif to is not None:
                    if to != after:
                        continue
                else:
                    reads = _reads(event, self.c.bounds.attempts)
                    if (ANY not in reads and after not in reads) or event == "D*":
                        continue
            self.report.events += 1
            key = self.c.canon(nxt)
            # (Only a single delivery restricts what follows: ``D`` delivers what was signed by then, so
            # it cannot be moved later past a signature; it can be moved earlier past deliveries.)
            then = to if to is not None and (event.startswith("d") or not lazy) else None
            lo = ANY if then is None else self.c.canon_voice(nxt, key, then)
            seen = self.seen.get(key)
            if seen is not None and seen[0] <= depth + 1 and (
                seen[1] == ANY or seen[1] == lo or (not lazy and seen[1] <= lo)
            ):
                self.report.revisits += 1
                continue
            if seen is None:
                if len(self.seen) >= self.c.bounds.states:
                    self.report.exhaustive = False
                    return
                self.report.states += 1
                try:
                    self.c.check(nxt, st)
                except Violation as v:
                    raise _Found(v, [*path, event]) from None
            # (Lazy: the restriction explored under last; a state explored under two is explored
            # again under either, which costs time, never soundness.)
            self.seen[key] = (depth + 1, lo if seen is None or lazy else min(lo, seen[1]))
            self._tick()
            self._visit(nxt, [*path, event], ANY if then is None else then)

    def _tick(self) -> None:
        now = time.perf_counter()
        if self.progress is not None and now - self.last >= 1.0:
            self.last = now
            self.report.seconds = round(now - self.started, 1)
            self.progress(self.report)


@contextmanager
def reintroduced(names: Sequence[str]) -> Iterator[None]:
    """Put back the broken versions named (``REINTRODUCE``) for the duration: one function each."""
    saved: list[tuple[Any, str, Any]] = []

    def patch(module: Any, name: str, new: Any) -> None:
        saved.append((module, name, getattr(module, name)))
        setattr(module, name, new)

    try:
        for name in names:
            if name == "sign-without-waiting":
                patch(claims, "restore_wait", lambda *_a, **_k: ())
            elif name == "consent-by-step":
                patch(claims, "consents_to",
                      lambda decision, consents: any(s >= decision.step for s, _ in consents))
            elif name == "spent-by-signer":
                def only_steps(h: Held, att: decide.AttemptView) -> dict[int, int]:
                    last: dict[int, int] = {}
                    for m in att.messages():
                        last[m.seat] = max(last.get(m.seat, -1), m.step)
                    return last

                patch(held, "latest", only_steps)
            elif name == "minority-binds":
                def binds(decision: Decision, me: int | None, consents: Any) -> bool:
                    if me is not None and me in decision.silent:
                        return claims.consents_to(decision, consents)
                    return decision.majority or (me is not None and me in decision.signers)

                patch(claims, "binds", binds)
            else:
                raise ValueError(f"unknown reintroduction {name!r}")
        yield
    finally:
        for module, name, old in reversed(saved):
            setattr(module, name, old)


def check(shape: str, bounds: Bounds = Bounds(), reintroduce: Sequence[str] = (),
          progress: Callable[[Report], None] | None = None, game: str = "durak") -> Report:
    """Every state of the abstract table ``shape`` reachable in ``bounds.depth`` events, the invariants
    checked in each; the first violation found is shrunk and given a replay command."""
    report = Report(shape, bounds, tuple(reintroduce), game)
    checker = Checker(SHAPES[shape], bounds)
    search = Search(checker, report, progress)
    with reintroduced(reintroduce):
        try:
            search.run()
        except _Found as found:
            report.invariant = found.violation.invariant
            small = shrink(checker, found.path, found.violation.invariant)
            report.path = small
            report.violation = replay(checker, small)[1]
            report.replay = replay_command(game, shape, bounds, reintroduce, small)
    report.seconds = round(time.perf_counter() - search.started, 1)
    report.cpu = round(time.process_time() - search.cpu0, 1)
    return report


def replay(checker: Checker, path: Sequence[str]) -> tuple[str | None, str | None]:
    """Play ``path`` from the start: (invariant, message) of the first violation, or (None, None);
    an event that cannot happen where it comes ends the replay as ("", why)."""
    st = checker.start()
    for i, event in enumerate(path):
        nxt = dict(checker.events(st)).get(event)
        if nxt is None:
            return "", f"event {i + 1} ({event}) cannot happen there"
        try:
            checker.check(nxt, st)
        except Violation as v:
            return v.invariant, str(v)
        st = nxt
    return None, None


def shrink(checker: Checker, path: Sequence[str], invariant: str) -> list[str]:
    """Remove events one at a time while the same invariant still breaks."""
    best = list(path)
    changed = True
    while changed:
        changed = False
        for i in range(len(best)):
            trial = best[:i] + best[i + 1:]
            if replay(checker, trial)[0] == invariant:
                best, changed = trial, True
                break
    return best


def replay_command(game: str, shape: str, bounds: Bounds, reintroduce: Sequence[str],
                   path: Sequence[str]) -> str:
    extra = "".join(f" --reintroduce {r}" for r in reintroduce)
    attempts = f" --attempts {bounds.attempts}" if bounds.attempts != 1 else ""
    return (f"p2pcards harness {game} --rule-check --shape {shape} --steps {bounds.steps}{attempts} "
            f"--cheats {bounds.cheats} --restarts {bounds.restarts}{extra} --replay {','.join(path)}")


EVENT = re.compile(
    r"([mq][0-9]|[va][0-9]-[0-9]+|r[0-9]\.[0-9]+|A[0-9](\.[0-9]|\*)|d[0-9]\.[0-9a-f]{6}|D[0-9*]"
    r"|c[0-9]\.m[0-9]+\.[0-9a-f]{6}\.[01]|c[0-9]\.[va][0-9]+\.[0-9a-f]{6}\.[0-9]+)"
)


def well_formed(event: str) -> bool:
    return len(event) <= 40 and EVENT.fullmatch(event) is not None


def run_replay(game: str, shape: str, bounds: Bounds, path: Sequence[str],
               reintroduce: Sequence[str] = ()) -> Report:
    report = Report(shape, bounds, tuple(reintroduce), game, path=list(path))
    checker = Checker(SHAPES[shape], bounds)
    started = time.perf_counter()
    with reintroduced(reintroduce):
        invariant, message = replay(checker, path)
    report.states = len(path) + 1
    report.invariant, report.violation = (invariant or None), message
    if report.violation is not None:
        report.replay = replay_command(game, shape, bounds, reintroduce, path)
    report.seconds = round(time.perf_counter() - started, 1)
    return report


__all__ = [
    "REINTRODUCE", "SHAPES", "Bounds", "Report", "check", "replay", "run_replay", "shrink", "well_formed"
]
