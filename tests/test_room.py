"""The room's one interpreter: a table's outputs carried out in order, each by its type."""

from __future__ import annotations

import dataclasses
import typing
from collections import deque

import pytest

from p2pcards.room import ComputerTurn, EventsAfter, Moved, Thinking, carry_out, interpret
from p2pcards.room import Room as RoomOf
from p2pcards.table import outputs as out
from p2pcards.table.replica import Table
from tests.table.helpers import Room


class Recorder:
    """A scheduler (and a store) that writes down what it is asked to do."""

    def __init__(self) -> None:
        self.log: list[tuple[object, ...]] = []

    # as a store (``carry_out``)
    def persist(self, *args: object) -> None:
        self.log.append(("persist", *args))

    def keep(self, *args: object) -> None:
        self.log.append(("keep", *args))

    def send(self, *args: object) -> None:
        self.log.append(("send", *args))

    def turn(self, seat: int, turn: out.YourTurn) -> None:
        self.log.append(("turn", seat, turn))

    def event(self, seat: int, event: out.Event) -> None:
        self.log.append(("event", seat, event))


def test_in_order_and_events_handed_back() -> None:
    rec = Recorder()
    waiting = out.Waiting(3, (1,), 0)
    fault = out.Fault(1, 3, "silent", "gone")
    outputs: list[out.Output] = [
        out.KeepSecret("hand 0", b"s"),
        out.Persist(b"m1", own=True),
        out.Send(b"m1"),
        waiting,
        out.Persist(b"m2"),
        out.Send(b"m2", to=2),
        fault,
    ]
    events = carry_out(outputs, rec, rec.send)
    assert rec.log == [
        ("keep", "hand 0", b"s"),
        ("persist", b"m1", True),
        ("send", b"m1", None),
        ("persist", b"m2", False),
        ("send", b"m2", 2),
    ]
    assert events == [waiting, fault]


def test_a_scheduler_is_told_everything_in_order_with_the_seat() -> None:
    rec = Recorder()
    turn = out.YourTurn(0, None)  # type: ignore[arg-type]
    sealed = out.Sealed(0, (0, 1))
    interpret(2, [out.Persist(b"m", own=True), turn, out.Send(b"m", to=1), sealed], rec)
    assert rec.log == [
        ("persist", 2, b"m", True),
        ("turn", 2, turn),
        ("send", 2, b"m", 1),
        ("event", 2, sealed),
    ]


def test_nothing_is_sent_after_a_failed_persist() -> None:
    class Full(Recorder):
        def persist(self, *args: object) -> None:
            raise OSError("disk full")

    rec = Full()
    with pytest.raises(OSError):
        carry_out([out.Persist(b"m", own=True), out.Send(b"m")], rec, rec.send)
    assert rec.log == []


def test_every_output_class_of_the_table_has_its_meaning() -> None:
    """Every member of ``Output`` goes to the store, the network, the turn or the events: none is
    dropped, and a class the interpreter does not name is refused rather than taken for an event."""
    members = typing.get_args(out.Output)
    assert {c.__name__ for c in members} >= {"Persist", "KeepSecret", "Send", "YourTurn"}
    for cls in members:
        values = {f.name: _sample(f.name) for f in dataclasses.fields(cls)}
        rec = Recorder()
        interpret(0, [cls(**values)], rec)
        expected = {"Persist": "persist", "KeepSecret": "keep", "Send": "send", "YourTurn": "turn"}
        assert [entry[0] for entry in rec.log] == [expected.get(cls.__name__, "event")], cls.__name__

    @dataclasses.dataclass(frozen=True)
    class Stranger:
        payload: bytes
        own: bool

    with pytest.raises(AssertionError):
        interpret(0, [Stranger(b"p", True)], Recorder())  # type: ignore[list-item]


def _sample(name: str) -> object:
    return {"payload": b"p", "own": True, "label": "coin", "secret": b"s", "to": None}.get(name)


@dataclasses.dataclass
class FirstTurn(Room):
    """The tests' room, but a turn waits (as a computer seat's does while it thinks)."""

    waiting: list[tuple[int, out.YourTurn]] = dataclasses.field(default_factory=list)

    def turn(self, i: int, turn: out.YourTurn) -> None:
        self.waiting.append((i, turn))


def test_a_computer_choice_counts_only_at_the_step_it_was_asked_for() -> None:
    room = FirstTurn.make("durak", 3)
    room.start()
    room.run()
    seat, turn = room.waiting[0]
    table = room.tables[seat]
    asked = ComputerTurn.of(seat, table, turn)
    assert asked.thinking() == Thinking(seat, table.chain.step)
    assert asked.wanted(table)
    text = table.rules.action_text(turn.view.legal_actions[0])
    room.handle(seat, table.local_action(text))
    assert table.chain.step > asked.step and not asked.wanted(table)  # a late answer is dropped
    room.run()
    moves = [Moved.of(e, 0) for e in room.of(seat, out.StateChanged)]
    assert Moved(0, seat, text) in moves
    assert Moved.of(out.StateChanged(1, b"", kind="share", seats=(0,)), 0) is None


class Queue(EventsAfter):
    """A room's scheduler over a FIFO: a whole game through ``Room`` alone."""

    def __init__(self, tables: list[Table]) -> None:
        super().__init__(self.answer)
        self.tables = tables
        self.n = len(tables)
        self.room: RoomOf | None = None
        self.frames: deque[tuple[int, int, bytes]] = deque()
        self.journals: list[list[bytes]] = [[] for _ in range(self.n)]
        self.calls: list[tuple[int, int]] = []

    def persist(self, seat: int, payload: bytes, own: bool) -> None:
        self.journals[seat].append(payload)

    def keep(self, seat: int, label: str, secret: bytes) -> None:
        pass

    def send(self, seat: int, payload: bytes, to: int | None) -> None:
        self.frames.extend((j, seat, payload) for j in range(self.n) if j != seat and to in (None, j))

    def answer(self, seat: int, events: list[out.Event]) -> None:
        # Effects first: by now every frame of the call is queued, and its journal written.
        self.calls.append((seat, len(self.frames)))
        assert self.room is not None
        for event in events:
            if isinstance(event, out.YourTurn):
                rules = self.tables[seat].rules
                self.room.act(seat, rules.action_text(event.view.legal_actions[0]))


def test_a_whole_game_through_the_room() -> None:
    tables = Room.make("durak", 3).tables
    queue = Queue(tables)
    room = queue.room = RoomOf(queue, tables.__getitem__)
    for seat in range(3):
        room.start(seat)
    while queue.frames:
        to, frm, payload = queue.frames.popleft()
        room.receive(to, frm, payload)
    assert all(t.over for t in tables) and len({t.digest() for t in tables}) == 1
    assert all(len(j) == len(queue.journals[0]) for j in queue.journals)
    assert len(queue.calls) > 3 and queue.events == []
