"""What each seat's game screen says while the game goes on without a seat: who was removed and why,
the void hand dealt again, the open dummy and whose cards those are, a seat coming back, a cheater
named — and that none of it is "the game stopped".

The events are real: whole matches of the simulated network (``p2pcards.harness``) with a seat that
leaves for good, one that comes back, one that cheats, each seat's replica feeding a game screen of
its own (people's text and programs' JSON), exactly as a LAN node feeds it."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from rich.console import Console

from p2pcards.cli.lan.game import display_names
from p2pcards.cli.screen import going_on, questions
from p2pcards.cli.screen.events import game_screen
from p2pcards.cli.screen.schema import problems
from p2pcards.cli.terminal import Terminal
from p2pcards.harness import network, run
from p2pcards.harness.run import GameReport, run_game
from p2pcards.table import outputs as out
from p2pcards.table.replica import Table

NAMES = ("Anna", "Boris", "Clara", "Dmitri")


def _table(net: network.SimNetwork, seat: int) -> Table:
    table = net.peers[seat].local
    assert table is not None, "every seat of these games is a replica of this process"
    return table


class Seat:
    """One seat's two screens: for people (text, 80 columns) and for programs (JSON lines)."""

    def __init__(self, net: network.SimNetwork, seat: int) -> None:
        names = display_names(NAMES[: net.n], seat)
        self.text = io.StringIO()
        self.lines = io.StringIO()
        console = Console(file=self.text, width=80, color_system=None, highlight=False)
        self.screens = [
            game_screen(Terminal(console), net.genesis, seat, lambda: _table(net, seat), names),
            game_screen(Terminal(json_mode=True, stream=self.lines), net.genesis, seat,
                        lambda: _table(net, seat), names),
        ]
        self.asked: list[questions.Question] = []
        for screen in self.screens:
            screen.asker = self.asked.append

    def show(self, event: out.Output) -> None:
        for screen in self.screens:
            screen.render(event)
            if screen.summing_up:  # as the LAN game does at its next tick: caught up, so ask
                screen.summing_up = ""
                going_on.ask_if_out(screen)

    def said(self) -> str:
        return self.text.getvalue()

    def events(self) -> list[dict[str, Any]]:
        found = [json.loads(line) for line in self.lines.getvalue().splitlines()]
        for event in found:
            assert problems(event) == [], event
        return found


@pytest.fixture
def seats(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Seat]]:
    """The screens of every seat of the next ``run_game``."""
    shown: list[Seat] = []

    class Shown(network.SimNetwork):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            shown.extend(Seat(self, s) for s in range(self.n))

        def _carry_out(self, p: network.Peer, outputs: list[out.Output]) -> None:
            super()._carry_out(p, outputs)
            if not p.gone:
                for o in outputs:
                    if not isinstance(o, out.Send | out.Persist | out.KeepSecret):
                        shown[p.seat].show(o)

    monkeypatch.setattr(run, "SimNetwork", Shown)
    yield shown


def passed(report: GameReport) -> None:
    assert report.passed, report.problems


def test_spades_a_seat_that_leaves_becomes_an_open_dummy_on_every_screen(seats: list[Seat]) -> None:
    report = run_game("spades", peers=4, seed=3, dealer="seeded", fault_spec="leave",
                      options={"target": 1000, "floor": -1000})
    passed(report)
    assert report.to_dict()["hands_after_leave"] > 0
    [voted] = {e["seats"][0] for s in seats for e in s.events() if e["event"] == "fault"}
    name = NAMES[voted]
    for seat in (s for i, s in enumerate(seats) if i != voted):
        said = seat.said()
        assert f"{name} was voted out in hand" in said and "more than half of the table voted" in said
        assert f"{name}'s seat is an open dummy" in said and "team keeps its score" in said
        assert f"is void: nothing of it counts, and it is dealt again, with {name}'s seat as an open dummy" \
            in said.replace("\n", " ")
        assert "The game stopped" not in said
        events = seat.events()
        fault = next(e for e in events if e["event"] == "fault")
        assert fault["kind"] == "silent" and fault["stopped"] is False
        void = next(e for e in events if e["event"] == "hand_void")
        assert void["hand"] == fault["hand"] and void["seats"] == [voted]
        after = events[events.index(void):]
        seating = [e for e in after if e["event"] == "seating"]
        assert seating and all(e["dummies"] == [voted] for e in seating)
        # The dummy's cards are face up on every screen, with whose they are: in each hand, the cards
        # shown as the dummy's and those it played are its thirteen, and shown cards are never played
        # by anyone else.
        by_hand: dict[int, tuple[set[str], set[str], set[str]]] = {}
        for e in after:
            if e["event"] != "move" or not e["table"]:
                continue
            shown, dummy_played, others = by_hand.setdefault(e["hand"], (set(), set(), set()))
            shown |= set(e["table"]["dummies"][str(voted)])
            if e["move"].startswith("play "):
                (dummy_played if e["seat"] == voted else others).add(e["move"].split()[1])
        complete = [h for h in by_hand.values() if len(h[1]) == 13]
        assert complete
        for shown, dummy_played, others in complete:
            assert shown | dummy_played == dummy_played and not shown & others
        assert any(e["event"] == "match_over" for e in after)


def test_durak_a_seat_that_comes_back_is_told_what_happened_and_is_dealt_in_again(seats: list[Seat]) -> None:
    report = run_game("durak", peers=3, seed=1, dealer="seeded", byzantine={1: "return"},
                      options={"series_hands": 12})
    passed(report)
    assert report.returns == 1
    boris = seats[1]
    said = boris.said()
    assert "You were voted out in hand" in said and "The series goes on without you" in said
    assert "You are back at the table" in said
    assert [q.kind for q in boris.asked] == [questions.RETURN] * 2  # once on each of its two screens
    for other in (seats[0], seats[2]):
        said = other.said()
        assert "Boris was voted out in hand" in said and "The series goes on without them" in said
        assert "Boris is back at the table: admitted by every player still playing" in said
        back = [e for e in other.events() if e["event"] == "returned"]
        assert [e["names"] for e in back] == [["seat 1"]]
        seating = [e for e in other.events() if e["event"] == "seating" and e["hand"] == back[0]["hand"]]
        assert 1 in seating[-1]["playing"] and not seating[-1]["out"]
        assert not other.asked  # computer seats: the table admits by itself
    for seat in seats:
        assert "The game stopped" not in seat.said()


def test_a_cheater_is_named_and_the_match_goes_on(seats: list[Seat]) -> None:
    report = run_game("spades", peers=4, seed=1, dealer="seeded", byzantine={2: "renege"})
    passed(report)
    for seat in (seats[0], seats[1], seats[3]):
        said = seat.said()
        assert "Clara is out of the match, caught cheating" in said and "reneged" in said
        assert "The signed evidence is kept in every journal" in said
        assert "The game stopped" not in said
        faults = [e for e in seat.events() if e["event"] == "fault"]
        assert faults and all(f["kind"] == "renege" and f["stopped"] is False for f in faults)
        assert any(e["event"] == "match_over" for e in seat.events())


def test_a_seat_back_from_its_journal_is_told_whom_it_waits_for_and_when_it_plays_on(
    seats: list[Seat],
) -> None:
    report = run_game("durak", peers=3, seed=1, dealer="seeded", fault_spec="crash", crash_seat=1)
    passed(report)
    boris = seats[1]
    events = [e for e in boris.events() if e["event"] == "restoring"]
    assert events and events[0]["seats"] and events[-1]["seats"] == []
    assert all(e["names"] == [f"seat {s}" for s in e["seats"]] for e in events)  # the genesis's names
    said = " ".join(boris.said().split())
    waiting = ", ".join(NAMES[s] for s in events[0]["seats"]).replace(", ", " and ")
    assert f"Back from the saved game: waiting for {waiting} to send what they hold" in said
    assert said.index("Back from the saved game") < said.index("Caught up: the others sent all they hold")
    for other in (seats[0], seats[2]):
        assert not any(e["event"] == "restoring" for e in other.events())


def test_a_seat_dealt_back_in_is_not_called_away_in_the_standings_while_it_plays(
    seats: list[Seat], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The standings a screen gives while a hand is played (``quit``, a resume's summary) follow that
    hand's seating: a seat dealt back in is not "(away)" (Spades: "(open dummies: you)") while it
    plays, as it was until that hand ended."""
    during: list[tuple[tuple[int, ...], str]] = []
    show = Seat.show

    def showing(seat: Seat, event: out.Output) -> None:
        show(seat, event)
        if isinstance(event, out.Seating) and seat is seats[0]:
            during.append((event.playing, seat.screens[0].standings()))

    monkeypatch.setattr(Seat, "show", showing)
    report = run_game("durak", peers=3, seed=1, dealer="seeded", byzantine={1: "return"},
                      options={"series_hands": 12})
    passed(report)
    assert report.returns == 1
    dealt_out = next(i for i, (playing, _) in enumerate(during) if 1 not in playing)
    back = [standings for playing, standings in during[dealt_out:] if 1 in playing]
    assert back and not any("(away)" in s for s in back), back


def test_a_seat_that_consents_to_half_the_tables_word_while_restoring_is_told_it_is_out(
    seats: list[Seat],
) -> None:
    """Durak, four seats: Dmitri restores while Clara, a cheater, keeps her answer back; Anna and
    Boris, half the table, go on without Clara and Dmitri by their word, and Dmitri's laptop consents
    to it (it could never play on before Clara answers; SPEC §6.5, half and consent).  His screen says
    so: the word binds him, he is out of that hand — never "you stay in this game"."""
    report = run_game("durak", peers=4, seed=4, fault_spec="all", byzantine={2: "return"})
    passed(report)
    said = " ".join(seats[3].said().split())
    assert "you stay in this game" not in said
    assert "binds nobody named: you stay" not in said
    assert ("Anna and Boris, half the table, went on without Clara and you in hand 1 by their word, and "
            "you consented to it while back from the saved game") in said
    assert "you are out of that hand, and ask to be dealt in again from the next" in said
    assert "went on without them by its own word (unconfirmed: it binds nobody named)" not in said
    # The others were not bound by anything of Dmitri's: their screens say what they did.
    assert "you consented" not in " ".join(seats[0].said().split())
