"""Strings other peers chose: made safe to show in one place, and the rule for a seat's name."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pcards.text import ELLIPSIS, MAX_NAME, REPLACEMENT, name_problem, option_value, options_text, shown

ATTACKS = [
    "\x1b[2J\x1b[H",  # clear the screen, cursor home
    "\x1b]0;pwned\x07",  # set the window title
    "\x9b31m",  # a C1 control sequence introducer
    "\r\x1b[KThe host admitted you.",  # overwrite the line with a fake message
    "Ann\u202eelbat",  # a bidi override reversing what follows
    "\u2066Bob\u2069",  # bidi isolates
    "\u200dzero\u200bwidth",
    "line\u2028separator",
    "\x7f\x00",
]


@pytest.mark.parametrize("attack", ATTACKS)
def test_nothing_a_peer_writes_can_act_on_the_terminal(attack: str):
    safe = shown(attack, 200)
    assert all(ch.isprintable() or ch == " " for ch in safe), repr(safe)
    assert "\x1b" not in safe and "\x07" not in safe and "\u202e" not in safe
    assert "\r" not in safe and "\n" not in safe
    # Nothing vanishes without a trace: every unsafe character left a visible mark.
    assert len(safe) == len(attack)


def test_line_breaks_and_tabs_become_spaces_and_the_rest_a_replacement_mark():
    assert shown("a\tb\nc", 10) == "a b c"
    assert shown("a\x1bb", 10) == f"a{REPLACEMENT}b"


def test_a_long_string_is_cut_with_an_ellipsis():
    assert shown("x" * 100, 10) == "x" * 9 + ELLIPSIS
    assert shown("exactly10!", 10) == "exactly10!"
    with pytest.raises(ValueError):
        shown("x", 0)


@given(st.text(max_size=300), st.integers(min_value=1, max_value=120))
def test_whatever_the_text_the_result_is_printable_and_within_the_limit(text: str, limit: int):
    safe = shown(text, limit)
    assert len(safe) <= limit
    # No control, format, surrogate, line or paragraph separator character is left.
    assert not [ch for ch in safe if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp")]


@pytest.mark.parametrize("name", ["Ann", "Анна", "李小龍", "Zoë O'Neil", "x" * MAX_NAME, "🂡 dealer"])
def test_good_names(name: str):
    assert name_problem(name) == ""


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "1 to 40 characters"),
        ("x" * (MAX_NAME + 1), "1 to 40 characters, not 41"),
        ("   ", "cannot be blank"),
        ("Ann\x1b[31m", "U+001B"),
        ("Ann\u202e", "U+202E"),
        ("Ann\u200b", "U+200B"),
        ("Ann\nBob", "U+000A"),
        ("Ann\u2028", "U+2028"),
        (42, "a name is text"),
    ],
)
def test_bad_names_say_why(name: object, why: str):
    assert why in name_problem(name)


def test_option_values_are_written_as_they_are_typed_after_dash_o():
    # one formatting for sim, host, list, join, games and the mDNS record
    assert option_value(False) == "false" and option_value(True) == "true"
    assert option_value(-200) == "-200" and option_value("count") == "count"
    assert options_text([("blind", True), ("ante", 20)]) == "blind=true, ante=20"
    assert options_text([]) == ""
