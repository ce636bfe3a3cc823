"""The statistics across games, kept by SQLite as counts that a finished game adds to.

Schema 5 (issue 34, decision 0115): ``tallies`` counts the finished games per set-up
(``player`` empty) and per player name and set-up, by score, perfect or not, struck out
or not, with the sum of their efficiencies (hand memory) and how many had one. Every
figure the history shows (games, average, best, perfect and strikeout rates, average
efficiency) is a sum over these rows, whose number grows with the set-ups, names and
scores seen, never with the games. Triggers on ``games`` add a game when it is finished
and take it away when it changes or goes (an undo, a hand edit): no row is ever counted
again from the games, so a change costs the same at 10 games and at 10,000.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from msgspec import Struct

from companion.storage.reading import _lenient, _options_of_variant
from companion.vocabulary.records import PlayerStatsRow, StatsRow
from engine.options import GameOptions

#: The names of a game's header (strings only, each once; a header that is not JSON: none).
_NAMES = (
    "SELECT DISTINCT value FROM json_each(CASE WHEN json_valid({g}.header)"
    " THEN {g}.header ELSE '{{}}' END, '$.names') WHERE type = 'text'"
)
#: The key and the figures one finished game (``g``: NEW or OLD) adds to a row.
_KEY = "{g}.players, {g}.variant, {g}.score, {g}.end_reason IS 'perfect',"
_KEY += " {g}.end_reason IS 'strikeout'"
_ADD = "1, {g}.efficiency IS NOT NULL, COALESCE({g}.efficiency, 0.0)"
_COLUMNS = "player, players, variant, score, perfect, strikeout, games, rated, efficiency"
_UPSERT = (
    " ON CONFLICT (player, players, variant, score, perfect, strikeout) DO UPDATE SET"
    " games = games + excluded.games, rated = rated + excluded.rated,"
    " efficiency = efficiency + excluded.efficiency;"
)


def _add(g: str) -> str:
    """SQL that adds finished game ``g`` to its set-up's row and to each of its players'."""
    key, add = _KEY.format(g=g), _ADD.format(g=g)
    return (
        f"INSERT INTO tallies ({_COLUMNS}) VALUES ('', {key}, {add}){_UPSERT}"
        f" INSERT INTO tallies ({_COLUMNS}) SELECT value, {key}, {add}"
        f" FROM ({_NAMES.format(g=g)}) WHERE true{_UPSERT}"
    )


def _take(g: str) -> str:
    """SQL that takes finished game ``g`` out of the rows it was added to."""
    key = _KEY.format(g=g)
    where = "(players, variant, score, perfect, strikeout) = (" + key + ")"
    return (
        f"UPDATE tallies SET games = games - 1, rated = rated - ({g}.efficiency IS NOT NULL),"
        f" efficiency = efficiency - COALESCE({g}.efficiency, 0.0)"
        f" WHERE {where} AND (player = '' OR player IN ({_NAMES.format(g=g)}));"
        " DELETE FROM tallies WHERE games <= 0;"
    )


_WATCHED = "status, score, players, variant, header, end_reason, efficiency"

SCHEMA_TALLIES = (
    "ALTER TABLE games ADD COLUMN efficiency REAL",
    """
    CREATE TABLE IF NOT EXISTS tallies (
        player     TEXT    NOT NULL,
        players    INTEGER NOT NULL,
        variant    TEXT    NOT NULL,
        score      INTEGER NOT NULL,
        perfect    INTEGER NOT NULL,
        strikeout  INTEGER NOT NULL,
        games      INTEGER NOT NULL,
        rated      INTEGER NOT NULL,
        efficiency REAL    NOT NULL,
        PRIMARY KEY (player, players, variant, score, perfect, strikeout)
    ) WITHOUT ROWID
    """,
    f"""
    CREATE TRIGGER IF NOT EXISTS tallies_insert AFTER INSERT ON games
    WHEN NEW.status = 'over' BEGIN {_add("NEW")} END
    """,
    f"""
    CREATE TRIGGER IF NOT EXISTS tallies_take AFTER UPDATE OF {_WATCHED} ON games
    WHEN OLD.status = 'over' BEGIN {_take("OLD")} END
    """,
    f"""
    CREATE TRIGGER IF NOT EXISTS tallies_add AFTER UPDATE OF {_WATCHED} ON games
    WHEN NEW.status = 'over' BEGIN {_add("NEW")} END
    """,
    f"""
    CREATE TRIGGER IF NOT EXISTS tallies_delete AFTER DELETE ON games
    WHEN OLD.status = 'over' BEGIN {_take("OLD")} END
    """,
)

#: The columns schema 5 added, probed in a file of schema 5 or later.
TALLY_PROBES = (
    "SELECT efficiency FROM games LIMIT 0",
    f"SELECT {_COLUMNS} FROM tallies LIMIT 0",
)


def _migrate_tallies(db: sqlite3.Connection) -> None:
    """Version 4 to 5 (issue 34): the efficiency column and the tallies, counted once from
    the finished games as they are (their efficiency unknown: none is replayed here)."""
    for statement in SCHEMA_TALLIES:
        db.execute(statement)
    db.execute("DELETE FROM tallies")
    key = _KEY.format(g="games")
    db.execute(
        f"INSERT INTO tallies ({_COLUMNS}) SELECT '', {key}, COUNT(*), COUNT(efficiency),"
        " COALESCE(SUM(efficiency), 0.0) FROM games WHERE status = 'over'"
        " GROUP BY 1, 2, 3, 4, 5, 6"
    )
    names = "CASE WHEN json_valid(header) THEN header ELSE '{}' END"
    db.execute(
        f"INSERT INTO tallies ({_COLUMNS}) SELECT name, players, variant, score, perfect,"
        " strikeout, COUNT(*), COUNT(efficiency), COALESCE(SUM(efficiency), 0.0) FROM"
        " (SELECT DISTINCT games.id, names.value AS name, players, variant, score,"
        " end_reason IS 'perfect' AS perfect, end_reason IS 'strikeout' AS strikeout,"
        " efficiency"
        f" FROM games, json_each({names}, '$.names') AS names"
        " WHERE games.status = 'over' AND names.type = 'text')"
        " GROUP BY 1, 2, 3, 4, 5, 6"
    )


class _Sum(Struct):
    """The figures of one group, added up from its rows."""

    games: int = 0
    total: int = 0
    best: int = 0
    perfect: int = 0
    strikeouts: int = 0
    rated: int = 0
    efficiency: float = 0.0

    def add(
        self, score: int, perfect: int, strikeout: int, games: int, rated: int, eff: float
    ) -> None:
        self.games += games
        self.total += score * games
        self.best = max(self.best, score)
        self.perfect += perfect * games
        self.strikeouts += strikeout * games
        self.rated += rated
        self.efficiency += eff

    def merge(self, other: _Sum) -> None:
        """Add another group's figures to these."""
        self.games += other.games
        self.total += other.total
        self.best = max(self.best, other.best)
        self.perfect += other.perfect
        self.strikeouts += other.strikeouts
        self.rated += other.rated
        self.efficiency += other.efficiency

    def average_efficiency(self) -> float | None:
        return round(self.efficiency / self.rated, 4) if self.rated > 0 else None


def _tally_rows(db: sqlite3.Connection) -> list[tuple[Any, ...]]:
    return db.execute(
        "SELECT CAST(player AS BLOB), players, CAST(variant AS BLOB), score, perfect, strikeout,"
        " games, rated, efficiency FROM tallies WHERE games > 0"
    ).fetchall()


def _player_rows(rows: list[tuple[Any, ...]]) -> list[PlayerStatsRow]:
    """Each player name's figures over every set-up, most games first, then by name."""
    sums: dict[str, _Sum] = {}
    for player, _, _, score, perfect, strikeout, games, rated, eff in rows:
        name = _lenient(player) or ""
        if name:
            sums.setdefault(name, _Sum()).add(score, perfect, strikeout, games, rated, eff)
    return [
        PlayerStatsRow(
            name,
            s.games,
            s.best,
            s.total / s.games,
            s.perfect,
            s.strikeouts,
            s.average_efficiency(),
        )
        for name, s in sorted(sums.items(), key=lambda item: (-item[1].games, item[0]))
    ]


def _setup_sums(rows: list[tuple[Any, ...]]) -> dict[tuple[int, str], _Sum]:
    """The set-up rows' figures by (players, stored variant)."""
    sums: dict[tuple[int, str], _Sum] = {}
    for player, players, variant, score, perfect, strikeout, games, rated, eff in rows:
        if not (_lenient(player) or ""):
            key = (players, _lenient(variant) or "")
            sums.setdefault(key, _Sum()).add(score, perfect, strikeout, games, rated, eff)
    return sums


def _setup_rows(rows: list[tuple[Any, ...]]) -> list[StatsRow]:
    """Each set-up's figures, groups whose variant names the same options added up, by
    player count then the options' code (as :func:`~companion.storage.reading._stats_rows`)."""
    groups: dict[tuple[int, str], tuple[GameOptions, _Sum]] = {}
    for (players, variant), part in _setup_sums(rows).items():
        options = _options_of_variant(variant)
        _, whole = groups.setdefault((players, options.code()), (options, _Sum()))
        whole.merge(part)
    return [
        StatsRow(
            players,
            options,
            s.games,
            s.best,
            s.total / s.games,
            s.perfect,
            s.strikeouts,
            s.average_efficiency(),
        )
        for (players, _), (options, s) in sorted(groups.items())
    ]


def _has_tallies(db: sqlite3.Connection) -> bool:
    """Whether the file has schema 5's tallies (a file only read may be older)."""
    found = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tallies'")
    return found.fetchone() is not None
