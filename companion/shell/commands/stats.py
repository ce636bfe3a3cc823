"""``history --stats``: the figures across the finished games, per set-up and per player."""

from __future__ import annotations

import argparse
import sys

from companion.shell.commands.stored import storage_to_read
from companion.storage import PlayerStatsRow, StatsRow, StorageError

NO_FINISHED_GAME = "No finished game yet."
_HEAD = f"{'games':>5} {'average':>7} {'best':>4} {'perfect':>7} {'struck':>6} {'efficiency':>10}"


def percent(part: int, whole: int) -> str:
    """``17%``: a share of the games, rounded."""
    return f"{round(100 * part / whole)}%" if whole else "–"


def figures(row: StatsRow | PlayerStatsRow) -> str:
    """One row's figures, in the columns of :data:`_HEAD`."""
    efficiency = "–" if row.efficiency is None else f"{row.efficiency:.2f}"
    return (
        f"{row.games:>5} {row.average:>7.1f} {row.best:>4} {percent(row.perfect, row.games):>7}"
        f" {percent(row.strikeouts, row.games):>6} {efficiency:>10}"
    )


def stats_command(args: argparse.Namespace) -> int:
    """Print the figures per set-up (players, variant), then per player name."""
    try:
        storage = storage_to_read(args.data_dir)
    except StorageError as error:
        print(f"hanabi-companion: {error}", file=sys.stderr)
        return 1
    if storage is None:
        print(NO_FINISHED_GAME)
        return 0
    try:
        setups, players = storage.stats(), storage.player_stats()
    except StorageError as error:
        print(f"hanabi-companion: {error}", file=sys.stderr)
        return 1
    finally:
        storage.close()
    if not setups:
        print(NO_FINISHED_GAME)
        return 0
    print(f"{'set-up':<32} {_HEAD}")
    for row in setups:
        print(f"{f'{row.players}P · {row.options.variant_name()}':<32.32} {figures(row)}")
    if players:
        print()
        print(f"{'player':<32} {_HEAD}")
        for player in players:
            print(f"{player.name:<32.32} {figures(player)}")
    return 0
