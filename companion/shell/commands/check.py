"""The ``check`` command: the whole-file check of the games database, on demand.

Opening the database checks what every start needs (its header, its tables, the ledger, the
resumed game), at a cost that does not grow with the games; the check that reads every page
runs here, and in the app in the background after its first frame (decision 0090).
"""

from __future__ import annotations

import argparse
import sys

from companion.shell.commands.stored import storage_to_read
from companion.storage import StorageError


def check_command(args: argparse.Namespace) -> int:
    """Read every page of the games database: exit 1 and one sentence per problem found."""
    try:
        storage = storage_to_read(args.data_dir)
    except StorageError as error:
        print(f"hanabi-companion: {error}", file=sys.stderr)
        return 1
    if storage is None:
        print("No games database yet: nothing to check.")
        return 0
    try:
        problems = storage.check()
        path = storage.path
    finally:
        storage.close()
    for problem in problems:
        print(f"hanabi-companion: {problem}", file=sys.stderr)
    if problems:
        print(
            "hanabi-companion: back up what reads back (export --all), then restart the"
            " companion once the card is replaced",
            file=sys.stderr,
        )
        return 1
    print(f"The games database {path} is whole: every page was read.")
    return 0
