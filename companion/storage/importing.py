"""Importing games read from logs (a restore, ``hanabi-companion import``).

Each game is stored with its chain of links, unless the same log is stored already.
"""

from __future__ import annotations

import sqlite3

from companion.storage.chain import _append_lines, _start_chain
from companion.storage.reading import _raw_log_rows
from companion.vocabulary.records import GameStatus, GameToImport, ImportedGame
from engine.log import dump_line, setup_to_dict


def _import_games(
    db: sqlite3.Connection, games: list[GameToImport], stamp: str
) -> list[ImportedGame]:
    """Store ``games`` (in the caller's transaction) as :meth:`Storage.import_games
    <companion.storage.Storage.import_games>` says; ``stamp`` is the time of a game that
    has none."""
    done: list[ImportedGame] = []
    by_header: dict[bytes, list[int]] = {}
    for game_id, header in db.execute("SELECT id, CAST(header AS BLOB) FROM games"):
        by_header.setdefault(bytes(header or b""), []).append(game_id)
    in_play = db.execute("SELECT 1 FROM games WHERE status = 'playing'").fetchone() is not None
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
            number < 1 or db.execute("SELECT 1 FROM games WHERE id = ?", (number,)).fetchone()
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
    return done
