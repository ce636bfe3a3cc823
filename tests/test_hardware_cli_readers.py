"""``scanner`` and ``enrol`` with several readers and keyboard readers (issue 11).

Real subprocesses reading real pseudo-terminals, as tests/test_hardware_cli.py.
"""

from __future__ import annotations

import json
import os
import signal
import tty
from collections.abc import Iterator

import pytest
from test_hardware_cli import Command

from engine.cards import Card
from hardware.scanner import rdm6300_frame
from hardware.tagmap import TagMap

NOT_AN_INPUT_DEVICE = (
    "/dev/null is not an input device (a keyboard reader is /dev/input/by-id/usb-...-event-kbd)"
)


@pytest.fixture
def run() -> Iterator:
    commands: list[Command] = []

    def start(*args: str) -> Command:
        command = Command(*args)
        commands.append(command)
        return command

    yield start
    for command in commands:
        command.close()


@pytest.fixture
def ptys() -> Iterator[list[tuple[int, str]]]:
    made: list[tuple[int, int]] = []
    for _ in range(2):
        master, slave = os.openpty()
        tty.setraw(slave)
        made.append((master, slave))
    try:
        yield [(master, os.ttyname(slave)) for master, slave in made]
    finally:
        for master, slave in made:
            os.close(master)
            os.close(slave)


def test_scanner_checks_every_configured_reader_and_says_which_read_what(ptys, run, tmp_path):
    (play_master, play_port), (discard_master, discard_port) = ptys
    TagMap({"0100000003": Card.from_code("R3")}).save(tmp_path / "tags.json")
    config = tmp_path / "config.toml"
    config.write_text(
        f'[[scanner]]\nport = "{play_port}"\nrole = "play"\n\n'
        f'[[scanner]]\nport = "{discard_port}"\nprotocol = "line"\nrole = "discard"\n'
    )
    command = run("scanner", "--config", str(config), "--data-dir", str(tmp_path))
    assert {command.err(), command.err()} == {"scanner play connected", "scanner discard connected"}
    os.write(play_master, rdm6300_frame("0100000003"))
    assert json.loads(command.out()) == {"reader": "play", "tag": "0100000003", "card": "R3"}
    os.write(discard_master, b"B2\r\n")
    assert json.loads(command.out()) == {"reader": "discard", "tag": "B2", "card": "B2"}
    os.write(discard_master, b"0FEEDBEEF0\r\n")
    assert json.loads(command.out()) == {"reader": "discard", "tag": "0FEEDBEEF0", "card": None}
    assert command.signal(signal.SIGINT) == 0


def test_scanner_a_configured_keyboard_reader_that_is_not_an_input_device_is_one_line(
    ptys, run, tmp_path
):
    (_, port), _ = ptys
    config = tmp_path / "config.toml"
    config.write_text(
        f'[[scanner]]\nport = "{port}"\nrole = "play"\n\n'
        '[[scanner]]\nprotocol = "keyboard"\ndevice = "/dev/null"\nrole = "discard"\n'
    )
    command = run("scanner", "--config", str(config), "--data-dir", str(tmp_path))
    assert command.process.wait(timeout=10) == 1
    assert command.err_until("error:") == f"error: scanner discard: {NOT_AN_INPUT_DEVICE}"


@pytest.mark.parametrize("command_name", ["scanner", "enrol"])
def test_device_that_is_not_an_input_device_exits_1_with_one_line(run, tmp_path, command_name):
    command = run(command_name, "--device", "/dev/null", "--data-dir", str(tmp_path))
    assert command.process.wait(timeout=10) == 1
    assert command.err_until("error:") == f"error: scanner: {NOT_AN_INPUT_DEVICE}"


def test_a_wrong_reader_config_is_refused_with_its_file_and_line(run, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[[scanner]]\nport = "/dev/ttyUSB0"\nrole = "fireworks"\n')
    command = run("scanner", "--config", str(config), "--data-dir", str(tmp_path))
    assert command.process.wait(timeout=10) == 1
    assert command.err() == (
        f"error: {config}:3: [[scanner]] #1 role: 'fireworks' is not one of "
        "'any', 'play', 'discard'"
    )


def test_no_reader_anywhere_is_a_usage_error(run, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[game]\nplayers = 2\n")
    command = run("scanner", "--config", str(config), "--data-dir", str(tmp_path))
    assert command.process.wait(timeout=10) == 2
    assert "give --port or --device" in command.err()
