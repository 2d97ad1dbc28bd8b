"""``carry_out``: a table's outputs performed in order, recognised without importing the table."""

from __future__ import annotations

import ast
import dataclasses
import typing
from pathlib import Path

import pytest

import p2pcards.store
from p2pcards.store import MemoryStore, carry_out
from p2pcards.table import outputs as out


class Recorder:
    def __init__(self) -> None:
        self.log: list[tuple[str, object, object]] = []

    def persist(self, payload: bytes, own: bool) -> None:
        self.log.append(("persist", payload, own))

    def keep(self, label: str, secret: bytes) -> None:
        self.log.append(("keep", label, secret))

    def send(self, payload: bytes, to: int | None) -> None:
        self.log.append(("send", payload, to))


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


def test_nothing_is_sent_after_a_failed_persist() -> None:
    class Full(Recorder):
        def persist(self, payload: bytes, own: bool) -> None:
            raise OSError("disk full")

    rec = Full()
    with pytest.raises(OSError):
        carry_out([out.Persist(b"m", own=True), out.Send(b"m")], rec, rec.send)
    assert rec.log == []


def test_every_output_class_of_the_table_is_recognised() -> None:
    """Pins the duck typing to the table's real classes: every member of ``Output`` either goes to
    the store / the network as intended, or comes back as an event."""
    members = typing.get_args(out.Output)
    assert {c.__name__ for c in members} >= {"Persist", "KeepSecret", "Send"}
    for cls in members:
        fields = {f.name: f.type for f in dataclasses.fields(cls)}
        values = {name: _sample(name) for name in fields}
        rec = Recorder()
        events = carry_out([cls(**values)], rec, rec.send)
        expected = {"Persist": "persist", "KeepSecret": "keep", "Send": "send"}.get(cls.__name__)
        if expected is None:
            assert len(events) == 1 and rec.log == [], cls.__name__
        else:
            assert events == [] and [entry[0] for entry in rec.log] == [expected], cls.__name__


def _sample(name: str) -> object:
    return {"payload": b"p", "own": True, "label": "coin", "secret": b"s", "to": None}.get(name)


def test_memory_store() -> None:
    m = MemoryStore()
    carry_out([out.Persist(b"a"), out.Persist(b"b", own=True), out.Persist(b"c")], m, lambda p, t: None)
    assert m.payloads() == [b"a", b"b", b"c"] and m.durable == 2
    m.keep("coin", b"x")
    with pytest.raises(ValueError):
        m.keep("coin", b"y")


def test_the_store_imports_only_wire() -> None:
    """The layering of DESIGN.md: store may import wire, and nothing else of ours."""
    for path in sorted(Path(p2pcards.store.__file__).parent.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                module = node.module or ""
                names = [f"{module}.{a.name}" for a in node.names] if module == "p2pcards" else [module]
            for name in names:
                if name.split(".")[0] == "p2pcards":
                    assert name.startswith("p2pcards.wire"), f"{path.name} imports {name}"
