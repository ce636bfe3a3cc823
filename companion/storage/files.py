"""The data directory and the database file on disk.

Where they are, creating them for their owner only, connecting to the file as storage does,
making a rename survive a power cut, and the time stamps written in the file and in the
names of files set aside.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

from companion.storage.errors import StorageError

BUSY_TIMEOUT_MS: Final = 5000
"""How long a statement waits for another connection's lock before failing."""

#: How the database writes a time (UTC, to the second): as text, it sorts as time does.
_STAMP = "%Y-%m-%dT%H:%M:%SZ"


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _as_utc(moment: datetime) -> datetime:
    """A naive time from the clock is taken as UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _file_stamp(clock: Callable[[], datetime]) -> str:
    """The time stamp in the name of a file moved aside, e.g. ``20261121T101500Z``."""
    return _as_utc(clock()).strftime("%Y%m%dT%H%M%SZ")


def _ensure_directory(data_dir: Path) -> None:
    """Create the data directory if needed: its owner's only (0700), as systemd makes the
    service's; a directory that exists keeps its modes."""
    try:
        data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    except FileExistsError:
        raise StorageError(
            f"The data directory {data_dir} is a file, not a directory; the games cannot be saved"
        ) from None
    except OSError as error:
        raise StorageError(
            f"Could not create the data directory {data_dir}: {error.strerror or error}"
        ) from error
    if not os.access(data_dir, os.W_OK | os.X_OK):
        raise StorageError(
            f"The data directory {data_dir} is not writable, so the games cannot be saved;"
            " check its owner and permissions"
        )


def _create_private(path: Path) -> None:
    """Create the database file its owner's only (0600) before SQLite does (it would make it
    0644); SQLite gives its -wal and -shm files the database's modes."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o600))
    except OSError as error:
        raise StorageError(
            f"Could not create the games database {path}: {error.strerror or error}"
        ) from error


def _connect(path: Path) -> sqlite3.Connection:
    """Our connection: WAL, ``synchronous=FULL``, foreign keys, a busy timeout, explicit commits."""
    try:
        # isolation_level=None: no implicit BEGIN; every transaction is explicit (see
        # Storage._transaction) and committed before the method returns.
        db = sqlite3.connect(
            path,
            timeout=BUSY_TIMEOUT_MS / 1000,
            isolation_level=None,
            check_same_thread=False,
        )
    except sqlite3.Error as error:
        raise StorageError(f"Could not open the games database {path}: {error}") from error
    try:
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
    except sqlite3.Error as error:
        db.close()
        raise StorageError(f"Could not open the games database {path}: {error}") from error
    return db


def _connect_to_read(uri: str) -> sqlite3.Connection:
    """A connection that only reads (``uri`` says how: ``mode=ro`` or ``immutable``), for
    another thread or a read-only command; :class:`sqlite3.Error` if it cannot be opened."""
    return sqlite3.connect(
        uri,
        uri=True,
        timeout=BUSY_TIMEOUT_MS / 1000,
        isolation_level=None,
        check_same_thread=False,
    )


def _connect_reader(path: Path) -> sqlite3.Connection:
    """The read-only connection of :meth:`Storage.reader <companion.storage.Storage.reader>`:
    it reads the journal too (``mode=ro``), and waits for a writer as ours do."""
    connection = _connect_to_read(path.resolve().as_uri() + "?mode=ro")
    connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return connection


def _fsync_directory(directory: Path) -> None:
    """Make a created or renamed file's directory entry survive a power cut."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def default_data_dir() -> Path:
    """``$STATE_DIRECTORY`` under systemd, else ``$XDG_STATE_HOME/hanabi-companion``."""
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return Path(state.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "hanabi-companion"
