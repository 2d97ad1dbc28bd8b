"""This seat's secrets for one game (the coin secret, each hand's deal key), owner-only.

Losing one would leave the seat unable to finish a hand it committed to (and be voted silent), so
``keep`` writes the whole map atomically and durably (temporary file with mode 0600, fsync, rename,
fsync of the directory) before returning.  A label already kept is never overwritten with another
value: the journal holds a commitment to the first one, so a second means a bug in the caller
(a table restarted without its secrets), and refusing keeps the one that matters.

``secrets`` is ``{"version": 1, "secrets": {label: hex}}``.  Only one process writes it at a time:
the game's journal lock (see ``GameStore``) covers it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import StoreError
from .files import PRIVATE_MODE, atomic_write, check_private

FORMAT_VERSION = 1


class Secrets:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)

    def secrets(self) -> dict[str, bytes]:
        """Every secret kept so far (empty if none)."""
        check_private(self.path, "secrets file")
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except (OSError, UnicodeDecodeError) as exc:
            raise StoreError(self.path, f"cannot read the game's secrets: {exc}") from exc
        try:
            return _parse(json.loads(text))
        except ValueError as exc:  # JSONDecodeError is a ValueError
            raise StoreError(self.path, f"the game's secrets file is damaged: {exc}") from exc

    def keep(self, label: str, secret: bytes) -> None:
        """Keep ``secret`` under ``label``, durably, before returning."""
        if not isinstance(label, str) or not label:
            raise ValueError("a secret's label is a non-empty string")
        current = self.secrets()
        held = current.get(label)
        if held == secret:
            return
        if held is not None:
            raise StoreError(
                self.path, f"refusing to replace the secret {label!r} already kept with a different one"
            )
        current[label] = bytes(secret)
        doc = {"version": FORMAT_VERSION, "secrets": {k: v.hex() for k, v in sorted(current.items())}}
        atomic_write(self.path, (json.dumps(doc, indent=1) + "\n").encode("utf-8"), mode=PRIVATE_MODE)


def _parse(doc: Any) -> dict[str, bytes]:
    if not isinstance(doc, dict) or doc.get("version") != FORMAT_VERSION:
        raise ValueError(f'expected {{"version": {FORMAT_VERSION}, "secrets": {{...}}}}')
    entries = doc.get("secrets")
    if not isinstance(entries, dict):
        raise ValueError('"secrets" must be a map of label to hex')
    out: dict[str, bytes] = {}
    for label, value in entries.items():
        if not isinstance(value, str):
            raise ValueError(f"the secret {label!r} is not hex")
        out[label] = bytes.fromhex(value)
    return out
