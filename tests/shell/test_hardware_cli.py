"""``scanner`` and ``enrol`` end to end: a real subprocess reading a real pseudo-terminal."""

from __future__ import annotations

import argparse
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import serial

from companion.shell.commands.__main__ import main
from companion.shell.commands.enrol import check_deck, deck_cards
from companion.shell.commands.readers import add_enrol_arguments, add_scanner_arguments
from companion.shell.devices import default_tag_map_path
from engine.cards import Card
from hardware.scanner import rdm6300_frame
from hardware.tagmap import TagMap

REPO = Path(__file__).resolve().parents[2]
R3 = Card.from_code("R3")


def tag(number: int) -> str:
    """A distinct 10-hex-digit tag per number."""
    return f"{number:010X}"


class Command:
    """``python -m companion.shell.commands ...`` with its output read line by line."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion.shell.commands", *args],
            cwd=REPO,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.stdout: queue.Queue[str] = queue.Queue()
        self.stderr: queue.Queue[str] = queue.Queue()
        for stream, lines in (
            (self.process.stdout, self.stdout),
            (self.process.stderr, self.stderr),
        ):
            threading.Thread(target=self._pump, args=(stream, lines), daemon=True).start()

    @staticmethod
    def _pump(stream, lines: queue.Queue[str]) -> None:
        for line in stream:
            lines.put(line.rstrip("\n"))

    @staticmethod
    def _line(lines: queue.Queue[str], timeout: float) -> str:
        try:
            return lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no line within {timeout} s") from None

    def out(self, timeout: float = 10.0) -> str:
        return self._line(self.stdout, timeout)

    def err(self, timeout: float = 10.0) -> str:
        return self._line(self.stderr, timeout)

    def err_until(self, text: str, timeout: float = 10.0) -> str:
        """Skip stderr lines until one containing ``text``."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.err(max(deadline - time.monotonic(), 0.01))
            if text in line:
                return line

    def signal(self, number: int) -> int:
        self.process.send_signal(number)
        return self.process.wait(timeout=10)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)


@pytest.fixture
def run():
    commands: list[Command] = []

    def start(*args: str) -> Command:
        command = Command(*args)
        commands.append(command)
        return command

    yield start
    for command in commands:
        command.close()


# -- scanner -----------------------------------------------------------------


def test_scanner_prints_one_json_line_per_read(pty_port, run, tmp_path):
    master, port = pty_port
    tag_map = tmp_path / "tags.json"
    TagMap({tag(1): R3}).save(tag_map)
    command = run("scanner", "--port", port, "--tag-map", str(tag_map))
    assert command.err() == "scanner connected"
    os.write(master, rdm6300_frame(tag(1)))
    assert json.loads(command.out()) == {"tag": tag(1), "card": "R3"}
    os.write(master, b"noise" + rdm6300_frame(tag(2)))
    assert json.loads(command.out()) == {"tag": tag(2), "card": None}
    assert command.signal(signal.SIGTERM) == 0


def test_scanner_line_protocol_prints_card_codes(pty_port, run, tmp_path):
    master, port = pty_port
    command = run("scanner", "--port", port, "--protocol", "line", "--data-dir", str(tmp_path))
    assert command.err() == "scanner connected"
    os.write(master, b"R3\r\n")
    assert command.out() == '{"tag": "R3", "card": "R3"}'
    assert command.signal(signal.SIGINT) == 0


def test_scanner_port_in_use_exits_1_with_a_clear_message(pty_port, run, tmp_path):
    _, port = pty_port
    with serial.Serial(port, exclusive=True):
        command = run("scanner", "--port", port, "--data-dir", str(tmp_path))
        assert command.process.wait(timeout=10) == 1
        assert f"serial port {port} is in use" in command.err()


@pytest.mark.parametrize("command_name", ["scanner", "enrol"])
def test_a_port_that_never_existed_fails_at_once_in_one_line(tmp_path, command_name):
    """Issue 10 item 6: a port absent at the start is a typo: exit 1 at once, nothing asked
    (a port that goes away later is waited for: test_scanner_survives_unplug_and_replug)."""
    port = str(tmp_path / "ttyNONE")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion.shell.commands",
            command_name,
            "--port",
            port,
            "--data-dir",
            str(tmp_path),
        ],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,  # liveness: it used to wait forever
    )
    assert done.returncode == 1
    assert done.stderr == (
        f"error: the serial port {port} does not exist: check its name (ls /dev/serial*"
        " /dev/tty*) and that the scanner is plugged in\n"
    )
    assert done.stdout == ""  # enrol asked for no card
    assert not (tmp_path / "tags.json").exists()


def test_scanner_corrupt_tag_map_exits_1(pty_port, run, tmp_path):
    _, port = pty_port
    (tmp_path / "tags.json").write_text("{oops")
    command = run("scanner", "--port", port, "--data-dir", str(tmp_path))
    assert command.process.wait(timeout=10) == 1
    assert "invalid JSON" in command.err()


def test_scanner_survives_unplug_and_replug(run, cable, tmp_path):
    cable.plug()
    command = run("scanner", "--port", cable.port, "--data-dir", str(tmp_path))
    assert command.err() == "scanner connected"
    cable.write(rdm6300_frame(tag(1)))
    assert json.loads(command.out())["tag"] == tag(1)
    cable.unplug()
    assert command.err().startswith("scanner disconnected")
    cable.plug()
    assert command.err() == "scanner connected"
    cable.write(rdm6300_frame(tag(2)))
    assert json.loads(command.out())["tag"] == tag(2)
    assert command.signal(signal.SIGTERM) == 0


# -- enrol -------------------------------------------------------------------


def enrol_deck(command: Command, master: int, first_tag: int = 1) -> list[str]:
    """Answer every prompt with a fresh tag; returns the prompts seen."""
    prompts = []
    line = command.out()
    assert line.startswith("Enrolling a deck of 50 cards")
    for number in range(50):
        prompt = command.out()
        prompts.append(prompt)
        os.write(master, rdm6300_frame(tag(first_tag + number)))
        assert command.out().endswith(f"= {prompt.split()[1]}")
    return prompts


def test_enrol_asks_for_each_card_in_deck_order_and_saves(pty_port, run, tmp_path):
    master, port = pty_port
    path = tmp_path / "tags.json"
    command = run("enrol", "--port", port, "--tag-map", str(path), "--repeat-window", "0")
    prompts = enrol_deck(command, master)
    assert [prompt.split()[1] for prompt in prompts[:11]] == [
        "R1", "R1", "R1", "R2", "R2", "R3", "R3", "R4", "R4", "R5", "Y1",
    ]  # fmt: skip
    assert prompts[0] == "Scan R1 (1/50):"
    assert prompts[-1] == "Scan W5 (50/50):"
    assert command.out() == f"Saved 50 tags to {path}."
    assert command.process.wait(timeout=10) == 0
    saved = TagMap.load(path)
    assert check_deck(saved) == []
    assert saved.lookup(tag(6)) == R3  # the sixth card asked for is the first R3


def test_enrol_refuses_a_tag_already_enrolled_and_asks_again(pty_port, run, tmp_path):
    master, port = pty_port
    path = tmp_path / "tags.json"
    command = run("enrol", "--port", port, "--tag-map", str(path), "--repeat-window", "0")
    command.out()  # the banner
    assert command.out() == "Scan R1 (1/50):"
    os.write(master, rdm6300_frame(tag(1)))
    assert command.out() == f"{tag(1)} = R1"
    assert command.out() == "Scan R1 (2/50):"
    os.write(master, rdm6300_frame(tag(1)))
    assert command.out() == f"Tag {tag(1)} is already R1. Scan R1:"
    os.write(master, rdm6300_frame(tag(2)))
    assert command.out() == f"{tag(2)} = R1"
    assert command.signal(signal.SIGINT) == 1
    assert "aborted: nothing saved" in command.err_until("aborted")
    assert not path.exists()


def test_enrol_one_card_replaces_every_copy_of_it_only(pty_port, run, tmp_path):
    master, port = pty_port
    path = tmp_path / "tags.json"
    deck = TagMap({tag(number): card for number, card in enumerate(deck_cards(), start=1)})
    deck.save(path)
    old_r3 = deck.tags_of(R3)
    command = run(
        "enrol", "--port", port, "--tag-map", str(path), "--card", "r3", "--repeat-window", "0"
    )
    assert command.out() == "Re-enrolling R3: forgot 2 old tag(s)."
    assert command.out() == "Scan R3 (1/2):"
    os.write(master, rdm6300_frame(tag(1)))  # an R1's tag: refused
    assert command.out() == f"Tag {tag(1)} is already R1. Scan R3:"
    os.write(master, rdm6300_frame(old_r3[0]))  # one old copy kept: fine
    assert command.out() == f"{old_r3[0]} = R3"
    assert command.out() == "Scan R3 (2/2):"
    os.write(master, rdm6300_frame(tag(999)))  # a new copy
    assert command.out() == f"{tag(999)} = R3"
    assert command.process.wait(timeout=10) == 0
    saved = TagMap.load(path)
    assert saved.tags_of(R3) == [old_r3[0], tag(999)]
    assert saved.lookup(old_r3[1]) is None
    assert len(saved) == 50
    assert saved.lookup(tag(1)) == Card.from_code("R1")


def test_enrol_card_not_in_the_deck_is_an_error(pty_port, run, tmp_path):
    _, port = pty_port
    command = run("enrol", "--port", port, "--data-dir", str(tmp_path), "--card", "M3")
    assert command.process.wait(timeout=10) == 1
    assert "M3 is not in a deck with --multicolor none" in command.err()


def test_enrol_bad_card_code_is_an_error(pty_port, run, tmp_path):
    _, port = pty_port
    command = run("enrol", "--port", port, "--data-dir", str(tmp_path), "--card", "Q9")
    assert command.process.wait(timeout=10) == 1
    assert "'Q9' is not a card" in command.err()


# -- the pure helpers --------------------------------------------------------


def test_deck_sizes_and_counts():
    assert len(deck_cards("none")) == 50
    assert len(deck_cards("short")) == 55
    assert len(deck_cards("full")) == 60
    assert deck_cards("short").count(Card.from_code("M1")) == 1
    assert deck_cards("full").count(Card.from_code("M1")) == 3
    assert deck_cards().count(Card.from_code("B5")) == 1


def test_check_deck_names_the_cards_with_wrong_counts():
    deck = TagMap({tag(number): card for number, card in enumerate(deck_cards(), start=1)})
    assert check_deck(deck) == []
    deck.forget(deck.tags_of(R3)[0])
    deck.enrol(tag(500), Card.from_code("M1"))
    assert check_deck(deck) == ["R3: 1 tags, expected 2", "M1: 1 tags, expected 0"]
    assert "M1: 1 tags, expected 3" in check_deck(deck, "full")


def test_default_tag_map_path_follows_xdg_state_home(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert default_tag_map_path() == tmp_path / "hanabi-companion" / "tags.json"
    monkeypatch.delenv("XDG_STATE_HOME")
    assert default_tag_map_path() == Path.home() / ".local/state/hanabi-companion/tags.json"
    assert default_tag_map_path(tmp_path / "data") == tmp_path / "data" / "tags.json"


def test_arguments_plug_into_any_parser():
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command")
    add_scanner_arguments(commands.add_parser("scanner"))
    add_enrol_arguments(commands.add_parser("enrol"))
    args = parser.parse_args(["enrol", "--port", "/dev/serial0", "--multicolor", "short"])
    assert (args.port, args.protocol, args.baud, args.multicolor) == (
        "/dev/serial0",
        "rdm6300",
        9600,
        "short",
    )
    with pytest.raises(SystemExit):
        parser.parse_args(["scanner", "--port", "p", "--protocol", "morse"])


def test_main_requires_a_port(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["scanner"])
    assert caught.value.code == 2
    assert "--port" in capsys.readouterr().err
