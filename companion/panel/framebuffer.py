"""Draw on old SPI TFT panels that only offer a Linux framebuffer (fbtft, /dev/fb1).

SDL 2 has no framebuffer video driver any more, so for ``display =
"fb:/dev/fb1"`` the app renders into an off-screen ``pygame.Surface`` and
hands every frame to :class:`FramebufferWriter`, which converts it to the
panel's pixel format with pygame's own blitters and copies it into the
memory-mapped framebuffer, row by row, skipping the rows that did not change.
fbtft sends only the touched memory pages over SPI, so an idle screen costs
nothing and a blinking cursor costs a few rows.

Supported formats, as the kernel reports them in
``/sys/class/graphics/fbN/bits_per_pixel``:

* 16 bpp: RGB565 (``0xF800`` red, ``0x07E0`` green, ``0x001F`` blue) in the
  CPU's byte order, little-endian on a Pi: pure red is the bytes ``00 F8``.
  This is what fbtft drivers expose.
* 24 bpp: RGB888, bytes B, G, R in memory.
* 32 bpp: XRGB8888, bytes B, G, R, X in memory (X written as 0).

A framebuffer whose colour channels are laid out differently (BGR565, say)
would show swapped colours; fbtft panels swap in the controller instead.
"""

from __future__ import annotations

import mmap
import os
import stat
from pathlib import Path
from types import TracebackType

import pygame
from msgspec import Struct

from engine.errors import CompanionError
from hardware.os_words import reason_in_words

__all__ = [
    "FramebufferError",
    "FramebufferInfo",
    "FramebufferWriter",
    "read_framebuffer_info",
]

SYSFS_GRAPHICS = Path("/sys/class/graphics")

# bits per pixel -> the (red, green, blue, alpha) masks of the matching
# pygame surface; pygame stores pixels in native byte order, as the kernel does.
_MASKS: dict[int, tuple[int, int, int, int]] = {
    16: (0xF800, 0x07E0, 0x001F, 0),
    24: (0xFF0000, 0x00FF00, 0x0000FF, 0),
    32: (0xFF0000, 0x00FF00, 0x0000FF, 0),
}


class FramebufferError(CompanionError, RuntimeError):
    """The framebuffer cannot be used: missing, unreadable, or in a format we cannot write."""


class FramebufferInfo(Struct, frozen=True):
    """Geometry and pixel format of a framebuffer.

    ``stride`` is the length of one row in memory, in bytes; it may exceed
    ``width * bits_per_pixel / 8`` when the driver pads its rows.
    """

    width: int
    height: int
    bits_per_pixel: int
    stride: int

    @property
    def bytes_per_pixel(self) -> int:
        """Bytes per pixel (2 for RGB565); rounded up for odd bit depths."""
        return (self.bits_per_pixel + 7) // 8

    @property
    def row_bytes(self) -> int:
        """Bytes of pixel data in one row, without the stride padding."""
        return self.width * self.bytes_per_pixel


def _read_sysfs(directory: Path, name: str) -> str:
    """Read one attribute file of a framebuffer's sysfs directory."""
    path = directory / name
    try:
        return path.read_text(encoding="ascii").strip()
    except OSError as error:
        raise FramebufferError(
            f"cannot read framebuffer attribute {path}: {reason_in_words(error)}"
        ) from error


def _parse_int(text: str, what: str, path: Path) -> int:
    """Parse a positive integer from sysfs, naming the file when it is not one."""
    try:
        value = int(text)
    except ValueError:
        raise FramebufferError(f"{path}: {what} is not a number: {text!r}") from None
    if value <= 0:
        raise FramebufferError(f"{path}: {what} must be positive, got {value}")
    return value


def read_framebuffer_info(device: str | Path, sysfs_root: Path = SYSFS_GRAPHICS) -> FramebufferInfo:
    """Read geometry and pixel format of ``device`` (e.g. ``/dev/fb1``) from sysfs.

    The attributes come from ``<sysfs_root>/<device name>/``:
    ``bits_per_pixel``, ``stride`` and ``virtual_size`` (``"480,320"``).
    A symlink such as ``/dev/fb-tft`` is followed to the real node's name.
    Raises :class:`FramebufferError` when an attribute is missing or
    malformed, or the stride is too short for a row of pixels.
    """
    name = Path(device).resolve().name
    directory = Path(sysfs_root) / name
    if not directory.is_dir():
        raise FramebufferError(f"{device} is not a framebuffer known to the kernel: no {directory}")
    size_text = _read_sysfs(directory, "virtual_size")
    width_text, comma, height_text = size_text.partition(",")
    if not comma:
        raise FramebufferError(
            f"{directory / 'virtual_size'}: expected 'WIDTH,HEIGHT', got {size_text!r}"
        )
    info = FramebufferInfo(
        width=_parse_int(width_text, "width", directory / "virtual_size"),
        height=_parse_int(height_text, "height", directory / "virtual_size"),
        bits_per_pixel=_parse_int(
            _read_sysfs(directory, "bits_per_pixel"),
            "bits per pixel",
            directory / "bits_per_pixel",
        ),
        stride=_parse_int(_read_sysfs(directory, "stride"), "stride", directory / "stride"),
    )
    if info.stride < info.row_bytes:
        raise FramebufferError(
            f"{directory}: stride {info.stride} is shorter than a row of "
            f"{info.width} pixels at {info.bits_per_pixel} bpp ({info.row_bytes} bytes)"
        )
    return info


class FramebufferWriter:
    """Writes pygame surfaces into a memory-mapped framebuffer device.

    ``device`` may also be a regular file of at least ``stride * height``
    bytes, which is how the tests stand in for ``/dev/fb1``. Use as a
    context manager or call :meth:`close`.
    """

    def __init__(self, device: str | Path, *, sysfs_root: Path = SYSFS_GRAPHICS) -> None:
        """Read the format of ``device``, open it and map it into memory.

        Raises :class:`FramebufferError` for an unsupported pixel format, a
        device that cannot be opened or mapped, or a stand-in file that is
        too small.
        """
        self.device = Path(device)
        self.info = read_framebuffer_info(device, sysfs_root)
        masks = _MASKS.get(self.info.bits_per_pixel)
        if masks is None:
            supported = ", ".join(f"{bpp} bpp" for bpp in _MASKS)
            raise FramebufferError(
                f"{device}: unsupported pixel format {self.info.bits_per_pixel} bits per "
                f"pixel (supported: {supported})"
            )
        # The frame in the framebuffer's own pixel format; pygame converts into it.
        self._frame = pygame.Surface(
            (self.info.width, self.info.height), 0, self.info.bits_per_pixel, masks
        )
        self._previous: bytes | None = None
        self._map: mmap.mmap | None = None
        length = self.info.stride * self.info.height
        try:
            fd = os.open(self.device, os.O_RDWR | os.O_CLOEXEC)
        except OSError as error:
            raise FramebufferError(
                f"cannot open framebuffer {device}: {reason_in_words(error)}"
            ) from error
        try:
            status = os.fstat(fd)
            if stat.S_ISREG(status.st_mode) and status.st_size < length:
                raise FramebufferError(
                    f"{device} holds {status.st_size} bytes, a {self.info.width}x"
                    f"{self.info.height} frame with stride {self.info.stride} needs {length}"
                )
            try:
                self._map = mmap.mmap(fd, length, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
            except OSError as error:
                raise FramebufferError(
                    f"cannot map framebuffer {device}: {reason_in_words(error)}"
                ) from error
        finally:
            # The mapping keeps the device open; the descriptor is not needed.
            os.close(fd)

    @property
    def size(self) -> tuple[int, int]:
        """The framebuffer's (width, height) in pixels; surfaces must match it."""
        return (self.info.width, self.info.height)

    def write(self, surface: pygame.Surface) -> int:
        """Show ``surface`` on the framebuffer; return the number of rows written.

        The surface is converted to the framebuffer's format (translucent
        pixels are composed onto black) and compared with the previous frame
        row by row; only the rows that differ are copied, so an unchanged
        frame writes nothing and returns 0. The first call writes every row.
        Raises :class:`FramebufferError` if the surface's size differs from
        :attr:`size` or the writer is closed.
        """
        if self._map is None:
            raise FramebufferError(f"framebuffer {self.device} is closed")
        if surface.get_size() != self.size:
            width, height = surface.get_size()
            raise FramebufferError(
                f"surface is {width}x{height}, framebuffer {self.device} is "
                f"{self.info.width}x{self.info.height}"
            )
        self._frame.fill((0, 0, 0))
        self._frame.blit(surface, (0, 0))
        frame = self._frame.get_buffer().raw
        previous = self._previous
        if frame == previous:
            return 0
        pitch = self._frame.get_pitch()
        row_bytes = self.info.row_bytes
        stride = self.info.stride
        written = 0
        for row in range(self.info.height):
            start = row * pitch
            pixels = frame[start : start + row_bytes]
            if previous is not None and pixels == previous[start : start + row_bytes]:
                continue
            offset = row * stride
            self._map[offset : offset + row_bytes] = pixels
            written += 1
        self._previous = frame
        return written

    def close(self) -> None:
        """Unmap the framebuffer. Calling it again does nothing."""
        if self._map is not None:
            self._map.close()
            self._map = None
        self._previous = None

    def __enter__(self) -> FramebufferWriter:
        """Use the writer in a ``with`` block; it is closed on the way out."""
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Close the writer."""
        self.close()
