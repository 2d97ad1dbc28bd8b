"""Azi, rule A15, offline: a match of computer players ends by itself with the standings, and a person
who can no longer pay the ante is told so at once and chooses to watch or to leave.

Each test runs ``p2pcards play`` as a process speaking JSON lines; the person's side is a script that
folds whenever it may (so that the person loses an ante a hand and is out after the third)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from p2pcards.cli.screen.schema import problems
from p2pcards.store.paths import HOME_ENV

ROOT = Path(__file__).resolve().parents[2]
PERSON = ["play", "azi", "--players", "4", "-o", "bankroll=30", "--level", "easy", "--json", "--seed", "8"]
"""A table where the person (always folding) is out after hand 3 while two computers play on."""


def env(home: Path) -> dict[str, str]:
    return {**os.environ, HOME_ENV: str(home), "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}


def play_as_person(home: Path, answer: str, *extra: str) -> tuple[int, list[dict[str, Any]]]:
    """Fold whenever possible; answer the question "watch or leave?" with ``answer``."""
    proc = subprocess.Popen([sys.executable, "-m", "p2pcards", *PERSON, *extra], env=env(home), cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    events: list[dict[str, Any]] = []
    try:
        for line in proc.stdout:
            [event] = fitting(line)
            events.append(event)
            reply = None
            if event["event"] == "turn":
                legal = event["legal"]
                reply = next((m for m in ("fold", "decline") if m in legal), legal[0])
            elif event["event"] == "prompt" and event.get("question") == "out":
                reply = answer
            if reply is not None:
                proc.stdin.write(reply + "\n")
                proc.stdin.flush()
        return proc.wait(timeout=60), events
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def fitting(text: str) -> list[dict[str, Any]]:
    """The JSON lines of ``text``, each checked against the schema of ``--json``."""
    events = [json.loads(line) for line in text.splitlines()]
    assert all(problems(e) == [] for e in events), [(e, problems(e)) for e in events if problems(e)]
    return events


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["event"] for e in events]


def test_a15_a_match_of_computer_players_ends_by_itself_with_the_standings(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "p2pcards", "play", "azi", "--players", "3", "-o",
                           "bankroll=30", "--auto", "easy", "--level", "easy", "--json", "--no-save"],
                          env=env(tmp_path), cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    events = fitting(done.stdout)
    over = events[kinds(events).index("match_over")]
    chips = over["scores"]["chips"]
    assert sum(chips) == 90 and len([c for c in chips if c >= 10]) < 2  # fewer than two can pay
    assert over["standings"].startswith("chips — ")
    out = [i for i, e in enumerate(events) if e["event"] == "out_of_match"]
    assert {events[i]["seat"] for i in out} == set(over["scores"]["out"])
    assert all(events[i]["rule"] == "A15" and i < events.index(over) for i in out)


def test_a15_a_person_who_cannot_pay_the_ante_is_told_at_once_and_may_watch(tmp_path: Path) -> None:
    code, events = play_as_person(tmp_path, "watch", "--no-save")
    assert code == 0
    mine = next(i for i, e in enumerate(events) if e["event"] == "out_of_match" and e["you"])
    went_out = events[mine]["hand"]
    assert events[mine - 1]["event"] in ("hand_over", "out_of_match")
    # At once: before anything of the next hand, the person is told and asked.
    asked = next(i for i, e in enumerate(events) if e["event"] == "prompt" and e.get("question") == "out")
    assert mine < asked and not any(e["event"] in ("deal", "move", "turn") for e in events[mine:asked])
    assert events[asked + 1] == {"event": "answer", "question": "out", "answer": "watch"}
    # Watching: the others play on to the end, and the person is never asked for a move again.
    later = events[asked:]
    assert any(e["event"] == "hand_over" and e["hand"] > went_out for e in later), "the others played on"
    assert "turn" not in kinds(later) and "match_over" in kinds(later)
    assert events[kinds(events).index("match_over")]["scores"]["chips"][0] == 0


def test_a15_a_person_who_is_out_may_leave_and_the_game_is_kept(tmp_path: Path) -> None:
    code, events = play_as_person(tmp_path, "leave")
    assert code == 0
    assert kinds(events)[-2:] == ["left", "saved"] and events[-1]["finished"] is False
    assert "match_over" not in kinds(events)
    # Resumed, the person is told again that they are out, before anything else happens, and may watch.
    done = subprocess.run([sys.executable, "-m", "p2pcards", "resume", events[-1]["game_id"][:12], "--json"],
                          env=env(tmp_path), cwd=ROOT, input="watch\n", capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    again = fitting(done.stdout)
    asked = kinds(again).index("prompt")
    assert again[asked]["question"] == "out" and again[asked + 1]["answer"] == "watch"
    replayed = [e for e in again[:asked] if e["event"] == "hand_over"]
    assert replayed and all(e["replayed"] for e in replayed)  # the journal, summed up; nothing new yet
    assert not any(e["event"] == "move" and e["hand"] > replayed[-1]["hand"] for e in again[:asked])
    assert "match_over" in kinds(again[asked:])
    assert again[-1]["event"] == "saved" and again[-1]["finished"] is True
