"""The reader of the TOML configuration file: screen, game defaults, GPIO panel, card scanner.

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
companion.shell.config_values.ConfigError: config.toml:2: [gpio] hint: 99 is not a BCM pin (0-27)
"""

from __future__ import annotations

from pathlib import Path

from companion.core.hint_level import DEFAULT_HINT_LEVEL
from companion.core.i18n import LANGUAGE_NAMES
from companion.shell.config_checks import Checker
from companion.shell.config_values import (
    Config,
    ConfigError,
    GameConfig,
    GpioConfig,
    ScannerConfig,
    ScreenConfig,
    WebConfig,
    panel_size_problem,
    reader_labels,
    reader_names,
)
from engine.options import GameOptions
from hardware.os_words import reason_in_words

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
    "panel_size_problem",
    "parse_config",
    "reader_labels",
    "reader_names",
]

DEFAULT_CONFIG_PATH = Path("/etc/hanabi-companion/config.toml")
"""Read when no ``--config`` is given and the file exists."""


def load_config(
    path: Path | None = None,
    *,
    default_path: Path = DEFAULT_CONFIG_PATH,
) -> Config:
    """The configuration from ``path`` (``--config``), else ``default_path`` if it
    exists, else the built-in defaults. Raises :class:`ConfigError`."""
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
    return parse_config(text, source=str(path), path=path)


def parse_config(text: str, *, source: str = "<config>", path: Path | None = None) -> Config:
    """Parse and check configuration text. Raises :class:`ConfigError`."""
    import tomllib  # only with a file: a desktop without one starts without it

    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError([f"{source}: invalid TOML: {error}"]) from None
    checker = Checker(text, source)
    config = checker.config(document, path)
    if checker.problems:
        raise ConfigError(checker.problems)
    assert config is not None
    return config


def _option_lines() -> str:
    """The ``[game]`` options of the default file: each one's sentence, then its default
    (hand memory is said by ``hints``, its third value)."""
    lines = [_HINTS_LINES.format(default=DEFAULT_HINT_LEVEL.value)]
    for name, value in GameOptions().to_dict(defaults=True).items():
        if name == "hand_memory":
            continue
        lines.append(f"# {GameOptions.doc(name)}")
        lines.append(
            f'{name} = "{value}"' if isinstance(value, str) else f"{name} = {str(value).lower()}"
        )
    return "\n".join(lines) + "\n"


_HINTS_LINES = """\
# What the table records of a hint: "count" (that one was given: one press),
# "content" (its colour or rank too: two presses) or "slots" (hand memory: the
# receiver, the clue and the cards it touched, remembered by slot; new cards left).
hints = "{default}"\
"""

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
