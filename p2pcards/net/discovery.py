"""Finding tables on the LAN: mDNS / DNS-SD through ``zeroconf``, bridged into trio.

A host advertises ``<table name>._p2pcards._tcp.local.`` with a TXT record saying what is played
there and how to join; ``browse`` watches the same service type with QM (multicast) questions and
reports tables as they appear, change and vanish.

zeroconf runs its own asyncio loop in a thread and offers blocking calls; every blocking call goes
through ``trio.to_thread``, and its callbacks (from zeroconf's threads) come back through the trio
token's ``run_sync_soon``, which never blocks zeroconf's thread.  Both functions take the
interfaces to use (IPv4 addresses): tests bind to the interfaces of the namespaces they create,
and a user with several networks can choose one.

Discovery is a convenience: everything on the TXT record is a hint that the handshake then proves
or refuses (the fingerprint is the host's key only once the connection has proved it), and a
malformed advertisement is ignored.  The table's name and every value shown from the record come
from the network, so they are cut and cleaned (``text.shown``) when parsed.  Manual ``host:port``
works without any of this.

The table's name is in the TXT record; the DNS-SD instance name adds the host's fingerprint and
port to it (``Kai's table [BDVF:47474]``), so that two tables of one name on one machine are two
services, not one that flips between them.
"""

from __future__ import annotations

import contextlib
import functools
import re
import socket
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

import trio

from p2pcards.net.handshake import HANDSHAKE_VERSION
from p2pcards.text import option_value, shown

SERVICE_TYPE: Final = "_p2pcards._tcp.local."
RESOLVE_TIMEOUT_MS: Final = 3000
MAX_TABLE_NAME: Final = 40
MAX_INSTANCE_BYTES: Final = 63
"""A DNS label's limit, which the instance name must fit in UTF-8."""
DEALERS: Final = ("mental", "seeded")
STATES: Final = ("open", "playing")
_FINGERPRINT = re.compile(r"^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$")
_OPTION = re.compile(r"^[a-z_][a-z0-9_]*=[A-Za-z0-9_.+-]*$")


@dataclass(frozen=True)
class TableAd:
    """What a host says about its table (and what a browser learns of it)."""

    name: str
    """The table's name, as people see it (the mDNS instance name)."""
    game: str
    options: tuple[tuple[str, str], ...]
    """The game's options as text (``players=4``...): for display; the genesis is what binds."""
    seats: int
    free: int
    fingerprint: str
    """The host's key fingerprint, for people to compare with what the host's screen shows."""
    lobby: bytes
    """The 32-byte id a joiner's handshake binds to."""
    private: bool = False
    """A join code is needed."""
    port: int = 0
    addresses: tuple[str, ...] = ()
    version: int = HANDSHAKE_VERSION
    dealer: str = "mental"
    """``mental`` (mental poker) or ``seeded`` (a deck anyone can predict: tests only)."""
    playing: bool = False
    """The game has started: no seat can be taken (a player seated at it can resume it)."""
    instance: str = ""
    """The mDNS instance name (unique per host and port); empty for an ad not from the network."""

    def txt(self) -> dict[str, str]:
        """The TXT record: short keys, each value well under the 255-byte limit of one string."""
        return {
            "v": str(self.version),
            "name": self.name,
            "dealer": self.dealer,
            "state": "playing" if self.playing else "open",
            "game": self.game,
            "opts": ",".join(f"{k}={v}" for k, v in self.options),
            "seats": str(self.seats),
            "free": str(self.free),
            "fp": self.fingerprint,
            "lobby": self.lobby.hex(),
            "code": "1" if self.private else "0",
        }

    @classmethod
    def from_txt(
        cls, name: str, txt: dict[str, str | None], port: int, addresses: Sequence[str]
    ) -> TableAd | None:
        """Parse an advertisement from the network; None if anything is off (it is ignored)."""
        try:
            get = {k: v for k, v in txt.items() if v is not None}
            version = int(get["v"])
            seats, free = int(get["seats"]), int(get["free"])
            lobby = bytes.fromhex(get["lobby"])
            opts = get.get("opts", "")
            options = tuple(tuple(o.split("=", 1)) for o in opts.split(",") if o)
        except (KeyError, ValueError):
            return None
        game, fp = get.get("game", ""), get.get("fp", "")
        if not (re.fullmatch(r"[a-z]{1,16}", game) and _FINGERPRINT.match(fp) and len(lobby) == 32):
            return None
        dealer, state = get.get("dealer", ""), get.get("state", "")
        if dealer not in DEALERS or state not in STATES:
            return None
        if not (0 <= free <= seats <= 6) or not all(_OPTION.match(o) for o in opts.split(",") if o):
            return None
        if not 0 < port < 65536:
            return None
        pairs = tuple((k, v) for k, v in options)
        shown_name = shown(get.get("name") or name, MAX_TABLE_NAME).strip() or "(no name)"
        return cls(
            shown_name,
            game,
            pairs,
            seats,
            free,
            fp,
            lobby,
            get.get("code") == "1",
            port,
            tuple(addresses),
            version,
            dealer,
            state == "playing",
            shown(name, 2 * MAX_INSTANCE_BYTES),
        )


def option_text(options: Sequence[tuple[str, Any]]) -> tuple[tuple[str, str], ...]:
    """A game's options as an advertisement carries them (``text.option_value``: booleans as
    ``true`` / ``false``)."""
    return tuple((k, option_value(v)) for k, v in options)


def instance_name(name: str, fingerprint: str, port: int) -> str:
    """The DNS-SD instance label of a table: its name (cleaned: dots would split the label) with the
    host's fingerprint and port, so that it is unique per host and port, within 63 bytes of UTF-8."""
    suffix = f" [{fingerprint[:4]}:{port}]"
    clean = "".join(ch for ch in shown(name, MAX_TABLE_NAME) if ch != ".").strip() or "p2pcards table"
    while len((clean + suffix).encode("utf-8")) > MAX_INSTANCE_BYTES:
        clean = clean[:-1]
    return clean.rstrip() + suffix


def _zeroconf(interfaces: Sequence[str] | None) -> Any:
    from zeroconf import InterfaceChoice, IPVersion, Zeroconf

    chosen: Any = list(interfaces) if interfaces is not None else InterfaceChoice.All
    return Zeroconf(interfaces=chosen, ip_version=IPVersion.V4Only)


class Advertisement:
    """A table being advertised; ``update`` it as seats fill (zeroconf re-announces)."""

    def __init__(self, zc: Any, info: Any, ad: TableAd) -> None:
        self._zc = zc
        self._info = info
        self.ad = ad

    @property
    def name(self) -> str:
        """The table's name, as browsers show it."""
        return self.ad.name

    @property
    def instance(self) -> str:
        """The instance name finally registered (zeroconf renames on a clash: ``name (2)``)."""
        full: str = self._info.name
        return full[: -len("." + SERVICE_TYPE)]

    async def update(self, *, free: int, playing: bool | None = None) -> None:
        """Announce a new number of free seats (and that the game started); nothing is sent when
        nothing changed."""
        from zeroconf import ServiceInfo

        now = self.ad.playing if playing is None else playing
        if (free, now) == (self.ad.free, self.ad.playing):
            return
        ad = TableAd(**{**self.ad.__dict__, "free": free, "playing": now})
        info = ServiceInfo(
            SERVICE_TYPE,
            self._info.name,
            port=self._info.port,
            properties=ad.txt(),
            server=self._info.server,
            addresses=self._info.addresses,
        )
        await trio.to_thread.run_sync(self._zc.update_service, info)
        self._info, self.ad = info, ad


@contextlib.asynccontextmanager
async def advertise(ad: TableAd, interfaces: Sequence[str]) -> AsyncIterator[Advertisement]:
    """Advertise ``ad`` on ``interfaces`` (IPv4 addresses; also the addresses put in the record)
    for the duration of the ``async with``; withdrawn (goodbye packets) on exit."""
    from zeroconf import ServiceInfo

    zc = await trio.to_thread.run_sync(_zeroconf, interfaces)
    try:
        # One host name per table too: two tables on one machine must not answer for each other.
        host = f"p2pcards-{ad.fingerprint.replace('-', '').lower()[:8]}-{ad.port}.local."
        info = ServiceInfo(
            SERVICE_TYPE,
            f"{instance_name(ad.name, ad.fingerprint, ad.port)}.{SERVICE_TYPE}",
            port=ad.port,
            properties=ad.txt(),
            server=host,
            addresses=[socket.inet_aton(a) for a in interfaces],
        )
        # Probing for a name clash takes a few hundred milliseconds of zeroconf's time.
        await trio.to_thread.run_sync(lambda: zc.register_service(info, allow_name_change=True))
        advertisement = Advertisement(zc, info, ad)
        try:
            yield advertisement
        finally:
            with trio.CancelScope(shield=True):
                await trio.to_thread.run_sync(zc.unregister_service, advertisement._info)
    finally:
        with trio.CancelScope(shield=True):
            await trio.to_thread.run_sync(zc.close)


@dataclass(frozen=True)
class Appeared:
    ad: TableAd


@dataclass(frozen=True)
class Changed:
    ad: TableAd


@dataclass(frozen=True)
class Vanished:
    name: str
    """The table's name, as shown when it appeared."""
    instance: str = ""
    """Its mDNS instance name (what tells two tables of one name apart)."""


Sighting = Appeared | Changed | Vanished


def _short(full: str) -> str:
    suffix = "." + SERVICE_TYPE
    return full[: -len(suffix)] if full.endswith(suffix) else full


@contextlib.asynccontextmanager
async def browse(interfaces: Sequence[str] | None) -> AsyncIterator[trio.MemoryReceiveChannel[Sighting]]:
    """Watch for tables on ``interfaces`` (None: every interface) while inside the ``async with``;
    the channel yields ``Appeared`` / ``Changed`` / ``Vanished`` as tables come and go."""
    from zeroconf import DNSQuestionType, ServiceBrowser, ServiceStateChange

    token = trio.lowlevel.current_trio_token()
    raw_send, raw_recv = trio.open_memory_channel[tuple[str, str]](1000)
    out_send, out_recv = trio.open_memory_channel[Sighting](1000)

    def on_change(zeroconf: Any, service_type: str, name: str, state_change: Any) -> None:
        # Called on a zeroconf thread: hand over without blocking it, and never raise into it.
        kind = "gone" if state_change is ServiceStateChange.Removed else "seen"
        with contextlib.suppress(trio.RunFinishedError, trio.WouldBlock, trio.ClosedResourceError):
            token.run_sync_soon(_offer, raw_send, (kind, name))

    zc = await trio.to_thread.run_sync(_zeroconf, interfaces)
    browser: Any = None
    try:
        browser = await trio.to_thread.run_sync(
            lambda: ServiceBrowser(zc, SERVICE_TYPE, handlers=[on_change], question_type=DNSQuestionType.QM)
        )
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_resolve_loop, zc, raw_recv, out_send)
            try:
                yield out_recv
            finally:
                nursery.cancel_scope.cancel()
    finally:
        with trio.CancelScope(shield=True):
            if browser is not None:
                await trio.to_thread.run_sync(browser.cancel)
            await trio.to_thread.run_sync(zc.close)
            raw_send.close()
            out_send.close()


def _offer(channel: trio.MemorySendChannel[tuple[str, str]], item: tuple[str, str]) -> None:
    with contextlib.suppress(trio.WouldBlock, trio.ClosedResourceError):
        channel.send_nowait(item)


async def _resolve_loop(
    zc: Any, raw: trio.MemoryReceiveChannel[tuple[str, str]], out: trio.MemorySendChannel[Sighting]
) -> None:
    from zeroconf import DNSQuestionType, IPVersion

    known: dict[str, TableAd] = {}
    async for kind, name in raw:
        short = _short(name)
        if kind == "gone":
            gone = known.pop(short, None)
            if gone is not None:
                await out.send(Vanished(gone.name, gone.instance))
            continue
        resolve = functools.partial(
            zc.get_service_info, SERVICE_TYPE, name, RESOLVE_TIMEOUT_MS, question_type=DNSQuestionType.QM
        )
        info = await trio.to_thread.run_sync(resolve)
        if info is None or info.port is None:
            continue
        ad = TableAd.from_txt(
            short, info.decoded_properties, info.port, info.parsed_addresses(IPVersion.V4Only)
        )
        if ad is None:
            continue  # not a table we understand: not shown
        before = known.get(short)
        known[short] = ad
        if before is None:
            await out.send(Appeared(ad))
        elif before != ad:
            await out.send(Changed(ad))


__all__ = [
    "SERVICE_TYPE",
    "Advertisement",
    "Appeared",
    "Changed",
    "Sighting",
    "TableAd",
    "Vanished",
    "advertise",
    "browse",
    "instance_name",
    "option_text",
]
