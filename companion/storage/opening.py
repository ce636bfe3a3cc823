"""Opening the games database of a data directory, for writing or only to read.

What is found at its path is examined, set aside if it is not ours, created or upgraded,
and compared with the ledger; for the read-only commands, only read.

The :class:`~companion.storage.Storage` constructors call these and wrap what they return.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from msgspec import Struct

from companion.storage.damage import (
    _damage_reason,
    _examine,
    _journal_damage,
    _keep_damaged_journal,
    _move_aside,
    _moved_notice,
    _read_only_uri,
    _set_aside_orphans,
    _side_file,
    _Verdict,
)
from companion.storage.errors import StorageError
from companion.storage.files import (
    _connect,
    _connect_to_read,
    _create_private,
    _file_stamp,
    _fsync_directory,
)
from companion.storage.ledger import LEDGER_NAME, Ledger, _compare_with_ledger, _ledger_state
from companion.storage.schema import SCHEMA_VERSION, _create_schema, _upgrade_schema

log = logging.getLogger("hanabi-companion.storage")


class Opened(Struct):
    """A database file opened: its connection, and what was found and done at opening."""

    connection: sqlite3.Connection
    #: Storage's own sentences about the file found (moved aside, a damaged journal).
    notice: str | None = None
    #: What was found, as the app's sentences (key, parameters).
    findings: list[tuple[str, dict[str, object]]] = []
    #: The ledger, open for writing (None for a file only read).
    ledger: Ledger | None = None
    #: The copy of a damaged journal kept aside.
    journal_copy: Path | None = None
    #: Whether the file holds the chain of schema 3.
    chained: bool = True


def _open_file(data_dir: Path, path: Path, clock: Callable[[], datetime]) -> Opened:
    """Open (or create) the database at ``path`` for writing, setting aside a file that is
    not a usable games database (see :meth:`Storage.open <companion.storage.Storage.open>`)."""
    verdict = _examine(path)  # read-only: the journal is not touched
    notice: str | None = None
    journal_copy: Path | None = None
    findings: list[tuple[str, dict[str, object]]] = []
    if verdict.kind == "ours":
        # Before our connection: SQLite would quietly stop at a damaged frame, and
        # reuse the journal from its start at the next write.
        journal_copy, notice = _keep_damaged_journal(path, clock)
    elif verdict.kind in ("corrupt", "foreign", "newer"):
        moved = _move_aside(path, verdict.kind, _file_stamp(clock))  # with its journal
        notice = _moved_notice(verdict, path, moved)
        findings.append((f"database_{verdict.kind}_moved_aside", {"copy": moved.name}))
    elif verdict.kind == "new":
        orphans = _set_aside_orphans(path, clock)
        if orphans:
            notice = (
                f"A journal file was left without its games database; it was moved aside"
                f" to {', '.join(orphans)} and a new database started"
            )
            findings.append(("journal_orphan_moved_aside", {"copy": ", ".join(orphans)}))
    if verdict.kind != "ours":
        _create_private(path)  # none there (or 0 bytes, kept as they are)
    ledger = _open_ledger(data_dir)
    try:
        connection, found = _prepare(data_dir, path, verdict, ledger)
    except Exception as error:
        reason = _damage_reason(error)
        if verdict.kind != "ours" or reason is None:
            ledger.close()
            if isinstance(error, sqlite3.Error):  # busy, full, unreadable: said, not moved
                raise StorageError(
                    f"Could not check the games database {path} against its ledger: {error}"
                ) from error
            raise
        # Damage the read-only look did not meet (SQLite reads the schema lazily, and
        # its report on damaged schema text may not even be text).
        verdict = _Verdict("corrupt", reason)
        moved = _move_aside(path, verdict.kind, _file_stamp(clock))
        notice = _moved_notice(verdict, path, moved)
        findings.append((f"database_{verdict.kind}_moved_aside", {"copy": moved.name}))
        _create_private(path)
        try:
            connection, found = _prepare(data_dir, path, verdict, ledger)
        except BaseException:
            ledger.close()
            raise
    findings.extend(found)
    return Opened(connection, notice, findings, ledger, journal_copy)


def _open_ledger(data_dir: Path) -> Ledger:
    """The ledger beside the database, open for writing."""
    try:
        ledger = Ledger(data_dir / LEDGER_NAME)
    except OSError as error:
        raise StorageError(
            f"The file {data_dir / LEDGER_NAME} cannot be written"
            f" ({error.strerror or error}), so the games cannot be saved;"
            " check its owner and permissions"
        ) from error
    if ledger.damaged:  # the checks start again from the file as it is
        log.warning("The ledger %s was damaged; it is written anew", ledger.path)
    return ledger


def _prepare(
    data_dir: Path, path: Path, verdict: _Verdict, ledger: Ledger
) -> tuple[sqlite3.Connection, list[tuple[str, dict[str, object]]]]:
    """Connect to the file at ``path``, create or upgrade its schema, compare it with the
    ledger and note it there; the connection and what the comparison found. Whatever the
    file's bytes provoke is raised as it is (the caller tells damage from the rest)."""
    connection = _connect(path)
    try:
        if verdict.kind != "ours":
            _create_schema(connection, path)
            _fsync_directory(data_dir)
        elif verdict.version < SCHEMA_VERSION:
            _upgrade_schema(connection, path)
        findings: list[tuple[str, dict[str, object]]] = []
        if verdict.kind in ("new", "ours"):
            # Said in findings only: the caller words them (companion.shell).
            findings = _compare_with_ledger(connection, ledger.state, path, verdict.kind)
        state = _ledger_state(connection)
    except BaseException:
        connection.close()
        raise
    try:
        ledger.write(state)
    except OSError as error:
        connection.close()
        raise StorageError(
            f"Could not check the games database {path} against its ledger:"
            f" {error.strerror or error}"
        ) from error
    return connection, findings


def _open_to_read(data_dir: Path, path: Path) -> Opened | None:
    """Open the database at ``path`` only to read it; None if no game was ever stored there
    (see :meth:`Storage.open_existing <companion.storage.Storage.open_existing>`)."""
    verdict = _examine(path)
    ledger = Ledger.look(data_dir / LEDGER_NAME)  # only read: compared, never written
    if verdict.kind == "new":
        if ledger is not None and ledger.games:
            raise StorageError(
                f"The games database {path} is empty or missing, though its ledger says it"
                f" held {ledger.games} games; it was left as it is"
            )
        return None
    if verdict.kind != "ours":
        why = {
            "corrupt": f"is damaged ({verdict.reason})",
            "foreign": f"belongs to another program ({verdict.reason})",
        }.get(
            verdict.kind,
            f"was written by a newer companion (schema {verdict.reason},"
            f" this one reads {SCHEMA_VERSION})",
        )
        raise StorageError(
            f"The games database {path} {why}; it was left as it is"
            " (the companion moves it aside when it next starts)"
        )
    wal = _side_file(path, "-wal")
    try:
        damage = _journal_damage(wal.read_bytes())
    except OSError:  # none (the usual case), or unreadable: SQLite says so below
        damage = None
    try:
        connection = _connect_to_read(_read_only_uri(path))
    except sqlite3.Error as error:
        raise StorageError(f"Could not open the games database {path}: {error}") from error
    notice = None
    if damage:
        notice = (
            f"The journal {wal.name} is damaged ({damage}): the last actions saved may"
            " be missing here; the companion keeps a copy of it when it next starts"
        )
    findings: list[tuple[str, dict[str, object]]] = []
    if verdict.version >= 3:  # an older file has no ledger yet (written from schema 3)
        try:
            findings = _compare_with_ledger(connection, ledger, path, "ours", quiet=True)
        except sqlite3.Error:
            findings = []  # damage there is named by the reads that meet it
    return Opened(connection, notice, findings, chained=verdict.version >= 3)
