"""``scanner`` and ``enrol`` with several readers and keyboard readers (issue 11).

Real subprocesses reading real pseudo-terminals, as tests/shell/test_hardware_cli.py.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_hardware_cli import REPO, Command

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


# -- issue 20: a path that is no reader at the start ---------------------------------------


def finished(*args: str) -> subprocess.CompletedProcess[str]:
    """The command run to its end; the timeout is liveness (it used to wait forever)."""
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


def no_reader_path(tmp_path: Path, kind: str) -> tuple[str, str, str]:
    """(option, path, the one line said) for a path that cannot be a reader."""
    not_serial = (
        "is not a serial port (a serial reader is /dev/serial0, /dev/ttyUSB0, /dev/ttyACM0"
        " or /dev/serial/by-id/...)"
    )
    if kind == "missing input device":
        path = str(tmp_path / "usb-reader-event-kbd")
        return (
            "--device",
            path,
            (
                f"error: the input device {path} does not exist: check its name"
                " (ls /dev/input/by-id/) and that the reader is plugged in"
            ),
        )
    if kind == "file as port":
        (tmp_path / "passwd").write_text("root:x:0:0::/root:/bin/sh\n")
        path = str(tmp_path / "passwd")
    elif kind == "folder as port":
        path = str(tmp_path)
    else:  # a character device that is no terminal
        path = "/dev/null"
    return "--port", path, f"error: {path} {not_serial}"


@pytest.mark.parametrize("command_name", ["scanner", "enrol"])
@pytest.mark.parametrize(
    "kind", ["missing input device", "file as port", "folder as port", "/dev/null as port"]
)
def test_a_path_that_is_no_reader_at_the_start_is_one_line_and_exit_1(tmp_path, command_name, kind):
    """Issue 20: `scanner --device /no/such` and `scanner --port /etc/passwd` (and `enrol`)
    stop at once: one line, exit 1, nothing asked, no tag map written. (A reader that goes
    away later is waited for: test_scanner_survives_unplug_and_replug.)"""
    option, path, said = no_reader_path(tmp_path, kind)
    data = tmp_path / "data"
    done = finished(command_name, option, path, "--data-dir", str(data))
    assert (done.returncode, done.stdout, done.stderr) == (1, "", said + "\n")
    assert not data.exists()


def test_a_configured_reader_that_is_no_reader_at_the_start_is_one_line(tmp_path):
    """Issue 20: the same check for the readers of the configuration, the first said."""
    config = tmp_path / "config.toml"
    missing = tmp_path / "event-kbd"
    config.write_text(
        f'[[scanner]]\nprotocol = "keyboard"\ndevice = "{missing}"\nrole = "play"\n\n'
        '[[scanner]]\nport = "/dev/null"\nrole = "discard"\n'
    )
    done = finished("scanner", "--config", str(config), "--data-dir", str(tmp_path))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and f"the input device {missing} does not exist" in (
        done.stderr
    )


@pytest.mark.parametrize("command_name", ["scanner", "enrol"])
def test_scanner_and_enrol_stop_as_unix_tools_do_when_their_reader_goes_away(
    ptys, tmp_path, command_name
):
    """Issue 20: `scanner | head -3`: the read after the reader went away ends the
    command as SIGPIPE ends `cat`: no traceback, the shell's status 141; enrol saves
    nothing."""
    (master, port), _ = ptys
    reading, writing = os.pipe()
    os.close(reading)  # the reader of stdout is gone before the first line
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", command_name, "--port", port],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=writing,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "XDG_STATE_HOME": str(tmp_path)},
    )
    os.close(writing)
    try:
        assert process.stderr is not None
        if command_name == "scanner":  # enrol's first line, "Enrolling...", meets the pipe
            assert process.stderr.readline() == "scanner connected\n"
            os.write(master, rdm6300_frame("0100000003"))  # printed: a broken pipe
        assert process.wait(timeout=60) == -signal.SIGPIPE
        assert "Traceback" not in process.stderr.read()
    finally:
        process.kill()
        process.wait()
        process.stderr.close()
    assert list(tmp_path.iterdir()) == []  # no tag map
