"""The examples in the package's docstrings (``>>>``) are doctests that run here, so that an example
a reader copies is true: every module with an example is found by its text, imported, and run."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "p2pcards"


def with_examples() -> list[str]:
    """The dotted names of the modules whose source holds an interactive example, in path order."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if ">>> " in path.read_text(encoding="utf-8"):
            parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


@pytest.mark.parametrize("name", with_examples())
def test_the_examples_of_a_module_run_and_say_what_happens(name: str) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in finder.find(module):
        runner.run(test)
    failed, attempted = runner.summarize(verbose=False)
    # an example marked to be skipped, or one that is not found as a doctest, runs nothing
    assert attempted > 0, f"{name} shows examples that never run"
    assert failed == 0, f"{failed} of the {attempted} examples of {name} fail (printed above)"


def test_the_rules_test_helpers_are_among_the_modules_with_examples() -> None:
    assert "p2pcards.games.testing" in with_examples()
