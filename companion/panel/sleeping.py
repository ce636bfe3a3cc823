"""Sleeping until there is input, without polling.

pygame-ce's ``event.wait`` polls SDL every millisecond (about 2.5 % of a core
here doing nothing). The loop instead sleeps in ``select()`` on the file
descriptors input can come from, and on a pipe the hardware threads write a
byte to. Which descriptors depends on the SDL video driver:

- ``x11``: the X server connection (keys, clicks, touch, expose);
- ``kmsdrm`` and ``evdev`` (the Pi's console, SPI framebuffers): the
  ``/dev/input/event*`` devices, opened a second time read-only; SDL reads its
  own descriptors, these only wake the loop (what they hold is discarded);
- any other driver: no descriptors known, and the loop falls back to
  ``pygame.event.wait``.
"""

from __future__ import annotations

import contextlib
import functools
import os
import select
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

if TYPE_CHECKING:
    import ctypes


class Sleeper:
    """Sleep until input may have arrived, a thread pokes, or the timeout passes."""

    def __init__(self, driver: str, *, input_dir: Path = Path("/dev/input")) -> None:
        self._read, self._write = os.pipe()
        os.set_blocking(self._read, False)
        os.set_blocking(self._write, False)
        self.driver = driver
        self._input_dir = input_dir
        self._devices: dict[str, int] = {}

    @functools.cached_property
    def _x_fd(self) -> int | None:
        """The X server connection's descriptor (x11), looked up the first time the loop
        is about to sleep: after the first frame, which does not wait for ctypes."""
        return _x_connection_fd() if self.driver == "x11" else None

    @property
    def can_sleep(self) -> bool:
        """False when no input descriptor is known: callers wait with pygame instead."""
        return self._x_fd is not None or self.driver in ("kmsdrm", "evdev", "dummy")

    def poke(self) -> None:
        """Wake the sleeping loop (thread-safe: one byte into a pipe)."""
        with contextlib.suppress(BlockingIOError):  # full: a wake-up is pending anyway
            os.write(self._write, b"\0")

    def sleep(self, timeout: float) -> None:
        """Return when input may be there, after a poke, or after ``timeout`` seconds."""
        if self.driver in ("kmsdrm", "evdev"):
            self._refresh_devices()
        fds = [self._read, *self._devices.values()]
        if self._x_fd is not None:
            fds.append(self._x_fd)
        ready, _, _ = select.select(fds, [], [], max(0.0, timeout))
        for fd in ready:
            if fd != self._x_fd:
                _drain(fd)  # ours only: SDL reads the X connection and its own devices

    def _refresh_devices(self) -> None:
        """Follow input devices plugged in or pulled out (a USB keyboard, a scanner)."""
        present = {str(path) for path in self._input_dir.glob("event*")}
        for path in set(self._devices) - present:
            os.close(self._devices.pop(path))
        for path in present - set(self._devices):
            with contextlib.suppress(OSError):  # no permission: SDL cannot read it either
                self._devices[path] = os.open(path, os.O_RDONLY | os.O_NONBLOCK)

    def close(self) -> None:
        for fd in (self._read, self._write, *self._devices.values()):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._devices.clear()


def _drain(fd: int) -> None:
    with contextlib.suppress(BlockingIOError, OSError):
        while os.read(fd, 4096):
            pass


#: Xlib by its soname: SDL's x11 driver has loaded this very library, so it is found
#: without :func:`ctypes.util.find_library` (which runs ``ldconfig -p``, ~6 ms at start).
XLIB_SONAME = "libX11.so.6"


def _x_connection_fd() -> int | None:
    """The descriptor of SDL's X server connection, or None if it cannot be found."""
    import ctypes  # the x11 driver only: a console start does not load it

    capsule = pygame.display.get_wm_info().get("display")  # pygame-ce: a PyCapsule
    xlib = _xlib()
    if capsule is None or xlib is None:
        return None
    try:
        get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
        get_pointer.restype = ctypes.c_void_p
        get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
        display = get_pointer(capsule, b"display")
        xlib.XConnectionNumber.argtypes = [ctypes.c_void_p]
        xlib.XConnectionNumber.restype = ctypes.c_int
        fd = xlib.XConnectionNumber(display)
    except (OSError, AttributeError, ValueError, TypeError):
        return None
    return fd if fd >= 0 else None


def _xlib() -> ctypes.CDLL | None:
    """Xlib, by its soname, else wherever ``ldconfig`` says it is; None if nowhere."""
    import ctypes

    try:
        return ctypes.CDLL(XLIB_SONAME)
    except OSError:
        pass
    import ctypes.util

    name = ctypes.util.find_library("X11")
    try:
        return ctypes.CDLL(name) if name else None
    except OSError:
        return None
