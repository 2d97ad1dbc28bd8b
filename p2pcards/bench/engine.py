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
from p2pcards.games.playout import random_hand
from p2pcards.games.rng import Rng

CASES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("spades", "Spades hand (deal, 4 bids, 52 cards)", {}),
    ("durak", "Durak hand, 4 players", {"players": 4}),
    ("azi", "Azi hand, 4 players", {"players": 4}),
)


def _rate(one_hand: Callable[[], object], seconds: float) -> tuple[int, float]:
    """Hands played and elapsed seconds, for at least ``seconds`` of wall time."""
    for _ in range(20):  # warm caches and allocators before timing
        one_hand()
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(10):
            one_hand()
        n += 10
        now = time.perf_counter()
        if now >= deadline:
            return n, now - start


def _ours(game: str, options: dict[str, Any], seed: int) -> Callable[[], object]:
    rules = games.load(game, **options)
    match = rules.new_match(0)
    rng = Rng(seed)

    def one_hand() -> object:
        return random_hand(match.new_hand(), rng)

    return one_hand


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


def run(seconds: float = 3.0, seed: int = 1) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    for game, label, options in CASES:
        n, elapsed = _rate(_ours(game, options, seed), seconds)
        rows.append({"engine": "p2pcards", "game": game, "case": label, "hands": n,
                     "seconds": round(elapsed, 3), "hands_per_s": round(n / elapsed, 1)})
    reference = _openspiel_spades(seed)
    ratio = None
    if reference is not None:
        n, elapsed = _rate(reference, seconds)
        rows.append({"engine": "open_spiel", "game": "spades", "case": "OpenSpiel spades hand (same driver)",
                     "hands": n, "seconds": round(elapsed, 3), "hands_per_s": round(n / elapsed, 1)})
        ours = next(r for r in rows if r["engine"] == "p2pcards" and r["game"] == "spades")
        ratio = round(ours["hands_per_s"] / rows[-1]["hands_per_s"], 2)
    return {
        "bench": "engine",
        "machine": f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}",
        "seconds_per_case": seconds,
        "rows": rows,
        "spades_vs_open_spiel": ratio,
        "open_spiel": "missing: pip install '.[bench]'" if reference is None else "measured",
    }


def format_table(result: dict[str, Any]) -> str:
    lines = [f"{'case':44} {'hands':>8} {'hands/s':>10}"]
    for r in result["rows"]:
        lines.append(f"{r['case']:44} {r['hands']:>8} {r['hands_per_s']:>10.1f}")
    ratio = result["spades_vs_open_spiel"]
    if ratio is None:
        lines.append("OpenSpiel not installed (pip install '.[bench]'): no reference measured")
    else:
        lines.append(f"Spades: p2pcards / OpenSpiel = {ratio:.2f}x (goal >= 1.5x)")
    lines.append(f"machine: {result['machine']}")
    return "\n".join(lines)
