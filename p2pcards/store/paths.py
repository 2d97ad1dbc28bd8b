"""Where the store keeps its files.

The data directory is ``platformdirs.user_data_dir("p2pcards")`` unless the environment variable
``P2PCARDS_HOME`` names another one (tests, several players on one machine, a USB stick)::

    <home>/identity.key                  this player's Ed25519 seed (32 bytes, mode 0600)
    <home>/peers.json                    known peers, trust on first use
    <home>/games/<game id hex>/journal   the append-only journal of a game's accepted messages
    <home>/games/<game id hex>/secrets   this seat's secrets for the game (mode 0600)

Every function takes an optional ``home`` so callers (and tests) can point elsewhere explicitly.

The data directory holds this player's key and every game's secrets, so ``ensure_private_dir``
refuses one that other users could write to, and any symbolic link inside it (see ``check_dir``).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import platformdirs

from .errors import InsecureDirectory, StoreError
from .files import fsync_dir

_POSIX = os.name == "posix"
GAMES = "games"

HOME_ENV = "P2PCARDS_HOME"
APP_NAME = "p2pcards"
GAME_ID_SIZE = 32


def data_dir(home: Path | str | None = None) -> Path:
    """The store's root: ``home`` if given, else ``$P2PCARDS_HOME``, else the platform's user data dir."""
    if home is not None:
        return Path(home)
    override = os.environ.get(HOME_ENV)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME))


def identity_path(home: Path | str | None = None) -> Path:
    return data_dir(home) / "identity.key"


def peers_path(home: Path | str | None = None) -> Path:
    return data_dir(home) / "peers.json"


def games_dir(home: Path | str | None = None) -> Path:
    return data_dir(home) / GAMES


def game_dir(game_id: bytes, home: Path | str | None = None) -> Path:
    if len(game_id) != GAME_ID_SIZE:
        raise ValueError(f"a game id is {GAME_ID_SIZE} bytes, not {len(game_id)}")
    return games_dir(home) / game_id.hex()


def journal_path(game_id: bytes, home: Path | str | None = None) -> Path:
    return game_dir(game_id, home) / "journal"


def secrets_path(game_id: bytes, home: Path | str | None = None) -> Path:
    return game_dir(game_id, home) / "secrets"


def ensure_private_dir(path: Path) -> Path:
    """Create ``path`` and any missing parents owner-only (each one durably: its entry in its parent
    is fsynced, so a power cut cannot lose a game's directory with its journal), after checking the
    directories that already exist (``check_dir``).

    The data directory ``path`` lies in is found from the layout: a game's directory
    (``<home>/games/<id>`` and anything below it) belongs to ``<home>``; any other ``path`` is taken
    to be the data directory itself.  The data directory may be a symbolic link (to a USB stick, say);
    nothing inside it may, or a game's journal and secrets could be sent to a directory that others
    can read or write."""
    root = _data_root(path)
    inside = [] if root == path else list(path.relative_to(root).parts)
    _create_missing(root)
    check_dir(root, data_root=True)
    current = root
    for part in inside:
        current = current / part
        try:
            current.mkdir(mode=0o700)
        except FileExistsError:
            check_dir(current, data_root=False)
        else:
            fsync_dir(current.parent)
    return path


def check_dir(path: Path, *, data_root: bool) -> None:
    """Refuse a directory of the store that others could tamper with: ``InsecureDirectory`` (or
    ``StoreError`` for something that is not a directory), saying what to fix.

    Refused: a directory that is not owned by this user, one that its group or everyone may write
    to, and inside the data directory (``data_root`` False) a symbolic link."""
    if not _POSIX:
        return
    what = "the data directory" if data_root else "a directory of the data directory"
    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode):
            if not data_root:
                target = os.readlink(path)
                raise InsecureDirectory(
                    path,
                    f"{what} is a symbolic link (to {target}); a game's journal and secrets must stay "
                    f"inside the data directory: remove the link (`rm {path}`) and start or resume the "
                    "game again",
                )
            st = os.stat(path)
    except FileNotFoundError:
        raise StoreError(path, f"{what} does not exist") from None
    if not stat.S_ISDIR(st.st_mode):
        raise StoreError(path, f"{what} is not a directory: move it away")
    fix = f"or set {HOME_ENV} to a directory of your own"
    if st.st_uid != os.geteuid():
        raise InsecureDirectory(
            path,
            f"{what} belongs to another user (uid {st.st_uid}), who could replace your identity key, "
            f"your known peers or a game's journal: use a directory of your own ({fix.removeprefix('or ')})",
        )
    if st.st_mode & 0o022:
        who = "everyone" if st.st_mode & 0o002 else "its group"
        raise InsecureDirectory(
            path,
            f"{what} is writable by {who} (mode {stat.S_IMODE(st.st_mode):04o}), who could replace "
            f"your identity key, your known peers or a game's journal: run `chmod 700 {path}`, {fix}",
        )


def check_data_dir(home: Path | str | None = None) -> Path:
    """The data directory, checked as ``check_dir`` does if it exists (nothing is created)."""
    root = data_dir(home)
    if root.exists() or root.is_symlink():
        check_dir(root, data_root=True)
    return root


def _data_root(path: Path) -> Path:
    for candidate in (path, *path.parents):
        parent = candidate.parent
        if parent.name == GAMES and parent != candidate and _is_game_id(candidate.name):
            return parent.parent
    return path


def _is_game_id(name: str) -> bool:
    return len(name) == 2 * GAME_ID_SIZE and all(c in "0123456789abcdef" for c in name)


def _create_missing(directory: Path) -> None:
    missing: list[Path] = []
    probe = directory
    while not (probe.exists() or probe.is_symlink()) and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    for created in reversed(missing):
        created.mkdir(mode=0o700, exist_ok=True)
        fsync_dir(created.parent)
