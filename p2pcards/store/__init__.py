"""The store: what a peer keeps on disk -- its identity, the peers it knows, each game's journal.

The only layer besides ``net`` that does I/O.  It may import only ``wire``.

- ``paths``: the data directory (``$P2PCARDS_HOME`` or the platform's) and its layout.
- ``identity``: this player's Ed25519 key, created on first use, owner-only.
- ``peers``: known peers, trust on first use (``new`` / ``known`` / ``changed``).
- ``journal``: the append-only journal format, torn-tail recovery.
- ``secrets_file``: a seat's per-game secrets, owner-only, written atomically.
- ``game``: ``GameStore``, a game's journal and secrets together.
- ``effects``: ``Effects``, what a room keeps a seat's journal and secrets in (``MemoryStore``).
"""

from .effects import Effects, MemoryStore
from .errors import (
    ForeignJournal,
    InsecureDirectory,
    InsecureFile,
    JournalBusy,
    JournalCorrupt,
    NotAJournal,
    StoreError,
)
from .game import GameStore, saved_games
from .identity import fingerprint, load_or_create
from .journal import Journal, Scan, TornTail
from .paths import HOME_ENV, data_dir
from .peers import Peers, PeersError, Trust
from .secrets_file import Secrets

__all__ = [
    "HOME_ENV",
    "Effects",
    "ForeignJournal",
    "GameStore",
    "InsecureDirectory",
    "InsecureFile",
    "Journal",
    "JournalBusy",
    "JournalCorrupt",
    "MemoryStore",
    "NotAJournal",
    "Peers",
    "PeersError",
    "Scan",
    "Secrets",
    "StoreError",
    "TornTail",
    "Trust",
    "data_dir",
    "fingerprint",
    "load_or_create",
    "saved_games",
]
