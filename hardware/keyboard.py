"""A USB keyboard-type card reader: an input device that types each tag, then Enter.

Most cheap 125 kHz USB RFID readers and barcode scanners are keyboards to the
computer: they type ``0012345678`` + Enter. The companion reads such a reader
from its input device (``/dev/input/by-id/usb-...-event-kbd``) and *grabs* it,
so its keystrokes reach nothing else: not the app's keys, not the console.

Three parts, as for the serial reader (:mod:`hardware.scanner`):

* :class:`KeyLineDecoder`, pure: the raw bytes of the device (``struct
  input_event`` records, as the kernel delivers them) in, complete lines out;
* :func:`open_input_device`, the thin layer that opens and grabs the device
  with python-evdev, and says in one line why it cannot;
* :class:`KeyboardReader`, a daemon thread that reads the device, survives the
  reader being unplugged, and sends :class:`~hardware.events.CardScanned` and
  :class:`~hardware.events.DeviceStatus` events to ``emit``.

>>> press = lambda code, value: input_event(EV_KEY, code, value)
>>> typed = b"".join(press(code, 1) + press(code, 0) for code in (KEY_R, KEY_3, KEY_ENTER))
>>> decoder = KeyLineDecoder()
>>> decoder.feed(typed[:30])
[]
>>> decoder.feed(typed[30:])
['r3']
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import struct
import threading
import time
from collections.abc import Callable

from msgspec import Struct

from hardware.events import CardScanned, Emit
from hardware.os_words import reason_in_words
from hardware.scanner import RepeatFilter, ScannerError, ThreadedReader
from hardware.tagmap import TagMap
from hardware.wiring import ReaderRole

__all__ = [
    "EVENT_FORMAT",
    "EVENT_SIZE",
    "EV_KEY",
    "DeviceGrabbedError",
    "InputDeviceHandle",
    "KeyLineDecoder",
    "KeyboardReader",
    "NotAnInputDeviceError",
    "input_event",
    "open_input_device",
]

EVENT_FORMAT = "llHHi"
"""``struct input_event``: ``struct timeval`` (seconds, microseconds), type, code, value."""
EVENT_SIZE = struct.calcsize(EVENT_FORMAT)
"""24 bytes on a 64-bit kernel (a Pi 3, 4 or 5 with a 64-bit OS), 16 on a 32-bit one."""

EV_SYN, EV_KEY, EV_MSC = 0, 1, 4
RELEASED, PRESSED, REPEATED = 0, 1, 2

# Key codes of <linux/input-event-codes.h> (the kernel's ABI: they never change).
KEY_1, KEY_0, KEY_MINUS, KEY_TAB = 2, 11, 12, 15
KEY_Q, KEY_ENTER, KEY_A, KEY_LEFTSHIFT, KEY_Z, KEY_RIGHTSHIFT = 16, 28, 30, 42, 44, 54
KEY_R, KEY_3 = 19, 4
KEY_SPACE, KEY_KPENTER = 57, 96
SHIFT_KEYS = frozenset({KEY_LEFTSHIFT, KEY_RIGHTSHIFT})
LINE_ENDS = frozenset({KEY_ENTER, KEY_KPENTER, KEY_TAB})


def _key_characters() -> dict[int, tuple[str, str]]:
    """Each key's character without and with shift (a US layout, as readers type)."""
    keys: dict[int, tuple[str, str]] = {}
    for offset, (plain, shifted) in enumerate(zip("1234567890", "!@#$%^&*()", strict=True)):
        keys[KEY_1 + offset] = (plain, shifted)
    keys[KEY_MINUS] = ("-", "_")
    keys[KEY_SPACE] = (" ", " ")
    for first, row in ((KEY_Q, "qwertyuiop"), (KEY_A, "asdfghjkl"), (KEY_Z, "zxcvbnm")):
        for offset, letter in enumerate(row):
            keys[first + offset] = (letter, letter.upper())
    # The keypad (num lock on): KP7 KP8 KP9 KP- KP4 KP5 KP6 KP+ KP1 KP2 KP3 KP0.
    for code, digit in zip(range(71, 83), "789-456+1230", strict=True):
        keys[code] = (digit, digit)
    return keys


KEY_CHARACTERS = _key_characters()
"""Key code -> (character, character with shift)."""


def input_event(kind: int, code: int, value: int, seconds: int = 0, micros: int = 0) -> bytes:
    """One ``struct input_event`` as the kernel writes it (for tests and recordings)."""
    return struct.pack(EVENT_FORMAT, seconds, micros, kind, code, value)


class NotAnInputDeviceError(ScannerError):
    """The path of a keyboard reader is not an input device (a serial port, a file...)."""


class DeviceGrabbedError(ScannerError, OSError):
    """Another program has grabbed the input device (another companion, a key remapper)."""


class KeyLineDecoder:
    """Incremental decoder of a keyboard reader: input_event bytes in, typed lines out.

    Key presses of digits, letters, ``-`` and space make the line (shift held:
    upper case); Enter, keypad Enter or Tab ends it. Releases, auto-repeats,
    other keys and other event types (``EV_MSC`` scan codes, ``EV_SYN``) are
    skipped. Lines are stripped; empty lines and lines longer than
    :attr:`MAX_LINE` characters are dropped. Records may be cut anywhere
    between :meth:`feed` calls; the buffers never hold more than one record
    and one line.
    """

    MAX_LINE = 64

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._shift_held: set[int] = set()
        self._line: list[str] = []
        self._too_long = False

    def feed(self, data: bytes) -> list[str]:
        """Add bytes read from the device; returns the lines completed."""
        lines: list[str] = []
        buffer = self._buffer
        buffer += data
        whole = len(buffer) - len(buffer) % EVENT_SIZE
        for _, _, kind, code, value in struct.iter_unpack(EVENT_FORMAT, bytes(buffer[:whole])):
            if kind == EV_KEY:
                line = self._key(code, value)
                if line is not None:
                    lines.append(line)
        del buffer[:whole]
        return lines

    @property
    def buffered(self) -> int:
        """Bytes of an incomplete record held back (fewer than one record)."""
        return len(self._buffer)

    def _key(self, code: int, value: int) -> str | None:
        if code in SHIFT_KEYS:
            if value == RELEASED:
                self._shift_held.discard(code)
            else:
                self._shift_held.add(code)
            return None
        if value != PRESSED:
            return None
        if code in LINE_ENDS:
            line = "".join(self._line).strip()
            keep = not self._too_long
            self._line.clear()
            self._too_long = False
            return line if line and keep else None
        characters = KEY_CHARACTERS.get(code)
        if characters is None:
            return None
        if len(self._line) < self.MAX_LINE:
            self._line.append(characters[1] if self._shift_held else characters[0])
        else:
            self._too_long = True
        return None


class InputDeviceHandle(Struct):
    """An opened (and grabbed) device: the descriptor to read, and how to let it go."""

    fd: int
    close: Callable[[], None]


OpenDevice = Callable[[str], InputDeviceHandle]


def open_input_device(path: str) -> InputDeviceHandle:
    """Open the input device at ``path`` with python-evdev and grab it.

    Raises :class:`NotAnInputDeviceError` or :class:`DeviceGrabbedError` (one
    line each), or the ``OSError`` of a missing device or a missing permission.
    """
    from evdev import InputDevice  # Linux only: imported when a keyboard reader is used

    try:
        device = InputDevice(path)
    except OSError as error:
        if error.errno in (errno.ENOTTY, errno.EINVAL):
            raise NotAnInputDeviceError(
                f"{path} is not an input device (a keyboard reader is "
                "/dev/input/by-id/usb-...-event-kbd)"
            ) from None
        raise
    try:
        device.grab()
    except OSError as error:
        device.close()
        if error.errno == errno.EBUSY:
            raise DeviceGrabbedError(
                f"{path} is grabbed by another program (another hanabi-companion, "
                "or a key remapper): stop it"
            ) from None
        raise

    def release() -> None:
        with contextlib.suppress(OSError):
            device.ungrab()
        device.close()

    return InputDeviceHandle(device.fd, release)


class KeyboardReader(ThreadedReader):
    """Reads cards from a keyboard-type reader in a daemon thread, sending events to ``emit``.

    Each accepted line sends ``CardScanned(tag, card, role)``. A missing or
    unplugged device sends ``DeviceStatus(name, False, ...)`` once, is retried
    every ``retry_interval`` seconds, and ``DeviceStatus(name, True, ...)`` is
    sent when it is back. ``open_device`` opens and grabs the device
    (:func:`open_input_device`; a test passes a pipe's opener).
    """

    READ_SIZE = EVENT_SIZE * 64

    def __init__(
        self,
        device: str,
        emit: Emit,
        *,
        tag_map: TagMap | None = None,
        role: ReaderRole = "any",
        name: str = "scanner",
        repeat_window: float = 1.0,
        retry_interval: float = 0.5,
        open_device: OpenDevice = open_input_device,
    ) -> None:
        if retry_interval <= 0 or retry_interval > 1.0:
            raise ScannerError(f"retry interval {retry_interval!r} must be in (0, 1] seconds")
        super().__init__(emit, name)
        self.device = device
        self.tag_map = tag_map if tag_map is not None else TagMap()
        self.role: ReaderRole = role
        self._open_device = open_device
        self._filter = RepeatFilter(repeat_window)
        self._retry_interval = retry_interval
        self._handle: InputDeviceHandle | None = None

    def start(self) -> None:
        """Open and grab the device and start reading.

        A missing device is not an error here: the thread reports it and keeps
        retrying. Not an input device, or grabbed by another program: raised.
        """
        if self._thread is not None:
            raise ScannerError("reader already started")
        try:
            self._handle = self._open_device(self.device)
        except (NotAnInputDeviceError, DeviceGrabbedError):
            raise
        except OSError as error:
            self._report(False, f"{self.name} disconnected: {_describe(self.device, error)}")
        else:
            self._report(True, f"{self.name} connected")
        self._thread = threading.Thread(target=self._run, name="keyboard-reader", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        decoder = KeyLineDecoder()
        while not self._stop.is_set():
            handle = self._handle
            if handle is None:
                try:
                    handle = self._handle = self._open_device(self.device)
                except (OSError, ScannerError) as error:  # replugged as something else, too
                    self._report(
                        False, f"{self.name} disconnected: {_describe(self.device, error)}"
                    )
                    self._stop.wait(self._retry_interval)
                    continue
                decoder = KeyLineDecoder()  # drop half a line from before
                self._report(True, f"{self.name} connected")
            try:
                ready, _, _ = select.select([handle.fd], [], [], 0.1)
                if not ready:
                    continue
                data = os.read(handle.fd, self.READ_SIZE)
            except BlockingIOError:
                continue
            except (OSError, ValueError) as error:  # ENODEV: unplugged
                self._disconnected(error)
                continue
            if not data:  # end of file: the device is gone
                self._disconnected(OSError(errno.ENODEV, "device disconnected"))
                continue
            self._handle_lines(decoder.feed(data))
        self._close()

    def _disconnected(self, error: BaseException) -> None:
        self._close()
        self._report(False, f"{self.name} disconnected: {_describe(self.device, error)}")
        self._stop.wait(self._retry_interval)

    def _handle_lines(self, lines: list[str]) -> None:
        now = time.monotonic()
        for line in lines:
            if self._filter.accept(line, now):
                self._emit(CardScanned(line, self.tag_map.lookup(line), self.role))

    def _close(self) -> None:
        handle, self._handle = self._handle, None
        if handle is not None:
            with contextlib.suppress(OSError):
                handle.close()


def _describe(device: str, error: BaseException) -> str:
    """A short reason: ``/dev/input/event3: no such device``."""
    if isinstance(error, ScannerError):
        return str(error)
    code = getattr(error, "errno", None)
    if code == errno.ENOENT:
        return f"{device}: no such device"
    if code == errno.ENODEV:
        return f"{device}: device disconnected"
    if code == errno.EACCES:
        return f"{device}: permission denied (add the user to the input group)"
    return f"{device}: {reason_in_words(error)}"
