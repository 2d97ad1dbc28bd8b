"""Votes that seats are silent, and when they decide.

A seat that has waited past the timeout at the open step votes the seats it misses silent
(``void_vote {silent: [...]}`` after that step's head).  Seats that waited different lengths of time
may miss different seats (one seat's message reached some of them in time), so votes need not name
the same seats.  What decides is who voted: when more than half of the players voted at a step, the
votes decide that the seats ``T`` awaited there that did not vote are silent, if every voter named
all of ``T``.  So two halves of a split table can never both go on without the other (each would
need more than half), a seat that votes shows it is there, a late message never leaves the votes
short of a decision (every voter named the seats still silent), and a seat that owed nothing at the
step is not named for it (if it is gone too, it is voted out at a step that awaits it).
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


def decision(
    att: Attempt, step: int, votes: Mapping[int, SignedMessage], n: int
) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The seats the votes at ``step`` of ``att`` decide are silent, with the voters; None if they do
    not decide (see the module's docstring)."""
    active = att.active
    voters = tuple(s for s in active if s in votes)
    awaited = att.awaited_at(step)
    silent = tuple(s for s in active if s not in votes and s in awaited)
    if not silent or 2 * len(voters) <= len(active):
        return None
    for seat in voters:
        named_by = named(votes[seat], n)
        if named_by is None or not set(silent) <= set(named_by):
            return None
    return silent, voters

