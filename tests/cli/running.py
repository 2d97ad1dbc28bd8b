"""Running the program in the test's own process, as a user's shell would call it."""

from __future__ import annotations

import pytest

from p2pcards.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``p2pcards ARGS``: its exit status, standard output and standard error."""
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = int(exc.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err
