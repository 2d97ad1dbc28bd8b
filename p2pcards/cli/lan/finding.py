"""Tables seen by mDNS: how they are shown (``list``) and how ``join TABLE`` picks one.

What an advertisement says is a hint: the host's fingerprint is proven only by the handshake, and
``join`` checks afterwards that the host who answered is the one the advertisement named.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import Any, Final

import trio
from rich.cells import cell_len
from rich.text import Text

from p2pcards.cli.common import program
from p2pcards.cli.lan.runner import LanError
from p2pcards.cli.lan.summary import LINE, FittedLine, changed_options, fit_list, shorten_words
from p2pcards.cli.terminal import EndOfInput, Lines, Terminal
from p2pcards.net.discovery import Appeared, Changed, Sighting, TableAd, Vanished, browse
from p2pcards.net.handshake import HANDSHAKE_VERSION
from p2pcards.store import Peers, StoreError
from p2pcards.text import MAX_NAME, shown
from p2pcards.wire import fingerprint

SETTLE: Final = 0.2
"""Seconds ``join`` (no table named, or part of a name) waits after the first table that fits
appears for the others to answer the same query: an mDNS responder answers a query for a shared
record after a random 20-120 ms (RFC 6762 §6), so on a LAN they all have by then."""


@contextlib.asynccontextmanager
async def browsing(interfaces: Sequence[str] | None) -> AsyncIterator[trio.MemoryReceiveChannel[Sighting]]:
    """``discovery.browse``, with a failure to start it told in words (the rest is unchanged)."""
    async with contextlib.AsyncExitStack() as stack:
        try:
            sightings = await stack.enter_async_context(browse(interfaces))
        except OSError as exc:
            raise LanError(f"mDNS discovery cannot run here ({exc.strerror or exc}); "
                           f"join by address instead: {program()} join HOST:PORT") from exc
        yield sightings


def known_hosts() -> dict[str, str]:
    """Fingerprint -> name, for the peers this player knows (trust on first use)."""
    try:
        return {fingerprint(key): shown(name, MAX_NAME) for name, key in Peers().all().items()}
    except StoreError:
        return {}


MIN_NAME: Final = 12
"""The fewest columns a table's name is shortened to in a ``list`` line."""
DEALER_WORDS: Final = {"mental": "mental poker", "seeded": "SEEDED DEALER (a test deck anyone can predict)"}


def ad_json(ad: TableAd, known: dict[str, str]) -> dict[str, Any]:
    return {
        "name": ad.name, "game": ad.game, "options": dict(ad.options), "seats": ad.seats, "free": ad.free,
        "fingerprint": ad.fingerprint, "host": known.get(ad.fingerprint), "private": ad.private,
        "addresses": list(ad.addresses), "port": ad.port, "version": ad.version, "dealer": ad.dealer,
        "playing": ad.playing, "instance": ad.instance,
    }


def line_width(out: Terminal) -> int:
    """The columns a table's line may take: the terminal's (80 where output is not a terminal)."""
    return out.console.width if out.console.is_terminal else LINE


def ad_line(ad: TableAd, known: dict[str, str], mark: str = "", width: int = LINE) -> Text:
    """One table as ``list`` shows it, within ``width`` columns, the essentials first (name, game,
    free seats, address), then a seeded dealer or another protocol (the name is shortened for those
    first), the host's key (its fingerprint, which the host's screen tells players to compare, or
    the name of a known host), a join code, the options that differ from the defaults, each part
    whole.  The host's key is never left out: where the first line has no room for it, it goes on a
    second line under the name.  Every text in ``ad`` was made safe when it was parsed."""
    address = f"  {ad.addresses[0]}:{ad.port}" if ad.addresses else ""
    # what a player must not miss: a deck anyone can predict, a program that cannot join
    warnings = [f"  {DEALER_WORDS.get(ad.dealer, ad.dealer).split(' (')[0]}"] if ad.dealer != "mental" else []
    if ad.version != HANDSHAKE_VERSION:
        warnings.append(f"  protocol {ad.version}")
    room = width - cell_len(mark)
    seats = "playing (the game has started)" if ad.playing else f"{ad.free} of {ad.seats} seats free"
    essentials = f"  {ad.game}  {seats}{address}{''.join(warnings)}"
    if cell_len(essentials) + min(cell_len(ad.name), MIN_NAME) > room:
        seats = "playing" if ad.playing else f"{ad.free}/{ad.seats} free"
    tail = f"  {ad.game.capitalize()}  {seats}{address}"
    line = FittedLine(width)
    line.put(mark)
    line.put(shorten_words(ad.name, max(room - cell_len(tail + "".join(warnings)), MIN_NAME)), style="bold")
    line.put(f"  {ad.game.capitalize()}")
    line.put(f"  {seats}", style="green" if ad.free and not ad.playing else "dim")
    line.put(address)
    for warning in warnings:
        line.add(warning, style="bold red")
    host = known.get(ad.fingerprint)
    key = Text("  host ")
    if host is not None:
        key.append(host, style="bold")
        key.append(" (known), ")
    key.append("key ")
    key.append(ad.fingerprint, style="cyan")
    below = cell_len(key.plain) > line.room
    if not below:
        line.text.append_text(key)
    if ad.private:
        line.add("  join code needed", style="yellow")
    changed = changed_options(ad.game, ad.options)
    options = fit_list(changed, line.room - 4)
    if options:
        line.add(f"  ({options})", style="dim")
    elif changed:
        line.add(f"  ({len(changed)} option{'s' if len(changed) != 1 else ''} changed)", style="dim")
    text = line.text
    if below:
        indent = " " * min(cell_len(mark), 8)
        text.append("\n" + indent)
        text.append_text(key[2:])
    return text


def _exact(ad: TableAd, wanted: str) -> bool:
    return ad.name.casefold() == wanted.casefold() or ad.fingerprint.casefold() == wanted.casefold()


def _close(ad: TableAd, wanted: str) -> bool:
    return wanted.casefold() in ad.name.casefold()


def describe_seen(seen: Sequence[TableAd]) -> str:
    def one(ad: TableAd) -> str:
        state = "playing" if ad.playing else f"{ad.free} free"
        where = f", {ad.addresses[0]}:{ad.port}" if ad.addresses else ""
        return f"{ad.name!r} ({ad.game}, {state}{where})"

    return "; ".join(one(ad) for ad in seen) or "none"


async def find_table(
    wanted: str | None,
    interfaces: Sequence[str] | None,
    timeout: float,
    out: Terminal,
    lines: Lines | None,
    *,
    at_address: str | None = None,
) -> TableAd:
    """The table named ``wanted`` (its name, a unique part of it, or its host's fingerprint); with no
    name, the only open table around (or only those at ``at_address``).

    A table named exactly is taken the moment it is seen.  Otherwise the tables that fit are those
    that answer within ``SETTLE`` seconds of the first one (every host answers the same query at
    once): one is taken then; of several, a person at a terminal picks one by number (and is asked
    nothing else meanwhile: no table is taken by itself once the list is shown), a program is told
    which there are.  ``timeout`` bounds only the wait for a first table that fits."""
    known = known_hosts()
    seen: dict[str, TableAd] = {}
    can_pick = lines is not None and out.interactive
    listed: list[TableAd] = []
    picking = False
    where = f" at {at_address}" if at_address is not None else ""
    out.status(f"Looking for tables{where} on the local network…")
    chosen: list[TableAd] = []
    settling = False
    """The first table that fits has answered: the others are given ``SETTLE`` seconds."""

    def counts(ad: TableAd) -> bool:
        return at_address is None or at_address in ad.addresses

    def fits(ad: TableAd) -> bool:
        return _close(ad, wanted) if wanted is not None else not ad.playing

    def fitting() -> list[TableAd]:
        return [ad for ad in seen.values() if fits(ad)]

    async with browsing(interfaces) as sightings, trio.open_nursery() as nursery:
        deadline = trio.CancelScope(deadline=trio.current_time() + timeout)

        def take(ad: TableAd) -> None:
            chosen.append(ad)
            nursery.cancel_scope.cancel()

        def show(ad: TableAd) -> None:
            listed.append(ad)
            out.hide_status()
            out.say(ad_line(ad, known, f"{len(listed):>2}  ", line_width(out)))

        async def choose() -> None:
            assert lines is not None
            out.prompt("Type a table's number to join it: ")
            while True:
                try:
                    raw = (await lines.get()).strip()
                except EndOfInput:
                    raise LanError("no table chosen") from None
                if raw.isdigit() and 1 <= int(raw) <= len(listed):
                    take(listed[int(raw) - 1])
                    return
                out.say(Text(f"Type a number from 1 to {len(listed)} (Ctrl-C to stop).", style="yellow"))
                out.prompt("Type a table's number to join it: ")

        async def settle() -> None:
            nonlocal picking, settling
            await trio.sleep(SETTLE)
            found = fitting()
            if not found:  # the one that fitted went away: wait for the next
                settling = False
            elif len(found) == 1:
                take(found[0])
            elif not can_pick:
                nursery.cancel_scope.cancel()  # ``_decide`` says which tables there are
            else:
                picking = True
                deadline.deadline = float("inf")  # the person chooses: nothing is taken by itself
                out.hide_status()
                what = "tables are open" if wanted is None else f"tables fit {wanted!r}"
                out.say(Text(f"{len(found)} {what}{where}:", style="bold"))
                for ad in found:
                    show(ad)
                nursery.start_soon(choose)

        async def watch() -> None:
            nonlocal settling
            async for sighting in sightings:
                if isinstance(sighting, Vanished):
                    seen.pop(sighting.instance, None)
                    continue
                assert isinstance(sighting, Appeared | Changed)
                ad = sighting.ad
                if not counts(ad):
                    continue
                seen[ad.instance] = ad
                if wanted is not None and _exact(ad, wanted):
                    take(ad)
                    return
                if not fits(ad):
                    continue
                if picking and all(ad.instance != a.instance for a in listed):
                    show(ad)  # one more to choose from, below the others, and the question again
                    out.prompt("Type a table's number to join it: ")
                elif not settling:
                    settling = True
                    nursery.start_soon(settle)

        async def give_up() -> None:
            with deadline:
                await trio.sleep_forever()
            nursery.cancel_scope.cancel()

        nursery.start_soon(watch)
        nursery.start_soon(give_up)
    out.hide_status()
    if chosen:
        return chosen[0]
    return _decide(wanted, list(seen.values()), timeout, at_address)


def _decide(wanted: str | None, seen: list[TableAd], timeout: float, at_address: str | None) -> TableAd:
    hint = f"If discovery does not work on this network, join by address: {program()} join HOST:PORT."
    if wanted is None:
        open_tables = [ad for ad in seen if not ad.playing]
        if len(open_tables) == 1:
            return open_tables[0]
        where = f" at {at_address}" if at_address is not None else " on the local network"
        if not seen:
            raise LanError(f"no table found{where} in {timeout:g} s. {hint}")
        if not open_tables:
            raise LanError(f"the games of the tables{where} have started: {describe_seen(seen)}")
        raise LanError(f"{len(open_tables)} tables are open{where}: {describe_seen(open_tables)}. "
                       "Name the one to join (or give its HOST:PORT).")
    close = [ad for ad in seen if _close(ad, wanted)]
    if len(close) == 1:
        return close[0]
    if close:
        raise LanError(f"{wanted!r} fits {len(close)} tables: {describe_seen(close)}. Give the whole name, "
                       "or the host's fingerprint.")
    raise LanError(
        f"no table named {wanted!r} found in {timeout:g} s (tables seen: {describe_seen(seen)}). {hint}"
    )


async def watch_tables(interfaces: Sequence[str] | None, timeout: float | None, out: Terminal) -> int:
    """``list``: show tables as they appear, change and vanish; the number seen."""
    known = known_hosts()
    current: dict[str, TableAd] = {}
    seen = 0
    with contextlib.ExitStack() as stack:
        if timeout is not None:
            stack.enter_context(trio.move_on_after(timeout))
        async with browsing(interfaces) as sightings:
            stop = " (Ctrl-C to stop)" if timeout is None else ""
            out.status(f"Looking for tables on the local network…{stop}")
            async for sighting in sightings:
                if isinstance(sighting, Vanished):
                    gone = current.pop(sighting.instance, None)
                    out.emit({"event": "vanished", "name": sighting.name, "instance": sighting.instance})
                    if gone is not None:
                        out.say(Text(f"- {sighting.name}  closed", style="dim"))
                    continue
                assert isinstance(sighting, Appeared | Changed)
                ad = sighting.ad
                kind = "appeared" if isinstance(sighting, Appeared) else "changed"
                seen += kind == "appeared"
                current[ad.instance] = ad
                out.emit({"event": kind, **ad_json(ad, known)})
                out.say(ad_line(ad, known, "+ " if kind == "appeared" else "~ ", line_width(out)))
    out.hide_status()
    return seen
