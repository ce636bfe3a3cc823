"""Tests for companion.panel.framebuffer: a regular file stands in for /dev/fb1."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from pathlib import Path

import pygame
import pytest

from companion.panel.framebuffer import (
    FramebufferError,
    FramebufferInfo,
    FramebufferWriter,
    read_framebuffer_info,
)

RED = (255, 0, 0)
GREEN = (0, 255, 0)
BLUE = (0, 0, 255)
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)


def make_fb(
    tmp_path: Path,
    width: int,
    height: int,
    bpp: int,
    stride: int | None = None,
    *,
    name: str = "fb1",
    fill: bytes = b"\0",
) -> tuple[Path, Path]:
    """Create a fake sysfs entry and a device file; return (device, sysfs_root)."""
    stride = stride if stride is not None else width * bpp // 8
    sysfs = tmp_path / "sys"
    entry = sysfs / name
    entry.mkdir(parents=True)
    (entry / "bits_per_pixel").write_text(f"{bpp}\n")
    (entry / "stride").write_text(f"{stride}\n")
    (entry / "virtual_size").write_text(f"{width},{height}\n")
    device = tmp_path / name
    device.write_bytes(fill * (stride * height))
    return device, sysfs


def solid(size: tuple[int, int], color: tuple[int, int, int]) -> pygame.Surface:
    surface = pygame.Surface(size)
    surface.fill(color)
    return surface


def test_read_framebuffer_info(tmp_path: Path) -> None:
    device, sysfs = make_fb(tmp_path, 480, 320, 16, stride=1024)
    info = read_framebuffer_info(device, sysfs)
    assert info == FramebufferInfo(width=480, height=320, bits_per_pixel=16, stride=1024)
    assert info.row_bytes == 960


def test_read_framebuffer_info_follows_symlinks(tmp_path: Path) -> None:
    device, sysfs = make_fb(tmp_path, 4, 2, 16)
    link = tmp_path / "fb-tft"
    link.symlink_to(device)
    assert read_framebuffer_info(link, sysfs).width == 4


def test_read_framebuffer_info_unknown_device(tmp_path: Path) -> None:
    with pytest.raises(FramebufferError, match="fb7"):
        read_framebuffer_info(tmp_path / "fb7", tmp_path)


def test_read_framebuffer_info_missing_attribute(tmp_path: Path) -> None:
    device, sysfs = make_fb(tmp_path, 4, 2, 16)
    (sysfs / "fb1" / "stride").unlink()
    with pytest.raises(FramebufferError, match="stride"):
        read_framebuffer_info(device, sysfs)


@pytest.mark.parametrize("text", ["480x320", "480,", "a,320", "0,320"])
def test_read_framebuffer_info_malformed_size(tmp_path: Path, text: str) -> None:
    device, sysfs = make_fb(tmp_path, 4, 2, 16)
    (sysfs / "fb1" / "virtual_size").write_text(text)
    with pytest.raises(FramebufferError, match="virtual_size"):
        read_framebuffer_info(device, sysfs)


def test_read_framebuffer_info_stride_too_short(tmp_path: Path) -> None:
    device, sysfs = make_fb(tmp_path, 4, 2, 16, stride=6)
    with pytest.raises(FramebufferError, match="stride 6"):
        read_framebuffer_info(device, sysfs)


@pytest.mark.parametrize(
    ("color", "expected"),
    [
        (RED, b"\x00\xf8"),
        (GREEN, b"\xe0\x07"),
        (BLUE, b"\x1f\x00"),
        (WHITE, b"\xff\xff"),
        (BLACK, b"\x00\x00"),
    ],
)
def test_rgb565_pixels_little_endian(
    tmp_path: Path, color: tuple[int, int, int], expected: bytes
) -> None:
    device, sysfs = make_fb(tmp_path, 3, 2, 16, fill=b"\x55")
    with FramebufferWriter(device, sysfs_root=sysfs) as fb:
        assert fb.write(solid((3, 2), color)) == 2
    assert device.read_bytes() == expected * 6


def test_rgb565_mixed_pixels_land_in_place(tmp_path: Path) -> None:
    device, sysfs = make_fb(tmp_path, 2, 2, 16)
    surface = solid((2, 2), BLACK)
    surface.set_at((0, 0), RED)
    surface.set_at((1, 0), GREEN)
    surface.set_at((0, 1), BLUE)
    surface.set_at((1, 1), WHITE)
    with FramebufferWriter(device, sysfs_root=sysfs) as fb:
        fb.write(surface)
    assert device.read_bytes() == b"\x00\xf8" + b"\xe0\x07" + b"\x1f\x00" + b"\xff\xff"


def test_xrgb8888_is_bgrx_in_memory(tmp_path: Path) -> None:
    device, sysfs = make_fb(tmp_path, 3, 1, 32, fill=b"\x55")
    surface = solid((3, 1), BLACK)
    surface.set_at((0, 0), (0x12, 0x34, 0x56))
    surface.set_at((1, 0), RED)
    surface.set_at((2, 0), BLUE)
    with FramebufferWriter(device, sysfs_root=sysfs) as fb:
        fb.write(surface)
    data = device.read_bytes()
    pixels = [data[i : i + 4] for i in range(0, 12, 4)]
    assert [p[:3] for p in pixels] == [b"\x56\x34\x12", b"\x00\x00\xff", b"\xff\x00\x00"]
    assert all(p[3] == 0 for p in pixels)


def test_rgb888_is_bgr_in_memory(tmp_path: Path) -> None:
    device, sysfs = make_fb(tmp_path, 2, 1, 24)
    surface = solid((2, 1), RED)
    surface.set_at((1, 0), (0x12, 0x34, 0x56))
    with FramebufferWriter(device, sysfs_root=sysfs) as fb:
        fb.write(surface)
    assert device.read_bytes() == b"\x00\x00\xff" + b"\x56\x34\x12"


def test_translucent_surface_is_composed_onto_black(tmp_path: Path) -> None:
    device, sysfs = make_fb(tmp_path, 2, 1, 32)
    surface = pygame.Surface((2, 1), pygame.SRCALPHA)
    surface.fill((255, 255, 255, 0))
    with FramebufferWriter(device, sysfs_root=sysfs) as fb:
        fb.write(solid((2, 1), WHITE))
        fb.write(surface)
    assert device.read_bytes()[:3] == b"\x00\x00\x00"


def test_stride_padding_is_respected_and_left_alone(tmp_path: Path) -> None:
    # 5 pixels at 16 bpp = 10 bytes per row, padded to 16; odd width also
    # gives the pygame surface its own padded pitch.
    device, sysfs = make_fb(tmp_path, 5, 3, 16, stride=16, fill=b"\xaa")
    with FramebufferWriter(device, sysfs_root=sysfs) as fb:
        assert fb.write(solid((5, 3), RED)) == 3
    data = device.read_bytes()
    for row in range(3):
        line = data[row * 16 : (row + 1) * 16]
        assert line[:10] == b"\x00\xf8" * 5
        assert line[10:] == b"\xaa" * 6


def test_only_changed_rows_are_written(tmp_path: Path) -> None:
    device, sysfs = make_fb(tmp_path, 20, 40, 16)
    surface = solid((20, 40), BLACK)
    with FramebufferWriter(device, sysfs_root=sysfs) as fb:
        assert fb.write(surface) == 40
        assert fb.write(surface) == 0
        surface.fill(WHITE, pygame.Rect(0, 12, 20, 10))
        assert fb.write(surface) == 10
        data = device.read_bytes()
        assert data[11 * 40 : 12 * 40] == b"\x00" * 40
        assert data[12 * 40 : 22 * 40] == b"\xff" * 400
        assert data[22 * 40 : 23 * 40] == b"\x00" * 40
        surface.fill(WHITE, pygame.Rect(0, 12, 1, 1))  # already white: no change
        assert fb.write(surface) == 0
        surface.set_at((19, 39), RED)
        assert fb.write(surface) == 1


def test_unchanged_rows_are_not_touched(tmp_path: Path) -> None:
    # Scribble on the device behind the writer's back: rows it believes
    # unchanged must stay as they are, which proves they were not rewritten.
    device, sysfs = make_fb(tmp_path, 4, 3, 16)
    surface = solid((4, 3), BLACK)
    with FramebufferWriter(device, sysfs_root=sysfs) as fb:
        fb.write(surface)
        with device.open("r+b") as raw:
            raw.write(b"\x11" * 24)
        surface.set_at((0, 1), WHITE)
        assert fb.write(surface) == 1
    data = device.read_bytes()
    assert data[0:8] == b"\x11" * 8
    assert data[8:16] == b"\xff\xff" + b"\x00" * 6
    assert data[16:24] == b"\x11" * 8


def test_size_property(tmp_path: Path) -> None:
    device, sysfs = make_fb(tmp_path, 480, 320, 16)
    with FramebufferWriter(device, sysfs_root=sysfs) as fb:
        assert fb.size == (480, 320)
        assert fb.info.stride == 960


def test_wrong_surface_size_is_refused(tmp_path: Path) -> None:
    device, sysfs = make_fb(tmp_path, 4, 2, 16)
    with (
        FramebufferWriter(device, sysfs_root=sysfs) as fb,
        pytest.raises(FramebufferError, match=r"5x2.*4x2"),
    ):
        fb.write(solid((5, 2), RED))


@pytest.mark.parametrize("bpp", [8, 15, 1])
def test_unsupported_format_is_named(tmp_path: Path, bpp: int) -> None:
    device, sysfs = make_fb(tmp_path, 8, 2, 16)
    (sysfs / "fb1" / "bits_per_pixel").write_text(str(bpp))
    with pytest.raises(FramebufferError, match=f"unsupported pixel format {bpp} bits"):
        FramebufferWriter(device, sysfs_root=sysfs)


def test_device_file_too_small(tmp_path: Path) -> None:
    device, sysfs = make_fb(tmp_path, 4, 2, 16)
    device.write_bytes(b"\0" * 10)
    with pytest.raises(FramebufferError, match="needs 16"):
        FramebufferWriter(device, sysfs_root=sysfs)


def test_missing_device(tmp_path: Path) -> None:
    device, sysfs = make_fb(tmp_path, 4, 2, 16)
    device.unlink()
    with pytest.raises(FramebufferError, match="cannot open"):
        FramebufferWriter(device, sysfs_root=sysfs)


def test_write_after_close_is_refused(tmp_path: Path) -> None:
    device, sysfs = make_fb(tmp_path, 4, 2, 16)
    fb = FramebufferWriter(device, sysfs_root=sysfs)
    fb.close()
    fb.close()
    with pytest.raises(FramebufferError, match="closed"):
        fb.write(solid((4, 2), RED))
