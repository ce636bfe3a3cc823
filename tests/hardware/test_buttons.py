"""The GPIO button panel, driven through gpiozero's MockFactory like a wiring script.

Every test builds its own ``MockFactory`` and passes it to the panel: the
process-wide ``Device.pin_factory`` is never set.
"""

from __future__ import annotations

import importlib.util
import time

import pytest
from gpiozero import Button, Device
from gpiozero.pins.mock import MockFactory

from hardware.buttons import (
    BEEP_PATTERNS,
    ButtonPanel,
    HardwareError,
    PanelPins,
    make_pin_factory,
    open_panel,
)
from hardware.events import Key, Press

HINT, PLAY, DISCARD, UNDO, NEXT, OK = 5, 6, 13, 19, 26, 21
ENCODER_A, ENCODER_B, ENCODER_PUSH = 17, 27, 22
LED_BAR = (4, 12, 16, 18, 20, 23, 24, 25)
FUSE_LEDS = (9, 10, 11)
BUZZER = 7

FULL_PANEL = PanelPins(
    encoder_a=ENCODER_A,
    encoder_b=ENCODER_B,
    encoder_push=ENCODER_PUSH,
    led_bar=LED_BAR,
    fuse_leds=FUSE_LEDS,
    buzzer=BUZZER,
)


def wait_until(condition, timeout: float = 5.0) -> bool:
    """Poll ``condition`` until true or the (generous) deadline passes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


@pytest.fixture
def factory():
    return MockFactory()


@pytest.fixture
def events():
    return []


@pytest.fixture
def panel(factory, events):
    # long_press far above any pause a test makes: a press here is always short.
    panel = ButtonPanel(FULL_PANEL, events.append, pin_factory=factory, long_press=5.0)
    yield panel
    panel.close()


def tap(pin) -> None:
    pin.drive_low()
    pin.drive_high()


@pytest.mark.parametrize(
    ("pin", "key"),
    [
        (HINT, Key.HINT),
        (PLAY, Key.PLAY),
        (DISCARD, Key.DISCARD),
        (UNDO, Key.UNDO),
        (NEXT, Key.NEXT),
        (OK, Key.OK),
        (ENCODER_PUSH, Key.OK),
    ],
)
def test_short_press_sends_the_buttons_key(factory, events, panel, pin, key):
    tap(factory.pin(pin))
    assert events == [Press(key)]


def test_a_hint_is_one_press(factory, events, panel):
    """The issue's flow count: with buttons only, a hint takes one press."""
    tap(factory.pin(HINT))
    assert events == [Press(Key.HINT)]


def test_buttons_without_a_long_meaning_send_on_press(factory, events, panel):
    factory.pin(PLAY).drive_low()
    assert events == [Press(Key.PLAY)]
    factory.pin(PLAY).drive_high()
    assert events == [Press(Key.PLAY)]


def test_undo_and_ok_wait_for_the_release_to_decide(factory, events, panel):
    factory.pin(UNDO).drive_low()
    factory.pin(OK).drive_low()
    assert events == []
    factory.pin(UNDO).drive_high()
    factory.pin(OK).drive_high()
    assert events == [Press(Key.UNDO), Press(Key.OK)]


def test_buttons_use_internal_pull_ups(factory, panel):
    assert factory.pin(HINT).pull == "up"
    assert factory.pin(OK).pull == "up"


@pytest.mark.parametrize(
    ("pin", "long_key"), [(UNDO, Key.BACK), (OK, Key.MENU), (ENCODER_PUSH, Key.MENU)]
)
def test_long_press_sends_the_long_key_instead(factory, events, pin, long_key):
    pins = PanelPins(encoder_a=ENCODER_A, encoder_b=ENCODER_B, encoder_push=ENCODER_PUSH)
    with ButtonPanel(
        pins, events.append, pin_factory=factory, debounce=0.01, long_press=0.1
    ) as panel:
        assert panel is not None
        factory.pin(pin).drive_low()
        assert wait_until(lambda: events), "the hold never fired"
        assert events == [Press(long_key)]
        factory.pin(pin).drive_high()
        assert events == [Press(long_key)], "the release after a long press must stay silent"


def test_long_press_on_hint_is_just_a_hint(factory, events):
    with ButtonPanel(PanelPins(), events.append, pin_factory=factory, long_press=0.1):
        factory.pin(HINT).drive_low()
        time.sleep(0.3)  # well past the hold time
        factory.pin(HINT).drive_high()
    assert events == [Press(Key.HINT)]


def test_bouncing_contact_gives_exactly_one_event(factory, events):
    # A debounce window far longer than the script takes: every edge below is bounce.
    with ButtonPanel(PanelPins(), events.append, pin_factory=factory, debounce=1.0, long_press=5.0):
        hint = factory.pin(HINT)
        hint.drive_low()
        hint.drive_high()
        hint.drive_low()
        hint.drive_high()
        hint.drive_low()
        hint.drive_high()
    assert events == [Press(Key.HINT)]


def test_bouncing_undo_gives_exactly_one_undo(factory, events):
    with ButtonPanel(PanelPins(), events.append, pin_factory=factory, debounce=1.0, long_press=5.0):
        undo = factory.pin(UNDO)
        for _ in range(3):
            undo.drive_low()
            undo.drive_high()
    assert events == [Press(Key.UNDO)]


def test_presses_further_apart_than_debounce_all_count(factory, events):
    with ButtonPanel(
        PanelPins(), events.append, pin_factory=factory, debounce=0.05, long_press=5.0
    ):
        hint = factory.pin(HINT)
        for _ in range(3):
            tap(hint)
            time.sleep(0.1)  # > debounce: a new press, not bounce
    assert events == [Press(Key.HINT)] * 3


def turn_clockwise(factory) -> None:
    """One detent clockwise: A falls, B falls, A rises, B rises."""
    a, b = factory.pin(ENCODER_A), factory.pin(ENCODER_B)
    a.drive_low()
    b.drive_low()
    a.drive_high()
    b.drive_high()


def turn_counter_clockwise(factory) -> None:
    """One detent counter-clockwise: B leads A."""
    a, b = factory.pin(ENCODER_A), factory.pin(ENCODER_B)
    b.drive_low()
    a.drive_low()
    b.drive_high()
    a.drive_high()


def test_encoder_clockwise_is_next_and_back_is_previous(factory, events, panel):
    turn_clockwise(factory)
    turn_clockwise(factory)
    turn_counter_clockwise(factory)
    assert events == [Press(Key.NEXT), Press(Key.NEXT), Press(Key.PREVIOUS)]


def test_encoder_keeps_counting_past_gpiozeros_step_limit(factory, events, panel):
    for _ in range(40):
        turn_clockwise(factory)
    assert events == [Press(Key.NEXT)] * 40


def test_encoder_half_turn_and_back_sends_nothing(factory, events, panel):
    a = factory.pin(ENCODER_A)
    a.drive_low()
    a.drive_high()
    assert events == []


def test_card_entry_keys_exist_for_six_press_plays(factory, events, panel):
    """PLAY, pick with NEXT/PREVIOUS, confirm with OK: every key the card-entry screen needs."""
    tap(factory.pin(PLAY))
    tap(factory.pin(NEXT))
    turn_counter_clockwise(factory)
    tap(factory.pin(OK))
    assert events == [Press(Key.PLAY), Press(Key.NEXT), Press(Key.PREVIOUS), Press(Key.OK)]


def lit(factory, pins) -> list[bool]:
    return [bool(factory.pin(pin).state) for pin in pins]


def test_show_tokens_lights_hint_bar_and_fuse_leds(factory, panel):
    panel.show_tokens(hints=3, fuses=1)
    assert lit(factory, LED_BAR) == [True] * 3 + [False] * 5
    assert lit(factory, FUSE_LEDS) == [True, False, False]
    panel.show_tokens(hints=8, fuses=3)
    assert lit(factory, LED_BAR) == [True] * 8
    assert lit(factory, FUSE_LEDS) == [True] * 3
    panel.show_tokens(hints=0, fuses=0)
    assert lit(factory, LED_BAR + FUSE_LEDS) == [False] * 11


@pytest.mark.parametrize(("hints", "fuses"), [(9, 0), (-1, 0), (0, 4), (0, -1)])
def test_show_tokens_refuses_impossible_counts(panel, hints, fuses):
    with pytest.raises(HardwareError, match=r"hints|fuses"):
        panel.show_tokens(hints, fuses)


def test_show_tokens_without_leds_is_allowed(factory):
    with ButtonPanel(PanelPins(), [].append, pin_factory=factory) as panel:
        panel.show_tokens(5, 2)  # nothing fitted: nothing to light, no error
        assert 12 not in [pin.number for pin in factory.pins]


@pytest.mark.parametrize("kind", ["misplay", "refused"])
def test_beep_sounds_its_pattern_in_the_background(factory, panel, kind):
    buzzer = factory.pin(BUZZER)
    buzzer.clear_states()
    panel.beep(kind)
    expected = BEEP_PATTERNS[kind].count

    def finished() -> bool:
        ons = sum(1 for change in buzzer.states if change.state)
        return ons == expected and not buzzer.state

    assert wait_until(finished), buzzer.states
    assert sum(1 for change in buzzer.states if change.state) == expected


def test_misplay_and_refused_sound_different():
    assert BEEP_PATTERNS["misplay"] != BEEP_PATTERNS["refused"]


def test_unknown_beep_kind_is_an_error(panel):
    with pytest.raises(HardwareError, match="'fanfare' is not one of misplay, refused"):
        panel.beep("fanfare")  # type: ignore[arg-type]


def test_close_releases_every_pin(factory, events, panel):
    panel.close()
    panel.close()  # twice is fine
    again = Button(HINT, pin_factory=factory)  # the pin is free again
    again.close()
    tap(factory.pin(HINT))
    assert events == []


def test_pin_in_use_is_a_clear_error_and_nothing_stays_half_open(factory):
    with ButtonPanel(PanelPins(), [].append, pin_factory=factory):
        clashing = PanelPins(hint=20, play=16, discard=12, undo=23, next=24, ok=HINT)
        with pytest.raises(HardwareError, match="GPIO panel"):
            ButtonPanel(clashing, [].append, pin_factory=factory)
        # The pins the failed panel had taken before the clash are free again.
        Button(20, pin_factory=factory).close()


def test_debounce_must_be_shorter_than_long_press(factory):
    with pytest.raises(HardwareError, match="debounce"):
        ButtonPanel(PanelPins(), [].append, pin_factory=factory, debounce=1.0, long_press=0.5)


@pytest.mark.parametrize(
    ("pins", "message"),
    [
        ({"hint": 99}, "hint: 99 is not a BCM pin"),
        ({"play": True}, "play: True is not a BCM pin"),
        ({"ok": 5}, "ok: pin 5 is already used by hint"),
        ({"encoder_a": 17}, "encoder_a and encoder_b"),
        ({"led_bar": (1, 2, 3)}, "led_bar: needs 8 pins"),
        ({"fuse_leds": (16, 20)}, "fuse_leds: needs 3 pins"),
        ({"buzzer": 6}, "buzzer: pin 6 is already used by play"),
    ],
)
def test_panel_pins_are_checked(pins, message):
    with pytest.raises(HardwareError, match=message):
        PanelPins(**pins)


def test_default_pins_avoid_uart_i2c_and_spi():
    used = {pin for _, pin in PanelPins().named_pins()}
    assert used.isdisjoint({2, 3, 7, 8, 9, 10, 11, 14, 15})


def test_make_pin_factory_auto_lets_gpiozero_choose():
    assert make_pin_factory("auto") is None


def test_make_pin_factory_mock_gives_a_fresh_mock_factory():
    first, second = make_pin_factory("mock"), make_pin_factory("mock")
    assert isinstance(first, MockFactory)
    assert first is not second


@pytest.mark.parametrize("name", ["none", "rpigpio", ""])
def test_make_pin_factory_refuses_what_is_not_a_factory(name):
    with pytest.raises(HardwareError, match="pin factory"):
        make_pin_factory(name)


@pytest.mark.skipif(importlib.util.find_spec("lgpio") is not None, reason="lgpio is installed here")
def test_lgpio_without_lgpio_is_a_clear_error():
    with pytest.raises(HardwareError, match="'lgpio' is not usable here"):
        make_pin_factory("lgpio")


def test_open_panel_none_builds_no_panel():
    assert open_panel(PanelPins(), [].append, pin_factory="none") is None


def test_open_panel_mock_builds_a_panel():
    panel = open_panel(PanelPins(), [].append, pin_factory="mock")
    assert isinstance(panel, ButtonPanel)
    panel.close()


def test_auto_without_gpio_is_a_clear_hardware_error(monkeypatch):
    """What a desktop sees with pin_factory = "auto": gpiozero finds no factory."""
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    monkeypatch.setattr(Device, "pin_factory", None)
    with pytest.raises(HardwareError, match=r'no GPIO on this machine.*pin_factory = "none"'):
        open_panel(PanelPins(), [].append, pin_factory="auto")
    assert Device.pin_factory is None


def test_a_pi_without_lgpio_is_told_what_to_install(tmp_path):
    """A Pi (GPIO chips present) where gpiozero finds no pin library: name the package."""
    from gpiozero import BadPinFactory

    from hardware.buttons import _explain_gpio_error

    (tmp_path / "gpiochip0").touch()
    message = _explain_gpio_error(
        BadPinFactory("Unable to load any default pin factory!"), dev=tmp_path
    )
    assert "sudo apt install python3-lgpio" in message
    assert "desktop" not in message
