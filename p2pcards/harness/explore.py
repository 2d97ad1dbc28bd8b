"""An adversary that explores: seeded schedules of everything the network and a minority of cheating
voices can do to a table, with the table's promises checked after every delivery.

One exploration is one *schedule*, a list of choices.  At each point the explorer lists what is
enabled, in a fixed order (``_options``): deliver any frame in flight (so frames are reordered),
drop one, advance one seat's clock or everybody's, deliver everything in flight, restart an honest
machine from its journals, make an honest seat's next move slow or play it; and for the cheaters:
sign a ``void_vote`` or an ``abandon`` at any step and head they saw naming any set of seats, replay
a certificate they signed before, withhold everything they have in flight, or sign a second,
different message for a step they spoke at (equivocation).  A choice is a number: its remainder by
the number of kinds of move picks the kind (``KINDS``; the next one enabled if that one is not), the
rest picks one move of that kind, modulo their number — so any list of numbers replays, and a choice
keeps its kind when the schedule around it shrinks.  A seeded generator draws them, weighting the
kinds of move; a violation is then shrunk (chunks, then single choices removed) to a short schedule
and printed as a command that replays it.

After the schedule comes a calm phase: the cheaters fall silent, everything is delivered and the
honest clocks advance, until every honest replica has ended its match (an honest majority of voices
must get there), or the bound is reached.  The invariants are in ``explore_room.Room.check``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from p2pcards import games
from p2pcards.games.rng import Rng
from p2pcards.harness.explore_room import CLAIMS, Room, Shape, Violation

SHAPES = (
    Shape("3", 3, (2,)),
    Shape("4", 4, (3,)),
    Shape("4c", 4, (3,), ((1, 0),)),
    Shape("5", 5, (3, 4)),
    Shape("5c", 5, (2,), ((3, 2), (4, 2))),
)
"""Tables of 3 to 5 seats, a strict minority of the voices cheating.  ``4c``: seat 0's machine also
plays seat 1 (three voices, one cheating).  ``5c``: the cheater's machine plays seats 3 and 4 — a
majority of the keys, one voice of three."""

RESTART_BACK = 2
"""A restarting machine may come back from its whole journal or from an older copy missing up to this
many of each seat's own last messages (a backup, lost disk writes)."""

RETURN_ODDS = 8
"""One cheater's message in this many is a return (a consent to be dealt in again) rather than a claim."""

SCHEDULE_LENGTH = 400
CALM_ROUNDS = 400
"""Calm rounds (each: deliver everything, then every honest clock advances a tick) before a replica
that has not ended its match is said to wait for ever."""

WEIGHTS = {
    "deliver": 40,
    "drop": 3,
    "tick": 10,
    "tick-all": 6,
    "flush": 2,
    "restart": 1,
    "slow": 3,
    "move": 4,
    "claim": 8,
    "replay": 3,
    "withhold": 1,
    "equivocate": 1,
}


@dataclass
class Outcome:
    schedule: list[int]
    deliveries: int
    violation: str | None
    calm: bool = False
    """Whether the violation came in the calm phase (after the schedule)."""


@dataclass
class ShapeReport:
    shape: str
    schedules: int = 0
    deliveries: int = 0
    violations: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "shape": self.shape,
            "schedules": self.schedules,
            "deliveries": self.deliveries,
            "violations": self.violations,
        }


def shapes_for(game: str, options: dict[str, Any]) -> list[Shape]:
    """The shapes the game can be played at."""
    fit = []
    for shape in SHAPES:
        try:
            games.load(game, **(options | {"players": shape.seats}))
        except games.GameError:
            continue
        fit.append(shape)
    return fit


Group = tuple[str, int, Callable[[int], None]]
"""(kind, how many options, do the i-th)."""


def _options(room: Room) -> list[Group]:
    """What is enabled now, in a fixed order."""
    n = room.shape.seats
    honest = room.honest
    machines = sorted({room.voices.voice(s) for s in honest if s not in room.sure})
    groups: list[Group] = [
        ("deliver", len(room.pending), lambda i: room.deliver(room.pending.pop(i))),
        ("drop", len(room.pending), lambda i: _drop(room, i)),
        ("tick", n, room.tick),
        ("tick-all", 1, lambda i: _tick_all(room)),
        ("flush", 1, lambda i: _flush(room)),
        # (Restarts from the whole journal first, then from older copies: a schedule recorded before
        # the older copies were added replays as it did.)
        ("restart", len(machines) * (1 + RESTART_BACK),
         lambda i: room.restart(machines[i % len(machines)], i // len(machines))),
    ]
    slowable = [s for s in honest if s not in room.sure and s not in room.slow]
    groups.append(("slow", len(slowable), lambda i: room.slow.add(slowable[i])))
    waiting = sorted(room.slow)
    groups.append(("move", len(waiting), lambda i: _unslow(room, waiting[i])))
    if not room.muted:
        groups += _cheats(room)
    return [g for g in groups if g[1] > 0]


def _cheats(room: Room) -> list[Group]:
    signers, people, targets, seen, subsets = _claim_space(room)

    def claim(i: int) -> None:
        i, to = divmod(i, len(targets))
        i, mask = divmod(i, subsets)
        i, where = divmod(i, len(seen))
        kind_i, signer_i = divmod(i, len(signers))
        silent = [p for b, p in enumerate(people) if (mask + 1) >> b & 1]
        step, prev = seen[where]
        payload = room.sign_as(signers[signer_i], CLAIMS[kind_i], {"silent": silent}, step, prev)
        room.certificates.append((signers[signer_i], payload))
        room.inject(signers[signer_i], payload, targets[to])

    certificates = room.certificates[-16:]

    def replay(i: int) -> None:
        k, to = divmod(i, len(targets))
        signer, payload = certificates[k]
        room.inject(signer, payload, targets[to])

    steps = room.own_steps[-8:]

    def equivocate(i: int) -> None:
        k, to = divmod(i, len(targets))
        msg = steps[k]
        body = {"again": len(room.certificates)} | (msg.body if isinstance(msg.body, dict) else {})
        room.inject(msg.seat, room.sign_as(msg.seat, msg.kind, body, msg.step, msg.prev), targets[to])

    def withhold(i: int) -> None:
        room.pending = [f for f in room.pending if f[1] != signers[i]]

    claims = 0 if not seen else len(CLAIMS) * len(signers) * len(seen) * subsets * len(targets)
    people_signers = [s for s in signers if room.voices.is_person(s)]
    returns = len(people_signers) * len(seen) * len(targets)

    def claim_or_return(i: int) -> None:
        # (Returns after every claim: a schedule recorded before they were added replays as it did.)
        if i < claims:
            claim(i)
            return
        i, to = divmod(i - claims, len(targets))
        signer_i, where = divmod(i, len(seen))
        step, prev = seen[where]
        payload = room.sign_as(people_signers[signer_i], "return", {}, step, prev)
        room.certificates.append((people_signers[signer_i], payload))
        room.inject(people_signers[signer_i], payload, targets[to])

    return [
        ("claim", claims + returns, claim_or_return),
        ("replay", len(certificates) * len(targets), replay),
        ("withhold", len(signers), withhold),
        ("equivocate", len(steps) * len(targets), equivocate),
    ]


def _claim_space(room: Room) -> tuple[list[int], list[int], list[int | None], list[tuple[int, bytes]], int]:
    """Who may sign, the seats a claim may name, to whom it goes, where, and how many sets of seats."""
    people = [s for s in range(room.shape.seats) if room.voices.is_person(s)]
    targets: list[int | None] = [None, *room.honest]
    return sorted(room.cheat), people, targets, room.seen[-24:], (1 << len(people)) - 1


def _drop(room: Room, i: int) -> None:
    del room.pending[i]


def _tick_all(room: Room) -> None:
    for seat in range(room.shape.seats):
        room.tick(seat)


def _flush(room: Room, limit: int = 20_000) -> None:
    """Deliver everything in flight, in order, and what that causes (bounded)."""
    for _ in range(limit):
        room.settle()
        if not room.pending:
            return
        room.deliver(room.pending.pop(0))


def _unslow(room: Room, seat: int) -> None:
    room.slow.discard(seat)
    if seat in room.turns:
        room.turns.discard(seat)
        room.move(seat)


KINDS = tuple(WEIGHTS)


def _apply(groups: list[Group], choice: int) -> None:
    """Do what ``choice`` says: ``choice % len(KINDS)`` is the kind of move (the next one enabled, if
    that one is not), ``choice // len(KINDS)`` which of them, modulo their number.  (So a choice
    keeps its kind when the schedule around it shrinks.)"""
    by_kind = {kind: (count, do) for kind, count, do in groups}
    start = choice % len(KINDS)
    for k in range(len(KINDS)):
        count, do = by_kind.get(KINDS[(start + k) % len(KINDS)], (0, _nothing))
        if count:
            do(choice // len(KINDS) % count)
            return
    raise AssertionError("nothing is enabled")  # (a clock can always advance)


def _nothing(i: int) -> None:
    return None


def _draw(rng: Rng, room: Room, groups: list[Group]) -> int:
    """A seeded choice among ``groups``: a kind of move by its weight, then one move of that kind."""
    total = sum(WEIGHTS[kind] for kind, _, _ in groups)
    pick = rng.below(total)
    for kind, count, _ in groups:
        if pick < WEIGHTS[kind]:
            index = _likely_claim(rng, room) if kind == "claim" else rng.below(count)
            return index * len(KINDS) + KINDS.index(kind)
        pick -= WEIGHTS[kind]
    raise AssertionError("unreachable")


def _likely_claim(rng: Rng, room: Room) -> int:
    """The index of a claim (as ``_cheats`` numbers them) drawn toward the ones that can matter: most
    often a vote, at one of the last steps seen, naming one seat; now and then a return."""
    signers, people, targets, seen, subsets = _claim_space(room)
    if not rng.below(RETURN_ODDS):
        base = len(CLAIMS) * len(signers) * len(seen) * subsets * len(targets)
        returns = len([s for s in signers if room.voices.is_person(s)]) * len(seen) * len(targets)
        if returns:
            return base + rng.below(returns)
    kind = 0 if rng.below(4) else 1
    signer = rng.below(len(signers))
    where = len(seen) - 1 - rng.below(min(len(seen), 4)) if rng.below(4) else rng.below(len(seen))
    mask = (1 << rng.below(len(people))) - 1 if rng.below(2) else rng.below(subsets)
    to = rng.below(len(targets))
    return (((kind * len(signers) + signer) * len(seen) + where) * subsets + mask) * len(targets) + to


def play(room: Room, schedule: Sequence[int]) -> None:
    """Make the moves of ``schedule`` in ``room`` (raises ``Violation`` at the first broken promise)."""
    for choice in schedule:
        _apply(_options(room), choice)
        room.settle()
        room.check()


def run_schedule(
    game: str,
    shape: Shape,
    seed: int,
    options: dict[str, Any],
    schedule: Sequence[int] | None = None,
    length: int = SCHEDULE_LENGTH,
    calm: bool = True,
) -> Outcome:
    """One exploration: the given schedule (replayed modulo the options), or one drawn from ``seed``;
    then the calm phase (unless ``calm`` is false)."""
    rng = Rng(f"explore/{game}/{shape.name}/{seed}/schedule")
    taken: list[int] = []
    room: Room | None = None
    try:
        room = Room.make(game, shape, seed, options)
        steps = len(schedule) if schedule is not None else length
        for k in range(steps):
            groups = _options(room)
            choice = schedule[k] if schedule is not None else _draw(rng, room, groups)
            taken.append(choice)
            _apply(groups, choice)
            room.settle()
            room.check()
    except Violation as exc:
        return Outcome(taken, room.deliveries if room is not None else 0, str(exc))
    if calm:
        try:
            _calm(room)
        except Violation as exc:
            return Outcome(taken, room.deliveries, str(exc), calm=True)
    return Outcome(taken, room.deliveries, None)


def _calm(room: Room) -> None:
    # Before the first hand every seat must sign the setup (SPEC §3): a cheater silent there stops
    # the table, rightly.  Once an honest replica is past it, every honest one must end the match.
    started = any(room.tables[s].hand_number >= 0 for s in room.honest)
    room.mute()
    for seat in sorted(room.slow | room.turns):
        _unslow(room, seat)
    for _ in range(CALM_ROUNDS):
        _flush(room)
        if not started or not _waiting(room):
            return
        for seat in room.honest:
            room.tick(seat)
        room.settle()
    raise Violation(
        f"an honest replica waits for ever: seats {_waiting(room)} have not ended the match after "
        f"{CALM_ROUNDS} calm rounds with a majority of the voices present"
    )


def _waiting(room: Room) -> list[int]:
    """The honest seats that have not ended the match and should.  A seat out of it waits for the
    others to deal it in again; if an honest seat went on by its own word, they may never (an
    abandon binds nobody else: SPEC §6.5), so that wait is no fault.  Nor is the wait of a restored
    seat for a cheater that went silent before it answered: what the seat signed before its restart
    may have reached that cheater alone, so it must never sign at those steps again (SPEC §9.6).  But
    a restored seat still waiting for an honest peer's answer waits, even where what it holds so far
    ended its match: that end may not be the match's (SPEC §7.5)."""
    waiting = []
    for seat in room.honest:
        t = room.tables[seat]
        if t.restoring_from and all(s in room.cheat for s in t.restoring_from):
            continue
        if t.restoring_from:  # (its end, if it reached one, waits for what honest peers hold)
            waiting.append(seat)
            continue
        if t.over or t.stopped is not None or (room.abandoners and seat in t.seats_out):
            continue
        waiting.append(seat)
    return waiting


def shrink(
    game: str, shape: Shape, seed: int, options: dict[str, Any], failing: Outcome, budget: int | None = None
) -> Outcome:
    """A shorter schedule that still breaks the same invariant (by its name): remove chunks of choices,
    halving their size down to single ones, re-running each candidate (at most ``budget`` runs: by
    default 300, or 60 when the violation came in the calm phase, whose every candidate plays the
    match to its end).  A violation found within the schedule is looked for there alone.  Unless the
    budget runs out, no single choice of the result can be removed."""
    if budget is None:
        budget = 60 if failing.calm else 300
    best = failing
    name = _invariant(failing.violation)
    runs = 0
    chunk = max(1, len(best.schedule) // 2)
    while chunk >= 1 and runs < budget:
        start, shorter = 0, False
        while start < len(best.schedule) and runs < budget:
            candidate = best.schedule[:start] + best.schedule[start + chunk :]
            runs += 1
            result = run_schedule(game, shape, seed, options, candidate, calm=failing.calm)
            if result.violation is not None and _invariant(result.violation) == name:
                best, shorter = result, True
            else:
                start += chunk
        # A choice removed late changes what the earlier ones mean: single choices are tried again
        # until none can go, so the schedule printed has no choice it does not need.
        if chunk > 1 or not shorter:
            chunk //= 2
    return best


def _invariant(message: str | None) -> str:
    return (message or "").split(":")[0]


def replay_command(
    game: str, shape: Shape, seed: int, schedule: Sequence[int], options: dict[str, Any]
) -> str:
    opts = "".join(f" -o {k}={v}" for k, v in sorted(options.items()))
    listed = ",".join(str(c) for c in schedule) or "''"
    return (
        f"p2pcards harness {game}{opts} --explore 1 --explore-seed {seed} --shape {shape.name} "
        f"--schedule {listed}"
    )


def explore(
    game: str,
    *,
    schedules: int,
    seed: int,
    options: dict[str, Any] | None = None,
    shapes: Sequence[Shape] | None = None,
    schedule: Sequence[int] | None = None,
    length: int = SCHEDULE_LENGTH,
    progress: Callable[[], None] | None = None,
) -> list[ShapeReport]:
    """``schedules`` explorations per shape, seeds ``seed``, ``seed + 1``, …; each violation shrunk."""
    opts = dict(options or {})
    reports = []
    for shape in shapes if shapes is not None else shapes_for(game, opts):
        report = ShapeReport(shape.name)
        for k in range(schedules):
            s = seed + k
            outcome = run_schedule(game, shape, s, opts, schedule, length)
            report.schedules += 1
            report.deliveries += outcome.deliveries
            if outcome.violation is not None:
                small = outcome if schedule is not None else shrink(game, shape, s, opts, outcome)
                report.violations.append(
                    {
                        "seed": s,
                        "violation": small.violation,
                        "schedule": small.schedule,
                        "replay": replay_command(game, shape, s, small.schedule, opts),
                    }
                )
            if progress is not None:
                progress()
        reports.append(report)
    return reports


__all__ = [
    "SHAPES",
    "Outcome",
    "ShapeReport",
    "explore",
    "play",
    "replay_command",
    "run_schedule",
    "shapes_for",
    "shrink",
]
