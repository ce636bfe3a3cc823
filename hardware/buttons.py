"""The GPIO button panel: buttons, rotary encoder, token LEDs and buzzer.

The panel turns contacts into :class:`~hardware.events.Press` events and
knows no rule. Every button is wired between a GPIO pin and GND; the pins use
the Pi's internal pull-ups, so a pressed button reads low.

What each control sends:

* HINT, PLAY, DISCARD, NEXT: ``Press(HINT)`` ... as soon as pressed;
* UNDO: ``Press(UNDO)`` on release, or ``Press(BACK)`` once held ``long_press`` s;
* OK and the encoder's push: ``Press(OK)`` on release, or ``Press(MENU)`` once held;
* encoder turned clockwise: ``Press(NEXT)``; counter-clockwise: ``Press(PREVIOUS)``.

Buttons with a long-press meaning decide their key on release (short) or as
soon as the hold time elapses (long; the release is then silent). The others
send their key on press, which feels quicker.

Callbacks run on gpiozero's threads; they only call ``emit(event)`` (which
must be thread-safe) and update the small debouncing state of their own
button, under a lock.

>>> from gpiozero.pins.mock import MockFactory
>>> factory = MockFactory()
>>> events = []
>>> panel = ButtonPanel(PanelPins(), events.append, pin_factory=factory)
>>> pin = factory.pin(5)
>>> pin.drive_low(); pin.drive_high()
>>> events
[Press(key=<Key.HINT: 'hint'>)]
>>> panel.close()
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from gpiozero import Button, Buzzer, LEDBarGraph, LEDBoard, RotaryEncoder
from gpiozero.exc import GPIOZeroError
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory
from msgspec import Struct

from hardware.events import Emit, Key, Press
from hardware.wiring import (
    FUSE_TOKENS,
    HINT_TOKENS,
    PIN_FACTORY_NAMES,
    BeepKind,
    HardwareError,
    NoGpioError,
    PanelPins,
    WiringError,
)

__all__ = [
    "BEEP_PATTERNS",
    "FUSE_TOKENS",
    "HINT_TOKENS",
    "PIN_FACTORY_NAMES",
    "BeepPattern",
    "ButtonPanel",
    "HardwareError",
    "NoGpioError",
    "PanelPins",
    "WiringError",
    "make_pin_factory",
    "open_panel",
]


class BeepPattern(Struct, frozen=True):
    """A buzzer pattern: ``count`` beeps of ``on_time`` seconds, ``off_time`` apart."""

    on_time: float
    off_time: float
    count: int


BEEP_PATTERNS: dict[str, BeepPattern] = {
    # A fuse burns: three long, unmistakable beeps.
    "misplay": BeepPattern(on_time=0.25, off_time=0.15, count=3),
    # An action the rules refuse (no hint token left...): one short blip.
    "refused": BeepPattern(on_time=0.08, off_time=0.05, count=1),
}


def make_pin_factory(name: str) -> Factory | None:
    """The gpiozero pin factory called ``name`` (see :data:`PIN_FACTORY_NAMES`).

    ``"auto"`` returns None: gpiozero picks (lgpio on a Pi), when the first
    device is built. ``"mock"`` gives a fresh :class:`MockFactory` (a panel
    nobody can press, handy on a desktop). ``"lgpio"`` opens the first GPIO
    chip explicitly. ``"none"`` is not a factory: it means "build no panel";
    use :func:`open_panel`, which returns None for it, or check it yourself.

    >>> make_pin_factory("auto") is None
    True
    >>> make_pin_factory("tin-can")
    Traceback (most recent call last):
    ...
    hardware.wiring.WiringError: pin factory 'tin-can' is not one of auto, lgpio, mock, none
    """
    if name == "auto":
        return None
    if name == "mock":
        return MockFactory()
    if name == "lgpio":
        try:
            from gpiozero.pins.lgpio import LGPIOFactory

            return LGPIOFactory()
        except (ImportError, OSError, GPIOZeroError) as error:
            raise NoGpioError(
                f"pin factory 'lgpio' is not usable here ({error}); on Raspberry Pi OS run "
                "`sudo apt install python3-lgpio` and `sudo systemd/install.sh` again, "
                'elsewhere set [gpio] pin_factory = "none"'
            ) from error
    if name == "none":
        raise WiringError("pin factory 'none' means no GPIO: build no panel")
    raise WiringError(f"pin factory {name!r} is not one of {', '.join(PIN_FACTORY_NAMES)}")


class _PanelButton:
    """One push button: debouncing, and the short/long decision.

    ``short`` is sent on press when ``long`` is None, else on release; ``long``
    is sent once when the button has been held ``long_press`` seconds.
    """

    def __init__(
        self,
        pin: int,
        emit: Emit,
        *,
        short: Key,
        long: Key | None,
        debounce: float,
        long_press: float,
        pin_factory: Factory | None,
    ) -> None:
        self._emit = emit
        self._short = short
        self._long = long
        self._debounce = debounce
        self._lock = threading.Lock()
        self._down = False  # a press was accepted and not yet released
        self._held = False  # the long key was sent for the current press
        self._last_edge = -float("inf")
        self.button = Button(
            pin,
            pull_up=True,
            # Real pin drivers (lgpio) debounce in the kernel too; MockPin ignores it.
            bounce_time=debounce or None,
            hold_time=long_press,
            pin_factory=pin_factory,
        )
        self.button.when_pressed = self._pressed
        self.button.when_released = self._released
        if long is not None:
            self.button.when_held = self._held_long

    def _pressed(self) -> None:
        now = time.monotonic()
        with self._lock:
            bouncing = now - self._last_edge < self._debounce
            self._last_edge = now
            if bouncing or self._down:
                return
            self._down = True
            self._held = False
        if self._long is None:
            self._emit(Press(self._short))

    def _released(self) -> None:
        now = time.monotonic()
        with self._lock:
            self._last_edge = now
            if not self._down:
                return  # the end of a press ignored as bounce
            self._down = False
            send_short = self._long is not None and not self._held
        if send_short:
            self._emit(Press(self._short))

    def _held_long(self) -> None:
        assert self._long is not None
        with self._lock:
            if not self._down or self._held:
                return
            self._held = True
        self._emit(Press(self._long))

    def close(self) -> None:
        self.button.close()


class ButtonPanel:
    """The table's button panel, encoder, LEDs and buzzer, sending events to ``emit``.

    ``pin_factory`` None lets gpiozero choose (see :func:`make_pin_factory`);
    tests pass ``MockFactory()``. ``debounce``: a press within that many
    seconds of the previous edge of the same button is contact bounce and is
    ignored. ``long_press``: seconds a button with a long meaning (UNDO, OK)
    must be held to send BACK or MENU instead.

    Raises :class:`NoGpioError` when GPIO is not usable (no pin factory on
    this machine, pin in use); nothing stays half-open then.
    """

    def __init__(
        self,
        pins: PanelPins,
        emit: Emit,
        *,
        pin_factory: Factory | None = None,
        debounce: float = 0.05,
        long_press: float = 0.8,
    ) -> None:
        if not 0 <= debounce < long_press:
            raise WiringError(
                f"debounce ({debounce} s) must be >= 0 and shorter than long_press ({long_press} s)"
            )
        self.pins = pins
        self._emit = emit
        self._buttons: list[_PanelButton] = []
        self._encoder: RotaryEncoder | None = None
        self._led_bar: LEDBarGraph | None = None
        self._fuse_leds: LEDBoard | None = None
        self._buzzer: Buzzer | None = None
        try:
            self._build(pins, pin_factory, debounce, long_press)
        except GPIOZeroError as error:
            self.close()
            raise NoGpioError(_explain_gpio_error(error)) from error
        except BaseException:
            self.close()
            raise

    def _build(
        self, pins: PanelPins, factory: Factory | None, debounce: float, long_press: float
    ) -> None:
        layout: list[tuple[int | None, Key, Key | None]] = [
            (pins.hint, Key.HINT, None),
            (pins.play, Key.PLAY, None),
            (pins.discard, Key.DISCARD, None),
            (pins.undo, Key.UNDO, Key.BACK),
            (pins.next, Key.NEXT, None),
            (pins.ok, Key.OK, Key.MENU),
            (pins.encoder_push, Key.OK, Key.MENU),
        ]
        for pin, short, long in layout:
            if pin is None:
                continue
            self._buttons.append(
                _PanelButton(
                    pin,
                    self._emit,
                    short=short,
                    long=long,
                    debounce=debounce,
                    long_press=long_press,
                    pin_factory=factory,
                )
            )
        if pins.encoder_a is not None and pins.encoder_b is not None:
            self._encoder = RotaryEncoder(
                pins.encoder_a, pins.encoder_b, max_steps=0, pin_factory=factory
            )
            self._encoder.when_rotated_clockwise = self._turned_clockwise
            self._encoder.when_rotated_counter_clockwise = self._turned_counter_clockwise
        if pins.led_bar:
            self._led_bar = LEDBarGraph(*pins.led_bar, pwm=False, pin_factory=factory)
        if pins.fuse_leds:
            self._fuse_leds = LEDBoard(*pins.fuse_leds, pwm=False, pin_factory=factory)
        if pins.buzzer is not None:
            self._buzzer = Buzzer(pins.buzzer, pin_factory=factory)

    def _turned_clockwise(self) -> None:
        self._emit(Press(Key.NEXT))

    def _turned_counter_clockwise(self) -> None:
        self._emit(Press(Key.PREVIOUS))

    def show_tokens(self, hints: int, fuses: int) -> None:
        """Light ``hints`` LEDs of the bar (0-8) and ``fuses`` fuse LEDs (burnt fuses, 0-3).

        Does nothing for LEDs that are not fitted; the values are checked anyway.
        """
        if not 0 <= hints <= HINT_TOKENS:
            raise WiringError(f"hints: {hints} is not 0-{HINT_TOKENS}")
        if not 0 <= fuses <= FUSE_TOKENS:
            raise WiringError(f"fuses: {fuses} is not 0-{FUSE_TOKENS}")
        if self._led_bar is not None:
            for index, led in enumerate(self._led_bar):
                led.value = index < hints
        if self._fuse_leds is not None:
            for index, led in enumerate(self._fuse_leds):
                led.value = index < fuses

    def beep(self, kind: BeepKind) -> None:
        """Sound a pattern of :data:`BEEP_PATTERNS` in the background (no buzzer: nothing)."""
        try:
            pattern = BEEP_PATTERNS[kind]
        except KeyError:
            raise WiringError(
                f"beep: {kind!r} is not one of {', '.join(sorted(BEEP_PATTERNS))}"
            ) from None
        if self._buzzer is not None:
            self._buzzer.beep(pattern.on_time, pattern.off_time, pattern.count, background=True)

    def close(self) -> None:
        """Release every pin (safe to call twice). LEDs and buzzer go off."""
        # Each gpiozero Button's hold thread takes up to 0.1 s to notice it must
        # stop: close them side by side rather than one after the other.
        closers = [threading.Thread(target=button.close) for button in self._buttons]
        for closer in closers:
            closer.start()
        for closer in closers:
            closer.join()
        self._buttons = []
        for device in (self._encoder, self._led_bar, self._fuse_leds, self._buzzer):
            if device is not None:
                device.close()
        self._encoder = self._led_bar = self._fuse_leds = self._buzzer = None

    def __enter__(self) -> ButtonPanel:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def open_panel(
    pins: PanelPins,
    emit: Emit,
    *,
    pin_factory: str = "auto",
    debounce: float = 0.05,
    long_press: float = 0.8,
) -> ButtonPanel | None:
    """Build the panel from a ``[gpio] pin_factory`` name; None for ``"none"``.

    Raises :class:`NoGpioError` when GPIO is wanted but not usable (e.g.
    ``"auto"`` on a desktop without a GPIO chip): the app reports it and runs
    without the panel, or the user sets ``pin_factory = "none"``.
    """
    if pin_factory == "none":
        return None
    factory = make_pin_factory(pin_factory)
    return ButtonPanel(pins, emit, pin_factory=factory, debounce=debounce, long_press=long_press)


def _explain_gpio_error(error: GPIOZeroError, *, dev: Path = Path("/dev")) -> str:
    """A message for the user from a gpiozero error raised while building the panel.

    A machine with GPIO chips (a Pi) lacks the pin library; one without has no
    GPIO at all (a desktop).

    >>> from gpiozero import BadPinFactory
    >>> _explain_gpio_error(BadPinFactory("Unable to load any default pin factory!"),
    ...                     dev=Path("/nonexistent"))[:23]
    'no GPIO on this machine'
    """
    text = str(error)
    if "pin factory" in text.lower():
        if any(dev.glob("gpiochip*")):
            return (
                f"GPIO buttons need the lgpio library, which is not installed ({text}): "
                "on Raspberry Pi OS run `sudo apt install python3-lgpio`, then "
                "`sudo systemd/install.sh` again"
            )
        return (
            f"no GPIO on this machine ({text}); on a desktop set [gpio] pin_factory = "
            '"none" (no panel) or "mock"'
        )
    return f"GPIO panel: {text}"
