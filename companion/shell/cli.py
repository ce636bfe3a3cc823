"""The ``hanabi-companion`` command line.

Each command imports what it needs when it runs, so ``replay`` starts fast
and never imports pygame.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TypeVar

from companion.core.i18n import LANGUAGES
from hardware.os_words import reason_in_words

if TYPE_CHECKING:
    from companion.core.controller import Controller
    from companion.shell.config import Config
    from companion.shell.web_link import WebLink
    from companion.storage import HistoryRow, Storage
    from engine.game import Game

EXIT_RULE_BROKEN = 1
EXIT_INVALID_LOG = 2
#: A command line argparse refuses (an unknown option, a value that is not one).
EXIT_USAGE = 2
#: How long the service waits at boot for a KMSDRM screen still coming up: its
#: DRM driver is loaded by udev alongside the services, late on a slow boot.
#: Minutes, so that a late screen never costs a failed start; a missing one is
#: then reported, and systemd tries again.
SCREEN_WAIT_SECONDS = 300.0

Argument = TypeVar("Argument")
Result = TypeVar("Result")


def _replay_file(path: Path) -> Game | int:
    """The game a log file folds into, or the exit code after saying why on stderr."""
    from engine.log import LogFormatError, LogRuleError, replay_log

    try:
        data = Path(path).read_bytes()
    except OSError as error:  # no line to name: the file itself
        print(f"{path}: cannot read the file: {reason_in_words(error)}", file=sys.stderr)
        return EXIT_INVALID_LOG
    try:
        # utf-8-sig: a byte-order mark, as some editors save, is not part of the log
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        print(f"{path}:{line}: bytes that are not UTF-8 text (a log is UTF-8)", file=sys.stderr)
        return EXIT_INVALID_LOG
    try:
        return replay_log(text)
    except LogFormatError as error:
        print(f"{path}:{error.line}: {error.reason}", file=sys.stderr)
        return EXIT_INVALID_LOG
    except LogRuleError as error:
        print(f"{path}:{error.line}: {error.reason}", file=sys.stderr)
        return EXIT_RULE_BROKEN


def replay_command(args: argparse.Namespace) -> int:
    """Apply each log with the rules engine and print one summary line per file."""
    from engine.log import summary

    worst = 0
    for path in args.files:
        game = _replay_file(path)
        if isinstance(game, int):
            # An invalid log (2) is worse than a broken rule (1), which is worse than none.
            worst = max(worst, game)
            continue
        sys.stdout.write(json.dumps(summary(game), ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return worst


def parse_size(text: str) -> tuple[int, int]:
    """``480x320`` as (480, 320); :class:`argparse.ArgumentTypeError` for what is not a
    size, or a panel too small to hold the text at its floor."""
    from companion.shell.config import panel_size_problem

    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 480x320") from None
    problem = panel_size_problem(width, height)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return width, height


def _load_config(path: Path | None, cache: Path | None = None) -> Config | None:
    from companion.shell.config import ConfigError, load_config

    try:
        return load_config(path, cache=cache)
    except ConfigError as error:
        print(f"hanabi-companion: the configuration is wrong:\n{error}", file=sys.stderr)
        return None
    except OSError as error:
        print(
            f"hanabi-companion: cannot read the configuration: {reason_in_words(error)}",
            file=sys.stderr,
        )
        return None


def _open_storage(data_dir: Path | None) -> Storage | None:
    from companion.storage import Storage, StorageError, default_data_dir

    try:
        storage = Storage.open(data_dir or default_data_dir())
    except StorageError as error:
        print(f"hanabi-companion: {error}", file=sys.stderr)
        return None
    if storage.notice:
        print(f"hanabi-companion: {storage.notice}", file=sys.stderr)
    return storage


def _storage_to_read(data_dir: Path | None) -> Storage | None:
    """The games database, opened only to read (``history``, ``export``): a read-only
    command creates, moves and writes nothing. None: no game was ever stored there.
    Raises :class:`~companion.storage.StorageError` (one sentence)."""
    from companion.storage import Storage, default_data_dir

    storage = Storage.open_existing(data_dir or default_data_dir())
    if storage is not None and storage.notice:
        print(f"hanabi-companion: {storage.notice}", file=sys.stderr)
    return storage


def run_command(args: argparse.Namespace) -> int:
    """Run the companion on the screen, with the buttons and scanner of the config."""
    import logging

    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    from companion.shell.config import CONFIG_CACHE_NAME
    from companion.storage import DataDirLock, StorageError, default_data_dir

    data_dir = args.data_dir or default_data_dir()
    config = _load_config(args.config, cache=data_dir / CONFIG_CACHE_NAME)
    if config is None:
        return 2
    from companion.core.controller import SetupDraft
    from companion.shell.app import draft_from_config, resume, storage_notice

    try:
        # One companion per data directory, for as long as this process lives.
        lock = DataDirLock(data_dir)
    except StorageError as error:
        print(f"hanabi-companion: {error}", file=sys.stderr)
        return 1
    with lock:
        storage = _open_storage(data_dir)
        if storage is None:
            return 1
        try:
            draft = SetupDraft.from_settings(
                storage.get_setting("setup", {}) or {}, default=draft_from_config(config)
            )
            if args.lang:
                draft.language = args.lang
            controller, game_id = resume(storage, draft)
        except StorageError as error:
            print(f"hanabi-companion: {error}", file=sys.stderr)
            storage.close()
            return 1
        notices = [storage_notice(storage, draft.language), controller.notice]
        controller.notice = " · ".join(filter(None, notices)) or None
        from companion.shell.no_tls import without_tls

        with without_tls():  # the server, the keyboard reader's evdev: no OpenSSL loaded
            return _run_app(args, config, storage, controller, game_id)


def _run_app(
    args: argparse.Namespace,
    config: Config,
    storage: Storage,
    controller: Controller,
    game_id: int | None,
) -> int:
    """Open the screen and the devices, and run the loop until it stops."""
    from companion.panel.display import DisplayError, open_display
    from companion.shell.app import App
    from companion.shell.config import panel_size_problem
    from companion.shell.devices import DeviceOptions, open_devices, window_tag_map

    size = args.size or config.screen.size
    try:
        display = open_display(
            args.display or config.screen.display,
            size,
            fullscreen=args.fullscreen or config.screen.fullscreen,
            # Started by systemd (at boot): the DRM driver may still be loading.
            screen_wait=SCREEN_WAIT_SECONDS if os.environ.get("INVOCATION_ID") else 0.0,
        )
    except DisplayError as error:
        print(f"hanabi-companion: {error}", file=sys.stderr)
        storage.close()
        return 1
    problem = panel_size_problem(*display.size)  # a full screen has the panel's own size
    if problem:
        print(f"hanabi-companion: {problem}", file=sys.stderr)
        display.close()
        storage.close()
        return 1
    # A desktop window can be closed from the menu; the service has no Quit (systemd
    # would start it again).
    controller.can_quit = not os.environ.get("INVOCATION_ID")
    app = App(storage, display, controller, game_id, tag_map=window_tag_map(config, args.data_dir))
    web = _web_link(args, config, storage)
    if web is not None:
        app.attach_web(web)
    options = DeviceOptions(pin_factory=args.gpio, data_dir=args.data_dir)
    try:
        with open_devices(config, app.inbox.emit, options) as devices:
            if devices.notices:
                startup = controller.notice
                controller.notice = " · ".join([*devices.notices, *filter(None, [startup])])
            if devices.panel is not None:
                app.on_tokens = devices.panel.show_tokens
                app.on_beep = devices.panel.beep
            return app.run()
    finally:
        if web is not None:
            web.stop()
        display.close()
        storage.close()


#: The pages ``render --page`` draws: the game screen's, then the end screen's.
#: Each name's page (a :class:`~companion.core.controller.GamePage` value); ``end…`` on the
#: end screen.
RENDER_PAGES = {
    "game": "table",
    "discards": "discards",
    "actions": "actions",
    "hands": "hands",
    "end": "table",
    "end-discards": "discards",
    "end-actions": "actions",
}


def turn_to_page(controller: Controller, name: str, size: tuple[int, int]) -> str | None:
    """Turn ``controller`` to the page ``name`` (one of :data:`RENDER_PAGES`), as NEXT
    would; or say in one sentence why this game has no such page on this panel."""
    from companion.core.controller import GamePage, Screen
    from companion.panel.screens.game import pile_on_table

    game = controller.game
    assert game is not None
    at_end = name.startswith("end")
    if at_end and not game.is_over:
        return f"--page {name}: the game is not over (its pages: game, discards, actions, hands)"
    if not at_end and game.is_over:
        return f"--page {name}: the game is over (its pages: end, end-discards, end-actions)"
    page = GamePage(RENDER_PAGES[name])
    controller.screen = Screen.END if at_end else Screen.GAME
    controller.pile_on_table = pile_on_table(size)
    if page not in controller.pages:
        if page is GamePage.HANDS:
            return "--page hands: this game does not keep hand memory"
        width, height = size
        return (
            f"--page discards: at {width}x{height} the discard pile is on the game page"
            " (--page game)"
        )
    controller.page = page
    return None


def _web_link(args: argparse.Namespace, config: Config, storage: Storage) -> WebLink | None:
    """The page for phones, when ``[web]`` or ``--web`` turns it on; says its URL in one
    line (the journal has it under systemd). Served after the first frame."""
    if not (config.web.enabled or args.web):
        return None
    from companion.shell.web_link import WebLink
    from companion.storage import StorageError

    try:
        web = WebLink(storage, port=config.web.port, bind=config.web.bind)
    except StorageError as error:  # the table code could not be kept: no page
        print(f"hanabi-companion: no page for phones: {error}", file=sys.stderr)
        return None
    print(f"phones: {web.url}", flush=True)
    return web


def render_command(args: argparse.Namespace) -> int:
    """Draw the screen the companion shows after a log, into a PNG, without a display."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    game = _replay_file(args.log)
    if isinstance(game, int):
        return game
    folder = Path(args.out).parent
    if not folder.is_dir():
        print(
            f"hanabi-companion: cannot write {args.out}: the folder {folder} does not exist",
            file=sys.stderr,
        )
        return 1
    import pygame

    from companion.core.controller import Controller, SetupDraft
    from companion.panel.screens import Renderer

    pygame.font.init()
    surface = pygame.Surface(args.size)
    controller = Controller(SetupDraft(language=args.lang), game)
    if args.page is not None:
        problem = turn_to_page(controller, args.page, args.size)
        if problem:
            print(f"hanabi-companion: {problem}", file=sys.stderr)
            return 2
    Renderer(args.size).draw(surface, controller)
    try:
        pygame.image.save(surface, str(args.out))
    except (OSError, pygame.error) as error:  # unwritable, a full disk, an unknown suffix
        print(f"hanabi-companion: cannot write {args.out}: {error}", file=sys.stderr)
        return 1
    return 0


def export_command(args: argparse.Namespace) -> int:
    """Print the game in progress (or the given one) as a hanabi-log/1 log."""
    from companion.storage import DamagedGameError, StorageError

    if args.all is not None:
        return export_all_command(args)
    try:
        storage = _storage_to_read(args.data_dir)
    except StorageError as error:
        print(f"hanabi-companion: {error}", file=sys.stderr)
        return 1
    if storage is None:
        print("hanabi-companion: no game stored yet", file=sys.stderr)
        return 1
    try:
        game_id = args.game if args.game is not None else storage.latest_game_id()
        if game_id is None:
            print("hanabi-companion: no game stored yet", file=sys.stderr)
            return 1
        try:
            sys.stdout.write(storage.export(game_id))
        except DamagedGameError as error:
            # The part that still replays goes out; the error says where it stops.
            text, actions = storage.replayable_part(game_id)
            sys.stdout.write(text)
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


def export_all_command(args: argparse.Namespace) -> int:
    """Write every stored game into a folder, one hanabi-log/1 file each (a backup)."""
    from companion.shell.backup import export_all, games
    from companion.storage import StorageError

    try:
        storage = _storage_to_read(args.data_dir)  # a backup changes nothing it reads
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
    from companion.shell.backup import games as count_games
    from companion.shell.backup import import_logs, read_logs
    from companion.storage import DataDirLock, StorageError, default_data_dir

    games, refusals = read_logs(args.files)  # refereed before the data directory is touched
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
        storage = _open_storage(data_dir)
        if storage is None:
            return 1
        try:
            summary = import_logs(storage, games)
        except StorageError as error:
            print(f"hanabi-companion: {error}; nothing was imported", file=sys.stderr)
            return 1
        finally:
            storage.close()
    for path in summary.partial:
        print(f"{path}: the game was damaged when exported: the part that replays came in")
    print(
        f"{count_games(summary.imported)} imported, {summary.already_stored} already stored"
        f" (in {data_dir})"
    )
    return 0


def history_command(args: argparse.Namespace) -> int:
    """List the games: date, players, variant, score, rating (or unfinished)."""
    from companion.storage import StorageError

    try:
        storage = _storage_to_read(args.data_dir)
    except StorageError as error:
        print(f"hanabi-companion: {error}", file=sys.stderr)
        return 1
    if storage is None:
        print(NO_GAME_STORED)
        return 0
    try:
        try:
            page = storage.history_page(skip=(args.page - 1) * HISTORY_PAGE, limit=HISTORY_PAGE)
        except StorageError as error:
            print(f"hanabi-companion: {error}", file=sys.stderr)
            return 1
        rows = page.rows
        if not rows:
            print(NO_GAME_STORED if args.page == 1 else f"No page {args.page}.")
            return 0
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
            return 1
        return 0
    finally:
        storage.close()


#: Games `history` lists at a time (`--page N` for older ones).
HISTORY_PAGE = 20


def page_number(text: str) -> int:
    """A page number: 1 or more; :class:`argparse.ArgumentTypeError` otherwise."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a page number (1, 2, 3 …)")
    return int(text)


NO_GAME_STORED = "No game stored yet."
#: The ``finished`` column of a game not finished (in play, or left for another game).
UNFINISHED = "unfinished"


def _finished_column(row: HistoryRow) -> str:
    """When the game ended (``2026-11-21T10:15:00``, UTC), or "unfinished": an abandoned game
    keeps the time it was left in ``finished_at``, which is not an end."""
    from companion.storage import GameStatus

    if row.status is not GameStatus.OVER or not row.finished_at:
        return UNFINISHED
    return row.finished_at[:19]


def _score_out_of(row: HistoryRow) -> str:
    """The score out of the variant's most: ``21/25``, ``28/30``."""
    return f"{row.score}/{row.max_score}"


HARDWARE_COMMANDS = ("scanner", "enrol")


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error said in one line, exit status 2 (a wrong ``--size``:
    ``hanabi-companion render: error: argument --size: 10000x10000 is too large: ...``);
    the usage is one ``--help`` away."""

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
    run.set_defaults(handler=run_command)
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
    render.set_defaults(handler=render_command)

    export = commands.add_parser("export", help="print a stored game as a hanabi-log/1 log")
    data_dir_option(export)
    which = export.add_mutually_exclusive_group()
    which.add_argument("--game", type=int, help="game number (default: the latest)")
    which.add_argument(
        "--all",
        type=Path,
        metavar="FOLDER",
        help="write every game into FOLDER, one log file each (a backup)",
    )
    export.set_defaults(handler=export_command)

    restore = commands.add_parser(
        "import", help="bring games back from logs (export --all's files, or a folder of them)"
    )
    data_dir_option(restore)
    restore.add_argument("files", nargs="+", type=Path, metavar="FILE", help="logs or folders")
    restore.set_defaults(handler=import_command)

    history = commands.add_parser("history", help="list the games, unfinished ones too")
    data_dir_option(history)
    history.add_argument(
        "--page",
        type=page_number,
        default=1,
        help=f"which {HISTORY_PAGE} games, newest first (default: 1, the latest)",
    )
    history.set_defaults(handler=history_command)

    replay = commands.add_parser("replay", help="apply game logs and print their summaries")
    replay.add_argument("files", nargs="+", metavar="FILE", help="hanabi-log/1 files")
    replay.set_defaults(handler=replay_command)

    scanner = commands.add_parser("scanner", help="print what a card scanner reads (wiring check)")
    enrol = commands.add_parser("enrol", help="register the tags of a deck, card by card")
    if hardware:
        from companion.shell.hardware_cli import (
            add_enrol_arguments,
            add_scanner_arguments,
            enrol_command,
            scanner_command,
        )

        add_scanner_arguments(scanner)
        scanner.set_defaults(handler=scanner_command)
        add_enrol_arguments(enrol)
        enrol.set_defaults(handler=enrol_command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
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
    handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    if handler is run_command:  # prints only diagnostics: a broken pipe there is a bug
        return handler(args)
    return until_the_reader_goes(handler, args)


def until_the_reader_goes(command: Callable[[Argument], Result], argument: Argument) -> Result:
    """``command(argument)``, stopped as Unix tools stop when the reader of their output
    goes away (``hanabi-companion history | head``): no traceback, no message; the
    process dies of SIGPIPE, as ``cat`` or ``seq`` do (the shell's status 141; see
    docs/decisions.md). Python itself ignores SIGPIPE and raises BrokenPipeError."""
    try:
        result = command(argument)
        sys.stdout.flush()  # a pipe closed under the last lines breaks here, not at exit
        return result
    except BrokenPipeError:
        _die_of_sigpipe()


def _die_of_sigpipe() -> NoReturn:
    """End the process as SIGPIPE ends a Unix tool whose reader went away."""
    import signal

    # Whatever is still buffered goes nowhere: Python's last flush meets no broken pipe.
    nowhere = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):
            os.dup2(nowhere, stream.fileno())
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGPIPE)
    raise SystemExit(128 + signal.SIGPIPE)  # where SIGPIPE cannot kill: the shell's status


def installed_version() -> str:
    """The version of the installed package (its metadata), e.g. ``0.1.0``."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hanabi-companion")
    except PackageNotFoundError:
        return "unknown (the package is not installed: pip install -e .)"


class _VersionAction(argparse.Action):
    """``--version``: the installed package's version, looked up only when asked (the
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
