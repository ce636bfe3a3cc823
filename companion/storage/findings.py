"""The findings kept until a player has seen them: in the database, and in a file beside it.

A finding (a database emptied, a journal cut, a game deleted, a file moved aside) is written
to ``games.findings`` (atomically: a new file fsynced, then renamed over the old one) as soon
as it is found, before anything that could erase its evidence (the ledger rewritten, the file
moved aside), and then to the ``findings`` row of the database's settings. Neither file alone
can drop it: at every opening the two are read and joined. A finding leaves both only when a
player acknowledges it (:meth:`Storage.acknowledge_findings
<companion.storage.Storage.acknowledge_findings>`).

The file also witnesses how many games the database held (at each opening and each new
game): with the ledger gone, a database emptied is still said (docs/decisions 0089).
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import sqlite3
import zlib
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Final

import msgspec
from msgspec import Struct

from companion.storage.errors import StorageError
from companion.storage.files import _STAMP, _as_utc, _fsync_directory
from companion.storage.full import _disk_full, _full_error
from companion.vocabulary.records import Finding

log = logging.getLogger("hanabi-companion.storage")

FINDINGS_NAME: Final = "games.findings"
"""The file beside the database that keeps the findings not yet seen (:class:`FindingsFile`)."""

#: The settings row that keeps the same findings inside the database.
FINDINGS_SETTING: Final = "storage.findings"
#: How many acknowledged findings are remembered (so that damage found again is not said again).
SEEN_KEPT = 200
_MAGIC = b"HNBF"


class Kept(Struct):
    """What one copy (the file, or the database's row) keeps."""

    #: The findings no player has acknowledged yet, oldest first.
    open: list[Finding] = []
    #: The words of findings acknowledged (``key`` and parameters), newest last.
    seen: list[str] = []
    #: The witness: how many games the database held, and the highest id given.
    games: int = 0
    last_id: int = 0


def signature(key: str, params: Mapping[str, object]) -> str:
    """A finding's words as one string: the same damage found again has the same one."""
    return key + " " + json.dumps(params, sort_keys=True, default=str)


def _encode(kept: Kept) -> bytes:
    body = msgspec.json.encode(kept)
    return _MAGIC + b" %08x\n" % zlib.crc32(body) + body


def _decode(data: bytes) -> Kept | None:
    """The copy in ``data``, or None if it is damaged (its checksum or its fields)."""
    head, _, body = data.partition(b"\n")
    if not head.startswith(_MAGIC + b" ") or len(head) != 13:
        return None
    try:
        if int(head[5:], 16) != zlib.crc32(body):
            return None
        return msgspec.json.decode(body, type=Kept)
    except (ValueError, msgspec.DecodeError):
        return None


def joined(*copies: Kept | None) -> Kept:
    """Both copies in one: every finding open in either (acknowledged in neither), the
    acknowledged ones of both, the larger witness."""
    found: dict[str, Finding] = {}
    seen: list[str] = []
    games = last_id = 0
    for copy in copies:
        if copy is None:
            continue
        for finding in copy.open:
            found.setdefault(finding.id, finding)
        seen.extend(item for item in copy.seen if item not in seen)
        games, last_id = max(games, copy.games), max(last_id, copy.last_id)
    ordered = sorted(found.values(), key=lambda finding: finding.at)  # stable: as found
    return Kept(ordered, seen[-SEEN_KEPT:], games, last_id)


class FindingsFile:
    """``games.findings``: read once when opened, replaced whole (atomically) when written."""

    def __init__(self, path: Path) -> None:
        self.path = path
        #: "ok", "missing" (none, or 0 bytes) or "damaged", as found when opened.
        self.status = "missing"
        self.kept: Kept | None = None
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return
        except OSError as error:
            log.warning("Could not read %s: %s", path, error.strerror or error)
            self.status = "damaged"
            return
        if not data:
            return
        self.kept = _decode(data)
        self.status = "ok" if self.kept is not None else "damaged"
        if self.kept is None:
            log.warning("%s is damaged; it is written anew from the database's copy", path)

    def write(self, kept: Kept) -> None:
        """Replace the file with ``kept``: written beside it, fsynced, renamed, the directory
        fsynced; a power cut leaves the old file or the new one, whole."""
        temporary = self.path.with_name(self.path.name + ".new")
        try:
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
            try:
                os.write(fd, _encode(kept))
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(temporary, self.path)
        except OSError as error:
            if error.errno == errno.ENOSPC or _disk_full(self.path.parent):
                raise _full_error(self.path.parent, "keep what was found") from error
            raise StorageError(
                f"The file {self.path} cannot be written ({error.strerror or error}), so what"
                " was found cannot be kept; check its owner and permissions"
            ) from error
        _fsync_directory(self.path.parent)
        self.kept = kept


def _db_kept(db: sqlite3.Connection) -> Kept | None:
    """The database's copy (None if it has none, or it does not read back)."""
    try:
        row = db.execute(
            "SELECT CAST(value AS BLOB) FROM settings WHERE key = ?", (FINDINGS_SETTING,)
        ).fetchone()
    except sqlite3.Error as error:
        log.warning("Could not read the findings kept in the database: %s", error)
        return None
    if row is None:
        return None
    try:
        return msgspec.json.decode(bytes(row[0] or b""), type=Kept)
    except msgspec.DecodeError:
        log.warning("The findings kept in the database do not read back")
        return None


def _write_db_kept(db: sqlite3.Connection, kept: Kept) -> None:
    """Write the database's copy (in the caller's transaction, if any)."""
    db.execute(
        "INSERT INTO settings (key, value) VALUES (?, ?)"
        " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (FINDINGS_SETTING, msgspec.json.encode(kept).decode()),
    )


class Keeper:
    """The findings of one data directory while it is open: each new one goes to the file
    at once (before what follows can erase its evidence), then to the database."""

    def __init__(self, data_dir: Path, clock: Callable[[], datetime]) -> None:
        self.file = FindingsFile(data_dir / FINDINGS_NAME)
        self.kept = joined(self.file.kept)
        self._clock = clock
        #: The findings added while this data directory is open, as (key, parameters).
        self.new: list[tuple[str, dict[str, object]]] = []

    def add(
        self, found: Iterable[tuple[str, Mapping[str, object]]], *, once: bool = False
    ) -> list[Finding]:
        """Keep ``found`` in the file (fsynced before this returns); ``once``: not a finding
        already open or acknowledged with the same words (damage found again)."""
        found = list(found)
        if not found:
            return []  # the clock is not read (a test's clock ticks at each reading)
        known = {signature(f.key, f.params) for f in self.kept.open} | set(self.kept.seen)
        stamp = _as_utc(self._clock()).strftime(_STAMP)
        added = []
        for key, params in found:
            words = signature(key, params)
            if once and words in known:
                continue
            known.add(words)
            added.append(Finding(f"{stamp}-{os.urandom(3).hex()}", key, dict(params), stamp))
            self.new.append((key, dict(params)))
        if added:
            kept = msgspec.structs.replace(self.kept, open=[*self.kept.open, *added])
            self.file.write(kept)
            self.kept = kept
        return added

    def join_database(self, db: sqlite3.Connection) -> Kept | None:
        """Join the database's copy to the file's; returns the database's copy as found."""
        found = _db_kept(db)
        self.kept = joined(self.kept, found)
        return found

    def acknowledge(self, ids: Iterable[str]) -> None:
        """Mark the findings ``ids`` seen (the caller writes both copies)."""
        gone = set(ids)
        seen = list(self.kept.seen)
        for finding in self.kept.open:
            if finding.id in gone:
                seen.append(signature(finding.key, finding.params))
        self.kept = Kept(
            [f for f in self.kept.open if f.id not in gone],
            seen[-SEEN_KEPT:],
            self.kept.games,
            self.kept.last_id,
        )

    def witness(self, games: int, last_id: int) -> Kept:
        """The kept findings with the witness set to what the database holds now."""
        self.kept = Kept(self.kept.open, self.kept.seen, games, last_id)
        return self.kept

    def save(self, db: sqlite3.Connection | None, *, in_db: Kept | None = None) -> None:
        """Write both copies: the file, then the database's row (its own transaction); each
        only where it differs (``in_db``: the database's copy as read, if known)."""
        if self.file.kept != self.kept or self.file.status != "ok":
            self.file.write(self.kept)
            self.file.status = "ok"
        if db is None or (in_db is not None and in_db == self.kept):
            return
        db.execute("BEGIN IMMEDIATE")
        try:
            _write_db_kept(db, self.kept)
            db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise


def kept_findings(data_dir: Path, db: sqlite3.Connection | None = None) -> list[Finding]:
    """The findings not yet acknowledged in ``data_dir`` (and ``db``), read only."""
    in_db = None if db is None else _db_kept(db)
    return joined(FindingsFile(Path(data_dir) / FINDINGS_NAME).kept, in_db).open
