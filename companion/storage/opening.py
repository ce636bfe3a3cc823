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
    _aside_target,
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
from companion.storage.findings import FINDINGS_NAME, FindingsFile, Keeper, kept_findings
from companion.storage.ledger import (
    LEDGER_NAME,
    Ledger,
    LedgerState,
    _compare_with_ledger,
    _ledger_state,
)
from companion.storage.schema import SCHEMA_VERSION, _create_schema, _upgrade_schema
from companion.vocabulary.records import Finding

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
    #: The findings kept (None for a file only read).
    keeper: Keeper | None = None
    #: The findings no player has acknowledged yet (for a file only read).
    open_findings: list[Finding] = []


def _open_file(data_dir: Path, path: Path, clock: Callable[[], datetime]) -> Opened:
    """Open (or create) the database at ``path`` for writing, setting aside a file that is
    not a usable games database (see :meth:`Storage.open <companion.storage.Storage.open>`).

    Every finding is kept in ``games.findings`` the moment it is found, before what could
    erase its evidence (the file moved aside, the ledger rewritten): a power cut at any
    moment of the opening loses none (docs/decisions 0089)."""
    keeper = Keeper(data_dir, clock)
    verdict = _examine(path)  # read-only: the journal is not touched
    notice: str | None = None
    journal_copy: Path | None = None
    if verdict.kind == "ours":
        # Before our connection: SQLite would quietly stop at a damaged frame, and
        # reuse the journal from its start at the next write.
        journal_copy, notice = _keep_damaged_journal(path, clock)
        if journal_copy is not None:
            keeper.add([("journal_damaged_kept_aside", {"copy": journal_copy.name})])
    elif verdict.kind in ("corrupt", "foreign", "newer"):
        notice = _set_aside(keeper, verdict, path, clock)
    elif verdict.kind == "new":

        def announce(names: list[str]) -> None:
            keeper.add([("journal_orphan_moved_aside", {"copy": ", ".join(names)})])

        orphans = _set_aside_orphans(path, clock, announce)
        if orphans:
            notice = (
                f"A journal file was left without its games database; it was moved aside"
                f" to {', '.join(orphans)} and a new database started"
            )
    if verdict.kind != "ours":
        _create_private(path)  # none there (or 0 bytes, kept as they are)
    ledger = _open_ledger(data_dir)
    try:
        connection = _prepare(data_dir, path, verdict)
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
        notice = _set_aside(keeper, verdict, path, clock)
        _create_private(path)
        try:
            connection = _prepare(data_dir, path, verdict)
        except BaseException:
            ledger.close()
            raise
    try:
        if verdict.kind in ("new", "ours"):
            # Said in findings only: the caller words them (companion.shell).
            keeper.add(_witnessed(connection, keeper, ledger, path, verdict))
        # Both copies joined and written before the ledger is: its old note is the evidence.
        in_db = keeper.join_database(connection)
        now = _ledger_state(connection)
        keeper.witness(now.games, now.last_id)
        keeper.save(connection, in_db=in_db)  # nothing written when both already agree
        ledger.write(_ledger_state(connection))
    except StorageError:  # the findings file could not be written: said as it is
        ledger.close()
        connection.close()
        raise
    except (OSError, sqlite3.Error) as error:
        ledger.close()
        connection.close()
        raise StorageError(
            f"Could not check the games database {path} against its ledger:"
            f" {getattr(error, 'strerror', None) or error}"
        ) from error
    return Opened(connection, notice, keeper.new, ledger, journal_copy, keeper=keeper)


def _open_ledger(data_dir: Path) -> Ledger:
    """The ledger beside the database, open for writing."""
    try:
        return Ledger(data_dir / LEDGER_NAME)
    except OSError as error:
        raise StorageError(
            f"The file {data_dir / LEDGER_NAME} cannot be written"
            f" ({error.strerror or error}), so the games cannot be saved;"
            " check its owner and permissions"
        ) from error


def _prepare(data_dir: Path, path: Path, verdict: _Verdict) -> sqlite3.Connection:
    """Connect to the file at ``path``, create or upgrade its schema, and read what the
    ledger's comparison reads. Whatever the file's bytes provoke is raised as it is (the
    caller tells damage from the rest)."""
    connection = _connect(path)
    try:
        if verdict.kind != "ours":
            _create_schema(connection, path)
            _fsync_directory(data_dir)
        elif verdict.version < SCHEMA_VERSION:
            _upgrade_schema(connection, path)
        _ledger_state(connection)  # the rows the comparison reads: damage there is met here
    except BaseException:
        connection.close()
        raise
    return connection


def _set_aside(keeper: Keeper, verdict: _Verdict, path: Path, clock: Callable[[], datetime]) -> str:
    """Move a file that is not ours aside, its finding kept first; returns the notice."""
    target = _aside_target(path, verdict.kind, _file_stamp(clock))
    keeper.add([(f"database_{verdict.kind}_moved_aside", {"copy": target.name})])
    moved = _move_aside(path, verdict.kind, "", target)  # with its journal
    return _moved_notice(verdict, path, moved)


def _witnessed(
    db: sqlite3.Connection, keeper: Keeper, ledger: Ledger, path: Path, verdict: _Verdict
) -> list[tuple[str, dict[str, object]]]:
    """What the ledger and the findings file, each a witness of the database, find lost.

    The ledger says what the file held at its last write; with the ledger gone (deleted,
    emptied, damaged), the findings file's witness (the games at the last opening or new
    game) still says a database emptied or games deleted, and the ledger's loss is itself
    a finding when the database holds games (docs/decisions 0089)."""
    (games,) = db.execute("SELECT COUNT(*) FROM games").fetchone()
    found: list[tuple[str, dict[str, object]]] = []
    if ledger.damaged:
        log.warning("The ledger %s was damaged; it is written anew", ledger.path)
        found.append(("ledger_damaged", {}))
    elif ledger.state is None and games and verdict.version >= 3:
        log.warning("The ledger %s is missing beside %d games", ledger.path, games)
        found.append(("ledger_missing", {}))
    if keeper.file.status != "ok" and keeper.join_database(db) is not None:
        # The database remembers the file; the file is gone or damaged.
        found.append(("findings_file_lost", {}))
    before = ledger.state
    witness = keeper.file.kept
    if before is None and witness is not None and witness.games:
        before = LedgerState(witness.games, witness.last_id)
    found.extend(_compare_with_ledger(db, before, path, verdict.kind))
    return found


def _open_to_read(data_dir: Path, path: Path) -> Opened | None:
    """Open the database at ``path`` only to read it; None if no game was ever stored there
    (see :meth:`Storage.open_existing <companion.storage.Storage.open_existing>`)."""
    verdict = _examine(path)
    ledger = Ledger.look(data_dir / LEDGER_NAME)  # only read: compared, never written
    if ledger is None:  # the findings file witnesses the games too
        witness = FindingsFile(data_dir / FINDINGS_NAME).kept
        if witness is not None and witness.games:
            ledger = LedgerState(witness.games, witness.last_id)
    if verdict.kind == "new":
        if ledger is not None and ledger.games:
            raise StorageError(
                f"The games database {path} is empty or missing, though it"
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
    try:
        kept = kept_findings(data_dir, connection)
    except sqlite3.Error:
        kept = kept_findings(data_dir)
    return Opened(connection, notice, findings, chained=verdict.version >= 3, open_findings=kept)
