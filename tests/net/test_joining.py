"""The joiner's side: the table is described before a seat is asked for, and nothing is signed that
differs from it (no downgrade of the dealer, no other options, no other host)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
import trio

from p2pcards.net.discovery import TableAd, option_text
from p2pcards.net.joining import TableOffer, connect, start_problem
from p2pcards.net.lobby import HostedGame, Lobby, LobbyError
from p2pcards.net.node import open_listener
from p2pcards.table.genesis import Genesis, GenesisError, make_genesis
from p2pcards.wire import fingerprint, public_bytes

from .helpers import LOOPBACK, identities

HOST, ANN, BOB = identities(3, tag=50)
LOBBY_ID = b"L" * 32


def offer(**changes: Any) -> TableOffer:
    base = TableOffer(
        table="Hana's table", host="Hana", game="durak", options=genesis().options, dealer="mental", seed=0,
        players=3, free=2, timeout_ms=60_000, private=False, host_key=public_bytes(HOST), lobby_id=LOBBY_ID,
    )  # fmt: skip
    return dataclasses.replace(base, **changes)


def genesis(**changes: Any) -> Genesis:
    seats = [("Hana", public_bytes(HOST)), ("Ann", public_bytes(ANN)), ("Anna", public_bytes(BOB))]
    seats = changes.pop("seats", seats)
    kwargs: dict[str, Any] = {"nonce": LOBBY_ID, "computers": ((2, 0),), **changes}
    options = kwargs.pop("options", {})
    return make_genesis("durak", seats, options=options, **kwargs)


def tampered(g: Genesis, **fields: Any) -> Genesis:
    """``g`` with fields a lying host would change, past any check the genesis makes of itself."""
    copy = dataclasses.replace(g)
    for name, value in fields.items():
        object.__setattr__(copy, name, value)
    return copy


def problem(g: Genesis, o: TableOffer | None = None, **kw: Any) -> str:
    return start_problem(g, 1, o or offer(), me=public_bytes(ANN), name="Ann", **kw)


def test_the_table_that_was_shown_is_signed():
    assert problem(genesis()) == ""


@pytest.mark.parametrize(
    ("changed", "why"),
    [
        ({"dealer": "seeded"}, "the dealer is seeded, not mental as shown"),
        ({"options": {"series_hands": 3}}, "options differ"),
        ({"timeout_ms": 5_000}, "timeout differ"),
        ({"nonce": b"M" * 32}, "not bound to this lobby"),
        ({"computers": ((2, 1),)}, "run by someone other than the host"),
        ({"seats": [("Hana", public_bytes(BOB)), ("Ann", public_bytes(ANN)), ("X", public_bytes(HOST))]},
         "the host's seat does not hold the key"),
        ({"seats": [("Kai", public_bytes(HOST)), ("Ann", public_bytes(ANN)), ("X", public_bytes(BOB))]},
         "named differently"),
        ({"seats": [("Hana", public_bytes(HOST)), ("Anne", public_bytes(ANN)), ("X", public_bytes(BOB))]},
         "not the one it asked with"),
    ],
)
def test_a_start_that_differs_from_what_was_shown_is_refused(changed: dict[str, Any], why: str):
    assert why in problem(genesis(**changed))


def test_a_seed_with_the_mental_dealer_is_refused():
    assert "a seed comes with the mental dealer" in problem(tampered(genesis(), seed=7))


def test_the_seeded_dealer_is_refused_unless_asked_for_by_name():
    seeded = genesis(dealer="seeded", seed=5)
    shown = offer(dealer="seeded", seed=5)
    assert "deals a deck anyone can predict" in problem(seeded, shown)
    assert problem(seeded, shown, allow_seeded=True) == ""
    assert "seed is not the one shown" in problem(genesis(dealer="seeded", seed=6), shown, allow_seeded=True)


def test_a_small_order_key_at_any_seat_is_refused():
    weak = bytes([1]) + bytes(31)
    with pytest.raises(GenesisError, match="small order"):
        genesis(seats=[("Hana", public_bytes(HOST)), ("Ann", public_bytes(ANN)), ("Anna", weak)])
    # And should a genesis get past its own checks, the joiner looks again before signing it.
    g = genesis()
    seats = (*g.seats[:2], dataclasses.replace(g.seats[2], key=weak))
    assert "seat 2 has an unusable key" in problem(tampered(g, seats=seats))


def test_the_announced_table_must_be_the_one_started():
    g = genesis()
    options = (("first_bout_limit_5", "false"),)
    ad = TableAd("Hana's table", "durak", options, 3, 2, fingerprint(HOST), LOBBY_ID, port=1, dealer="mental")
    good = dataclasses.replace(ad, options=option_text(g.options))
    assert problem(g, ad=good) == ""
    assert "differs from the table announced" in problem(g, ad=ad)
    assert "differs from the table announced" in problem(g, ad=dataclasses.replace(good, dealer="seeded"))
    assert "not the one announced" in problem(g, ad=dataclasses.replace(good, fingerprint=fingerprint(BOB)))


class LyingLobby(Lobby):
    """Says it deals with mental poker, then starts a seeded game."""

    async def start(self, **kwargs: Any) -> HostedGame:
        self.dealer = "seeded"
        return await super().start(**kwargs)


async def test_a_host_that_shows_one_dealer_and_starts_another_is_not_signed():
    lobby = LyingLobby(HOST, "Hana", "durak", players=2, listener=await open_listener(LOOPBACK))
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await nursery.start(lobby.run)
            joining = await connect((LOOPBACK, lobby.port), ANN)
            # Before asking for anything, the joiner knows the table and the host's proven key.
            shown = (joining.offer.table, joining.offer.host, joining.offer.dealer)
            assert shown == ("Hana's table", "Hana", "mental")
            assert joining.offer.host_key == public_bytes(HOST) and joining.offer.lobby_id == lobby.lobby_id

            async def host_side() -> None:
                lobby.admit(await lobby.requests.receive())
                await lobby.start()

            nursery.start_soon(host_side)
            async with joining:
                with pytest.raises(LobbyError, match=r"not signing .* dealer is seeded, not mental as shown"):
                    await joining.ask(ANN, "Ann", port=1000, allow_seeded=True)
            nursery.cancel_scope.cancel()


class NewerLobby(Lobby):
    """A host of a later version: its table has an option value this version does not play."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rules_options = (*self.rules_options, ("variant_of_tomorrow", True))


async def test_a_table_with_options_this_version_cannot_play_is_refused_before_asking_for_a_seat():
    lobby = NewerLobby(HOST, "Hana", "durak", players=2, listener=await open_listener(LOOPBACK))
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await nursery.start(lobby.run)
            joining = await connect((LOOPBACK, lobby.port), ANN)
            async with joining:
                cannot = r"^this version of p2pcards cannot play that table \(durak\): unknown durak option"
                with pytest.raises(LobbyError, match=cannot + r" 'variant_of_tomorrow'"):
                    await joining.ask(ANN, "Ann", port=1000)
            # it never asked: the host has no request waiting
            assert lobby.requests.statistics().current_buffer_used == 0
            nursery.cancel_scope.cancel()
