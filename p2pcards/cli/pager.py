"""Long text at a terminal, through a pager, as git does it.

The pager is ``P2PCARDS_PAGER``, else ``PAGER``, else ``less``; an empty value or ``cat`` means none.
When ``LESS`` is unset it is set to ``FRX`` for the pager (as git does): ``R`` shows colours and
bold instead of raw ``ESC[1;4m`` codes (which also broke lines in odd places), ``F`` quits at once when
the text fits on one screen, ``X`` leaves the text on the screen afterwards.  ``LV`` gets ``-c`` for
the same reason.  A pager that cannot be started is not an error: the text is printed instead.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Mapping

from rich.console import Console
from rich.pager import Pager

PAGER_ENV = "P2PCARDS_PAGER"
DEFAULT_PAGER = "less"
LESS_DEFAULT = "FRX"
LV_DEFAULT = "-c"


def pager_command(environ: Mapping[str, str] | None = None) -> str | None:
    """The pager's command line, or None for no pager at all."""
    env = os.environ if environ is None else environ
    for name in (PAGER_ENV, "PAGER"):
        if name in env:
            command = env[name].strip()
            return None if command in ("", "cat") else command
    return DEFAULT_PAGER


def pager_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment the pager runs in: ours, with ``LESS`` and ``LV`` set when they are not."""
    env = dict(os.environ if environ is None else environ)
    env.setdefault("LESS", LESS_DEFAULT)
    env.setdefault("LV", LV_DEFAULT)
    return env


class GitLikePager(Pager):
    """rich's pager, run the way git runs its own."""

    def show(self, content: str) -> None:
        command = pager_command()
        if command is None or not _page(command, content):
            sys.stdout.write(content)
            sys.stdout.flush()


def _page(command: str, content: str) -> bool:
    """Show ``content`` with ``command``; False if the pager could not be run (then nothing was shown)."""
    try:
        proc = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, env=pager_environment(),
                                text=True, encoding="utf-8", errors="replace")
    except OSError:
        return False
    assert proc.stdin is not None
    with contextlib.suppress(BrokenPipeError, OSError):  # the reader quit before the end (q in less)
        proc.stdin.write(content)
    with contextlib.suppress(BrokenPipeError, OSError):
        proc.stdin.close()
    while True:
        try:
            code = proc.wait()
            break
        except KeyboardInterrupt:  # Ctrl-C is the pager's to handle (less ignores it); wait for it
            continue
    return code != 127  # the shell found no such command


def page(console: Console, *renderables: object) -> None:
    """Print ``renderables`` on ``console`` through the pager at a terminal, plainly elsewhere."""
    if console.is_terminal:
        with console.pager(GitLikePager(), styles=True):
            console.print(*renderables)
    else:
        console.print(*renderables)


__all__ = ["DEFAULT_PAGER", "LESS_DEFAULT", "PAGER_ENV", "GitLikePager", "page", "pager_command",
           "pager_environment"]
