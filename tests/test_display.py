"""The display paths: which SDL driver each setting asks for, the framebuffer path, errors."""

from __future__ import annotations

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
