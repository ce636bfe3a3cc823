"""The devices of a run, opened and closed in one place (companion/shell/devices.py).

Wired like a table: a gpiozero ``MockFactory`` for the button panel, a real
pseudo-terminal for the serial scanner, a real tag map file.
"""

from __future__ import annotations

import importlib.util
import os
import time
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.shell.config import Config, GpioConfig, ScannerConfig
from companion.shell.devices import DeviceOptions, open_devices
from engine.cards import Card
from hardware.events import CardScanned, DeviceStatus, Key, Press
from hardware.scanner import CardScanner
from hardware.tagmap import TagMap

HINT_PIN = GpioConfig().pins.hint


def wait_for(events: list[object], wanted: object, timeout: float = 5.0) -> None:
    """Wait until ``wanted`` has been sent (the devices' threads send it)."""
    deadline = time.monotonic() + timeout
    while wanted not in events and time.monotonic() < deadline:
        time.sleep(0.01)
    assert wanted in events, f"{wanted} was not sent: {events}"


def presses(events: list[object]) -> list[object]:
    return [event for event in events if isinstance(event, Press)]


@pytest.fixture
def tag_map_file(tmp_path: Path) -> Path:
    path = tmp_path / "tags.json"
    TagMap().save(path)
    return path


def scanner_config(port: str, tag_map: Path) -> ScannerConfig:
    return ScannerConfig(port=port, protocol="line", tag_map=tag_map)


def test_a_desktop_without_a_gpio_chip_opens_no_panel_and_says_nothing(tmp_path):
    config = Config(gpio=GpioConfig(pin_factory="auto"))
    with open_devices(config, print, DeviceOptions(dev=tmp_path)) as devices:
        assert devices.panel is None and devices.readers == [] and devices.notices == []


def test_the_panel_and_the_scanner_send_their_events_and_close_at_the_end(pty_port, tag_map_file):
    master, port = pty_port
    events: list[object] = []
    factory = MockFactory()
    config = Config(scanners=(scanner_config(port, tag_map_file),))
    with open_devices(config, events.append, DeviceOptions(gpio_factory=factory)) as devices:
        assert devices.notices == []
        (scanner,) = devices.readers
        assert isinstance(scanner, CardScanner) and scanner.running
        factory.pin(HINT_PIN).drive_low()
        os.write(master, b"R3\n")
        wait_for(events, Press(Key.HINT))
        wait_for(events, CardScanned("R3", Card.from_code("R3")))
    assert not scanner.running  # closed with the block
    factory.pin(HINT_PIN).drive_high()
    factory.pin(HINT_PIN).drive_low()  # the panel is closed: nothing is sent any more
    time.sleep(0.1)
    assert presses(events) == [Press(Key.HINT)]


def test_a_reader_that_cannot_be_opened_is_one_notice_and_the_panel_still_works(tmp_path):
    events: list[object] = []
    factory = MockFactory()
    damaged = tmp_path / "tags.json"
    damaged.write_text("{not json")
    config = Config(scanners=(scanner_config("/dev/null", damaged),))
    with open_devices(config, events.append, DeviceOptions(gpio_factory=factory)) as devices:
        assert devices.readers == []
        (notice,) = devices.notices
        assert notice.startswith(f"scanner: {damaged}: not a tag map (invalid JSON")
        factory.pin(HINT_PIN).drive_low()
        wait_for(events, Press(Key.HINT))
        assert presses(events) == [Press(Key.HINT)]


@pytest.mark.skipif(importlib.util.find_spec("lgpio") is not None, reason="lgpio is installed")
def test_gpio_that_cannot_be_used_is_one_notice_and_the_scanner_still_reads(pty_port, tag_map_file):
    master, port = pty_port
    events: list[object] = []
    config = Config(scanners=(scanner_config(port, tag_map_file),))
    with open_devices(config, events.append, DeviceOptions(pin_factory="lgpio")) as devices:
        assert devices.panel is None
        (notice,) = devices.notices
        assert notice.startswith("GPIO: pin factory 'lgpio' is not usable here")
        os.write(master, b"B1\n")
        wait_for(events, CardScanned("B1", Card.from_code("B1")))


def test_devices_are_closed_when_the_block_raises(pty_port, tag_map_file):
    _, port = pty_port
    config = Config(
        gpio=GpioConfig(pin_factory="none"), scanners=(scanner_config(port, tag_map_file),)
    )
    with (
        pytest.raises(RuntimeError, match="the app crashed"),
        open_devices(config, print) as devices,
    ):
        (scanner,) = devices.readers
        raise RuntimeError("the app crashed")
    assert not scanner.running


# -- several readers with roles (issue 11) ------------------------------------------


@pytest.fixture
def second_pty() -> Iterator[tuple[int, str]]:
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        yield master, os.ttyname(slave)
    finally:
        os.close(master)
        os.close(slave)


def test_every_configured_reader_is_opened_and_reads_with_its_role(
    pty_port, second_pty, tag_map_file
):
    """A play pad and a discard pad: each read carries the role of the reader it came from."""
    (play_master, play_port), (discard_master, discard_port) = pty_port, second_pty
    events: list[object] = []
    config = Config(
        gpio=GpioConfig(pin_factory="none"),
        scanners=(
            ScannerConfig(port=play_port, protocol="line", tag_map=tag_map_file, role="play"),
            ScannerConfig(port=discard_port, protocol="line", tag_map=tag_map_file, role="discard"),
        ),
    )
    with open_devices(config, events.append) as devices:
        assert len(devices.readers) == 2 and devices.notices == []
        wait_for(events, DeviceStatus("scanner play", True, "scanner play connected"))
        wait_for(events, DeviceStatus("scanner discard", True, "scanner discard connected"))
        os.write(play_master, b"R1\n")
        os.write(discard_master, b"B2\n")
        wait_for(events, CardScanned("R1", Card.from_code("R1"), "play"))
        wait_for(events, CardScanned("B2", Card.from_code("B2"), "discard"))


def test_a_keyboard_reader_on_something_not_an_input_device_is_one_notice(pty_port, tag_map_file):
    """The other readers still open; the notice names the reader and says why, in one line."""
    _, port = pty_port
    config = Config(
        gpio=GpioConfig(pin_factory="none"),
        scanners=(
            ScannerConfig(port=port, protocol="line", tag_map=tag_map_file, role="play"),
            ScannerConfig(
                device="/dev/null", protocol="keyboard", tag_map=tag_map_file, role="discard"
            ),
        ),
    )
    with open_devices(config, [].append) as devices:
        assert len(devices.readers) == 1
        assert devices.notices == [
            "scanner discard: /dev/null is not an input device "
            "(a keyboard reader is /dev/input/by-id/usb-...-event-kbd)"
        ]
