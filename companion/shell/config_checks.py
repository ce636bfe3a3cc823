"""The checks of a parsed configuration file: every problem found, with its file, line and key.

:class:`Checker` reads the TOML document section by section into the types of
:mod:`companion.shell.config_values`, collecting every problem rather than stopping at
the first, so that one start says all that is wrong::

    config.toml:7: [gpio] hint: 99 is not a BCM pin (0-27)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.core.hint_level import DEFAULT_HINT_LEVEL, HintLevel
from companion.core.i18n import LANGUAGES
from companion.shell.config_values import (
    BAUD_RATES,
    MAX_READERS,
    Config,
    GameConfig,
    GpioConfig,
    ScannerConfig,
    ScreenConfig,
    WebConfig,
    panel_size_problem,
)
from engine.options import OPTION_NAMES, GameOptions
from hardware.wiring import (
    FUSE_TOKENS,
    HINT_TOKENS,
    PIN_FACTORY_NAMES,
    PROTOCOLS,
    READER_ROLES,
    SERIAL_PROTOCOLS,
    PanelPins,
)

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
    """The value of a key absent from the file."""


_MISSING = _Missing()


class Checker:
    """The checker of a parsed TOML document, read section by section, every problem
    collected."""

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
        word = self.get(table, s, "hints", None, _one_of(tuple(level.value for level in HintLevel)))
        hints = HintLevel.from_word(word) or DEFAULT_HINT_LEVEL
        if "hand_memory" in table and values["hand_memory"] is not (hints is HintLevel.SLOTS):
            if word is None:  # an older file's spelling: hand memory alone
                hints = HintLevel.SLOTS if values["hand_memory"] else hints
            else:
                memory = str(values["hand_memory"]).lower()
                self.problem(
                    s,
                    "hints",
                    f"{word!r} disagrees with hand_memory = {memory}"
                    ' (hand memory is hints = "slots")',
                )
        values["hand_memory"] = hints is HintLevel.SLOTS
        return GameConfig(
            players=self.get(table, s, "players", 3, _int_in(2, 5, "a player count")),
            options=GameOptions.from_dict(values),
            hints=hints,
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
_GAME_KEYS = ("players", "hints", *OPTION_NAMES)
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
    if not isinstance(value, str):
        return f'{value!r} is not an address in quotes, like "192.168.1.20" (or "")'
    if value == "":
        return None
    import ipaddress  # only for an address given: the appliance's file (bind = "") skips it

    try:
        ipaddress.ip_address(value)
    except ValueError:
        return f'{value!r} is not an IP address like 192.168.1.20 (or "": every address)'
    return None
