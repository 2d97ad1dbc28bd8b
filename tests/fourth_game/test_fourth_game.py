"""A fourth game, registered by a test alone, is a game like the others: it keeps the games contract,
its computer players play it, the harness plays it through faults and cheaters, and our replica run
as a separate program plays it through the harness pipe (found by ``P2PCARDS_GAMES``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from p2pcards import games, sim
from p2pcards.ai import player, tournament
from p2pcards.ai.registry import players_of
from p2pcards.extensions import ENV
from p2pcards.games import CHANCE, TERMINAL, GameEntry, testing
from p2pcards.games.playout import fulfil_from
from p2pcards.games.rng import Rng
from p2pcards.harness.conformance import Case, run_case
from p2pcards.harness.fuzz import fuzz
from p2pcards.harness.run import run_game
from tests.games import test_contract as contract

ROOT = Path(__file__).resolve().parents[2]
OURS = f"{sys.executable} -m p2pcards peer --stdio"


def test_it_keeps_the_games_contract(fourth_game: GameEntry) -> None:
    contract.check_every_table(fourth_game.name)


def test_its_rules_are_refereed_like_any_game(fourth_game: GameEntry) -> None:
    hand = testing.deal("tricks", {1: "QC KD AH", 2: "KC QD QH", 0: "AC AD KH"}, dealer=0)
    assert hand.state.to_act == 1 and hand.legal == ["play QC", "play KD", "play AH"]
    assert hand.play("play QC").legal == ["play KC"]  # T3: seat 2 holds a club
    with pytest.raises(games.IllegalAction) as err:
        hand.play("play QD")
    assert err.value.rule == "T3" and "follow suit" in str(err.value)
    hand.play("play KC", "play AC")  # T4: the ace of the suit led wins, and leads next
    assert hand.state.to_act == 0 and hand.play_out().state.result.tricks[0] >= 1
    assert hand.audit().ok


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_its_computer_players_play_every_level(fourth_game: GameEntry, level: str) -> None:
    rules = games.load("tricks", players=2)
    seats = [player(rules, level, seed, think_ms=5) for seed in range(2)]
    assert players_of("tricks").units_per_second == 60_000
    assert seats[0].budget == 300 if level == "hard" else True  # type: ignore[attr-defined]
    for h in range(3):
        deck = list(rules.deck)
        Rng(f"fourth/{h}").shuffle(deck)
        state = rules.new_hand({"dealer": h % 2})
        while state.to_act != TERMINAL:
            if state.to_act == CHANCE:
                fulfil_from(state, deck)
                continue
            view = state.view(state.to_act)
            move = seats[state.to_act].choose(view)
            assert move in view.legal_actions
            state.apply(move)


@pytest.mark.parametrize("faults", ["all", "leave"])
def test_the_harness_plays_it_through_faults(fourth_game: GameEntry, faults: str) -> None:
    report = run_game("tricks", peers=fourth_game.seats, seed=1, fault_spec=faults, dealer="seeded",
                      options=dict(fourth_game.longer))
    assert report.passed, report.problems
    assert report.finished and report.agree and report.crashes == []


@pytest.mark.parametrize(("behaviour", "verdict"),
                         [("bad-proof", "bad-proof"), ("withhold", "silent"), ("renege", "renege")])
def test_a_cheater_is_named_by_every_honest_replica(fourth_game: GameEntry, behaviour: str,
                                                    verdict: str) -> None:
    report = run_game("tricks", peers=3, seed=1, byzantine={1: behaviour}, options={"hands": 3},
                      dealer="seeded" if behaviour == "withhold" else "mental")
    assert report.passed, report.problems
    assert report.verdicts == [f"seat 1 {verdict}"] * 2


def test_the_fuzzer_finds_nothing(fourth_game: GameEntry) -> None:
    report = fuzz("tricks", peers=fourth_game.seats, seed=1, budget=150, rate=2)
    assert report.mutations > 20 and report.crashes == []
    assert report.finished and report.agree and report.framed == []


def test_our_peer_plays_it_through_the_pipe(fourth_game: GameEntry, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, "tests.fourth_game.plugin")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    case = Case("0.0.1", "Three Tricks, three seats, the program in the middle seat",
                "play to the end and agree on the table digest with every other replica", game="tricks",
                peers=3, under=(1,), seeds=(1,))
    result = run_case(case, OURS)
    assert result.passed, result.detail
    # without the module named, the program does not know the game and refuses its genesis
    monkeypatch.delenv(ENV)
    refused = run_case(case, OURS)
    assert not refused.passed and "tricks" in refused.detail


def _p2pcards(*args: str, games: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), **{ENV: games})
    return subprocess.run([sys.executable, "-m", "p2pcards", *args], env=env, cwd=ROOT, text=True,
                          capture_output=True, timeout=120)


def test_the_command_line_finds_a_game_named_in_the_environment() -> None:
    done = _p2pcards("rules", "tricks", "--plain", games="tests.fourth_game.plugin")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("# Three Tricks") and "**T3.**" in done.stdout
    bad = _p2pcards("rules", "durak", "--plain", games="tests.no_such_game")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.strip() == (
        "p2pcards: error: P2PCARDS_GAMES names 'tests.no_such_game', which cannot be loaded: "
        "ModuleNotFoundError: No module named 'tests.no_such_game'")


def test_its_computer_players_play_a_tournament_through_the_table(fourth_game: GameEntry) -> None:
    report = sim.run(tournament.Config("tricks", ("hard@0.005", "normal", "easy"), games=3, seed=1, jobs=1))
    assert [u.hands for u in report.units] == [3, 3, 3] and not any(u.stopped for u in report.units)
