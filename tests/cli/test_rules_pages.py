"""The rules inside a game, a screen at a time: ``rules`` lists the sections, ``rules N`` shows one."""

from __future__ import annotations

import re

import pytest

from p2pcards import games
from p2pcards.cli.rules import rules_page, rules_text, sections


@pytest.mark.parametrize("game", games.GAMES)
def test_the_sections_together_are_the_whole_rules(game: str) -> None:
    text = rules_text(game)
    parts = sections(text)
    assert len(parts) > 3
    assert "".join(body for _, body in parts).split() == text.split()
    assert all(body.lstrip().startswith("#") for _, body in parts)


@pytest.mark.parametrize("game", games.GAMES)
def test_rules_lists_each_section_once_and_rules_n_shows_that_one(game: str) -> None:
    parts = sections(rules_text(game))
    listing = rules_page(game, "")
    headings = [heading for heading, _ in parts]
    listed = re.findall(r"^\d+\. (.*)$", listing, re.M)
    assert len(listed) == len(headings)
    assert len(set(listed)) == len(listed), f"a section appears twice: {listed}"
    assert listed[0] == f"About {headings[0]}"  # the title and what the game is
    for number, heading in enumerate(headings[1:], 2):
        assert f"{number}. {heading}" in listing
    assert len(listing.splitlines()) < 24, "the list fits an 80x24 screen"
    assert rules_page(game, "2") == parts[1][1]
    assert rules_page(game, "all") == rules_text(game)


def test_a_section_that_does_not_exist_says_which_there_are() -> None:
    count = len(sections(rules_text("durak")))
    assert rules_page("durak", "99") == (
        f"There is no section 99 of the rules: `rules` lists sections 1 to {count}.\n"
    )

