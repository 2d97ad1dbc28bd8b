"""A prompt never shares its line: lines printed while it is open go below it, and it is asked
again once, after all the lines that came together."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
import trio
from rich.text import Text

from p2pcards.cli.lan import terminal
from p2pcards.cli.lan.terminal import Out, PromptConsole, prompt_open


@pytest.fixture(autouse=True)
def _no_prompt_left_open() -> Iterator[None]:
    terminal._OPEN.answered()
    yield
    terminal._OPEN.answered()


def console() -> tuple[PromptConsole, io.StringIO]:
    sink = io.StringIO()
    return PromptConsole(file=sink, width=80, force_terminal=False, highlight=False), sink


async def test_lines_arriving_at_an_open_prompt_go_below_it_and_it_is_asked_once_again():
    con, sink = console()
    con.ask("Admit Ivan (ABCD-EFGH-IJKL-MNOP)? [y/n] ")
    con.print(Text("#2 Jun asks to sit at your table"))
    con.print(Text("#3 Kim asks to sit at your table"))
    await trio.sleep(0.05)  # the next turns of the loop
    lines = sink.getvalue().split("\n")
    assert lines == [
        "Admit Ivan (ABCD-EFGH-IJKL-MNOP)? [y/n] ",
        "#2 Jun asks to sit at your table",
        "#3 Kim asks to sit at your table",
        "Admit Ivan (ABCD-EFGH-IJKL-MNOP)? [y/n] ",
    ]
    assert prompt_open() == "Admit Ivan (ABCD-EFGH-IJKL-MNOP)? [y/n] "


async def test_a_new_question_replaces_one_waiting_to_be_asked_again():
    con, sink = console()
    out = Out(False, con)
    con.ask("Your move: ")
    con.print(Text("Hana is connected."))
    out.prompt("Leave the game? [y/N] ")
    await trio.sleep(0.05)  # the next turns of the loop
    assert sink.getvalue().split("\n") == ["Your move: ", "Hana is connected.", "Leave the game? [y/N] "]


def test_outside_trio_the_prompt_is_asked_again_at_once():
    con, sink = console()
    con.ask("Join code: ")
    con.print(Text("a notice"))
    assert sink.getvalue().split("\n") == ["Join code: ", "a notice", "Join code: "]


def test_an_answered_prompt_is_not_asked_again():
    con, sink = console()
    con.ask("Admit Ivan? [y/n] ")
    terminal._OPEN.answered()  # what reading a line does: Enter moved the cursor on
    con.print(Text("Ivan sits down."))
    assert sink.getvalue() == "Admit Ivan? [y/n] Ivan sits down.\n"  # the typed "y\n" sits between
