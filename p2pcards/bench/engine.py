"""Random legal playouts per second for each game, and OpenSpiel's Spades driven the same way.

Every engine is driven identically: the dealer's needs are fulfilled from a shuffled deck, and at
each turn one legal action is drawn uniformly with our seeded ``Rng``.  OpenSpiel's ``spades`` is
driven from Python with the same ``Rng``: 52 chance actions for the deal, then bids and plays.
"""

from __future__ import annotations

import platform
import time
from collections.abc import Callable
from typing import Any

from p2pcards import games
from p2pcards.games import registry
from p2pcards.games.playout import random_hand
from p2pcards.games.rng import Rng

CASES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("spades", "Spades hand (deal, 4 bids, 52 cards)", {}),
    ("durak", "Durak hand, 4 players", {"players": 4}),
    ("azi", "Azi hand, 4 players", {"players": 4}),
)
"""The package's games as docs/performance.md has measured them (the same labels and tables)."""


def cases() -> tuple[tuple[str, str, dict[str, Any]], ...]:
    """``CASES``, then every other registered game at the seats its registration names."""
    known = {game for game, _, _ in CASES}
    more = tuple((e.name, f"{e.title} hand, {e.seats} players", {"players": e.seats})
                 for e in registry.entries() if e.name not in known)
    return CASES + more


def _rate(one_hand: Callable[[], object], seconds: float) -> tuple[int, float]:
    """Hands played and CPU seconds, for at least ``seconds`` of CPU time."""
    for _ in range(20):  # warm caches and allocators before timing
        one_hand()
    n = 0
    start = time.process_time()
    while True:
        for _ in range(10):
            one_hand()
        n += 10
        spent = time.process_time() - start
        if spent >= seconds:
            return n, spent


def _side_by_side(a: Callable[[], object], b: Callable[[], object], seconds: float,
                  batch: int = 100) -> tuple[tuple[int, float], tuple[int, float]]:
    """(hands played, best batch rate) of two engines, measured in alternating short batches of CPU
    time so that load from other processes falls on both alike; the best batch is the least disturbed."""
    for _ in range(20):
        a()
        b()
    best = [0.0, 0.0]
    played = [0, 0]
    start = time.process_time()
    while time.process_time() - start < 2 * seconds:
        for k, fn in enumerate((a, b)):
            t0 = time.process_time()
            for _ in range(batch):
                fn()
            spent = time.process_time() - t0
            if spent > 0:
                best[k] = max(best[k], batch / spent)
            played[k] += batch
    return (played[0], best[0]), (played[1], best[1])


def _ours(game: str, options: dict[str, Any], seed: int) -> Callable[[], object]:
    rules = games.load(game, **options)
    match = rules.new_match(0)
    rng = Rng(seed)

    def one_hand() -> object:
        return random_hand(match.new_hand(), rng)

    return one_hand


def _driver_floor(moves: int, seed: int) -> Callable[[], object]:
    """The driver's own cost: the same loop (``to_act``, ``legal_actions``, a draw, ``apply``) over a
    state that does nothing, for ``moves`` moves a hand.  No engine can play faster than this."""
    rng = Rng(seed)

    class Null:
        to_act = 0

        def legal_actions(self) -> list[int]:
            return [1, 2, 3]

        def apply(self, action: int) -> None:
            return None

    state = Null()

    def one_hand() -> object:
        for _ in range(moves):
            if state.to_act >= 0:
                state.apply(rng.choice(state.legal_actions()))
        return state

    return one_hand


def _moves_per_hand(game: str, options: dict[str, Any], seed: int, hands: int = 200) -> float:
    """The average number of moves (seat actions) in a random hand: a hand of Durak is long."""
    rules = games.load(game, **options)
    match = rules.new_match(0)
    rng = Rng(seed)
    return sum(len(random_hand(match.new_hand(), rng).moves) for _ in range(hands)) / hands


def _openspiel_spades(seed: int) -> Callable[[], object] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    rng = Rng(seed)

    def one_hand() -> object:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.below(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.below(len(legal))])
        return state

    return one_hand


def _row(engine: str, game: str, case: str, n: int, rate: float,
         moves: float | None = None) -> dict[str, Any]:
    row: dict[str, Any] = {"engine": engine, "game": game, "case": case, "hands": n,
                           "hands_per_s": round(rate, 1)}
    if moves is not None:
        row["moves_per_hand"] = round(moves, 1)
        row["moves_per_s"] = round(rate * moves)
    return row


def run(seconds: float = 3.0, seed: int = 1) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    reference = _openspiel_spades(seed)
    ratio = None
    for game, label, options in cases():
        ours = _ours(game, options, seed)
        moves = _moves_per_hand(game, options, seed)
        if game == "spades" and reference is not None:
            (n, rate), (m, ref_rate) = _side_by_side(ours, reference, seconds)
            rows.append(_row("p2pcards", game, label, n, rate, moves))
            rows.append(_row("open_spiel", "spades", "OpenSpiel spades hand (same driver)", m, ref_rate))
            ratio = round(rows[-2]["hands_per_s"] / rows[-1]["hands_per_s"], 2)
        else:
            n, spent = _rate(ours, seconds)
            rows.append(_row("p2pcards", game, label, n, n / spent, moves))
        if game == "durak":
            n, spent = _rate(_driver_floor(round(moves), seed), seconds)
            rows.append(_row("driver", game, f"  the driver alone, {round(moves)} moves", n, n / spent))
    return {
        "bench": "engine",
        "machine": f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}",
        "cpu_seconds_per_case": seconds,
        "method": "CPU time; Spades and OpenSpiel in alternating batches of 100 hands, best batch rate; "
                  "moves per hand averaged over 200 further hands",
        "rows": rows,
        "spades_vs_open_spiel": ratio,
        "open_spiel": "missing: pip install '.[bench]'" if reference is None else "measured",
    }


def format_table(result: dict[str, Any]) -> str:
    lines = [f"{'case':44} {'hands':>8} {'hands/s':>10} {'moves/hand':>11} {'moves/s':>9}"]
    for r in result["rows"]:
        per = f"{r['moves_per_hand']:>11.1f} {r['moves_per_s']:>9}" if "moves_per_hand" in r else ""
        lines.append(f"{r['case']:44} {r['hands']:>8} {r['hands_per_s']:>10.1f} {per}")
    ratio = result["spades_vs_open_spiel"]
    if ratio is None:
        lines.append("OpenSpiel not installed (pip install '.[bench]'): no reference measured")
    else:
        lines.append(f"Spades: p2pcards / OpenSpiel = {ratio:.2f}x (goal >= 1.5x)")
    lines.append(f"machine: {result['machine']}")
    return "\n".join(lines)
