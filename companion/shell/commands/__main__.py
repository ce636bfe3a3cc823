"""``python -m companion.shell.commands scanner|enrol ...``: the reader commands alone.

The same commands as ``hanabi-companion scanner`` and ``hanabi-companion enrol``, with
argparse's own usage errors.
"""

from __future__ import annotations

import argparse
import sys

from companion.shell.broken_pipe import until_the_reader_goes
from companion.shell.commands.enrol import enrol_command
from companion.shell.commands.readers import add_enrol_arguments, add_scanner_arguments
from companion.shell.commands.scanner import scanner_command


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv`` and run the scanner or enrol command, as the main command line does."""
    parser = argparse.ArgumentParser(prog="hanabi-companion")
    commands = parser.add_subparsers(dest="command", required=True)
    add_scanner_arguments(commands.add_parser("scanner", help="print scanner reads"))
    add_enrol_arguments(commands.add_parser("enrol", help="enrol a deck of RFID cards"))
    args = parser.parse_args(argv)
    command = scanner_command if args.command == "scanner" else enrol_command
    return until_the_reader_goes(command, args)  # `scanner | head -3`, as the main CLI


if __name__ == "__main__":
    sys.exit(main())
