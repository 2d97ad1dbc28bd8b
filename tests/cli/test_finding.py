"""``join`` without an exact name: the tables that answer at once are the ones there are.  Part of a name,
or no name, is decided a moment after the first table answers (not at the end of the search), and a
person who is shown a list to choose from is never overtaken by the program choosing by itself."""

from __future__ import annotations

import contextlib
import io
from collections.abc import AsyncIterator, Sequence

import pytest
import trio
import trio.testing
from rich.console import Console

from p2pcards.cli.lan import finding
from p2pcards.cli.lan.runner import LanError
from p2pcards.cli.terminal import EndOfInput, Terminal
from p2pcards.net.discovery import Appeared, Sighting, TableAd

FP = "ABCD-EFGH-IJKL-MNOP"


def ad(name: str, port: int = 47474, *, playing: bool = False) -> TableAd:
    return TableAd(name, "durak", (("players", "2"),), 2, 1, FP, bytes(32), port=port,
                   addresses=("192.168.1.23",), playing=playing, instance=f"{name} [{port}]")


def network(answers: Sequence[tuple[float, TableAd]], monkeypatch: pytest.MonkeyPatch) -> None:
    """mDNS as the tables' hosts answer it: each ad ``seconds`` after the search starts."""

    @contextlib.asynccontextmanager
    async def browse(interfaces: Sequence[str] | None) -> AsyncIterator[trio.MemoryReceiveChannel[Sighting]]:
        send, receive = trio.open_memory_channel[Sighting](16)
        async with trio.open_nursery() as nursery:

            async def answer() -> None:
                start = trio.current_time()
                for at, table in sorted(answers, key=lambda a: a[0]):
                    await trio.sleep_until(start + at)
                    await send.send(Appeared(table))
                await trio.sleep_forever()

            nursery.start_soon(answer)
            yield receive
            nursery.cancel_scope.cancel()

    monkeypatch.setattr(finding, "browse", browse)


class Typed:
    """A person typing ``line`` at ``at`` seconds (then nothing more)."""

    def __init__(self, at: float, line: str) -> None:
        self.at, self.line = at, line
        self.asked_at: float | None = None

    async def get(self) -> str:
        if self.asked_at is None:
            self.asked_at = trio.current_time()
            await trio.sleep_until(self.asked_at + self.at)
            return self.line
        await trio.sleep_forever()
        raise EndOfInput


def terminal() -> tuple[Terminal, io.StringIO]:
    screen = io.StringIO()
    return Terminal(Console(file=screen, width=100, force_terminal=True, highlight=False,
                            color_system=None)), screen


async def test_part_of_a_name_is_taken_a_moment_after_it_answers(
    monkeypatch: pytest.MonkeyPatch, autojump_clock: trio.testing.MockClock
) -> None:
    network([(0.05, ad("Hana's table")), (0.08, ad("Kai's table", 47475))], monkeypatch)
    start = trio.current_time()
    found = await finding.find_table("hana", None, 10.0, Terminal(json_mode=True), None)
    assert found.name == "Hana's table"
    assert trio.current_time() - start < 0.05 + finding.SETTLE + 0.01  # not the 10 s of the search


async def test_no_name_takes_the_only_open_table_at_once(
    monkeypatch: pytest.MonkeyPatch, autojump_clock: trio.testing.MockClock
) -> None:
    network([(0.05, ad("Hana's table")), (0.06, ad("Old table", 47475, playing=True))], monkeypatch)
    start = trio.current_time()
    found = await finding.find_table(None, None, 10.0, Terminal(json_mode=True), None)
    assert found.name == "Hana's table" and trio.current_time() - start < 1.0


async def test_of_several_tables_a_program_is_told_which_there_are(
    monkeypatch: pytest.MonkeyPatch, autojump_clock: trio.testing.MockClock
) -> None:
    network([(0.05, ad("Hana's table")), (0.07, ad("Hana's other table", 47475))], monkeypatch)
    start = trio.current_time()
    with pytest.raises(LanError, match="2 tables are open") as raised:
        await finding.find_table(None, None, 10.0, Terminal(json_mode=True), None)
    assert "Hana's other table" in str(raised.value) and trio.current_time() - start < 1.0
    with pytest.raises(LanError, match="fits 2 tables"):
        await finding.find_table("hana", None, 10.0, Terminal(json_mode=True), None)


async def test_a_person_picks_from_the_list_and_nothing_is_taken_meanwhile(
    monkeypatch: pytest.MonkeyPatch, autojump_clock: trio.testing.MockClock
) -> None:
    network([(0.05, ad("Hana's table")), (0.07, ad("Kai's table", 47475)),
             (30.0, ad("Late table", 47476))], monkeypatch)
    out, screen = terminal()
    typed = Typed(60.0, "3")  # long after the search's 10 s: the person is still choosing
    found = await finding.find_table(None, None, 10.0, out, typed)  # type: ignore[arg-type]
    assert found.name == "Late table"  # shown below the others when it appeared, with the question again
    text = screen.getvalue()
    assert "2 tables are open" in text and text.count("Type a table's number to join it: ") == 2
    assert " 1  Hana's table" in text and " 3  Late table" in text
