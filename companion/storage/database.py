"""The :class:`Storage` class, the games database of one data directory.

Every read and write of the games goes through it.

Durability: every write method runs in its own ``BEGIN IMMEDIATE … COMMIT`` and returns
only once SQLite has committed it (WAL journal, ``synchronous=FULL``), so an action the
screen shows is on disk; a writer killed mid-call loses at most the action it had not yet
confirmed.

The file is ours only if SQLite says so: a file that is not a database, a damaged one, one
of another program (another ``application_id``) or of a newer schema is renamed aside (with
its ``-wal``/``-shm`` files), never overwritten, and :attr:`Storage.notice` says so in words
(:mod:`companion.storage.opening`, :mod:`companion.storage.damage`).
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import datetime, timedelta
from pathlib import Path
from types import TracebackType
from typing import Any, Final

from msgspec.structs import replace

from companion.storage import settings
from companion.storage.chain import _append_lines, _chain_head, _drop_last_line, _start_chain
from companion.storage.damage import _check_words, _is_damage
from companion.storage.errors import (
    DamagedGameError,
    GameStateError,
    StorageError,
    StorageFullError,
    UnknownGameError,
)
from companion.storage.files import (
    _STAMP,
    _as_utc,
    _connect_reader,
    _ensure_directory,
    _utc_now,
)
from companion.storage.findings import Keeper, _write_db_kept
from companion.storage.full import _disk_full, _full_error, _is_full
from companion.storage.handles import _refuse_second_handle, _register, _unregister
from companion.storage.hint_levels import keep_hint_level
from companion.storage.importing import _import_games
from companion.storage.ledger import Ledger, _ledger_state
from companion.storage.opening import _open_file, _open_to_read
from companion.storage.phones import (
    PHONE_ANSWERS_KEPT,
    _forget_answers,
    _keep_receipt,
    _pair_phone,
    _paired_phones,
    _phone_answer,
)
from companion.storage.reading import (
    _HISTORY_SELECT,
    _history_row,
    _lenient,
    _log_rows,
    _parse_game,
    _raw_log_rows,
    _replayable,
    _replayed,
    _stats_rows,
    _status,
    _status_words,
)
from companion.storage.tallies import _has_tallies, _player_rows, _setup_rows, _tally_rows
from companion.vocabulary.phone import PairedPhone, PhoneReceipt
from companion.vocabulary.records import (
    Finding,
    GameStatus,
    GameToImport,
    HistoryPage,
    HistoryRow,
    ImportedGame,
    PlayerStatsRow,
    StatsRow,
    StoredEntry,
    StoredGame,
)
from engine.actions import Action, Discard, Hint, Play
from engine.game import Game
from engine.log import action_to_dict, dump_line, setup_to_dict
from engine.setup import GameSetup
from engine.story import efficiency

log = logging.getLogger("hanabi-companion.storage")


HISTORY_PAGE: Final = 20
"""How many games :meth:`Storage.history_page` reads at a time unless told otherwise."""


class Storage:
    """The games database of one data directory (:meth:`open`): safe to share between
    threads (one lock serialises the calls); several processes may open the same file."""

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
        #: What storage itself has to say about the file found at opening (moved aside, a
        #: damaged journal), in its own plain sentences; None if it has nothing to say.
        #: What the ledger found is in :attr:`findings` only: the caller words it.
        self.notice = notice
        #: The copy of a damaged journal kept aside at opening (``notice`` then says so).
        self.journal_copy: Path | None = None
        #: What the data directory remembers of the file (None for a bare :class:`Storage`).
        self.ledger: Ledger | None = None
        #: What was found at opening, as sentences of the app (a key of
        #: :mod:`companion.core.i18n` and its parameters), for the caller to say it in its
        #: language: a file moved aside (``notice`` says it too), what the ledger misses.
        self.findings: list[tuple[str, dict[str, object]]] = []
        #: The findings kept in the data directory (None for a file only read).
        self._keeper: Keeper | None = None
        #: The findings no player has acknowledged, for a file only read.
        self._open_findings: list[Finding] = []
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
        opened = _open_file(data_dir, path, clock)
        storage = cls(opened.connection, path, opened.notice, clock)
        storage.ledger = opened.ledger
        storage.findings = opened.findings
        storage.journal_copy = opened.journal_copy
        storage._keeper = opened.keeper
        _register(storage.path, storage)
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
        opened = _open_to_read(data_dir, path)
        if opened is None:
            return None
        storage = cls(opened.connection, path, opened.notice, _utc_now)
        storage.findings = opened.findings
        storage._open_findings = opened.open_findings
        storage.chained = opened.chained
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
                    connection = _connect_reader(self.path)
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
                if reader._connection is not None:  # a check in the background stops
                    reader._connection.interrupt()
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

    def check(self) -> list[str]:
        """The whole-file check (SQLite's ``quick_check``): one sentence per problem, none
        if the file is whole.

        It reads every page, which grows with the games (seconds on a Pi's card at 10,000),
        so it never runs at opening: the ``check`` command runs it, and the app in the
        background after its first frame, on its :meth:`reader`.
        """
        try:
            with self._transaction("check the games database", write=False) as db:
                rows = [str(row[0]) for row in db.execute("PRAGMA quick_check")]
        except StorageError as error:
            return [str(error)]
        return _check_words(self.path, rows)

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

    # -- findings (kept until a player has seen them) --------------------------

    @property
    def open_findings(self) -> list[Finding]:
        """The findings no player has acknowledged yet, oldest first: kept in the database
        and in ``games.findings`` beside it, said at every start until acknowledged."""
        with self._lock:
            if self._owner is not None:
                return self._owner.open_findings
            if self._keeper is None:
                return list(self._open_findings)
            return list(self._keeper.kept.open)

    def keep_findings(
        self, found: Iterable[tuple[str, Mapping[str, object]]], *, once: bool = True
    ) -> list[Finding]:
        """Keep ``found`` (sentences of the app: key, parameters) until a player has seen
        them: in the file beside the database first, then in the database. ``once``: what
        is already open or was acknowledged with the same words is not kept again (a
        damaged game met again). Returns the findings added."""
        if self._owner is not None:
            return self._owner.keep_findings(found, once=once)
        with self._lock:
            keeper = self._keeper
            if keeper is None or self._connection is None:
                raise StorageError("The findings cannot be kept: the games database is only read")
            try:
                added = keeper.add(found, once=once)
                if added:
                    keeper.save(self._connection)
            except sqlite3.Error as error:  # kept in the file all the same
                raise StorageError(f"Could not keep what was found: {error}") from error
            return added

    def acknowledge_findings(self, ids: list[str] | tuple[str, ...]) -> None:
        """A player has seen the findings ``ids``: they leave both copies (the database's
        row, then the file; a power cut between them brings them back, never drops one)."""
        with self._lock:
            keeper = self._keeper
            if keeper is None or self._connection is None:
                raise StorageError("The findings cannot be changed: the database is only read")
            before = keeper.kept
            keeper.acknowledge(ids)
            try:
                with self._transaction("note the findings seen", write=True) as db:
                    _write_db_kept(db, keeper.kept)
                keeper.file.write(keeper.kept)
            except StorageError:
                keeper.kept = before  # still open: said again
                raise

    def _witness(self) -> None:
        """Note in the findings file how many games the database holds (after a new game or
        an import): with the ledger gone, a database emptied is still said."""
        keeper = self._keeper
        if keeper is None or self._connection is None:
            return
        try:
            state = _ledger_state(self._connection)
            if (state.games, state.last_id) != (keeper.kept.games, keeper.kept.last_id):
                keeper.file.write(keeper.witness(state.games, state.last_id))
        except (StorageError, sqlite3.Error) as error:  # the games are safe in the database
            log.warning("Could not note the games in %s: %s", keeper.file.path, error)

    # -- games ---------------------------------------------------------------

    def new_game(self, setup: GameSetup, *, hint_level: str | None = None) -> int:
        """Store a new game (status ``playing``) and return its id.

        Any other game still ``playing`` is marked ``abandoned``: one table,
        one game at a time. ``hint_level`` is kept with it (:mod:`~.hint_levels`).
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
            keep_hint_level(db, game_id, hint_level)
        self.checkpoint()
        with self._lock:
            self._witness()
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
            _drop_last_line(db, game_id, last)
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
                " score = ?, max_score = ?, rating = ?, outcome = ?, end_reason = ?,"
                " efficiency = ? WHERE id = ?",
                (
                    stamp,
                    game.score,
                    game.setup.max_score,
                    None if rating is None else rating.value,
                    None if outcome is None else outcome.value,
                    None if reason is None else reason.value,
                    efficiency(game),
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
            status = _status(db, game_id)
            header, lines = _log_rows(db, game_id, chained=self.chained)
            (score,) = db.execute("SELECT score FROM games WHERE id = ?", (game_id,)).fetchone()
        game = _replayed(game_id, header, lines)
        if status is GameStatus.OVER and (score != game.score or not game.is_over):
            raise DamagedGameError(  # as the history judges it (reading._history_row)
                f"Stored game {game_id} is damaged: its stored score or end differs from its"
                " actions",
                game_id,
            )
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
        and those left unfinished (in play, or abandoned for a new game), resumable; an
        unfinished one with no action is not listed (nothing to resume).

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
        where = "" if before is None else " AND id < ?"
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
        same action lines, as storage writes them (so the dates in the header count,
        and a game stored twice is stored once). A finished game is stored ``over`` with its
        result; an unfinished one ``abandoned`` (resumable from the history), or ``playing``
        if it was in play and no game is in play here. Its number is kept where free.
        """
        stamp = self._stamp()
        with self._transaction(f"import {len(games)} games", write=True) as db:
            done = _import_games(db, games, stamp)
        self.checkpoint()
        with self._lock:
            self._witness()
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
        """The figures per (players, options) of the finished games, by player count then
        options' code: sums of ``tallies`` (an older file only read: ``game_stats``)."""
        with self._transaction("read the statistics", write=False) as db:
            if _has_tallies(db):
                return _setup_rows(_tally_rows(db))
            rows = db.execute(
                "SELECT players, CAST(variant AS BLOB), games, best, total FROM game_stats"
            ).fetchall()
        return _stats_rows(rows)

    def player_stats(self) -> list[PlayerStatsRow]:
        """The figures per player name over every set-up, most games first."""
        with self._transaction("read the statistics", write=False) as db:
            return _player_rows(_tally_rows(db)) if _has_tallies(db) else []

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
        return default if row is None else settings.decode(row[0], default)

    def set_setting(self, key: str, value: Any) -> None:
        """Remember ``value`` (JSON data: tuples come back as lists) under ``key``."""
        text = settings.encode(key, value)
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
            return _pair_phone(db, name, token_hash, stamp)

    def paired_phones(self) -> dict[bytes, PairedPhone]:
        """The paired phones by their token's hash, oldest first."""
        with self._transaction("read the paired phones", write=False) as db:
            return _paired_phones(db)

    def remove_phone(self, phone_id: int) -> None:
        """Forget a paired phone: its token no longer acts, from now on."""
        with self._transaction("remove a phone", write=True) as db:
            db.execute("DELETE FROM phones WHERE id = ?", (phone_id,))

    def phone_answer(self, phone_id: int, request_id: str) -> tuple[int, dict[str, Any]] | None:
        """The answer given to this phone's request (its HTTP status and JSON), if any."""
        with self._transaction("read a phone's answer", write=False) as db:
            return _phone_answer(db, phone_id, request_id)

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
