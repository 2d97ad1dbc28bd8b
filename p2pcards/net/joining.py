"""The joiner's side of the lobby (see ``lobby`` for the messages): connect, see the table, ask for
a seat, and check the game the host starts against what was shown before signing anything.

``connect`` runs the handshake and reads the host's description of its table (``TableOffer``), so
that the player sees the table, its dealer and the host's *proven* fingerprint before asking for a
seat, whether the table was found by discovery or by address.  ``Joining.ask`` then asks, waits to be
admitted and for the start, and refuses a genesis that differs from what was shown
(``start_problem``): no downgrade of the dealer, no other options, no other host.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import trio
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pcards import games
from p2pcards.net.discovery import TableAd, option_text
from p2pcards.net.handshake import ANY_BIND, Handshake, HandshakeError, Why
from p2pcards.net.link import Address, Link, LinkError, dial
from p2pcards.net.lobby_protocol import (
    MAX_LOBBY_MESSAGE,
    MAX_REASON,
    GameStarted,
    LobbyError,
    clean_name,
    is_int,
    lobby_message,
)
from p2pcards.table.genesis import Genesis, GenesisError
from p2pcards.text import name_problem, shown
from p2pcards.wire import EncodeError, encode, fingerprint, public_bytes
from p2pcards.wire.keys import weak_key_problem

FIRST_MESSAGE_TIMEOUT: Final = 10.0
"""Seconds a joiner waits for the host to describe its table after the handshake."""


@dataclass(frozen=True)
class TableOffer:
    """What the host says it plays, as it said it (``shown`` before printing the texts); its key
    and the lobby id are proven by the handshake."""

    table: str
    host: str
    game: str
    options: tuple[tuple[str, Any], ...]
    dealer: str
    seed: int
    players: int
    free: int
    timeout_ms: int
    private: bool
    host_key: bytes
    lobby_id: bytes

    @classmethod
    def parse(cls, message: dict[str, Any], host_key: bytes, lobby_id: bytes) -> TableOffer | None:
        v = message
        texts = [v.get(k) for k in ("table", "host", "game", "dealer")]
        numbers = [v.get(k) for k in ("seed", "players", "free", "timeout_ms")]
        options = v.get("options")
        if not all(isinstance(t, str) for t in texts) or not all(is_int(n) for n in numbers):
            return None
        numbers_ = [n for n in numbers if isinstance(n, int)]
        if not isinstance(v.get("private"), bool) or not isinstance(options, tuple):
            return None
        pairs: list[tuple[str, Any]] = []
        for entry in options:
            if not (isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[0], str)):
                return None
            if not isinstance(entry[1], bool | int | str):
                return None
            pairs.append((entry[0], entry[1]))
        table, host, game, dealer = (str(t) for t in texts)
        seed, players, free, timeout_ms = numbers_
        return cls(table, host, game, tuple(pairs), dealer, seed, players, free, timeout_ms,
                   v["private"], host_key, lobby_id)  # fmt: skip


@dataclass
class Invitation:
    """What the host sent when it started: where this player sits and whom it dials."""

    genesis: Genesis
    seat: int
    dial: dict[int, Address]
    host_key: bytes


def start_problem(
    genesis: Genesis,
    seat: int,
    offer: TableOffer,
    *,
    me: bytes,
    name: str,
    allow_seeded: bool = False,
    ad: TableAd | None = None,
) -> str:
    """Why this player must not sign ``genesis`` ("" if it may): it differs from the table it was
    shown (the host's ``offer``, and the advertisement ``ad`` it was found by), or it hands the deck
    to the host.  No downgrade: the dealer, the seed and every option are the ones shown."""
    keys = [s.key for s in genesis.seats]
    if not 0 < seat < len(keys) or keys[seat] != me:
        return "this player's key is not at the seat the host gave"
    if keys[0] != offer.host_key:
        return "the host's seat does not hold the key of the host who answered"
    for i, key in enumerate(keys):
        problem = weak_key_problem(key)
        if problem:
            return f"seat {i} has an unusable key ({problem})"
    if genesis.nonce != offer.lobby_id:
        return "the game is not bound to this lobby"
    if genesis.seats[seat].name != name:
        return "this player's name is not the one it asked with"
    if genesis.seats[0].name != offer.host:
        return "the host's seat is named differently from the host who answered"
    if genesis.dealer != offer.dealer:
        return f"the dealer is {genesis.dealer}, not {offer.dealer} as shown"
    if genesis.dealer == "mental" and genesis.seed != 0:
        return "a seed comes with the mental dealer (the seed would mean nothing, or something else)"
    if genesis.dealer == "seeded" and not allow_seeded:
        return "the seeded dealer deals a deck anyone can predict (tests only: join --allow-seeded-dealer)"
    if genesis.seed != offer.seed:
        return "the seed is not the one shown"
    if genesis.game != offer.game or genesis.options != offer.options:
        return "the game or its options differ from those shown"
    if len(keys) != offer.players or genesis.timeout_ms != offer.timeout_ms:
        return "the number of seats or the timeout differ from those shown"
    if any(runner != 0 for _, runner in genesis.computers) or genesis.runner_of(seat) is not None:
        return "computer players are run by someone other than the host"
    if ad is not None:
        if (ad.game, ad.dealer, ad.options) != (genesis.game, genesis.dealer, option_text(genesis.options)):
            return "the game differs from the table announced on the network"
        if ad.fingerprint != fingerprint(offer.host_key) or ad.lobby != offer.lobby_id:
            return "the host is not the one announced on the network"
    return ""


def offer_problem(offer: TableOffer) -> str:
    """Why this version cannot play the table ``offer`` describes ("" if it can): a game or an option
    value it does not know (a host of a later version), in the game's own words."""
    try:
        games.load(offer.game, **dict(offer.options))
    except (games.GameError, TypeError, ValueError) as exc:  # (a value an engine let through but cannot read)
        return f"this version of p2pcards cannot play that table ({shown(offer.game, 16)}): {exc}"
    return ""


class Joining:
    """A joiner's conversation with a lobby: ``offer`` is what the host said it plays (read right
    after the handshake); ``ask`` asks for a seat.  Use ``async with`` (or ``aclose``)."""

    def __init__(self, link: Link, offer: TableOffer, address: Address) -> None:
        self.link = link
        self.offer = offer
        self.address = address

    async def __aenter__(self) -> Joining:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.link.aclose()

    async def ask(
        self,
        identity: Ed25519PrivateKey,
        name: str,
        *,
        port: int,
        on_admitted: Callable[[], None] | None = None,
        allow_seeded: bool = False,
        ad: TableAd | None = None,
    ) -> Invitation:
        """Ask for a seat as ``name``, wait to be admitted and for the game to start; the game must
        be the one shown (``start_problem``).  ``LobbyError`` if refused or cut off."""
        clean = clean_name(name)
        if clean is None:
            raise LobbyError(f"a player's name: {name_problem(name) or 'not usable'}")
        problem = offer_problem(self.offer)
        if problem:  # before asking: never sit down at a table whose start could not be signed
            raise LobbyError(problem)
        try:
            await self.link.send_now(encode({"t": "join", "name": clean, "port": port}))
            while True:
                payload = await self.link.receive()
                if payload is None:
                    raise LobbyError("the host went away")
                message = lobby_message(payload)
                if message is None:
                    raise LobbyError("the host sent something that is not a lobby message")
                if message["t"] == "admitted":
                    if on_admitted is not None:
                        on_admitted()
                elif message["t"] == "refused":
                    raise LobbyError(f"not admitted: {_reason(message)}")
                elif message["t"] == "start":
                    invitation = _invitation(message, self.link.peer_key)
                    if invitation is None:
                        raise LobbyError("the host sent a start this player cannot read")
                    problem = start_problem(
                        invitation.genesis, invitation.seat, self.offer, me=public_bytes(identity),
                        name=clean, allow_seeded=allow_seeded, ad=ad,
                    )  # fmt: skip
                    if problem:
                        raise LobbyError(f"not signing the table the host sent: {problem}")
                    return invitation
        except (LinkError, EncodeError) as exc:
            raise LobbyError(f"the host went away: {exc}") from exc


async def connect(
    address: Address,
    identity: Ed25519PrivateKey,
    *,
    lobby_id: bytes = ANY_BIND,
    code: str | None = None,
    expect_key: bytes | None = None,
    source: str | None = None,
) -> Joining:
    """Open a conversation with the lobby at ``address``: the handshake, then the host's description
    of its table.  ``lobby_id`` and ``expect_key`` come from discovery (a manual join knows neither:
    the handshake then binds whatever lobby is there, and the host's fingerprint is for the player to
    compare).  ``source`` is the local address to connect from (the network chosen).  ``GameStarted``
    if its game has started; ``LobbyError`` if refused or unreachable."""
    handshake = Handshake("dialer", identity, bind=lobby_id, code=code, expect_key=expect_key)
    try:
        link = await dial(address[0], address[1], handshake, max_frame=MAX_LOBBY_MESSAGE, source=source)
    except HandshakeError as exc:
        # The host's refusal arrives as its reason; a failure of ours (its key, say) as our own.
        reason = exc.detail if exc.why is Why.REFUSED else exc.why.value
        raise LobbyError(f"the host refused the connection: {exc.detail or exc.why.value}",
                         refusal=reason) from exc  # fmt: skip
    except LinkError as exc:
        raise LobbyError(str(exc)) from exc
    try:
        with trio.fail_after(FIRST_MESSAGE_TIMEOUT):
            payload = await link.receive()
        message = lobby_message(payload) if payload is not None else None
        if message is None:
            raise LobbyError("the host closed the connection without describing its table")
        if message["t"] == "started":
            raise GameStarted(link.bind, link.peer_key)
        if message["t"] == "refused":
            raise LobbyError(f"not admitted: {_reason(message)}")
        offer = TableOffer.parse(message, link.peer_key, link.bind) if message["t"] == "table" else None
        if offer is None:
            raise LobbyError("the host did not describe its table")
    except BaseException as exc:
        await link.aclose()
        if isinstance(exc, trio.TooSlowError):
            raise LobbyError(f"the host said nothing within {FIRST_MESSAGE_TIMEOUT:g} s") from None
        if isinstance(exc, LinkError):
            raise LobbyError(f"the host went away: {exc}") from None
        raise
    return Joining(link, offer, address)


async def join(
    address: Address,
    identity: Ed25519PrivateKey,
    name: str,
    *,
    port: int,
    lobby_id: bytes = ANY_BIND,
    code: str | None = None,
    expect_key: bytes | None = None,
    on_admitted: Callable[[], None] | None = None,
    allow_seeded: bool = False,
    ad: TableAd | None = None,
    source: str | None = None,
) -> Invitation:
    """``connect`` then ``ask``, for a joiner that takes any table it is shown (scripts, tests)."""
    joining = await connect(address, identity, lobby_id=lobby_id, code=code, expect_key=expect_key,
                            source=source)
    async with joining:
        return await joining.ask(
            identity, name, port=port, on_admitted=on_admitted, allow_seeded=allow_seeded, ad=ad
        )


def _reason(message: dict[str, Any]) -> str:
    why = message.get("why")
    return shown(why if isinstance(why, str) else "refused", MAX_REASON)


def _invitation(message: dict[str, Any], host_key: bytes) -> Invitation | None:
    raw, seat, dial_list = message.get("genesis"), message.get("seat"), message.get("dial")
    if not isinstance(raw, bytes) or not isinstance(seat, int) or isinstance(seat, bool):
        return None
    if not isinstance(dial_list, tuple):
        return None
    try:
        genesis = Genesis.decode(raw)
    except GenesisError:
        return None
    if not 0 < seat < len(genesis.seats):
        return None
    dials: dict[int, Address] = {}
    for entry in dial_list:
        if not (isinstance(entry, tuple) and len(entry) == 3):
            return None
        s, host, port = entry
        if not (is_int(s) and isinstance(host, str) and is_int(port)):
            return None
        assert isinstance(s, int) and isinstance(port, int)
        if not (seat < s < len(genesis.seats) and 0 < port < 65536) or len(host) > 255:
            return None
        dials[s] = (host, port)
    return Invitation(genesis, seat, dials, host_key)


__all__ = [
    "FIRST_MESSAGE_TIMEOUT",
    "Invitation",
    "Joining",
    "TableOffer",
    "connect",
    "join",
    "start_problem",
]
