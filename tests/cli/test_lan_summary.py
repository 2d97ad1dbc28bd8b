"""A table described shortly: ``list`` lines within the terminal's columns, essentials first, the host's
key always whole, nothing cut in the middle of a word; ``host`` and ``join`` show only the options that
differ from the defaults."""

from __future__ import annotations

import io
import re
from typing import ClassVar

import pytest
from rich.cells import cell_len
from rich.console import Console

from p2pcards.cli.lan.finding import ad_line
from p2pcards.cli.lan.host import _announce
from p2pcards.cli.lan.summary import changed_options, fit_list, options_line, shorten_words
from p2pcards.cli.terminal import Terminal
from p2pcards.games import load
from p2pcards.net.discovery import TableAd, option_text
from p2pcards.wire import key_from_seed

FP = "ABCD-EFGH-IJKL-MNOP"
LOBBY = bytes(32)
SPADES = option_text(load("spades").options)
"""Every option of a Spades table, the locked variants too, as an advertisement carries them."""


def spades_ad(name: str = "Kai's table", **changes: str) -> TableAd:
    options = tuple((k, changes.get(k, v)) for k, v in SPADES)
    return TableAd(name, "spades", options, 4, 3, FP, LOBBY, port=47474, addresses=("192.168.100.200",))


def test_only_the_options_that_differ_from_the_defaults_are_shown():
    assert changed_options("spades", SPADES) == []
    assert changed_options("spades", spades_ad(target="300", floor="-100").options) == [
        "floor=-100", "target=300"]
    # native values as the host holds them are written as after -o (true, not True)
    rules = load("durak", first_bout_limit_5=True, players=3)
    assert changed_options("durak", rules.options) == ["first_bout_limit_5=true"]
    assert options_line("durak", rules.options) == "first_bout_limit_5=true; the rest as by default"
    assert options_line("azi", load("azi").options) == "the defaults"
    # a game this version does not know: everything it says, but the seat count
    assert changed_options("poker", (("players", "4"), ("limit", "no"))) == ["limit=no"]


def test_a_list_is_cut_after_whole_parts_with_the_number_left_out():
    parts = ["blind_nil=true", "deuces_high=true", "floor=-100"]
    assert fit_list(parts, 80) == "blind_nil=true, deuces_high=true, floor=-100"
    assert fit_list(parts, 30) == "blind_nil=true, +2 more"
    assert fit_list(parts, 5) == ""
    assert shorten_words("The big Friday night table", 15) == "The big Friday…"
    assert shorten_words("Supercalifragilistic", 8) == "Superca…"  # one word: nothing else to do


def test_a_list_line_fits_80_columns_with_the_essentials_first_and_no_word_cut():
    plain = ad_line(spades_ad(target="300"), {}, "+ ").plain
    first, key = plain.split("\n")
    assert first.startswith("+ Kai's table  Spades  3 of 4 seats free  192.168.100.200:47474")
    assert "(target=300)" in first and "blind_nil" not in plain and "mental" not in plain
    assert cell_len(first) <= 80 and key == f"  host key {FP}"  # under the name, whole


def test_the_host_key_is_on_the_line_when_the_terminal_is_wide_enough():
    """The host's screen tells players to check its key in ``list``: at 100 columns or 200 it is
    there, on the table's own line, and a known host is named beside it."""
    for width in (100, 200):
        plain = ad_line(spades_ad(target="300"), {}, "+ ", width=width).plain
        assert "\n" not in plain and f"  host key {FP}" in plain and cell_len(plain) <= width
    known = ad_line(spades_ad(), {FP: "Hana"}, "+ ", width=120).plain
    assert f"host Hana (known), key {FP}" in known


def split_entry(text: str) -> tuple[str, str]:
    """A table's first line, and its host key (from the first line or the second)."""
    lines = text.split("\n")
    assert len(lines) <= 2, text
    found = re.search(r"key ([A-Z2-7]{4}(?:-[A-Z2-7]{4}){3})", text)
    assert found is not None, text
    return lines[0], found.group(1)


@pytest.mark.parametrize("name", ["A" * 40, "The longest table name there is on here", "Hana's table"])
def test_every_list_line_is_at_most_80_columns_and_shows_the_host_key_whatever_it_says(name: str):
    ad = spades_ad(name, target="300", floor="-100", failed_nil_tricks="bags_only")
    seeded = TableAd(**{**ad.__dict__, "private": True, "dealer": "seeded"})
    for known in ({}, {FP: "Hana Kowalska-Montgomery"}):
        entry = ad_line(seeded, known, "12  ").plain
        line, key = split_entry(entry)
        assert key == FP and all(cell_len(part) <= 80 for part in entry.split("\n")), entry
        # the seats said shortly when the line is short of room
        assert re.search(r"  Spades  (3 of 4 seats free|3/4 free)  192\.168\.100\.200:47474  "
                         r"SEEDED DEALER", line)
        assert line.startswith("12  " + name[:10])
        # every option shown is whole: a name=value pair of the table, or the count of the others
        shown = re.findall(r"\(([^)]*=[^)]*)\)", line)
        for item in (shown[0].split(", ") if shown else []):
            assert item in changed_options("spades", ad.options) or re.fullmatch(r"\+\d more", item)
        if name.startswith("The"):
            assert "The longest table" in line
        # a name is shortened after a whole word (inside one only if it is a single word)
        named = line[4:].split("  ")[0]
        if named != name:
            kept = named.removesuffix("…")
            assert named.endswith("…") and name.startswith(kept)
            assert name[len(kept)] == " " or " " not in name
    # everything at once still makes one line, with the essentials
    worst = TableAd(**{**seeded.__dict__, "version": 99, "playing": True})
    line, key = split_entry(ad_line(worst, {}, "12  ").plain)
    assert key == FP and cell_len(line) <= 80, line
    assert "Spades  playing  192.168.100.200:47474" in line and line.startswith("12  " + name[:6])


def test_options_that_do_not_fit_are_counted():
    options = (("first_bout_limit_5", "true"), ("players", "4"), ("series_hands", "3"))
    durak = TableAd("Hana's table", "durak", options, 4, 2, FP, LOBBY, True, 4242, ("10.0.0.2",))
    head = "+ Hana's table  Durak  2 of 4 seats free  10.0.0.2:4242"
    key = "  host key ABCD-EFGH-IJKL-MNOP"
    assert ad_line(durak, {}, "+ ").plain == head + "  join code needed\n" + key
    assert ad_line(durak, {}, "+ ", width=125).plain == head + key + "  join code needed  (2 options changed)"
    assert ad_line(durak, {}, "+ ", width=160).plain == (
        head + key + "  join code needed  (first_bout_limit_5=true, series_hands=3)")


def test_the_host_title_is_never_cut_and_its_options_are_only_the_changed_ones():
    class Config:
        game, players, dealer, code, mdns, bots, wait_for = "spades", 4, "seeded", None, False, "easy", None
        options: ClassVar[dict[str, int]] = {"target": 300}

        def join_addresses(self) -> list[str]:
            return ["192.168.100.200"]

        def mdns_interfaces(self) -> list[str]:
            return []

    class Lobby:
        port, private, table_name, name = 47474, False, "The Friday night Spades table of Kai", "Kai"
        identity = key_from_seed(bytes(32))

    sink = io.StringIO()
    out = Terminal(Console(file=sink, width=80, highlight=False, color_system=None))
    _announce(Lobby(), Config(), out, None)  # type: ignore[arg-type]
    text = " ".join(sink.getvalue().split())  # the title wraps between words on an 80-column screen
    assert "…" not in text
    assert "The Friday night Spades table of Kai" in text and "SEEDED dealer (tests only)" in text
    assert "Options: target=300; the rest as by default" in text and "blind_nil" not in text
