"""The card readers of the ``scanner`` and ``enrol`` commands: their arguments, started and read.

Without ``--port`` or ``--device`` the commands read every reader of the configuration
(``--config``, else ``/etc/hanabi-companion/config.toml``); a reader's events are read
from the main thread, with its label, until SIGINT or SIGTERM.
"""

from __future__ import annotations

import argparse
import os
import queue
import signal
import sys
import threading
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
from engine.options import Multicolor
from hardware.events import CardScanned, DeviceStatus, InputEvent
from hardware.keyboard import DeviceGrabbedError, KeyboardReader, NotAnInputDeviceError
from hardware.os_words import reason_in_words
from hardware.scanner import PROTOCOLS, CardScanner, PortInUseError, ScannerError
from hardware.tagmap import TagMap, TagMapError
from hardware.wiring import ScannerProtocol

MULTICOLOR_MODES = tuple(mode.value for mode in Multicolor)

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2


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
    """The error of no reader: neither --port nor --device, and none in the configuration."""


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


class Reads:
    """The started readers, whose events are read one by one with the reader's label until
    a signal."""

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
                say(event.message, error=True)
            elif isinstance(event, CardScanned):
                yield label, event


def say(text: str, *, error: bool = False) -> None:
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


def run_with_scanner(
    args: argparse.Namespace,
    tag_map: TagMap | None,
    body: Callable[[Reads], int],
    readers: tuple[ScannerConfig, ...],
) -> int:
    """Start the readers, run ``body``, stop on SIGINT/SIGTERM; the exit status.

    ``tag_map`` None: each reader's own (its ``tag_map``, else the default one).
    """
    try:
        tag_maps = [tag_map or _reader_tag_map(args, reader) for reader in readers]
        reads = Reads(readers, tag_maps)
    except (ScannerError, TagMapError) as error:
        say(f"error: {error}", error=True)
        return EXIT_ERROR
    previous = {sig: signal.signal(sig, reads.stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        reads.start()
    except (PortInUseError, NotAnInputDeviceError, DeviceGrabbedError, ScannerError) as error:
        reads.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        say(f"error: {error}", error=True)
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


def readers_or_exit(args: argparse.Namespace) -> tuple[tuple[ScannerConfig, ...], bool] | int:
    """The readers asked for, or the exit status after saying why they cannot be read
    (none asked: a usage error, exit status 2, as argparse's)."""
    try:
        readers, configured = _readers_asked(args)
    except _NoReaderError as error:  # a usage error, as argparse reports them
        say(f"hanabi-companion {args.command}: error: {error}", error=True)
        raise SystemExit(EXIT_USAGE) from None
    except (ScannerError, ConfigError) as error:
        say(f"error: {error}", error=True)
        return EXIT_ERROR
    for reader in readers:  # a path that is no reader at the start: a typo
        problem = _not_a_reader(reader)
        if problem:
            say(problem, error=True)
            return EXIT_ERROR
    return readers, configured
