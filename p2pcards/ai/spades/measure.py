"""Measure Spades players: ``python -m p2pcards.ai.spades.measure --players hard,normal --games 400``.

The same tournament as ``p2pcards sim spades --duplicate`` (same seeds, same deals), with two extras:

* ``--unit game`` plays whole games to 500 (``SpadesGameAdapter``) instead of single deals;
* the **duplicate pairs** line: each deal's two plays (the teams swapping seats) added up, so the
  luck of the cards cancels: the first entry wins a deal when its two margins sum to more than zero.
"""

from __future__ import annotations

import argparse
import time

from p2pcards.ai.spades.adapter import game_plan
from p2pcards.ai.tournament import Config, Report, build_report, format_report, iter_deals, plan, wilson


def duplicate_pairs(report: Report) -> tuple[float, int, tuple[float, float]]:
    """The first entry's wins (draws count half) over whole deals, the number of deals, the Wilson
    interval."""
    sums: dict[int, float] = {}
    for u in report.units:
        sums[u.deal] = sums.get(u.deal, 0.0) + u.outcomes[0].value
    wins = sum(1.0 if v > 0 else 0.5 if v == 0 else 0.0 for v in sums.values())
    return wins, len(sums), wilson(wins, len(sums))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m p2pcards.ai.spades.measure", description=__doc__)
    ap.add_argument("--players", default="hard,normal")
    ap.add_argument("--games", type=int, default=20, help="deals (each played in both seatings)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--unit", choices=("deal", "game"), default="deal")
    args = ap.parse_args(argv)
    config = Config("spades", tuple(args.players.split(",")), games=args.games, seed=args.seed,
                    duplicate=True, jobs=args.jobs)
    p = game_plan(config) if args.unit == "game" else plan(config)
    started = time.perf_counter()
    report = build_report(p, dict(iter_deals(p)), time.perf_counter() - started)
    print(format_report(report))
    wins, n, (lo, hi) = duplicate_pairs(report)
    print(f"duplicate pairs: {report.kinds[0]} wins {wins:g} of {n} deals (both seatings added): "
          f"{100 * wins / n:.1f}%  [{100 * lo:.1f}% - {100 * hi:.1f}%]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
