"""Real games journalled through ``GameStore`` + ``carry_out``: every journal holds the whole log,
and a seat restored from its store reaches the state it had.  (That every seat's journal verifies to
the same verdicts is tested through the command, in ``tests/cli/test_verify.py``.)"""

from __future__ import annotations

import pytest

from p2pcards.store import GameStore
from p2pcards.store import journal as jf
from p2pcards.table.replica import Table
from p2pcards.wire import SignedMessage

from .games import SETUPS, played, seat_key


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_each_journal_holds_the_seats_own_messages_first_its_genesis(game: str) -> None:
    p = played(game)
    for seat in range(len(p.tables)):
        messages = [SignedMessage.from_bytes(x) for x in jf.read(p.journal(seat)).payloads]
        assert (messages[0].kind, messages[0].seat) == ("genesis", seat)
        # Every step message of the log is in every journal: nothing accepted was left out.
        assert {m.data for m in messages} >= {m.data for s in p.tables[seat].chain.steps for m in s.messages}


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_a_seat_restored_from_its_store_is_where_it_was(game: str) -> None:
    p = played(game)
    seat = len(p.tables) - 1  # one seat is enough (and restoring replays the whole game)
    with GameStore.open(p.genesis.game_id, p.homes[seat]) as store:
        secrets = store.secrets()
        assert set(secrets) == {"master"}, "every secret of the seat is derived from one it keeps"

        again = Table(p.genesis, seat, seat_key(seat), secrets=secrets)
        again.restore(store.payloads())
    assert again.digest() == p.tables[seat].digest() and again.over
