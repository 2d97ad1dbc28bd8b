"""``p2pcards sim``: the command line of the tournament runner."""

from __future__ import annotations

import json

import pytest

from p2pcards.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_readme_command_works(capsys):
    code, out, _ = run(capsys, "sim", "durak", "--games", "3")
    assert code == 0
    assert "durak" in out and "normal" in out and "95% interval" in out


def test_levels_duplicate_and_a_table(capsys):
    code, out, _ = run(capsys, "sim", "durak", "--players", "normal,easy", "--games", "3", "--seed", "2",
                       "--duplicate")
    assert code == 0
    assert "duplicate" in out and "3 deals, 6 units" in out
    assert "normal" in out and "easy" in out and "p95" in out


def test_json_output_and_jobs_give_the_same_results(capsys):
    _, one, _ = run(capsys, "sim", "durak", "--players", "easy,random", "--games", "4", "--json")
    _, two, _ = run(capsys, "sim", "durak", "--players", "easy,random", "--games", "4", "--json",
                    "--jobs", "2")
    a, b = json.loads(one), json.loads(two)
    for d in (a, b):
        d.pop("timing")
        d.pop("seconds")
    assert a == b
    assert a["players"] == ["easy", "random"] and len(a["results"]) == 4


def test_a_number_of_players_means_random_players_and_options_still_work(capsys):
    code, out, _ = run(capsys, "sim", "durak", "--players", "3", "-o", "first_bout_limit_5=on",
                       "--games", "2")
    assert code == 0
    assert "players=3" in out and "first_bout_limit_5=true" in out and "random" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--players", "hard,wizard"], "unknown player kind 'wizard'"),
    (["--players", "hard,,easy"], "one kind per player"),
    (["--players", "0"], "at least one player"),
    (["--games", "0"], "--games must be a positive number"),
    (["--jobs", "0"], "--jobs must be a positive number"),
    (["--players", "7"], "2 to 6 players"),
    (["-o", "nonsense"], "NAME=VALUE"),
    (["-o", "colour=red"], "unknown durak option"),
    (["--unit", "season"], "no unit of play named 'season'"),
    (["--think", "0"], "--think '0': the think time must be a positive number of seconds"),
    (["--think", "soon"], "--think 'soon': give the seconds"),
    (["--players", "normal@1"], "hard@SECONDS"),
    (["--players", "hard@later"], "player kind 'hard@later'"),
])
def test_bad_input_is_a_clear_usage_error(capsys, argv, message):
    code, out, err = run(capsys, "sim", "durak", *argv)
    assert code == 2
    assert message in err and out == ""


def test_think_sets_how_long_hard_thinks_and_an_entry_may_have_its_own(capsys):
    code, out, _ = run(capsys, "sim", "durak", "--players", "hard,hard@0.002", "--think", "0.01",
                       "--games", "1", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["think_ms"] == 10 and report["players"] == ["hard", "hard@0.002"]
    assert {"hard", "hard@0.002"} <= set(report["timing"])
    code, out, _ = run(capsys, "sim", "durak", "--players", "hard,normal", "--think", "0.01", "--games", "1")
    assert code == 0 and "hard thinks 0.01 s" in out


def test_the_help_says_the_games_go_through_the_table(capsys):
    code, out, _ = run(capsys, "sim", "--help")
    assert code == 0 and "through the replicated table" in " ".join(out.split())


def test_an_unknown_game_is_a_usage_error(capsys):
    code, _, err = run(capsys, "sim", "poker")
    assert code == 2 and "unknown game 'poker'" in err
