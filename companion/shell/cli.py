"""The ``hanabi-companion`` command line: its parser, and the command it runs.

Each command is a module of :mod:`companion.shell.commands`, imported when the command
runs, so ``replay`` starts fast and never imports pygame.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from companion.core.i18n import LANGUAGES
from companion.shell.broken_pipe import until_the_reader_goes
from companion.shell.commands.choices import (
    HISTORY_LIST_PAGE,
    RENDER_PAGES,
    page_number,
    parse_size,
)

__all__ = ["HISTORY_LIST_PAGE", "build_parser", "main", "parse_size"]

#: A command line argparse refuses (an unknown option, a value that is not one).
EXIT_USAGE = 2

#: Each command's module in :mod:`companion.shell.commands` and its function.
COMMANDS = {
    "run": ("run", "run_command"),
    "render": ("render", "render_command"),
    "export": ("export", "export_command"),
    "import": ("export", "import_command"),
    "history": ("history", "history_command"),
    "check": ("check", "check_command"),
    "replay": ("replay", "replay_command"),
    "variants": ("variants", "variants_command"),
    "scanner": ("scanner", "scanner_command"),
    "enrol": ("enrol", "enrol_command"),
    "location": ("plays", "location_command"),
}

HARDWARE_COMMANDS = ("scanner", "enrol")


class _Parser(argparse.ArgumentParser):
    """The command line's parser: argparse, with a usage error said in one line, exit
    status 2 (a wrong ``--size``: ``hanabi-companion render: error: argument --size:
    10000x10000 is too large: ...``); the usage is one ``--help`` away."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser(*, hardware: bool = True, run_only: bool = False) -> argparse.ArgumentParser:
    """The command line. ``hardware=False`` leaves out the arguments of ``scanner`` and
    ``enrol``, whose module loads pyserial: ``replay`` starts faster without it.
    ``run_only=True`` builds ``run``'s sub-parser and no other (``run`` is the start of
    the appliance, and its first frame waits for the parser: each sub-parser costs about
    1 M instructions, most of it argparse asking gettext for its own words)."""
    parser = _Parser(
        prog="hanabi-companion",
        description="A table companion for Hanabi: rules referee, scoreboard and game journal.",
    )
    parser.add_argument("--version", action=_VersionAction)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    def data_dir_option(command: argparse.ArgumentParser) -> None:
        command.add_argument(
            "--data-dir",
            type=Path,
            help="where the games are kept (default: $STATE_DIRECTORY, "
            "else ~/.local/state/hanabi-companion)",
        )

    run = commands.add_parser("run", help="run the companion (the default command)")
    data_dir_option(run)
    run.add_argument("--config", type=Path, help="configuration file (TOML)")
    run.add_argument("--size", type=parse_size, help="window size, e.g. 480x320")
    run.add_argument("--fullscreen", action="store_true", help="use the whole screen")
    run.add_argument("--lang", choices=LANGUAGES, help="language of the screens")
    run.add_argument("--display", help="auto, window, kmsdrm or fb:/dev/fbN (overrides config)")
    run.add_argument("--gpio", choices=("auto", "lgpio", "mock", "none"), help="pin factory")
    run.add_argument(
        "--web", action="store_true", help="serve the live page for phones ([web] in the config)"
    )
    if run_only:
        return parser

    render = commands.add_parser("render", help="draw the screen after a log into a PNG")
    render.add_argument("log", type=Path, metavar="LOG")
    render.add_argument("--size", type=parse_size, default=(480, 320))
    render.add_argument("--out", type=Path, required=True, metavar="PNG")
    render.add_argument("--lang", choices=LANGUAGES, default="en")
    render.add_argument(
        "--page",
        choices=RENDER_PAGES,
        help="the page a player turns to with NEXT (default: the screen the log leads to)",
    )

    export = commands.add_parser("export", help="print a stored game as a hanabi-log/1 log")
    data_dir_option(export)
    which = export.add_mutually_exclusive_group()
    which.add_argument(
        "--game", type=int, help="game number (default: the game in play, else the latest)"
    )
    which.add_argument(
        "--all",
        type=Path,
        metavar="FOLDER",
        help="write every game into FOLDER, one log file each (a backup)",
    )
    export.add_argument(
        "--bgstats",
        action="store_true",
        help="print the link that logs the game (default: the latest) in BG Stats",
    )
    export.add_argument(
        "--hanab-live",
        action="store_true",
        help="print the game (default: the latest), its hands shown, as Hanab Live's JSON",
    )
    export.add_argument(
        "--hanab-live-url",
        action="store_true",
        help="print the link that replays the game (default: the latest) on hanab.live",
    )

    restore = commands.add_parser(
        "import", help="bring games back from logs (export --all's files, or a folder of them)"
    )
    data_dir_option(restore)
    restore.add_argument("files", nargs="+", type=Path, metavar="FILE", help="logs or folders")
    restore.add_argument(
        "--partial",
        action="store_true",
        help="bring in what a file that is not a whole export holds (cut, or lines changed)",
    )

    history = commands.add_parser("history", help="list the games, unfinished ones too")
    data_dir_option(history)
    history.add_argument(
        "--page",
        type=page_number,
        default=1,
        help=f"which {HISTORY_LIST_PAGE} games, newest first (default: 1, the latest)",
    )
    history.add_argument(
        "--stats",
        action="store_true",
        help="the figures per set-up and per player instead: games, average, best, perfect"
        " and strikeout rates, efficiency",
    )

    location = commands.add_parser(
        "location", help="print or set where the table plays (BG Stats' location)"
    )
    data_dir_option(location)
    location.add_argument("text", nargs="?", metavar="TEXT", help='the place; "" clears it')

    check = commands.add_parser(
        "check", help="read every page of the games database and say any damage found"
    )
    data_dir_option(check)

    replay = commands.add_parser("replay", help="apply game logs and print their summaries")
    replay.add_argument("files", nargs="+", metavar="FILE", help="hanabi-log/1 files")

    variants = commands.add_parser(
        "variants", help="list the Hanab Live variants a printed deck can carry, by name"
    )
    variants.add_argument(
        "words", nargs="*", metavar="WORD", help="only the names holding every word (any case)"
    )

    scanner = commands.add_parser("scanner", help="print what a card scanner reads (wiring check)")
    enrol = commands.add_parser("enrol", help="register the tags of a deck, card by card")
    if hardware:
        # The readers' arguments name the scanner's protocols: hardware.scanner, pyserial.
        from companion.shell.commands.readers import add_enrol_arguments, add_scanner_arguments

        add_scanner_arguments(scanner)
        add_enrol_arguments(enrol)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command of ``argv`` (default: the process's arguments); its exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    first = arguments[0] if arguments else None
    wants_help = first in ("-h", "--help", "--version")
    if first is None or (first.startswith("-") and not wants_help):
        arguments = ["run", *arguments]  # plain `hanabi-companion [options]` runs the companion
        first = "run"
    parser = build_parser(
        hardware=wants_help or first in HARDWARE_COMMANDS, run_only=first == "run"
    )
    args = until_the_reader_goes(parser.parse_args, arguments)  # --help | head -1
    if args.command is None:
        parser.print_help()
        return 2
    module, function = COMMANDS[args.command]
    handler: Callable[[argparse.Namespace], int] = getattr(
        importlib.import_module(f"companion.shell.commands.{module}"), function
    )
    if args.command == "run":  # prints only diagnostics: a broken pipe there is a bug
        return handler(args)
    return until_the_reader_goes(handler, args)


def installed_version() -> str:
    """The version of the installed package (its metadata), e.g. ``0.1.0``."""
    # The package's metadata costs ~35 ms that only --version pays.
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hanabi-companion")
    except PackageNotFoundError:
        return "unknown (the package is not installed: pip install -e .)"


class _VersionAction(argparse.Action):
    """The ``--version`` option: the installed package's version, looked up only when asked (the
    metadata costs ~35 ms that ``replay`` does not pay)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **_: object) -> None:
        super().__init__(
            option_strings,
            dest=argparse.SUPPRESS,
            default=argparse.SUPPRESS,
            nargs=0,
            help="print the version of hanabi-companion and exit",
        )

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        print(f"hanabi-companion {installed_version()}")
        parser.exit()


if __name__ == "__main__":
    sys.exit(main())
