"""The exploring adversary: a bounded run finds nothing in the table's rule, a rule broken on purpose is
caught, shrunk and replayed from the printed command."""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Mapping

import pytest

from p2pcards.cli import main
from p2pcards.harness import explore as ex
from p2pcards.harness.explore_room import Room
from p2pcards.table import decide
from p2pcards.table.attempt import Attempt
from p2pcards.table.voices import Voices
from p2pcards.wire import SignedMessage

SHAPES = {s.name: s for s in ex.SHAPES}


def test_a_bounded_run_finds_nothing() -> None:
    shapes = [SHAPES["3"], SHAPES["4c"], SHAPES["5c"]]
    reports = ex.explore("azi", schedules=2, seed=1, shapes=shapes, length=150)
    assert [r.shape for r in reports] == ["3", "4c", "5c"]
    for r in reports:
        assert r.schedules == 2
        assert r.deliveries > 500  # the matches were played to their end, not just set up
        assert r.violations == [], r.violations


def _without_majority(
    voices: Voices,
    att: Attempt,
    step: int,
    prev: bytes,
    votes: Mapping[int, SignedMessage],
    spent: Callable[[int], bool],
    n: int,
) -> decide.Decision | None:
    """``vote_decision`` with the majority requirement forgotten: any unspent vote decides."""
    live = tuple(v for v in decide.playing(voices, att) if v in votes and not spent(v))
    silent = tuple(v for v in voices.among(att.awaited_at(step)) if v not in votes)
    if not silent or not live or not all(set(silent) <= set(decide.named(votes[v], n)) for v in live):
        return None
    seats = voices.seats_of(silent, att.active)
    return decide.Decision(step, prev, silent, seats, live, True, tuple(votes[v] for v in live))


def test_a_rule_without_its_majority_is_caught_shrunk_and_replayed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(decide, "vote_decision", _without_majority)
    shape = SHAPES["4"]
    found = ex.run_schedule("azi", shape, 5, {})
    assert found.violation is not None and found.violation.startswith("a minority of voices bound")
    small = ex.shrink("azi", shape, 5, {}, found)
    assert small.violation is not None and small.violation.startswith("a minority of voices bound")
    assert len(small.schedule) < len(found.schedule)
    # Shrunk as far as one choice at a time goes: without any one of its choices, it breaks nothing.
    for i in range(len(small.schedule)):
        fewer = ex.run_schedule("azi", shape, 5, {}, small.schedule[:i] + small.schedule[i + 1 :], calm=False)
        assert fewer.violation is None or not fewer.violation.startswith("a minority of voices bound"), i
    again = ex.run_schedule("azi", shape, 5, {}, small.schedule)
    assert again.violation == small.violation

    command = ex.replay_command("azi", shape, 5, small.schedule, {})
    argv = shlex.split(command)
    assert argv[:2] == ["p2pcards", "harness"]
    assert main([*argv[1:], "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    [report] = result["explore"]
    assert report["shape"] == "4"
    assert [v["violation"] for v in report["violations"]] == [small.violation]


def test_the_rules_own_predicates_judge_every_replica_after_every_event(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Beside the room's own oracle, the predicates of ``table/claims.py`` judge each honest replica's
    decisions after every event: the rule broken on purpose is caught by ``binds_only_by_majority``
    itself, before the oracle counts votes its own way."""
    monkeypatch.setattr(decide, "vote_decision", _without_majority)
    found = ex.run_schedule("azi", SHAPES["4"], 5, {})
    assert found.violation is not None and "took the decision of" in found.violation, found.violation


def test_a_machine_and_its_computer_player_admitted_back_reach_one_state() -> None:
    """Spades, seat 0's machine also plays seat 1: voted out, it returns; the hand that admits it back
    brings its computer player back too on every replica — its own computer seat's replica included,
    which once read who was out from the hand after it (the returns themselves) and kept seat 1 out:
    two replicas of one voice, holding the same messages, in two states (caught by ``claims``)."""
    found = ex.run_schedule("spades", SHAPES["4c"], 106, {}, [6, 4, 38, 3, 3, 3, 3, 26, 4])
    assert found.violation is None, found.violation


SPADES_106 = (
    "384,6,384,38,1136,480,4,6,1364,69,12,0,38,14,12,12,2864,3,48,0,12,12,26,3,480,14,300,552,84,10,108,141,"
    "360,3,396,3,72,60,48,5372,133,108,84,0,12,19,7868,96,24,228,105,3,132,240,36,2,3,0,3,7796,372,3,2,468,"
    "15416,6,4,3,3752,38,4,17060,3,16748,7076,12,0,3,924,60,517,7784,780,4,4,3,19,5,12,48,6,128,7124,7,48,26,"
    "12,4,3,227,0,7,3,357,7,29,3,14,7436,204,216"
)


@pytest.mark.parametrize(
    ("game", "shape", "seed", "schedule"),
    [
        # A restored seat's match ended by what it held so far (a hand dealt again without two
        # cheaters, whose seals it lacked): it stopped asking the peer it waited for, and stayed
        # there with another digest than the others' finished match.
        ("azi", "5c", 109, "4,17,17,131,191,4"),
        # A seat voted out in hand 0 and convicted after the match ended: out as ``silent`` on the
        # replicas that had closed the hands before the proof came, as ``cheat`` on one restored
        # from the same journal.
        ("azi", "4", 107, "18,6,19,4,3,7,264,2,26,3,3,3,14,131,53"),
        # A computer player's replica convicted a cheater before it took the majority's vote that
        # the others had played hand 1 on from, so it never looked for that hand; and its runner's
        # consent to the vote, sent to it once, was lost: it stayed in hand 1 for ever.
        ("spades", "4c", 106, SPADES_106),
        # A seat restored from an old copy of its journal got the cheater's second version of a move
        # before the first, which the others had played hand 5 to its end along: it placed the
        # second, lost that hand, and finished the match another way.
        ("azi", "5", 105, "4,53,4,29,0,0,3,203,12,3,3,4"),
        # Three voices: seat 0's machine restores and waits for the cheater's catch-up answer, which
        # never comes, while the open step awaits the cheater: the sure voice's vote alone decided
        # nothing, and the restored voice signed none, so one cheater stopped the table for good.
        # Its vote is the same bytes whenever signed (``claims.repeats``): it votes, and they go on.
        ("spades", "4c", 106, "6,4,7,29"),
    ],
)
def test_replays_once_found_now_break_nothing(game: str, shape: str, seed: int, schedule: str) -> None:
    found = ex.run_schedule(game, SHAPES[shape], seed, {}, [int(c) for c in schedule.split(",")])
    assert found.violation is None, found.violation


def test_the_command_prints_the_shapes_and_what_it_checked(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["harness", "azi", "--explore", "1", "--explore-seed", "3", "--shape", "3"])
    text = capsys.readouterr().out
    assert "shape  seats  cheaters  schedules  deliveries checked  violations" in text
    line = next(x for x in text.splitlines() if x.strip().startswith("3 "))
    assert line.split()[:4] == ["3", "3", "1", "1"]
    assert code == (0 if "nothing found" in text else 1)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--explore", "0"], "--explore must be positive"),
        (["--explore", "1", "--explore-seed", "-1"], "--explore-seed must be from 0"),
        (["--explore", "1", "--schedule", "1,x"], "'x' is not a choice"),
        (["--explore", "2", "--schedule", "1,2"], "give --explore 1"),
        (["--explore", "1", "--shape", "9"], "unknown shape '9'"),
        (["--schedule", "1"], "--schedule and --shape go with --explore"),
    ],
)
def test_bad_explore_values_are_refused_clearly(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["harness", "durak", *argv])
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_a_shape_the_game_cannot_seat_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert [s.name for s in ex.shapes_for("spades", {})] == ["4", "4c"]
    with pytest.raises(SystemExit):
        main(["harness", "spades", "--explore", "1", "--shape", "3"])
    assert "spades cannot be played by 3 seats" in capsys.readouterr().err


WATCHER_VOTES = [3, 26, 50, 2, 6, 4, 3, 3, 5, 14, 3, 38, 2, 3, 2, 3, 50, 3, 26, 26, 7, 50, 6, 38, 50, 4, 26,
                 4, 3, 12, 0, 60, 24, 13, 3, 2, 216, 3]
"""Azi, shape 5c, seed 6031: seat 0, out of chips, watches; with the cheater's voice it votes seat 1
silent (two of the three voices at the table)."""


def test_the_oracle_counts_an_out_of_chips_watcher_as_a_voice_as_the_rule_does() -> None:
    shape = SHAPES["5c"]
    room = Room.make("azi", shape, 6031, {})
    ex.play(room, WATCHER_VOTES)
    watcher = room.tables[0]
    assert watcher.seats_out == {1: "silent"}
    assert all(0 not in a.active and 0 in a.at_table for a in watcher.attempts_path)  # it watches
    assert any(voter == 0 and named == 1 for _, _, voter, named in room.honest_votes)
    assert ex.run_schedule("azi", shape, 6031, {}, WATCHER_VOTES).violation is None


def test_the_adversary_restarts_from_older_journal_copies_and_signs_returns() -> None:
    room = Room.make("azi", SHAPES["3"], 1, {})
    ex.play(room, [4])  # everything in flight delivered: every seat spoke
    groups = {kind: (count, do) for kind, count, do in ex._options(room)}
    machines = sorted({room.voices.voice(s) for s in room.honest if s not in room.sure})
    count, restart = groups["restart"]
    assert count == len(machines) * (1 + ex.RESTART_BACK)
    [seat] = [s for s in room.honest if room.voices.voice(s) == machines[0]]
    journal = list(room.journals[seat])
    restart(len(machines))  # the first machine, from a copy missing its last message
    kept = len(room.journals[seat])
    assert kept < len(journal) and journal[:kept] == room.journals[seat]
    assert SignedMessage.from_bytes(journal[kept]).seat == seat  # what the copy lacks is its own

    count, claim = groups["claim"]
    signed = len(room.certificates)
    claim(count - 1)  # the last of a cheater's messages: a return
    returned = SignedMessage.from_bytes(room.certificates[signed][1])
    assert (returned.kind, returned.seat) == ("return", 2)
