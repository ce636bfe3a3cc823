"""Reading stored games back from the database's rows.

A game's header and lines (checked against their chain), a row of the history, the
statistics, the longest beginning of a damaged log that still replays, a stored result or
variant as its type.

Damaged bytes make a :class:`~companion.storage.errors.DamagedGameError` naming the game,
never a failure of the whole query.
"""

from __future__ import annotations

import sqlite3
from functools import cache
from typing import Any, TypeVar

from companion.storage.chain import _chain_next, _chain_start, _check_chain, _damaged
from companion.storage.errors import DamagedGameError, UnknownGameError
from companion.vocabulary.records import GameStatus, HistoryRow, StatsRow
from engine.actions import Action
from engine.errors import IllegalAction
from engine.game import Game
from engine.log import LogFormatError, parse_log
from engine.options import GameOptions, SetupError
from engine.outcome import EndReason, Outcome, Rating
from engine.setup import GameSetup

#: The columns of a history row (see :func:`_history_row`), read as bytes where damaged
#: bytes must not fail the whole query.
#: The history lists every game but an unfinished one with no action: a New game pressed
#: by mistake, or one the app was stopped in before its first action, is no game of the
#: history (docs/decisions/0101-a-game-without-actions-is-not-listed.md). Its row stays in
#: the file (the ledger counts every number given); a finished game is listed whatever
#: its actions (one whose actions are gone is damage, said).
_HISTORY_SELECT = (
    "SELECT id, CAST(started_at AS BLOB), CAST(finished_at AS BLOB), score, max_score,"
    " CAST(rating AS BLOB), CAST(outcome AS BLOB), CAST(end_reason AS BLOB) FROM games"
    " WHERE NOT (status IN ('playing', 'abandoned')"
    " AND NOT EXISTS (SELECT 1 FROM actions WHERE actions.game_id = games.id))"
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


def _stats_rows(rows: list[tuple[Any, ...]]) -> list[StatsRow]:
    """The statistics from the rows of ``game_stats`` (players, variant as bytes, games, best,
    total): a row per table size and options, groups whose variant names the same options
    (a code, an older English name) added up, by player count then the options' code."""
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
