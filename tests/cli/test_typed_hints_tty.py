"""What the screen tells a person to type works when typed: after the README's install, without
activating the environment, ``p2pcards`` is not on the PATH, and a hint naming it bare would answer
"command not found"."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

from p2pcards.store.paths import HOME_ENV
from tests.cli.test_screen_tty import plain

ROOT = Path(__file__).resolve().parents[2]


def without_p2pcards(path: str) -> str:
    """The PATH without any directory that holds a ``p2pcards`` command."""
    return os.pathsep.join(d for d in path.split(os.pathsep) if d and not (Path(d) / "p2pcards").exists())


@pytest.mark.parametrize("path", ["without p2pcards", "with another p2pcards"])
def test_come_back_with_names_a_command_that_runs_from_where_the_game_was_started(path: str,
                                                                                   tmp_path: Path) -> None:
    # the console script as pip writes it into .venv/bin, typed by its path as the README does
    script = tmp_path / ".venv" / "bin" / "p2pcards"
    script.parent.mkdir(parents=True)
    script.write_text(f"#!{sys.executable}\nimport sys\nfrom p2pcards.cli import main\nsys.exit(main())\n")
    script.chmod(0o755)
    search = without_p2pcards(os.environ.get("PATH", ""))
    if path == "with another p2pcards":  # an older install elsewhere, which is not this game's program
        other = tmp_path / "elsewhere" / "p2pcards"
        other.parent.mkdir()
        other.write_text("#!/bin/sh\necho 'another p2pcards'\n")
        other.chmod(0o755)
        search = f"{other.parent}{os.pathsep}{search}"
    env = dict(os.environ, TERM="dumb", NO_COLOR="1", PYTHONPATH=str(ROOT), PATH=search,
               **{HOME_ENV: str(tmp_path / "home")})
    child = pexpect.spawn(".venv/bin/p2pcards", ["play", "durak", "--players", "2", "--level", "easy",
                                                 "--dealer", "seeded", "--seed", "3"],
                          env=env, encoding="utf-8", timeout=60, dimensions=(24, 80), cwd=str(tmp_path))
    try:
        child.expect("Your move: ")
        child.sendline("quit")
        child.expect(r"\[y/N\] ")
        child.sendline("y")
        child.expect(r"\[Y/n\] ")
        child.sendline("")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    hint = re.search(r"Come back to this game with\s+(\S+ resume [0-9a-f]{12})", plain(child.before))
    assert hint is not None, plain(child.before)
    again = pexpect.spawn("sh", ["-c", hint.group(1)], env=env, encoding="utf-8", timeout=60,
                          dimensions=(24, 80), cwd=str(tmp_path))
    try:
        seen = again.expect(["Your move: ", pexpect.EOF])
        assert seen == 0, f"typing {hint.group(1)!r} gave: {plain(again.before)}"
        again.sendline("quit")
        again.expect(r"\[y/N\] ")
        again.sendline("y")
        again.expect(r"\[Y/n\] ")
        again.sendline("n")
        again.expect(pexpect.EOF)
    finally:
        again.close()
