"""The tournament runner: units played on the table with the seeded dealer, rotating and duplicate
seating, adapters, reports, jobs."""

from __future__ import annotations

from typing import Any

import pytest

from p2pcards import sim as S
from p2pcards.ai import tournament as T
from p2pcards.ai.base import RandomPlayer
from p2pcards.ai.durak.adapter import DurakAdapter
from p2pcards.games import UNKNOWN, Deal, GameError, Match, OptionError, Rules, View
from p2pcards.games.durak import DurakView
from p2pcards.local import HandEnded, LocalRoom, Moved
from p2pcards.table import outputs as out
from p2pcards.table.replica import Table


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
    one = S.run(config(jobs=1, games=3, duplicate=True))
    assert comparable(one) == comparable(S.run(config(jobs=2, games=3, duplicate=True)))
    assert comparable(one) == comparable(S.run(config(jobs=1, games=3, duplicate=True)))
    assert comparable(one) != comparable(S.run(config(seed=4, games=3, duplicate=True)))


def test_duplicate_plays_every_deal_in_every_seating_with_the_same_cards():
    # Easy against Easy is a pure function of the cards and the seats: swapping the seats of the
    # same deal must mirror the result exactly.
    report = S.run(config(players=("easy", "easy"), games=5, duplicate=True))
    assert len(report.units) == 10
    for first, second in zip(report.units[::2], report.units[1::2], strict=True):
        assert first.deal == second.deal and (first.layout, second.layout) == (0, 1)
        assert [o.points for o in first.outcomes] == [o.points for o in second.outcomes][::-1]
        # the same game, the entries in swapped seats: the lines name the entries, so they swap too
        swapped = first.summary.replace("#1", "#x").replace("#2", "#1").replace("#x", "#2")
        assert second.summary == swapped


def test_without_duplicate_the_seats_rotate_from_deal_to_deal():
    report = S.run(config(games=5))
    assert [u.layout for u in report.units] == [0, 1, 0, 1, 0]
    assert [u.deal for u in report.units] == [0, 1, 2, 3, 4]


@pytest.fixture
def rooms(monkeypatch: pytest.MonkeyPatch) -> list[LocalRoom]:
    """Every room the tournament plays on, in the order they were made (one job)."""
    made: list[LocalRoom] = []

    class Kept(LocalRoom):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(S, "LocalRoom", Kept)
    return made


def ended(room: LocalRoom) -> list[HandEnded]:
    return [e for e in room.take_events() if isinstance(e, HandEnded)]


def test_every_unit_is_played_on_a_table_with_the_seeded_dealer_and_a_signed_log(rooms):
    report = S.run(config(players=("easy", "random"), games=3, duplicate=True))
    assert len(rooms) == len(report.units) == 6
    for room, unit in zip(rooms, report.units, strict=True):
        assert room.genesis.dealer == "seeded" and room.human is None
        assert room.over and room.fault is None
        assert len({t.digest() for t in room.tables}) == 1, "every replica reached the same state"
        (hand,) = ended(room)
        assert hand.over.audit.ok
        result = hand.over.state.result
        assert result.durak is not None  # no draw in these deals: the line names the loser
        loser = report.labels[report.layouts[unit.layout][result.durak]]
        assert unit.summary.endswith(f"; {loser} is the durak.")
        # an observer re-checks the viewing seat's journal: signatures, chain, deal and audit
        observer = Table(room.genesis, None, None)
        verdicts = observer.restore(room.stores[room.viewpoint].payloads())
        assert observer.fault is None and observer.digest() == room.table.digest()
        (again,) = [v for v in verdicts if isinstance(v, out.HandOver)]
        assert again.state.result == result


def first_hands(room: LocalRoom) -> tuple[Any, dict[int, list[int]]]:
    """The first hand's setup (its dealer) and the cards each seat was dealt, from its HandOver."""
    state = ended(room)[0].over.state
    need = room.rules.new_hand(dict(state.setup)).need
    assert isinstance(need, Deal)
    dealt = {seat: sorted(state.card_at[p] for p in positions) for seat, positions in need.hands}
    assert all(UNKNOWN not in cards for cards in dealt.values())
    return state.setup, dealt


def test_a_deal_gives_every_layout_the_same_cards_in_the_same_seats(rooms):
    report = S.run(config(players=("easy", "normal"), games=2, duplicate=True))
    assert [(u.deal, u.layout) for u in report.units] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    deal0, swapped0, deal1, swapped1 = (first_hands(r) for r in rooms)
    assert deal0 == swapped0 and deal1 == swapped1
    assert deal0[1] != deal1[1]
    assert rooms[0].game_id == rooms[1].game_id != rooms[2].game_id


def test_durak_outcome_counts_the_durak_as_the_loser_and_a_draw_as_half():
    report = S.run(config(games=6, duplicate=True))
    for u in report.units:
        pts = sorted(o.points or 0 for o in u.outcomes)
        assert pts in ([0, 2], [1, 1])
    e = report.entries[1]
    assert e.wins + e.draws + e.losses == e.units == 12
    assert e.rate == pytest.approx((e.wins + e.draws / 2) / 12)
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

    monkeypatch.setattr(S, "make_player", lambda rules, kind, seed, think_ms: Spy(rules, seed))
    S.run(config(games=2))
    assert seen and {s for s, _ in seen} == {0, 1}


def test_an_illegal_choice_is_an_error_naming_the_player(monkeypatch):
    class Cheat:
        level = "cheat"

        def __init__(self, rules: Rules, seed: int) -> None:
            pass

        def choose(self, view: View) -> int:
            return 10_000

    monkeypatch.setattr(S, "make_player", lambda rules, kind, seed, think_ms: Cheat(rules, seed))
    with pytest.raises(GameError, match=r"the (easy|normal) player of seat [01] chose 10000, which is "
                                        r"not legal \(deal 0\)"):
        S.run(config(games=1))


def test_a_player_that_fails_stops_the_tournament_instead_of_being_replaced(monkeypatch):
    class Crash:
        level = "crash"

        def choose(self, view: View) -> int:
            raise RuntimeError("out of ideas")

    monkeypatch.setattr(S, "make_player", lambda rules, kind, seed, think_ms: Crash())
    with pytest.raises(GameError, match=r"the (easy|normal) player of seat [01] failed in deal 0: "
                                        r"RuntimeError\('out of ideas'\)"):
        S.run(config(games=1))


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


def test_an_adapter_decides_the_unit_the_layouts_and_the_outcome(rooms):
    class FocalAdapter(DurakAdapter):
        """One focal entry against the rest, like Azi's 1-vs-3 layouts; a unit of two hands."""

        unit = "two hands"

        def layouts(self, rules: Rules, entries: int) -> list[tuple[int, ...]]:
            n = rules.players
            return [tuple(0 if s == f else 1 for s in range(n)) for f in range(n)]

        def unit_over(self, match: Match, hands: int) -> bool:
            return hands >= 2

    adapter = FocalAdapter()
    options = (("players", 3), ("series_hands", 3))  # the unit ends a hand before the match does
    base = T.plan(config(players=("normal", "easy"), options=options, duplicate=True, games=1))
    p = T.Plan(base.config, adapter, base.rules, base.kinds, adapter.layouts(base.rules, 2))
    results = S.play_deal(p, 0)
    assert [u.layout for u in results] == [0, 1, 2]
    assert all(u.hands == 2 and not u.stopped for u in results)
    assert all(r.halted and not r.over for r in rooms), "each table stopped where its unit ended"
    report = T.build_report(p, {0: results}, 0.0)
    assert report.unit == "two hands" and report.hands == 6


def test_games_without_an_adapter_are_played_as_whole_matches():
    adapter = T.MatchAdapter("durak")
    base = T.plan(config(players=("random", "random")))
    p = T.Plan(base.config, adapter, base.rules, base.kinds, adapter.layouts(base.rules, 2))
    report = T.build_report(p, {0: S.play_deal(p, 0)}, 0.0)
    assert not any(e.ranked for e in report.entries)
    assert "durak" in report.units[0].summary.lower() or report.units[0].summary
    assert "deal    1" in T.format_report(report)


def test_the_report_table_names_the_players_rates_intervals_and_times():
    report = S.run(config(games=4, duplicate=True))
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
    report = S.run(config(games=2, unit="Pair", options=(("series_hands", 2),)))
    assert report.unit == "two hands" and report.hands == 4
    with pytest.raises(OptionError, match="no unit of play named 'season'; the units are: pair"):
        T.plan(config(unit="season"))


def test_a_hand_that_never_ends_is_abandoned_and_left_unranked(rooms):
    report = S.run(config(players=("random", "random"), games=3, max_moves=5))
    assert all(u.stopped and u.summary.startswith("abandoned") for u in report.units)
    assert not any(e.ranked for e in report.entries)
    assert "3 unit(s) cut short" in T.format_report(report)
    for room in rooms:  # halted on the sixth move, the hand left unfinished
        assert room.halted and not room.finished
        assert sum(isinstance(e, Moved) for e in room.take_events()) == 6


def test_the_hand_limit_stops_a_unit_short_of_its_end():
    adapter = T.MatchAdapter("durak")
    base = T.plan(config(players=("random", "random"), options=(("series_hands", 3),), max_hands=2))
    p = T.Plan(base.config, adapter, base.rules, base.kinds, adapter.layouts(base.rules, 2))
    (unit,) = S.play_deal(p, 0)
    assert unit.stopped and unit.hands == 2


def test_a_units_line_names_the_entries_whatever_seat_they_had():
    # Rotating seats: "easy" is seat 0 in one deal and seat 1 in the next; each line must name the
    # entry that really lost, not "seat 0".
    report = S.run(config(players=("easy", "random"), games=4))
    assert [u.layout for u in report.units] == [0, 1, 0, 1]
    text = T.format_report(report)
    for u in report.units:
        assert "seat" not in u.summary
        losers = [e for e, o in enumerate(u.outcomes) if o.points == 0]
        winners = [e for e, o in enumerate(u.outcomes) if o.points == 2]
        assert len(losers) == len(winners) == 1, u.summary
        assert u.summary == (f"{report.labels[winners[0]]} went out first; "
                             f"{report.labels[losers[0]]} is the durak.")
        assert u.summary in text


def test_entries_of_one_kind_are_told_apart_in_every_line_of_the_report():
    report = S.run(T.Config("azi", ("random", "random", "random", "normal"), games=3, seed=2))
    assert report.labels == ("random #1", "random #2", "random #3", "normal #4")
    text = T.format_report(report)
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("player "))
    assert [" ".join(line.split()[:2]) for line in lines[head + 1:head + 5]] == list(report.labels)
    assert report.notes[0].startswith("random #1: ") and report.notes[0] in text
    assert [e["label"] for e in report.to_dict()["entries"]] == list(report.labels)
    for u in report.units:
        assert "seat" not in u.summary
        won = [e for e, o in enumerate(u.outcomes) if o.points == 2]
        if won and "azi:" not in u.summary:
            assert f"{report.labels[won[0]]} wins " in u.summary


def test_spades_lines_name_each_team_by_its_entries_whatever_seats_they_had():
    report = S.run(T.Config("spades", ("normal", "easy"), games=2, seed=4))
    assert [u.layout for u in report.units] == [0, 1]
    for u in report.units:
        first, second = u.summary.split(" | ")
        # the team in seats 0 and 2 is named first: entry 1 there in layout 0, entry 2 in layout 1
        assert first.startswith(report.labels[u.layout] + " (bid ")
        assert second.startswith(report.labels[1 - u.layout] + " (bid ")
        assert "seat" not in u.summary and "team" not in u.summary
    game = S.run(T.Config("spades", ("normal", "easy"), games=1, seed=4, unit="game",
                          options=(("target", 100),)))
    (unit,) = game.units
    winner = next(e for e, o in enumerate(unit.outcomes) if o.points == 2)
    assert unit.summary.endswith(f". {game.labels[winner]} wins.") and "Team" not in unit.summary


def test_a_seats_label_counts_an_entry_with_several_seats_once():
    unit = T.Unit(T.plan(config()).rules, (0, 1, 0, 1), 2, None, [], labels=("hard #1", "easy #2"))  # type: ignore[arg-type]
    assert unit.seat_label(2) == "hard #1"
    assert unit.seats_label((0, 1, 2)) == "hard #1 (2 seats) and easy #2"
    assert unit.seats_label((0, 2), count=False) == "hard #1"
    assert unit.seats_label((3, 0)) == "easy #2 and hard #1"


def test_the_report_writes_option_values_as_host_and_list_do():
    report = S.run(config(options=(("first_bout_limit_5", True),), games=1))
    first = T.format_report(report).splitlines()[0]
    assert "first_bout_limit_5=true" in first and "True" not in first
