"""A table described shortly: the options that differ from the game's defaults, and parts of a line
kept whole (``host``'s title, ``join``'s table line, ``list``).

A table's options list every variant of the game, locked ones too (``blind_nil=false, ...``);
people need only what is not as usual.  A line that has to fit drops whole parts, or ends its list
with ``+N more``, rather than cutting a word in the middle (``flo…``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from rich.cells import cell_len
from rich.text import Text

from p2pcards.games import GameError, load
from p2pcards.text import ELLIPSIS, option_value

LINE: Final = 80
"""The widest a one-line description may be (an 80-column terminal)."""


def changed_options(game: str, options: Iterable[tuple[str, object]]) -> list[str]:
    """``name=value`` of each option that differs from ``game``'s defaults, in the order given,
    written as after ``-o``; ``players`` is left out (the seats are shown on their own).  For a game
    this version does not know, every option."""
    try:
        defaults = {k: option_value(v) for k, v in load(game).options}
    except GameError:
        defaults = {}
    out: list[str] = []
    for name, value in options:
        text = option_value(value)
        if name != "players" and defaults.get(name) != text:
            out.append(f"{name}={text}")
    return out


def options_line(game: str, options: Iterable[tuple[str, object]]) -> str:
    """The options in a few words: ``target=300; the rest as by default``, or ``the defaults``."""
    changed = changed_options(game, options)
    return f"{', '.join(changed)}; the rest as by default" if changed else "the defaults"


def fit_list(parts: Sequence[str], width: int, sep: str = ", ") -> str:
    """As many whole ``parts`` as fit in ``width`` columns, then ``+N more`` for the others; empty
    when not even the first part (with its ``+N more``) fits."""
    for shown_count in range(len(parts), 0, -1):
        rest = len(parts) - shown_count
        text = sep.join([*parts[:shown_count], *([f"+{rest} more"] if rest else [])])
        if cell_len(text) <= width:
            return text
    return ""


def shorten_words(text: str, width: int) -> str:
    """``text`` within ``width`` columns, cut after a whole word with an ellipsis when it is longer
    (in the middle of a word only when its first word alone is too long)."""
    if cell_len(text) <= width:
        return text
    words = text.split(" ")
    for n in range(len(words) - 1, 0, -1):
        head = " ".join(words[:n]).rstrip()
        if head and cell_len(head) + 1 <= width:
            return head + ELLIPSIS
    cut = ""
    for ch in text:
        if cell_len(cut + ch) + 1 > width:
            break
        cut += ch
    return cut + ELLIPSIS


class FittedLine:
    """A line built from parts: the essentials ``put`` whatever the width, the others ``add``-ed only
    if they fit whole within ``width`` columns."""

    def __init__(self, width: int = LINE) -> None:
        self.width = width
        self.text = Text()

    @property
    def room(self) -> int:
        return self.width - cell_len(self.text.plain)

    def put(self, part: str, style: str = "") -> None:
        self.text.append(part, style=style)

    def add(self, part: str, style: str = "") -> bool:
        """Append ``part`` if it fits whole; whether it did."""
        if not part or cell_len(part) > self.room:
            return False
        self.text.append(part, style=style)
        return True


__all__ = ["LINE", "FittedLine", "changed_options", "fit_list", "options_line", "shorten_words"]
