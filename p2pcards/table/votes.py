"""Votes that seats are silent, and when they decide.

A seat that has waited past the timeout at the open step votes the missing seats silent
(``void_vote {silent: [...]}`` after that step's head).  Votes decide only when unanimous: every
other seat still playing voted the same seats, and those are fewer than half of the players, so
two halves of a split table can never both go on without the other.
"""

from __future__ import annotations

from collections.abc import Mapping

from p2pcards.table import bodies
from p2pcards.table.attempt import Attempt
from p2pcards.wire import SignedMessage


def vote_problem(voter: int, silent: tuple[int, ...], step: int, att: Attempt) -> str:
    """Why a vote of ``voter`` naming ``silent`` at ``step`` of ``att`` is refused ("" if it is not)."""
    active = att.active
    if voter not in active:
        return f"seat {voter} is not playing this hand"
    if voter in silent:
        return "a seat votes others silent, never itself"
    if 2 * len(silent) >= len(active):
        return f"a vote names fewer than half of the {len(active)} seats playing"
    if not set(silent) <= set(att.awaited_at(step)):
        return f"seats {list(silent)} were not all awaited at step {step}"
    return ""


def named(vote: SignedMessage, n: int) -> tuple[int, ...] | None:
    try:
        return bodies.silent_body(vote.body, n, "a void vote")
    except bodies.BodyError:
        return None


def unanimous(
    att: Attempt, votes: Mapping[int, SignedMessage], n: int
) -> list[tuple[tuple[int, ...], list[int]]]:
    """Every set of seats that all the other seats playing ``att`` voted silent (with those voters)."""
    found = []
    for silent in sorted({s for v in votes.values() if (s := named(v, n)) is not None}):
        voters = [s for s in att.active if s not in silent]
        if voters and all((v := votes.get(s)) is not None and named(v, n) == silent for s in voters):
            found.append((silent, voters))
    return found


def had_it(att: Attempt, step: int, voters: list[int]) -> list[int]:
    """The voters whose own later messages in ``att`` show they received what was due at ``step``."""
    later = {m.seat for m in att.messages() if m.step > step}
    return [v for v in voters if v in later]
