"""Tables seen by mDNS: how they are shown (``list``) and how ``join TABLE`` picks one.

What an advertisement says is a hint: the host's fingerprint is proven only by the handshake, and
``join`` checks afterwards that the host who answered is the one the advertisement named.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import Any, Final

import trio
from rich.text import Text

from p2pcards.cli.lan.runner import LanError
from p2pcards.cli.lan.terminal import EndOfInput, Lines, Out
from p2pcards.net.discovery import Appeared, Changed, Sighting, TableAd, Vanished, browse
from p2pcards.net.handshake import HANDSHAKE_VERSION
from p2pcards.store import Peers, StoreError
from p2pcards.wire import fingerprint

SETTLE: Final = 1.5
"""Seconds ``join`` (no table named) waits after the first table appears for others to show up."""


@contextlib.asynccontextmanager
async def browsing(interfaces: Sequence[str] | None) -> AsyncIterator[trio.MemoryReceiveChannel[Sighting]]:
    """``discovery.browse``, with a failure to start it told in words (the rest is unchanged)."""
    async with contextlib.AsyncExitStack() as stack:
        try:
            sightings = await stack.enter_async_context(browse(interfaces))
        except OSError as exc:
            raise LanError(f"mDNS discovery cannot run here ({exc.strerror or exc}); "
                           "join by address instead: p2pcards join HOST:PORT") from exc
        yield sightings


def known_hosts() -> dict[str, str]:
    """Fingerprint -> name, for the peers this player knows (trust on first use)."""
    try:
        return {fingerprint(key): name for name, key in Peers().all().items()}
    except StoreError:
        return {}


def ad_json(ad: TableAd, known: dict[str, str]) -> dict[str, Any]:
    return {
        "name": ad.name, "game": ad.game, "options": dict(ad.options), "seats": ad.seats, "free": ad.free,
        "fingerprint": ad.fingerprint, "host": known.get(ad.fingerprint), "private": ad.private,
        "addresses": list(ad.addresses), "port": ad.port, "version": ad.version,
    }


def ad_line(ad: TableAd, known: dict[str, str], mark: str = "") -> Text:
    line = Text(mark)
    line.append(f"{ad.name}", style="bold")
    line.append(f"  {ad.game.capitalize()}")
    options = ", ".join(f"{k}={v}" for k, v in ad.options if k != "players")
    if options:
        line.append(f" ({options})", style="dim")
    free_style = "green" if ad.free else "dim"
    line.append(f"  {ad.free} of {ad.seats} seats free", style=free_style)
    line.append("  host ")
    host = known.get(ad.fingerprint)
    if host is not None:
        line.append(f"{host} (known) ", style="bold")
    line.append(ad.fingerprint, style="cyan")
    if ad.addresses:
        line.append(f"  {ad.addresses[0]}:{ad.port}")
    if ad.private:
        line.append("  join code needed", style="yellow")
    if ad.version != HANDSHAKE_VERSION:
        line.append(f"  (protocol {ad.version}: another version of p2pcards)", style="red")
    return line


def _exact(ad: TableAd, wanted: str) -> bool:
    return ad.name.casefold() == wanted.casefold() or ad.fingerprint.casefold() == wanted.casefold()


def _close(ad: TableAd, wanted: str) -> bool:
    return wanted.casefold() in ad.name.casefold()


def describe_seen(seen: Sequence[TableAd]) -> str:
    return "; ".join(f"{ad.name!r} ({ad.game}, {ad.free} free)" for ad in seen) or "none"


async def find_table(
    wanted: str | None,
    interfaces: Sequence[str] | None,
    timeout: float,
    out: Out,
    lines: Lines | None,
) -> TableAd:
    """The table named ``wanted`` (its name, a unique part of it, or its host's fingerprint); with no
    name, the only table around, or the one the player picks."""
    known = known_hosts()
    seen: dict[str, TableAd] = {}
    pick = wanted is None and lines is not None and out.interactive
    shown: list[TableAd] = []
    out.status("Looking for tables on the local network…")
    chosen: list[TableAd] = []
    async with browsing(interfaces) as sightings, trio.open_nursery() as nursery:

        async def choose() -> None:
            assert lines is not None
            while True:
                try:
                    raw = (await lines.get()).strip()
                except EndOfInput:
                    raise LanError("no table chosen") from None
                if raw.isdigit() and 1 <= int(raw) <= len(shown):
                    chosen.append(shown[int(raw) - 1])
                    nursery.cancel_scope.cancel()
                    return
                out.say(Text(f"Type a number from 1 to {len(shown)} (Ctrl-C to stop).", style="yellow"))

        async def watch() -> None:
            settle: trio.CancelScope | None = None
            async for sighting in sightings:
                if isinstance(sighting, Vanished):
                    seen.pop(sighting.name, None)
                    continue
                assert isinstance(sighting, Appeared | Changed)
                ad = sighting.ad
                seen[ad.name] = ad
                if wanted is not None and _exact(ad, wanted):
                    chosen.append(ad)
                    nursery.cancel_scope.cancel()
                    return
                if pick and isinstance(sighting, Appeared):
                    shown.append(ad)
                    out.hide_status()
                    out.say(ad_line(ad, known, f"{len(shown):>2}  "))
                    out.prompt("Type a table's number to join it: ")
                if wanted is None and not pick and settle is None:
                    settle = trio.CancelScope(deadline=trio.current_time() + SETTLE)
                    nursery.start_soon(_end_at, settle, nursery)

        if pick:
            nursery.start_soon(choose)
        nursery.start_soon(watch)
        nursery.start_soon(_end_at, trio.CancelScope(deadline=trio.current_time() + timeout), nursery)
    out.hide_status()
    if chosen:
        return chosen[0]
    return _decide(wanted, list(seen.values()), timeout)


async def _end_at(scope: trio.CancelScope, nursery: trio.Nursery) -> None:
    with scope:
        await trio.sleep_forever()
    nursery.cancel_scope.cancel()


def _decide(wanted: str | None, seen: list[TableAd], timeout: float) -> TableAd:
    hint = "If discovery does not work on this network, join by address: p2pcards join HOST:PORT."
    if wanted is None:
        if len(seen) == 1:
            return seen[0]
        if not seen:
            raise LanError(f"no table found on the local network in {timeout:g} s. {hint}")
        raise LanError(f"{len(seen)} tables are open: {describe_seen(seen)}. Name the one to join.")
    close = [ad for ad in seen if _close(ad, wanted)]
    if len(close) == 1:
        return close[0]
    if close:
        raise LanError(f"{wanted!r} fits {len(close)} tables: {describe_seen(close)}. Give the whole name.")
    raise LanError(
        f"no table named {wanted!r} found in {timeout:g} s (tables seen: {describe_seen(seen)}). {hint}"
    )


async def watch_tables(interfaces: Sequence[str] | None, timeout: float | None, out: Out) -> int:
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
                    gone = current.pop(sighting.name, None)
                    out.emit({"event": "vanished", "name": sighting.name})
                    if gone is not None:
                        out.say(Text(f"- {sighting.name}  closed or started", style="dim"))
                    continue
                assert isinstance(sighting, Appeared | Changed)
                ad = sighting.ad
                kind = "appeared" if isinstance(sighting, Appeared) else "changed"
                seen += kind == "appeared"
                current[ad.name] = ad
                out.emit({"event": kind, **ad_json(ad, known)})
                out.say(ad_line(ad, known, "+ " if kind == "appeared" else "~ "))
    out.hide_status()
    return seen
