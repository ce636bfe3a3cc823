"""``hanabi-companion scanner`` and ``hanabi-companion enrol``: check the scanner, enrol a deck.

``scanner`` prints one JSON line per read, to check the wiring before a game::

    $ hanabi-companion scanner --port /dev/serial0
    {"tag": "0A1B2C3D4E", "card": "R3"}

Without ``--port`` or ``--device`` it checks every reader of the configuration
(``--config``, else ``/etc/hanabi-companion/config.toml``) and says which read
what::

    $ hanabi-companion scanner
    {"reader": "play", "tag": "0A1B2C3D4E", "card": "R3"}
    {"reader": "discard", "tag": "0012345678", "card": "B2"}

``enrol`` asks for each card of the deck in turn and records which tag is on
which card. ``enrol --card R3`` forgets every tag of R3 and asks for each
copy of R3 again (two for a 3): a lost, damaged or replaced copy is fixed
without needing its old tag; every other card keeps its tags.

The main CLI wires them in with :func:`add_scanner_arguments`,
:func:`scanner_command`, :func:`add_enrol_arguments` and
:func:`enrol_command`; ``python -m companion.shell.hardware_cli`` runs them alone.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import signal
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

from companion.shell.config import (
    ConfigError,
    ScannerConfig,
    load_config,
    reader_labels,
    reader_names,
)
from companion.shell.devices import default_tag_map_path
from engine.cards import Card, CardFormatError
from engine.options import GameOptions, Multicolor
from hardware.events import CardScanned, DeviceStatus, InputEvent
from hardware.keyboard import DeviceGrabbedError, KeyboardReader, NotAnInputDeviceError
from hardware.os_words import reason_in_words
from hardware.scanner import PROTOCOLS, CardScanner, PortInUseError, ScannerError
from hardware.tagmap import TagMap, TagMapError, card_code_of
from hardware.wiring import ScannerProtocol

__all__ = [
    "add_enrol_arguments",
    "add_scanner_arguments",
    "check_deck",
    "deck_cards",
    "default_tag_map_path",
    "enrol_command",
    "main",
    "scanner_command",
]

MULTICOLOR_MODES = tuple(mode.value for mode in Multicolor)

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2


def deck_cards(multicolor: str = "none") -> list[Card]:
    """Every card of the deck, one entry per copy, in enrolment order.

    >>> [card.code() for card in deck_cards()][:6]
    ['R1', 'R1', 'R1', 'R2', 'R2', 'R3']
    >>> len(deck_cards()), len(deck_cards("short")), len(deck_cards("full"))
    (50, 55, 60)
    """
    if multicolor not in MULTICOLOR_MODES:
        raise ValueError(f"multicolor {multicolor!r} is not one of {', '.join(MULTICOLOR_MODES)}")
    return GameOptions(multicolor=Multicolor(multicolor)).deck_cards()


def check_deck(tag_map: TagMap, multicolor: str = "none") -> list[str]:
    """What is wrong with an enrolled deck: ``["R3: 1 tag, expected 2", ...]``."""
    expected = Counter(deck_cards(multicolor))
    actual = tag_map.counts()
    problems = []
    for card in sorted(expected.keys() | actual.keys()):
        if actual[card] != expected[card]:
            problems.append(f"{card.code()}: {actual[card]} tags, expected {expected[card]}")
    return problems


# -- arguments ---------------------------------------------------------------


def _add_port_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--port", help="serial port, e.g. /dev/serial0 or /dev/serial/by-id/...")
    where.add_argument(
        "--device",
        help="a USB keyboard-type reader: its input device, /dev/input/by-id/...-event-kbd",
    )
    parser.add_argument(
        "--config",
        type=Path,
        help="without --port or --device: the readers of this configuration file "
        "(default: /etc/hanabi-companion/config.toml)",
    )
    parser.add_argument(
        "--protocol",
        choices=PROTOCOLS,
        default="rdm6300",
        help="of the --port reader: rdm6300, a 125 kHz RFID module; line, one tag or card "
        "code per line (default: %(default)s); a --device reader is a keyboard",
    )
    parser.add_argument("--baud", type=int, default=9600, help="default: %(default)s")
    parser.add_argument(
        "--repeat-window",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="a tag read again within this time is the same read (default: %(default)s)",
    )
    parser.add_argument(
        "--tag-map", type=Path, metavar="FILE", help="enrolled deck (default: DATA_DIR/tags.json)"
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        metavar="DIR",
        help="default: $XDG_STATE_HOME/hanabi-companion",
    )


def add_scanner_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hanabi-companion scanner``."""
    parser.description = "Print each card read by the scanner as a JSON line (Ctrl-C to stop)."
    _add_port_arguments(parser)


def add_enrol_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hanabi-companion enrol``."""
    parser.description = (
        "Record which RFID tag is on which card: scan each card when asked. "
        "With --card, re-enrol every copy of one card only."
    )
    _add_port_arguments(parser)
    parser.add_argument(
        "--multicolor",
        choices=MULTICOLOR_MODES,
        default="none",
        help="multicolor cards in the deck: none, short (5) or full (10) (default: %(default)s)",
    )
    parser.add_argument(
        "--card", metavar="CODE", help="re-enrol only this card (every copy), e.g. R3"
    )


# -- the readers' threads, read from the main thread --------------------------


class _NoReaderError(ScannerError):
    """Neither --port nor --device, and no reader in the configuration."""


def _readers_asked(args: argparse.Namespace) -> tuple[tuple[ScannerConfig, ...], bool]:
    """The readers to read, and whether they come from the configuration file."""
    if args.port or args.device:
        keyboard = args.device is not None
        protocol: ScannerProtocol = "keyboard" if keyboard else args.protocol
        if not keyboard and protocol == "keyboard":
            raise ScannerError(
                "a keyboard reader is an input device: give --device /dev/input/by-id/..."
            )
        reader = ScannerConfig(
            port=args.port or "",
            device=args.device or "",
            protocol=protocol,
            baud=args.baud,
            repeat_window=args.repeat_window,
        )
        return (reader,), False
    readers = load_config(args.config).scanners
    if not readers:
        raise _NoReaderError(
            "no reader: give --port or --device, or name the readers in the configuration "
            "([scanner] or [[scanner]] tables)"
        )
    return readers, True


def _open_reader(
    reader: ScannerConfig, name: str, emit: Callable[[InputEvent], None], tag_map: TagMap
) -> CardScanner | KeyboardReader:
    if reader.is_keyboard:
        return KeyboardReader(
            reader.device,
            emit,
            tag_map=tag_map,
            role=reader.role,
            name=name,
            repeat_window=reader.repeat_window,
        )
    return CardScanner(
        reader.port,
        reader.protocol,
        emit,
        baud=reader.baud,
        tag_map=tag_map,
        repeat_window=reader.repeat_window,
        role=reader.role,
        name=name,
    )


class _Reads:
    """Started readers whose events are read one by one, with the reader's label, until a
    signal."""

    def __init__(
        self,
        readers: tuple[ScannerConfig, ...],
        tag_maps: list[TagMap],
    ) -> None:
        self._events: queue.Queue[tuple[str, InputEvent]] = queue.Queue()
        self._stopped = threading.Event()
        self.readers: list[CardScanner | KeyboardReader] = []
        labels = reader_labels(readers)
        names = reader_names(readers)
        for reader, label, name, tags in zip(readers, labels, names, tag_maps, strict=True):

            def emit(event: InputEvent, label: str = label) -> None:
                self._events.put((label, event))

            self.readers.append(_open_reader(reader, name, emit, tags))

    def start(self) -> None:
        """Start every reader; the first that cannot be used raises (the others stop)."""
        for reader in self.readers:
            try:
                reader.start()
            except ScannerError as error:
                raise ScannerError(f"{reader.name}: {error}") from None

    def close(self) -> None:
        for reader in self.readers:
            reader.stop()

    def stop(self, signum: int = 0, frame: FrameType | None = None) -> None:
        self._stopped.set()

    @property
    def stopped(self) -> bool:
        return self._stopped.is_set()

    def reads(self) -> Iterator[CardScanned]:
        """Each accepted read; device notices go to stderr. Ends on stop()."""
        for _, read in self.labelled_reads():
            yield read

    def labelled_reads(self) -> Iterator[tuple[str, CardScanned]]:
        """Each accepted read with the label of its reader ("play"); ends on stop()."""
        while not self._stopped.is_set():
            try:
                label, event = self._events.get(timeout=0.1)
            except queue.Empty:
                continue
            if isinstance(event, DeviceStatus):
                _say(event.message, error=True)
            elif isinstance(event, CardScanned):
                yield label, event


def _say(text: str, *, error: bool = False) -> None:
    stream = sys.stderr if error else sys.stdout
    print(text, file=stream, flush=True)


def _not_a_reader(reader: ScannerConfig) -> str | None:
    """The sentence for a reader whose path cannot be a reader when the command starts,
    else None.

    A path absent at the start is a typo or a reader not plugged in; a serial port that is
    not a terminal device (a file, a folder, ``/dev/null``) or that cannot be opened is a
    wrong path or a missing permission: each said at once, as no wait mends them. A reader
    that goes away later (a USB cable pulled) is waited for, as the app does (``run``
    waits for every reader, present or not).
    """
    if reader.is_keyboard:  # not an input device, or grabbed: its start says so
        if not os.path.exists(reader.device):
            return (
                f"error: the input device {reader.device} does not exist: check its name"
                " (ls /dev/input/by-id/) and that the reader is plugged in"
            )
        if not os.access(reader.device, os.R_OK):
            return (
                f"error: cannot read the input device {reader.device}: permission denied"
                " (add the user to the input group)"
            )
        return None
    port = reader.port
    if not os.path.exists(port):
        return (
            f"error: the serial port {port} does not exist: check its name (ls /dev/serial*"
            " /dev/tty*) and that the scanner is plugged in"
        )
    try:  # opened and closed at once: no read, no settings changed
        descriptor = os.open(port, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except PermissionError:
        return (
            f"error: cannot open the serial port {port}: permission denied"
            " (add the user to the dialout group)"
        )
    except OSError as error:
        return f"error: cannot open the serial port {port}: {reason_in_words(error)}"
    try:
        if os.isatty(descriptor):
            return None
    finally:
        os.close(descriptor)
    return (
        f"error: {port} is not a serial port (a serial reader is /dev/serial0, /dev/ttyUSB0,"
        " /dev/ttyACM0 or /dev/serial/by-id/...)"
    )


def _run_with_scanner(
    args: argparse.Namespace,
    tag_map: TagMap | None,
    body: Callable[[_Reads], int],
    readers: tuple[ScannerConfig, ...],
) -> int:
    """Start the readers, run ``body``, stop on SIGINT/SIGTERM; the exit status.

    ``tag_map`` None: each reader's own (its ``tag_map``, else the default one).
    """
    try:
        tag_maps = [tag_map or _reader_tag_map(args, reader) for reader in readers]
        reads = _Reads(readers, tag_maps)
    except (ScannerError, TagMapError) as error:
        _say(f"error: {error}", error=True)
        return EXIT_ERROR
    previous = {sig: signal.signal(sig, reads.stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        reads.start()
    except (PortInUseError, NotAnInputDeviceError, DeviceGrabbedError, ScannerError) as error:
        reads.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        _say(f"error: {error}", error=True)
        return EXIT_ERROR
    try:
        return body(reads)
    finally:
        reads.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _reader_tag_map(args: argparse.Namespace, reader: ScannerConfig) -> TagMap:
    path = reader.tag_map or args.tag_map or default_tag_map_path(args.data_dir)
    return TagMap.load(path)


def _readers_or_exit(args: argparse.Namespace) -> tuple[tuple[ScannerConfig, ...], bool] | int:
    """The readers asked for, or the exit status after saying why they cannot be read
    (none asked: a usage error, exit status 2, as argparse's)."""
    try:
        readers, configured = _readers_asked(args)
    except _NoReaderError as error:  # a usage error, as argparse reports them
        _say(f"hanabi-companion {args.command}: error: {error}", error=True)
        raise SystemExit(EXIT_USAGE) from None
    except (ScannerError, ConfigError) as error:
        _say(f"error: {error}", error=True)
        return EXIT_ERROR
    for reader in readers:  # a path that is no reader at the start: a typo
        problem = _not_a_reader(reader)
        if problem:
            _say(problem, error=True)
            return EXIT_ERROR
    return readers, configured


# -- scanner -----------------------------------------------------------------


def scanner_command(args: argparse.Namespace) -> int:
    """Print ``{"tag": ..., "card": "R3" | null}`` per read until Ctrl-C or SIGTERM; with
    the configured readers, ``{"reader": "play", "tag": ..., "card": ...}``."""
    asked = _readers_or_exit(args)
    if isinstance(asked, int):
        return asked
    readers, configured = asked

    def print_reads(reads: _Reads) -> int:
        for label, read in reads.labelled_reads():
            card = read.card.code() if read.card is not None else None
            line = {"tag": read.tag, "card": card}
            print(json.dumps({"reader": label, **line} if configured else line), flush=True)
        return EXIT_OK

    return _run_with_scanner(args, None, print_reads, readers)


# -- enrol -------------------------------------------------------------------


def enrol_command(args: argparse.Namespace) -> int:
    """Ask for each card (or each copy of ``--card``), read its tag, save the map."""
    path: Path = args.tag_map or default_tag_map_path(args.data_dir)
    asked = _readers_or_exit(args)
    if isinstance(asked, int):
        return asked
    readers, _ = asked
    try:
        wanted = _cards_to_enrol(args)
        tag_map = TagMap.load(path) if args.card else TagMap()
    except (ValueError, TagMapError) as error:
        _say(f"error: {error}", error=True)
        return EXIT_ERROR
    asked_for: list[Card] = []  # the cards asked for, once the readers started

    def enrol_cards(reads: _Reads) -> int:
        if args.card:
            forgotten = tag_map.forget_card(wanted[0])
            _say(f"Re-enrolling {wanted[0].code()}: forgot {len(forgotten)} old tag(s).")
        else:
            _say(
                f"Enrolling a deck of {len(wanted)} cards into {path}."
                " Ctrl-C aborts (nothing saved)."
            )
        asked_for.extend(wanted)
        stream = reads.reads()
        for number, card in enumerate(wanted, start=1):
            if not _enrol_one(stream, tag_map, card, number, len(wanted)):
                return EXIT_ERROR
        return EXIT_OK

    status = _run_with_scanner(args, TagMap(), enrol_cards, readers)
    if status != EXIT_OK:
        if asked_for:  # else the readers did not start: their one line said why
            _say("Enrolment aborted: nothing saved.", error=True)
        return status
    if not args.card:
        problems = check_deck(tag_map, args.multicolor)
        if problems:
            _say("error: the deck is not complete: " + "; ".join(problems), error=True)
            return EXIT_ERROR
    try:
        tag_map.save(path)
    except OSError as error:
        _say(f"error: cannot save {path}: {reason_in_words(error)}", error=True)
        return EXIT_ERROR
    _say(f"Saved {len(tag_map)} tags to {path}.")
    return EXIT_OK


def _cards_to_enrol(args: argparse.Namespace) -> list[Card]:
    deck = deck_cards(args.multicolor)
    if not args.card:
        return deck
    try:
        card = Card.from_code(args.card)
    except CardFormatError as error:
        raise ValueError(f"--card: {error}") from None
    copies = [known for known in deck if known == card]
    if not copies:
        raise ValueError(
            f"--card: {card.code()} is not in a deck with --multicolor {args.multicolor}"
        )
    return copies


def _enrol_one(
    stream: Iterator[CardScanned], tag_map: TagMap, card: Card, number: int, total: int
) -> bool:
    """Ask for ``card`` until a usable tag is read; False if stopped first."""
    _say(f"Scan {card.code()} ({number}/{total}):")
    for read in stream:
        if card_code_of(read.tag) is not None:
            _say(f"{read.tag} is a card code, not a tag: no enrolment needed. Scan {card.code()}:")
            continue
        if read.tag in tag_map:
            known = tag_map.lookup(read.tag)
            assert known is not None
            _say(f"Tag {read.tag} is already {known.code()}. Scan {card.code()}:")
            continue
        tag_map.enrol(read.tag, card)
        _say(f"{read.tag} = {card.code()}")
        return True
    return False


# -- standalone entry point --------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """``python -m companion.shell.hardware_cli scanner|enrol ...``."""
    parser = argparse.ArgumentParser(prog="hanabi-companion")
    commands = parser.add_subparsers(dest="command", required=True)
    add_scanner_arguments(commands.add_parser("scanner", help="print scanner reads"))
    add_enrol_arguments(commands.add_parser("enrol", help="enrol a deck of RFID cards"))
    args = parser.parse_args(argv)
    from companion.shell.cli import until_the_reader_goes  # `scanner | head -3`, as the main CLI

    command = scanner_command if args.command == "scanner" else enrol_command
    return until_the_reader_goes(command, args)


if __name__ == "__main__":
    sys.exit(main())
