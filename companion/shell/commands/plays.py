"""``export --bgstats``: a finished game as the link that logs it in BG Stats; and the
``location`` command, the stored setting that says where the table plays."""

from __future__ import annotations

import argparse
import sys

from companion.core.bgstats import LOCATION_SETTING
from companion.shell.commands.stored import game_to_read, open_storage, storage_to_read
from companion.shell.play_link import stored_location, stored_play_link
from companion.storage import DataDirLock, Storage, StorageError, default_data_dir
from companion.vocabulary.records import GameStatus

#: The longest location kept (BG Stats shows it in a list; a paragraph is a mistake).
LOCATION_MAX = 60


def bgstats_command(args: argparse.Namespace) -> int:
    """Print the BG Stats link of the given game (default: the latest), which must be over."""
    opened = game_to_read(args.data_dir, args.game, Storage.latest_game_id)
    if isinstance(opened, int):
        return opened
    storage, game_id = opened
    try:
        stored = storage.load(game_id)
        if stored.status is not GameStatus.OVER:
            print(
                f"hanabi-companion: game {game_id} is not over: only a finished game is a play"
                " to log",
                file=sys.stderr,
            )
            return 1
        print(stored_play_link(storage, game_id, stored.replay()))
        return 0
    except StorageError as error:
        print(f"hanabi-companion: {error}", file=sys.stderr)
        return 1
    finally:
        storage.close()


def location_command(args: argparse.Namespace) -> int:
    """Print where the table plays, or store it (``location TEXT``; ``location ""`` clears)."""
    if args.text is None:
        try:
            storage = storage_to_read(args.data_dir)
        except StorageError as error:
            print(f"hanabi-companion: {error}", file=sys.stderr)
            return 1
        if storage is None:
            return 0
        try:
            print(stored_location(storage))
        finally:
            storage.close()
        return 0
    text = " ".join(args.text.split())
    if len(text) > LOCATION_MAX:
        print(
            f"hanabi-companion: a location is at most {LOCATION_MAX} characters;"
            " nothing was changed",
            file=sys.stderr,
        )
        return 2
    data_dir = args.data_dir or default_data_dir()
    try:
        lock = DataDirLock(data_dir)
    except StorageError as error:
        print(f"hanabi-companion: {error}; stop it first, then set the location", file=sys.stderr)
        return 1
    with lock:
        storage = open_storage(data_dir)
        if storage is None:
            return 1
        try:
            storage.set_setting(LOCATION_SETTING, text)
        except StorageError as error:
            print(f"hanabi-companion: {error}", file=sys.stderr)
            return 1
        finally:
            storage.close()
    return 0
