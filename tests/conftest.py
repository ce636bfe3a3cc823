"""Test parts shared by several files: real pseudo-terminals (scanner, CLI, app tests), a
real notify socket (sd_notify and display tests), Xvfb, and Debian's Chromium driven by
Playwright at a phone's size (the page for phones)."""

from __future__ import annotations

import os
import subprocess
import time
import tty
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.needs import CHROMIUM_ARGS, PHONE, need_tool, unavailable
from support.notify_socket import Receiver
from support.xwindow import x_server


@pytest.fixture
def pty_port() -> Iterator[tuple[int, str]]:
    """A real pseudo-terminal: the scanner reads ``port``, the test writes to ``master``."""
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        yield master, os.ttyname(slave)
    finally:
        os.close(master)
        os.close(slave)


class SerialCable:
    """A virtual USB-serial adapter made by socat: ``port`` for the scanner, ``feed`` for
    the test. Killing socat unplugs it (the pty and its link go); starting socat again on
    the same links plugs it back in."""

    def __init__(self, directory: Path) -> None:
        self.port = str(directory / "scanner")
        self.feed = str(directory / "feed")
        self.process: subprocess.Popen[bytes] | None = None
        self.fd: int | None = None

    def plug(self) -> None:
        self.process = subprocess.Popen(
            ["socat", f"pty,raw,echo=0,link={self.port}", f"pty,raw,echo=0,link={self.feed}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 5
        while not (os.path.exists(self.port) and os.path.exists(self.feed)):
            assert time.monotonic() < deadline, "socat made no ptys"
            assert self.process.poll() is None, "socat exited"
            time.sleep(0.01)
        self.fd = os.open(self.feed, os.O_RDWR | os.O_NOCTTY)

    def unplug(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=5)
            self.process = None

    def write(self, data: bytes) -> None:
        assert self.fd is not None, "the cable is unplugged"
        os.write(self.fd, data)


@pytest.fixture
def cable(tmp_path: Path) -> Iterator[SerialCable]:
    """An unplugged cable; socat missing skips the test, or fails it in CI."""
    need_tool("socat")
    serial_cable = SerialCable(tmp_path)
    try:
        yield serial_cable
    finally:
        serial_cable.unplug()


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[Receiver]:
    """systemd's notify socket, played by a real datagram socket in ``tmp_path``."""
    path = tmp_path / "notify"
    notify_socket = Receiver.bind(str(path), str(path))
    yield notify_socket
    notify_socket.close()


@pytest.fixture(scope="module")
def xvfb() -> Iterator[dict[str, str]]:
    """A real X server (Xvfb) for the module's tests: the environment a program started
    in it needs (its DISPLAY; no SDL driver or Wayland display forced)."""
    need_tool("Xvfb")
    need_tool("xdotool")
    with x_server() as env:
        yield env


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, through Playwright (missing: skipped, failed in CI)."""
    chromium = need_tool("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("playwright is not installed (pip install -e '.[test]')")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh phone (its own storage: no seat, no pairing remembered) at 360x740."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    opened = context.new_page()
    yield opened
    context.close()


@pytest.fixture
def headless(monkeypatch: pytest.MonkeyPatch) -> None:
    """The app's surroundings here: SDL's dummy driver, and no systemd to notify."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def make_app(tmp_path: Path, headless: None) -> Iterator[Any]:
    """The real App on the dummy driver, its SQLite file in ``tmp_path / "data"``, as it
    resumes at start: ``make_app(size)``, a hint one press (the count level) unless
    ``hint_content``. Closed after the test."""
    from companion.core.controller import SetupDraft
    from companion.panel.display import open_display
    from companion.shell.app import App, resume
    from companion.storage import Storage

    opened: list[tuple[Any, Any]] = []

    def make(size: tuple[int, int] = (480, 320), *, hint_content: bool = False) -> App:
        storage = Storage.open(tmp_path / "data")
        controller, game_id = resume(storage, SetupDraft(players=2, hint_content=hint_content))
        display = open_display("dummy", size)
        opened.append((display, storage))
        return App(storage, display, controller, game_id)

    yield make
    for display, storage in opened:
        display.close()
        storage.close()
