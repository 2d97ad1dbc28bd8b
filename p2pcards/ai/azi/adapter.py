"""The tournament adapter of Azi: the unit of play is one hand and its azi replays.

Every unit is a new match (everyone at the bankroll, the first dealer drawn from the deal's seed)
played until the pot is won: a hand, and again while it ends in an azi (A14) and the pot is carried
over.  An entry's value is the chips its seats won or lost over the unit; it wins the unit when
that is positive, draws at zero, loses below.  With ``players`` naming one entry per seat (the
default layouts), duplicate play sits every entry in every seat of every deal.  Lines name the
entries (``random #2``), not the seats.
"""

from __future__ import annotations

import math

from p2pcards.ai.tournament import Z95, OneSeatPerEntry, Outcome, Report, Unit
from p2pcards.games import Match, Rules
from p2pcards.games.azi import AziMatch, AziResult


class AziAdapter(OneSeatPerEntry):
    game = "azi"
    unit = "hand"
    value_name = "chips"

    def default_players(self, rules: Rules) -> list[str]:
        return ["normal"] * rules.players

    def unit_over(self, match: Match, hands: int) -> bool:
        assert isinstance(match, AziMatch)
        return match.pot == 0

    def outcome(self, unit: Unit) -> list[Outcome]:
        m = unit.match
        assert isinstance(m, AziMatch)
        start = unit.rules.option("bankroll")
        # a unit cut short by the hand limit: the carried pot goes back to whoever put it in
        stacks = m.stop().stacks if m.pot else m.stacks
        out = []
        for e in range(unit.entries):
            seats = [s for s, x in enumerate(unit.layout) if x == e]
            gain = sum(stacks[s] - start for s in seats)
            out.append(Outcome(2 if gain > 0 else (1 if gain == 0 else 0), float(gain)))
        return out

    def notes(self, report: Report) -> list[str]:
        if not report.units or not report.entries[0].ranked:
            return []
        mean, lo, hi, n = chip_interval(report)
        over = f"{n} deals, each the mean of its seatings" if report.duplicate else f"{n} hands"
        return [f"{report.labels[0]}: {mean:+.1f} chips per hand, 95% interval "
                f"[{lo:+.1f}, {hi:+.1f}] (over {over})"]

    def summary(self, unit: Unit) -> str:
        """How the unit's last hand ended (A13, A14), in entries: ``normal #2 wins 40 of a pot of 40
        (tricks: normal #2 2, random #1 1)``."""
        last = unit.hands[-1].result
        text = last.summary(unit.seats_label) if isinstance(last, AziResult) else super().summary(unit)
        if len(unit.hands) > 1:
            text = f"{len(unit.hands) - 1} azi replay(s); " + text
        return text


def chip_interval(report: Report, entry: int = 0) -> tuple[float, float, float, int]:
    """``(mean, low, high, n)``: the 95% interval of ``entry``'s chips per hand, mean ± 1.96·sd/√n.

    In duplicate play the unit of the interval is the deal (the mean over the deal's layouts, so the
    luck of the cards cancels within it); otherwise the hand."""
    groups: dict[int, list[float]] = {}
    for u in report.units:
        key = u.deal if report.duplicate else len(groups)
        groups.setdefault(key, []).append(u.outcomes[entry].value)
    xs = [sum(v) / len(v) for _, v in sorted(groups.items())]
    n = len(xs)
    if n == 0:
        return 0.0, 0.0, 0.0, 0
    mean = sum(xs) / n
    if n < 2:
        return mean, mean, mean, n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return mean, mean - half, mean + half, n
