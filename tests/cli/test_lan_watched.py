"""A player who chose to watch, left, and comes back after everyone left (issue 30): its copy of the match
cannot be brought to its end without a player of it on the network.  ``games`` lists it as watched
(not as a match waiting for this player), with what that means, and ``resume`` says plainly that
nobody of the match is on the network, what this laptop holds, and how it can still be finished."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pytest
from rich.console import Console

from p2pcards.cli.lan import record as records
from p2pcards.cli.lan.game import LanGame
from p2pcards.cli.terminal import Terminal
from p2pcards.local import LocalRoom
from p2pcards.net.node import Node
from p2pcards.store import GameStore
from p2pcards.store.paths import HOME_ENV
from tests.cli.running import run
from tests.cli.test_lan_left_behind import Replica, Seat0, said
from tests.net.helpers import genesis_for, identities


@pytest.fixture(autouse=True)
def _private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    yield


def test_games_lists_a_match_left_while_watching_as_watched_and_says_what_that_means(
    capsys: pytest.CaptureFixture[str],
) -> None:
    genesis = genesis_for(identities(3, tag=43), "durak")
    record = records.SeatRecord(role="join", genesis=genesis, seat=2, bind="127.0.0.1", port=0, dial={})
    kept_store = GameStore.open(genesis.game_id)
    kept_store.journal.append(b"a message of the match", flush=False)
    kept_store.close()
    records.save(record)
    code, listed, _ = run(capsys, "games")
    assert code == 0 and " unfinished " in listed and "watched" not in listed, listed

    kept = records.mark_watching(record, True)
    assert records.load(genesis.game_id) == kept and kept.watching
    code, listed, _ = run(capsys, "games")
    line = next(x for x in listed.splitlines() if x.startswith(genesis.game_id.hex()[:12]))
    assert " watched " in line and "unfinished" not in line, listed
    said_once = " ".join(listed.split())
    assert "the match may have ended elsewhere since" in said_once, listed
    assert "Only a player of it who is on the network can bring this copy to its end" in said_once
    code, shown, _ = run(capsys, "games", "--json")
    assert '"state": "watched"' in shown

    records.mark_finished(kept, "over")
    code, listed, _ = run(capsys, "games")
    assert "watched" not in listed and " finished " in listed, listed


@pytest.fixture
def resumed_watching() -> tuple[LanGame, Seat0, io.StringIO]:
    room = LocalRoom("durak", players=3, options={"series_hands": 3}, human=0, dealer="seeded", seed=5)
    turn = room.run_until_human()
    assert turn is not None
    replica = Replica(room.rules, room.table.state, room.table.match, hand_number=turn.hand,
                      seats_out={0: "silent"})
    room.close()
    node = Seat0(replica, room.genesis)
    text = io.StringIO()
    game = LanGame(cast(Node, node), Terminal(Console(file=text, width=100, color_system=None)), lines=None,
                   resumed=True)
    return game, node, text


def test_a_watcher_resumed_with_nobody_of_the_match_on_the_network_is_told_what_it_holds_and_how_to_finish(
    resumed_watching: tuple[LanGame, Seat0, io.StringIO],
) -> None:
    game, _, text = resumed_watching
    assert game.watching
    game.tick_nobody(9.5)
    assert "Nobody of this match" not in said(text), "not before the connection clock ran out"
    game.tick_nobody(10.0)
    shown = said(text)
    assert "Nobody of this match is on the network: nothing came from any other laptop in 10 s" in shown
    assert "the match may have ended without you. This laptop holds it unfinished (no hand played" in shown
    assert "`resume` it again while one of them plays" in shown
    game.tick_nobody(20.0)
    assert said(text).count("Nobody of this match") == 1, "said once"


def test_nothing_is_said_while_another_laptop_of_the_match_is_connected(
    resumed_watching: tuple[LanGame, Seat0, io.StringIO],
) -> None:
    game, _, text = resumed_watching
    game.connected.add(1)
    game.tick_nobody(30.0)
    assert "Nobody of this match" not in said(text)


def test_a_player_resumed_with_nobody_on_the_network_is_told_the_game_goes_on_when_one_comes_back(
    resumed_watching: tuple[LanGame, Seat0, io.StringIO],
) -> None:
    game, node, text = resumed_watching
    node.table.seats_out = {}
    assert not game.watching
    game.tick_nobody(10.0)
    shown = said(text)
    assert "Nobody of this match is on the network yet: nothing came from any other laptop in 10 s" in shown
    assert "The game goes on when one of them comes back" in shown
    assert "ended it without you, their programs ended with it, and this copy stays unfinished" in shown
