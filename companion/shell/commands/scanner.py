"""The ``scanner`` command: what each card reader reads, one JSON line per read (a wiring check).

::

    $ hanabi-companion scanner --port /dev/serial0
    {"tag": "0A1B2C3D4E", "card": "R3"}

Without ``--port`` or ``--device`` it reads every reader of the configuration and says
which read what::

    $ hanabi-companion scanner
    {"reader": "play", "tag": "0A1B2C3D4E", "card": "R3"}
    {"reader": "discard", "tag": "0012345678", "card": "B2"}
"""

from __future__ import annotations

import argparse
import json

from companion.shell.commands.readers import EXIT_OK, Reads, readers_or_exit, run_with_scanner


def scanner_command(args: argparse.Namespace) -> int:
    """Print ``{"tag": ..., "card": "R3" | null}`` per read until Ctrl-C or SIGTERM; with
    the configured readers, ``{"reader": "play", "tag": ..., "card": ...}``."""
    asked = readers_or_exit(args)
    if isinstance(asked, int):
        return asked
    readers, configured = asked

    def print_reads(reads: Reads) -> int:
        for label, read in reads.labelled_reads():
            card = read.card.code() if read.card is not None else None
            line = {"tag": read.tag, "card": card}
            print(json.dumps({"reader": label, **line} if configured else line), flush=True)
        return EXIT_OK

    return run_with_scanner(args, None, print_reads, readers)
