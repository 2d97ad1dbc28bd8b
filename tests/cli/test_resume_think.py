"""``resume --think SECONDS``: a resumed game's computer players think as long as when it was started,
or as long as ``--think`` says, offline and on the network."""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from p2pcards.ai import budget
from p2pcards.cli import games as saved
from p2pcards.cli.lan import record as records
from p2pcards.cli.lan import resume as lan_resume
from p2pcards.store.paths import HOME_ENV
from tests.cli.running import run
from tests.net.helpers import genesis_for, identities


@pytest.fixture(autouse=True)
def _private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    budget.set_default_think(budget.DEFAULT_THINK_MS)
    yield
    budget.set_default_think(budget.DEFAULT_THINK_MS)  # the think time is the process's


def lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_an_offline_game_resumes_with_its_own_think_time_or_the_one_given(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    code, text, err = run(capsys, "play", "durak", "--players", "2", "--level", "easy", "--think", "2.5",
                          "--dealer", "seeded", "--seed", "4", "--json")
    assert code == 3, err  # the input ended first: the game is kept
    game_id = lines(text)[-1]["game_id"]
    kept = saved.load_offline(bytes.fromhex(game_id))
    assert kept is not None and kept.think_ms == 2500

    budget.set_default_think(budget.DEFAULT_THINK_MS)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, text, err = run(capsys, "resume", game_id[:12], "--json")
    assert code == 3, err
    assert lines(text)[0]["resumed"] and budget.default_think() == 2500  # as it was started

    code, text, err = run(capsys, "resume", game_id[:12], "--think", "0.25", "--auto", "easy", "--json")
    assert code == 0, err
    assert lines(text)[-1]["event"] == "saved" and budget.default_think() == 250


def test_a_think_time_that_is_not_one_is_refused_before_anything_is_resumed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "resume", "--think", "soon")
    assert code == 2 and "--think 'soon'" in err and "e.g. --think 1" in err
    code, _, err = run(capsys, "resume", "abcdef12", "--think", "0")
    assert code == 2 and "positive number of seconds" in err


def test_a_network_seat_resumes_with_the_think_time_it_was_played_with(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    genesis = genesis_for(identities(3, tag=41), "durak")
    record = records.SeatRecord(role="host", genesis=genesis, seat=0, bind="127.0.0.1", port=0, dial={},
                                think_ms=2500)
    assert records.SeatRecord.from_json(record.to_json()).think_ms == 2500
    older = record.to_json()
    del older["think_ms"]  # kept before there was one: the default think time
    assert records.SeatRecord.from_json(older).think_ms == budget.DEFAULT_THINK_MS

    thought: list[int] = []

    def run_trio(_main: object, _out: object) -> int:  # the game itself is not played here
        thought.append(budget.default_think())
        return 0

    monkeypatch.setattr(lan_resume, "pick", lambda _game_id: record)
    monkeypatch.setattr(lan_resume, "run_trio", run_trio)
    args = argparse.Namespace(game_id=genesis.game_id.hex(), auto=None, json=True, think=None)
    assert lan_resume.run(args) == 0
    args.think = "4"
    assert lan_resume.run(args) == 0
    assert thought == [2500, 4000]
