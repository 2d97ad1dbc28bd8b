"""What both sides of the lobby share: its errors, its limits, how a message and a name are read.

Kept apart from ``lobby`` (the host, which needs the game's node and table) so that a joiner does not
import what it needs only once the game starts.
"""

from __future__ import annotations

from typing import Any, Final

from p2pcards.text import name_problem
from p2pcards.wire import DecodeError, decode

MAX_LOBBY_MESSAGE: Final = 32 * 1024
"""A lobby message's limit (a link refuses a longer frame before buffering it)."""
MAX_REASON: Final = 200
"""A refusal reason is cut to this many characters."""


class LobbyError(Exception):
    """The lobby could not be joined or did not start (the message says why, for people).

    ``refusal`` is the reason the other side gave when it turned the connection away in its
    handshake (``wrong join code``, ``join code required``, a busy host's own words), for a
    program to act on; "" otherwise."""

    def __init__(self, message: str, *, refusal: str = "") -> None:
        super().__init__(message)
        self.refusal = refusal


class GameStarted(LobbyError):
    """The table's game has already started.  ``lobby_id`` and ``host_key`` (both proven by the
    handshake) say which game it is: a player who was seated at it can resume it."""

    def __init__(self, lobby_id: bytes, host_key: bytes) -> None:
        super().__init__("the game at this table has already started")
        self.lobby_id = lobby_id
        self.host_key = host_key


def lobby_message(payload: bytes) -> dict[str, Any] | None:
    try:
        value = decode(payload, max_size=MAX_LOBBY_MESSAGE)
    except DecodeError:
        return None
    return value if isinstance(value, dict) and isinstance(value.get("t"), str) else None


def clean_name(name: Any) -> str | None:
    """A player's name with its spaces tidied, or None if it breaks the rule (``text.name_problem``)."""
    if not isinstance(name, str):
        return None
    text = " ".join(name.split())
    return None if name_problem(text) else text


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


__all__ = [
    "MAX_LOBBY_MESSAGE",
    "MAX_REASON",
    "GameStarted",
    "LobbyError",
    "clean_name",
    "is_int",
    "lobby_message",
]
