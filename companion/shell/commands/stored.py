"""The games database of the data directory, opened for a command, its notice said."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from companion.core import i18n
from companion.storage import (
    LEDGER_FINDINGS,
    Storage,
    StorageError,
    default_data_dir,
    kept_findings,
)
from companion.storage.findings import signature


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


def game_to_read(
    data_dir: Path | None, asked: int | None, default: Callable[[Storage], int | None]
) -> tuple[Storage, int] | int:
    """The database opened to read and the game a command asked for (``asked``, else
    ``default`` of the storage), or the exit code once the reason is said in one line (no
    database, no game stored, a storage error). The caller closes the storage."""
    try:
        storage = storage_to_read(data_dir)
    except StorageError as error:
        print(f"hanabi-companion: {error}", file=sys.stderr)
        return 1
    if storage is None:
        print("hanabi-companion: no game stored yet", file=sys.stderr)
        return 1
    try:
        game_id = asked if asked is not None else default(storage)
    except StorageError as error:
        storage.close()
        print(f"hanabi-companion: {error}", file=sys.stderr)
        return 1
    if game_id is None:
        storage.close()
        print("hanabi-companion: no game stored yet", file=sys.stderr)
        return 1
    return storage, game_id


#: The findings storage's own notice says already, when they are new at this opening.
_IN_THE_NOTICE = frozenset(
    {
        "database_corrupt_moved_aside",
        "database_foreign_moved_aside",
        "database_newer_moved_aside",
        "journal_orphan_moved_aside",
        "journal_damaged_kept_aside",
    }
)


def storage_notice_in_english(storage: Storage) -> str | None:
    """What the command line says about the database at opening: storage's own sentences
    (a file moved aside, a damaged journal), then every finding not yet acknowledged (and,
    for a command that only reads, what the ledger finds now), in English."""
    new = storage.findings
    said = [
        i18n.tr("en", f.key, **f.params)
        for f in storage.open_findings
        if not (f.key in _IN_THE_NOTICE and (f.key, f.params) in new)
    ]
    kept = {(f.key, signature(f.key, f.params)) for f in storage.open_findings}
    said += [
        i18n.tr("en", key, **params)
        for key, params in new
        if key in LEDGER_FINDINGS and (key, signature(key, params)) not in kept
    ]
    return " · ".join(filter(None, [storage.notice, *said])) or None


def unseen_findings(data_dir: Path | None, storage: Storage | None) -> list[str]:
    """The findings no player has acknowledged (OK on the panel), in English."""
    found = (
        kept_findings(data_dir or default_data_dir()) if storage is None else storage.open_findings
    )
    return [i18n.tr("en", f.key, **f.params) for f in found]
