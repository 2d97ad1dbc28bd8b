"""No test reaches the user's own data directory (their key, their peers, their saved games): the
program's directory, and the platform's default it falls back to, are inside the test's own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import platformdirs

from p2pcards.store.paths import APP_NAME, data_dir
from tests.cli.test_screen_tty import ROOT


def test_a_test_and_the_programs_it_starts_use_a_data_directory_of_their_own(tmp_path: Path) -> None:
    assert data_dir().is_relative_to(tmp_path)
    assert Path(platformdirs.user_data_dir(APP_NAME)).is_relative_to(tmp_path)
    # a program started with the test's environment, as the terminal tests start theirs
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    program = "from p2pcards.store.paths import data_dir; print(data_dir())"
    shown = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True,
                           check=True, cwd=ROOT).stdout.strip()
    assert Path(shown).is_relative_to(tmp_path)
