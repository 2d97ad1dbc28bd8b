"""The LAN commands' own words at the terminal (``p2pcards.cli.terminal`` is the terminal itself)."""

from __future__ import annotations

from rich.text import Text

from p2pcards.cli.terminal import EndOfInput, Lines, Terminal


def changed_key_warning(name: str, now: str, before: str, *, joiner: bool) -> Text:
    """The warning for a known name with another key: the fingerprints each on a line of their own."""
    text = Text(f"WARNING: {name!r} arrives with a DIFFERENT KEY than before.", style="bold white on red")
    text.append("\n  key now:     ")
    text.append(now, style="bold")
    text.append("\n  key before:  ")
    text.append(before, style="bold")
    if joiner:
        advice = f"It may be someone else using that name. Admit only if {name} reads you the key now from"
        text.append(f"\n{advice} their own screen.")
    else:
        text.append("\nIt may be someone else using that name: check the key with that player first.")
    return text


__all__ = ["EndOfInput", "Lines", "Terminal", "changed_key_warning"]
