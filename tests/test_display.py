"""The display paths: which SDL driver each setting asks for, the framebuffer path, errors."""

from __future__ import annotations

import os

import pygame
import pytest

from companion.display import DisplayError, open_display, sdl_driver_for


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


def test_kmsdrm_is_waited_for_while_it_comes_up(monkeypatch):
    """At boot the DRM driver may still be loading: the service retries SDL's start
    (here it succeeds on the third try) instead of failing and being restarted."""
    from companion import display

    attempts = []

    def init() -> None:
        attempts.append(1)
        if len(attempts) < 3:
            raise pygame.error("kmsdrm not available")

    monkeypatch.setattr(display.pygame.display, "init", init)
    display._init_video("kmsdrm", screen_wait=30)
    assert len(attempts) == 3


def test_a_missing_kmsdrm_screen_fails_after_the_wait(monkeypatch):
    """No screen at all: after the wait, SDL's reason is raised (no endless retry), and a
    command typed by hand (wait 0) fails at the first try."""
    from companion import display

    attempts = []

    def init() -> None:
        attempts.append(1)
        raise pygame.error("kmsdrm not available")

    monkeypatch.setattr(display.pygame.display, "init", init)
    with pytest.raises(pygame.error):
        display._init_video("kmsdrm", screen_wait=0.6)
    assert 2 <= len(attempts) <= 4
    attempts.clear()
    with pytest.raises(pygame.error):
        display._init_video("kmsdrm", screen_wait=0)
    assert len(attempts) == 1
    attempts.clear()
    with pytest.raises(pygame.error):
        display._init_video(None, screen_wait=30)  # a desktop window is never waited for
    assert len(attempts) == 1


def test_a_desktop_that_does_not_answer_is_named_with_sdls_reason(monkeypatch):
    """$DISPLAY set but no X server there: not SDL's silent off-screen fallback, but the
    desktop named, with X11's own reason."""
    monkeypatch.setenv("DISPLAY", ":987")
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("companion.display.DESKTOP_WAIT_SECONDS", 0.5)
    with pytest.raises(DisplayError, match=r"cannot open a window on the desktop :987: .*(?i:x11)"):
        open_display("window", (480, 320))
    assert "SDL_VIDEODRIVER" not in os.environ
