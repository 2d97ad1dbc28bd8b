"""Catch-up between replicas: asking for what we lack, and answering within bounds.

A replica that is behind (or restarted) sends ``catchup_request {after: k}``: it holds every step of
its log up to ``k``.  The answer is one ``catchup_response {msgs: [...]}`` of at most
``RESPONSE_BYTES`` of step and certificate messages: the votes, abandons and return requests (small:
they decide which attempt at a hand is played), then the steps in log order, then the evidence
against cheaters (up to 528 KiB each), each answer to a peer starting that list at another one.  What
does not fit is skipped, not waited for, so a large item never keeps the rest from being served, and
every answer lets the asker place some steps and ask for the next ones.  A request is signed and may
be replayed verbatim by anyone, so answers
are counted per peer in windows of ``INTERVAL_MS``: at most ``ANSWERS_PER_WINDOW`` answers and
``BYTES_PER_WINDOW`` bytes, each to a request that asks for less than the previous one did (a peer
that got an answer and moved on); a replayed request is answered once per window.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from p2pcards.table.attempt import Attempt
from p2pcards.table.held import Held
from p2pcards.wire import SignedMessage
from p2pcards.wire.kinds import KINDS, TRANSPORT_KINDS

INTERVAL_MS: Final = 500
ANSWERS_PER_WINDOW: Final = 4
BYTES_PER_WINDOW: Final = 2 * 1024 * 1024
RESPONSE_BYTES: Final = 900 * 1024
ASK_EVERY_MS: Final = 1_000
"""We ask a peer that sent what we cannot place at most this often."""


@dataclass
class _Window:
    opened: int = 0
    answers: int = 0
    bytes: int = 0
    after: int = -2


class Catchup:
    """Per peer: when we last asked it, and how much we answered it in the current window."""

    def __init__(self) -> None:
        self._windows: dict[int | None, _Window] = {}
        self._asked: dict[int | None, int] = {}
        self._turns: dict[int | None, int] = {}

    def turn(self, peer: int | None) -> int:
        """How many answers ``peer`` had from us: where its next answer starts the list of evidence."""
        count = self._turns.get(peer, 0)
        self._turns[peer] = count + 1
        return count

    def may_answer(self, peer: int | None, now: int, after: int) -> bool:
        w = self._windows.get(peer)
        if w is None or now - w.opened >= INTERVAL_MS:
            w = self._windows[peer] = _Window(now)
        if after <= w.after or w.answers >= ANSWERS_PER_WINDOW or w.bytes >= BYTES_PER_WINDOW:
            return False
        w.answers += 1
        w.after = after
        return True

    def answered(self, peer: int | None, size: int) -> None:
        self._windows[peer].bytes += size

    def may_ask(self, peer: int | None, now: int) -> bool:
        last = self._asked.get(peer)
        if last is not None and now - last < ASK_EVERY_MS:
            return False
        self._asked[peer] = now
        return True


LARGEST_ITEM: Final = 528 * 1024
"""The largest message a history holds (an evidence message: two shuffles)."""


def batch(history: Iterable[bytes]) -> tuple[list[bytes], int]:
    """What of ``history`` one answer carries, in order, skipping what no longer fits; and its size."""
    chosen: list[bytes] = []
    size = 0
    for raw in history:
        if size + len(raw) + 8 > RESPONSE_BYTES:
            if RESPONSE_BYTES - size < 64:
                break
            continue
        chosen.append(raw)
        size += len(raw) + 8
    return chosen, size


LARGEST_SIGNED: Final = max(
    limit for kind, limit in KINDS.items() if kind not in TRANSPORT_KINDS and kind != "evidence"
)
"""The largest step or claim a seat signs (a shuffle): what a restored seat looks for in an answer."""


def holds_every_step(size: int) -> bool:
    """Whether an answer of ``size`` bytes held every step and certificate its sender had (evidence
    aside): one that left room for the largest of them skipped none, since the walk takes the steps
    and certificates before the evidence.  Enough for a restored seat to learn what it signed."""
    return size + LARGEST_SIGNED + 8 <= RESPONSE_BYTES


def complete(size: int) -> bool:
    """Whether an answer of ``size`` bytes held everything its sender had: one that left room for the
    largest item skipped nothing.  A fuller one may have been cut, and the asker asks again."""
    return size + LARGEST_ITEM + 8 <= RESPONSE_BYTES


def history_after(
    held: Held,
    setup_steps: Iterable[tuple[int, Iterable[SignedMessage]]],
    finals: Iterable[tuple[int, list[bytes]]],
    path: Iterable[Attempt],
    after: int,
    turn: int,
    same_voice: bool = False,
) -> Iterable[bytes]:
    """What a peer that holds every step up to ``after`` needs: the small certificates, the steps in
    log order (the setup's, then the final hands' by their seal steps, then the attempts at the hand
    being played), then the evidence, starting at the ``turn``-th.  ``same_voice``: the peer is a
    seat of this replica's own voice (its runner, or a computer player it runs), which this voice's
    consents bind too: they come with the certificates, since one lost on its way would leave that
    seat short of a decision its voice accepted, for ever (SPEC §6.3)."""
    for key in sorted(held.votes):
        for _, vote in sorted(held.votes[key].items()):
            yield vote.data
    for key in sorted(held.abandons):
        for _, ended in sorted(held.abandons[key].items()):
            yield ended.data
    for _, ret in sorted(held.returns.items()):
        yield ret.data
    if same_voice:
        yield from (consent.data for consent in held.consents)
    if after < 2:
        for number, messages in setup_steps:
            if number > after:
                yield from (m.data for m in messages)
    for seal_step, payloads in finals:
        if seal_step > after:
            yield from payloads
    for att in path:
        yield from (m.data for m in att.messages() if m.step > after)
    proofs = [held.evidence[seat] for seat in sorted(held.evidence)]
    for i in range(len(proofs)):
        yield from proofs[(turn + i) % len(proofs)]
