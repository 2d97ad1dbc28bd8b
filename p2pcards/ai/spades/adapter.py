"""The tournament adapters of Spades.

``SpadesAdapter`` (registered): the unit of play is one **deal** (one hand from a fresh 0-0 match, its
first dealer drawn from the deal's seed).  Each entry's value is its team's **score margin** for the
hand (its team's points minus the other team's); it wins the deal when the margin is positive, draws
when it is zero.  With two entries they sit as partners (entry 0 in seats 0 and 2, entry 1 in 1 and 3)
and the duplicate layouts swap the teams' seats; with four entries each has a seat.

``SpadesGameAdapter``: the unit is a whole **game to 500** (or the ``target``/``floor`` options); the value
is the final score margin.  The runner cannot pick an adapter by name, so ``game_plan`` builds a
tournament plan with it (used by ``python -m p2pcards.ai.spades.measure --unit game``).
"""

from __future__ import annotations

from p2pcards.ai.tournament import Adapter, Config, Outcome, Plan, Unit, plan
from p2pcards.games import Match, OptionError, Rules
from p2pcards.games.spades import HandResult, SpadesMatch


def _team_of(entry: int, layout: tuple[int, ...]) -> int:
    teams = {s % 2 for s, e in enumerate(layout) if e == entry}
    if len(teams) != 1:
        raise OptionError("in Spades an entry plays one team's seats")
    return teams.pop()


class SpadesAdapter(Adapter):
    game = "spades"
    unit = "deal"
    value_name = "margin"

    def default_players(self, rules: Rules) -> list[str]:
        return ["normal", "normal"]

    def layouts(self, rules: Rules, entries: int) -> list[tuple[int, ...]]:
        if entries == 1:
            return [(0, 0, 0, 0)]
        if entries == 2:
            return [(0, 1, 0, 1), (1, 0, 1, 0)]
        if entries == 4:
            return [(0, 1, 2, 3), (1, 0, 3, 2)]
        raise OptionError("Spades is played by 1, 2 (as teams) or 4 kinds of player, not "
                          f"{entries}")

    def unit_over(self, match: Match, hands: int) -> bool:
        return True

    def margins(self, unit: Unit) -> tuple[int, int]:
        """Team 0's and team 1's margin over the unit."""
        result = unit.hands[-1].result
        assert isinstance(result, HandResult)
        a, b = result.points
        return a - b, b - a

    def outcome(self, unit: Unit) -> list[Outcome]:
        margins = self.margins(unit)
        out = []
        for e in range(unit.entries):
            m = margins[_team_of(e, unit.layout)]
            out.append(Outcome(2 if m > 0 else 1 if m == 0 else 0, float(m)))
        return out

    def summary(self, unit: Unit) -> str:
        result = unit.hands[-1].result
        assert isinstance(result, HandResult)
        return result.summary().replace("\n", " | ")


class SpadesGameAdapter(SpadesAdapter):
    unit = "game to 500"

    def unit_over(self, match: Match, hands: int) -> bool:
        return match.over

    def margins(self, unit: Unit) -> tuple[int, int]:
        m = unit.match
        assert isinstance(m, SpadesMatch)
        a, b = m.scores
        return a - b, b - a

    def summary(self, unit: Unit) -> str:
        return unit.match.summary()


def game_plan(config: Config) -> Plan:
    """A tournament plan whose units are whole games (``SpadesGameAdapter``)."""
    p = plan(config)
    adapter = SpadesGameAdapter()
    return Plan(p.config, adapter, p.rules, p.kinds, adapter.layouts(p.rules, len(p.kinds)))
