"""The games database of the data directory, opened for a command, its notice said."""

from __future__ import annotations

import sys
from pathlib import Path

from companion.storage import Storage, StorageError, default_data_dir


def open_storage(data_dir: Path | None) -> Storage | None:
    """The games database, opened to write (``run``, ``import``); None after saying on
    stderr why it cannot be."""
    try:
        storage = Storage.open(data_dir or default_data_dir())
    except StorageError as error:
        print(f"hanabi-companion: {error}", file=sys.stderr)
        return None
    if storage.notice:
        print(f"hanabi-companion: {storage.notice}", file=sys.stderr)
    return storage


def storage_to_read(data_dir: Path | None) -> Storage | None:
    """The games database, opened only to read (``history``, ``export``): a read-only
    command creates, moves and writes nothing. None: no game was ever stored there.
    Raises :class:`~companion.storage.StorageError` (one sentence)."""
    storage = Storage.open_existing(data_dir or default_data_dir())
    if storage is not None and storage.notice:
        print(f"hanabi-companion: {storage.notice}", file=sys.stderr)
    return storage
