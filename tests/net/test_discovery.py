"""mDNS discovery: the TXT record, and tables appearing and vanishing across network namespaces."""

from __future__ import annotations

import pytest
import trio

from p2pcards.net.discovery import MAX_INSTANCE_BYTES, TableAd, instance_name

from .netns import Lan
from .procs import Agent

FP = "TQSK-O36J-PFA5-JG64"
LOBBY = b"L" * 32


def test_an_advertisement_survives_its_txt_record():
    ad = TableAd("Ann", "durak", (("players", "4"), ("series_hands", "1")), 4, 2, FP, LOBBY, True, 4242,
                 dealer="seeded", playing=True)  # fmt: skip
    instance = instance_name("Ann", FP, 4242)
    back = TableAd.from_txt(instance, dict(ad.txt()), 4242, ["10.0.0.1"])
    assert back == TableAd(
        "Ann", "durak", (("players", "4"), ("series_hands", "1")), 4, 2, FP, LOBBY, True, 4242, ("10.0.0.1",),
        dealer="seeded", playing=True, instance=instance,
    )  # fmt: skip
    assert all(len(k) + len(v.encode()) + 1 <= 255 for k, v in ad.txt().items())


def test_instance_names_are_unique_per_host_and_port_and_fit_a_dns_label():
    """Two tables named alike on one machine (ports 47474 and 47475) are two services, not one."""
    a, b = instance_name("Kai's table", FP, 47474), instance_name("Kai's table", FP, 47475)
    assert a != b and a.startswith("Kai's table") and "47474" in a
    assert instance_name("Kai's table", "ABCD-O36J-PFA5-JG64", 47474) != a  # another host
    long = instance_name("ж" * 40, FP, 47474)  # 80 bytes of UTF-8 before the suffix
    assert len(long.encode()) <= MAX_INSTANCE_BYTES and long.endswith(f"[{FP[:4]}:47474]")
    assert "." not in instance_name("a.b.c", FP, 1)  # a dot would split the DNS name


def test_names_from_the_network_are_made_safe_to_show():
    """A TXT name (or an instance name) of escape sequences and bidi overrides cannot act on a screen."""
    hostile = "\x1b]0;owned\x07\x1b[2J\u202eelbat s'nnA\x9b31m" + "x" * 100
    ad = TableAd(hostile, "durak", (("players", "4"),), 4, 2, FP, LOBBY, port=4242)
    back = TableAd.from_txt(hostile, dict(ad.txt()), 4242, [])
    assert back is not None
    for text in (back.name, back.instance):
        assert not any(ch in text for ch in "\x1b\x07\u202e\x9b")
    assert len(back.name) <= 40 and back.name.endswith("…")


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("v", "x"),
        ("fp", "not-a-fingerprint"),
        ("free", "5"),
        ("seats", "9"),
        ("lobby", "abcd"),
        ("lobby", "zz" * 32),
        ("game", "Durak; rm -rf"),
        ("opts", "players=4,\x1b[31m=1"),
        ("dealer", "trusted"),
        ("state", "closed"),
    ],
)
def test_a_malformed_advertisement_is_ignored(field, value):
    ad = TableAd("Ann", "durak", (("players", "4"),), 4, 2, FP, LOBBY, port=4242)
    txt: dict[str, str | None] = dict(ad.txt())
    txt[field] = value
    assert TableAd.from_txt("Ann", txt, 4242, []) is None


def test_an_advertisement_without_a_usable_port_or_field_is_ignored():
    ad = TableAd("Ann", "durak", (), 4, 2, FP, LOBBY, port=4242)
    assert TableAd.from_txt("Ann", dict(ad.txt()), 0, []) is None
    txt: dict[str, str | None] = dict(ad.txt())
    del txt["fp"]
    assert TableAd.from_txt("Ann", txt, 4242, []) is None


async def test_a_table_appears_changes_and_vanishes_across_namespaces(lan2: Lan):
    host, guest = lan2.hosts
    agents: list[Agent] = []
    try:
        with trio.fail_after(40):
            browser = await Agent.start(guest, "browse", guest.address)
            agents.append(browser)
            await browser.until("browsing")
            advertiser = await Agent.start(host, "advertise", host.address, "Ann's table", "2")
            agents.append(advertiser)
            await advertiser.until("registered")

            seen = await browser.until("appeared")
            assert seen["name"] == "Ann's table"
            assert seen["game"] == "durak" and seen["options"] == [["players", "4"]]
            assert (seen["free"], seen["seats"], seen["port"]) == (2, 4, 4242)
            assert seen["addresses"] == [host.address]
            assert seen["fp"] == advertiser_fingerprint()
            assert seen["lobby"] == (b"L" * 32).hex() and seen["private"] is False

            await advertiser.send("free 1")  # a seat was taken
            changed = await browser.until("changed")
            assert changed["free"] == 1

            await advertiser.close_input()  # the host stops: goodbye packets withdraw the table
            await advertiser.proc.wait()
            gone = await browser.until("vanished")
            assert gone["name"] == "Ann's table"
            assert advertiser.proc.returncode == 0, advertiser.output
    finally:
        for agent in agents:
            await agent.stop()


def advertiser_fingerprint() -> str:
    from p2pcards.wire import fingerprint

    from .helpers import identities

    return fingerprint(identities(1, tag=9)[0])
