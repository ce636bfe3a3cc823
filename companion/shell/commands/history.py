"""The ``history`` command: the stored games listed, newest first, a page at a time."""

from __future__ import annotations

import argparse
import sys

from companion.shell.commands.choices import HISTORY_LIST_PAGE
from companion.shell.commands.stored import storage_to_read, unseen_findings
from companion.storage import StorageError
from companion.vocabulary.records import GameStatus, HistoryRow

NO_GAME_STORED = "No game stored yet."
#: The ``finished`` column of a game not finished (in play, or left for another game).
UNFINISHED = "unfinished"


def history_command(args: argparse.Namespace) -> int:
    """List the games: date, players, variant, score, rating (or unfinished)."""
    if args.stats:
        from companion.shell.commands.stats import stats_command

        return stats_command(args)
    try:
        storage = storage_to_read(args.data_dir)
    except StorageError as error:
        print(f"hanabi-companion: {error}", file=sys.stderr)
        return 1
    unseen = unseen_findings(args.data_dir, storage)
    if storage is None:
        print(NO_GAME_STORED)
        return _say_unseen(unseen)
    try:
        try:
            page = storage.history_page(
                skip=(args.page - 1) * HISTORY_LIST_PAGE, limit=HISTORY_LIST_PAGE
            )
        except StorageError as error:
            print(f"hanabi-companion: {error}", file=sys.stderr)
            return 1
        rows = page.rows
        if not rows:
            print(NO_GAME_STORED if args.page == 1 else f"No page {args.page}.")
            return _say_unseen(unseen)
        print(f"{'game':>4}  {'finished':<20} {'players':<28} {'variant':<22} score  rating")
        damaged = 0
        for row in rows:
            finished = _finished_column(row)
            if row.damaged:
                damaged += 1
                print(f"{row.id:>4}  {finished:<20} damaged: {row.damaged}")
                continue
            players = ", ".join(row.names)
            result = row.rating or row.outcome
            rating = "" if result is None else result.value
            if row.resumable:  # left unfinished: "playing" or "abandoned", resumable
                rating = f"resumable ({row.status.value})"
            print(
                f"{row.id:>4}  {finished:<20} {players:<28.28} "
                f"{row.options.variant_name():<22.22} {_score_out_of(row):>5}  {rating}"
            )
        if page.more:
            print(f"Older games: hanabi-companion history --page {args.page + 1}")
        if damaged:
            print(
                f"hanabi-companion: {damaged} stored game(s) are damaged; they are kept as they"
                " are, and `export --game N` prints the part of each that replays",
                file=sys.stderr,
            )
        return max(_say_unseen(unseen), 1 if damaged else 0)
    finally:
        storage.close()


def _say_unseen(unseen: list[str]) -> int:
    """List the findings no player has acknowledged; 1 while any is open, else 0."""
    if not unseen:
        return 0
    print(f"Not yet seen on the panel ({len(unseen)}; OK there says they were):")
    for words in unseen:
        print(f"  - {words}")
    return 1


def _finished_column(row: HistoryRow) -> str:
    """When the game ended (``2026-11-21T10:15:00``, UTC), or "unfinished": an abandoned game
    keeps the time it was left in ``finished_at``, which is not an end."""
    if row.status is not GameStatus.OVER or not row.finished_at:
        return UNFINISHED
    return row.finished_at[:19]


def _score_out_of(row: HistoryRow) -> str:
    """The score out of the variant's most: ``21/25``, ``28/30``."""
    return f"{row.score}/{row.max_score}"
