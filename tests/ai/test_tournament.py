"""The tournament runner: seeded deals, rotating and duplicate seating, adapters, reports, jobs."""

from __future__ import annotations

from typing import Any

import pytest

from p2pcards.ai import tournament as T
from p2pcards.ai.base import RandomPlayer
from p2pcards.ai.durak.adapter import DurakAdapter
from p2pcards.games import GameError, Match, OptionError, Rules, View, load
from p2pcards.games.durak import DurakView


def config(**kw: Any) -> T.Config:
    base: dict[str, Any] = {"game": "durak", "players": ("easy", "normal"), "games": 6, "seed": 3}
    base.update(kw)
    return T.Config(**base)


def comparable(report: T.Report) -> dict[str, Any]:
    d = report.to_dict()
    d.pop("timing")
    d.pop("seconds")
    return d


def test_wilson_interval_known_values():
    lo, hi = T.wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = T.wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = T.wilson(260, 400)
    assert lo == pytest.approx(0.6021, abs=1e-3) and hi == pytest.approx(0.6951, abs=1e-3)
    assert T.wilson(0, 0) == (0.0, 1.0)


def test_percentile_is_nearest_rank():
    xs = [float(i) for i in range(1, 101)]
    assert T.percentile(xs, 50) == 50.0
    assert T.percentile(xs, 95) == 95.0
    assert T.percentile([], 95) == 0.0


def test_rotations_swap_two_sides_and_rotate_more():
    assert T.rotations(2, 2) == [(0, 1), (1, 0)]
    assert T.rotations(2, 4) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert T.rotations(3, 3) == [(0, 1, 2), (2, 0, 1), (1, 2, 0)]
    with pytest.raises(OptionError):
        T.rotations(3, 2)


def test_the_same_seed_gives_the_same_report_whatever_the_jobs():
    one = T.run(config(jobs=1, duplicate=True))
    two = T.run(config(jobs=2, duplicate=True))
    assert comparable(one) == comparable(two)
    assert comparable(one) != comparable(T.run(config(seed=4, duplicate=True)))


def test_duplicate_plays_every_deal_in_every_seating_with_the_same_cards():
    # Easy against Easy is a pure function of the cards and the seats: swapping the seats of the
    # same deal must mirror the result exactly.
    report = T.run(config(players=("easy", "easy"), games=8, duplicate=True))
    assert len(report.units) == 16
    for first, second in zip(report.units[::2], report.units[1::2], strict=True):
        assert first.deal == second.deal and (first.layout, second.layout) == (0, 1)
        assert [o.points for o in first.outcomes] == [o.points for o in second.outcomes][::-1]
        assert first.summary == second.summary  # the same game, the entries in swapped seats


def test_without_duplicate_the_seats_rotate_from_deal_to_deal():
    report = T.run(config(games=5))
    assert [u.layout for u in report.units] == [0, 1, 0, 1, 0]
    assert [u.deal for u in report.units] == [0, 1, 2, 3, 4]


def test_the_deck_of_a_deal_does_not_depend_on_the_seating():
    c = config()
    rules = load("durak", players=2)
    assert T.deck_order(c, rules, 3, 0) == T.deck_order(c, rules, 3, 0)
    assert T.deck_order(c, rules, 3, 0) != T.deck_order(c, rules, 4, 0)
    assert sorted(T.deck_order(c, rules, 3, 0)) == sorted(rules.deck)


def test_durak_outcome_counts_the_durak_as_the_loser_and_a_draw_as_half():
    report = T.run(config(games=20, duplicate=True))
    for u in report.units:
        pts = sorted(o.points or 0 for o in u.outcomes)
        assert pts in ([0, 2], [1, 1])
    e = report.entries[1]
    assert e.wins + e.draws + e.losses == e.units == 40
    assert e.rate == pytest.approx((e.wins + e.draws / 2) / 40)
    a, b = report.entries
    assert a.wins == b.losses and a.draws == b.draws


def test_players_see_only_their_own_seat_view(monkeypatch):
    seen: list[tuple[int, tuple[int, ...]]] = []

    class Spy:
        level = "spy"

        def __init__(self, rules: Rules, seed: int) -> None:
            self.inner = RandomPlayer(rules, seed)

        def choose(self, view: View) -> int:
            assert isinstance(view, DurakView)
            seen.append((view.seat, view.hand))
            # what it may see of others is only what is public
            for s, known in enumerate(view.known_cards):
                if s != view.seat:
                    assert len(known) <= view.hand_sizes[s]
            return self.inner.choose(view)

    monkeypatch.setattr(T, "make_player", lambda rules, kind, seed: Spy(rules, seed))
    T.run(config(games=2))
    assert seen and {s for s, _ in seen} == {0, 1}


def test_an_illegal_choice_is_an_error_naming_the_player(monkeypatch):
    class Cheat:
        level = "cheat"

        def __init__(self, rules: Rules, seed: int) -> None:
            pass

        def choose(self, view: View) -> int:
            return 10_000

    monkeypatch.setattr(T, "make_player", lambda rules, kind, seed: Cheat(rules, seed))
    with pytest.raises(GameError, match="not legal"):
        T.run(config(games=1))


def test_bad_configurations_are_refused_clearly():
    with pytest.raises(OptionError, match="kinds are"):
        T.plan(config(players=("easy", "wizard")))
    with pytest.raises(OptionError, match="positive"):
        T.plan(config(games=0))
    with pytest.raises(OptionError, match="seats"):
        T.plan(config(players=("easy",) * 4, options=(("players", 3),)))
    with pytest.raises(GameError):
        T.plan(config(players=("easy",) * 7))


def test_durak_adapter_is_registered_and_defaults_to_normal_players():
    assert isinstance(T.adapter_for("durak"), DurakAdapter)
    p = T.plan(T.Config("durak"))
    assert p.kinds == ("normal",) * 4 and p.rules.players == 4
    assert len(p.layouts) == 4


def test_an_adapter_decides_the_unit_the_layouts_and_the_outcome():
    class FocalAdapter(DurakAdapter):
        """One focal entry against the rest, like Azi's 1-vs-3 layouts; a unit of two hands."""

        unit = "two hands"

        def layouts(self, rules: Rules, entries: int) -> list[tuple[int, ...]]:
            n = rules.players
            return [tuple(0 if s == f else 1 for s in range(n)) for f in range(n)]

        def unit_over(self, match: Match, hands: int) -> bool:
            return hands >= 2

    adapter = FocalAdapter()
    options = (("players", 3), ("series_hands", 2))
    base = T.plan(config(players=("normal", "easy"), options=options, duplicate=True, games=2))
    p = T.Plan(base.config, adapter, base.rules, base.kinds, adapter.layouts(base.rules, 2))
    results = [u for g in range(2) for u in T.play_deal(p, g)]
    assert [u.layout for u in results] == [0, 1, 2, 0, 1, 2]
    assert all(u.hands == 2 for u in results)
    report = T.build_report(p, {0: results[:3], 1: results[3:]}, 0.0)
    assert report.unit == "two hands" and report.hands == 12


def test_games_without_an_adapter_are_played_as_whole_matches():
    adapter = T.MatchAdapter("durak")
    base = T.plan(config(players=("random", "random")))
    p = T.Plan(base.config, adapter, base.rules, base.kinds, adapter.layouts(base.rules, 2))
    report = T.build_report(p, {0: T.play_deal(p, 0)}, 0.0)
    assert not any(e.ranked for e in report.entries)
    assert "durak" in report.units[0].summary.lower() or report.units[0].summary
    assert "deal    1" in T.format_report(report)


def test_the_report_table_names_the_players_rates_intervals_and_times():
    report = T.run(config(games=4, duplicate=True))
    text = T.format_report(report)
    assert "95% interval" in text and "easy" in text and "normal" in text and "median" in text
    d = report.to_dict()
    assert d["units"] == 8 and d["deals"] == 4 and len(d["results"]) == 8
    assert set(d["timing"]) == {"easy", "normal"}
    assert d["entries"][0]["ci95"][0] <= d["entries"][0]["rate"] <= d["entries"][0]["ci95"][1]


def test_another_unit_of_play_is_chosen_by_name(monkeypatch):
    class TwoHands(DurakAdapter):
        unit = "two hands"

        def unit_over(self, match: Match, hands: int) -> bool:
            return hands >= 2

    monkeypatch.setitem(T._VARIANTS, ("durak", "pair"), TwoHands())
    assert "pair" in T.units_of("durak")
    report = T.run(config(games=2, unit="Pair", options=(("series_hands", 2),)))
    assert report.unit == "two hands" and report.hands == 4
    with pytest.raises(OptionError, match="no unit of play named 'season'; the units are: pair"):
        T.plan(config(unit="season"))


def test_a_hand_that_never_ends_is_abandoned_and_left_unranked():
    report = T.run(config(players=("random", "random"), games=3, max_moves=5))
    assert all(u.stopped and u.summary.startswith("abandoned") for u in report.units)
    assert not any(e.ranked for e in report.entries)
    assert "3 unit(s) cut short" in T.format_report(report)
