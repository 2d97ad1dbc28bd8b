"""The one rule by which the table goes on without seats: what the signed votes and abandons decide.

Everything here is a pure function of the messages a replica holds and of which voice it is (see
``voices``); nothing depends on a clock, on the order messages arrived in, or on whether the replica
restarted.  The normative text is ``protocol/SPEC.md`` §6.5.

*Claims.*  A person's seat that waits in vain at a step signs a claim about it, after the head before
that step: a ``void_vote`` naming the voices it misses (fewer than half of the voices playing), or an
``abandon`` naming them (half or more, when no vote can decide).  Claims name voices, never computer
seats, and only people sign them.

*Spent (every voice spends).*  A claim at a step is *spent* once the replica holds a later message of
the same attempt signed by a voice the claim does not name — its signer or any other — or, for a claim
at the seal of the last final hand, such a message in the next hand dealt as if nobody had been voted
out there: the table went on past that step, so nobody (a watcher that signs no steps, a cheater) can
complete the old claim later, and the seats it names cannot undo it by playing on alone.

*Decisions.*  At step ``s`` after ``prev``:

* **the votes decide** that the voices ``T`` are silent when more than half of the voices playing
  signed an unspent vote there, ``T`` (the voices awaited at ``s`` that signed no vote there) is not
  empty, and every unspent vote names all of ``T``.  Such a decision is a majority's: it binds every
  replica (``majority``).
* **an abandon** is its signer's word alone: its voice goes on without the voices named (or stops, if
  too few are left).  It binds the signer's own voice, nobody else: half the table or fewer cannot
  decide for the others.

*Who takes a decision* (``binds``).  A replica takes a majority's decision, and its own voice's
abandon.  A decision that names its own voice binds it only if it is a majority's and that voice
consented to it by name (*consent names a decision*: a ``return`` signed at the decision's step after
its head); a minority's word never binds a voice it names.  An observer (``p2pcards verify``) reads a
journal as the seat that kept it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from p2pcards.table import bodies
from p2pcards.table.attempt import Attempt
from p2pcards.table.voices import Voices
from p2pcards.wire import SignedMessage

VOTE = "void_vote"
ABANDON = "abandon"


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


def named(claim: SignedMessage, n: int) -> tuple[int, ...]:
    """The voices a claim names (its body was checked when it came)."""
    what = "a void vote" if claim.kind == VOTE else "an abandon"
    return bodies.silent_body(claim.body, n, what)


def playing(voices: Voices, att: Attempt) -> tuple[int, ...]:
    """The voices at the table of ``att``: the people whose seat, or one of whose computers, is still
    in the match (a key holder, or a seat out of chips that watches); not those dealt out."""
    return voices.among(att.at_table)


def claim_problem(
    kind: str, voices: Voices, signer: int, silent: tuple[int, ...], step: int, att: Attempt
) -> str:
    """Why a claim of ``kind`` by ``signer`` naming ``silent`` at ``step`` of ``att`` is refused ("" if
    it is not); the texts are SPEC §6.1 and §6.2's."""
    if not voices.is_person(signer):
        return f"seat {signer} is a computer player: seat {voices.voice(signer)} speaks for its machine"
    if signer not in att.at_table:
        return f"seat {signer} is not at the table"
    if signer in silent:
        if kind == VOTE:
            return "a seat votes others silent, never itself"
        return "a seat cannot name itself silent"
    computers = [s for s in silent if not voices.is_person(s)]
    if computers:
        c = computers[0]
        return f"seat {c} is a computer player: name seat {voices.voice(c)}, whose machine runs it"
    voters = playing(voices, att)
    awaited = voices.among(att.awaited_at(step))
    if kind == VOTE:
        if 2 * len(silent) >= len(voters):
            return f"a vote names fewer than half of the {len(voters)} voices playing"
        if not set(silent) <= set(awaited):
            return f"seats {list(silent)} were not all awaited at step {step}"
        return ""
    if 2 * len(silent) < len(voters):
        return "a seat ends the match only when half the players or more are silent"
    if not set(silent) <= set(voters):
        return f"seats {list(silent)} are not all at the table"
    if not set(silent) & set(awaited):
        return f"none of seats {list(silent)} was awaited at step {step}"
    return ""


def vote_decision(
    voices: Voices,
    att: Attempt,
    step: int,
    prev: bytes,
    votes: Mapping[int, SignedMessage],
    spent: Callable[[int], bool],
    n: int,
) -> Decision | None:
    """What the votes at ``step`` of ``att`` decide, if they decide (see the module's docstring)."""
    if not votes:
        return None
    voters = playing(voices, att)
    live = tuple(v for v in voters if v in votes and not spent(v))
    awaited = voices.among(att.awaited_at(step))
    silent = tuple(v for v in awaited if v not in votes)
    if not silent or 2 * len(live) <= len(voters):
        return None
    if not all(set(silent) <= set(named(votes[v], n)) for v in live):
        return None
    return Decision(
        step,
        prev,
        silent,
        voices.seats_of(silent, att.active),
        live,
        True,
        tuple(votes[v] for v in live),
    )


def word_of(
    voices: Voices,
    att: Attempt,
    step: int,
    prev: bytes,
    claim: SignedMessage | None,
    spent: bool,
    n: int,
) -> Decision | None:
    """The decision an abandon of one voice makes for that voice alone (None if it is spent)."""
    if claim is None or spent:
        return None
    silent = named(claim, n)
    return Decision(step, prev, silent, voices.seats_of(silent, att.active), (claim.seat,), False, (claim,))


def binds(decision: Decision, me: int | None, consented: Callable[[Decision], bool]) -> bool:
    """Whether the replica of voice ``me`` takes ``decision``: a majority's, or its own word; one that
    names it only if it is a majority's and ``me`` consented to that very decision (a minority's word
    never binds a voice it names, consent or not)."""
    if me is not None and me in decision.silent:
        return decision.majority and consented(decision)
    return decision.majority or (me is not None and me in decision.signers)
