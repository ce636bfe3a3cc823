"""The configuration's values: one frozen type per section, and the limits they keep.

``Config()`` is the built-in defaults; :mod:`companion.shell.config` reads a file into
these types, checked by :mod:`companion.shell.config_checks`.
"""

from __future__ import annotations

from pathlib import Path

from msgspec import Struct, field

from companion.core.hint_level import DEFAULT_HINT_LEVEL, HintLevel
from engine.errors import CompanionError
from engine.options import GameOptions
from hardware.wiring import SERIAL_PROTOCOLS, PanelPins, ReaderRole, ScannerProtocol

BAUD_RATES = (1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200)

MAX_READERS = 3
"""Card readers a table uses at most: one per role (any, play, discard)."""


class ConfigError(CompanionError, ValueError):
    """The error of a configuration file unreadable or wrong; the message lists every
    problem."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


class ScreenConfig(Struct, frozen=True):
    """The ``[screen]`` section: where and how the app draws."""

    display: str = "auto"
    """``auto``, ``window``, ``kmsdrm`` or ``fb:/dev/fbN`` (a small SPI screen)."""
    size: tuple[int, int] = (480, 320)
    fullscreen: bool = False
    language: str = "en"


class GameConfig(Struct, frozen=True):
    """The ``[game]`` section: the defaults offered when a new game is set up. ``hints``:
    what a hint records (the slots level is the option ``hand_memory``, set with it)."""

    players: int = 3
    options: GameOptions = field(default_factory=GameOptions)
    hints: HintLevel = DEFAULT_HINT_LEVEL


class GpioConfig(Struct, frozen=True):
    """The ``[gpio]`` section: the button panel. ``pin_factory = "none"``: no panel."""

    pin_factory: str = "auto"
    pins: PanelPins = field(default_factory=PanelPins)
    debounce: float = 0.05
    long_press: float = 0.8


class ScannerConfig(Struct, frozen=True):
    """One card reader's section: ``[scanner]``, or one ``[[scanner]]`` table of several.

    A serial reader (``rdm6300``, ``line``) has a ``port``; a USB keyboard-type
    reader (``keyboard``) has a ``device`` (an input device, ``/dev/input/...``).
    """

    port: str = ""
    protocol: ScannerProtocol = "rdm6300"
    baud: int = 9600
    repeat_window: float = 1.0
    tag_map: Path | None = None
    """The enrolled deck; None: the default location (see ``hanabi-companion enrol``)."""
    role: ReaderRole = "any"
    """``any``: scan, then PLAY or DISCARD; ``play``/``discard``: the card placed is the action."""
    device: str = ""
    """The input device of a ``keyboard`` reader, e.g. ``/dev/input/by-id/usb-...-event-kbd``."""

    @property
    def path(self) -> str:
        """The serial port or the input device this reader is read from."""
        return self.device or self.port

    @property
    def is_keyboard(self) -> bool:
        """True for a USB reader that types its reads (an input device)."""
        return self.protocol not in SERIAL_PROTOCOLS


class WebConfig(Struct, frozen=True):
    """The ``[web]`` section: the live page for phones on the LAN (``companion/web``).

    Off without a configuration file (a desktop: ``run --web`` turns it on); the file
    the installer writes turns it on (the appliance).
    """

    enabled: bool = False
    port: int = 8080
    bind: str = ""
    """The address to listen on; empty: every address (the LAN and the loopback)."""


class Config(Struct, frozen=True):
    """The whole configuration; ``Config()`` is the built-in defaults."""

    screen: ScreenConfig = field(default_factory=ScreenConfig)
    game: GameConfig = field(default_factory=GameConfig)
    gpio: GpioConfig = field(default_factory=GpioConfig)
    scanners: tuple[ScannerConfig, ...] = ()
    """The card readers, in the file's order (none: no reader)."""
    web: WebConfig = field(default_factory=WebConfig)
    source: Path | None = None
    """The file read, or None for the built-in defaults. It takes part in ``==`` as every
    field does: the same settings read from two files are two configurations."""

    @property
    def scanner(self) -> ScannerConfig | None:
        """The first card reader, or None (a ``[scanner]`` section is the only one)."""
        return self.scanners[0] if self.scanners else None


def reader_labels(readers: tuple[ScannerConfig, ...]) -> list[str]:
    """What each reader is called where it reads: its role, numbered if two share it.

    >>> reader_labels((ScannerConfig("/dev/a", role="play"), ScannerConfig("/dev/b")))
    ['play', 'any']
    >>> reader_labels((ScannerConfig("/dev/a"), ScannerConfig("/dev/b")))
    ['any 1', 'any 2']
    """
    roles = [reader.role for reader in readers]
    labels = []
    for index, role in enumerate(roles):
        shared = roles.count(role) > 1
        labels.append(f"{role} {roles[: index + 1].count(role)}" if shared else role)
    return labels


def reader_names(readers: tuple[ScannerConfig, ...]) -> list[str]:
    """The device name of each reader in notices: "scanner" alone, else "scanner play"...

    >>> reader_names((ScannerConfig("/dev/a", role="play"),))
    ['scanner']
    >>> reader_names((ScannerConfig("/a", role="play"), ScannerConfig("/b", role="discard")))
    ['scanner play', 'scanner discard']
    """
    if len(readers) == 1:
        return ["scanner"]
    return [f"scanner {label}" for label in reader_labels(readers)]


#: The smallest panel the screens can draw with their text at its floor (1/18 of the
#: shorter side): a 240x320, either way round.
SMALLEST_PANEL = (240, 320)
#: The longest side a panel can have: 4096 pixels, a 4K screen (the most a Raspberry Pi
#: drives). A larger size is a typo, and would cost memory for nothing (10000x10000 ~1 GB).
LARGEST_PANEL_SIDE = 4096


def panel_size_problem(width: int, height: int) -> str | None:
    """Why the screens cannot be drawn at this size, in one sentence; None if they can.

    >>> panel_size_problem(320, 240) is None, panel_size_problem(480, 800) is None
    (True, True)
    >>> panel_size_problem(160, 128)
    '160x128 is too small: the screens need at least 240x320 or 320x240'
    >>> panel_size_problem(10000, 10000)
    '10000x10000 is too large: a panel has at most 4096 pixels a side'
    """
    short, long = sorted((width, height))
    if long > LARGEST_PANEL_SIDE:
        return (
            f"{width}x{height} is too large: a panel has at most {LARGEST_PANEL_SIDE} pixels a side"
        )
    if short < SMALLEST_PANEL[0] or long < SMALLEST_PANEL[1]:
        low, high = SMALLEST_PANEL
        return (
            f"{width}x{height} is too small: the screens need at least {low}x{high} or {high}x{low}"
        )
    return None
