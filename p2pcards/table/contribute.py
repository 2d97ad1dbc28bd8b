"""What this seat contributes and where its secrets come from (SPEC §5, §12): values, never sent here.

The replica asks these functions what it owes — the setup's coin, the dealer that makes its shares,
the seats its seal admits back — and signs what they return through its ``Signer``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from p2pcards.games import Rules
from p2pcards.table.attempt import Attempt
from p2pcards.table.dealers import DealerFactory, mental_factory, seeded_factory
from p2pcards.table.genesis import Genesis
from p2pcards.table.held import Held
from p2pcards.table.seating import GONE
from p2pcards.table.secrets import SeatSecrets
from p2pcards.table.setup import Setup


def dealer_factory(
    genesis: Genesis, rules: Rules, seat: int | None, secrets: SeatSecrets | None
) -> DealerFactory:
    """The dealer of every attempt: the seeded dealer, or the mental-poker dealer with this seat's keys."""
    if genesis.dealer == "seeded":
        return seeded_factory(rules.deck, genesis.seed)
    return mental_factory(
        genesis.game_id,
        rules.deck,
        seat,
        key_for=None if secrets is None else secrets.hand_key,
        source_for=None if secrets is None else secrets.source,
    )


def coin_secret(genesis: Genesis, seat: int, secrets: SeatSecrets | None) -> bytes:
    if genesis.dealer == "seeded":
        return hashlib.sha256(f"p2pcards/seeded-coin/{genesis.seed}/{seat}".encode()).digest()
    assert secrets is not None
    return secrets.coin()


def setup_due(
    setup: Setup, genesis: Genesis, seat: int, secrets: SeatSecrets | None
) -> tuple[str, Any, int, bytes] | None:
    """This seat's message for the open setup step (kind, body, step, head), if it still owes one."""
    chain = setup.chain
    if setup.done or chain.lookup(chain.step, seat) is not None:
        return None
    setup.open()
    kind, body = setup.body(seat, coin_secret(genesis, seat, secrets))
    return kind, body, chain.step, chain.head


def admitted(held: Held, out_seats: Mapping[int, str], att: Attempt) -> list[int]:
    """The seats this seat's seal of ``att`` admits back: those whose return its person (or program)
    agreed to, that are still out and asked."""
    return [
        s
        for s in sorted(held.admit)
        if held.admit[s]
        and s in held.returns
        and s not in held.cheaters
        and out_seats.get(s) in GONE
        and s not in att.holders
    ]
