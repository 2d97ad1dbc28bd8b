"""A prompt never shares its line: lines said while it is open go below it, and it is asked again
once, after all the lines that came together.  Each terminal keeps its own prompt: two terminals in
one process never share one."""

from __future__ import annotations

import io

import trio
from rich.console import Console
from rich.text import Text

from p2pcards.cli.terminal import Terminal


def terminal() -> tuple[Terminal, io.StringIO]:
    sink = io.StringIO()
    return Terminal(Console(file=sink, width=80, force_terminal=False, highlight=False)), sink


async def test_lines_arriving_at_an_open_prompt_go_below_it_and_it_is_asked_once_again():
    term, sink = terminal()
    term.prompt("Admit Ivan (ABCD-EFGH-IJKL-MNOP)? [y/n] ")
    term.say(Text("#2 Jun asks to sit at your table"))
    term.say(Text("#3 Kim asks to sit at your table"))
    await trio.testing.wait_all_tasks_blocked()  # the next turns of the loop
    lines = sink.getvalue().split("\n")
    assert lines == [
        "Admit Ivan (ABCD-EFGH-IJKL-MNOP)? [y/n] ",
        "#2 Jun asks to sit at your table",
        "#3 Kim asks to sit at your table",
        "Admit Ivan (ABCD-EFGH-IJKL-MNOP)? [y/n] ",
    ]
    assert term.prompting == "Admit Ivan (ABCD-EFGH-IJKL-MNOP)? [y/n] "


async def test_a_new_question_replaces_one_waiting_to_be_asked_again():
    term, sink = terminal()
    term.prompt("Your move: ")
    term.say(Text("Hana is connected."))
    term.prompt("Leave the game? [y/N] ")
    await trio.testing.wait_all_tasks_blocked()
    assert sink.getvalue().split("\n") == ["Your move: ", "Hana is connected.", "Leave the game? [y/N] "]


async def test_a_withdrawn_question_is_not_asked_again_below_the_lines_that_came_with_it():
    term, sink = terminal()
    term.prompt("Go on without Bob? [y/n] ")
    term.say(Text("Bob answered after all: no need to decide."))
    term.withdraw("Go on without Bob? [y/n] ")
    await trio.testing.wait_all_tasks_blocked()
    assert sink.getvalue().split("\n") == ["Go on without Bob? [y/n] ", "Bob answered after all: no need to "
                                           "decide.", ""]
    assert term.prompting is None


def test_outside_trio_the_prompt_is_asked_again_at_once():
    term, sink = terminal()
    term.prompt("Join code: ")
    term.say(Text("a notice"))
    assert sink.getvalue().split("\n") == ["Join code: ", "a notice", "Join code: "]


def test_an_answered_prompt_is_not_asked_again():
    term, sink = terminal()
    term.prompt("Admit Ivan? [y/n] ")
    term.answered()  # what reading a line does: Enter moved the cursor on
    term.say(Text("Ivan sits down."))
    assert sink.getvalue() == "Admit Ivan? [y/n] Ivan sits down.\n"  # the typed "y\n" sits between


def test_two_terminals_keep_their_own_prompts():
    first, _ = terminal()
    second, second_sink = terminal()
    first.prompt("Your move: ")
    second.say(Text("a line elsewhere"))
    assert second_sink.getvalue() == "a line elsewhere\n"
    assert first.prompting == "Your move: " and second.prompting is None
