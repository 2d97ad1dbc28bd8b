"""What a replica holds, and what the claims it holds decide about its attempts (SPEC §6.5).

``Held`` is the replica's record of accepted messages: the steps indexed for placing, the claims
(votes, abandons), its own voice's consents, return requests, and the proofs against cheaters.  The
functions below read it with an attempt and return values — the decision taken at a step, the voices
that went on past it, what a sealed hand carries into the next — for the rule in ``claims`` (through
``decide``, its adapter from attempts); nothing here emits an output, and only ``Held``'s methods and
``note`` change what is held.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field

from p2pcards.table import bodies, claims, decide, policy
from p2pcards.table import outputs as out
from p2pcards.table.attempt import Attempt
from p2pcards.table.decide import AttemptView, Decision
from p2pcards.table.seating import CHEAT, GONE, RETURN, Change
from p2pcards.table.voices import Voices
from p2pcards.wire import Equivocation, SignedMessage

Book = dict[tuple[int, bytes], dict[int, SignedMessage]]
"""Claims of one kind: per (step, head before it), each voice's claim there."""


@dataclass
class Held:
    """Every message the replica accepted, as the derivation and the claims read them."""

    by_key: dict[tuple[int, bytes, int], SignedMessage] = field(default_factory=dict)
    """Every accepted step message by (step, prev, seat), across attempts."""
    by_prev: dict[bytes, list[SignedMessage]] = field(default_factory=dict)
    accepted: set[bytes] = field(default_factory=set)
    """Hashes of every accepted message's payload (only looked up, never iterated)."""
    votes: Book = field(default_factory=dict)
    abandons: Book = field(default_factory=dict)
    """Per step, each voice's abandon there: its word, binding on itself alone (``decide``)."""
    consents: list[SignedMessage] = field(default_factory=list)
    """This replica's own voice's returns: its consent to decisions naming it (``claims.binds``)."""
    returns: dict[int, SignedMessage] = field(default_factory=dict)
    alternatives: dict[tuple[int, bytes, int], SignedMessage] = field(default_factory=dict)
    """A second, different step message of a seat for a step after a head where ``by_key`` holds its
    first (the seat equivocated): the other branch, which the others may have played to its end
    (``Derivation``).  One per (step, prev, seat): bounded as ``by_key`` is."""
    evidence: dict[int, tuple[bytes, ...]] = field(default_factory=dict)
    """Per convicted seat, the payloads that prove it (a pair, or the evidence message)."""
    cheaters: dict[int, out.Fault] = field(default_factory=dict)
    admit: dict[int, bool] = field(default_factory=dict)
    """The answers to ``ReturnAsked``: whether this seat's next seal admits the seat back."""
    return_asked: set[tuple[int, int]] = field(default_factory=set)
    """(seat, hand) of every return request taken: one per seat voted out and hand."""
    pending_gone: Decision | None = None
    """The latest decision naming this voice that it has not agreed to (``ask_to_return``)."""
    half_gone: Decision | None = None
    """Half the table's word naming this voice, unconsented (``policy.consents_to_word``)."""

    def accept(self, data: bytes) -> None:
        self.accepted.add(hashlib.sha256(data).digest())

    def store(self, msg: SignedMessage) -> None:
        self.by_key[(msg.step, msg.prev, msg.seat)] = msg
        self.by_prev.setdefault(msg.prev, []).append(msg)

    def votes_held(self) -> list[SignedMessage]:
        return [v for key in sorted(self.votes) for _, v in sorted(self.votes[key].items())]


def note(book: Book, msg: SignedMessage) -> Equivocation | bool:
    """Note a seat's vote (or end) for a step after a head: True if it is its first; a second,
    different one is equivocation (returned); the same one again is False."""
    held = book.setdefault((msg.step, msg.prev), {})
    prior = held.get(msg.seat)
    if prior is not None:
        if prior.hash != msg.hash:
            return Equivocation.of(prior, msg)
        return False
    held[msg.seat] = msg
    return True


def consent_keys(held: Held) -> list[tuple[int, bytes]]:
    """The (step, head) of every return this replica's voice signed: the decisions it accepts."""
    return [(c.step, c.prev) for c in held.consents]


def latest(held: Held, att: AttemptView) -> dict[int, int]:
    """Per seat, the last step it signed something for in ``att``: a step, a seal, a vote or an
    abandon."""
    last: dict[int, int] = {}
    for m in att.messages():
        last[m.seat] = max(last.get(m.seat, -1), m.step)
    for book in (held.votes, held.abandons):
        for (s, prev), signed in book.items():
            if att.head_before(s) == prev:
                for seat in signed:
                    last[seat] = max(last.get(seat, -1), s)
    return last


def binding_at(
    held: Held,
    voices: Voices,
    me: int | None,
    att: AttemptView,
    step: int,
    prev: bytes,
    later: tuple[int, ...],
    n: int,
) -> tuple[Decision | None, tuple[Decision, ...]]:
    """The decision at ``step`` of ``att`` that this replica takes (``claims.taken``), if any, with
    the decisions naming its own voice that it does not take (to be told to its user); ``later``: the
    voices that went on past ``step`` (``went_on``)."""
    votes = held.votes.get((step, prev), {})
    found: list[Decision] = []
    by_votes = decide.vote_decision(
        voices,
        att,
        step,
        prev,
        votes,
        lambda v: claims.spent(claims.named(votes[v], n), later),
        n,
    )
    if by_votes is not None:
        found.append(by_votes)
    at = decide.view(att, step, prev)
    for _, claim in sorted(held.abandons.get((step, prev), {}).items()):
        is_spent = claims.spent(claims.named(claim, n), later)
        word = claims.word_of(voices, at, claim, is_spent, n)
        if word is not None:
            found.append(word)
    found += claims.half_words(found, len(decide.playing(voices, att)))
    return claims.taken(found, me, consent_keys(held))


def behind(held: Held, att: Attempt | None) -> Decision | None:
    """The decision that leaves this voice behind, unconsented: a majority's (``claims.left_behind``),
    or half the table's word while this replica is still at the attempt it went on from — the others
    went past that step, so nothing this voice signs there counts, and only its consent (``return``)
    takes it where they are."""
    keys = consent_keys(held)
    if claims.left_behind(held.pending_gone, keys):
        return held.pending_gone
    word = held.half_gone
    if word is None or (word.step, word.prev) in keys:
        return None
    if att is None or att.head_before(word.step) != word.prev:
        return None
    return word


def consent_due(held: Held, waited_for: tuple[int, ...]) -> Decision | None:
    """Half the table's word naming this voice, if it is to consent to it now (``policy.consents_to_word``,
    ``waited_for``: the voices a restored seat still waits for) and has not yet."""
    word = held.half_gone
    if word is None or (word.step, word.prev) in consent_keys(held):
        return None
    return word if policy.consents_to_word(word, waited_for) else None


def excused(held: Held, decision: Decision | None) -> set[int]:
    """Seats whose seal an attempt does not wait for: cheaters, and the seats dealt out at the seal
    (``decision``, the one taken there)."""
    return set(held.cheaters) | (set(decision.seats) if decision is not None else set())


def carried(
    held: Held, voices: Voices, att: Attempt, decision: Decision | None, gone: Mapping[int, str], n: int
) -> frozenset[Change]:
    """What a sealed ``att`` carries into the next hand with ``decision`` taken at its seal: those
    seats out, seats whose seal was wrong out, and the seats every counted seal admitted back
    (each with the computer players it runs that are out with it); ``gone``: the seats out of the
    hand ``att`` played."""
    result: set[Change] = {Change(CHEAT, (seat,)) for seat in att.bad_seals}
    if decision is not None:
        result.add(claims.change_of(decision))
    # A cheater's seal is not counted, so a seat that signs two seals cannot choose, replica by
    # replica, whose return the hand admits.
    counted = [
        bodies.seal_body(att.seals[s].body, n)
        for s in att.required_sealers(excused(held, decision))
        if s in att.seals
    ]
    if counted:
        for seat in sorted(set.intersection(*(set(c.admit) for c in counted))):
            if seat not in held.cheaters:
                result.add(Change(RETURN, (seat,)))
                for computer in voices.computers_of(seat):
                    if gone.get(computer) in GONE and computer not in held.cheaters:
                        result.add(Change(RETURN, (computer,)))
    return frozenset(result)
