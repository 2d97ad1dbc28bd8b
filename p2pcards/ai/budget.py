"""How long Hard thinks: a budget counted in units of work, never measured by a clock.

A person gives a computer player time (``--think SECONDS`` on ``play``, ``host`` and ``sim``, 1 s by
default).  Hard turns that into a count of **work units** with its game's ``UNITS_PER_SECOND``
(measured on the 2-core reference machine, see docs/ai.md; each game's players module gives it,
``ai.registry``) and searches until the count is spent, or sooner when the choice is clear
(``Tally``).  Counting work instead of timing it keeps every decision a function of the seed and the
view: a tournament gives the same results for any ``--jobs``, and on any machine.

A unit is one step of the search on the engine: a move of a playout, a position of an exact search,
or (for the cost of drawing it) a share of one sampled deal; each game says what it counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal, InvalidOperation

DEFAULT_THINK_MS = 1000
"""The think time of a computer player when nobody chose one: one second."""

MAX_THINK_MS = 600_000
"""The longest think time accepted: ten minutes."""

_default = [DEFAULT_THINK_MS]


def parse_think(text: str) -> int:
    """``--think SECONDS`` in whole milliseconds; a clear ``ValueError`` for anything else."""
    try:
        seconds = Decimal(text.strip())
    except InvalidOperation:
        raise ValueError(f"--think {text!r}: give the seconds a computer player may think, "
                         "e.g. --think 1 or --think 2.5") from None
    if not seconds.is_finite() or seconds <= 0:
        raise ValueError(f"--think {text!r}: the think time must be a positive number of seconds")
    ms = int(seconds * 1000)
    if ms < 1:
        raise ValueError(f"--think {text!r}: the think time must be at least 0.001 seconds")
    if ms > MAX_THINK_MS:
        raise ValueError(f"--think {text!r}: the think time may be at most {MAX_THINK_MS // 1000} seconds")
    return ms


def set_default_think(ms: int) -> None:
    """The think time of the computer players this process makes from now on without one of their own
    (``play`` and ``host`` set it from ``--think``)."""
    if not 1 <= ms <= MAX_THINK_MS:
        raise ValueError(f"a think time of {ms} ms is out of range")
    _default[0] = ms


def default_think() -> int:
    return _default[0]


def units_per_second(game: str) -> int:
    """Work units Hard gets through in one second of one core on the reference machine, for ``game``
    (its players module's ``UNITS_PER_SECOND``; ``OptionError`` naming what is missing)."""
    from p2pcards.ai.registry import players_of  # the players modules import this one

    return players_of(game).units_per_second


def units_for(game: str, ms: int | None = None) -> int:
    """The work units of a think time of ``ms`` milliseconds (the process default when None)."""
    ms = default_think() if ms is None else ms
    return max(1, ms * units_per_second(game) // 1000)


class Work:
    """The units one decision may spend, and has spent.  A search asks ``over`` before it starts
    another step, so a decision overshoots its budget by at most one step (one sampled deal)."""

    __slots__ = ("last", "limit", "spent", "steps")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.spent = 0
        self.steps = 0
        """Steps (sampled deals) begun."""
        self.last = 0
        """What had been spent when the last step began."""

    def begin(self) -> None:
        """A step of the search begins (a deal is drawn)."""
        self.steps += 1
        self.last = self.spent

    def spend(self, units: int) -> None:
        self.spent += units

    @property
    def left(self) -> int:
        return max(0, self.limit - self.spent)

    @property
    def over(self) -> bool:
        return self.spent >= self.limit


AGREE = 32
"""Samples that must all name the same best move before the search stops on agreement."""


class Tally:
    """Running totals of each candidate's value over the sampled deals, and the rule that stops an
    anytime search early: after ``AGREE`` samples in which one candidate was always among the best,
    or when the leader's margin over every other candidate is more than the rest of the budget could
    overturn (each remaining sample moving a difference by at most the largest it has moved so far)."""

    __slots__ = ("best_in", "samples", "spread", "totals")

    def __init__(self, candidates: int) -> None:
        self.totals = [0.0] * candidates
        self.best_in = [0] * candidates
        """Per candidate, the samples in which it had the best value (ties count for each)."""
        self.samples = 0
        self.spread = 0.0
        """The largest difference between two candidates' values in one sample so far."""

    def add(self, values: Sequence[float], weight: float = 1.0) -> None:
        top = max(values)
        low = min(values)
        for i, v in enumerate(values):
            self.totals[i] += weight * v
            if v == top:
                self.best_in[i] += 1
        self.samples += 1
        if weight * (top - low) > self.spread:
            self.spread = weight * (top - low)

    def unanimous(self) -> bool:
        """Some candidate was among the best in every sample, and there were at least ``AGREE``."""
        return self.samples >= AGREE and max(self.best_in) == self.samples

    def decided(self, samples_left: int) -> bool:
        """No candidate can overtake the leader in ``samples_left`` more samples."""
        if self.samples == 0 or len(self.totals) < 2:
            return self.samples > 0
        ranked = sorted(self.totals, reverse=True)
        return ranked[0] - ranked[1] > samples_left * self.spread

    def settled(self, work: Work) -> bool:
        """Whether to stop sampling: the budget is spent, or the choice is clear."""
        if work.over:
            return True
        if self.unanimous():
            return True
        if self.samples < AGREE:
            return False
        per_sample = max(1, work.spent // self.samples)
        return self.decided(work.left // per_sample + 1)
