"""Every JSON line of ``--json`` fits the schema of ``p2pcards.cli.screen.schema`` (the one
docs/guide.md lists): whole matches of each game offline, a player typing mistakes, help, rules and
quit, and a table on the LAN over loopback, host and joiner."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from p2pcards.cli import main
from p2pcards.cli.screen.schema import SCHEMA, problems
from p2pcards.store.paths import HOME_ENV

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv(HOME_ENV, str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    return home


def checked(text: str) -> list[dict[str, Any]]:
    events = [json.loads(line) for line in text.splitlines() if line.strip()]
    for event in events:
        assert problems(event) == [], event
    return events


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, Any]]]:
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, checked(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("game", "extra"),
    [("durak", ["--players", "3"]), ("spades", ["-o", "target=100"]),
     ("azi", ["--players", "3", "-o", "bankroll=40", "-o", "deal=4"])],
)
def test_every_event_of_a_whole_match_fits_the_schema(
    game: str, extra: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, events = run(capsys, "play", game, *extra, "--auto", "easy", "--level", "easy", "--json",
                       "--seed", "5")
    assert code == 0
    kinds = {e["event"] for e in events}
    assert {"start", "deal", "turn", "move", "hand_over", "match_over", "saved"} <= kinds
    # What a script needs is there as numbers and cards, not only as prose.
    over = next(e for e in events if e["event"] == "hand_over")
    assert over["scores"] and over["outcome"]
    move = next(e for e in events if e["event"] == "move" and e["table"])
    assert "hand" in move["table"]
    if game != "spades":
        moves = [e for e in events if e["event"] == "move" and e["table"]]
        assert any(e["table"].get("trump") for e in moves)
    if game == "durak":
        assert isinstance(move["table"]["talon"], int) and isinstance(move["table"]["table"], list)
    # A program can show whom the table waits for: every move of a computer is announced first.
    announced = None
    for e in events:
        if e["event"] == "thinking":
            announced = e["seat"]
            assert e["name"] == events[0]["seats"][e["seat"]]["name"]
        elif e["event"] == "move":
            assert announced == e["seat"], e
            announced = None


def test_a_player_s_mistakes_commands_and_quit_fit_the_schema(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("zz\nhelp\nrules\n1\nquit\ny\ny\n"))
    code, events = run(capsys, "play", "durak", "--players", "2", "--json", "--seed", "2", "--level", "easy")
    assert code == 0
    kinds = [e["event"] for e in events]
    assert {"error", "help", "rules", "prompt", "left", "saved"} <= set(kinds)
    code, events = run(capsys, "resume", events[-1]["game_id"][:12], "--auto", "easy", "--json")
    assert code == 0 and events[0]["resumed"]
    code, events = run(capsys, "resume", events[0]["game_id"][:12], "--json")
    assert code == 0 and [e["event"] for e in events] == ["over"]


def test_a_table_on_the_lan_fits_the_schema(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    common = ["--auto", "easy", "--json"]
    host = subprocess.Popen(
        [sys.executable, "-m", "p2pcards", "host", "durak", "--players", "2", "--interface", "127.0.0.1",
         "--port", "0", "--admit", "all", "--no-mdns", "--dealer", "seeded", *common],
        env={**env, HOME_ENV: str(tmp_path / "host")}, cwd=ROOT, text=True, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    joiner: subprocess.Popen[str] | None = None
    try:
        assert host.stdout is not None
        opening = [json.loads(host.stdout.readline())]
        while opening[-1]["event"] != "hosting":  # the seeded test deck is announced as such first
            opening.append(json.loads(host.stdout.readline()))
        first = opening[-1]
        joiner = subprocess.Popen(
            [sys.executable, "-m", "p2pcards", "join", f"127.0.0.1:{first['port']}", "--name", "Ann",
             "--allow-seeded-dealer", *common],
            env={**env, HOME_ENV: str(tmp_path / "ann")}, cwd=ROOT, text=True, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        joined, _ = joiner.communicate(timeout=120)
        hosted, _ = host.communicate(timeout=60)
    finally:
        for proc in (host, joiner):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
    assert host.returncode == 0 and joiner is not None and joiner.returncode == 0
    events = checked("".join(json.dumps(e) + "\n" for e in opening) + hosted) + checked(joined)
    kinds = {e["event"] for e in events}
    expected = {"hosting", "request", "admitted", "joining", "start", "turn", "move", "peer", "match_over"}
    assert expected <= kinds


def test_the_guide_documents_every_event_kind_of_the_schema() -> None:
    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    missing = [kind for kind in SCHEMA if f"`{kind}`" not in guide]
    assert missing == []
