"""Saved games: an offline game resumed after a kill or a quit, `quit` asking whether to keep it,
`p2pcards games` (list, show, remove, clean), nothing left behind by Ctrl-C during start-up, closed
pipes, and the exit status of each command."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from p2pcards import store
from p2pcards.cli import games as saved
from p2pcards.cli.play import Session
from p2pcards.local import LocalRoom
from p2pcards.store.paths import HOME_ENV
from tests.cli.running import run

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv(HOME_ENV, str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    return home




def events(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def p2pcards(home: Path, *args: str, **kw: Any) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1", **{HOME_ENV: str(home)})
    return subprocess.Popen([sys.executable, "-m", "p2pcards", *args], env=env, cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


# ============================================================================ resume


def test_an_offline_game_killed_mid_hand_resumes_where_it_stopped_and_verifies(_private_home: Path) -> None:
    proc = p2pcards(_private_home, "play", "spades", "--auto", "easy", "--level", "easy", "--json",
                    "--seed", "11", "-o", "target=100")
    assert proc.stdout is not None
    moves = 0
    start: dict[str, Any] = {}
    for line in proc.stdout:
        event = json.loads(line)
        start = start or event
        moves += event["event"] == "move"
        if moves == 30:  # in the middle of the first hand
            proc.send_signal(signal.SIGKILL)
            break
    proc.wait(30)
    assert proc.returncode == -signal.SIGKILL
    [kept] = saved.all_saved()
    assert kept.kind == "offline" and kept.unfinished and kept.game_id.hex() == start["game_id"]

    again = p2pcards(_private_home, "resume", "--json")
    out, err = again.communicate(timeout=300)
    assert again.returncode == 0, err
    resumed = events(out)
    assert resumed[0]["event"] == "start" and resumed[0]["resumed"]
    assert resumed[0]["game_id"] == start["game_id"]
    kinds = [e["event"] for e in resumed]
    assert kinds.count("match_over") == 1 and kinds[-1] == "saved" and resumed[-1]["finished"]
    assert "fault" not in kinds
    check = p2pcards(_private_home, "verify", start["game_id"][:12], "--json")
    report, err = check.communicate(timeout=300)
    assert check.returncode == 0, err
    assert json.loads(report)["ok"] and json.loads(report)["finished"]
    assert saved.all_saved()[0].finished


def scripted(answers: list[str]) -> Any:
    def read(prompt: str) -> str:
        if not answers:
            raise EOFError
        return answers.pop(0)

    return read


def quit_room() -> LocalRoom:
    return LocalRoom("durak", players=2, human=0, level="easy", dealer="seeded", seed=8,
                     journal=saved.new_store)


def test_quit_asks_whether_to_keep_the_game_and_resume_continues_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    room = quit_room()
    saved.save_offline(saved.OfflineRecord.of(room))
    screen = io.StringIO()
    session = Session(room, saved=True, console=Console(file=screen, width=80, color_system=None),
                      read=scripted(["1", "quit", "y", "y"]))
    assert session.play() == 0
    room.close()
    text = screen.getvalue()
    assert "You left the table" in text and f"p2pcards resume {room.game_id.hex()[:12]}" in text
    [kept] = saved.all_saved()
    assert kept.unfinished and kept.game_id == room.game_id

    code, out, err = run(capsys, "resume", room.game_id.hex()[:8], "--auto", "easy", "--json")
    assert code == 0, err
    assert events(out)[0]["resumed"] and "match_over" in [e["event"] for e in events(out)]


def test_quit_without_keeping_removes_the_game() -> None:
    room = quit_room()
    saved.save_offline(saved.OfflineRecord.of(room))
    session = Session(room, saved=True, console=Console(file=io.StringIO(), width=80),
                      read=scripted(["1", "q", "yes", "n"]))
    assert session.play() == 0
    room.close()
    assert saved.all_saved() == [] and not store.paths.game_dir(room.game_id).exists()


def test_ctrl_c_during_the_start_up_leaves_nothing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, _private_home: Path
) -> None:
    def interrupted(self: LocalRoom) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(LocalRoom, "start", interrupted)
    code, out, err = run(capsys, "play", "durak", "--players", "2", "--auto", "easy", "--json")
    # said once, for programs, on the output; nothing stray on standard error
    assert code == 130 and err == "" and json.loads(out.splitlines()[-1])["event"] == "interrupted"
    games_dir = _private_home / "games"
    assert store.saved_games() == [] and (not games_dir.exists() or not any(games_dir.iterdir()))


# ============================================================================ p2pcards games


def test_games_lists_shows_and_removes_saved_games(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games")
    assert code == 0 and "No saved games." in out
    ids = []
    for seed in ("1", "2"):
        code, out, _ = run(capsys, "play", "durak", "--players", "2", "--auto", "easy", "--json",
                           "--seed", seed, "--dealer", "seeded")
        assert code == 0
        ids.append(events(out)[-1]["game_id"])
    code, out, _ = run(capsys, "games", "list")
    assert code == 0 and all(i[:12] in out for i in ids) and "finished" in out and "offline" in out
    code, out, _ = run(capsys, "games", "--json")
    listed = json.loads(out)["games"]
    assert {g["game_id"] for g in listed} == set(ids)
    assert all(g["kind"] == "offline" and g["finished"] and g["players"] == ["You", "Boris"] for g in listed)
    code, out, _ = run(capsys, "games", "show", ids[0][:8])
    assert code == 0 and ids[0] in out and "p2pcards verify" in out and "seat 1   Boris" in out
    code, out, err = run(capsys, "games", "remove", ids[0][:8])  # no terminal to ask at
    assert code == 2 and "--yes" in err
    code, out, _ = run(capsys, "games", "remove", ids[0][:8], "--yes")
    assert code == 0 and f"removed {ids[0][:12]}" in out
    assert [g.hex() for g in store.saved_games()] == [ids[1]]
    code, out, _ = run(capsys, "games", "clean", "--yes")
    assert code == 0 and store.saved_games() == []


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["games", "show"], "takes one GAME_ID"),
        (["games", "show", "xyz"], "GAME_ID is the game's id in hex"),
        (["games", "remove"], "needs the GAME_ID"),
        (["games", "remove", "abcdef12"], "no saved game has an id starting with abcdef12"),
        (["games", "frobnicate"], "frobnicate: choose one of"),
        (["resume", "abcdef12"], "no saved game has an id starting with abcdef12"),
        (["rules", "poker"], "unknown game"),
        (["bench", "everything"], "unknown benchmark"),
        (["sim", "durak", "--games", "0"], "--games must be a positive number"),
        (["harness", "durak", "--seeds", "0"], "--seeds must be positive"),
        (["verify", "/nowhere/at/all"], "no such file or directory"),
    ],
)
def test_bad_arguments_exit_2(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and words in err and "Traceback" not in err


# ============================================================================ pipes


@pytest.mark.parametrize(
    "argv",
    [["sim", "durak", "--games", "30", "--players", "random,random"], ["rules", "azi", "--plain"],
     ["play", "durak", "--players", "2", "--auto", "easy", "--json", "--dealer", "seeded", "--no-save"]],
)
def test_a_closed_pipe_ends_quietly(argv: list[str], tmp_path: Path) -> None:
    proc = p2pcards(tmp_path / "home", *argv)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # `| head -1`
    err = proc.stderr.read()
    # 141 as for a command ended by SIGPIPE; 0 when all of it fitted in the pipe before it was closed.
    assert proc.wait(120) in (0, 141)
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
