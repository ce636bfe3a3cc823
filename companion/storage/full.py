"""Disk-full detection: telling a full SD card from SQLite's other I/O errors.

The error that says so is :class:`~companion.storage.errors.StorageFullError`.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Final

from companion.storage.errors import StorageFullError

FULL_BELOW_BYTES: Final = 256 * 1024
"""Free space under which an I/O error of SQLite is taken for a full file system."""

_SQLITE_IOERR = 10
_SQLITE_FULL = 13


def _disk_full(directory: Path) -> bool:
    """Whether the file system of ``directory`` has (almost) no room left."""
    try:
        info = os.statvfs(directory)
    except OSError:
        return False
    return info.f_bavail * info.f_frsize < FULL_BELOW_BYTES


def _full_error(directory: Path, what: str) -> StorageFullError:
    return StorageFullError(
        f"The SD card is full: could not {what} in {directory}; free some space"
        " (the games stored so far are kept)"
    )


def _is_full(error: sqlite3.Error, directory: Path) -> bool:
    """Whether SQLite failed for want of space: SQLITE_FULL, or an I/O error on a full disk."""
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    return code == _SQLITE_FULL or (code == _SQLITE_IOERR and _disk_full(directory))
