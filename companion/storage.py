"""The games database: every game as its ``hanabi-log/1`` log, in one SQLite file.

A stored game *is* its log (GAME-LOG.md): the ``games`` row keeps the header
line, the ``actions`` table keeps one JSON line per action, so an export is
the header followed by the lines, and ``replay`` works on it unchanged. The
``games`` row also keeps a summary (players, variant, score, rating, …) for
the history and statistics screens, and ``settings`` remembers set-up choices.

Durability: every write method runs in its own ``BEGIN IMMEDIATE … COMMIT``
and returns only once SQLite has committed it (WAL journal,
``synchronous=FULL``), so an action the screen shows is on disk; a writer
killed mid-call loses at most the action it had not yet confirmed.

The file is ours only if SQLite says so: a file that is not a database, a
damaged one, one of another program (another ``application_id``) or of a
newer schema is renamed aside (with its ``-wal``/``-shm`` files), never
overwritten, and :attr:`Storage.notice` says so in words.

>>> import tempfile
>>> from engine import GameSetup, Play
>>> from engine.cards import Card
>>> with tempfile.TemporaryDirectory() as tmp, Storage.open(Path(tmp)) as storage:
...     game_id = storage.new_game(GameSetup(players=2, names=("Ann", "Bo")))
...     storage.append_action(game_id, Play(Card.from_code("R1")))
...     print(storage.export(game_id), end="")
{"format": "hanabi-log/1", "players": 2, "names": ["Ann", "Bo"]}
{"action": "play", "card": "R1"}
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import logging
import os
import sqlite3
import struct
import threading
import zlib
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from functools import cache
from pathlib import Path
from types import TracebackType
from typing import Any, Final, TypeVar

try:
    # The BLAKE2b that hashlib itself hands out (it never takes OpenSSL's for BLAKE2), without
    # hashlib's start: loading OpenSSL and trying each of its digests, before the first frame.
    from _blake2 import blake2b
except ImportError:  # an interpreter built without its own BLAKE2
    from hashlib import blake2b

from msgspec import Struct
from msgspec.structs import asdict, replace

from companion.core import i18n
from companion.vocabulary.phone import PHONE_NAME_LENGTH, PairedPhone, PhoneReceipt
from engine.actions import Action, Discard, Hint, Play
from engine.errors import CompanionError, IllegalAction
from engine.game import Game
from engine.log import (
    LogFormatError,
    action_to_dict,
    dump_line,
    parse_log,
    setup_to_dict,
)
from engine.options import GameOptions, SetupError
from engine.outcome import EndReason, Outcome, Rating
from engine.setup import GameSetup

__all__ = [
    "APPLICATION_ID",
    "HISTORY_PAGE",
    "LEDGER_NAME",
    "LOCK_NAME",
    "SCHEMA_VERSION",
    "CompanionRunningError",
    "DamagedGameError",
    "DataDirLock",
    "GameStateError",
    "GameToImport",
    "HistoryPage",
    "HistoryRow",
    "ImportedGame",
    "Ledger",
    "LedgerState",
    "PhoneReceipt",
    "StatsRow",
    "Storage",
    "StorageError",
    "StorageFullError",
    "StoredEntry",
    "StoredGame",
    "UnknownGameError",
]

log = logging.getLogger("hanabi-companion.storage")

APPLICATION_ID: Final = 0x48414E42
"""``PRAGMA application_id`` of our database files: ASCII ``HANB``."""

SCHEMA_VERSION: Final = 4
"""``PRAGMA user_version`` of the schema this module creates (older ones are upgraded in place,
see :data:`_MIGRATIONS`)."""

HISTORY_PAGE: Final = 20
"""How many games :meth:`Storage.history_page` reads at a time unless told otherwise."""

BUSY_TIMEOUT_MS: Final = 5000
"""How long a statement waits for another connection's lock before failing."""

LEDGER_NAME: Final = "games.ledger"
"""The small file beside the database that remembers what it held (:class:`Ledger`)."""

PHONE_ANSWERS_KEPT: Final = timedelta(days=1)
"""How long the answer to a phone's request is kept for a retry of it."""

LOCK_NAME: Final = "companion.lock"
"""The file in the data directory a running companion holds locked (``flock``)."""

FULL_BELOW_BYTES: Final = 256 * 1024
"""Free space under which an I/O error of SQLite is taken for a full file system."""


class GameStatus(StrEnum):
    """Where a stored game stands (the ``status`` column)."""

    PLAYING = "playing"
    OVER = "over"
    ABANDONED = "abandoned"


#: How the database writes a time (UTC, to the second): as text, it sorts as time does.
_STAMP = "%Y-%m-%dT%H:%M:%SZ"
_SQLITE_MAGIC = b"SQLite format 3\x00"
_HEADER_SIZE = 100
_APPLICATION_ID_OFFSET = 68
_SIDE_FILES = ("-wal", "-shm", "-journal")
_SQLITE_IOERR = 10
_SQLITE_CORRUPT = 11
_SQLITE_FULL = 13
_SQLITE_NOTADB = 26
_TABLES = frozenset({"games", "actions", "settings"})
#: Errors of SQLite that say nothing about the file (busy, locked, no memory, I/O, no
#: permission, read-only, full, cannot open, interrupted): any other error met while
#: reading our own file means its bytes are damaged.
_NOT_DAMAGE = frozenset({3, 5, 6, 7, 8, 9, 10, 13, 14, 15, 23})
#: Queries naming every column we use: a damaged schema fails them at opening.
_SCHEMA_PROBES = (
    "SELECT id, header, started_at, finished_at, players, variant, score, max_score,"
    " rating, outcome, end_reason, status FROM games LIMIT 0",
    "SELECT game_id, seq, line FROM actions LIMIT 0",
    "SELECT key, value FROM settings LIMIT 0",
)
#: The columns schema 3 added (:func:`_migrate_integrity`), probed in a file of schema 3 or later.
_INTEGRITY_PROBES = (
    "SELECT actions_count, chain FROM games LIMIT 0",
    "SELECT chain FROM actions LIMIT 0",
)


def _is_damage(error: sqlite3.DatabaseError) -> bool:
    """Whether an error of SQLite reading our file means its bytes are damaged."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is None:
        return isinstance(error, sqlite3.DataError | sqlite3.IntegrityError)
    return code & 0xFF not in _NOT_DAMAGE


_SCHEMA = (
    """
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        header      TEXT    NOT NULL,
        started_at  TEXT    NOT NULL,
        finished_at TEXT,
        players     INTEGER NOT NULL CHECK (players BETWEEN 2 AND 5),
        variant     TEXT    NOT NULL,
        score       INTEGER,
        max_score   INTEGER NOT NULL,
        rating      TEXT,
        outcome     TEXT,
        end_reason  TEXT,
        status      TEXT    NOT NULL DEFAULT 'playing'
                    CHECK (status IN ('playing', 'over', 'abandoned')),
        CHECK (status <> 'over' OR score IS NOT NULL)
    )
    """,
    "CREATE INDEX games_by_status ON games (status, id)",
    """
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq     INTEGER NOT NULL CHECK (seq >= 1),
        line    TEXT    NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    ) WITHOUT ROWID
    """,
    f"PRAGMA application_id = {APPLICATION_ID}",
    f"PRAGMA user_version = {SCHEMA_VERSION}",  # with every step of _MIGRATIONS, at once
)


# -- schema steps after version 1 (each upgrades a database of the version before, in place) --


def _recount(group: str) -> str:
    """SQL that counts again the finished games of one table size and variant (``OLD`` or
    ``NEW``'s), from the statistics index alone."""
    return f"""
        DELETE FROM game_stats WHERE players = {group}.players AND variant = {group}.variant;
        INSERT INTO game_stats (players, variant, games, best, total)
            SELECT players, variant, COUNT(*), MAX(score), SUM(score) FROM games
            WHERE status = 'over' AND players = {group}.players AND variant = {group}.variant
            GROUP BY players, variant;"""


_ADD_FINISHED = """
    INSERT INTO game_stats (players, variant, games, best, total)
        VALUES (NEW.players, NEW.variant, 1, NEW.score, NEW.score)
        ON CONFLICT (players, variant) DO UPDATE SET games = games + 1,
            best = MAX(best, excluded.best), total = total + excluded.total;"""

#: Version 2 (issue 23, years of games): the statistics (count, best and sum of the
#: finished games per table size and variant) are kept by SQLite itself in ``game_stats``,
#: by triggers on ``games``, so reading them costs a row per group however many games are
#: stored. A game finished adds to its group; a finished game changed or deleted (an undo,
#: a hand edit) has its group counted again from ``games_for_stats``, an index of exactly
#: those columns. No trigger runs on an action: a turn writes what it wrote before.
_SCHEMA_YEARS = (
    "CREATE INDEX IF NOT EXISTS games_for_stats ON games (status, players, variant, score)",
    """
    CREATE TABLE IF NOT EXISTS game_stats (
        players INTEGER NOT NULL,
        variant TEXT    NOT NULL,
        games   INTEGER NOT NULL,
        best    INTEGER NOT NULL,
        total   INTEGER NOT NULL,
        PRIMARY KEY (players, variant)
    ) WITHOUT ROWID
    """,
    "DELETE FROM game_stats",
    "INSERT INTO game_stats (players, variant, games, best, total)"
    " SELECT players, variant, COUNT(*), MAX(score), SUM(score) FROM games"
    " WHERE status = 'over' GROUP BY players, variant",
    f"""
    CREATE TRIGGER IF NOT EXISTS game_stats_insert AFTER INSERT ON games
    WHEN NEW.status = 'over' BEGIN {_ADD_FINISHED} END
    """,
    f"""
    CREATE TRIGGER IF NOT EXISTS game_stats_finish
    AFTER UPDATE OF status, score, players, variant ON games
    WHEN OLD.status IS NOT 'over' AND NEW.status = 'over' BEGIN {_ADD_FINISHED} END
    """,
    f"""
    CREATE TRIGGER IF NOT EXISTS game_stats_change
    AFTER UPDATE OF status, score, players, variant ON games
    WHEN OLD.status = 'over' BEGIN {_recount("OLD")} {_recount("NEW")} END
    """,
    f"""
    CREATE TRIGGER IF NOT EXISTS game_stats_delete AFTER DELETE ON games
    WHEN OLD.status = 'over' BEGIN {_recount("OLD")} END
    """,
)


def _migrate_years(db: sqlite3.Connection) -> None:
    """Version 1 to 2 (issue 23): the statistics kept by SQLite (:data:`_SCHEMA_YEARS`)."""
    for statement in _SCHEMA_YEARS:
        db.execute(statement)


def _migrate_integrity(db: sqlite3.Connection) -> None:
    """Version 2 to 3 (issue 24), in place: each action row gets its link of the chain
    (``chain``), each game row the count of its actions and its last link, computed from the
    rows as they are (damage already there is still found by the replay)."""
    db.execute("ALTER TABLE games ADD COLUMN actions_count INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE games ADD COLUMN chain BLOB")
    db.execute("ALTER TABLE actions ADD COLUMN chain BLOB")
    games = db.execute("SELECT id, CAST(header AS BLOB) FROM games").fetchall()
    for game_id, header in games:
        link = _chain_start(game_id, bytes(header or b""))
        rows = db.execute(
            "SELECT seq, CAST(line AS BLOB) FROM actions WHERE game_id = ? ORDER BY seq",
            (game_id,),
        ).fetchall()
        links = []
        for seq, line in rows:
            link = _chain_next(link, bytes(line or b""))
            links.append((link, game_id, seq))
        db.executemany("UPDATE actions SET chain = ? WHERE game_id = ? AND seq = ?", links)
        db.execute(
            "UPDATE games SET actions_count = ?, chain = ? WHERE id = ?",
            (rows[-1][0] if rows else 0, link, game_id),
        )


#: Version 4 (issue 22, phones as input): the phones paired with the table (their token's
#: hash, never the token) and the answer given to each request a phone made, by the id the
#: phone gave it: a request sent again (its answer was lost on the Wi-Fi) is answered the
#: same and recorded once. An accepted request's row is written in the same transaction as
#: its action.
_SCHEMA_PHONES = (
    """
    CREATE TABLE IF NOT EXISTS phones (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        name       TEXT    NOT NULL,
        token_hash BLOB    NOT NULL UNIQUE,
        paired_at  TEXT    NOT NULL
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS phone_requests (
        id       TEXT    PRIMARY KEY,
        phone_id INTEGER NOT NULL,
        status   INTEGER NOT NULL,
        answer   TEXT    NOT NULL,
        at       TEXT    NOT NULL
    ) WITHOUT ROWID
    """,
)


def _migrate_phones(db: sqlite3.Connection) -> None:
    """Version 3 to 4 (issue 22): the tables of phones as input (:data:`_SCHEMA_PHONES`)."""
    for statement in _SCHEMA_PHONES:
        db.execute(statement)


#: The schema steps by the version they bring a database to. A new database is created with
#: version 1's tables, then every step, in one transaction.
_MIGRATIONS: Final[dict[int, Callable[[sqlite3.Connection], None]]] = {
    2: _migrate_years,
    3: _migrate_integrity,
    4: _migrate_phones,
}


class StorageError(CompanionError, OSError):
    """The games database cannot be used: unwritable directory, disk error, missing game…"""


class UnknownGameError(StorageError, LookupError):
    """No stored game has that id."""


class DamagedGameError(StorageError):
    """A stored game's lines do not parse or do not replay (the database was tampered with)."""

    def __init__(self, message: str, game_id: int | None = None) -> None:
        super().__init__(message)
        #: The damaged game, when the error is about one game.
        self.game_id = game_id


class StorageFullError(StorageError):
    """The file system (the SD card) is full: nothing was written, nothing changed."""

    def __init__(self, message: str) -> None:
        super().__init__(errno.ENOSPC, message)

    def __str__(self) -> str:
        return str(self.strerror)


class CompanionRunningError(StorageError, BlockingIOError):
    """Another companion holds the data directory's lock: one companion per data directory."""

    def __init__(self, message: str) -> None:
        super().__init__(errno.EAGAIN, message)

    def __str__(self) -> str:
        return str(self.strerror)


class GameStateError(StorageError, ValueError):
    """The request does not fit the game's state (e.g. an action for an abandoned game)."""


class StoredGame(Struct, frozen=True):
    """A game as stored: its set-up and actions (its log), and where it stands."""

    id: int
    setup: GameSetup
    actions: list[Action]
    status: GameStatus
    started_at: str
    finished_at: str | None

    def replay(self) -> Game:
        """The game these actions fold into (they were checked when the game was loaded)."""
        return Game.replay(self.setup, self.actions)


class HistoryRow(Struct, frozen=True):
    """One game in the history list: finished, or left unfinished."""

    id: int
    started_at: str
    finished_at: str | None
    players: int
    names: tuple[str, ...]
    options: GameOptions
    score: int
    #: The perfect score of the variant (25 or 30), for "21 / 25".
    max_score: int
    rating: Rating | None
    outcome: Outcome | None
    end_reason: EndReason | None
    #: Why the game does not read back (its log was damaged), in words; None if it does.
    #: A damaged row has no names, result or score (0).
    damaged: str | None = None
    #: ``over``, or a game not finished (``playing``, ``abandoned``: resumable; its score
    #: is the fireworks so far, it has no result).
    status: GameStatus = GameStatus.OVER

    @property
    def resumable(self) -> bool:
        """A game left unfinished that reads back: it can be taken up again."""
        return self.status is not GameStatus.OVER and self.damaged is None


class HistoryPage(Struct, frozen=True):
    """A page of the history: games newest first, and whether older games follow."""

    rows: list[HistoryRow]
    more: bool


class StoredEntry(Struct, frozen=True):
    """A stored game's number, dates and status as the database holds them (its log unread:
    the status of a damaged row may be anything)."""

    id: int
    started_at: str
    finished_at: str | None
    status: str


class GameToImport(Struct, frozen=True):
    """A game read from a log, for :meth:`Storage.import_games`: refereed already (replayed
    by the engine; see :meth:`of`), with what the log's file said of it. Its log is kept
    as text, not as a :class:`Game`: a restore holds thousands of them at once."""

    setup: GameSetup
    #: The action lines as this module stores them (:func:`dump_line` of each action).
    lines: tuple[str, ...]
    #: The result of a game that is over; None for a game left unfinished.
    score: int | None
    rating: Rating | None
    outcome: Outcome | None
    end_reason: EndReason | None
    #: The start and end times to keep; None: the header's ``started_at``, else the import's.
    started_at: str | None = None
    finished_at: str | None = None
    #: Its number in the data directory it was exported from: kept where it is free.
    number: int | None = None
    #: It was the game in play: it is again if no game is in play here (else left unfinished).
    playing: bool = False

    @classmethod
    def of(
        cls,
        game: Game,
        *,
        started_at: str | None = None,
        finished_at: str | None = None,
        number: int | None = None,
        playing: bool = False,
    ) -> GameToImport:
        """The game a replayed log gives, to be imported."""
        over = game.is_over
        return cls(
            game.setup,
            tuple(dump_line(action_to_dict(action)) for action in game.actions),
            game.score if over else None,
            game.rating if over else None,
            game.outcome if over else None,
            game.end_reason if over else None,
            started_at,
            finished_at,
            number,
            playing,
        )


class ImportedGame(Struct, frozen=True):
    """What :meth:`Storage.import_games` did with one game: its number here, and whether it
    was stored now (False: the same log was stored already, under that number)."""

    id: int
    new: bool


class StatsRow(Struct, frozen=True):
    """Best and average score of the finished games of one table size and variant."""

    players: int
    options: GameOptions
    games: int
    best: int
    average: float


class _Verdict(Struct, frozen=True):
    """What :func:`_examine` found at the database path."""

    kind: str  # "new", "ours", "corrupt", "foreign" or "newer"
    reason: str = ""
    #: The schema version of a file that is ours (an older one is upgraded at opening).
    version: int = SCHEMA_VERSION


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _as_utc(moment: datetime) -> datetime:
    """A naive time from the clock is taken as UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _file_stamp(clock: Callable[[], datetime]) -> str:
    """The time stamp in the name of a file moved aside, e.g. ``20261121T101500Z``."""
    return _as_utc(clock()).strftime("%Y%m%dT%H%M%SZ")


class Storage:
    """The games database of one data directory. Open it with :meth:`open`.

    Safe to share between threads (one lock serialises the calls); several
    processes may open the same file (SQLite's locks, ``busy_timeout``).
    """

    DEFAULT_NAME = "games.db"

    def __init__(
        self,
        connection: sqlite3.Connection,
        path: Path,
        notice: str | None,
        now: Callable[[], datetime],
    ) -> None:
        """Use :meth:`open`; this only wraps an already prepared connection."""
        self._connection: sqlite3.Connection | None = connection
        self._lock = threading.RLock()
        self._now = now
        #: The database file.
        self.path = path
        #: Why the previous file was moved aside at opening, in words; None if all was well.
        self.notice = notice
        #: The copy of a damaged journal kept aside at opening (``notice`` then says so).
        self.journal_copy: Path | None = None
        #: What the data directory remembers of the file (None for a bare :class:`Storage`).
        self.ledger: Ledger | None = None
        #: What ``notice`` says, as sentences of the app (a key of :mod:`companion.core.i18n` and
        #: its parameters), for the screen to say it in its language.
        self.findings: list[tuple[str, dict[str, object]]] = []
        #: Whether the file holds the chain of schema 3 (a file only read, ``history`` or
        #: ``export`` of an older one, is not upgraded: its games are read without it).
        self.chained = True
        #: The read-only view of :meth:`reader`, opened on first use, closed with this one.
        self._reader: Storage | None = None
        #: The view's owner (None for the handle that owns the file).
        self._owner: Storage | None = None

    # -- opening -----------------------------------------------------------

    @classmethod
    def open(cls, data_dir: Path, *, now: Callable[[], datetime] | None = None) -> Storage:
        """Open (or create) ``data_dir/games.db``; create ``data_dir`` and its parents if needed.

        A file that is not a usable games database is renamed aside and a new
        one started; :attr:`notice` then says what happened. ``now`` is the
        clock for time stamps (UTC; a naive time is taken as UTC).
        Raises :class:`StorageError` if the directory cannot be created or
        written, or the file cannot be read.
        """
        clock = now or _utc_now
        data_dir = Path(data_dir)
        try:
            return cls._open(data_dir, clock)
        except StorageError as error:
            # SQLite says "disk I/O error" when it cannot grow a file: name the real cause.
            if not isinstance(error, StorageFullError) and _disk_full(data_dir):
                raise _full_error(data_dir, "open the games database") from error
            raise

    @classmethod
    def _open(cls, data_dir: Path, clock: Callable[[], datetime]) -> Storage:
        _ensure_directory(data_dir)
        path = data_dir / cls.DEFAULT_NAME
        _refuse_second_handle(path)
        verdict = _examine(path)  # read-only: the journal is not touched
        notice: str | None = None
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
        try:
            connection = _connect(path)
        except StorageError as error:
            cause = error.__cause__
            if verdict.kind != "ours" or not (
                isinstance(cause, sqlite3.DatabaseError) and _is_damage(cause)
            ):
                raise
            # Damage the read-only look did not meet (SQLite reads the schema lazily).
            verdict = _Verdict("corrupt", str(cause))
            moved = _move_aside(path, verdict.kind, _file_stamp(clock))
            notice = _moved_notice(verdict, path, moved)
            findings.append((f"database_{verdict.kind}_moved_aside", {"copy": moved.name}))
            _create_private(path)
            connection = _connect(path)
        try:
            if verdict.kind != "ours":
                _create_schema(connection, path)
                _fsync_directory(data_dir)
            elif verdict.version < SCHEMA_VERSION:
                _upgrade_schema(connection, path)
        except BaseException:
            connection.close()
            raise
        try:
            ledger = Ledger(data_dir / LEDGER_NAME)
        except OSError as error:
            connection.close()
            raise StorageError(
                f"The file {data_dir / LEDGER_NAME} cannot be written"
                f" ({error.strerror or error}), so the games cannot be saved;"
                " check its owner and permissions"
            ) from error
        if ledger.damaged:  # the checks start again from the file as it is
            log.warning("The ledger %s was damaged; it is written anew", ledger.path)
        try:
            if verdict.kind in ("new", "ours"):
                said = _compare_with_ledger(connection, ledger.state, path, verdict.kind)
                findings.extend(said)
                if said:
                    notice = " · ".join(
                        filter(None, [notice, *(_finding_text(k, p) for k, p in said)])
                    )
            ledger.write(_ledger_state(connection))
        except (OSError, sqlite3.Error) as error:
            ledger.close()
            connection.close()
            raise StorageError(
                f"Could not check the games database {path} against its ledger:"
                f" {getattr(error, 'strerror', None) or error}"
            ) from error
        storage = cls(connection, path, notice, clock)
        storage.ledger = ledger
        storage.findings = findings
        if verdict.kind == "ours":
            storage.journal_copy = journal_copy
        _register(storage)
        return storage

    @classmethod
    def open_existing(cls, data_dir: Path) -> Storage | None:
        """Open ``data_dir/games.db`` only to read it (``history``, ``export``): nothing is
        created, moved aside or written, whatever is found. None if no game was ever stored
        there (no database file, or an empty one).

        Raises :class:`StorageError`, in one sentence, if ``data_dir`` is missing, or the
        file is not a games database this version reads (it is left as it is; ``run``
        moves it aside). :attr:`notice` says if the journal is damaged (``run`` keeps a
        copy of it; what precedes the damage is read).
        """
        data_dir = Path(data_dir)
        if not data_dir.is_dir():
            what = "is not a folder" if data_dir.exists() else "does not exist"
            raise StorageError(f"The data directory {data_dir} {what}: no game is stored there")
        path = data_dir / cls.DEFAULT_NAME
        _refuse_second_handle(path)
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
            connection = sqlite3.connect(
                _read_only_uri(path),
                uri=True,
                timeout=BUSY_TIMEOUT_MS / 1000,
                isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.Error as error:
            raise StorageError(f"Could not open the games database {path}: {error}") from error
        said: list[str] = []
        if damage:
            said.append(
                f"The journal {wal.name} is damaged ({damage}): the last actions saved may"
                " be missing here; the companion keeps a copy of it when it next starts"
            )
        findings: list[tuple[str, dict[str, object]]] = []
        if verdict.version >= 3:  # an older file has no ledger yet (written from schema 3)
            try:
                findings = _compare_with_ledger(connection, ledger, path, "ours", quiet=True)
            except sqlite3.Error:
                findings = []  # damage there is named by the reads that meet it
        said += [_finding_text(key, params) for key, params in findings]
        storage = cls(connection, path, " · ".join(said) or None, _utc_now)
        storage.findings = findings
        storage.chained = verdict.version >= 3
        return storage

    def reader(self) -> Storage:
        """A read-only view of the same file for another thread (the phones' History).

        Its own SQLite connection, so that a long read never holds this handle's writes;
        opened once, through SQLite, and closed only by :meth:`close` of this handle.
        Only SQLite touches the file while the process has it open: POSIX drops every
        lock a process holds on a file when *any* of its descriptors on that file is
        closed, and another program closing the database would then take the live
        journal for its own and delete it (docs/decisions: "One handle on the file").
        """
        with self._lock:
            if self._owner is not None:
                return self
            if self._connection is None:
                raise StorageError(f"The games database {self.path} is closed")
            if self._reader is None:
                try:
                    connection = sqlite3.connect(
                        self.path.resolve().as_uri() + "?mode=ro",
                        uri=True,
                        timeout=BUSY_TIMEOUT_MS / 1000,
                        isolation_level=None,
                        check_same_thread=False,
                    )
                    connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                except sqlite3.Error as error:
                    raise StorageError(
                        f"Could not open the games database {self.path} to read it: {error}"
                    ) from error
                view = Storage(connection, self.path, None, self._now)
                view.chained = self.chained
                view._owner = self
                self._reader = view
            return self._reader

    def close(self) -> None:
        """Close the database (further calls raise :class:`StorageError`). Idempotent.

        On a view from :meth:`reader` this does nothing: its owner closes it.
        """
        if self._owner is not None:
            return
        with self._lock:
            if self._reader is not None:
                reader, self._reader = self._reader, None
                with reader._lock:
                    view, reader._connection = reader._connection, None
                if view is not None:
                    with contextlib.suppress(sqlite3.Error):
                        view.close()
            _unregister(self)
            self.checkpoint()
            connection, self._connection = self._connection, None
            if self.ledger is not None:
                self.ledger.close()
            if connection is not None:
                try:
                    connection.close()
                except sqlite3.Error as error:
                    raise StorageError(
                        f"Could not close the games database {self.path}: {error}"
                    ) from error

    def checkpoint(self) -> bool:
        """Copy the write-ahead log into the main file and empty it (``TRUNCATE``).

        Done when a game ends and at a clean stop, so a finished game lives in
        ``games.db`` itself: damage to the ``-wal`` file can then touch only the
        game in progress. True if the log was emptied; False if it could not be
        (another reader, a full card): the data stays safe in the log, and the
        next checkpoint copies it.
        """
        with self._lock:
            db = self._connection
            if db is None:
                return False
            try:
                (busy, _, _) = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            except sqlite3.Error:
                return False
            return not busy

    def __enter__(self) -> Storage:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # -- games ---------------------------------------------------------------

    def new_game(self, setup: GameSetup) -> int:
        """Store a new game (status ``playing``) and return its id.

        Any other game still ``playing`` is marked ``abandoned``: one table,
        one game at a time.
        """
        header = dump_line(setup_to_dict(setup))
        stamp = self._stamp()
        with self._transaction("start a new game", write=True) as db:
            db.execute(
                "UPDATE games SET status = 'abandoned', finished_at = ? WHERE status = 'playing'",
                (stamp,),
            )
            cursor = db.execute(
                "INSERT INTO games (header, started_at, players, variant, max_score, status)"
                " VALUES (?, ?, ?, ?, ?, 'playing')",
                (header, stamp, setup.players, setup.options.code(), setup.max_score),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            _start_chain(db, game_id, header)
        self.checkpoint()
        return game_id

    def append_action(
        self, game_id: int, action: Action, *, receipt: PhoneReceipt | None = None
    ) -> None:
        """Add ``action`` after the game's last one; committed when this returns.

        The caller has checked it with the rules engine. Raises
        :class:`GameStateError` if the game is not ``playing``. ``receipt``: the phone's
        request that made it, and its answer, kept in the same transaction (a retry of
        the request is then answered from it, never recorded twice).
        """
        if not isinstance(action, Hint | Play | Discard):
            raise TypeError(f"an action must be a Hint, Play or Discard, not {action!r}")
        line = dump_line(action_to_dict(action))
        with self._transaction(f"save an action of game {game_id}", game=game_id, write=True) as db:
            status = _status(db, game_id)
            if status is not GameStatus.PLAYING:
                raise GameStateError(
                    f"Game {game_id} is {_status_words(status)}: it takes no more actions"
                )
            _append_lines(db, game_id, [line])
            if receipt is not None:
                _keep_receipt(db, receipt, _as_utc(self._now()))

    def drop_last_action(self, game_id: int, *, receipt: PhoneReceipt | None = None) -> None:
        """Undo: delete the game's last action; committed when this returns.

        Undoing the last action of a finished game brings it back to
        ``playing`` and clears its result. Raises :class:`GameStateError` if
        the game has no action or was abandoned.
        """
        # The ledger is written before the commit: it may say one action fewer than the
        # file (never a loss), never one more (a false alarm after a power cut).
        what = f"undo the last action of game {game_id}"
        with self._transaction(what, write=True, ledger_first=True) as db:
            status = _status(db, game_id)
            if status is GameStatus.ABANDONED:
                raise GameStateError(f"Game {game_id} was abandoned: it cannot be changed")
            last, _ = _chain_head(db, game_id)
            if last == 0:
                raise GameStateError(f"Game {game_id} has no action to undo")
            db.execute("DELETE FROM actions WHERE game_id = ? AND seq = ?", (game_id, last))
            before = db.execute(
                "SELECT chain FROM actions WHERE game_id = ? AND seq = ?", (game_id, last - 1)
            ).fetchone()
            if last == 1:
                (header,) = db.execute(
                    "SELECT CAST(header AS BLOB) FROM games WHERE id = ?", (game_id,)
                ).fetchone()
                link = _chain_start(game_id, bytes(header or b""))
            elif before is None or not isinstance(before[0], bytes):
                raise _damaged(game_id, f"action {last - 1} is missing")
            else:
                link = before[0]
            db.execute(
                "UPDATE games SET actions_count = ?, chain = ? WHERE id = ?",
                (last - 1, link, game_id),
            )
            if status is GameStatus.OVER:
                db.execute(
                    "UPDATE games SET status = 'playing', finished_at = NULL, score = NULL,"
                    " rating = NULL, outcome = NULL, end_reason = NULL WHERE id = ?",
                    (game_id,),
                )
            if receipt is not None:
                _keep_receipt(db, receipt, _as_utc(self._now()))

    def finish(self, game_id: int, game: Game) -> None:
        """Mark the game ``over`` with its result from ``game`` (score, rating, outcome…).

        ``game`` must be over and be exactly the stored log (same header,
        same actions), else :class:`GameStateError` and nothing changes.
        Finishing an already finished game again keeps its first time stamp.
        The stored ``max_score`` is the variant's perfect score (25 or 30).
        """
        if not game.is_over:
            raise GameStateError(f"Game {game_id} is not over yet: it cannot be finished")
        header = dump_line(setup_to_dict(game.setup))
        lines = [dump_line(action_to_dict(action)) for action in game.actions]
        outcome, reason, rating = game.outcome, game.end_reason, game.rating
        stamp = self._stamp()
        with self._transaction(
            f"save the result of game {game_id}", game=game_id, write=True
        ) as db:
            status = _status(db, game_id)
            if status is GameStatus.ABANDONED:
                raise GameStateError(f"Game {game_id} was abandoned: it cannot be finished")
            stored_header, stored_lines = _log_rows(db, game_id)
            if stored_header != header or stored_lines != lines:
                raise GameStateError(
                    f"The game given differs from stored game {game_id} (its set-up or actions);"
                    " it was not marked finished"
                )
            db.execute(
                "UPDATE games SET status = 'over', finished_at = COALESCE(finished_at, ?),"
                " score = ?, max_score = ?, rating = ?, outcome = ?, end_reason = ?"
                " WHERE id = ?",
                (
                    stamp,
                    game.score,
                    game.setup.max_score,
                    None if rating is None else rating.value,
                    None if outcome is None else outcome.value,
                    None if reason is None else reason.value,
                    game_id,
                ),
            )
        self.checkpoint()

    def abandon(self, game_id: int) -> None:
        """Mark a ``playing`` game ``abandoned`` (no-op if it already is).

        Raises :class:`GameStateError` for a finished game: it stays in the history.
        """
        stamp = self._stamp()
        with self._transaction(f"abandon game {game_id}", write=True) as db:
            status = _status(db, game_id)
            if status is GameStatus.OVER:
                raise GameStateError(f"Game {game_id} is over: it cannot be abandoned")
            if status is GameStatus.PLAYING:
                db.execute(
                    "UPDATE games SET status = 'abandoned', finished_at = ? WHERE id = ?",
                    (stamp, game_id),
                )

    def unfinished(self) -> StoredGame | None:
        """The latest game still ``playing`` (to resume at start-up), or None."""
        with self._transaction("look for an unfinished game", write=False) as db:
            row = db.execute(
                "SELECT id FROM games WHERE status = 'playing' ORDER BY id DESC LIMIT 1"
            ).fetchone()
            if row is None:
                return None
            return self._load(db, row[0])

    def load(self, game_id: int) -> StoredGame:
        """The stored game, parsed and replayed with the engine.

        Raises :class:`UnknownGameError` if there is no such game and
        :class:`DamagedGameError` if its lines do not parse or replay.
        """
        with self._transaction(f"load game {game_id}", game=game_id, write=False) as db:
            return self._load(db, game_id)

    def latest_game_id(self) -> int | None:
        """The id of the most recently started game, whatever its status; None if none."""
        with self._transaction("look for the latest game", write=False) as db:
            game_id: int | None = db.execute("SELECT MAX(id) FROM games").fetchone()[0]
        return game_id

    def export(self, game_id: int) -> str:
        """The game's ``hanabi-log/1`` text: the header, then one line per action.

        Raises :class:`DamagedGameError` if the stored lines do not parse or replay
        (:meth:`replayable_part` then gives what does).
        """
        with self._transaction(f"export game {game_id}", game=game_id, write=False) as db:
            _status(db, game_id)
            header, lines = _log_rows(db, game_id, chained=self.chained)
        _parse_game(game_id, header, lines)
        return "".join(line + "\n" for line in (header, *lines))

    def replayable_part(self, game_id: int) -> tuple[str, int]:
        """The longest beginning of a (damaged) game's log that parses and replays, as
        ``hanabi-log/1`` text, and how many actions it holds; ``("", 0)`` if even its
        header is damaged."""
        with self._transaction(f"export game {game_id}", game=game_id, write=False) as db:
            if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise UnknownGameError(f"There is no stored game {game_id}")
            header, lines = _raw_log_rows(db, game_id, chained=self.chained)
        return _replayable(header, lines)

    def history(self) -> list[HistoryRow]:
        """Every game, newest first (by id: the Pi's clock may jump): the finished ones
        and those left unfinished (in play, or abandoned for a new game), resumable.

        Each game's log is read and replayed: a game that does not is a row with
        :attr:`HistoryRow.damaged` set (and no result), never an exception.
        """
        with self._transaction("read the history", write=False) as db:
            rows = db.execute(f"{_HISTORY_SELECT} ORDER BY id DESC").fetchall()
            return [_history_row(db, row, chained=self.chained) for row in rows]

    def history_page(
        self, *, before: int | None = None, skip: int = 0, limit: int = HISTORY_PAGE
    ) -> HistoryPage:
        """At most ``limit`` games of the history, newest first: those older than game
        ``before`` (every game if None), after the first ``skip`` of them.

        Each game listed is read back and replayed as in :meth:`history` (a damaged one is a
        row that says so), so a page costs the same however many games are stored.
        """
        where = "" if before is None else " WHERE id < ?"
        params = ([] if before is None else [before]) + [limit + 1, max(0, skip)]
        with self._transaction("read the history", write=False) as db:
            rows = db.execute(
                f"{_HISTORY_SELECT}{where} ORDER BY id DESC LIMIT ? OFFSET ?", params
            ).fetchall()
            games = [_history_row(db, row, chained=self.chained) for row in rows[:limit]]
        return HistoryPage(games, more=len(rows) > limit)

    def catalogue(self) -> list[StoredEntry]:
        """Every stored game's number, dates and status, oldest first, without reading the
        logs (``export --all`` reads each one after)."""
        with self._transaction("list the stored games", write=False) as db:
            rows = db.execute(
                "SELECT id, CAST(started_at AS BLOB), CAST(finished_at AS BLOB),"
                " CAST(status AS BLOB) FROM games ORDER BY id"
            ).fetchall()
        return [
            StoredEntry(id_, _lenient(started) or "", _lenient(finished), _lenient(status) or "")
            for id_, started, finished, status in rows
        ]

    def import_games(self, games: list[GameToImport]) -> list[ImportedGame]:
        """Store games read from logs, all in one transaction: all of them or, on any error,
        none.

        A game is the same as a stored one when its log is: the same header line and the
        same action lines, as this module writes them (so the dates in the header count,
        and a game stored twice is stored once). A finished game is stored ``over`` with its
        result; an unfinished one ``abandoned`` (resumable from the history), or ``playing``
        if it was in play and no game is in play here. Its number is kept where free.
        """
        stamp = self._stamp()
        done: list[ImportedGame] = []
        with self._transaction(f"import {len(games)} games", write=True) as db:
            by_header: dict[bytes, list[int]] = {}
            for game_id, header in db.execute("SELECT id, CAST(header AS BLOB) FROM games"):
                by_header.setdefault(bytes(header or b""), []).append(game_id)
            in_play = (
                db.execute("SELECT 1 FROM games WHERE status = 'playing'").fetchone() is not None
            )
            for item in games:
                setup = item.setup
                header = dump_line(setup_to_dict(setup))
                lines = [line.encode() for line in item.lines]
                same = [
                    game_id
                    for game_id in by_header.get(header.encode(), [])
                    if _raw_log_rows(db, game_id)[1] == lines
                ]
                if same:
                    done.append(ImportedGame(same[0], new=False))
                    continue
                number = item.number
                if number is not None and (
                    number < 1
                    or db.execute("SELECT 1 FROM games WHERE id = ?", (number,)).fetchone()
                ):
                    number = None  # taken here: the next free number
                status = GameStatus.ABANDONED if item.score is None else GameStatus.OVER
                if status is GameStatus.ABANDONED and item.playing and not in_play:
                    status, in_play = GameStatus.PLAYING, True
                outcome, reason, rating = item.outcome, item.end_reason, item.rating
                cursor = db.execute(
                    "INSERT INTO games (id, header, started_at, finished_at, players, variant,"
                    " score, max_score, rating, outcome, end_reason, status)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        number,
                        header,
                        item.started_at or setup.started_at or stamp,
                        None if status is GameStatus.PLAYING else item.finished_at,
                        setup.players,
                        setup.options.code(),
                        item.score,
                        setup.max_score,
                        None if rating is None else rating.value,
                        None if outcome is None else outcome.value,
                        None if reason is None else reason.value,
                        status.value,
                    ),
                )
                game_id = cursor.lastrowid
                assert game_id is not None
                _start_chain(db, game_id, header)  # its links, as new_game and append_action
                _append_lines(db, game_id, list(item.lines))
                by_header.setdefault(header.encode(), []).append(game_id)
                done.append(ImportedGame(game_id, new=True))
        self.checkpoint()
        return done

    def reopen(self, game_id: int) -> StoredGame:
        """Take an unfinished game up again: it is ``playing``, and the game that was
        (if another) is ``abandoned``, itself resumable. Returns the game as stored.

        Raises :class:`GameStateError` for a finished game, :class:`DamagedGameError` if
        it does not read back (then nothing changes).
        """
        stamp = self._stamp()
        with self._transaction(f"resume game {game_id}", game=game_id, write=True) as db:
            stored = self._load(db, game_id)
            if stored.status is GameStatus.OVER:
                raise GameStateError(f"Game {game_id} is over: it cannot be resumed")
            db.execute(
                "UPDATE games SET status = 'abandoned', finished_at = ?"
                " WHERE status = 'playing' AND id != ?",
                (stamp, game_id),
            )
            db.execute(
                "UPDATE games SET status = 'playing', finished_at = NULL WHERE id = ?",
                (game_id,),
            )
        return replace(stored, status=GameStatus.PLAYING, finished_at=None)

    def stats(self) -> list[StatsRow]:
        """Best and average score per (players, options) over the finished games,
        by player count, then by the options' :meth:`~GameOptions.code`."""
        with self._transaction("read the statistics", write=False) as db:
            # Kept up to date by SQLite's triggers (see _SCHEMA_YEARS): a row per group.
            rows = db.execute(
                "SELECT players, CAST(variant AS BLOB), games, best, total FROM game_stats"
            ).fetchall()
        groups: dict[tuple[int, str], tuple[GameOptions, int, int, int]] = {}
        for players, variant, count, best, total in rows:
            options = _options_of_variant(_lenient(variant) or "")
            key = (players, options.code())
            _, count_before, best_before, total_before = groups.get(key, (options, 0, 0, 0))
            groups[key] = (
                options,
                count_before + count,
                max(best_before, best),
                total_before + total,
            )
        return [
            StatsRow(players, options, count, best, total / count)
            for (players, _), (options, count, best, total) in sorted(groups.items())
        ]

    # -- settings ------------------------------------------------------------

    def get_setting(self, key: str, default: Any = None) -> Any:
        """The remembered value of ``key`` (as JSON gives it back), or ``default`` (also
        when the pages holding it are damaged: a set-up choice is not worth a start)."""
        try:
            with self._transaction(f"read the setting {key!r}", write=False) as db:
                row = db.execute(
                    "SELECT CAST(value AS BLOB) FROM settings WHERE key = ?", (key,)
                ).fetchone()
        except DamagedGameError:  # logged where it was met
            return default
        if row is None:
            return default
        try:
            return json.loads(bytes(row[0] or b"").decode("utf-8"))
        except ValueError:  # UnicodeDecodeError too
            return default  # a hand-edited value; a set-up choice is not worth a crash

    def set_setting(self, key: str, value: Any) -> None:
        """Remember ``value`` (JSON data: tuples come back as lists) under ``key``."""
        if not isinstance(key, str):
            raise TypeError(f"a setting's key must be a string, not {key!r}")
        try:
            text = json.dumps(value, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as error:
            raise TypeError(f"the setting {key!r} must be JSON data ({error})") from None
        with self._transaction(f"save the setting {key!r}", write=True) as db:
            db.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, text),
            )

    # -- phones as input (issue 22) ------------------------------------------------

    def pair_phone(self, name: str, token_hash: bytes) -> PairedPhone:
        """Remember a paired phone by its token's hash; a name already listed gets a
        number ("Ann 2"), so the panel tells the phones apart."""
        stamp = self._stamp()
        with self._transaction("pair a phone", write=True) as db:
            taken = {row[0] for row in db.execute("SELECT name FROM phones")}
            listed, number = name, 2
            while listed in taken:
                listed = f"{name[: PHONE_NAME_LENGTH - 2]} {number}"
                number += 1
            cursor = db.execute(
                "INSERT INTO phones (name, token_hash, paired_at) VALUES (?, ?, ?)",
                (listed, token_hash, stamp),
            )
            phone_id = cursor.lastrowid
            assert phone_id is not None
        return PairedPhone(phone_id, listed, stamp)

    def paired_phones(self) -> dict[bytes, PairedPhone]:
        """The paired phones by their token's hash, oldest first."""
        with self._transaction("read the paired phones", write=False) as db:
            rows = db.execute(
                "SELECT id, name, token_hash, paired_at FROM phones ORDER BY id"
            ).fetchall()
        return {bytes(token): PairedPhone(id_, name, at) for id_, name, token, at in rows}

    def remove_phone(self, phone_id: int) -> None:
        """Forget a paired phone: its token no longer acts, from now on."""
        with self._transaction("remove a phone", write=True) as db:
            db.execute("DELETE FROM phones WHERE id = ?", (phone_id,))

    def phone_answer(self, request_id: str) -> tuple[int, dict[str, Any]] | None:
        """The answer given to a phone's request (its HTTP status and JSON), if any."""
        with self._transaction("read a phone's answer", write=False) as db:
            row = db.execute(
                "SELECT status, answer FROM phone_requests WHERE id = ?", (request_id,)
            ).fetchone()
        if row is None:
            return None
        try:
            data = json.loads(row[1])
        except ValueError:
            data = None
        return int(row[0]), data if isinstance(data, dict) else {}

    def forget_phone_answers(self, older_than: timedelta = PHONE_ANSWERS_KEPT) -> int:
        """Forget the answers to requests older than ``older_than`` (a phone retries within
        seconds; a request older than a day is refused anyway, its position long left).
        Keeping an answer does it too, in its transaction. Returns how many were forgotten."""
        with self._transaction("forget old answers to phones", write=True) as db:
            return _forget_answers(db, _as_utc(self._now()) - older_than)

    def keep_phone_answer(self, receipt: PhoneReceipt) -> None:
        """Remember the answer to a request that changed nothing (a refusal), so that a
        retry of it is answered the same."""
        with self._transaction("remember a phone's answer", write=True) as db:
            _keep_receipt(db, receipt, _as_utc(self._now()))

    # -- internals -------------------------------------------------------------

    def _stamp(self) -> str:
        return _as_utc(self._now()).strftime(_STAMP)

    @contextlib.contextmanager
    def _transaction(
        self, what: str, *, write: bool, ledger_first: bool = False, game: int | None = None
    ) -> Iterator[sqlite3.Connection]:
        """One transaction, committed on success and rolled back on any error.

        A write is then noted in the ledger (before the commit too, with ``ledger_first``:
        for a write that lowers a count). SQLite errors become :class:`StorageError`
        ("Could not <what>: …"); one saying the file's bytes are damaged where it read, a
        :class:`DamagedGameError` (of ``game``, if the transaction is about one).
        """
        with self._lock:
            db = self._connection
            if db is None:
                raise StorageError(f"Could not {what}: the games database is closed")
            try:
                db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                yield db
                if ledger_first:
                    self._note(db)
                db.execute("COMMIT")
                if write:
                    self._note(db)
            except BaseException as error:
                if db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        db.execute("ROLLBACK")
                if isinstance(error, sqlite3.Error):
                    if _is_full(error, self.path.parent):
                        raise _full_error(self.path.parent, what) from error
                    if isinstance(error, sqlite3.DatabaseError) and _is_damage(error):
                        log.warning("Could not %s: %s", what, error)
                        where = "" if game is None else f" (stored game {game})"
                        raise DamagedGameError(
                            f"Could not {what}: the games database is damaged there{where}",
                            game,
                        ) from error
                    raise StorageError(f"Could not {what}: {error}") from error
                raise

    def _note(self, db: sqlite3.Connection) -> None:
        """Write what the file holds now to the ledger (when it changed). A ledger that cannot
        be written is said in the log; the games are safe in the database all the same."""
        if self.ledger is None:
            return
        try:
            self.ledger.write(_ledger_state(db))
        except (OSError, sqlite3.Error) as error:  # the write itself is committed: not undone
            log.warning("Could not write the ledger %s: %s", self.ledger.path, error)

    def _load(self, db: sqlite3.Connection, game_id: int) -> StoredGame:
        status = _status(db, game_id)
        started, finished = db.execute(
            "SELECT CAST(started_at AS BLOB), CAST(finished_at AS BLOB) FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        header, lines = _log_rows(db, game_id, chained=self.chained)
        setup, actions = _parse_game(game_id, header, lines)
        return StoredGame(
            game_id, setup, actions, status, _lenient(started) or "", _lenient(finished)
        )


# -- reading stored logs -------------------------------------------------------

#: The columns of a history row (see :func:`_history_row`), read as bytes where damaged
#: bytes must not fail the whole query.
_HISTORY_SELECT = (
    "SELECT id, CAST(started_at AS BLOB), CAST(finished_at AS BLOB), score, max_score,"
    " CAST(rating AS BLOB), CAST(outcome AS BLOB), CAST(end_reason AS BLOB) FROM games"
)


def _history_row(db: sqlite3.Connection, row: tuple[Any, ...], *, chained: bool) -> HistoryRow:
    """One row of the history, or a row marked damaged if the game does not read back."""
    game_id, started, finished, score, max_score, rating, outcome, end_reason = row
    started_at = _lenient(started) or ""
    finished_at = _lenient(finished)
    try:
        status = _status(db, game_id)  # a garbled status is damage, named here
        header, lines = _log_rows(db, game_id, chained=chained)
        game = _replayed(game_id, header, lines)  # replayed once, not parsed then replayed
        setup = game.setup
        if status is not GameStatus.OVER:  # unfinished: the fireworks so far, no result
            return HistoryRow(
                id=game_id,
                started_at=started_at,
                finished_at=finished_at,
                players=setup.players,
                names=setup.names,
                options=setup.options,
                score=game.fireworks_total,
                max_score=setup.max_score,
                rating=None,
                outcome=None,
                end_reason=None,
                status=status,
            )
        if score != game.score or max_score != setup.max_score or not game.is_over:
            raise DamagedGameError(
                f"Stored game {game_id} is damaged: its stored score or end differs from its"
                " actions",
                game_id,
            )
        return HistoryRow(
            id=game_id,
            started_at=started_at,
            finished_at=finished_at,
            players=setup.players,
            names=setup.names,
            options=setup.options,
            score=score,
            max_score=max_score,
            rating=_result(game_id, Rating, rating),
            outcome=_result(game_id, Outcome, outcome),
            end_reason=_result(game_id, EndReason, end_reason),
        )
    except DamagedGameError as error:
        return HistoryRow(
            id=game_id,
            started_at=started_at,
            finished_at=finished_at,
            players=0,
            names=(),
            options=GameOptions(),
            score=0,
            max_score=0,
            rating=None,
            outcome=None,
            end_reason=None,
            damaged=str(error),
        )


def _lenient(data: bytes | None) -> str | None:
    """A time stamp as stored; damaged bytes become replacement characters, not an error."""
    return None if data is None else bytes(data).decode("utf-8", "replace")


def _status(db: sqlite3.Connection, game_id: int) -> GameStatus:
    row = db.execute("SELECT CAST(status AS BLOB) FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise UnknownGameError(f"There is no stored game {game_id}")
    try:
        return GameStatus(bytes(row[0] or b"").decode("utf-8"))  # the CHECK allows no other…
    except ValueError:  # …unless the file's bytes were changed behind SQLite's back
        raise DamagedGameError(
            f"Stored game {game_id} is damaged: its status {row[0]!r} is not one we write",
            game_id,
        ) from None


def _status_words(status: GameStatus) -> str:
    return status.value


def _log_rows(
    db: sqlite3.Connection, game_id: int, *, chained: bool = True
) -> tuple[str, list[str]]:
    """The header and the action lines of a game, checking the numbering has no gap and
    (``chained``: a file of schema 3 or later) the chain of links.

    The text is read as bytes and decoded here: bytes that are not UTF-8 make a
    :class:`DamagedGameError` naming the game, not a failure of the whole query.
    """
    links = "actions_count, chain" if chained else "NULL, NULL"
    header, count, head = db.execute(
        f"SELECT CAST(header AS BLOB), {links} FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    rows = db.execute(
        f"SELECT seq, CAST(line AS BLOB), {'chain' if chained else 'NULL'} FROM actions"
        " WHERE game_id = ? ORDER BY seq",
        (game_id,),
    ).fetchall()
    for expected, (seq, _, _) in enumerate(rows, start=1):
        if seq != expected:
            raise _damaged(game_id, f"action {expected} is missing")
    texts = (
        _decoded(game_id, "its header", header),
        [
            _decoded(game_id, f"action {number}", line)
            for number, (_, line, _) in enumerate(rows, start=1)
        ],
    )
    if not chained:  # a file of an older schema, only read: the replay checks it
        return texts
    try:
        _check_chain(game_id, header, [(line, link) for _, line, link in rows], count, head)
    except DamagedGameError:
        _parse_game(game_id, *texts)  # a line that does not parse or replay says more
        raise
    return texts


# -- what makes an edit or a missing row evident (schema 3) ----------------------------------


def _chain_start(game_id: int, header: bytes) -> bytes:
    """The link a game's chain starts from: its id and its header line (so a row moved to
    another game, or a changed header, breaks the chain)."""
    return blake2b(b"%d\n%s" % (game_id, header), digest_size=16).digest()


def _chain_next(link: bytes, line: bytes) -> bytes:
    """The link of an action: the previous link and the action's line, hashed."""
    return blake2b(link + line, digest_size=16).digest()


def _damaged(game_id: int, what: str) -> DamagedGameError:
    return DamagedGameError(f"Stored game {game_id} is damaged: {what}", game_id)


def _start_chain(db: sqlite3.Connection, game_id: int, header: str) -> None:
    """A new game row's count (0) and first link. Every game row is written through here
    and :func:`_append_lines` (an import too), so every game can be checked."""
    db.execute(
        "UPDATE games SET actions_count = 0, chain = ? WHERE id = ?",
        (_chain_start(game_id, header.encode()), game_id),
    )


def _append_lines(db: sqlite3.Connection, game_id: int, lines: list[str]) -> None:
    """Add action lines after the game's last one, each with its link, and keep the game's
    count and last link (in the caller's transaction)."""
    count, link = _chain_head(db, game_id)
    rows = []
    for line in lines:
        count += 1
        link = _chain_next(link, line.encode())
        rows.append((game_id, count, line, link))
    db.executemany("INSERT INTO actions (game_id, seq, line, chain) VALUES (?, ?, ?, ?)", rows)
    db.execute("UPDATE games SET actions_count = ?, chain = ? WHERE id = ?", (count, link, game_id))


def _keep_receipt(db: sqlite3.Connection, receipt: PhoneReceipt, now: datetime) -> None:
    """The answer to a phone's request, by its id (in the caller's transaction): a
    second one with the same id fails the transaction, so nothing is recorded twice.
    Answers older than :data:`PHONE_ANSWERS_KEPT` go in the same transaction."""
    _forget_answers(db, now - PHONE_ANSWERS_KEPT)
    db.execute(
        "INSERT INTO phone_requests (id, phone_id, status, answer, at) VALUES (?, ?, ?, ?, ?)",
        (
            receipt.request_id,
            receipt.phone_id,
            receipt.status,
            json.dumps(receipt.answer),
            now.strftime(_STAMP),
        ),
    )


def _forget_answers(db: sqlite3.Connection, before: datetime) -> int:
    """Delete the answers kept for requests made before ``before``; how many went."""
    return db.execute(
        "DELETE FROM phone_requests WHERE at < ?", (before.strftime(_STAMP),)
    ).rowcount


def _chain_head(db: sqlite3.Connection, game_id: int) -> tuple[int, bytes]:
    """How many actions the game holds as its row says, and its last link."""
    row = db.execute("SELECT actions_count, chain FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise UnknownGameError(f"There is no stored game {game_id}")
    count, head = row
    if not isinstance(count, int) or count < 0 or not isinstance(head, bytes):
        raise _damaged(game_id, "its count of actions or its digest is not one we write")
    return count, head


def _check_chain(
    game_id: int,
    header: bytes | None,
    rows: list[tuple[bytes | None, object]],
    count: object,
    head: object,
) -> None:
    """:class:`DamagedGameError` unless the rows are the game's saved actions, all of them:
    each row's link is the hash of the previous link and its line, the game's row keeps the
    count and the last link (a deleted last row, or a changed line or header, shows)."""
    link = _chain_start(game_id, bytes(header or b""))
    for number, (line, stored) in enumerate(rows, start=1):
        link = blake2b(link + (line or b""), digest_size=16).digest()  # _chain_next
        if stored != link:
            where = "its header or action 1" if number == 1 else f"action {number}"
            raise _damaged(game_id, f"{where} was changed after it was saved")
    if not isinstance(count, int) or not isinstance(head, bytes):
        raise _damaged(game_id, "its count of actions or its digest is not one we write")
    if len(rows) < count:
        raise _damaged(game_id, f"its last {count - len(rows)} saved action(s) are missing")
    if len(rows) > count or head != link:
        raise _damaged(game_id, "its actions differ from those saved")


def _decoded(game_id: int, where: str, data: bytes | None) -> str:
    try:
        return (data or b"").decode("utf-8")
    except UnicodeDecodeError:
        raise DamagedGameError(
            f"Stored game {game_id} is damaged: {where}: its bytes are not UTF-8 text", game_id
        ) from None


def _raw_log_rows(
    db: sqlite3.Connection, game_id: int, *, chained: bool = True
) -> tuple[bytes, list[bytes]]:
    """The header and the action lines as stored, in ``seq`` order, up to a gap or (in a
    ``chained`` file) a line that is not as saved."""
    (header,) = db.execute(
        "SELECT CAST(header AS BLOB) FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    rows = db.execute(
        f"SELECT seq, CAST(line AS BLOB), {'chain' if chained else 'NULL'} FROM actions"
        " WHERE game_id = ? ORDER BY seq",
        (game_id,),
    ).fetchall()
    lines: list[bytes] = []
    link = _chain_start(game_id, bytes(header or b""))
    for expected, (seq, line, stored) in enumerate(rows, start=1):
        link = _chain_next(link, bytes(line or b""))
        if seq != expected or (chained and stored != link):
            break  # a gap, or a line changed (or the header): what follows is not as saved
        lines.append(line or b"")
    return header or b"", lines


def _replayable(header: bytes, lines: list[bytes]) -> tuple[str, int]:
    """The longest beginning of a stored log that parses and replays: its text and how many
    actions it holds ("" if the header itself is damaged)."""
    try:
        header_text = _one_line(header)
        log = parse_log(header_text)
        if log.header_line != 1:
            return "", 0
        game = Game(log.setup)
    except (UnicodeDecodeError, LogFormatError, ValueError):
        return "", 0
    kept = [header_text]
    for line in lines:
        try:
            text = _one_line(line)
            log = parse_log(f"{header_text}\n{text}")
            if log.lines != [2]:
                break  # blank or a comment
            game.apply(log.actions[0])
        except (UnicodeDecodeError, LogFormatError, ValueError):  # IllegalAction too
            break
        kept.append(text)
    return "".join(line + "\n" for line in kept), len(kept) - 1


def _one_line(data: bytes) -> str:
    text = data.decode("utf-8")
    if "\n" in text:
        raise ValueError("a stored line holds a line break")
    return text


_Result = TypeVar("_Result", Rating, Outcome, EndReason)


def _result(game_id: int, kind: type[_Result], value: bytes | None) -> _Result | None:
    """A stored rating, outcome or end reason (read as bytes) as its type; None stays None."""
    if value is None:
        return None
    try:
        return kind(bytes(value).decode("utf-8"))
    except ValueError:  # UnicodeDecodeError too
        raise DamagedGameError(
            f"Stored game {game_id} is damaged: {value!r} is not a {kind.__name__}", game_id
        ) from None


def _options_of_variant(text: str) -> GameOptions:
    """The options a stored ``variant`` names: their code, or, in a database written before
    codes were stored, their English name."""
    try:
        return GameOptions.from_code(text)
    except SetupError:
        return _options_by_english_name().get(text, GameOptions())


@cache
def _options_by_english_name() -> dict[str, GameOptions]:
    return {options.variant_name(): options for options in GameOptions.every()}


def _parse_game(game_id: int, header: str, lines: list[str]) -> tuple[GameSetup, list[Action]]:
    """Parse and replay a stored log with the engine; :class:`DamagedGameError` if it fails."""
    game = _replayed(game_id, header, lines)
    return game.setup, game.actions


def _replayed(game_id: int, header: str, lines: list[str]) -> Game:
    """The game a stored log folds into; :class:`DamagedGameError` if it does not."""
    text = "\n".join([header, *lines])
    try:
        log = parse_log(text)
    except LogFormatError as error:
        where = "its header" if error.line == 1 else f"action {error.line - 1}"
        raise DamagedGameError(
            f"Stored game {game_id} is damaged: {where}: {error.reason}", game_id
        ) from error
    if log.header_line != 1 or log.lines != list(range(2, len(lines) + 2)):
        raise DamagedGameError(
            f"Stored game {game_id} is damaged: a line is blank or a comment", game_id
        )
    game = Game(log.setup)
    for number, action in enumerate(log.actions, start=1):
        try:
            game.apply(action)
        except IllegalAction as error:
            raise DamagedGameError(
                f"Stored game {game_id} does not replay: action {number}: {error}", game_id
            ) from error
    return game


# -- the file ------------------------------------------------------------------


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
        problems = [row[0] for row in probe.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            return _Verdict("corrupt", f"the integrity check found: {problems[0]}")
        probes = _SCHEMA_PROBES + (_INTEGRITY_PROBES if version >= 3 else ())
        for query in probes:  # a column renamed by damaged bytes in the schema
            probe.execute(query).fetchall()
        return _Verdict("ours", version=version)
    except UnicodeDecodeError:
        return _Verdict("corrupt", "its list of tables holds bytes that are not text")
    except sqlite3.DatabaseError as error:
        if _is_damage(error):
            return _Verdict("corrupt", str(error))
        raise StorageError(f"Could not read the games database {path}: {error}") from error
    finally:
        probe.close()


#: The databases this process has open for writing, by (device, inode): see
#: :meth:`Storage.reader` for why nothing else of the process may open those files.
_OPEN_HERE: dict[tuple[int, int], Storage] = {}
_OPEN_HERE_LOCK = threading.Lock()


def _file_key(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _register(storage: Storage) -> None:
    key = _file_key(storage.path)
    if key is not None:
        with _OPEN_HERE_LOCK:
            _OPEN_HERE[key] = storage


def _unregister(storage: Storage) -> None:
    with _OPEN_HERE_LOCK:
        for key, held in list(_OPEN_HERE.items()):
            if held is storage:
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


def _read_only_uri(path: Path) -> str:
    """The URI that reads ``path`` and writes nothing, not even a journal beside it.

    Without a ``-wal`` file no connection has the database open (SQLite removes it with
    the last one), so the file alone is the whole database: ``immutable`` reads it
    without creating ``-wal``/``-shm``. With one, ``mode=ro`` reads the journal too.
    """
    uri = path.resolve().as_uri()
    return uri + ("?mode=ro" if _side_file(path, "-wal").exists() else "?immutable=1")


def _move_aside(path: Path, kind: str, stamp: str) -> Path:
    """Rename the database and its side files to ``<name>.<kind>-<stamp>[-N]``; return it."""
    base = f"{path.name}.{kind}-{stamp}"
    target = path.with_name(base)
    number = 1
    while any(_side_file(target, s).exists() for s in ("", *_SIDE_FILES)):
        number += 1
        target = path.with_name(f"{base}-{number}")
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


def _set_aside_orphans(path: Path, clock: Callable[[], datetime]) -> list[str]:
    """Move away a journal left without its database: SQLite would replay it into the new one."""
    moved: list[str] = []
    for suffix in ("-wal", "-journal"):
        source = _side_file(path, suffix)
        with contextlib.suppress(FileNotFoundError):
            if source.stat().st_size == 0:
                continue
            target = path.with_name(f"{path.name}.orphan-{_file_stamp(clock)}{suffix}")
            if target.exists():
                raise StorageError(f"Cannot move {source.name} aside: {target.name} exists")
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


def _create_schema(db: sqlite3.Connection, path: Path) -> None:
    """Create the tables and stamp the file as ours, in one transaction (all or nothing)."""
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            (application_id,) = db.execute("PRAGMA application_id").fetchone()
            (count,) = db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            if application_id == APPLICATION_ID:
                db.execute("COMMIT")  # another process created it meanwhile
                return
            if count:
                raise StorageError(
                    f"Another program created {path} while it was being set up; nothing was changed"
                )
            for statement in _SCHEMA:
                db.execute(statement)
            for migrate in _MIGRATIONS.values():
                migrate(db)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
    except sqlite3.Error as error:
        raise StorageError(f"Could not create the games database {path}: {error}") from error


def _upgrade_schema(db: sqlite3.Connection, path: Path) -> None:
    """Bring a database of an older schema to :data:`SCHEMA_VERSION` in place, every step
    in one transaction (all or nothing; another process may have done it meanwhile)."""
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            (version,) = db.execute("PRAGMA user_version").fetchone()
            if version < SCHEMA_VERSION and db.execute("SELECT 1 FROM games LIMIT 1").fetchone():
                log.info("upgrading %s to schema %d", path, SCHEMA_VERSION)  # not a new one
            for target in range(version + 1, SCHEMA_VERSION + 1):
                _MIGRATIONS[target](db)
            if version < SCHEMA_VERSION:
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
    except sqlite3.Error as error:
        raise StorageError(
            f"Could not bring the games database {path} up to date: {error}"
        ) from error


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


# -- the ledger: what a truncation of the database cannot reach ----------------------------


class LedgerState(Struct, frozen=True):
    """What the database held after its last confirmed write."""

    #: Rows in the table of games, and the highest id given.
    games: int = 0
    last_id: int = 0
    #: The game in play (None if none), and its saved actions.
    game: int | None = None
    actions: int = 0


_LEDGER_SLOT = 512
_LEDGER_MAGIC = b"HNBL"


class Ledger:
    """A 1 KiB file beside the database: two 512-byte slots written in turn (each with a
    sequence number and a CRC), so a write cut by a power cut leaves the other slot whole.

    It remembers how many games the file held and how many actions the game in play had, as
    of the last confirmed write: a database emptied, a game row deleted, or a journal cut
    (the last actions gone with it) then shows at the next opening. One ``pwrite`` of a
    sector and one ``fdatasync`` per write; no rename, no directory update.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        #: What the ledger held when opened (None: new, or both slots damaged).
        self.state: LedgerState | None = None
        self._sequence = 0
        try:
            data = os.pread(self._fd, 2 * _LEDGER_SLOT, 0)
        except OSError:
            self.close()
            raise
        best = _best_slot(data)
        #: Bytes were there but no slot reads back: the ledger itself was damaged.
        self.damaged = best is None and any(data)
        if best is not None:
            self._sequence, self.state = best
        self._written = self.state

    @staticmethod
    def look(path: Path) -> LedgerState | None:
        """What the ledger at ``path`` holds, read without creating or writing it (for the
        read-only commands); None if there is none, or it cannot be read."""
        try:
            with path.open("rb") as file:
                data = file.read(2 * _LEDGER_SLOT)
        except OSError:
            return None
        best = _best_slot(data)
        return None if best is None else best[1]

    def write(self, state: LedgerState) -> None:
        """Note ``state`` (nothing is written if it is what the ledger holds)."""
        if state == self._written or self._fd is None:
            return
        self._sequence += 1
        payload = json.dumps(
            {"seq": self._sequence, **asdict(state)}, separators=(",", ":")
        ).encode()
        record = _LEDGER_MAGIC + struct.pack(">IH", zlib.crc32(payload), len(payload)) + payload
        os.pwrite(self._fd, record.ljust(_LEDGER_SLOT, b"\0"), (self._sequence % 2) * _LEDGER_SLOT)
        os.fdatasync(self._fd)
        self._written = state

    def close(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)


def _best_slot(data: bytes) -> tuple[int, LedgerState] | None:
    """The newer of the ledger's two slots that read back (sequence number and state)."""
    best: tuple[int, LedgerState] | None = None
    for slot in range(2):
        found = _read_slot(data[slot * _LEDGER_SLOT : (slot + 1) * _LEDGER_SLOT])
        if found is not None and (best is None or found[0] > best[0]):
            best = found
    return best


def _read_slot(data: bytes) -> tuple[int, LedgerState] | None:
    """A slot's sequence number and state, or None if it is empty or damaged."""
    if len(data) < 10 or not data.startswith(_LEDGER_MAGIC):
        return None
    crc, size = struct.unpack(">IH", data[4:10])
    payload = data[10 : 10 + size]
    if len(payload) != size or zlib.crc32(payload) != crc:
        return None
    try:
        fields = json.loads(payload)
        state = LedgerState(
            games=int(fields["games"]),
            last_id=int(fields["last_id"]),
            game=None if fields["game"] is None else int(fields["game"]),
            actions=int(fields["actions"]),
        )
        return int(fields["seq"]), state
    except (ValueError, TypeError, KeyError):
        return None


def _ledger_state(db: sqlite3.Connection) -> LedgerState:
    """What the database holds now (read in the caller's transaction, if any)."""
    games, last_id = db.execute("SELECT COUNT(*), COALESCE(MAX(id), 0) FROM games").fetchone()
    row = db.execute(
        "SELECT id, actions_count FROM games WHERE status = 'playing' ORDER BY id DESC LIMIT 1"
    ).fetchone()
    if row is None or not isinstance(row[1], int):
        return LedgerState(games, last_id)
    return LedgerState(games, last_id, row[0], row[1])


def _compare_with_ledger(
    db: sqlite3.Connection,
    before: LedgerState | None,
    path: Path,
    kind: str,
    *,
    quiet: bool = False,
) -> list[tuple[str, dict[str, object]]]:
    """What the file lost since the ledger's last note, as findings (key, parameters);
    logged unless ``quiet`` (a read-only command says them itself)."""
    warn = log.debug if quiet else log.warning
    if before is None or before.games == 0:
        return []
    if kind == "new":  # missing, or 0 bytes: every game is gone
        warn("%s is empty or missing; its ledger says it held %d games", path, before.games)
        return [("database_emptied", {"games": before.games})]
    found: list[tuple[str, dict[str, object]]] = []
    ids = {
        game_id
        for (game_id,) in db.execute("SELECT id FROM games WHERE id <= ?", (before.last_id,))
    }
    missing = [game_id for game_id in range(1, before.last_id + 1) if game_id not in ids]
    if len(ids) < before.games and missing:
        listed = ", ".join(str(game_id) for game_id in missing[:8])
        if len(missing) > 8:
            listed += ", …"
        warn("%s: games missing from the table of games: %s", path, listed)
        found.append(("games_missing", {"games": listed}))
    if before.game is not None and before.game in ids:
        (held,) = db.execute(
            "SELECT COUNT(*) FROM actions WHERE game_id = ?", (before.game,)
        ).fetchone()
        if held < before.actions:
            warn(
                "%s: game %d holds %d actions; %d were saved",
                path,
                before.game,
                held,
                before.actions,
            )
            found.append(
                ("actions_missing", {"game": before.game, "missing": before.actions - held})
            )
    return found


def _finding_text(key: str, params: dict[str, object]) -> str:
    """A finding in English, for the command line and the log."""
    return i18n.tr("en", key, **params)


class DataDirLock:
    """One companion per data directory: an exclusive ``flock`` on :data:`LOCK_NAME`.

    The kernel drops the lock when the process ends, however it ends (a crash, ``kill -9``, a
    power cut), so a stale lock never blocks a restart. The file keeps the holder's process id,
    for the sentence the second companion prints.
    """

    def __init__(self, data_dir: Path) -> None:
        """Take the lock; :class:`CompanionRunningError` if another process holds it."""
        data_dir = Path(data_dir)
        _ensure_directory(data_dir)
        self.path = data_dir / LOCK_NAME
        try:
            self._fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as error:
            raise StorageError(
                f"Could not open the lock file {self.path}: {error.strerror or error}"
            ) from error
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_pid(self._fd)
            os.close(self._fd)
            self._fd = None
            who = f" (process {holder})" if holder else ""
            raise CompanionRunningError(
                f"Another companion{who} is already running on the data directory {data_dir};"
                " only one may use it at a time"
            ) from None
        except OSError as error:
            os.close(self._fd)
            self._fd = None
            raise StorageError(f"Could not lock {self.path}: {error.strerror or error}") from error
        with contextlib.suppress(OSError):  # the id is a courtesy: a full card keeps the lock
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, f"{os.getpid()}\n".encode(), 0)

    def release(self) -> None:
        """Let the lock go (closing the file releases it). Idempotent."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)

    def __enter__(self) -> DataDirLock:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.release()


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


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


def default_data_dir() -> Path:
    """``$STATE_DIRECTORY`` under systemd, else ``$XDG_STATE_HOME/hanabi-companion``."""
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return Path(state.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "hanabi-companion"
