"""The ``export`` and ``import`` commands: stored games out as hanabi-log/1 logs, and back in."""

from __future__ import annotations

import argparse
import sys

from companion.shell.backup import export_all, games, import_logs, read_logs
from companion.shell.commands.stored import game_to_read, open_storage, storage_to_read
from companion.storage import (
    DamagedGameError,
    DataDirLock,
    Storage,
    StorageError,
    default_data_dir,
    end_line,
)
from engine.errors import CompanionError
from engine.hanab_live import export_log


def export_command(args: argparse.Namespace) -> int:
    """Print the game in progress (or the given one) as a hanabi-log/1 log."""
    if args.hanab_live or args.hanab_live_url:
        if args.all is not None or args.bgstats:
            print("hanabi-companion: --hanab-live exports one game, on its own", file=sys.stderr)
            return 2
        return hanab_live_command(args)
    if args.bgstats:
        if args.all is not None:
            print("hanabi-companion: --bgstats logs one game: not with --all", file=sys.stderr)
            return 2
        from companion.shell.commands.plays import bgstats_command

        return bgstats_command(args)
    if args.all is not None:
        return export_all_command(args)
    opened = game_to_read(args.data_dir, args.game, _game_in_play)
    if isinstance(opened, int):
        return opened
    storage, game_id = opened
    try:
        try:
            text = storage.export(game_id)
            sys.stdout.write(text + end_line(game_id, text))
        except DamagedGameError as error:
            # The part that still replays goes out; the error says where it stops.
            text, actions = storage.replayable_part(game_id)
            sys.stdout.write(text + (end_line(game_id, text, damaged=True) if text else ""))
            kept = (
                f"the first {actions} actions, which replay, were printed"
                if text
                else ("nothing of it replays")
            )
            print(f"hanabi-companion: {error}; {kept}", file=sys.stderr)
            return 1
        return 0
    except StorageError as error:
        print(f"hanabi-companion: {error}", file=sys.stderr)
        return 1
    finally:
        storage.close()


def hanab_live_command(args: argparse.Namespace) -> int:
    """Print the given game (default: the latest) as Hanab Live's JSON, or its replay link;
    a game that cannot go says why in one sentence (exit 1)."""
    opened = game_to_read(args.data_dir, args.game, Storage.latest_game_id)
    if isinstance(opened, int):
        return opened
    storage, game_id = opened
    try:
        print(export_log(storage.export(game_id), link=args.hanab_live_url))
        return 0
    except (StorageError, CompanionError) as error:
        print(f"hanabi-companion: game {game_id}: {error}", file=sys.stderr)
        return 1
    finally:
        storage.close()


def _game_in_play(storage: Storage) -> int | None:
    """The game ``export`` prints by default: the one in play (a game taken up again from
    the history is older than the abandoned ones after it), else the latest stored."""
    try:
        playing = storage.unfinished()
    except DamagedGameError as error:  # in play, but damaged: export says how far it reads
        return error.game_id
    return playing.id if playing is not None else storage.latest_game_id()


def export_all_command(args: argparse.Namespace) -> int:
    """Write every stored game into a folder, one hanabi-log/1 file each (a backup)."""
    try:
        storage = storage_to_read(args.data_dir)  # a backup changes nothing it reads
    except StorageError as error:
        print(f"hanabi-companion: {error}", file=sys.stderr)
        return 1
    if storage is None:
        print("hanabi-companion: no game stored yet", file=sys.stderr)
        return 1
    try:
        summary = export_all(storage, args.all)
    except StorageError as error:
        print(f"hanabi-companion: {error}", file=sys.stderr)
        return 1
    finally:
        storage.close()
    for _, why, kept in summary.damaged:
        print(
            f"hanabi-companion: {why}; its first {kept} actions, which replay, were written"
            " (flagged as damaged)",
            file=sys.stderr,
        )
    for _, why in summary.unreadable:
        print(f"hanabi-companion: {why}; nothing of it replays, so it has no file", file=sys.stderr)
    print(f"{games(len(summary.files))} written to {summary.folder}")
    return 1 if summary.damaged or summary.unreadable else 0


def import_command(args: argparse.Namespace) -> int:
    """Bring games back from hanabi-log/1 files: all of them, or nothing if one is refused."""
    logs, refusals = read_logs(
        args.files, partial=args.partial
    )  # refereed before the data directory is touched
    if refusals:
        for refusal in refusals:
            print(f"hanabi-companion: {refusal}", file=sys.stderr)
        print(
            f"hanabi-companion: nothing was imported: {len(refusals)} file(s) refused",
            file=sys.stderr,
        )
        return max(refusal.code for refusal in refusals)
    data_dir = args.data_dir or default_data_dir()
    try:
        lock = DataDirLock(data_dir)  # not beside a running companion's game
    except StorageError as error:
        print(f"hanabi-companion: {error}; stop it first, then import", file=sys.stderr)
        return 1
    with lock:
        storage = open_storage(data_dir)
        if storage is None:
            return 1
        try:
            summary = import_logs(storage, logs)
        except StorageError as error:
            print(f"hanabi-companion: {error}; nothing was imported", file=sys.stderr)
            return 1
        finally:
            storage.close()
    for path, why in summary.partial:
        print(f"{path}: {why}")
    print(
        f"{games(summary.imported)} imported, {summary.already_stored} already stored"
        f" (in {data_dir})"
    )
    return 0
