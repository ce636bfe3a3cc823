"""The in-process registry of open databases: one handle on a file per process.

POSIX drops every lock a process holds on a file when *any* of its descriptors on that file
is closed, so a second handle closed would leave SQLite's live journal unguarded (another
program would then take it for its own and delete it). A file this process has open for
writing is registered here, and a second :meth:`~companion.storage.Storage.open` or
:meth:`~companion.storage.Storage.open_existing` of it is refused: another thread reads it
through :meth:`~companion.storage.Storage.reader`.
"""

from __future__ import annotations

import threading
from pathlib import Path

from companion.storage.errors import StorageError

#: The handles (:class:`~companion.storage.Storage`) that have a database open for writing
#: in this process, by the file's (device, inode): see ``Storage.reader`` for why nothing
#: else of the process may open those files.
_OPEN_HERE: dict[tuple[int, int], object] = {}
_OPEN_HERE_LOCK = threading.Lock()


def _file_key(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _register(path: Path, owner: object) -> None:
    """Note that ``owner`` has the database at ``path`` open for writing."""
    key = _file_key(path)
    if key is not None:
        with _OPEN_HERE_LOCK:
            _OPEN_HERE[key] = owner


def _unregister(owner: object) -> None:
    """Forget ``owner``'s file: it was closed."""
    with _OPEN_HERE_LOCK:
        for key, held in list(_OPEN_HERE.items()):
            if held is owner:
                del _OPEN_HERE[key]


def _refuse_second_handle(path: Path) -> None:
    """Refuse to look at a file this process already has open (:meth:`Storage.reader`)."""
    key = _file_key(path)
    with _OPEN_HERE_LOCK:
        if key is not None and key in _OPEN_HERE:
            raise StorageError(
                f"The games database {path} is already open in this process: read it through"
                " Storage.reader(), never a second handle (closing one drops the locks)"
            )
