"""What ``hanabi-companion run`` imports before its first frame
(docs/decisions/0059-first-frame-imports.md, "The first frame imports only what it needs"):
the real start, in a real X server, resuming a
stored game with the page for phones on, stopped the moment it would say ``READY=1``."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from companion.shell.cli import build_parser
from companion.storage import Storage
from companion.web.address import CODE_SETTING
from engine.actions import Hint
from engine.setup import GameSetup

ROOT = Path(__file__).resolve().parents[2]

#: The start, cut when the first frame is on the screen: prints the modules imported.
UNTIL_THE_FIRST_FRAME = """
import os, sys
import companion.shell.sdnotify

def ready(**_):
    print(" ".join(sorted(name for name, module in sys.modules.items() if module)), flush=True)
    os._exit(0)

companion.shell.sdnotify.ready = ready
from companion.shell.cli import main
main(["run", *sys.argv[1:]])
"""

#: Imported after the first frame, or only by what needs them (each with its reason in
#: the module that imports it).
NOT_BEFORE_THE_FIRST_FRAME = {
    "aiohttp": "the page for phones' server: its thread, after the first frame",
    "asyncio": "the same server",
    "companion.web.server": "the same server",
    "companion.web.snapshot": "the first snapshot, made after the first frame",
    "companion.shell.commands.readers": "the scanner and enrol commands (pyserial)",
    "companion.shell.commands.render": "the render command",
    "companion.shell.commands.export": "the export and import commands",
    "companion.shell.commands.history": "the history command",
    "serial": "a serial scanner, opened only when configured",
    "gpiozero": "the buttons, only with a GPIO pin factory",
    "ctypes": "the X connection's descriptor, looked up when the loop first sleeps",
    "pkgutil": "the languages are listed from the package's folder",
    "secrets": "a new table code (the first start that serves the page), a phone's pairing",
    "hmac": "a phone's pairing",
    "ssl": "no TLS anywhere (companion/shell/no_tls.py)",
    "_ssl": "the same",
    "hashlib": "a phone's pairing (the stored games' links use _blake2, hashlib's own)",
}


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A data directory with a game in progress, which the start resumes, and the page
    for phones' table code (made by the first start that serves the page)."""
    data = tmp_path / "data"
    storage = Storage.open(data)
    storage.set_setting(CODE_SETTING, "abcd2345")
    game_id = storage.new_game(GameSetup(players=3))
    storage.append_action(game_id, Hint(to=1, rank=1))
    storage.close()
    return data


@pytest.mark.timeout(120)
def test_the_first_frame_imports_only_what_it_needs(xvfb, data_dir, tmp_path):
    """The modules named in NOT_BEFORE_THE_FIRST_FRAME are not imported by a start that
    resumes a game in an X window with the page for phones on; what the frame shows
    (pygame, the game screen, the storage) is."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = tmp_path / "config.toml"
    config.write_text(f'[web]\nenabled = true\nport = {port}\nbind = "127.0.0.1"\n')
    imported = start_until_the_first_frame(xvfb, data_dir, config)
    assert {"pygame", "companion.panel.screens.game", "companion.shell.web_link"} <= imported
    early = {name: why for name, why in NOT_BEFORE_THE_FIRST_FRAME.items() if name in imported}
    assert early == {}
    assert "tomllib" in imported  # each start parses its configuration file


def start_until_the_first_frame(xvfb: dict[str, str], data_dir: Path, config: Path) -> set[str]:
    """The modules a start imported before its first frame."""
    run = [*("--data-dir", str(data_dir), "--size", "480x320", "--gpio", "none")]
    done = subprocess.run(
        [sys.executable, "-c", UNTIL_THE_FIRST_FRAME, *run, "--config", str(config)],
        env={**xvfb, "INVOCATION_ID": ""},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


def test_run_builds_only_its_own_sub_parser_and_reads_its_arguments_alike():
    """``run`` (the appliance's start) builds no other command's parser; what it reads
    from its arguments is what the whole command line reads."""
    import argparse

    parser = build_parser(run_only=True)
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert list(commands.choices) == ["run"]
    for arguments in (
        ["run"],
        ["run", "--size", "320x240", "--lang", "fr", "--web", "--gpio", "none"],
        ["run", "--data-dir", "/tmp/x", "--config", "c.toml", "--fullscreen", "--display", "x"],
    ):
        alone, whole = parser.parse_args(arguments), build_parser().parse_args(arguments)
        assert vars(alone) == vars(whole)
