"""The table's input devices, opened and closed in one place: the button panel and the readers.

:func:`open_devices` opens what the configuration names and closes all of it on
the way out, whatever happens in between. A device that cannot be used is not
fatal: the companion runs without it and says why in one line
(:attr:`Devices.notices`, shown on the screen and logged).

The configuration names one to three readers (``[scanner]`` or
``[[scanner]]`` tables), serial or keyboard-type, each with its role. Adding a
kind of card reader is a module in ``hardware/`` (it sends
:class:`~hardware.events.CardScanned` with the reader's role and
:class:`~hardware.events.DeviceStatus` to ``emit``, and has ``close()``), an
opener function here, and one line in :data:`READERS`.

>>> from companion.shell.config import Config, GpioConfig
>>> with open_devices(Config(gpio=GpioConfig(pin_factory="none")), print) as devices:
...     devices.panel, devices.readers, devices.notices
(None, [], [])
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

from msgspec import Struct, field

from companion.shell.config import Config, ScannerConfig, reader_names
from companion.storage import default_data_dir
from engine.errors import CompanionError
from hardware.events import Emit
from hardware.tagmap import TagMap, TagMapError

if TYPE_CHECKING:
    # gpiozero, pyserial and evdev load only with a device that needs them: not before
    # the first frame of a table with none (52 ms of a start, issue 23)
    from gpiozero.pins import Factory

    from hardware.buttons import ButtonPanel

log = logging.getLogger("hanabi-companion")


class Reader(Protocol):
    """A card reader once started: it sends events from its own thread until closed."""

    def close(self) -> None: ...


class DeviceOptions(Struct, frozen=True):
    """The device options the command line gives over the configuration."""

    #: ``--gpio``: the pin factory, instead of ``[gpio] pin_factory``.
    pin_factory: str | None = None
    #: A gpiozero pin factory object to use instead (a test's ``MockFactory``).
    gpio_factory: Factory | None = None
    #: ``--data-dir``: where the enrolled deck is looked for when the config names none.
    data_dir: Path | None = None
    #: Where GPIO chips appear (``pin_factory = "auto"`` without one: a desktop, no panel).
    dev: Path = Path("/dev")


class Devices(Struct):
    """The devices open for this run."""

    panel: ButtonPanel | None = None
    readers: list[Reader] = field(default_factory=list)
    #: One line per device that could not be opened, for the screen.
    notices: list[str] = field(default_factory=list)


def _open_panel(config: Config, emit: Emit, options: DeviceOptions) -> ButtonPanel | None:
    gpio = config.gpio
    factory = options.gpio_factory
    if factory is None:
        name = options.pin_factory or gpio.pin_factory
        if name == "none" or (name == "auto" and not any(options.dev.glob("gpiochip*"))):
            return None  # no panel configured, or a desktop: no GPIO chip, nothing to say
    from hardware.buttons import ButtonPanel, make_pin_factory  # gpiozero: only with a panel

    if factory is None:
        factory = make_pin_factory(name)
    return ButtonPanel(
        gpio.pins, emit, pin_factory=factory, debounce=gpio.debounce, long_press=gpio.long_press
    )


def default_tag_map_path(data_dir: Path | None = None) -> Path:
    """Where the enrolled deck lives: ``tags.json`` beside the games, in ``data_dir`` or
    the companion's data directory (``$STATE_DIRECTORY`` under systemd, else
    ``$XDG_STATE_HOME/hanabi-companion``)."""
    return (data_dir or default_data_dir()) / "tags.json"


def _tag_map(scanner: ScannerConfig, options: DeviceOptions) -> TagMap:
    return TagMap.load(scanner.tag_map or default_tag_map_path(options.data_dir))


def _open_serial_reader(
    scanner: ScannerConfig, name: str, emit: Emit, options: DeviceOptions
) -> Reader:
    from hardware.scanner import CardScanner  # pyserial: only with a serial reader

    reader = CardScanner(
        scanner.port,
        scanner.protocol,
        emit,
        baud=scanner.baud,
        tag_map=_tag_map(scanner, options),
        repeat_window=scanner.repeat_window,
        role=scanner.role,
        name=name,
    )
    reader.start()
    return reader


def _open_keyboard_reader(
    scanner: ScannerConfig, name: str, emit: Emit, options: DeviceOptions
) -> Reader:
    from hardware.keyboard import KeyboardReader  # evdev: only with a keyboard reader

    reader = KeyboardReader(
        scanner.device,
        emit,
        tag_map=_tag_map(scanner, options),
        role=scanner.role,
        name=name,
        repeat_window=scanner.repeat_window,
    )
    reader.start()
    return reader


def window_tag_map(config: Config, data_dir: Path | None = None) -> TagMap:
    """The enrolled deck for a USB reader typing into the window (no configuration):
    the first configured reader's, else the default one; unreadable, none (logged)."""
    first = config.scanner
    path = (first.tag_map if first else None) or default_tag_map_path(data_dir)
    try:
        return TagMap.load(path)
    except TagMapError as error:
        log.warning("typed reads: %s", error)
        return TagMap()


Opener = Callable[[ScannerConfig, str, Emit, DeviceOptions], Reader]

#: Each kind of card reader, with the function that opens one reader of the
#: configuration (its table, the name its problems are reported under).
READERS: tuple[tuple[str, Opener], ...] = (
    ("serial", _open_serial_reader),
    ("keyboard", _open_keyboard_reader),
)


def reader_kind(scanner: ScannerConfig) -> str:
    """The :data:`READERS` kind of a configured reader."""
    return "keyboard" if scanner.is_keyboard else "serial"


@contextmanager
def open_devices(
    config: Config, emit: Emit, options: DeviceOptions | None = None
) -> Iterator[Devices]:
    """Open the panel and the readers of ``config``, sending their events to ``emit``;
    close them all when the block ends."""
    options = options or DeviceOptions()
    devices = Devices()
    try:
        devices.panel = _attempt("GPIO", partial(_open_panel, config, emit, options), devices)
        openers = dict(READERS)
        for scanner, name in zip(config.scanners, reader_names(config.scanners), strict=True):
            opener = openers[reader_kind(scanner)]
            reader = _attempt(name, partial(opener, scanner, name, emit, options), devices)
            if reader is not None:
                devices.readers.append(reader)
        yield devices
    finally:
        for reader in reversed(devices.readers):
            reader.close()
        if devices.panel is not None:
            devices.panel.close()


_Device = TypeVar("_Device")


def _attempt(
    name: str, open_device: Callable[[], _Device | None], devices: Devices
) -> _Device | None:
    """The device ``open_device`` opens, or None and a notice when it cannot be used."""
    try:
        return open_device()
    except CompanionError as error:
        log.warning("%s not available: %s", name, error)
        devices.notices.append(f"{name}: {error}")
        return None
