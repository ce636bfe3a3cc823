"""The display paths: which SDL driver each setting asks for, the framebuffer path, errors."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest
from support.notify_socket import Receiver

from companion.panel import display
from companion.panel.display import DisplayError, open_display, sdl_driver_for
from companion.shell import sdnotify


def test_auto_is_a_window_on_a_desktop_and_kmsdrm_on_a_console():
    assert sdl_driver_for("auto", {"DISPLAY": ":0"}) is None
    assert sdl_driver_for("auto", {"WAYLAND_DISPLAY": "wayland-0"}) is None
    assert sdl_driver_for("auto", {}) == "kmsdrm"


def test_framebuffer_uses_sdl_evdev_for_input():
    assert sdl_driver_for("fb:/dev/fb1", {}) == "evdev"


def test_unknown_display_is_refused_in_words():
    with pytest.raises(DisplayError, match="unknown display 'hdmi'"):
        sdl_driver_for("hdmi", {})


def test_kmsdrm_without_a_drm_screen_says_which_and_why(monkeypatch):
    """Never SDL's silent off-screen fallback: the driver and SDL's reason are named."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "kmsdrm")
    with pytest.raises(DisplayError, match="kmsdrm"):
        open_display("kmsdrm", (480, 320))


def test_framebuffer_display_writes_rgb565_rows(tmp_path, monkeypatch):
    """An fbtft panel: the frame lands in the framebuffer file, in its own pixel format."""
    sysfs = tmp_path / "sys"
    (sysfs / "fb1").mkdir(parents=True)
    (sysfs / "fb1" / "bits_per_pixel").write_text("16\n")
    (sysfs / "fb1" / "stride").write_text("640\n")
    (sysfs / "fb1" / "virtual_size").write_text("320,240\n")
    device = tmp_path / "fb1"
    device.write_bytes(bytes(640 * 240))
    display = open_display(f"fb:{device}", (480, 320), sysfs_root=sysfs)
    try:
        assert display.size == (320, 240)  # the panel's size wins over the configured one
        display.surface.fill((255, 0, 0))
        display.present()
        assert device.read_bytes()[:4] == b"\x00\xf8\x00\xf8"  # RGB565 red, little-endian
    finally:
        display.close()


def test_missing_framebuffer_is_a_display_error(tmp_path):
    with pytest.raises(DisplayError, match="framebuffer"):
        open_display(f"fb:{tmp_path / 'fb9'}", (480, 320), sysfs_root=tmp_path)
    assert not pygame.display.get_init()


class VirtualTime:
    """``time`` for companion.panel.display: ``sleep`` moves a virtual clock on at once, and the
    kernel's screen comes up (or not) at a virtual moment: the minutes of a slow boot in
    no time, and the same way on every machine."""

    def __init__(self) -> None:
        self.now = 0.0
        self.at: list[tuple[float, Callable[[], None]]] = []

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds
        for when, happen in [event for event in self.at if event[0] <= self.now]:
            self.at.remove((when, happen))
            happen()


class Kernel:
    """/sys/class/drm in a tmp dir, and an SDL whose KMSDRM driver, as the real one,
    starts only when a card has a connected output; ``attempts`` holds when it was asked."""

    def __init__(self, sysfs: Path, clock: VirtualTime) -> None:
        self.sysfs = sysfs
        self.clock = clock
        self.attempts: list[float] = []

    def output(self, name: str, state: str) -> None:
        (self.sysfs / "card1").mkdir(parents=True, exist_ok=True)
        (self.sysfs / name).mkdir(parents=True, exist_ok=True)
        (self.sysfs / name / "status").write_text(state + "\n")

    def init(self) -> None:
        self.attempts.append(self.clock.now)
        if "connected" not in display.drm_outputs(self.sysfs).values():
            raise pygame.error("kmsdrm not available")


@pytest.fixture
def kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Kernel:
    clock = VirtualTime()
    monkeypatch.setattr(display, "time", clock)
    kernel = Kernel(tmp_path / "drm", clock)
    monkeypatch.setattr(display.pygame.display, "init", kernel.init)
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    return kernel


def test_drm_outputs_are_read_from_sysfs(tmp_path: Path) -> None:
    """Each card's outputs with their state; the cards themselves and render nodes are no
    outputs."""
    for name in ("card1", "renderD128", "card1-HDMI-A-1", "card1-DSI-1"):
        (tmp_path / name).mkdir()
    (tmp_path / "card1-HDMI-A-1" / "status").write_text("disconnected\n")
    (tmp_path / "card1-DSI-1" / "status").write_text("connected\n")
    assert display.drm_outputs(tmp_path) == {
        "card1-DSI-1": "connected",
        "card1-HDMI-A-1": "disconnected",
    }
    assert display.drm_outputs(tmp_path / "absent") == {}


def test_a_late_screen_is_waited_for_and_used_once_connected(
    kernel: Kernel, caplog: pytest.LogCaptureFixture
) -> None:
    """At boot the DRM driver may come minutes after the service: the service waits,
    reading sysfs, asks SDL again every few seconds (not in a tight loop) and as soon as
    an output is connected, and says once in the log that it waits."""
    kernel.clock.at.append((70.0, lambda: kernel.output("card1-HDMI-A-1", "connected")))
    with caplog.at_level(logging.INFO, logger="hanabi-companion"):
        display._init_video("kmsdrm", screen_wait=300, drm_sysfs=kernel.sysfs)
    assert 70 <= kernel.attempts[-1] < 70 + display.SDL_RETRY_CONNECTED_SECONDS + 1
    assert len(kernel.attempts) < 70 / display.SDL_RETRY_SECONDS + 3
    assert caplog.text.count("waiting up to 300 s for the screen (kmsdrm not available)") == 1


def test_under_systemd_the_wait_is_in_the_status_and_extends_the_start(
    kernel: Kernel, receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``systemctl status`` says what is awaited, each attempt asks for more start time so
    that TimeoutStartSec= does not kill a start that waits for its screen, and once the
    screen is there the status is cleared."""
    monkeypatch.setenv("NOTIFY_SOCKET", receiver.path)
    kernel.output("card1-HDMI-A-1", "disconnected")
    kernel.clock.at.append((20.0, lambda: kernel.output("card1-HDMI-A-1", "connected")))
    display._init_video("kmsdrm", screen_wait=300, drm_sysfs=kernel.sysfs, supervisor=sdnotify)
    messages = receiver.received()
    extension = f"EXTEND_TIMEOUT_USEC={round(display.START_EXTENSION_SECONDS * 1e6)}"
    assert messages[0] == extension
    assert (
        "STATUS=Waiting for the screen (kmsdrm not available; card1-HDMI-A-1 disconnected),"
        " up to 300 s"
    ) in messages
    assert messages.count(extension) >= 20 / display.SDL_RETRY_SECONDS
    assert messages[-2:] == [extension, "STATUS="]


def test_a_screen_that_never_comes_fails_with_the_reason_after_the_wait(kernel: Kernel) -> None:
    """No connected output at all: after the wait, one line with SDL's reason and what the
    kernel has (no endless retry: systemd restarts the service)."""
    kernel.output("card1-HDMI-A-1", "disconnected")
    with pytest.raises(
        pygame.error, match=r"^kmsdrm not available; after 300 s: card1-HDMI-A-1 disconnected$"
    ):
        display._init_video("kmsdrm", screen_wait=300, drm_sysfs=kernel.sysfs)
    assert kernel.clock.now >= 300
    assert len(kernel.attempts) < 300 / display.SDL_RETRY_SECONDS + 3


def test_a_command_typed_by_hand_or_a_window_fails_at_once(kernel: Kernel) -> None:
    """No wait (a command typed by hand), or a desktop window: SDL's reason at once."""
    with pytest.raises(pygame.error, match=r"^kmsdrm not available$"):
        display._init_video("kmsdrm", screen_wait=0, drm_sysfs=kernel.sysfs)
    with pytest.raises(pygame.error, match=r"^kmsdrm not available$"):
        display._init_video(None, screen_wait=300, drm_sysfs=kernel.sysfs)
    assert kernel.attempts == [0.0, 0.0]


def test_a_desktop_that_does_not_answer_is_named_with_sdls_reason(monkeypatch):
    """$DISPLAY set but no X server there: not SDL's silent off-screen fallback, but the
    desktop named, with X11's own reason."""
    monkeypatch.setenv("DISPLAY", ":987")
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("companion.panel.display.DESKTOP_WAIT_SECONDS", 0.5)
    with pytest.raises(DisplayError, match=r"cannot open a window on the desktop :987: .*(?i:x11)"):
        open_display("window", (480, 320))
    assert "SDL_VIDEODRIVER" not in os.environ
