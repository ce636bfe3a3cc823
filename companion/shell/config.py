"""The TOML configuration file: screen, game defaults, GPIO panel, card scanner.

:func:`load_config` reads ``--config PATH``, else
``/etc/hanabi-companion/config.toml`` if it exists, else uses the built-in
defaults. Everything is checked before anything starts; each problem is
reported with the file, the line and the key::

    config.toml:7: [gpio] hint: 99 is not a BCM pin (0-27)

>>> config = parse_config('[gpio]\\nhint = 12\\n')
>>> config.gpio.pins.hint, config.game.players, config.scanner is None
(12, 3, True)
>>> parse_config('[gpio]\\nhint = 99\\n', source="config.toml")
Traceback (most recent call last):
...
companion.shell.config.ConfigError: config.toml:2: [gpio] hint: 99 is not a BCM pin (0-27)
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
from msgspec import Struct, field

from companion.core.i18n import LANGUAGE_NAMES, LANGUAGES
from engine.errors import CompanionError
from engine.options import OPTION_NAMES, GameOptions
from hardware.os_words import reason_in_words
from hardware.wiring import (
    FUSE_TOKENS,
    HINT_TOKENS,
    PIN_FACTORY_NAMES,
    PROTOCOLS,
    READER_ROLES,
    SERIAL_PROTOCOLS,
    PanelPins,
    ReaderRole,
    ScannerProtocol,
)

__all__ = [
    "DEFAULT_CONFIG_PATH",
    "Config",
    "ConfigError",
    "GameConfig",
    "GpioConfig",
    "ScannerConfig",
    "ScreenConfig",
    "WebConfig",
    "load_config",
    "parse_config",
    "reader_labels",
    "reader_names",
]

DEFAULT_CONFIG_PATH = Path("/etc/hanabi-companion/config.toml")
"""Read when no ``--config`` is given and the file exists."""

BAUD_RATES = (1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200)

MAX_READERS = 3
"""Card readers a table uses at most: one per role (any, play, discard)."""


class ConfigError(CompanionError, ValueError):
    """The configuration file is unreadable or wrong; the message lists every problem."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


class ScreenConfig(Struct, frozen=True):
    """``[screen]``: where and how the app draws."""

    display: str = "auto"
    """``auto``, ``window``, ``kmsdrm`` or ``fb:/dev/fbN`` (a small SPI screen)."""
    size: tuple[int, int] = (480, 320)
    fullscreen: bool = False
    language: str = "en"


class GameConfig(Struct, frozen=True):
    """``[game]``: the defaults offered when a new game is set up."""

    players: int = 3
    options: GameOptions = field(default_factory=GameOptions)


class GpioConfig(Struct, frozen=True):
    """``[gpio]``: the button panel. ``pin_factory = "none"``: no panel."""

    pin_factory: str = "auto"
    pins: PanelPins = field(default_factory=PanelPins)
    debounce: float = 0.05
    long_press: float = 0.8


class ScannerConfig(Struct, frozen=True):
    """One card reader: ``[scanner]``, or one ``[[scanner]]`` table of several.

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
    """``[web]``: the live page for phones on the LAN (``companion/web``).

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


def _option_lines() -> str:
    """The ``[game]`` options of the default file: each one's sentence, then its default."""
    lines = []
    for name, value in GameOptions().to_dict(defaults=True).items():
        lines.append(f"# {GameOptions.doc(name)}")
        lines.append(
            f'{name} = "{value}"' if isinstance(value, str) else f"{name} = {str(value).lower()}"
        )
    return "\n".join(lines) + "\n"


_DEFAULT_CONFIG = """\
# hanabi-companion configuration.
# Every value below is the built-in default: change what you need, then
# restart the service (sudo systemctl restart hanabi-companion).

[screen]
# "auto" (let SDL choose), "window", "kmsdrm" (HDMI/DSI without a desktop)
# or "fb:/dev/fb1" (a small SPI screen on a frame buffer).
display = "auto"
# Width x height in pixels.
size = "480x320"
fullscreen = false
# The language of the screens: {LANGUAGE_CHOICES}.
language = "en"

[game]
# Defaults offered when a new game is set up (changeable at the table).
# Players: 2 to 5.
players = 3
{_GAME_OPTION_LINES}

[gpio]
# "auto" (lgpio on a Raspberry Pi), "lgpio", "mock" (no real pins: a desktop)
# or "none" (no button panel).
pin_factory = "auto"
# BCM pin numbers (not header positions) of the buttons; each button goes to
# GND, the internal pull-ups are used. See docs/wiring.md.
hint = 5
play = 6
discard = 13
undo = 19
next = 26
ok = 21
# Seconds: a press this soon after the last edge is contact bounce.
debounce = 0.05
# Seconds: holding UNDO this long means BACK, holding OK means MENU.
long_press = 0.8
# Optional parts (uncomment the ones fitted):
# encoder_a = 17          # rotary encoder: clockwise = NEXT, back = PREVIOUS
# encoder_b = 27
# encoder_push = 22       # encoder push button = OK (long: MENU)
# led_bar = [4, 12, 16, 18, 20, 23, 24, 25]  # 8 LEDs: hint tokens left
# The SPI pins 7-11 are free only without an SPI screen:
# fuse_leds = [9, 10, 11]  # 3 LEDs: fuses burnt
# buzzer = 7

[web]
# The live page for phones on the table's Wi-Fi (the menu's Phones page shows
# its QR code). On here, the appliance's file; without a configuration file it
# is off (on a desktop, run --web turns it on).
enabled = true
# The TCP port (1024-65535: the service has no privilege for a lower one).
port = 8080
# The address to listen on; empty: every address of the Pi.
bind = ""

# The card scanner. Without this section, no scanner is used.
# Several readers (up to 3, any mix of serial and keyboard ones) are
# [[scanner]] tables instead, each with its role; for example a pad under
# the fireworks and one under the discard pile (see the README's wiring):
#   [[scanner]]
#   port = "/dev/serial0"
#   role = "play"
#   [[scanner]]
#   protocol = "keyboard"
#   device = "/dev/input/by-id/usb-...-event-kbd"
#   role = "discard"
# [scanner]
# RDM6300 on the Pi's UART: "/dev/serial0"; USB adapters:
# "/dev/serial/by-id/usb-..." (stable across reboots).
# port = "/dev/serial0"
# "rdm6300" (125 kHz RFID module), "line" (one tag or card code per line,
# e.g. a barcode scanner printing R3), or "keyboard": a USB reader that types
# what it reads; it is an input device, named by device = instead of port =
# (ls /dev/input/by-id/ shows it, ending in -event-kbd).
# protocol = "rdm6300"
# baud = 9600
# Seconds: a card resting on the reader is reported once; read again after
# this long without being seen, it counts again.
# repeat_window = 1.0
# What a card read here means: "any" (the players then press PLAY or
# DISCARD), "play" (the card was played: recorded at once, no press) or
# "discard" (it was discarded).
# role = "any"
# The enrolled deck (default: ~/.local/state/hanabi-companion/tags.json).
# tag_map = "/var/lib/hanabi-companion/tags.json"
"""


def __getattr__(name: str) -> str:
    """``DEFAULT_CONFIG_TOML``: the configuration file the installer writes, every value
    at its default, made the first time it is read (a module attribute made on demand,
    PEP 562). It names every language by its own name, which imports them all; a start
    reads none of it."""
    if name != "DEFAULT_CONFIG_TOML":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    choices = ", ".join(f'"{code}" ({own})' for code, own in LANGUAGE_NAMES.items())
    text = _DEFAULT_CONFIG.replace("{_GAME_OPTION_LINES}\n", _option_lines())
    globals()[name] = text = text.replace("{LANGUAGE_CHOICES}", choices)
    return text


def load_config(
    path: Path | None = None,
    *,
    default_path: Path = DEFAULT_CONFIG_PATH,
    cache: Path | None = None,
) -> Config:
    """The configuration from ``path`` (``--config``), else ``default_path`` if it
    exists, else the built-in defaults. Raises :class:`ConfigError`.

    ``cache``: a file that keeps the last text read and its TOML parsed
    (:data:`CONFIG_CACHE_NAME` in the data directory, for ``run``), so that a start with
    the same text skips ``tomllib``; see :func:`parse_config`."""
    if path is None:
        if not default_path.is_file():
            return Config()
        path = default_path
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError([f"{path}: no such configuration file"]) from None
    except UnicodeDecodeError:
        raise ConfigError([f"{path}: not a text file (not UTF-8)"]) from None
    except OSError as error:
        raise ConfigError([f"{path}: cannot read it: {reason_in_words(error)}"]) from None
    return parse_config(text, source=str(path), path=path, cache=cache)


def parse_config(
    text: str, *, source: str = "<config>", path: Path | None = None, cache: Path | None = None
) -> Config:
    """Parse and check configuration text. Raises :class:`ConfigError`.

    With ``cache``, the TOML document is taken from that file when it holds this very text
    (and written there when it does not): importing ``tomllib`` and parsing is about a
    fortieth of the start to the first frame. The document is checked as always either way.
    """
    document = None if cache is None else _cached_document(cache, text)
    if document is None:
        import tomllib  # a desktop without a configuration file starts without it

        try:
            document = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise ConfigError([f"{source}: invalid TOML: {error}"]) from None
        if cache is not None:
            _write_cache(cache, text, document)
    checker = _Checker(text, source)
    config = checker.config(document, path)
    if checker.problems:
        raise ConfigError(checker.problems)
    assert config is not None
    return config


#: The file in the data directory that keeps the configuration last read, with its TOML
#: parsed (JSON). Nothing else reads it; deleting it costs the next start a parse.
CONFIG_CACHE_NAME = "config-cache.json"
_CACHE_FORMAT = "hanabi-config-cache/1"


def _cached_document(cache: Path, text: str) -> dict[str, Any] | None:
    """The parsed document kept in ``cache`` if it was parsed from ``text``, exactly; None
    when the file is missing, unreadable, damaged or from another text."""
    try:
        kept = orjson.loads(cache.read_bytes())
    except (OSError, ValueError):  # orjson.JSONDecodeError is a ValueError
        return None
    if type(kept) is not dict or kept.get("format") != _CACHE_FORMAT or kept.get("toml") != text:
        return None
    document = kept.get("document")
    return document if type(document) is dict else None


def _write_cache(cache: Path, text: str, document: dict[str, Any]) -> None:
    """Keep ``text`` and its parsed ``document`` in ``cache``, if JSON gives the document back
    as it is (a TOML date or time would come back as text: then nothing is kept). Whole or
    not at all (a new file renamed over the old one); a failure (no data directory yet, a
    full card) only costs the next start a parse, so it is not reported."""
    kept = {"format": _CACHE_FORMAT, "toml": text, "document": document}
    try:
        data = orjson.dumps(kept)
    except TypeError:  # orjson.JSONEncodeError: a whole number beyond 64 bits
        return
    if orjson.loads(data)["document"] != document:
        return
    partial = cache.with_name(f".{cache.name}.{os.getpid()}")
    try:
        # the owner's only, as every file of the data directory
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        with open(fd, "wb") as out:
            out.write(data)
        os.replace(partial, cache)
    except OSError:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)


#: Patterns of the lines :func:`_find_lines` looks for (compiled by ``re`` when a problem
#: is first reported: a correct configuration, the start's, compiles none).
_SECTION_LINE = r"^\s*\[\s*([A-Za-z0-9_-]+)\s*\]"
_ARRAY_LINE = r"^\s*\[\[\s*([A-Za-z0-9_-]+)\s*\]\]"
_KEY_LINE = r"""^\s*(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*="""


def _find_lines(text: str) -> dict[tuple[str, str | None], int]:
    """Line numbers of sections ``(section, None)`` and keys ``(section, key)``.

    The tables of an array (``[[scanner]]``) are sections ``scanner#1``, ``scanner#2``...
    """
    lines: dict[tuple[str, str | None], int] = {}
    section = ""
    tables_seen: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        array = re.match(_ARRAY_LINE, line)
        if array:
            name = array.group(1)
            tables_seen[name] = tables_seen.get(name, 0) + 1
            section = f"{name}#{tables_seen[name]}"
            lines.setdefault((section, None), number)
            lines.setdefault((name, None), number)
            continue
        header = re.match(_SECTION_LINE, line)
        if header:
            section = header.group(1)
            lines.setdefault((section, None), number)
            continue
        key = re.match(_KEY_LINE, line)
        if key:
            name = next(group for group in key.groups() if group is not None)
            lines.setdefault((section, name), number)
    return lines


class _Missing:
    """Marks a key absent from the file."""


_MISSING = _Missing()


class _Checker:
    """Reads the parsed TOML section by section, collecting every problem."""

    def __init__(self, text: str, source: str) -> None:
        self.source = source
        self.text = text
        self.problems: list[str] = []

    @functools.cached_property
    def lines(self) -> dict[tuple[str, str | None], int]:
        """Where each section and key is (:func:`_find_lines`), found with the first
        problem to report."""
        return _find_lines(self.text)

    # -- reporting ----------------------------------------------------------

    def problem(self, section: str, key: str | None, message: str) -> None:
        line = (
            self.lines.get((section, key))
            or self.lines.get((section, None))
            or self.lines.get(("", section))
        )
        where = f"{self.source}:{line}" if line else self.source
        name, _, number = section.partition("#")
        table = f"[[{name}]] #{number}" if number else f"[{section}]"
        what = f"{table} {key}" if key else table
        self.problems.append(f"{where}: {what}: {message}")

    # -- typed getters: the value, or the default after reporting a problem --

    def section(
        self, document: dict[str, Any], name: str, known: tuple[str, ...]
    ) -> dict[str, Any]:
        table = document.get(name, {})
        if not isinstance(table, dict):
            self.problem(name, None, "must be a section ([" + name + "])")
            return {}
        for key in table:
            if key not in known:
                self.problem(name, key, f"unknown key (known keys: {', '.join(known)})")
        return table

    def get(
        self,
        table: dict[str, Any],
        section: str,
        key: str,
        default: Any,
        check: Callable[[Any], str | None],
    ) -> Any:
        value = table.get(key, _MISSING)
        if value is _MISSING:
            return default
        message = check(value)
        if message is not None:
            self.problem(section, key, message)
            return default
        return value

    # -- the sections -------------------------------------------------------

    def config(self, document: dict[str, Any], path: Path | None) -> Config | None:
        known = ("screen", "game", "gpio", "scanner", "web")
        for name in document:
            if name not in known:
                self.problem(name, None, f"unknown section (known: {', '.join(known)})")
        screen = self.screen(self.section(document, "screen", _SCREEN_KEYS))
        game = self.game(self.section(document, "game", _GAME_KEYS))
        gpio = self.gpio(self.section(document, "gpio", _GPIO_KEYS))
        scanners = self.scanners(document.get("scanner"))
        web = self.web(self.section(document, "web", _WEB_KEYS))
        if self.problems:
            return None
        return Config(screen=screen, game=game, gpio=gpio, scanners=scanners, web=web, source=path)

    def web(self, table: dict[str, Any]) -> WebConfig:
        s = "web"
        return WebConfig(
            enabled=self.get(table, s, "enabled", False, _check_bool),
            port=self.get(table, s, "port", 8080, _int_in(1024, 65535, "a TCP port")),
            bind=self.get(table, s, "bind", "", _check_address),
        )

    def screen(self, table: dict[str, Any]) -> ScreenConfig:
        s = "screen"
        size_text = self.get(table, s, "size", "480x320", _check_size)
        width, height = (int(part) for part in size_text.lower().split("x"))
        return ScreenConfig(
            display=self.get(table, s, "display", "auto", _check_display),
            size=(width, height),
            fullscreen=self.get(table, s, "fullscreen", False, _check_bool),
            language=self.get(table, s, "language", "en", _one_of(LANGUAGES)),
        )

    def game(self, table: dict[str, Any]) -> GameConfig:
        s = "game"
        defaults = GameOptions().to_dict(defaults=True)
        values = {
            name: self.get(table, s, name, defaults[name], _check_option(name))
            for name in OPTION_NAMES
        }
        return GameConfig(
            players=self.get(table, s, "players", 3, _int_in(2, 5, "a player count")),
            options=GameOptions.from_dict(values),
        )

    def gpio(self, table: dict[str, Any]) -> GpioConfig:
        s = "gpio"
        problems_before = len(self.problems)
        defaults = PanelPins()
        pins: dict[str, Any] = {}
        for key in ("hint", "play", "discard", "undo", "next", "ok"):
            pins[key] = self.get(table, s, key, getattr(defaults, key), _check_pin)
        for key in ("encoder_a", "encoder_b", "encoder_push", "buzzer"):
            pins[key] = self.get(table, s, key, None, _check_pin)
        pins["led_bar"] = tuple(self.get(table, s, "led_bar", (), _pin_list(HINT_TOKENS)))
        pins["fuse_leds"] = tuple(self.get(table, s, "fuse_leds", (), _pin_list(FUSE_TOKENS)))
        if (pins["encoder_a"] is None) != (pins["encoder_b"] is None):
            given = "encoder_a" if pins["encoder_a"] is not None else "encoder_b"
            self.problem(s, given, "give both encoder_a and encoder_b, or neither")
            pins["encoder_a"] = pins["encoder_b"] = None
        self._check_duplicate_pins(pins)
        debounce = self.get(table, s, "debounce", 0.05, _number_in(0.0, 1.0, "seconds"))
        long_press = self.get(table, s, "long_press", 0.8, _number_in(0.05, 10.0, "seconds"))
        if long_press <= debounce:
            self.problem(s, "long_press", f"{long_press} must be longer than debounce")
        pin_factory = self.get(table, s, "pin_factory", "auto", _one_of(PIN_FACTORY_NAMES))
        if len(self.problems) > problems_before:
            return GpioConfig()  # not used: the problems are raised
        return GpioConfig(
            pin_factory=pin_factory,
            pins=PanelPins(**pins),
            debounce=float(debounce),
            long_press=float(long_press),
        )

    def _check_duplicate_pins(self, pins: dict[str, Any]) -> None:
        """Report a pin given to two roles, at the second one."""
        seen: dict[int, str] = {}
        for key, value in pins.items():
            numbers = () if value is None else value if isinstance(value, tuple) else (value,)
            taken = [number for number in numbers if number in seen]
            if taken:
                self.problem("gpio", key, f"pin {taken[0]} is already used by {seen[taken[0]]}")
            for number in numbers:
                seen.setdefault(number, key)

    def scanners(self, value: Any) -> tuple[ScannerConfig, ...]:
        """``[scanner]`` (one reader) or ``[[scanner]]`` tables (one per reader)."""
        if value is None:
            return ()
        if isinstance(value, dict):
            tables = [("scanner", value)]
        elif isinstance(value, list) and all(isinstance(table, dict) for table in value):
            tables = [(f"scanner#{number}", table) for number, table in enumerate(value, 1)]
            if not 1 <= len(value) <= MAX_READERS:
                self.problem("scanner", None, f"{len(value)} readers: a table has 1 to 3")
        else:
            self.problem("scanner", None, "must be [scanner] or [[scanner]] tables")
            return ()
        readers: list[ScannerConfig] = []
        used: dict[str, str] = {}  # path -> the section that uses it
        for section, table in tables:
            for key in table:
                if key not in _SCANNER_KEYS:
                    known = ", ".join(_SCANNER_KEYS)
                    self.problem(section, key, f"unknown key (known keys: {known})")
            reader = self.scanner(section, table)
            if reader is None:
                continue
            if reader.path in used:
                key = "device" if reader.is_keyboard else "port"
                first = used[reader.path].replace("scanner#", "[[scanner]] #")
                self.problem(section, key, f"{reader.path} is already the reader of {first}")
            used.setdefault(reader.path, section)
            readers.append(reader)
        return tuple(readers)

    def scanner(self, s: str, table: dict[str, Any]) -> ScannerConfig | None:
        protocol = self.get(table, s, "protocol", "rdm6300", _one_of(PROTOCOLS))
        keyboard = protocol not in SERIAL_PROTOCOLS
        path_key, other_key = ("device", "port") if keyboard else ("port", "device")
        example = "/dev/input/by-id/...-event-kbd" if keyboard else "/dev/serial0"
        path = self.get(table, s, path_key, None, _check_text(f"a device path like {example}"))
        if other_key in table:
            if keyboard:
                why = 'a keyboard reader is an input device: give device = "/dev/input/..."'
            else:
                why = f'device is for protocol = "keyboard"; a {protocol} reader needs port ='
            self.problem(s, other_key, why)
        elif path_key not in table:
            self.problem(
                s, None, f'needs {path_key} = "/dev/..." (or remove the section: no scanner)'
            )
        if keyboard and "baud" in table:
            self.problem(s, "baud", "a keyboard reader has no baud rate (a serial setting)")
        tag_map = self.get(table, s, "tag_map", None, _check_text("a file path"))
        config = ScannerConfig(
            port="" if keyboard else path or "",
            device=path or "" if keyboard else "",
            protocol=protocol,
            baud=self.get(table, s, "baud", 9600, _check_baud),
            repeat_window=float(
                self.get(table, s, "repeat_window", 1.0, _number_in(0.0, 60.0, "seconds"))
            ),
            tag_map=Path(tag_map) if tag_map else None,
            role=self.get(table, s, "role", "any", _one_of(READER_ROLES)),
        )
        return config if path else None


_SCREEN_KEYS = ("display", "size", "fullscreen", "language")
_WEB_KEYS = ("enabled", "port", "bind")
_GAME_KEYS = ("players", *OPTION_NAMES)
_GPIO_KEYS = (
    "pin_factory",
    "hint",
    "play",
    "discard",
    "undo",
    "next",
    "ok",
    "debounce",
    "long_press",
    "encoder_a",
    "encoder_b",
    "encoder_push",
    "led_bar",
    "fuse_leds",
    "buzzer",
)
_SCANNER_KEYS = ("port", "device", "protocol", "baud", "repeat_window", "tag_map", "role")


# -- value checks: each returns None when fine, else what is wrong ------------


def _check_bool(value: Any) -> str | None:
    return None if isinstance(value, bool) else f"{value!r} must be true or false"


def _check_option(name: str) -> Callable[[Any], str | None]:
    """A game option's check: true or false, or one of its words (``multicolor``)."""
    choices = GameOptions.choices(name)
    if all(isinstance(choice, bool) for choice in choices):
        return _check_bool
    return _one_of(tuple(str(getattr(choice, "value", choice)) for choice in choices))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_pin(value: Any) -> str | None:
    if not _is_int(value) or not 0 <= value <= 27:
        return f"{value!r} is not a BCM pin (0-27)"
    return None


def _pin_list(length: int) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if not isinstance(value, list) or len(value) != length:
            return f"{value!r} must be a list of {length} BCM pins"
        for pin in value:
            problem = _check_pin(pin)
            if problem:
                return problem
        if len(set(value)) != len(value):
            return f"{value!r} lists a pin twice"
        return None

    return check


def _int_in(low: int, high: int, what: str) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if not _is_int(value) or not low <= value <= high:
            return f"{value!r} is not {what} ({low}-{high})"
        return None

    return check


def _number_in(low: float, high: float, unit: str) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if (
            not isinstance(value, int | float)
            or isinstance(value, bool)
            or not low <= value <= high
        ):
            return f"{value!r} must be a number of {unit} from {low} to {high}"
        return None

    return check


def _one_of(choices: tuple[str, ...]) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if value not in choices:
            return f"{value!r} is not one of {', '.join(repr(c) for c in choices)}"
        return None

    return check


def _check_text(what: str) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if not isinstance(value, str) or not value.strip():
            return f"{value!r} must be {what}"
        return None

    return check


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


def _check_size(value: Any) -> str | None:
    match = re.fullmatch(r"(\d{2,5})[xX](\d{2,5})", value) if isinstance(value, str) else None
    if match is None:
        return f'{value!r} must be "WIDTHxHEIGHT" in pixels, like "480x320"'
    return panel_size_problem(*(int(part) for part in match.groups()))


def _check_display(value: Any) -> str | None:
    if value in ("auto", "window", "kmsdrm"):
        return None
    if isinstance(value, str) and value.startswith("fb:/dev/"):
        return None
    return f'{value!r} is not "auto", "window", "kmsdrm" or "fb:/dev/fbN"'


def _check_baud(value: Any) -> str | None:
    if value not in BAUD_RATES or not _is_int(value):
        return f"{value!r} is not a baud rate ({', '.join(map(str, BAUD_RATES))})"
    return None


def _check_address(value: Any) -> str | None:
    """An IP address to listen on, or empty (every address)."""
    import ipaddress

    if not isinstance(value, str):
        return f'{value!r} is not an address in quotes, like "192.168.1.20" (or "")'
    if value == "":
        return None
    try:
        ipaddress.ip_address(value)
    except ValueError:
        return f'{value!r} is not an IP address like 192.168.1.20 (or "": every address)'
    return None
