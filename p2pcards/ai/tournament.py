"""What a tournament between computer players is: deals, entries, layouts, adapters, the report.

``p2pcards.sim`` plays it, a layer up, through rooms of table replicas with the seeded dealer; this
module stays beside the players (it needs only the rules), so the games' AI modules can register
their adapters without loading the table.

* a **deal** is the seed of one unit's room (``deal_seed``: the deck orders of its hands and the
  first dealer's coin derive from it), derived from the tournament's seed and the deal's number, so
  deal ``g`` is the same whoever sits where;
* an **entry** is one position of the ``players`` list (a level, or ``random``; ``hard@SECONDS`` is Hard
  with a think time of its own instead of the tournament's ``think_ms``); a **layout** says which
  entry sits in each seat.  The adapter of the game lists the layouts (for two sides: as given, then
  swapped; for one focal seat against the rest: the focal seat in each position).  The report names
  an entry by its kind and its position in the list (``hard #1``, ``random #2``: ``entry_labels``),
  never by a seat: the seats change from layout to layout;
* without ``duplicate``, deal ``g`` is played once, in layout ``g mod L`` (the seats rotate from deal to
  deal); with ``duplicate``, every deal is played once in every layout, so luck of the cards cancels.

What a unit of play is (a Durak hand, a Spades deal or game, an Azi hand), what an entry scored in it
(win, draw or loss, and a number: points, a score margin, chips) and any game-specific lines of the
report (``Adapter.notes``) come from the game's **adapter**.  Each game's AI module registers one with
``register`` when it is imported (``p2pcards.ai.<game>``); games without one get ``MatchAdapter``,
which plays whole matches and reports only their summaries.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from p2pcards.ai.base import LEVELS, Player, RandomPlayer
from p2pcards.ai.budget import DEFAULT_THINK_MS, parse_think
from p2pcards.games import HandState, Match, OptionError, Rules, load
from p2pcards.games.rng import Rng
from p2pcards.text import options_text

KINDS: tuple[str, ...] = (*LEVELS, "random")
"""What may sit in a seat: a computer player's level, or uniform random legal play."""

Z95 = 1.959963984540054


# --------------------------------------------------------------------------- adapters


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one entry got from one unit of play."""

    points: int | None
    """2 for a win, 1 for a draw, 0 for a loss; None when the game's adapter does not rank entries."""
    value: float = 0.0
    """The game's own measure (Durak series points, Spades score margin, Azi chips won)."""


@dataclass(slots=True)
class Unit:
    """One unit of play as the runner saw it, for the adapter to judge."""

    rules: Rules
    layout: tuple[int, ...]
    """Per seat, the entry sitting there."""
    entries: int
    match: Match
    """The match after the unit's last hand."""
    hands: list[HandState]
    """The finished hands, in order, each as the table's ``HandOver`` gave it: the final state after
    the audit (the cards a rule checks are open; discards and folded hands may stay hidden)."""
    stopped: bool = False
    """True if the unit was cut short by the hand limit."""
    labels: tuple[str, ...] = ()
    """Per entry, how the report names it (``entry_labels``); empty: ``#1``, ``#2``..."""

    def label(self, entry: int) -> str:
        return self.labels[entry] if entry < len(self.labels) else f"#{entry + 1}"

    def seat_label(self, seat: int) -> str:
        """The entry sitting in ``seat``, as the report names it."""
        return self.label(self.layout[seat])

    def seats_label(self, seats: Sequence[int], *, count: bool = True) -> str:
        """The entries in ``seats``, in the order of the seats, each named once (with ``count``, with
        the number of its seats there when it has more than one): ``a``, ``a and b``,
        ``a (2 seats), b and c``."""
        names: list[str] = []
        counts: dict[str, int] = {}
        for s in seats:
            name = self.seat_label(s)
            if name not in counts:
                names.append(name)
            counts[name] = counts.get(name, 0) + 1
        named = [n if counts[n] == 1 or not count else f"{n} ({counts[n]} seats)" for n in names]
        return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


class Adapter:
    """How the tournament plays and judges one game.  Subclass it in the game's AI module and
    ``register`` an instance; every method has a default that fits a game of single hands."""

    game: str = ""
    unit: str = "match"
    """What one unit of play is, for reports ("hand", "game to 500", ...)."""
    value_name: str = "value"
    """What ``Outcome.value`` measures, for reports ("points", "margin", "chips")."""

    def options(self, entries: int, options: dict[str, Any]) -> dict[str, Any]:
        """The table options for ``entries`` entries (e.g. one seat per entry).  Default: unchanged."""
        return dict(options)

    def default_players(self, rules: Rules) -> list[str]:
        """Who plays when the user names nobody: random legal play in every seat."""
        return ["random"] * rules.players

    def layouts(self, rules: Rules, entries: int) -> list[tuple[int, ...]]:
        """Per layout, the entry in each seat.  Default: entry ``s mod entries`` in seat ``s``,
        rotated one seat at a time (distinct rotations only): two entries in two seats swap."""
        return rotations(entries, rules.players)

    def unit_over(self, match: Match, hands: int) -> bool:
        """Whether the unit is complete after ``hands`` hands.  Default: when the match is over."""
        return match.over

    def outcome(self, unit: Unit) -> list[Outcome]:
        """Per entry, what it got from the unit.  Default: nothing ranked."""
        return [Outcome(None) for _ in range(unit.entries)]

    def summary(self, unit: Unit) -> str:
        """The unit in a line, entries named as the report names them.  Default: the standings
        after it, best first."""
        parts = []
        for s in unit.match.standings().ranking():
            tag = "" if s.status == "playing" else f" ({s.status})"
            parts.append(f"{unit.seat_label(s.seat)} {s.score}{tag}")
        return ", ".join(parts)

    def notes(self, report: Report) -> list[str]:
        """Lines the report adds for this game (e.g. an interval of the average value).  Default: none."""
        return []


class OneSeatPerEntry(Adapter):
    """For a game whose table size is its ``players`` option: one seat per entry unless the options
    say otherwise."""

    def options(self, entries: int, options: dict[str, Any]) -> dict[str, Any]:
        out = dict(options)
        out.setdefault("players", entries)
        return out


class MatchAdapter(OneSeatPerEntry):
    """For a game whose AI module registered no adapter: whole matches, summaries only."""

    def __init__(self, game: str) -> None:
        self.game = game


_ADAPTERS: dict[str, Adapter] = {}
_VARIANTS: dict[tuple[str, str], Adapter] = {}


def register(adapter: Adapter, unit: str | None = None) -> None:
    """Make ``adapter`` the tournament adapter of ``adapter.game`` (a game's AI module does this).

    With ``unit``, register another unit of play that ``Config.unit`` / ``p2pcards sim --unit`` may
    choose by that name (e.g. ``register(SpadesGameAdapter(), unit="game")``)."""
    if unit is None:
        _ADAPTERS[adapter.game] = adapter
    else:
        _VARIANTS[(adapter.game, unit.strip().lower())] = adapter


def _import_game(game: str) -> None:
    """Import the players module ``game``'s registration names: a module that has adapters registers
    them when it is imported."""
    if game not in _ADAPTERS:
        from p2pcards.games.registry import entry

        module = entry(game).players
        try:
            import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise


def units_of(game: str) -> list[str]:
    """The names of the other units of play registered for ``game``."""
    _import_game(game)
    return sorted(u for g, u in _VARIANTS if g == game)


def adapter_for(game: str, unit: str | None = None) -> Adapter:
    """The registered adapter of ``game`` (importing its AI module first), or a ``MatchAdapter``;
    with ``unit``, the adapter registered under that name (``OptionError`` if there is none)."""
    _import_game(game)
    if unit is not None:
        got = _VARIANTS.get((game, unit.strip().lower()))
        if got is None:
            units = units_of(game)
            offered = f"the units are: {', '.join(units)}" if units else "it offers no other unit"
            raise OptionError(f"{game} has no unit of play named {unit!r}; {offered}")
        return got
    return _ADAPTERS.get(game) or MatchAdapter(game)


def rotations(entries: int, seats: int) -> list[tuple[int, ...]]:
    if not 1 <= entries <= seats:
        raise OptionError(f"{entries} players named for {seats} seats")
    base = [s % entries for s in range(seats)]
    out: list[tuple[int, ...]] = []
    for r in range(seats):
        lay = tuple(base[(s - r) % seats] for s in range(seats))
        if lay not in out:
            out.append(lay)
    return out


# --------------------------------------------------------------------------- configuration


@dataclass(frozen=True, slots=True)
class Config:
    game: str
    players: tuple[str, ...] = ()
    """One kind per entry (a level or ``random``); empty: the adapter's default."""
    games: int = 10
    """Deals to play (each played once per layout with ``duplicate``)."""
    seed: int = 1
    duplicate: bool = False
    jobs: int = 1
    options: tuple[tuple[str, Any], ...] = ()
    max_hands: int = 2000
    """A unit stops after this many hands (a guard for matches that could run long)."""
    unit: str | None = None
    """Another unit of play registered for the game (``register(..., unit=NAME)``); None: the default."""
    max_moves: int = 20_000
    """A hand still going after this many moves is abandoned and its unit left unranked (a guard:
    some games let players who never give way go round in circles)."""
    think_ms: int = DEFAULT_THINK_MS
    """Hard's think time per decision, in milliseconds, as work units (``ai.budget``): the results do
    not depend on the machine or on ``jobs``.  An entry ``hard@SECONDS`` has its own."""


@dataclass(slots=True)
class Plan:
    """A configuration made concrete: the rules, the entries and the layouts."""

    config: Config
    adapter: Adapter
    rules: Rules
    kinds: tuple[str, ...]
    layouts: list[tuple[int, ...]]

    @property
    def units(self) -> int:
        return self.config.games * (len(self.layouts) if self.config.duplicate else 1)

    def units_of(self, deal: int) -> list[int]:
        """The layouts deal ``deal`` is played in."""
        if self.config.duplicate:
            return list(range(len(self.layouts)))
        return [deal % len(self.layouts)]


def plan(config: Config) -> Plan:
    """Check a configuration; raises ``OptionError`` / ``GameError`` naming what is wrong."""
    if config.games <= 0:
        raise OptionError("the number of games must be positive")
    if config.jobs <= 0:
        raise OptionError("the number of jobs must be positive")
    if config.max_hands <= 0:
        raise OptionError("the hand limit must be positive")
    kinds = tuple(k.strip().lower() for k in config.players)
    for k in kinds:
        kind_think(k)
    if not 1 <= config.think_ms <= 600_000:
        raise OptionError("the think time must be between 1 ms and 600 s")
    adapter = adapter_for(config.game.strip().lower(), config.unit)
    options = dict(config.options)
    if kinds:
        options = adapter.options(len(kinds), options)
    rules = load(config.game, **options)
    if not kinds:
        kinds = tuple(adapter.default_players(rules))
    if len(kinds) > rules.players:
        raise OptionError(f"{len(kinds)} players named but a {rules.name} table here has "
                          f"{rules.players} seats")
    layouts = adapter.layouts(rules, len(kinds))
    return Plan(config, adapter, rules, kinds, layouts)


# --------------------------------------------------------------------------- seeds and players


def _seed(config: Config, *parts: object) -> str:
    return "p2pcards/tournament/" + "/".join(str(p) for p in (config.seed, *parts))


def deal_seed(config: Config, deal: int) -> int:
    """The seed of deal ``deal``'s room.  The seeded dealer orders each hand's deck from it and the
    hand's number alone, and the first-dealer coin comes from it and the genesis, which does not
    depend on who sits where: so the deal is the same in every layout."""
    return Rng(_seed(config, "deal", deal)).next64()


def player_seed(config: Config, deal: int, layout: int, seat: int) -> int:
    return Rng(_seed(config, "player", deal, layout, seat)).next64()


def entry_labels(kinds: Sequence[str]) -> tuple[str, ...]:
    """How the report names each entry: its kind and its position in the players list (``hard #1``,
    ``random #2``, ``random #3``), the same in the table, the unit lines, the notes and the JSON, so
    that two entries of one kind are told apart, and an entry is not confused with a seat."""
    return tuple(f"{kind} #{entry + 1}" for entry, kind in enumerate(kinds))


def kind_think(kind: str) -> tuple[str, int | None]:
    """A kind's level and its own think time in ms (``hard@2.5``: Hard thinking 2.5 s), or None."""
    level, at, seconds = kind.partition("@")
    if level not in KINDS or (at and level != "hard"):
        raise OptionError(f"unknown player kind {kind!r}; the kinds are: {', '.join(KINDS)}, "
                          "and hard@SECONDS for Hard with its own think time")
    if not at:
        return level, None
    try:
        return level, parse_think(seconds)
    except ValueError as exc:
        raise OptionError(f"player kind {kind!r}: {exc}".replace("--think ", "")) from None


def make_player(rules: Rules, kind: str, seed: int, think_ms: int = DEFAULT_THINK_MS) -> Player:
    level, own = kind_think(kind)
    if level == "random":
        return RandomPlayer(rules, seed)
    from p2pcards.ai import player

    return player(rules, level, seed, think_ms if own is None else own)


@dataclass(slots=True)
class UnitResult:
    deal: int
    layout: int
    outcomes: list[Outcome]
    hands: int
    stopped: bool
    summary: str
    times: dict[str, list[float]] = field(default_factory=dict)
    """Per kind, the seconds of each decision with two or more legal actions."""


# --------------------------------------------------------------------------- the report


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``successes`` may count draws as halves)."""
    if n <= 0:
        return 0.0, 1.0
    ph = successes / n
    denom = 1 + z * z / n
    centre = (ph + z * z / (2 * n)) / denom
    half = z * math.sqrt(ph * (1 - ph) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(sorted_xs: Sequence[float], q: float) -> float:
    """The nearest-rank percentile (``q`` in 0..100) of sorted values."""
    if not sorted_xs:
        return 0.0
    k = max(0, math.ceil(q / 100 * len(sorted_xs)) - 1)
    return sorted_xs[min(k, len(sorted_xs) - 1)]


@dataclass(slots=True)
class EntryStats:
    entry: int
    kind: str
    label: str = ""
    """How the report names the entry (``entry_labels``)."""
    units: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    value_sum: float = 0.0

    @property
    def ranked(self) -> bool:
        return self.wins + self.draws + self.losses > 0

    @property
    def rate(self) -> float:
        """Wins plus half the draws, per unit."""
        n = self.wins + self.draws + self.losses
        return (self.wins + self.draws / 2) / n if n else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins + self.draws / 2, self.wins + self.draws + self.losses)

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.interval()
        return {"entry": self.entry, "kind": self.kind, "label": self.label, "units": self.units,
                "wins": self.wins, "draws": self.draws, "losses": self.losses, "rate": round(self.rate, 4),
                "ci95": [round(lo, 4), round(hi, 4)],
                "value_avg": round(self.value_sum / self.units, 4) if self.units else 0.0}


@dataclass(slots=True)
class Report:
    game: str
    options: dict[str, Any]
    seed: int
    duplicate: bool
    unit: str
    value_name: str
    kinds: tuple[str, ...]
    layouts: list[tuple[int, ...]]
    entries: list[EntryStats]
    units: list[UnitResult]
    times: dict[str, list[float]]
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    """The adapter's own lines (``Adapter.notes``)."""
    think_ms: int = DEFAULT_THINK_MS

    @property
    def hands(self) -> int:
        return sum(u.hands for u in self.units)

    @property
    def labels(self) -> tuple[str, ...]:
        """Per entry, how the report names it (``entry_labels``)."""
        return entry_labels(self.kinds)

    def timing(self, kind: str) -> dict[str, float]:
        xs = sorted(self.times.get(kind, []))
        return {"decisions": len(xs), "median_ms": round(percentile(xs, 50) * 1000, 3),
                "p95_ms": round(percentile(xs, 95) * 1000, 3),
                "max_ms": round(xs[-1] * 1000, 3) if xs else 0.0}

    def to_dict(self, units: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game, "options": self.options, "seed": self.seed, "duplicate": self.duplicate,
            "unit": self.unit, "value": self.value_name, "players": list(self.kinds),
            "think_ms": self.think_ms, "layouts": [list(x) for x in self.layouts],
            "deals": len({u.deal for u in self.units}),
            "units": len(self.units), "hands": self.hands,
            "stopped": sum(1 for u in self.units if u.stopped),
            "entries": [e.to_dict() for e in self.entries],
            "timing": {k: self.timing(k) for k in sorted(self.times)},
            "seconds": round(self.seconds, 3),
            "notes": list(self.notes),
        }
        if units:
            out["results"] = [
                {"deal": u.deal, "layout": u.layout, "hands": u.hands, "stopped": u.stopped,
                 "points": [o.points for o in u.outcomes], "values": [o.value for o in u.outcomes],
                 "summary": u.summary}
                for u in self.units]
        return out


def build_report(p: Plan, by_deal: dict[int, list[UnitResult]], seconds: float) -> Report:
    entries = [EntryStats(e, k, label) for (e, k), label in zip(enumerate(p.kinds), entry_labels(p.kinds),
                                                                  strict=True)]
    units: list[UnitResult] = []
    times: dict[str, list[float]] = {}
    for g in sorted(by_deal):
        for u in by_deal[g]:
            units.append(u)
            for e, o in zip(entries, u.outcomes, strict=True):
                e.units += 1
                e.value_sum += o.value
                if o.points == 2:
                    e.wins += 1
                elif o.points == 1:
                    e.draws += 1
                elif o.points == 0:
                    e.losses += 1
            for k in sorted(u.times):
                times.setdefault(k, []).extend(u.times[k])
    report = Report(p.rules.name, dict(p.rules.options), p.config.seed, p.config.duplicate, p.adapter.unit,
                    p.adapter.value_name, p.kinds, p.layouts, entries, units, times, seconds,
                    think_ms=p.config.think_ms)
    report.notes = p.adapter.notes(report)
    return report


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def format_report(r: Report) -> str:
    """The report as a plain-text table; every entry named by its label (``hard #1``), never by a
    seat, since the seats change from layout to layout."""
    mode = "duplicate" if r.duplicate else "rotating seats"
    deals = len({u.deal for u in r.units})
    counted = ", ".join(_count(n, what) for n, what in ((deals, "deal"), (len(r.units), "unit"),
                                                         (r.hands, "hand")))
    think = f"; hard thinks {r.think_ms / 1000:g} s" if any(k.startswith("hard") for k in r.kinds) else ""
    lines = [f"{r.game} ({options_text(r.options.items())}); {r.unit} per unit; seed {r.seed}; {mode}; "
             f"{counted} in {r.seconds:.1f} s{think}"]
    stopped = sum(1 for u in r.units if u.stopped)
    if stopped:
        lines.append(f"{stopped} unit(s) cut short (hand limit, or a hand that did not end); "
                     "an abandoned hand is not ranked")
    if any(e.ranked for e in r.entries):
        width = max(len("player"), *(len(e.label) for e in r.entries))
        lines.append("")
        lines.append(f"{'player':<{width}} {'units':>6} {'wins':>6} {'draws':>6} {'losses':>6} "
                     f"{'win rate':>8}  {'95% interval':<15} {'avg ' + r.value_name:>10}")
        for e in r.entries:
            lo, hi = e.interval()
            avg = e.value_sum / e.units if e.units else 0.0
            lines.append(f"{e.label:<{width}} {e.units:>6} {e.wins:>6} {e.draws:>6} {e.losses:>6} "
                         f"{100 * e.rate:>7.1f}%  {100 * lo:5.1f}% - {100 * hi:5.1f}%  {avg:>+10.3f}")
        lines.append("(win rate: wins plus half the draws, per unit; Wilson 95% interval)")
        lines.append("(#N: the entry's place in the list of players, whatever seat it had)")
    if r.notes:
        lines.append("")
        lines.extend(r.notes)
    else:
        lines.append("")
        for u in r.units:
            status = " (stopped: hand limit)" if u.stopped else ""
            lines.append(f"  deal {u.deal + 1:>4}: {_count(u.hands, 'hand'):>10}{status}  {u.summary}")
    if r.times:
        lines.append("")
        kw = max(7, *(len(k) for k in r.times))
        lines.append(f"{'kind':<{kw}} {'decisions':>9} {'median':>10} {'p95':>10} {'max':>10}")
        for k in sorted(r.times):
            t = r.timing(k)
            lines.append(f"{k:<{kw}} {t['decisions']:>9} {t['median_ms']:>8.2f}ms {t['p95_ms']:>8.2f}ms "
                         f"{t['max_ms']:>8.2f}ms")
        lines.append("(decision time: each choice among two or more legal actions, measured in the runner;")
        lines.append(" one row per kind of player, all its entries together)")
    return "\n".join(lines)
