"""Spades' blind nil on the screen: a blind seat is told its cards are face down and offered to look or
bid blind nil; the bids say ``blind nil``; the rules page lists the option; ``play`` plays it."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console

from p2pcards.cli.rules import rules_text
from p2pcards.cli.screen import faces, menu
from p2pcards.games import CHANCE, load
from p2pcards.games.playout import fulfil_from
from p2pcards.games.rng import Rng
from p2pcards.games.spades import SpadesState
from p2pcards.store.paths import HOME_ENV
from tests.cli.running import run

NAMES = ["You", "Anna", "Boris", "Clara"]


def screen(state: SpadesState, seat: int) -> str:
    face = faces.face_for("spades", NAMES, seat)
    printed = StringIO()
    console = Console(file=printed, width=120, color_system=None)
    for part in face.table(state.view(seat)):
        console.print(part)
    return printed.getvalue()


def blind_hand() -> SpadesState:
    """Dealer 3, team 0 (You and Boris) 150 behind: You bid first and may bid blind nil."""
    rules = load("spades", blind_nil="on")
    st = rules.new_hand({"dealer": 3, "scores": (0, 150)})
    assert isinstance(st, SpadesState)
    deck = list(range(52))
    Rng(5).shuffle(deck)
    while st.to_act == CHANCE:
        fulfil_from(st, deck)
    return st


def settle(st: SpadesState) -> None:
    deck = list(st.card_at)
    while st.to_act == CHANCE:
        fulfil_from(st, deck)


def test_a_blind_seat_sees_its_cards_are_face_down_and_the_choice_to_look_or_bid_blind_nil():
    st = blind_hand()
    text = screen(st, 0)
    assert "Your hand: your cards are face down" in text
    assert "look at them and bid, or bid blind nil without looking" in text
    assert "blind nil open to You and Boris" in text
    face = faces.face_for("spades", NAMES, 0)
    entries = menu.build(st.rules, st.view(0), face)
    assert [(e.text, e.hint) for e in entries] == [
        ("bid blind nil", "take no trick, without seeing your cards: ±200"),
        ("look", "see your cards, then bid")]
    # the other seats see their own cards as usual
    assert "face down" not in screen(st, 1).split("Your hand:")[1]


def test_the_bids_show_blind_nil_and_the_bidder_is_told_when_it_sees_its_cards():
    st = blind_hand()
    st.apply_text("bid blind nil")
    text = screen(st, 0)
    assert "you bid blind nil: you see them once the bidding is over" in text
    assert "blind nil" in next(line for line in screen(st, 1).splitlines() if line.lstrip().startswith("You"))
    face = faces.face_for("spades", NAMES, 1)
    assert face.move(0, "bid blind nil").plain == "You bid blind nil"
    assert face.move(2, "look").plain == "Boris looks at their cards"
    st.apply_text("bid 3")
    st.apply_text("look")
    settle(st)
    st.apply_text("bid 4")
    st.apply_text("bid 2")
    settle(st)
    assert st.phase_name == "play" and "face down" not in screen(st, 0)


def test_the_rules_page_lists_the_option_and_the_moves():
    text = rules_text("spades")
    assert "`blind_nil` | off | `on`" in text
    assert "`bid blind nil`" in text and "`look`" in text and "+200" in text


def test_play_offers_and_plays_blind_nil_through_the_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    code, out, err = run(capsys, "play", "spades", "-o", "blind_nil=on", "-o", "target=250", "--auto",
                         "normal", "--json", "--seed", "6", "--dealer", "seeded", "--no-save")
    assert code == 0, err
    events = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert any(e["event"] == "move" and e["move"] == "bid blind nil" for e in events)
    over = [e for e in events if e["event"] == "hand_over"]
    assert any(e["outcome"]["blind_nil"] for e in over)
    assert all(e["audit"]["ok"] for e in over)
    assert any(e["event"] == "start" and e["options"]["blind_nil"] is True for e in events)
