"""The ``hanabi-companion`` command line.

Each command imports what it needs when it runs, so ``replay`` starts fast
and never imports pygame.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from companion.i18n import LANGUAGES

if TYPE_CHECKING:
    from companion.config import Config
    from companion.controller import Controller
    from companion.storage import Storage
    from companion.web.link import WebLink
    from engine.game import Game

EXIT_RULE_BROKEN = 1
EXIT_INVALID_LOG = 2
#: How long the service waits at boot for a KMSDRM screen still coming up: its
#: DRM driver is loaded by udev alongside the services, late on a slow boot.
#: Minutes, so that a late screen never costs a failed start; a missing one is
#: then reported, and systemd tries again.
SCREEN_WAIT_SECONDS = 300.0


def _replay_file(path: Path) -> Game | int:
    """The game a log file folds into, or the exit code after saying why on stderr."""
    from engine.log import LogFormatError, LogRuleError, replay_log

    try:
        # utf-8-sig: a byte-order mark, as some editors save, is not part of the log
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        print(f"{path}:1: cannot read the file ({error})", file=sys.stderr)
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
    from companion.config import panel_size_problem

    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 480x320") from None
    problem = panel_size_problem(width, height)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return width, height


def _load_config(path: Path | None) -> Config | None:
    from companion.config import ConfigError, load_config

    try:
        return load_config(path)
    except ConfigError as error:
        print(f"hanabi-companion: the configuration is wrong:\n{error}", file=sys.stderr)
        return None
    except OSError as error:
        print(f"hanabi-companion: cannot read the configuration: {error}", file=sys.stderr)
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


def run_command(args: argparse.Namespace) -> int:
    """Run the companion on the screen, with the buttons and scanner of the config."""
    import logging

    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    config = _load_config(args.config)
    if config is None:
        return 2
    from companion.app import draft_from_config, resume, storage_notice
    from companion.controller import SetupDraft
    from companion.storage import DataDirLock, StorageError, default_data_dir

    data_dir = args.data_dir or default_data_dir()
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
        return _run_app(args, config, storage, controller, game_id)


def _run_app(
    args: argparse.Namespace,
    config: Config,
    storage: Storage,
    controller: Controller,
    game_id: int | None,
) -> int:
    """Open the screen and the devices, and run the loop until it stops."""
    from companion.app import App
    from companion.config import panel_size_problem
    from companion.devices import DeviceOptions, open_devices, window_tag_map
    from companion.display import DisplayError, open_display

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


def _web_link(args: argparse.Namespace, config: Config, storage: Storage) -> WebLink | None:
    """The page for phones, when ``[web]`` or ``--web`` turns it on; says its URL in one
    line (the journal has it under systemd). Served after the first frame."""
    if not (config.web.enabled or args.web):
        return None
    from companion.storage import StorageError
    from companion.web.link import WebLink

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

    from companion.controller import Controller, SetupDraft
    from companion.screens import Renderer

    pygame.font.init()
    surface = pygame.Surface(args.size)
    controller = Controller(SetupDraft(language=args.lang), game)
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

    storage = _open_storage(args.data_dir)
    if storage is None:
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


def history_command(args: argparse.Namespace) -> int:
    """List the games: date, players, variant, score, rating (or unfinished)."""
    from companion.storage import StorageError

    storage = _open_storage(args.data_dir)
    if storage is None:
        return 1
    try:
        try:
            rows = storage.history()
        except StorageError as error:
            print(f"hanabi-companion: {error}", file=sys.stderr)
            return 1
        if not rows:
            print("No finished game yet.")
            return 0
        print(f"{'game':>4}  {'finished':<20} {'players':<28} {'variant':<22} score  rating")
        damaged = 0
        for row in rows:
            if row.damaged:
                damaged += 1
                when = (row.finished_at or row.started_at)[:19]
                print(f"{row.id:>4}  {when:<20} damaged: {row.damaged}")
                continue
            players = ", ".join(row.names)
            result = row.rating or row.outcome
            rating = "" if result is None else result.value
            if row.resumable:  # left unfinished: "playing" or "abandoned", resumable
                rating = f"unfinished ({row.status.value})"
            print(
                f"{row.id:>4}  {(row.finished_at or row.started_at)[:19]:<20} {players:<28.28} "
                f"{row.options.variant_name():<22.22} {row.score:>2}/{row.max_score:<2}  {rating}"
            )
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


HARDWARE_COMMANDS = ("scanner", "enrol")


def build_parser(*, hardware: bool = True) -> argparse.ArgumentParser:
    """The command line. ``hardware=False`` leaves out the arguments of ``scanner`` and
    ``enrol``, whose module loads pyserial: ``replay`` starts faster without it."""
    parser = argparse.ArgumentParser(
        prog="hanabi-companion",
        description="A table companion for Hanabi: rules referee, scoreboard and game journal.",
    )
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

    render = commands.add_parser("render", help="draw the screen after a log into a PNG")
    render.add_argument("log", type=Path, metavar="LOG")
    render.add_argument("--size", type=parse_size, default=(480, 320))
    render.add_argument("--out", type=Path, required=True, metavar="PNG")
    render.add_argument("--lang", choices=LANGUAGES, default="en")
    render.set_defaults(handler=render_command)

    export = commands.add_parser("export", help="print a stored game as a hanabi-log/1 log")
    data_dir_option(export)
    export.add_argument("--game", type=int, help="game number (default: the latest)")
    export.set_defaults(handler=export_command)

    history = commands.add_parser("history", help="list the games, unfinished ones too")
    data_dir_option(history)
    history.set_defaults(handler=history_command)

    replay = commands.add_parser("replay", help="apply game logs and print their summaries")
    replay.add_argument("files", nargs="+", metavar="FILE", help="hanabi-log/1 files")
    replay.set_defaults(handler=replay_command)

    scanner = commands.add_parser("scanner", help="print what a card scanner reads (wiring check)")
    enrol = commands.add_parser("enrol", help="register the tags of a deck, card by card")
    if hardware:
        from companion.hardware_cli import (
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
    wants_help = first in ("-h", "--help")
    if first is None or (first.startswith("-") and not wants_help):
        arguments = ["run", *arguments]  # plain `hanabi-companion [options]` runs the companion
        first = "run"
    parser = build_parser(hardware=wants_help or first in HARDWARE_COMMANDS)
    args = parser.parse_args(arguments)
    handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    return handler(args)


if __name__ == "__main__":
    sys.exit(main())
