"""The replica's door to the claims: from an attempt to the values ``claims`` takes.

The rule itself — votes, abandons, consent, spending, the restore horizon and the invariants — is in
``claims`` (``protocol/SPEC.md`` §6.5, §9.6).  This module only reads an ``Attempt`` (who is at the
table, who holds keys, who was awaited at a step) and calls it; the replica asks for the votes'
decision through ``vote_decision`` here, so a test that breaks the vote rule on purpose (to show the
explorer catches it) has one name to replace.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from p2pcards.table import claims
from p2pcards.table.claims import ABANDON, VOTE, Decision, named
from p2pcards.table.voices import Voices
from p2pcards.wire import SignedMessage

__all__ = [
    "ABANDON", "VOTE", "AttemptView", "Decision", "claim_problem", "named", "playing", "view", "vote_decision"
]


class AttemptView(Protocol):
    """What the rule reads of an attempt: ``table.attempt.Attempt`` is one, and so is the rule
    checker's abstract attempt (``harness/rule_check.py``), so both drive the same functions."""

    @property
    def at_table(self) -> tuple[int, ...]:
        """The seats at the table: key holders, and seats out of chips that watch."""

    @property
    def active(self) -> tuple[int, ...]:
        """The key holders."""

    def awaited_at(self, step: int) -> tuple[int, ...]: ...

    def head_before(self, step: int) -> bytes | None: ...

    def messages(self) -> list[SignedMessage]:
        """Every message of the attempt held, in log order."""


def view(att: AttemptView, step: int, prev: bytes) -> claims.StepView:
    """What the rule needs of step ``step`` after ``prev`` of ``att``."""
    return claims.StepView(step, prev, att.at_table, att.active, att.awaited_at(step))


def playing(voices: Voices, att: AttemptView) -> tuple[int, ...]:
    """The voices at the table of ``att`` (a key holder, or a seat out of chips that watches)."""
    return claims.voices_playing(voices, att.at_table)


def claim_problem(
    kind: str, voices: Voices, signer: int, silent: tuple[int, ...], step: int, att: AttemptView
) -> str:
    """Why a claim is refused at ``step`` of ``att`` ("" if it is not): ``claims.claim_problem``."""
    head = att.head_before(step)
    return claims.claim_problem(kind, voices, signer, silent, view(att, step, head or b""))


def vote_decision(
    voices: Voices,
    att: AttemptView,
    step: int,
    prev: bytes,
    votes: Mapping[int, SignedMessage],
    spent: Callable[[int], bool],
    n: int,
) -> Decision | None:
    """What the votes at ``step`` of ``att`` decide (``claims.vote_decision``), ``spent(v)`` telling
    whether the vote of voice ``v`` there is spent."""
    return claims.vote_decision(voices, view(att, step, prev), votes, {v for v in votes if spent(v)}, n)
