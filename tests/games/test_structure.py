"""The shape of the rules library: no module of ``p2pcards.games`` imports one that imports it back
(counting imports made only for type checking and inside functions), the rules import nothing of
ours from above them, and the deal knows nothing of the rules."""

from __future__ import annotations

import ast
from pathlib import Path

import p2pcards

ROOT = Path(p2pcards.__file__).parent


def _module(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every module of ours that ``path`` imports, wherever the import statement is."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = _module(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)  # ``from pkg import module``
    return {m for m in out if m.startswith("p2pcards")}


def _graph(package: str) -> dict[str, set[str]]:
    files = sorted((ROOT / package.replace("p2pcards.", "").replace(".", "/")).rglob("*.py"))
    modules = {_module(f): f for f in files}
    return {m: {d for d in _imports(f) if d in modules and d != m} for m, f in modules.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (ignoring a package's own ``__init__`` re-exports), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for d in sorted(graph[m]):
            if m.startswith(d + ".") or d.startswith(m + "."):
                continue  # a package and its own modules: __init__ re-exports what it contains
            if state.get(d) == 1:
                return [*path[path.index(d):], d]
            if d not in state and (found := visit(d)):
                return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def test_no_module_of_the_games_imports_one_that_imports_it_back() -> None:
    graph = _graph("p2pcards.games")
    some = {"p2pcards.games.durak.state", "p2pcards.games.azi.bidding", "p2pcards.games.spades.match"}
    assert some <= set(graph)
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a.x": {"a.y"}, "a.y": {"a.z"}, "a.z": {"a.x"}}) == ["a.x", "a.y", "a.z", "a.x"]


def test_the_rules_import_nothing_of_ours_from_above_them() -> None:
    for path in sorted((ROOT / "games").rglob("*.py")):
        above = {m for m in _imports(path) if not m.startswith("p2pcards.games")}
        assert not above, f"{path.relative_to(ROOT)} imports {sorted(above)}"


def test_the_deal_knows_nothing_of_the_rules() -> None:
    for path in sorted((ROOT / "deal").rglob("*.py")):
        assert not {m for m in _imports(path) if m.startswith("p2pcards.games")}, path.name
