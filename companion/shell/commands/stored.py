"""The games database of the data directory, opened for a command, its notice said."""

from __future__ import annotations

import sys
from pathlib import Path

from companion.core import i18n
from companion.storage import LEDGER_FINDINGS, Storage, StorageError, default_data_dir


def open_storage(data_dir: Path | None) -> Storage | None:
    """The games database, opened to write (``run``, ``import``); None after saying on
    stderr why it cannot be."""
    try:
        storage = Storage.open(data_dir or default_data_dir())
    except StorageError as error:
        print(f"hanabi-companion: {error}", file=sys.stderr)
        return None
    notice = storage_notice_in_english(storage)
    if notice:
        print(f"hanabi-companion: {notice}", file=sys.stderr)
    return storage


def storage_to_read(data_dir: Path | None) -> Storage | None:
    """The games database, opened only to read (``history``, ``export``): a read-only
    command creates, moves and writes nothing. None: no game was ever stored there.
    Raises :class:`~companion.storage.StorageError` (one sentence)."""
    storage = Storage.open_existing(data_dir or default_data_dir())
    notice = None if storage is None else storage_notice_in_english(storage)
    if notice:
        print(f"hanabi-companion: {notice}", file=sys.stderr)
    return storage


def storage_notice_in_english(storage: Storage) -> str | None:
    """What the command line says about the database at opening: storage's own sentences
    (a file moved aside, a damaged journal), then what the ledger found, in English."""
    said = [
        i18n.tr("en", key, **params)
        for key, params in storage.findings
        if key in LEDGER_FINDINGS  # the others are in storage's own sentences already
    ]
    return " · ".join(filter(None, [storage.notice, *said])) or None
