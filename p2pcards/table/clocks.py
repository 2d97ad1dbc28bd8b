"""The replica's local time (SPEC §10): when a step opened, when we last heard each voice, what is due.

Nothing replicated reads these clocks: they decide only when this seat says something — a retry, a
question to its person, a claim it signs — never what any replica derives from what it holds.  The
functions return what is due as values (noting in the ``Clock`` what they decided, so that a question
is asked and a claim signed once); the replica signs and emits.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pcards.table import claims, decide, policy
from p2pcards.table import outputs as out
from p2pcards.table.attempt import Attempt
from p2pcards.table.held import Held
from p2pcards.table.voices import Voices
from p2pcards.wire import Chain, SignedMessage


@dataclass
class Asked:
    """The person's answer about the seats silent at the open step."""

    key: tuple[bytes, int]
    seats: tuple[int, ...]
    ask_at: int
    """When to ask (the moment it became due; after "keep waiting", one timeout later)."""
    end_match: bool
    go_on: bool | None = None
    asked_at: int = -1
    awaited: tuple[int, ...] = ()
    """The voices the open step awaits: while one of them is connected (its frames arrive, a computer
    seat's counting for its runner), nobody's answer goes on without it — only the person's yes."""


@dataclass
class Clock:
    """What this replica noted of its local time."""

    now: int = 0
    since: int = 0
    """When the open step opened here."""
    open_key: tuple[bytes, int] | None = None
    last_retry: int = 0
    heard: dict[int, int] = field(default_factory=dict)
    """Per voice, when a frame from one of its seats last reached us (the connection clock)."""
    first_tick: int = 0
    ticked: bool = False
    voted: set[tuple[bytes, int]] = field(default_factory=set)
    ended_at: set[tuple[bytes, int]] = field(default_factory=set)
    asked: Asked | None = None

    def open(self, head: bytes, step: int, seats: tuple[int, ...]) -> list[out.Output]:
        """A step opened here: its clock starts now."""
        self.open_key = (head, step)
        self.since = self.now
        self.asked = None
        return [out.Waiting(step, seats, self.now)] if seats else []

    def connected(self, voice: int) -> bool:
        """Whether a frame of ``voice`` arrived within the connection clock (``policy``)."""
        return self.now - self.heard.get(voice, self.first_tick) < policy.DISCONNECTED_MS

    def answer(self, go_on: bool, timeout_ms: int) -> None:
        """The person's answer to the open question (``SilentSeats``): go on, or ask again after
        another ``timeout_ms``."""
        asked = self.asked
        if asked is not None:
            asked.go_on = go_on
            if not go_on:
                asked.ask_at = self.now + timeout_ms
                asked.asked_at = -1
                asked.go_on = None

    def back(self) -> tuple[int, ...]:
        """The voices the open question awaits that are connected now (a person thinking, or back):
        the program does not deal them out by itself, only its person's answer does."""
        asked = self.asked
        return () if asked is None else tuple(v for v in asked.awaited if self.connected(v))

    def first(self, now: int) -> None:
        """The first tick.  Times noted before it (at start or restore) were noted at an unknown time:
        they count from now, so a restarted seat waits the whole timeout before voting."""
        self.ticked = True
        self.since = self.last_retry = self.first_tick = now
        if self.asked is not None:
            self.asked.ask_at = now


def resend(att: Attempt | None, setup: Chain, seat: int | None, held: Held) -> list[out.Output]:
    """What this seat said for the open step (and its vote there), to say again."""
    if att is None:
        mine = setup.lookup(setup.step, seat) if seat is not None else None
        return [out.Send(mine.data)] if mine is not None else []
    sends: list[out.Output] = [
        out.Send(msg.data)
        for msg in held.by_prev.get(att.head, ())
        if msg.seat == seat and msg.step == att.step
    ]
    if seat is not None:
        vote = held.votes.get((att.step, att.head), {}).get(seat)
        if vote is not None:
            sends.append(out.Send(vote.data))
    return sends


@dataclass(frozen=True)
class Claim:
    """A claim this seat signs now at the open step: ``kind`` (``abandon`` or ``void_vote``)."""

    kind: str
    silent: tuple[int, ...]


def claims_at(
    held: Held, step: int, head: bytes, own: int, n: int
) -> tuple[dict[int, SignedMessage], tuple[int, ...]] | None:
    """What voice ``own`` holds of the claims at ``step`` after ``head``, as ``policy.Observed`` takes
    it: the votes, and the abandons of the voices still at the step with it; and the voices whose
    abandon names it (they went on without it).  None once it signed an abandon there: one vote and
    one abandon per seat and step, ever — what the journal holds counts too, so a seat restored from
    it does not sign again with other seats named (that would be equivocation)."""
    abandons: dict[int, SignedMessage] = held.abandons.get((step, head), {})
    if own in abandons:
        return None
    with_us = {v: m for v, m in abandons.items() if own not in claims.named(m, n)}
    gone_on = tuple(sorted(v for v in abandons if v not in with_us))
    return {**held.votes.get((step, head), {}), **with_us}, gone_on


def claim_due(
    clock: Clock,
    att: Attempt,
    own: int,
    voices: Voices,
    held: Held,
    timeout: int,
    person: bool,
    n: int,
    restoring: bool = False,
) -> tuple[list[out.Output], Claim | None]:
    """A claim due at the open step (``policy``: the two clocks): ask the person (or, with no person,
    decide), then sign it — a vote, or this voice's abandon (it binds nobody else).  Returns the
    question to ask, or the claim to sign.  ``restoring``: the seat still waits for its peers'
    answers, so only a claim that is the same bytes whenever signed is due (``claims.repeats``)."""
    key = (att.head, att.step)
    at_step = claims_at(held, att.step, att.head, own, n)
    if key in clock.ended_at or at_step is None:
        return [], None
    held_claims, gone_on = at_step
    waited = clock.now - clock.since
    claim = policy.due(
        policy.Observed(
            voices,
            att,
            own,
            waited,
            clock.now,
            clock.heard,
            clock.first_tick,
            timeout,
            held_claims,
            key in clock.voted or own in held.votes.get((att.step, att.head), {}),
            gone_on,
        )
    )
    if claim is None:
        return [], None
    at = decide.view(att, att.step, att.head)
    if restoring and not claims.repeats(claim.kind, claim.named, voices, at, own):
        return [], None
    end_match, seats = claim.kind == claims.ABANDON, claim.named
    asked = clock.asked
    if asked is None or asked.key != key or asked.seats != seats or asked.end_match != end_match:
        asked = clock.asked = Asked(key, seats, clock.now, end_match)
    go = asked.go_on
    if go is None:
        if not person:
            # With no person to ask it votes as soon as the vote is due, and goes on by itself
            # only a timeout later (the others may be people whose laptops slept).
            if end_match and clock.now - asked.ask_at < timeout:
                return [], None
            go = True
        elif asked.asked_at >= 0:
            # Nobody's answer deals out only voices that are gone: one whose frames arrive is a
            # person thinking (or back), and only our person may decide to go on without them.
            if clock.now - asked.asked_at < timeout or clock.back():
                return [], None
            go = True  # the person did not answer, and the awaited are gone: the screen counted this down
        elif clock.now >= asked.ask_at:
            asked.asked_at = clock.now
            asked.awaited = claim.awaited
            question = out.SilentSeats(
                att.step, seats, waited, True, clock.now + timeout, end_match, claim.awaited
            )
            return [question], None
        else:
            return [], None
    if not go:
        return [], None
    (clock.ended_at if end_match else clock.voted).add(key)
    return [], Claim("abandon" if end_match else "void_vote", seats)
