"""Voices: a computer player counts with the machine that runs it (SPEC §6.1, §6.5)."""

from __future__ import annotations

from p2pcards.table import outputs as out
from p2pcards.wire import SignedMessage
from tests.table.helpers import Room, signed_as


class HostRoom(Room):
    """Seat 0 is a person whose machine runs the computer seat 2; seat 1 is a joiner.  Seat 0's
    turns wait for the test (its person thinks); ``gone`` seats send and receive nothing."""

    gone: tuple[int, ...] = ()
    thinking: list[out.YourTurn]

    def act(self, i: int, turn: out.YourTurn) -> None:
        if i == 0:
            self.thinking.append(turn)
        else:
            super().act(i, turn)

    def run(self, limit: int = 1_000_000) -> None:
        while self.queue and limit:
            j, i, payload = self.queue.popleft()
            limit -= 1
            if j not in self.gone and i not in self.gone:
                self.handle(j, self.tables[j].receive(i, payload))

    def tick(self, seats: tuple[int, ...], start: int, stop: int) -> None:
        for now in range(start, stop, 1_000):
            for i in seats:
                self.handle(i, self.tables[i].tick(now))
            self.run()


def _host_room() -> HostRoom:
    room = HostRoom.make("durak", 3, computers=((2, 0),), series_hands=1)
    room.thinking = []
    room.start()
    room.run()
    while not room.thinking:
        room.run()
    return room


def _claims_by(room: HostRoom, seat: int) -> list[str]:
    kinds = [SignedMessage.from_bytes(p) for p in room.journals[seat]]
    return [m.kind for m in kinds if m.seat == seat and m.kind in ("void_vote", "abandon")]


def test_a_person_thinking_is_never_named_by_the_computer_player_of_their_own_machine() -> None:
    """The joiner vanishes while the host's person thinks over a move far past the move clock: the
    host's computer player signs no claim and nobody is named; once the host moves, its machine, one
    voice of two, goes on without the joiner by its own word (unconfirmed) and the two seats of that
    machine finish the match together."""
    room = _host_room()
    room.gone = (1,)
    room.tick((0, 2), 0, 400_000)  # more than six move clocks of thinking
    for s in (0, 2):
        assert room.tables[s].verdicts == [] and not room.tables[s].over
    assert _claims_by(room, 2) == [] and _claims_by(room, 0) == []
    turn = room.thinking.pop()
    t0 = room.tables[0]
    room.handle(0, t0.local_action(t0.rules.action_text(turn.view.legal_actions[0])))
    room.run()
    for now in range(400_000, 2_000_000, 1_000):
        while room.thinking:
            turn = room.thinking.pop()
            room.handle(0, t0.local_action(t0.rules.action_text(turn.view.legal_actions[0])))
        room.tick((0, 2), now, now + 1_000)
        if t0.over:
            break
    assert _claims_by(room, 2) == [], "a computer player never signs a claim"
    for s in (0, 2):
        t = room.tables[s]
        assert t.over and not t.abandoned and t.seats_out == {1: "unconfirmed"}
        assert [(f.seat, f.kind) for f in t.verdicts] == [(1, "silent")]
    assert room.tables[0].digest() == room.tables[2].digest()


def test_a_claim_signed_by_a_computer_seat_or_naming_one_is_refused() -> None:
    """Only people sign claims, and claims name people: the computer seat's vote, and a vote naming
    it, are refused with the runner named."""
    room = _host_room()
    t1 = room.tables[1]
    step, head = t1.chain.step, t1.chain.head
    by_computer = signed_as(room.genesis, 2, "void_vote", {"silent": [1]}, step, head)
    naming_computer = signed_as(room.genesis, 1, "void_vote", {"silent": [2]}, step, head)
    refused = [o for o in t1.receive(2, by_computer) + t1.receive(1, naming_computer)
               if isinstance(o, out.Rejected)]
    assert [(r.reason, r.detail) for r in refused] == [
        ("bad vote", "seat 2 is a computer player: seat 0 speaks for its machine"),
        ("bad vote", "seat 2 is a computer player: name seat 0, whose machine runs it"),
    ]
