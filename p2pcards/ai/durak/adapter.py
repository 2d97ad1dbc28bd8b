"""The tournament adapter of Durak: the unit of play is one hand.

An entry loses the hand if one of its seats is the durak, draws if nobody is (everyone still holding
cards ran out in the same bout, D13), and wins otherwise.  Its value is its seats' series points of D14
(+1 for the first out, -1 for the durak).  The ``series_hands`` option is not used: every unit is
a new one-hand match, dealt by a seat drawn from the deal's seed.  The unit's line names the entries
(``hard #1``), not the seats, which change from layout to layout.
"""

from __future__ import annotations

from p2pcards.ai.tournament import OneSeatPerEntry, Outcome, Unit
from p2pcards.games import Match, Rules
from p2pcards.games.durak import DurakResult


class DurakAdapter(OneSeatPerEntry):
    game = "durak"
    unit = "hand"
    value_name = "points"

    def default_players(self, rules: Rules) -> list[str]:
        return ["normal"] * rules.players

    def unit_over(self, match: Match, hands: int) -> bool:
        return True

    def outcome(self, unit: Unit) -> list[Outcome]:
        result = unit.hands[-1].result
        assert isinstance(result, DurakResult)
        pts = result.points()
        out = []
        for e in range(unit.entries):
            seats = [s for s, x in enumerate(unit.layout) if x == e]
            value = float(sum(pts[s] for s in seats))
            if result.durak is None:
                out.append(Outcome(1, value))
            elif result.durak in seats:
                out.append(Outcome(0, value))
            else:
                out.append(Outcome(2, value))
        return out

    def summary(self, unit: Unit) -> str:
        """How the hand ended (D13-D15), in entries: ``hard #1 went out first, then random #3;
        random #2 is the durak.``"""
        result = unit.hands[-1].result
        assert isinstance(result, DurakResult)
        return result.summary(unit.seats_label)
