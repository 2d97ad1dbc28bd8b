"""Strings that another peer chose, made safe to show, and the rule for a seat's name.

Seat names, a host's refusal reasons, table names, mDNS instance names and TXT values all come from
the network.  Printed as they are, a few bytes could clear the screen, set the window's title, move
the cursor to overwrite what was said before, or reverse the text around a fingerprint.  Every place
that shows such a string passes it through ``shown``, and only there is that decided:

- C0 and C1 control characters (ESC among them), DEL, format characters (bidi overrides and
  isolates, zero-width joiners...), surrogates and line or paragraph separators are replaced: a tab
  or a line break by a space, everything else by U+FFFD (the replacement character), so that
  nothing disappears without a trace;
- the result is cut to ``limit`` code points, the last one an ellipsis when something was cut.

Beside it, the one way a game's option values are written for people and in advertisements
(``option_value``, ``options_text``): ``deal=3, blind=true``, as they are typed after ``-o``.

This is a leaf module: it imports nothing of ours, so any layer may use it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Final

MAX_NAME: Final = 40
"""A seat's name has 1 to this many code points."""
REPLACEMENT: Final = "\ufffd"
ELLIPSIS: Final = "…"

_UNSAFE_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Control, format, surrogate, line separator, paragraph separator."""
_AS_SPACE: Final = frozenset("\t\n\r\v\f\x85\u2028\u2029")


def _unsafe(ch: str) -> bool:
    return unicodedata.category(ch) in _UNSAFE_CATEGORIES


def shown(text: str, limit: int) -> str:
    """``text`` as it may be printed: nothing in it can act on a terminal, at most ``limit`` code points."""
    if limit < 1:
        raise ValueError("a limit is at least 1")
    safe = "".join((" " if ch in _AS_SPACE else REPLACEMENT) if _unsafe(ch) else ch for ch in text)
    if len(safe) > limit:
        safe = safe[: limit - 1] + ELLIPSIS
    return safe


def name_problem(name: object) -> str:
    """What is wrong with ``name`` as a seat's name ("" if nothing): 1 to 40 code points, not blank,
    and no control or format character (nor surrogate, line or paragraph separator)."""
    if not isinstance(name, str):
        return "a name is text"
    if not 1 <= len(name) <= MAX_NAME:
        return f"a name has 1 to {MAX_NAME} characters, not {len(name)}"
    for ch in name:
        if _unsafe(ch):
            return f"a name cannot contain the control or format character U+{ord(ch):04X}"
    if not name.strip():
        return "a name cannot be blank"
    return ""


def option_value(value: object) -> str:
    """An option's value as it is written everywhere (``host``, ``list``, ``join``, ``sim``,
    ``games`` and the mDNS record): a boolean as ``true`` / ``false``, as typed after ``-o``;
    anything else as its text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def options_text(options: Iterable[tuple[str, object]]) -> str:
    """Options as one line: ``ante=20, blind=false``, in the order given."""
    return ", ".join(f"{name}={option_value(value)}" for name, value in options)


__all__ = ["ELLIPSIS", "MAX_NAME", "REPLACEMENT", "name_problem", "option_value", "options_text", "shown"]
