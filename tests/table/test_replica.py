"""Whole games through real tables: agreement, audits, refusals, journals."""

import pytest

from p2pcards.games import ActionError
from p2pcards.table import decide, replica
from p2pcards.table import outputs as out
from p2pcards.table.replica import Table
from p2pcards.wire import SignedMessage
from tests.table.helpers import Room, identities, signed_as


@pytest.mark.parametrize(("game", "n"), [("durak", 2), ("durak", 6), ("spades", 4), ("azi", 3), ("azi", 6)])
def test_every_replica_of_a_seeded_match_ends_in_the_same_state(game, n):
    room = Room.make(game, n, dealer="seeded", seed=n)
    room.start()
    room.run()
    assert all(t.over for t in room.tables)
    assert len(room.digests()) == 1
    for i in range(n):
        assert len(room.of(i, out.MatchOver)) == 1
        assert all(h.audit.ok for h in room.of(i, out.HandOver))
        assert room.of(i, out.Fault) == []


@pytest.mark.parametrize(
    ("game", "n", "options"), [("durak", 3, {}), ("spades", 4, {}), ("azi", 4, {"deal": 4})]
)
def test_a_mental_poker_match_agrees_and_every_hand_audits(game, n, options):
    room = Room.make(game, n, dealer="mental", seed=3, **options)
    room.start()
    room.run()
    assert all(t.over for t in room.tables)
    assert len(room.digests()) == 1
    summaries = {tuple(h.summary for h in room.of(i, out.HandOver)) for i in range(n)}
    assert len(summaries) == 1 and summaries != {()}


def test_each_seat_sees_only_its_own_cards():
    room = Room.make("spades", 4, dealer="mental", seed=5)
    room.start()
    seen_hidden = []

    def act(i, turn):  # look at the first turn of every seat, then play on
        state = room.tables[i].state
        others = [
            p for name, ps in state.zones() if name.startswith("hand ") and name != f"hand {i}" for p in ps
        ]
        seen_hidden.append(any(state.card_at[p] != -1 for p in others))
        Room.act(room, i, turn)

    room.act = act  # type: ignore[method-assign]
    room.run(limit=3000)
    assert seen_hidden and not any(seen_hidden[:4])


def test_an_illegal_local_move_is_refused_and_nothing_is_sent():
    room = Room.make("durak", 2, seed=11)
    turns: list[tuple[int, out.YourTurn]] = []
    room.act = lambda i, turn: turns.append((i, turn))  # type: ignore[method-assign]
    room.start()
    room.run()
    seat, turn = turns[-1]
    table = room.tables[seat]
    before = (table.digest(), table.chain.step)
    with pytest.raises(ActionError, match="legal now"):
        table.local_action("take")
    with pytest.raises(ActionError):
        table.local_action("nonsense words")
    with pytest.raises(ActionError, match="not your turn"):
        room.tables[1 - seat].local_action(
            room.tables[1 - seat].rules.action_text(turn.view.legal_actions[0])
        )
    assert (table.digest(), table.chain.step) == before


def test_an_observer_restored_from_any_journal_reaches_the_same_verdicts():
    room = Room.make("durak", 3, dealer="mental", seed=4)
    room.start()
    room.run()
    for i in range(3):
        observer = Table(room.genesis, None, None)
        events = observer.restore(room.journals[i])
        assert observer.digest() == room.tables[i].digest()
        assert [h.summary for h in events if isinstance(h, out.HandOver)] == [
            h.summary for h in room.of(i, out.HandOver)
        ]
        assert all(h.audit.ok for h in events if isinstance(h, out.HandOver))


@pytest.mark.parametrize("stop_after", [5, 40, 200, 700])
def test_a_peer_killed_mid_game_resumes_from_its_journal(stop_after):
    room = Room.make("durak", 3, dealer="mental", seed=9)
    room.start()
    room.run(limit=stop_after)
    # Seat 1 dies: its memory and everything on its way to it are lost; its journal and secrets are not.
    room.queue = type(room.queue)((j, i, p) for j, i, p in room.queue if j != 1)
    ids = identities(3)
    revived = Table(room.genesis, 1, ids[1], secrets=room.secrets[1])
    room.tables[1] = revived
    room.handle(1, revived.restore(list(room.journals[1])))
    room.run()
    assert all(t.over for t in room.tables), [t.waiting_for for t in room.tables]
    assert len(room.digests()) == 1


def test_a_restarted_seat_never_contradicts_what_it_said_before():
    room = Room.make("spades", 4, dealer="mental", seed=2)
    room.start()
    room.run(limit=60)
    ids = identities(4)
    for seat in range(4):
        revived = Table(room.genesis, seat, ids[seat], secrets=room.secrets[seat])
        room.tables[seat] = revived
        room.handle(seat, revived.restore(list(room.journals[seat])))
    room.run()
    assert all(t.over for t in room.tables)
    assert not any(room.of(i, out.Fault) for i in range(4))


class QuietRoom(Room):
    """A room in which some seats have vanished: nothing reaches them or leaves them."""

    muted: tuple[int, ...] = ()

    def run(self, limit: int = 1_000_000) -> None:
        def heard(i: int, j: int) -> bool:
            return i not in self.muted and j not in self.muted

        self.queue = type(self.queue)((j, i, p) for j, i, p in self.queue if heard(i, j))
        while self.queue and limit:
            j, i, payload = self.queue.popleft()
            limit -= 1
            if heard(i, j):
                self.handle(j, self.tables[j].receive(i, payload))


def _vanished(n: int, gone: int = 1, person: int | None = None) -> QuietRoom:
    """A Durak table of ``n`` whose last ``gone`` seats vanish a few steps into the first hand (the
    setup before it needs every seat); ``person``: the seat a person plays."""
    room = QuietRoom.make("durak", n, seed=12)
    if person is not None:
        room.tables[person].person = True
    room.start()
    while room.queue and (room.tables[0].attempt is None or room.tables[0].chain.step < 6):
        room.run(limit=1)
    room.muted = tuple(range(n - gone, n))
    room.run()
    return room


def _vanish_and_wait(n: int, until_ms: int, gone: int = 1) -> QuietRoom:
    room = _vanished(n, gone)
    for now in range(0, until_ms, 1_000):
        for i, t in enumerate(room.tables):
            if i not in room.muted:
                room.handle(i, t.tick(now))
        room.run()
    return room


def test_a_seat_that_vanishes_is_voted_silent_by_the_others_alike_and_they_play_on():
    room = _vanish_and_wait(3, 70_000)
    for i in (0, 1):
        t = room.tables[i]
        (verdict,) = t.verdicts
        assert (verdict.seat, verdict.kind, verdict.hand) == (2, "silent", 0)
        assert t.seats_out == {2: "silent"}
        assert [v.hand for v in room.of(i, out.HandVoid)] == [0]
        assert t.over and len(t.hands_played) == 1, "the two left played the hand again, to its end"
        assert all(2 not in s.seats for s in room.of(i, out.Sealed))
    assert room.tables[0].digest() == room.tables[1].digest()


def test_the_last_of_two_players_goes_on_by_its_own_word_a_timeout_after_the_other_machine_is_gone():
    """One seat alone can never vote the other out.  A seat with no person to ask sees the other
    machine gone at the connection clock and ends the match by its own word one timeout later
    (abandoned: unconfirmed, the other named silent), not before."""
    due = replica.DISCONNECTED_MS + 60_000  # the genesis timeout is 60 s
    room = _vanish_and_wait(2, due - 2_000)
    assert room.tables[0].verdicts == [] and not room.tables[0].over
    room = _vanish_and_wait(2, due + 2_000)
    t = room.tables[0]
    assert t.over and t.abandoned and [(f.seat, f.kind) for f in t.verdicts] == [(1, "silent")]
    assert room.of(0, out.MatchOver)[-1].abandoned


def test_half_the_table_left_goes_on_by_its_own_word_and_binds_nobody_named():
    """No vote can decide when half the voices are silent: each seat left signs its abandon and goes
    on without them by itself.  Two of four left meet in one continuation: it is unconfirmed (the
    seats named are out as such), they play it out together and agree."""
    room = _vanish_and_wait(3, 40_000, gone=2)
    assert room.tables[0].verdicts == [] and not room.tables[0].over
    room = _vanish_and_wait(4, 300_000, gone=2)
    for i in (0, 1):
        t = room.tables[i]
        assert sorted((f.seat, f.kind) for f in t.verdicts) == [(2, "silent"), (3, "silent")]
        assert t.seats_out == {2: "unconfirmed", 3: "unconfirmed"}
        assert t.over
    assert room.tables[0].digest() == room.tables[1].digest()


def test_a_seat_that_was_cut_off_never_takes_the_others_word_about_it():
    """Seats 1 and 2 of three are cut off; seat 0, alone, ends the match by its own word, naming
    both.  When seat 1's link comes back it does not take that word (half the table or fewer binds
    nobody named): it is told, but not left behind — there is no majority's decision to consent to —
    and a ``return`` does not make it follow seat 0."""
    room = _vanish_and_wait(3, 200_000, gone=2)
    assert room.tables[0].over and room.tables[0].abandoned
    room.muted = (2,)
    t1 = room.tables[1]
    for now in range(200_000, 204_000, 1_000):
        for i in (0, 1):
            room.handle(i, room.tables[i].tick(now))
        room.run()
    assert not t1.over and t1.verdicts == [] and not t1.left_behind
    told = room.of(1, out.VotesContradicted)
    assert told and told[-1].voters == (0,) and told[-1].named == (1, 2) and not told[-1].majority
    room.handle(1, t1.ask_to_return())
    room.run()
    assert not t1.over and t1.verdicts == [] and t1.seats_out == {}


def test_when_two_of_five_vanish_the_three_left_vote_both_out_and_play_on():
    """A seat that owed nothing at the step the others waited at is not named there; the three left
    are more than half and vote out each gone seat at a step that awaits it."""
    room = _vanish_and_wait(5, 400_000, gone=2)
    for i in (0, 1, 2):
        t = room.tables[i]
        assert sorted((f.seat, f.kind) for f in t.verdicts) == [(3, "silent"), (4, "silent")]
        assert t.seats_out == {3: "silent", 4: "silent"}
        assert t.over and not t.abandoned
    assert len({room.tables[i].digest() for i in (0, 1, 2)}) == 1


def _seat_1_keeps_waiting(room: QuietRoom, start: int, until: int, *, every_tick: bytes = b"") -> int:
    """Ticks seats 0 and 1 from ``start`` to ``until`` ms; seat 1's person answers "keep waiting"
    whenever asked (and, with ``every_tick``, seat 1 is heard sending it each second).  How often
    seat 1 was asked."""
    asked = len(room.of(1, out.SilentSeats))
    for now in range(start, until, 1_000):
        for i in (0, 1):
            room.handle(i, room.tables[i].tick(now))
        if every_tick:
            room.handle(0, room.tables[0].receive(1, every_tick))
        room.run()
        while len(room.of(1, out.SilentSeats)) > asked:
            asked += 1
            room.handle(1, room.tables[1].decide_silent(False))
            room.run()
    return asked


def _claims(room: QuietRoom, *seats: int) -> list[tuple[int, str, list[int]]]:
    """The votes and abandons in the journals of ``seats``: who signed, which, naming whom."""
    return [
        (m.seat, m.kind, list(decide.named(m, 3)))
        for j in seats
        for m in map(SignedMessage.from_bytes, room.journals[j])
        if m.kind in ("void_vote", "abandon")
    ]


def test_a_program_that_voted_waits_with_a_person_who_keeps_waiting_and_never_names_them():
    """Three seats; seat 2 is gone.  Seat 0 plays for nobody and votes at once; seat 1's person keeps
    waiting, asked again and again.  Seat 1 is connected and owes nothing at the step, so seat 0 never
    goes on by itself naming it, however long it waits; the person's "go on" then makes the majority,
    and both play on without seat 2."""
    room = _vanished(3, person=1)
    t0, t1 = room.tables[0], room.tables[1]
    asked = _seat_1_keeps_waiting(room, 0, 600_000)  # ten move clocks (the genesis timeout is 60 s)
    assert asked >= 9, "the person was asked again after every timeout"
    assert _claims(room, 0, 1) == [(0, "void_vote", [2])] * 2, "seat 0 voted, once; nobody abandoned"
    assert t0.verdicts == [] and t1.verdicts == [] and not t0.over
    room.handle(1, t1.decide_silent(True))
    room.run()
    for now in range(600_000, 700_000, 1_000):
        for i in (0, 1):
            room.handle(i, room.tables[i].tick(now))
        room.run()
    for t in (t0, t1):
        assert [(f.seat, f.kind) for f in t.verdicts] == [(2, "silent")]
        assert t.seats_out == {2: "silent"} and t.over and not t.abandoned
    assert t0.digest() == t1.digest()


def test_a_program_that_voted_goes_on_by_itself_from_a_connected_voice_that_went_on_without_it():
    """As above, but seat 1 (still heard from every second) also signs an abandon naming seats 0 and
    2: it went on without seat 0, so it is not with seat 0 at the step any more.  Seat 0 then goes on
    by its own word, naming seats 1 and 2, one timeout later, and not before."""
    room = _vanished(3, person=1)
    t0 = room.tables[0]
    _seat_1_keeps_waiting(room, 0, 20_000)
    assert _claims(room, 0) == [(0, "void_vote", [2])]
    end = signed_as(room.genesis, 1, "abandon", {"silent": [0, 2]}, t0.chain.step, t0.chain.head)
    room.muted = (1, 2)  # seat 1 is heard only through the abandon it keeps sending
    _seat_1_keeps_waiting(room, 20_000, 75_000, every_tick=end)
    assert [c for c in _claims(room, 0) if c[0] == 0 and c[1] == "abandon"] == []
    _seat_1_keeps_waiting(room, 75_000, 90_000, every_tick=end)
    assert (0, "abandon", [1, 2]) in _claims(room, 0)
    assert t0.over and t0.abandoned


def test_a_person_is_asked_before_the_match_is_ended_and_may_keep_waiting():
    """The other machine is gone: the person is asked at the connection clock, not before; "keep
    waiting" asks again one timeout later, nothing decided meanwhile; "go on" ends the match by this
    voice's word (unconfirmed: abandoned)."""
    room = _vanished(2, person=0)
    t = room.tables[0]
    asked: list[tuple[int, out.SilentSeats]] = []
    for now in range(0, 20_000, 1_000):
        asked += [(now, o) for o in t.tick(now) if isinstance(o, out.SilentSeats)]
    ((when, question),) = asked
    assert when >= replica.DISCONNECTED_MS
    assert question.ask and question.end_match and question.seats == (1,)
    t.decide_silent(False)  # keep waiting: asked again one timeout later, nothing decided meanwhile
    for now in range(20_000, 81_000, 1_000):
        asked += [(now, o) for o in t.tick(now) if isinstance(o, out.SilentSeats)]
    assert not t.over and len(asked) == 2 and asked[1][0] >= 79_000
    t.decide_silent(True)
    t.tick(82_000)
    assert (t.over, t.abandoned) == (True, True)
