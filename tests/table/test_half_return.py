"""Two voices, and the host goes on by its own word (issue 30, item 7; SPEC §6.5 "half and consent").

Spades, Hana (seat 0, running the computer players at seats 2 and 3) and Ann (seat 1): two voices.
Ann's laptop dies at her turn; Hana's program goes on without her by its own word — half the table,
which binds nobody named.  Ann comes back to find so: she is left behind (no turn at the step the
others went past, nothing of hers counts there), her `return` is her consent to that word (half and her
consent: more than half), she is dealt in again from the next hand, and both laptops end the match with
one result."""

from __future__ import annotations

from p2pcards.games import ActionError
from p2pcards.games.rng import Rng
from p2pcards.table import Table, make_genesis
from p2pcards.table import outputs as out
from p2pcards.table.seating import UNCONFIRMED
from p2pcards.wire import SignedMessage, public_bytes
from tests.table.helpers import GateRoom, Turns, identities, people_room, seeded_source

TIMEOUT_MS = 30_000
ANN = 1
ANNS_LAPTOP = (ANN,)
COMPUTERS = ((2, 0), (3, 0))


def _spades() -> tuple[GateRoom, Turns]:
    ids = identities(4)
    seats = [(f"p{i}", public_bytes(k)) for i, k in enumerate(ids)]
    # A match long enough for Ann to play again after she is back.
    genesis = make_genesis("spades", seats, dealer="seeded", seed=3, timeout_ms=TIMEOUT_MS,
                           computers=COMPUTERS, options={"target": 300, "floor": -1000})
    return people_room(genesis, ids, 3)


def _play(room: GateRoom, turns: Turns) -> int:
    seat, turn = turns.pop(0)
    t = room.tables[seat]
    try:
        done = t.local_action(t.rules.action_text(turn.view.legal_actions[0]))
    except ActionError:
        return seat  # a turn of an attempt the table has left since
    room.handle(seat, done)
    room.run()
    return seat


def _dead(to: int, frm: int, msg: SignedMessage) -> bool:
    return to in ANNS_LAPTOP or frm in ANNS_LAPTOP


def _hana_goes_on_without_ann() -> tuple[GateRoom, Turns, Table]:
    """Play into the first hand until it is Ann's turn to play a card; her laptop dies; Hana answers
    yes to "Go on without Ann?"; Ann comes back (``resume``) and catches up."""
    room, turns = _spades()
    hana = room.tables[0]
    while not (turns and turns[0][0] == ANN and hana.chain.step > 20):
        _play(room, turns)
    turns.clear()  # Ann's turn dies with her laptop
    room.hold = _dead
    now = 0
    while not any(e.ask for e in room.of(0, out.SilentSeats)):
        room.tick((0, 2, 3), now, now + 500)
        now += 500
        assert now < 3 * TIMEOUT_MS
    room.handle(0, hana.decide_silent(True))
    room.run()
    assert hana.seats_out == {ANN: UNCONFIRMED}, hana.seats_out
    for _ in range(4):
        _play(room, turns)  # Hana's side plays on without Ann's voice
    room.held = []
    room.hold = GateRoom.hold
    ids = identities(4)
    ann = Table(room.genesis, ANN, ids[ANN], secrets=room.secrets[ANN], person=True)
    room.tables[ANN] = ann
    room.events[ANN] = []
    room.handle(ANN, ann.restore(list(room.journals[ANN])))
    room.run()
    room.tick(range(4), now, now + 2_000)
    # (Her restored replica offered her the old turn before it heard of the word; her screen drops
    # it once she is left behind: tests/cli/test_lan_left_behind.py.)
    turns[:] = [(seat, turn) for seat, turn in turns if seat != ANN]
    return room, turns, ann


def test_back_after_half_the_table_went_on_she_is_left_behind_and_told_so() -> None:
    room, _, ann = _hana_goes_on_without_ann()
    assert ann.restoring_from == ()
    told = room.of(ANN, out.VotesContradicted)
    assert told and told[-1].named == (ANN,) and told[-1].voters == (0,), told
    assert told[-1].half and not told[-1].majority
    assert ann.left_behind, "the others went past the step Ann was at: she plays there no more"
    assert ann.attempt is not None and ann.attempt.head_before(told[-1].step) is not None


def test_her_return_consents_to_that_word_and_deals_her_in_from_the_next_hand() -> None:
    room, turns, ann = _hana_goes_on_without_ann()
    hana = room.tables[0]
    room.handle(ANN, ann.ask_to_return())
    room.run()
    assert not ann.left_behind and ann.seats_out == hana.seats_out == {ANN: UNCONFIRMED}
    assert ann.digest() == hana.digest()
    assert ann.returning
    assert room.of(0, out.ReturnAsked) == [out.ReturnAsked(ANN)]
    room.handle(0, hana.admit(ANN, True))
    hand = hana.hand_number
    played_again = False
    for _ in range(5_000):
        if hana.over:
            break
        if hana.hand_number > hand:
            assert hana.seats_out == {} and ann.seats_out == {}, "dealt in again from the next hand"
            played_again = played_again or bool(turns and turns[0][0] == ANN)
        if not turns:
            room.tick(range(4), 0, 500)
            continue
        _play(room, turns)
    assert played_again
    assert hana.over and ann.over and hana.stopped is None and ann.stopped is None
    assert hana.digest() == ann.digest()
    assert hana.match is not None and ann.match is not None
    assert hana.match.standings() == ann.match.standings()


def test_two_people_when_the_hosts_word_ended_the_match_her_agreement_records_the_same_end() -> None:
    """Durak with two people: Hana's word, too few players left, ends the match there.  Ann, back, is
    left behind; her `return` agrees to that word, and her laptop ends the match as Hana's did."""
    ids = identities(2)
    genesis = make_genesis("durak", [(f"p{i}", public_bytes(k)) for i, k in enumerate(ids)], dealer="seeded",
                           seed=4, timeout_ms=TIMEOUT_MS)
    tables = [Table(genesis, i, ids[i], source=seeded_source(f"4/{i}"), person=True) for i in range(2)]
    room = GateRoom(genesis, tables, Rng(4), [[], []], [{}, {}], [[], []])
    room.held = []
    turns: Turns = []
    room.act = lambda i, turn: turns.append((i, turn))  # type: ignore[method-assign]
    room.start()
    room.run()
    hana = room.tables[0]
    while not (turns and turns[0][0] == ANN and hana.chain.step > 8):
        _play(room, turns)
    room.hold = _dead
    now = 0
    while not any(e.ask for e in room.of(0, out.SilentSeats)):
        room.tick((0,), now, now + 500)
        now += 500
        assert now < 3 * TIMEOUT_MS
    room.handle(0, hana.decide_silent(True))
    room.run()
    assert hana.over and hana.abandoned
    room.held = []
    room.hold = GateRoom.hold
    ann = Table(genesis, ANN, ids[ANN], secrets=room.secrets[ANN], person=True)
    room.tables[ANN] = ann
    room.handle(ANN, ann.restore(list(room.journals[ANN])))
    room.run()
    room.tick((0, 1), now, now + 2_000)
    assert (ann.left_behind, ann.over) == (True, False)
    room.handle(ANN, ann.ask_to_return())
    room.run()
    assert (ann.over, ann.abandoned, ann.left_behind) == (True, True, False)
    assert ann.digest() == hana.digest()
