"""The claims: the one rule by which the table goes on without seats (``protocol/SPEC.md`` §6.5, §9.6).

Votes, abandons, returns (consent), spending and the restore horizon, as pure functions of values:
nothing here reads a clock, a replica or the order messages arrived in, and nothing calls back into
the replica.  The replica drives them (through ``decide``, its adapter from attempts to these values);
the harness's explorer and model checker drive the replica itself.

*Claims.*  A person's seat that waits in vain at step ``s`` signs a claim about it, after the head
``prev`` before that step: a ``void_vote`` naming the voices it misses (fewer than half of the voices
playing), or an ``abandon`` naming them (half or more, when no vote can decide).  Claims name voices
(``voices``), never computer seats, and only people sign them (``claim_problem``).

*Every voice spends* (``spent``).  A claim naming the voices ``N`` is spent once some voice not in
``N`` — its signer or any other — signed a message of the same attempt for a later step (or, at the
seal of the last final hand, a message of the next hand dealt as if nobody were voted out there).  Such
a message exists only once step ``s`` went through: the table went on past it, so nobody — a watcher
that signs no steps, a cheater — can complete the old claim, and the seats it names cannot undo it by
playing on alone.

*Decisions* (``vote_decision``, ``word_of``).  The votes decide that the voices ``T`` are silent when
more than half of the voices playing signed an unspent vote there, ``T`` (the voices awaited at ``s``
with no vote there) is not empty and every unspent vote names all of ``T``: a **majority's** decision.
An unspent abandon is its signer's word: a decision for its signer's voice alone.

*Consent names a decision* (``consents_to``, ``binds``).  A replica of voice ``me`` takes a majority's
decision and its own voice's word.  A decision naming ``me`` binds it only if it is a majority's and
``me`` consented to that very decision: a ``return`` of ``me`` signed at its step after its head (a
replica takes at most one majority's decision at one step after one head).  A minority's word never
binds a voice it names, consent or not — but half the table's word (``half_words``: the same voices
named by half of the voices playing or more, an even split) binds a voice it names that consented to
it: half and that consent are more than half.  Of the decisions a replica takes at one step, the
first in change order counts (``taken``).

*Never double-sign* (``restore_wait``).  A seat restored from its journal — maybe an old copy — may have
signed, before it restarted, what its journal lacks: it signs nothing new until every seat that may
hold it (every other seat neither convicted nor out of the hand) sent an answer that skipped no step
or certificate — but for what is the same bytes whenever signed (``repeats``: a vote at a step that
awaits one other voice).  No clock ends that wait; the others may vote it silent meanwhile.  An
equivocation is what it always was (two messages of one seat for one step after one head): a restore
excuses nothing.

*Invariants*, as predicates over values, judging what one replica holds.  The explorer and the model
checker call them on every honest replica after every event (``Table.decisions_taken`` gives the
decisions), and beside them assert the same promises with an oracle of their own, which also judges
each replica by what it holds, from its own record of what every honest seat signed
(``harness/explore_room.py``):

* ``no_honest_seat_convicted(cheaters: Iterable[int], honest: Iterable[int]) -> bool``
* ``binds_only_by_majority(taken: Iterable[Decision], me: int | None, playing: int) -> bool`` — every
  decision a replica of voice ``me`` takes is signed by more than half of the ``playing`` voices, or is
  ``me``'s own word naming others, or half the table's word naming ``me`` that it consented to.
* ``present_seat_dealt_out_only_by_majority(taken: Iterable[Decision], present: Iterable[int],
  me: int | None) -> bool`` — a decision naming a present voice is a majority's, or ``me``'s own word
  or consent (which binds ``me`` alone).
* ``same_messages_same_state(replicas: Iterable[tuple[frozenset[bytes], int | None, bytes]]) -> bool``
  — (hashes of the messages held, voice, table digest): the same messages read as the same voice give
  the same digest.
* ``sealed_hands_unchanged(before: Sequence[bytes], after: Sequence[bytes]) -> bool`` — the seal heads
  of the final hands before an event are a prefix of those after it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from p2pcards.table import bodies
from p2pcards.table.seating import SILENT, UNCONFIRMED, Change
from p2pcards.table.voices import Voices
from p2pcards.wire import SignedMessage

VOTE = "void_vote"
ABANDON = "abandon"


@dataclass(frozen=True)
class StepView:
    """What the rule needs of one step ``step`` after head ``prev`` of an attempt."""

    step: int
    prev: bytes
    at_table: tuple[int, ...]
    """The seats at the table of the attempt: key holders, and seats out of chips that watch."""
    holders: tuple[int, ...]
    """The key holders: the seats a decision deals out."""
    awaited: tuple[int, ...]
    """The seats awaited at the step (SPEC §6.1)."""


@dataclass(frozen=True)
class Decision:
    """Seats dealt out at ``step`` after ``prev``, and the signed claims that make it so."""

    step: int
    prev: bytes
    silent: tuple[int, ...]
    """The voices gone."""
    seats: tuple[int, ...]
    """The seats dealt out: every seat playing the attempt whose voice is gone."""
    signers: tuple[int, ...]
    majority: bool
    """Signed by more than half of the voices playing: it binds every replica."""
    messages: tuple[SignedMessage, ...]
    half: bool = False
    """One word (the same voices named) signed by half of the voices playing or more (an even split):
    with the consent of a voice it names, more than half — it binds that voice too."""


# ============================================================================ claims


def named(claim: SignedMessage, n: int) -> tuple[int, ...]:
    """The voices a claim names (its body was checked when it came)."""
    what = "a void vote" if claim.kind == VOTE else "an abandon"
    return bodies.silent_body(claim.body, n, what)


def voices_playing(voices: Voices, at_table: Iterable[int]) -> tuple[int, ...]:
    """The voices at the table: the people whose seat, or one of whose computers, is still in the match."""
    return voices.among(at_table)


def claim_problem(kind: str, voices: Voices, signer: int, silent: tuple[int, ...], at: StepView) -> str:
    """Why a claim of ``kind`` by ``signer`` naming ``silent`` at ``at`` is refused ("" if it is not);
    the texts are SPEC §6.1 and §6.2's."""
    if not voices.is_person(signer):
        return f"seat {signer} is a computer player: seat {voices.voice(signer)} speaks for its machine"
    if signer not in at.at_table:
        return f"seat {signer} is not at the table"
    if signer in silent:
        if kind == VOTE:
            return "a seat votes others silent, never itself"
        return "a seat cannot name itself silent"
    computers = [s for s in silent if not voices.is_person(s)]
    if computers:
        c = computers[0]
        return f"seat {c} is a computer player: name seat {voices.voice(c)}, whose machine runs it"
    voters = voices_playing(voices, at.at_table)
    awaited = voices.among(at.awaited)
    if kind == VOTE:
        if 2 * len(silent) >= len(voters):
            return f"a vote names fewer than half of the {len(voters)} voices playing"
        if not set(silent) <= set(awaited):
            return f"seats {list(silent)} were not all awaited at step {at.step}"
        return ""
    if 2 * len(silent) < len(voters):
        return "a seat ends the match only when half the players or more are silent"
    if not set(silent) <= set(voters):
        return f"seats {list(silent)} are not all at the table"
    if not set(silent) & set(awaited):
        return f"none of seats {list(silent)} was awaited at step {at.step}"
    return ""


# ============================================================================ every voice spends


def went_on(voices: Voices, latest: Mapping[int, int], step: int) -> tuple[int, ...]:
    """The voices that signed something for a step after ``step`` of an attempt, given ``latest``: per
    seat, the last step it signed there (a step message, a seal, a vote or an abandon)."""
    return voices.among(s for s, at in latest.items() if at > step)


def spent(claim_names: Collection[int], later: Iterable[int]) -> bool:
    """Whether a claim naming the voices ``claim_names`` is spent, ``later`` the voices that signed
    something later in its attempt: any one it does not name spends it."""
    return any(v not in claim_names for v in later)


# ============================================================================ decisions


def vote_decision(
    voices: Voices, at: StepView, votes: Mapping[int, SignedMessage], spent_voters: Collection[int], n: int
) -> Decision | None:
    """What the votes at ``at`` decide, if they decide: ``votes`` by voice, ``spent_voters`` the voices
    whose vote there is spent."""
    if not votes:
        return None
    voters = voices_playing(voices, at.at_table)
    live = tuple(v for v in voters if v in votes and v not in spent_voters)
    awaited = voices.among(at.awaited)
    silent = tuple(v for v in awaited if v not in votes)
    if not silent or 2 * len(live) <= len(voters):
        return None
    if not all(set(silent) <= set(named(votes[v], n)) for v in live):
        return None
    seats = voices.seats_of(silent, at.holders)
    return Decision(at.step, at.prev, silent, seats, live, True, tuple(votes[v] for v in live))


def word_of(voices: Voices, at: StepView, claim: SignedMessage, is_spent: bool, n: int) -> Decision | None:
    """The decision an abandon makes for its signer's voice alone (None if it is spent)."""
    if is_spent:
        return None
    silent = named(claim, n)
    seats = voices.seats_of(silent, at.holders)
    return Decision(at.step, at.prev, silent, seats, (claim.seat,), False, (claim,))


def half_words(words: Iterable[Decision], playing: int) -> tuple[Decision, ...]:
    """Of the unspent ``words`` (abandons) at one step after one head, those signed alike — the same
    voices named — by half of the ``playing`` voices or more, each as one decision of all its signers
    (``half``).  Half and half: every voice playing signed it or is named, and, cheaters a minority,
    an honest voice signed it."""
    alike: dict[tuple[int, ...], list[Decision]] = {}
    for w in words:
        if not w.majority:
            alike.setdefault(w.silent, []).append(w)
    found = []
    for silent, same in sorted(alike.items()):
        signers = tuple(sorted({s for w in same for s in w.signers}))
        if 2 * len(signers) >= playing:
            first = same[0]
            msgs = tuple(m for w in same for m in w.messages)
            found.append(Decision(first.step, first.prev, silent, first.seats, signers, False, msgs, True))
    return tuple(found)


def change_of(decision: Decision) -> Change:
    """The change a decision makes to the seating: ``silent`` (a majority's) or ``unconfirmed``."""
    return Change(SILENT if decision.majority else UNCONFIRMED, decision.seats, decision.step, decision.prev)


# ============================================================================ consent


def consents_to(decision: Decision, consents: Iterable[tuple[int, bytes]]) -> bool:
    """Whether one of ``consents`` — the (step, prev) of the returns a voice signed — names
    ``decision``: signed at its step after its head."""
    return (decision.step, decision.prev) in set(consents)


def binds(decision: Decision, me: int | None, consents: Iterable[tuple[int, bytes]]) -> bool:
    """Whether the replica of voice ``me`` takes ``decision``: a majority's, or its own word naming
    others; one naming ``me`` only if ``me`` consented to it by name and it is a majority's, or the
    word of half the voices (half and ``me``'s consent: more than half)."""
    if me is not None and me in decision.silent:
        return (decision.majority or decision.half) and consents_to(decision, consents)
    return decision.majority or (me is not None and me in decision.signers)


def taken(
    found: Iterable[Decision], me: int | None, consents: Iterable[tuple[int, bytes]]
) -> tuple[Decision | None, tuple[Decision, ...]]:
    """Of the decisions ``found`` at one step, the one a replica of voice ``me`` takes (the first that
    binds it, in change order), and those naming ``me`` that it does not take (to tell its person)."""
    held = tuple(consents)
    binding = sorted((d for d in found if binds(d, me, held)), key=change_of)
    told = tuple(d for d in found if me is not None and me in d.silent and not binds(d, me, held))
    return (binding[0] if binding else None), told


def left_behind(pending: Decision | None, consents: Iterable[tuple[int, bytes]]) -> bool:
    """Whether the latest decision naming a voice (``pending``) leaves it behind: a majority's that
    it has not consented to.  A minority's word leaves nobody behind."""
    return pending is not None and pending.majority and not consents_to(pending, consents)


# ============================================================================ never double-sign


def restore_wait(
    unanswered: Collection[int], n: int, cheaters: Collection[int], out: Collection[int]
) -> tuple[int, ...]:
    """The seats a restored seat still waits for before it signs anything new: those of ``unanswered``
    (no answer that skipped no step since the restart) that are neither cheaters (their word proves
    nothing) nor out of the hand being played (a seat gone for good would keep it waiting for ever;
    what it signed in an attempt a verdict about them voided can never meet what it signs now).
    Empty: it may sign."""
    return tuple(s for s in range(n) if s in unanswered and s not in cheaters and s not in out)


def repeats(kind: str, silent: Sequence[int], voices: Voices, at: StepView, me: int) -> bool:
    """Whether the claim of kind ``kind`` naming ``silent`` that voice ``me`` would sign at ``at`` is
    the only one it could ever sign there: a vote at a step that awaits one voice besides ``me``'s,
    naming that voice.  A vote names voices awaited at its step that had not signed it, so there it
    can name only that one, and is the same bytes whenever signed (a signature is deterministic and a
    message's identity leaves it out): a seat restoring may sign it before its peers answer, as it
    signs a return, a key or a share (never double-sign).  So a cheater awaited at a step that also
    keeps its catch-up answer from a restored seat cannot stop the table: the restored voice votes
    with the others."""
    others = tuple(v for v in voices.among(at.awaited) if v != me)
    return kind == VOTE and len(others) == 1 and tuple(silent) == others


# ============================================================================ invariants


def no_honest_seat_convicted(cheaters: Iterable[int], honest: Iterable[int]) -> bool:
    """No seat in ``honest`` is among a replica's ``cheaters``."""
    return not set(cheaters) & set(honest)


def binds_only_by_majority(taken_decisions: Iterable[Decision], me: int | None, playing: int) -> bool:
    """Every decision a replica of voice ``me`` takes was signed by more than half of the ``playing``
    voices, or is ``me``'s own word about others, or a word naming ``me`` whose signers and ``me``'s
    consent are more than half."""
    return all(
        (d.majority and 2 * len(d.signers) > playing)
        or (not d.majority and me is not None and me in d.signers and me not in d.silent)
        or (d.half and me is not None and me in d.silent and 2 * (len(d.signers) + 1) > playing)
        for d in taken_decisions
    )


def present_seat_dealt_out_only_by_majority(
    taken_decisions: Iterable[Decision], present: Iterable[int], me: int | None
) -> bool:
    """No decision a replica of voice ``me`` takes names a ``present`` voice (connected and signing)
    unless it is a majority's, or ``me``'s own word (binding ``me`` alone), or half the voices' word
    that ``me``, named, consented to (binding ``me`` alone: ``binds``)."""
    here = set(present)
    return all(
        d.majority
        or (me is not None and me in d.signers and me not in d.silent)
        or (d.half and me is not None and me in d.silent)
        for d in taken_decisions
        if here & set(d.silent)
    )


def same_messages_same_state(replicas: Iterable[tuple[frozenset[bytes], int | None, bytes]]) -> bool:
    """Replicas given as (hashes of the messages held, voice read as, table digest): any two that hold
    the same messages as the same voice have the same digest."""
    seen: dict[tuple[frozenset[bytes], int | None], bytes] = {}
    return all(seen.setdefault((held, voice), digest) == digest for held, voice, digest in replicas)


def sealed_hands_unchanged(before: Sequence[bytes], after: Sequence[bytes]) -> bool:
    """The seal heads of the final hands before an event are a prefix of those after it: nothing
    received changes a final hand."""
    return list(after[: len(before)]) == list(before)
