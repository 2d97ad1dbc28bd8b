"""The tournament adapters of Spades.

``SpadesAdapter`` (registered): the unit of play is one **deal** (one hand from a fresh 0-0 match, its
first dealer drawn by the table's coin, which derives from the deal's seed).  Each entry's value is its
team's **score margin** for the hand (its team's points minus the other team's); it wins the deal when
the margin is positive, draws when it is zero.  With two entries they sit as partners (entry 0 in seats
0 and 2, entry 1 in 1 and 3) and the duplicate layouts swap the teams' seats; with four entries each
has a seat.

``SpadesGameAdapter`` (registered as the unit ``game``: ``p2pcards sim spades --unit game``): the unit is a
whole **game to 500** (or the ``target``/``floor`` options); the value is the final score margin.
"""

from __future__ import annotations

from p2pcards.ai.tournament import Adapter, Outcome, Report, Unit, wilson
from p2pcards.games import Match, OptionError, Rules
from p2pcards.games.spades import HandResult, SpadesMatch
from p2pcards.games.spades.scoring import TEAMS


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
        """The deal in entries: ``normal #1 (bid 4 + 1, took 4 + 1): +50 (contract 5 made ...);
        score 50, bags 0 | easy #2 (...): ...``, each team named by the entries in its seats."""
        result = unit.hands[-1].result
        assert isinstance(result, HandResult)
        sides = []
        for team in result.teams:
            seats = TEAMS[team.team]
            bids = " + ".join(result.bid_text(s) for s in seats)
            took = " + ".join(str(result.tricks[s]) for s in seats)
            side = unit.seats_label(seats, count=False)
            sides.append(f"{side} (bid {bids}, took {took}): {team.outcome()}")
        return " | ".join(sides)

    def notes(self, report: Report) -> list[str]:
        """With two entries in duplicate play, the **duplicate pairs** line: each deal's plays (the teams
        swapping seats) added up, so the luck of the cards cancels; entry 1 wins a deal when its
        margins sum to more than zero."""
        if not report.duplicate or len(report.kinds) != 2 or not report.units:
            return []
        wins, n, (lo, hi) = duplicate_pairs(report)
        return [f"duplicate pairs: {report.labels[0]} wins {wins:g} of {n} deals (both seatings added): "
                f"{100 * wins / n:.1f}%  [{100 * lo:.1f}% - {100 * hi:.1f}%]"]


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
        """The game's end in entries: ``after 9 hands: normal #1 520 points, 3 bags; easy #2 310
        points, 7 bags. normal #1 wins.``"""
        m = unit.match
        assert isinstance(m, SpadesMatch)
        n = m.hands_played
        teams = "; ".join(f"{unit.seats_label(TEAMS[t], count=False)} {m.scores[t]} points, "
                          f"{m.bags[t]} bag{'' if m.bags[t] == 1 else 's'}" for t in (0, 1))
        head = f"after {n} hand{'s' if n != 1 else ''}: " if n else ""
        if m.winner is not None:
            seats = TEAMS[m.winner]
            verb = "wins" if len({unit.layout[s] for s in seats}) == 1 else "win"
            return f"{head}{teams}. {unit.seats_label(seats, count=False)} {verb}."
        if m.over:
            return f"{head}{teams}. The game is over unfinished (abandoned, or cut short)."
        return f"{head}{teams}. Stopped before the target."


def duplicate_pairs(report: Report) -> tuple[float, int, tuple[float, float]]:
    """Entry 1's wins (draws count half) over whole deals, the number of deals, the Wilson interval."""
    sums: dict[int, float] = {}
    for u in report.units:
        sums[u.deal] = sums.get(u.deal, 0.0) + u.outcomes[0].value
    wins = sum(1.0 if v > 0 else 0.5 if v == 0 else 0.0 for v in sums.values())
    return wins, len(sums), wilson(wins, len(sums))
