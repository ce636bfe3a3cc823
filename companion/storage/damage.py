"""Damaged and foreign files: what is at the database path, and setting aside what is not ours.

Before the file is used it is examined and probed read-only; one that is not ours is moved
aside with its side files. The write-ahead log's checksums are read, and a copy of a damaged
journal kept; a journal left without its database is set aside.

Nothing here overwrites a file: what cannot be used is renamed, and the sentences for the
screen and the command line say where it went.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import struct
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from msgspec import Struct

from companion.storage.errors import StorageError
from companion.storage.files import BUSY_TIMEOUT_MS, _file_stamp, _fsync_directory
from companion.storage.schema import (
    _INTEGRITY_PROBES,
    _SCHEMA_PROBES,
    _TABLES,
    _TALLY_PROBES,
    APPLICATION_ID,
    SCHEMA_VERSION,
    _schema_changed,
)

log = logging.getLogger("hanabi-companion.storage")

_SQLITE_MAGIC = b"SQLite format 3\x00"
_HEADER_SIZE = 100
_APPLICATION_ID_OFFSET = 68
_SIDE_FILES = ("-wal", "-shm", "-journal")
#: Errors of SQLite that say nothing about the file (busy, locked, no memory, I/O, no
#: permission, read-only, full, cannot open, interrupted): any other error met while
#: reading our own file means its bytes are damaged.
_NOT_DAMAGE = frozenset({3, 5, 6, 7, 8, 9, 10, 13, 14, 15, 23})


def _is_damage(error: sqlite3.DatabaseError) -> bool:
    """Whether an error of SQLite reading our file means its bytes are damaged."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is None:
        return isinstance(error, sqlite3.DataError | sqlite3.IntegrityError)
    return code & 0xFF not in _NOT_DAMAGE


def _damage_reason(error: BaseException) -> str | None:
    """Why ``error``, met while opening or reading our own file, means its bytes are
    damaged; None if it says nothing about them (a busy file, a full card, no permission).

    SQLite's error about damaged schema text may itself hold those bytes, so Python
    raises :class:`UnicodeDecodeError` instead of :class:`sqlite3.DatabaseError`; that,
    and any exception the file's contents can provoke, is damage too.
    """
    if isinstance(error, StorageError):
        cause = error.__cause__
        return None if cause is None else _damage_reason(cause)
    if isinstance(error, UnicodeError):
        return "SQLite's report on it holds bytes that are not text"
    if isinstance(error, sqlite3.DatabaseError):
        return str(error) if _is_damage(error) else None
    if isinstance(error, OSError | MemoryError | sqlite3.Error) or not isinstance(error, Exception):
        return None  # the card, the system, or an interruption: not the file's bytes
    log.warning("Reading the games database raised %r; it is taken as damage", error)
    return f"reading it raised {type(error).__name__}: {error}"


class _Verdict(Struct, frozen=True):
    """What :func:`_examine` found at the database path."""

    kind: str  # "new", "ours", "corrupt", "foreign" or "newer"
    reason: str = ""
    #: The schema version of a file that is ours (an older one is upgraded at opening).
    version: int = SCHEMA_VERSION


def _side_file(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def _examine(path: Path) -> _Verdict:
    """Decide, without modifying it, whether ``path`` is our database, a new one, or not ours."""
    try:
        info = path.stat()
    except FileNotFoundError:
        return _Verdict("new")
    except OSError as error:
        raise StorageError(
            f"Could not read the games database {path}: {error.strerror or error}"
        ) from error
    if not path.is_file():
        raise StorageError(f"{path} is not a regular file; move it away to store games there")
    if info.st_size == 0:
        return _Verdict("new")
    try:
        with path.open("rb") as file:
            head = file.read(_HEADER_SIZE)
    except OSError as error:
        raise StorageError(
            f"Could not read the games database {path}: {error.strerror or error}"
        ) from error
    if len(head) < _HEADER_SIZE or not head.startswith(_SQLITE_MAGIC):
        return _Verdict("corrupt", "it is not a database file")
    # Our files carry the id in their header; a file another program marked is
    # judged without SQLite ever opening it.
    header_id = int.from_bytes(head[_APPLICATION_ID_OFFSET : _APPLICATION_ID_OFFSET + 4], "big")
    if header_id not in (0, APPLICATION_ID):
        return _Verdict("foreign", f"application id 0x{header_id:08X}")
    for part in (path, _side_file(path, "-wal"), _side_file(path, "-shm")):
        if part.exists() and not os.access(part, os.R_OK | os.W_OK):
            # Said before SQLite opens it: a read-only connection would leave -wal and -shm
            # files behind with the database's modes, read-only, and every later write
            # would fail once the database itself is writable again.
            what = "games database" if part == path else "journal file"
            raise StorageError(
                f"The {what} {part} is read-only, so the games cannot be saved;"
                " check its owner and permissions"
            )
    return _probe(path)


def _probe(path: Path) -> _Verdict:
    """Look inside with a read-only connection (it never checkpoints, so never writes)."""
    try:
        probe = sqlite3.connect(_read_only_uri(path), uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error as error:
        raise StorageError(f"Could not open the games database {path}: {error}") from error
    try:
        (application_id,) = probe.execute("PRAGMA application_id").fetchone()
        (version,) = probe.execute("PRAGMA user_version").fetchone()
        tables = {
            name for (name,) in probe.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        if application_id != APPLICATION_ID:
            if application_id == 0 and version == 0 and not tables:
                return _Verdict("new")  # an empty database, e.g. creation cut short
            what = (
                f"application id 0x{application_id:08X}" if application_id else "no application id"
            )
            listed = ", ".join(sorted(tables)[:3]) or "none"
            return _Verdict("foreign", f"{what}, tables: {listed}")
        if version > SCHEMA_VERSION:
            return _Verdict("newer", str(version))
        if version < 1 or not tables >= _TABLES:
            return _Verdict("corrupt", "its tables are incomplete")
        schema = probe.execute("SELECT CAST(sql AS BLOB) FROM sqlite_master WHERE sql NOT NULL")
        if not all(sql.isascii() for (sql,) in schema):  # ours is ASCII: a byte was changed
            return _Verdict("corrupt", "its schema holds bytes that are not text")
        changed = _schema_changed(probe, version)
        if changed:  # still SQL, but not ours: it may refuse our own writes
            return _Verdict("corrupt", f"its schema was changed ({', '.join(changed[:3])})")
        # No whole-file check here: it reads every page (Storage.check, decision 0090).
        probes = _SCHEMA_PROBES + (_INTEGRITY_PROBES if version >= 3 else ())
        probes += _TALLY_PROBES if version >= 5 else ()
        for query in probes:  # a column renamed by damaged bytes in the schema
            probe.execute(query).fetchall()
        return _Verdict("ours", version=version)
    except UnicodeDecodeError:
        return _Verdict("corrupt", "its list of tables holds bytes that are not text")
    except Exception as error:
        reason = _damage_reason(error)
        if reason is not None:
            return _Verdict("corrupt", reason)
        if isinstance(error, sqlite3.Error):
            raise StorageError(f"Could not read the games database {path}: {error}") from error
        raise
    finally:
        probe.close()


def _read_only_uri(path: Path) -> str:
    """The URI that reads ``path`` and writes nothing, not even a journal beside it.

    Without a ``-wal`` file no connection has the database open (SQLite removes it with
    the last one), so the file alone is the whole database: ``immutable`` reads it
    without creating ``-wal``/``-shm``. With one, ``mode=ro`` reads the journal too.
    """
    uri = path.resolve().as_uri()
    return uri + ("?mode=ro" if _side_file(path, "-wal").exists() else "?immutable=1")


def _aside_target(path: Path, kind: str, stamp: str) -> Path:
    """Where :func:`_move_aside` puts the database: ``<name>.<kind>-<stamp>[-N]``, free."""
    base = f"{path.name}.{kind}-{stamp}"
    target = path.with_name(base)
    number = 1
    while any(_side_file(target, s).exists() for s in ("", *_SIDE_FILES)):
        number += 1
        target = path.with_name(f"{base}-{number}")
    return target


def _move_aside(path: Path, kind: str, stamp: str, target: Path | None = None) -> Path:
    """Rename the database and its side files to ``target`` (by default
    :func:`_aside_target`'s); return it."""
    if target is None:
        target = _aside_target(path, kind, stamp)
    try:
        for suffix in ("", *_SIDE_FILES):
            source = _side_file(path, suffix)
            if source.exists():
                source.rename(_side_file(target, suffix))
    except OSError as error:
        raise StorageError(
            f"The games database {path} cannot be used and could not be moved aside:"
            f" {error.strerror or error}"
        ) from error
    _fsync_directory(path.parent)
    return target


def _moved_notice(verdict: _Verdict, path: Path, moved: Path) -> str:
    """The sentence for a file moved aside: what happened and where the copy is. What SQLite
    reported (an integrity report may run to pages) goes to the log, not to the screen."""
    log.warning("%s moved aside to %s (%s): %s", path, moved.name, verdict.kind, verdict.reason)
    if verdict.kind == "foreign":
        return (
            f"The file {path.name} belonged to another program; it was moved aside to"
            f" {moved.name} and a new games database started"
        )
    if verdict.kind == "newer":
        return (
            f"The games database was written by a newer version of hanabi-companion; it was"
            f" moved aside to {moved.name} and a new one started"
        )
    return (
        f"The games database was damaged; it was moved aside to {moved.name} and a new one started"
    )


_WAL_MAGICS = {0x377F0682: "<", 0x377F0683: ">"}  # the byte order of the checksums
_WAL_HEADER = 32
_WAL_FRAME_HEADER = 24


def _wal_checksum(data: bytes, order: str, s0: int, s1: int) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes), continued from (s0, s1)."""
    words = struct.unpack(f"{order}{len(data) // 4}I", data)
    mask = 0xFFFFFFFF
    for index in range(0, len(words), 2):
        s0 = (s0 + words[index] + s1) & mask
        s1 = (s1 + words[index + 1] + s0) & mask
    return s0, s1


def _journal_damage(wal: bytes) -> str | None:
    """Why SQLite would drop committed transactions of this write-ahead log, or None.

    SQLite reads the log up to the first frame whose checksum fails and ignores the
    rest without a word. That is a crash's torn tail when nothing committed follows;
    but a *commit* frame of this log (its salts) after the break means confirmed
    actions would be dropped: damage, to be said.
    """
    if len(wal) < _WAL_HEADER:
        return None
    magic, _, page_size, _, salt1, salt2, check1, check2 = struct.unpack(">8I", wal[:32])
    order = _WAL_MAGICS.get(magic)
    if order is None or page_size < 512 or page_size & (page_size - 1):
        return "its header is not a journal's" if len(wal) > _WAL_HEADER else None
    s0, s1 = _wal_checksum(wal[:24], order, 0, 0)
    if (s0, s1) != (check1, check2):
        return "its header's checksum is wrong" if len(wal) > _WAL_HEADER else None
    frame_size = _WAL_FRAME_HEADER + page_size
    broken = False
    for offset in range(_WAL_HEADER, len(wal) - frame_size + 1, frame_size):
        frame = wal[offset : offset + frame_size]
        _, commit, frame_salt1, frame_salt2, frame_check1, frame_check2 = struct.unpack(
            ">6I", frame[:24]
        )
        ours = (frame_salt1, frame_salt2) == (salt1, salt2)
        if not broken:
            if ours:
                s0, s1 = _wal_checksum(frame[:8] + frame[24:], order, s0, s1)
                if (s0, s1) == (frame_check1, frame_check2):
                    continue
            broken = True  # SQLite reads no further than this frame
        if ours and commit:  # a committed transaction of this log, beyond the reach
            return f"a frame at byte {offset} or before it is damaged"
    return None


def _keep_damaged_journal(
    path: Path, clock: Callable[[], datetime]
) -> tuple[Path | None, str | None]:
    """Check the write-ahead log left by an unclean stop; keep a copy of a damaged one.

    The copy (``games.db-wal.damaged-<stamp>``) keeps every byte for a later rescue;
    SQLite then recovers what precedes the damage. Returns the copy and the notice.
    """
    wal = _side_file(path, "-wal")
    try:
        data = wal.read_bytes()
    except FileNotFoundError:
        return None, None
    except OSError as error:
        raise StorageError(
            f"Could not read the journal {wal}: {error.strerror or error}"
        ) from error
    reason = _journal_damage(data)
    if reason is None:
        return None, None
    copy = path.with_name(f"{wal.name}.damaged-{_file_stamp(clock)}")
    number = 1
    while copy.exists():
        number += 1
        copy = path.with_name(f"{wal.name}.damaged-{_file_stamp(clock)}-{number}")
    try:
        with copy.open("xb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
    except OSError as error:
        raise StorageError(
            f"The journal {wal} is damaged ({reason}) and could not be copied aside:"
            f" {error.strerror or error}"
        ) from error
    _fsync_directory(path.parent)
    return copy, (
        f"The journal {wal.name} was damaged ({reason}): the last actions saved before the"
        f" stop may be missing; it was kept aside as {copy.name}"
    )


def _set_aside_orphans(
    path: Path,
    clock: Callable[[], datetime],
    announce: Callable[[list[str]], object] | None = None,
) -> list[str]:
    """Move away a journal left without its database: SQLite would replay it into the new one.

    ``announce`` is told the names they will have before any is moved (the finding is kept
    first: a power cut between the two then loses no word of it)."""
    moves: list[tuple[Path, Path]] = []
    for suffix in ("-wal", "-journal"):
        source = _side_file(path, suffix)
        with contextlib.suppress(FileNotFoundError):
            if source.stat().st_size == 0:
                continue
            target = path.with_name(f"{path.name}.orphan-{_file_stamp(clock)}{suffix}")
            if target.exists():
                raise StorageError(f"Cannot move {source.name} aside: {target.name} exists")
            moves.append((source, target))
    if moves and announce is not None:
        announce([target.name for _, target in moves])
    moved: list[str] = []
    for source, target in moves:
        with contextlib.suppress(FileNotFoundError):
            try:
                source.rename(target)
            except OSError as error:
                raise StorageError(
                    f"Could not move aside {source}: {error.strerror or error}"
                ) from error
            moved.append(target.name)
    if not moved:
        return []
    _fsync_directory(path.parent)
    return moved


def _check_words(path: Path, rows: list[str]) -> list[str]:
    """``PRAGMA quick_check``'s report in sentences: one per problem (20 at most, then how
    many more), none for ``ok``."""
    if rows == ["ok"]:
        return []
    found = [
        line.strip()
        for row in rows
        for line in row.split("\n")
        if line.strip() and not line.startswith("*** in database")
    ]
    said = [f"The games database {path} is damaged: {line}" for line in found[:20]]
    if len(found) > 20:
        said.append(f"The games database {path} has {len(found) - 20} more problems")
    return said
