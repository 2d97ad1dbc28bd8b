"""No module of ``p2pcards.cli`` imports a module that imports it back, at any depth (a circle of
imports hides which part depends on which, and an import at the bottom of a module or inside a
function keeps it alive unseen): every import statement is read, those inside functions too."""

from __future__ import annotations

import ast
from pathlib import Path

import p2pcards

PACKAGE = Path(p2pcards.__file__).parent


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted((PACKAGE / "cli").rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    deps = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                head = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*head, base] if base else head)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                deps.add(full if full in known else base)
        elif isinstance(node, ast.Import):
            deps.update(alias.name for alias in node.names)
    return {d for d in deps if d in known and d != name}


def test_no_module_of_the_cli_imports_one_that_imports_it_back() -> None:
    known = _modules()
    graph = {name: _imports(name, path, known) for name, path in known.items()}
    circles = []
    for start in graph:
        # Every module reachable from ``start``; a circle if ``start`` is among them.
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            module = todo.pop()
            if module not in seen:
                seen.add(module)
                todo.extend(graph[module])
        if start in seen:
            circles.append(start)
    assert circles == []
    assert "p2pcards.cli.screen.going_on" in graph["p2pcards.cli.screen.events"]  # the walk sees imports
