"""What can be wired, as plain values: pins, pin factories, scanner protocols.

The configuration names these without importing a device library (gpiozero,
pyserial), so the companion starts faster and the config can be checked on
any machine.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal, get_args

from msgspec import Struct

from engine.errors import CompanionError

BCM_PINS = range(28)
"""The BCM GPIO numbers on the 40-pin header of every Pi since the B+."""

HINT_TOKENS = 8
"""Hint tokens in the box: one LED of the bar each."""

FUSE_TOKENS = 3
"""Fuse tokens in the box: one fuse LED each."""

PIN_FACTORY_NAMES = ("auto", "lgpio", "mock", "none")
"""The values accepted by :func:`make_pin_factory` and ``[gpio] pin_factory``."""


class HardwareError(CompanionError):
    """A device cannot be used as configured; catch a leaf for what you mean."""


class WiringError(HardwareError, ValueError):
    """A pin, a value or a name given to the hardware layer is not valid."""


class NoGpioError(HardwareError, RuntimeError):
    """No usable GPIO on this machine (no chip, no pin library, pins busy)."""


class PanelPins(Struct, frozen=True):
    """BCM pin numbers of the panel. ``None`` (or an empty tuple) means "not fitted".

    The defaults keep clear of the UART (14, 15: the card scanner), I2C (2, 3)
    and SPI (7-11, often a small display).

    >>> PanelPins().hint
    5
    >>> PanelPins(hint=99)
    Traceback (most recent call last):
    ...
    hardware.wiring.WiringError: hint: 99 is not a BCM pin (0-27)
    """

    hint: int = 5
    play: int = 6
    discard: int = 13
    undo: int = 19
    next: int = 26
    ok: int = 21
    encoder_a: int | None = None
    encoder_b: int | None = None
    encoder_push: int | None = None
    led_bar: tuple[int, ...] = ()
    fuse_leds: tuple[int, ...] = ()
    buzzer: int | None = None

    def __post_init__(self) -> None:
        for name, pin in self.named_pins():
            if isinstance(pin, bool) or not isinstance(pin, int) or pin not in BCM_PINS:
                raise WiringError(f"{name}: {pin!r} is not a BCM pin (0-27)")
        if (self.encoder_a is None) != (self.encoder_b is None):
            raise WiringError("encoder_a and encoder_b: give both encoder pins or neither")
        if self.led_bar and len(self.led_bar) != HINT_TOKENS:
            raise WiringError(
                f"led_bar: needs {HINT_TOKENS} pins (one per hint token), got {len(self.led_bar)}"
            )
        if self.fuse_leds and len(self.fuse_leds) != FUSE_TOKENS:
            raise WiringError(
                f"fuse_leds: needs {FUSE_TOKENS} pins (one per fuse token), "
                f"got {len(self.fuse_leds)}"
            )
        seen: dict[int, str] = {}
        for name, pin in self.named_pins():
            if pin in seen:
                raise WiringError(f"{name}: pin {pin} is already used by {seen[pin]}")
            seen[pin] = name

    def named_pins(self) -> Iterator[tuple[str, int]]:
        """Every fitted pin with its role, e.g. ``("hint", 5)``, ``("led_bar[0]", 12)``."""
        for name in ("hint", "play", "discard", "undo", "next", "ok"):
            yield name, getattr(self, name)
        for name in ("encoder_a", "encoder_b", "encoder_push", "buzzer"):
            pin = getattr(self, name)
            if pin is not None:
                yield name, pin
        for index, pin in enumerate(self.led_bar):
            yield f"led_bar[{index}]", pin
        for index, pin in enumerate(self.fuse_leds):
            yield f"fuse_leds[{index}]", pin


BeepKind = Literal["misplay", "refused"]
"""What a beep of the buzzer says: a misplay (a fuse burnt) or a refused action."""

ScannerProtocol = Literal["rdm6300", "line", "keyboard"]
"""``rdm6300``: 125 kHz RFID frames and ``line``: one tag or card code per line, both on a
serial port; ``keyboard``: a USB reader that types the tag (an input device, evdev)."""
PROTOCOLS: tuple[str, ...] = get_args(ScannerProtocol)

SERIAL_PROTOCOLS: tuple[str, ...] = ("rdm6300", "line")
"""The protocols read from a serial port (``port =``); the others are input devices."""

ReaderRole = Literal["any", "play", "discard"]
"""What a card read on a reader means: ``any``, the players then say PLAY or DISCARD;
``play``, the card was played (a pad under the fireworks); ``discard``, it was discarded."""
READER_ROLES: tuple[str, ...] = get_args(ReaderRole)
