"""p2pcards.deal is pure: no I/O, no clock, no threads, no `random`, no floats."""

from __future__ import annotations

import ast
from pathlib import Path

import p2pcards.deal

FORBIDDEN = {
    "trio",
    "asyncio",
    "socket",
    "os",
    "time",
    "random",
    "threading",
    "subprocess",
    "datetime",
    "pathlib",
}
SOURCES = sorted(Path(p2pcards.deal.__file__).parent.glob("*.py"))


def test_the_package_has_sources() -> None:
    assert {p.name for p in SOURCES} >= {
        "group.py",
        "shuffle.py",
        "shares.py",
        "keys.py",
        "coins.py",
        "audit.py",
    }


def _nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node, except the bodies of ``__hash__`` (Python's own hashing, never replicated state)."""
    out: list[ast.AST] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef) and node.name == "__hash__":
            continue
        out.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return out


def test_no_forbidden_imports_calls_or_floats() -> None:
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in _nodes(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                names = []
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in {"open", "float", "print", "input", "hash"}, (
                    f"{path.name}: {node.func.id}()"
                )
            if isinstance(node, ast.Constant):
                assert not isinstance(node.value, float), f"{path.name} has a float literal"
