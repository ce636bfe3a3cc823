"""The games database's schema: its tables, migrations and probes.

The steps of :data:`_MIGRATIONS` upgrade an older file in place; the probes are queries
naming every column we use, which a damaged schema fails.

A new file is created with version 1's tables, then every step of :data:`_MIGRATIONS`, in
one transaction; a file of an older version gets the steps it lacks at opening.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Final

from companion.storage.chain import _chain_next, _chain_start
from companion.storage.errors import StorageError
from companion.storage.tallies import TALLY_PROBES, _migrate_tallies

log = logging.getLogger("hanabi-companion.storage")

APPLICATION_ID: Final = 0x48414E42
"""``PRAGMA application_id`` of our database files: ASCII ``HANB``."""

SCHEMA_VERSION: Final = 5
"""``PRAGMA user_version`` of the schema storage creates (older ones are upgraded in place,
see :data:`_MIGRATIONS`)."""

_TABLES = frozenset({"games", "actions", "settings"})
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
#: The columns and table schema 5 added (:mod:`~companion.storage.tallies`).
_TALLY_PROBES = TALLY_PROBES


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
    5: _migrate_tallies,
}


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


@cache
def _expected_schema(version: int) -> dict[tuple[str, str], str]:
    """The text of each table, index and trigger a file of ``version`` holds when this code
    made or upgraded it (white space folded), by (type, name).

    Built once in memory the way a new file is (version 1's tables, then each step), so a
    byte changed inside a CHECK expression that still reads as SQL (``seq >= 1`` become
    ``seq >= 9``: a file that refuses our own writes) is told from the schema we write.
    """
    db = sqlite3.connect(":memory:")
    try:
        for statement in _SCHEMA:
            if not statement.lstrip().upper().startswith("PRAGMA"):
                db.execute(statement)
        for target in range(2, version + 1):
            _MIGRATIONS[target](db)
        rows = db.execute("SELECT type, name, sql FROM sqlite_master WHERE sql NOT NULL")
        return {(kind, name): " ".join(sql.split()) for kind, name, sql in rows}
    finally:
        db.close()


def _schema_changed(db: sqlite3.Connection, version: int) -> list[str]:
    """The tables, indexes and triggers of ``db`` whose text is not the one this code writes
    for ``version`` (an object it does not know, or one an older release never made, is
    left to the probes)."""
    expected = _expected_schema(version)
    rows = db.execute("SELECT type, name, sql FROM sqlite_master WHERE sql NOT NULL")
    return [
        f"{kind} {name}"
        for kind, name, sql in rows
        if (kind, name) in expected and " ".join(sql.split()) != expected[(kind, name)]
    ]
