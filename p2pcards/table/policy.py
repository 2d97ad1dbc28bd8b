"""When a replica signs a claim: the two clocks (``protocol/SPEC.md`` §10).

This is local policy, not part of what the messages decide (that is ``claims``): given what one
replica observes — how long the open step has been open here, when each voice was last heard, what it
holds for that step — it says which claim its seat may sign now, if any.  The replica then asks its
person (or, with nobody to ask, waits as the spec says) and signs.

Two clocks: a voice none of whose seats sent a frame for ``DISCONNECTED_MS`` is *disconnected* and may
be named once the step has been open for ``2 · RETRY_MS``; a connected one is a person thinking, never
named before the move clock (the genesis ``timeout_ms``) ran out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from p2pcards.table import claims, decide
from p2pcards.table.voices import Voices

RETRY_MS = 1_000
"""While waiting, how often to re-send our part of the open step and ask peers to catch us up."""

DISCONNECTED_MS = 10_000
"""The connection clock: a machine none of whose seats sent a frame for this long is disconnected,
and a seat waiting for it may vote it silent without waiting for its move clock.  A waiting seat
sends something every ``RETRY_MS``, a thinking one too: ten seconds of nothing is a machine gone, not
a person thinking, and long enough for a Wi-Fi to roam."""


class OpenAttempt(decide.AttemptView, Protocol):
    """What the policy reads of the attempt whose step is open: ``table.attempt.Attempt``, or the rule
    checker's abstract attempt (``harness/rule_check.py``)."""

    @property
    def step(self) -> int: ...

    @property
    def missing(self) -> tuple[int, ...]:
        """The seats the open step still awaits."""

    def holds(self, step: int, seat: int) -> bool: ...


@dataclass(frozen=True)
class Observed:
    """What one replica sees of the open step of ``att``."""

    voices: Voices
    att: OpenAttempt
    me: int
    """This replica's seat (a person's)."""
    waited: int
    """Milliseconds since the step opened here."""
    now: int
    heard: Mapping[int, int]
    """Per voice, when a frame from it last arrived (local time)."""
    never_heard: int
    """The time to count from for a voice never heard (this replica's first tick)."""
    timeout: int
    """The move clock, ``timeout_ms`` of the genesis."""
    claims: Mapping[int, object]
    """The voices with a vote or an abandon held for the open step after its head."""
    voted: bool
    """Whether this seat voted at the open step already."""
    gone_on: tuple[int, ...] = ()
    """The voices whose abandon at the open step names ours: they went on without us."""


@dataclass(frozen=True)
class Claim:
    kind: str
    """``claims.VOTE`` or ``claims.ABANDON``."""
    named: tuple[int, ...]
    after_vote: bool = False
    """An abandon that comes because our own vote could not decide."""
    awaited: tuple[int, ...] = ()
    """The voices the open step still awaits (``named`` may name more: voices silent at it)."""


def due(seen: Observed) -> Claim | None:
    """The claim this seat may sign at the open step now, or None (SPEC §10)."""
    att, voices = seen.att, seen.voices
    missing = att.missing
    if not missing or any(voices.voice(s) == seen.me for s in missing):
        return None  # our own machine owes something: it is not for us to wait for it
    gone = voices.among(missing)
    if seen.waited < 2 * RETRY_MS or not all(_past_clock(seen, v) for v in gone):
        return None
    playing = decide.playing(voices, att)
    if 2 * len(gone) >= len(playing):
        # Half or more missing: no vote can decide; this voice may only go on (or stop) by itself.
        return Claim(claims.ABANDON, unheard(seen, gone), awaited=gone)
    if not seen.voted:
        return Claim(claims.VOTE, gone, awaited=gone)
    # We voted; if too few voices are with us at this step for any vote to decide, this voice may go
    # on by itself.
    named = unvoted(seen, gone)
    if 2 * len(named) < len(playing):
        return None
    return Claim(claims.ABANDON, named, after_vote=True, awaited=gone)


def consents_to_word(word: claims.Decision, waits_for: Iterable[int]) -> bool:
    """Whether this seat, named by half the table's word ``word`` (``claims.half_words``), consents to
    it by itself (SPEC §10): when it is restoring and waits for a voice that word deals out (``waits_for``,
    the voices of ``claims.restore_wait``).  It can sign nothing that could differ until that voice
    answers, and no clock ends the wait, so its half can never play on: it goes with the other half
    (out of this hand, asking back in from the next) rather than wait for ever.  Its return is the same
    bytes whenever signed, so signing it while restoring risks no equivocation."""
    return word.half and any(v in word.silent for v in waits_for)


def _past_clock(seen: Observed, voice: int) -> bool:
    return seen.waited >= seen.timeout or _disconnected(seen, voice)


def _disconnected(seen: Observed, voice: int) -> bool:
    return seen.now - seen.heard.get(voice, seen.never_heard) >= DISCONNECTED_MS


def unheard(seen: Observed, gone: tuple[int, ...]) -> tuple[int, ...]:
    """The voices an abandon at the open step names when half or more are missing: those missing
    (whatever else they signed: a seat that votes but never moves stops the game as surely), and the
    key holders of which this replica holds nothing for the step."""
    att, voices = seen.att, seen.voices

    def heard(v: int) -> bool:
        return v in seen.claims or any(att.holds(att.step, s) for s in voices.seats_of((v,), att.active))

    holders = set(voices.among(att.active))
    return tuple(
        v
        for v in decide.playing(voices, att)
        if v in gone or (v != seen.me and v in holders and not heard(v))
    )


def unvoted(seen: Observed, gone: tuple[int, ...]) -> tuple[int, ...]:
    """The voices an abandon after our own vote names: those missing, and the others that are not with
    us at the step — no vote or abandon of theirs held, and disconnected or gone on without us.  A
    voice still connected that owes nothing here may be a person who keeps waiting for the missing
    (SPEC §10): it is theirs to decide, so we wait with them rather than name them."""
    return tuple(
        v
        for v in decide.playing(seen.voices, seen.att)
        if v in gone
        or (v != seen.me and v not in seen.claims and (_disconnected(seen, v) or v in seen.gone_on))
    )
