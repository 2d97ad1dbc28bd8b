"""How many work units Hard gets through in a second, per game: the measurement behind
each game's ``UNITS_PER_SECOND`` (``ai.registry``;
``python -m p2pcards.ai.calibrate GAME [HANDS] [THINK_S]``).

Hard (at ``THINK_S`` seconds' worth of units by the current table) plays ``HANDS`` hands on the
engine against Normal players; every decision that searched is timed with ``time.perf_counter``
and its units counted.  The printed rate is units per second of search over all those decisions;
the median and p95 of the decision times show how the mapping holds.  A measuring tool: nothing
replicated uses its clock.
"""

from __future__ import annotations

import sys
import time
from decimal import Decimal

from p2pcards.ai import player
from p2pcards.ai.budget import units_per_second
from p2pcards.games import CHANCE, TERMINAL, load
from p2pcards.games.playout import fulfil_from
from p2pcards.games.rng import Rng


def measure(game: str, hands: int, think_ms: int, seed: int = 7
            ) -> tuple[int, float, list[float], list[float]]:
    """(units, seconds, decision times) of Hard's searching decisions over ``hands`` hands, and the
    times of its forced decisions (one legal action)."""
    rules = load(game, **({"players": 2} if game == "durak" else {}))
    units = 0
    seconds = 0.0
    times: list[float] = []
    forced: list[float] = []
    for h in range(hands):
        deck = list(rules.deck)
        Rng(f"calibrate/{seed}/{h}").shuffle(deck)
        seats = [player(rules, "hard" if s == h % rules.players else "normal", seed * 100 + s, think_ms)
                 for s in range(rules.players)]
        state = rules.new_hand({"dealer": h % rules.players})
        steps = 0
        while state.to_act != TERMINAL and steps < 5000:
            steps += 1
            if state.to_act == CHANCE:
                fulfil_from(state, deck)
                continue
            who = seats[state.to_act]
            view = state.view(state.to_act)
            started = time.perf_counter()
            action = who.choose(view)
            spent = time.perf_counter() - started
            work = getattr(who, "work", None)
            if work is not None and work.spent > 0:
                units += work.spent
                seconds += spent
                times.append(spent)
            elif work is not None and len(view.legal_actions) == 1:
                forced.append(spent)
            state.apply(action)
    return units, seconds, times, forced


def main(argv: list[str]) -> int:
    game = argv[0]
    hands = int(argv[1]) if len(argv) > 1 else 6
    think_ms = int(Decimal(argv[2]) * 1000) if len(argv) > 2 else 1000
    units, seconds, times, forced = measure(game, hands, think_ms)
    times.sort()
    forced.sort()
    if not times:
        print(f"{game}: no searching decisions")
        return 1
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(f"{game}: {units} units in {seconds:.2f} s = {units / seconds:,.0f} units/s "
          f"(table: {units_per_second(game):,}); {len(times)} decisions, median "
          f"{times[len(times) // 2] * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms; "
          f"{len(forced)} forced, max {forced[-1] * 1000 if forced else 0:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
