"""A seat's deal key is fresh for every hand, and a key revealed is the key committed: the two promises
of the key steps (SPEC §4, DEAL.md) that a replica must keep and check."""

from __future__ import annotations

import pytest

from p2pcards import deal, games
from p2pcards.deal.keys import hand_key_from_secret
from p2pcards.harness.run import run_game
from p2pcards.table.dealers import DealFault, MentalDealer
from p2pcards.table.secrets import SeatSecrets
from p2pcards.wire import SignedMessage


def _revealed_keys(journal: list[bytes], seat: int) -> list[bytes]:
    """The public hand keys ``seat`` revealed, hand after hand, as its journal holds them."""
    keys = []
    for payload in journal:
        m = SignedMessage.from_bytes(payload)
        if m.envelope.kind == "key_reveal" and m.envelope.seat == seat:
            keys.append(deal.KeyAnnouncement.from_wire(m.envelope.body).public.encode())
    return keys


def test_every_seat_reveals_a_new_hand_key_for_every_hand():
    report = run_game("durak", peers=2, seed=1, options={"series_hands": 3})
    assert report.passed and report.hands == 3, report.problems
    for seat in (0, 1):
        keys = _revealed_keys(report.journals[0], seat)
        assert len(keys) == 3
        assert len(set(keys)) == 3, f"seat {seat} dealt two hands with one key"


def test_a_hand_key_depends_on_the_hand_and_the_attempt():
    secrets = SeatSecrets(bytes(range(32)), b"g" * 32)
    head = b"h" * 32
    keys = {secrets.hand_key(hand, start) for hand in (0, 1, 2) for start in (head, b"i" * 32)}
    assert len(keys) == 6
    assert secrets.hand_key(1, head) == SeatSecrets(bytes(range(32)), b"g" * 32).hand_key(1, head)


def _dealer(seat: int) -> MentalDealer:
    return MentalDealer(b"g" * 32, games.load("durak").deck, 0, seat, (0, 1), key=seat + 7)


def test_a_revealed_key_that_is_not_the_committed_one_convicts_its_seat():
    honest, cheat = _dealer(0), _dealer(1)
    other = hand_key_from_secret(99)
    commit = cheat.contribute("key_commit", 1, b"p" * 32)
    # A valid proof of knowledge, for another key than the one committed to.
    reveal = deal.announce_key(deal.Context(game_id=b"g" * 32, hand=0, seat=1, step=2), other).to_wire()
    honest.accept("key_commit", 1, [(0, honest.contribute("key_commit", 1, b"p" * 32)), (1, commit)])
    with pytest.raises(DealFault, match="does not match its commitment") as caught:
        honest.accept("key_reveal", 2, [(0, honest.contribute("key_reveal", 2, b"q" * 32)), (1, reveal)])
    assert (caught.value.seat, caught.value.kind) == (1, "bad-proof")
    # The key it committed to is taken.
    honest2 = _dealer(0)
    honest2.accept("key_commit", 1, [(0, honest2.contribute("key_commit", 1, b"p" * 32)), (1, commit)])
    honest2.accept("key_reveal", 2, [(0, honest2.contribute("key_reveal", 2, b"q" * 32)),
                                     (1, cheat.contribute("key_reveal", 2, b"q" * 32))])
