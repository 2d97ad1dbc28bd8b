"""The game goes on, over processes on loopback: a Spades player's process killed for good (the others
finish with the open dummy), a Durak player killed with ``kill -9`` who comes back with ``resume`` and
is dealt in again, and a person at the table who is asked, about a silent player, whether to go on.

The tables use a short timeout (``host --timeout 5``) so that a silent seat is voted out in seconds.
Every journal is verified at the end; every seat still at the table agrees on the end of the match.
A match is failed when its processes stop printing (``Procs.progressing``), never for being slow on a
loaded machine; the scripted person waits for the next event, not on a polling sleep."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import signal
from collections.abc import Sequence
from typing import Any

import trio

from p2pcards.cli import verify
from p2pcards.cli.screen.schema import problems
from tests.cli.test_lan import LOOPBACK, Proc, Procs, host_port

TIMEOUT = ["--timeout", "5"]


async def verdict(seat: Proc, kind: str) -> dict[str, Any]:
    """The next verdict of ``kind`` this seat's screen reported."""
    while True:
        fault = await seat.until("fault")
        if fault["kind"] == kind:
            return fault


def fits(*seats: Proc) -> None:
    """Every JSON line the seats printed fits the schema of ``--json``."""
    for seat in seats:
        for event in seat.events:
            assert problems(event) == [], (seat.name, event)


def verified(seat: Proc, game_id: str) -> dict[str, Any]:
    """``p2pcards verify --json`` of the seat's journal: it passes and the match is finished."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        journal = seat.home / "games" / game_id / "journal"
        code = verify.run(argparse.Namespace(journal=str(journal), json=True))
    report: dict[str, Any] = json.loads(printed.getvalue())
    assert code == 0 and report["ok"] and report["finished"], (seat.name, report["problems"])
    return report


def agree(seats: Sequence[Proc]) -> str:
    """Every seat saw the same match to the same end, verified from its own journal; the game's id."""
    game_ids: set[str] = {s.of("start")[-1]["game_id"] for s in seats}
    assert len(game_ids) == 1, game_ids
    assert len({s.of("match_over")[-1]["digest"] for s in seats}) == 1
    game_id = game_ids.pop()
    reports = [verified(s, game_id) for s in seats]
    hands = [[h["summary"] for h in r["hands"]] for r in reports]
    assert all(h == hands[0] for h in hands)
    for seat in seats:  # a verdict voids a hand; it never stops the game
        assert all(not f["stopped"] for f in seat.of("fault")), seat.report()
        assert seat.of("saved")[-1]["finished"] is True
    return game_id


async def test_spades_goes_on_with_an_open_dummy_when_a_player_is_killed_for_good(procs: Procs) -> None:
    with procs.progressing():
        host = await procs.start("host", "host", "spades", "-o", "target=50", *LOOPBACK, "--port", "0",
                                 "--name", "Hana", "--admit", "all", "--bots", "easy", "--auto", "easy",
                                 "--json", "--wait-for", "1", *TIMEOUT)
        port = await host_port(host)
        jun = await procs.start("jun", "join", f"127.0.0.1:{port}", "--name", "Jun", "--auto", "easy",
                                "--json")
        start = await jun.until("start")
        seat = start["you"]
        for _ in range(6):
            await jun.until("move", hand=0)
        jun.proc.send_signal(signal.SIGKILL)
        assert await jun.finish() == -signal.SIGKILL

        voted = await verdict(host, "silent")
        assert voted["seats"] == [seat] and voted["names"] == ["Jun"] and voted["stopped"] is False
        void = await host.until("hand_void")
        assert void["hand"] == voted["hand"] and void["seats"] == [seat]
        seating = await host.until("seating", hand=void["hand"])
        assert seating["dummies"] == [seat] and seat not in seating["playing"]  # it holds no keys
        # The host's machine is one voice of two: it goes on without Jun by its own word, which binds
        # nobody named (unconfirmed), with Jun's seat an open dummy.
        assert {"seat": seat, "name": "Jun", "why": "unconfirmed"} in seating["out"]
        # The dummy's cards are face up for everyone: the host's own view holds them.
        dummy_move = await host.until("move", seat=seat)
        assert dummy_move["table"]["dummies"][str(seat)] is not None
        assert await host.finish() == 0, host.report()
    over = host.of("match_over")[-1]
    assert over["abandoned"] is False and over["scores"]["winner"] in (0, 1)
    fits(host, jun)
    game_id = agree([host])
    hands = verified(host, game_id)["hands"]
    assert hands and all(h["audit"]["ok"] for h in hands)
    # The screen said "the game stopped" nowhere: only the hand was void.
    assert not any("The game stopped" in line for line in host.output)


class Person:
    """A person at a seat playing with ``--json``, as a script: the first legal move at every turn,
    and the answers given to the table's questions, in order, per kind of question.  A question past
    the planned answers (a slow peer on a loaded machine, silent past the timeout too) is answered
    by keeping waiting, as a person who sees the others still at the table would; it is recorded in
    ``surplus``."""

    def __init__(self, proc: Proc, answers: dict[str, list[str]]) -> None:
        self.proc = proc
        self.answers = answers
        self.asked: list[dict[str, Any]] = []
        self.surplus: list[dict[str, Any]] = []
        self.thinking = False
        """The person takes their time over each move (a test sets it while it needs the match to
        last): they move when their screen first counts their move clock down (its next tick), as
        paced by the program's own clock, not the test's."""

    async def run(self) -> None:
        seen = 0
        turn = False
        while not self.proc.ended.is_set():
            for event in self.proc.events[seen:]:
                seen += 1
                if event["event"] == "turn" and self.thinking:
                    turn = True
                elif event["event"] == "turn" or (turn and event["event"] == "move_clock"):
                    turn = False
                    await self.proc.send("1")
                elif event["event"] == "prompt" and event.get("question") in self.answers:
                    planned = self.answers[event["question"]]
                    if planned:
                        self.asked.append(event)
                        await self.proc.send(planned.pop(0))
                    else:
                        self.surplus.append(event)
                        await self.proc.send("n")
            await self.proc.beyond(seen)


async def test_a_durak_player_killed_comes_back_with_resume_and_is_dealt_in_again(
    procs: Procs, nursery: trio.Nursery
) -> None:
    """Hana, at the host, is a person: asked about the silent Bob, she first keeps waiting, then goes
    on without him; asked whether to admit him back, she says yes."""
    with procs.progressing():
        host = await procs.start("host", "host", "durak", "--players", "3", "-o", "series_hands=10",
                                 *LOOPBACK, "--port", "0", "--name", "Hana", "--admit", "all", "--json",
                                 "--wait-for", "2", *TIMEOUT, stdin=True)
        hana = Person(host, {"silent": ["n", "y"], "admit": ["y"]})
        nursery.start_soon(hana.run)
        port = await host_port(host)
        address = f"127.0.0.1:{port}"
        ann = await procs.start("ann", "join", address, "--name", "Ann", "--auto", "easy", "--json")
        await host.until("admitted", name="Ann")
        bob = await procs.start("bob", "join", address, "--name", "Bob", "--auto", "easy", "--json")
        start = await bob.until("start")
        seat = start["you"]
        for _ in range(4):
            await bob.until("move", hand=0)
        bob.proc.send_signal(signal.SIGKILL)
        assert await bob.finish() == -signal.SIGKILL
        # Hana takes her time while Bob is away, so that the series still has hands to deal him in
        # when he is back, however fast the others' moves are on this machine.
        hana.thinking = True

        # Hana is asked, with Bob's name and how long he has been silent; she keeps waiting at first.
        silent = await host.until("silent")
        assert silent["names"] == ["Bob"] and silent["ask"] and silent["waited_s"] >= 5
        assert isinstance(silent["auto_in_s"], int) and silent["end_match"] is False
        assert (await host.until("answer", question="silent"))["answer"] == "wait"
        assert (await host.until("answer", question="silent"))["answer"] == "go"  # asked again, later
        voted = await verdict(ann, "silent")
        assert voted["names"] == ["Bob"] and voted["stopped"] is False
        # Nobody was removed before Hana said so: Ann's verdict comes after Hana's second answer.
        assert len([a for a in host.of("answer") if a["question"] == "silent"]) == 2
        again = await procs.start("bob-again", "resume", "--json", home="bob")
        await ann.until("hand_void", hand=voted["hand"])
        without = await ann.until("seating", hand=voted["hand"])
        assert seat not in without["playing"]
        assert {"seat": seat, "name": "Bob", "why": "silent"} in without["out"]

        assert (await again.until("start"))["resumed"] is True
        # Bob's program is told that more than half of the table went on without him; it agrees and
        # asks to come back (its return is its consent), and only then is it out in its own eyes too.
        told = await again.until("votes_contradicted")
        assert told["majority"] is True and told["named"] == [seat]
        asked = await again.until("returning")
        away = await again.until("away")
        assert away["why"] == "silent" and [v["names"] for v in away["verdicts"]] == [["Bob"]]
        assert (await host.until("return_asked"))["name"] == "Bob"
        assert (await host.until("answer", question="admit"))["answer"] == "yes"
        back = await ann.until("returned")
        hana.thinking = False
        assert back["names"] == ["Bob"] and back["hand"] >= asked["hand"]
        dealt = [e for e in ann.of("seating") if e["hand"] == back["hand"]][-1]
        assert seat in dealt["playing"] and not dealt["out"]
        await again.until("move", seat=seat, hand=back["hand"])  # Bob plays again
        codes = [await p.finish() for p in (host, ann, again)]
    assert codes == [0, 0, 0], procs.report()
    assert [q["question"] for q in hana.asked] == ["silent", "silent", "admit"]
    fits(host, ann, bob, again)
    agree([host, ann, again])


async def test_a15_an_azi_match_of_computer_players_on_the_lan_ends_by_itself(procs: Procs) -> None:
    """The host's seat is played by a computer (``--auto``) and two computer players take the other
    seats: players who cannot pay the ante are out (A15) and the match ends with the standings."""
    with procs.progressing():
        host = await procs.start("host", "host", "azi", "--players", "3", "-o", "bankroll=30", *LOOPBACK,
                                 "--port", "0", "--bots", "easy", "--auto", "easy", "--json", *TIMEOUT,
                                 stdin=True)
        await host_port(host)
        await host.send("start")
        assert await host.finish() == 0, host.report()
    over = host.of("match_over")[-1]
    chips = over["scores"]["chips"]
    assert sum(chips) == 90 and len([c for c in chips if c >= 10]) < 2 and over["abandoned"] is False
    out = host.of("out_of_match")
    assert out and {e["seat"] for e in out} == set(over["scores"]["out"])
    assert all(e["rule"] == "A15" for e in out)
    fits(host)
    assert verified(host, host.of("start")[-1]["game_id"])["finished"]
