"""The store's ``Effects``: the memory store, and the layering that keeps the store below the table."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import p2pcards.store
from p2pcards.store import MemoryStore


def test_memory_store() -> None:
    m = MemoryStore()
    m.persist(b"a", False)
    m.persist(b"b", True)
    m.persist(b"c", False)
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
