"""The card scanner on a serial port: an RDM6300 RFID reader or a line scanner.

Three pure parts, testable without a port, and the thread that joins them:

* a parser per protocol, fed raw bytes, returning complete reads
  (:class:`Rdm6300Parser`, :class:`LineParser`);
* :class:`RepeatFilter`, which reports a card resting on the reader once;
* :class:`~hardware.tagmap.TagMap`, which says which card a tag is on;
* :class:`CardScanner`, a daemon thread that reads the port, survives the
  cable being pulled, and sends :class:`~hardware.events.CardScanned` and
  :class:`~hardware.events.DeviceStatus` events to ``emit``.

>>> frame = b"\\x02" + b"0A1B2C3D4E" + b"%02X" % (0x0A ^ 0x1B ^ 0x2C ^ 0x3D ^ 0x4E) + b"\\x03"
>>> parser = Rdm6300Parser()
>>> parser.feed(b"boot noise" + frame[:5])
[]
>>> parser.feed(frame[5:])
['0A1B2C3D4E']
>>> LineParser().feed(b"R3\\r\\nY")
['R3']
"""

from __future__ import annotations

import contextlib
import errno
import threading
import time
from typing import Self

import serial

from hardware.events import CardScanned, DeviceStatus, Emit
from hardware.os_words import reason_in_words
from hardware.tagmap import TagMap
from hardware.wiring import (
    PROTOCOLS,
    SERIAL_PROTOCOLS,
    HardwareError,
    ReaderRole,
    ScannerProtocol,
)

__all__ = [
    "DEVICE_NAME",
    "PROTOCOLS",
    "CardScanner",
    "LineParser",
    "PortInUseError",
    "Protocol",
    "Rdm6300Parser",
    "RepeatFilter",
    "ScannerError",
    "make_parser",
    "rdm6300_frame",
]

Protocol = ScannerProtocol

DEVICE_NAME = "scanner"
"""The ``device`` of the :class:`DeviceStatus` events sent by :class:`CardScanner`."""

STX = 0x02
ETX = 0x03
_HEX_DIGITS = frozenset(b"0123456789ABCDEFabcdef")


class ScannerError(HardwareError, ValueError):
    """The scanner cannot be used as asked (bad protocol, port in use...)."""


class PortInUseError(ScannerError, OSError):
    """Another program holds the serial port."""


def rdm6300_frame(tag: str) -> bytes:
    """The 14-byte RDM6300 frame for a 10-hex-digit tag (what the reader sends).

    >>> rdm6300_frame("0A1B2C3D4E")
    b'\\x020A1B2C3D4E4E\\x03'
    """
    if len(tag) != 10 or not all(ord(char) in _HEX_DIGITS for char in tag):
        raise ScannerError(f"{tag!r} is not an RDM6300 tag (10 hex digits)")
    data = bytes.fromhex(tag)
    checksum = 0
    for byte in data:
        checksum ^= byte
    return bytes([STX]) + tag.upper().encode("ascii") + b"%02X" % checksum + bytes([ETX])


class Rdm6300Parser:
    """Incremental parser of RDM6300 (125 kHz EM4100) frames.

    A frame is STX, 10 hex digits (5 data bytes: the tag), 2 hex digits (the
    XOR of the 5 data bytes), ETX. Anything else (boot banner, line noise, a
    frame with a bad checksum) is skipped: the parser resynchronises on the
    next STX. Frames may be cut anywhere between :meth:`feed` calls. The
    buffer never holds more than one frame's worth of bytes.
    """

    FRAME_LENGTH = 14

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[str]:
        """Add received bytes; returns the tags (10 upper-case hex digits) completed."""
        tags: list[str] = []
        buffer = self._buffer
        buffer += data
        while True:
            start = buffer.find(STX)
            if start < 0:
                buffer.clear()
                break
            del buffer[:start]
            if len(buffer) < self.FRAME_LENGTH:
                break
            tag = self._parse_frame(bytes(buffer[: self.FRAME_LENGTH]))
            if tag is None:
                del buffer[:1]  # not a frame: look for the next STX
            else:
                tags.append(tag)
                del buffer[: self.FRAME_LENGTH]
        return tags

    @property
    def buffered(self) -> int:
        """Bytes held back waiting for the rest of a frame (never more than 13)."""
        return len(self._buffer)

    @staticmethod
    def _parse_frame(frame: bytes) -> str | None:
        if frame[-1] != ETX or not all(byte in _HEX_DIGITS for byte in frame[1:13]):
            return None
        data = bytes.fromhex(frame[1:11].decode("ascii"))
        checksum = 0
        for byte in data:
            checksum ^= byte
        if checksum != int(frame[11:13], 16):
            return None
        return frame[1:11].decode("ascii").upper()


class LineParser:
    """Incremental parser of one read per line (a serial barcode or RFID scanner).

    Lines end with ``\\r\\n``, ``\\n`` or ``\\r`` and are stripped. Empty lines,
    lines with bytes that are not printable ASCII and lines longer than
    :attr:`MAX_LINE` bytes are dropped; the buffer never grows past that.
    """

    MAX_LINE = 64

    def __init__(self) -> None:
        self._line = bytearray()
        self._too_long = False

    def feed(self, data: bytes) -> list[str]:
        """Add received bytes; returns the stripped lines completed."""
        lines: list[str] = []
        for byte in data:
            if byte in (0x0A, 0x0D):
                if not self._too_long:
                    text = self._line.strip()
                    if text and all(0x20 <= char <= 0x7E for char in text):
                        lines.append(text.decode("ascii"))
                self._line.clear()
                self._too_long = False
            elif len(self._line) < self.MAX_LINE:
                self._line.append(byte)
            else:
                self._too_long = True
        return lines

    @property
    def buffered(self) -> int:
        """Bytes held back waiting for the end of the line (never more than MAX_LINE)."""
        return len(self._line)


def make_parser(protocol: str) -> Rdm6300Parser | LineParser:
    """A fresh parser for ``protocol`` (see :data:`PROTOCOLS`)."""
    if protocol == "rdm6300":
        return Rdm6300Parser()
    if protocol == "line":
        return LineParser()
    raise ScannerError(
        f"protocol {protocol!r} is not a serial protocol ({', '.join(SERIAL_PROTOCOLS)})"
    )


class RepeatFilter:
    """Reports a tag once while it keeps being read.

    A card resting on an RFID reader repeats its frame every 50-250 ms. A read
    is accepted when the same tag was not read in the last ``window`` seconds
    (counting from its *last* read, accepted or not). The clock is passed in.

    >>> seen = RepeatFilter(1.0)
    >>> [seen.accept("A", t) for t in (0.0, 0.2, 0.4, 1.3, 2.5)]
    [True, False, False, False, True]
    """

    _PRUNE_ABOVE = 256

    def __init__(self, window: float = 1.0) -> None:
        if not window >= 0:
            raise ScannerError(f"repeat window {window!r} must be >= 0 seconds")
        self.window = window
        self._last_read: dict[str, float] = {}

    def accept(self, tag: str, now: float) -> bool:
        """True if this read of ``tag`` at time ``now`` is a new read."""
        last = self._last_read.get(tag)
        self._last_read[tag] = now
        if len(self._last_read) > self._PRUNE_ABOVE:
            self._last_read = {
                known: when
                for known, when in self._last_read.items()
                if now - when < self.window or known == tag
            }
        return last is None or now - last >= self.window


class ThreadedReader:
    """What every card reader shares: a daemon thread started by :meth:`start` (in the
    subclass), stopped by :meth:`stop`, a context manager, and one ``DeviceStatus`` per
    change of connection. A subclass sets up its device in ``start`` and releases it in
    ``_close``; its thread reads until ``_stop`` is set."""

    def __init__(self, emit: Emit, name: str) -> None:
        self.name = name
        self._emit = emit
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._connected: bool | None = None

    def start(self) -> None:
        raise NotImplementedError

    def _close(self) -> None:
        raise NotImplementedError

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the thread (within about 0.1 s) and release the device."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self._close()

    def close(self) -> None:
        """Stop reading and release the device (as :meth:`stop`)."""
        self.stop()

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        """True while the reading thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    def _report(self, connected: bool, message: str) -> None:
        """Send a DeviceStatus when the connection state changes (once per change)."""
        if self._connected is connected:
            return
        self._connected = connected
        self._emit(DeviceStatus(self.name, connected, message))


class CardScanner(ThreadedReader):
    """Reads cards from a serial scanner in a daemon thread, sending events to ``emit``.

    Each accepted read sends ``CardScanned(tag, card, role)`` (``card`` None for a
    tag not in ``tag_map``). If the port is missing or goes away (USB cable
    pulled), it sends ``DeviceStatus(name, False, ...)`` once, retries
    every ``retry_interval`` seconds, and sends ``DeviceStatus(name,
    True, "scanner connected")`` when the port is back (``name``: "scanner",
    or which one of several readers, e.g. "scanner play").

    The port is opened exclusively: :meth:`start` raises
    :class:`PortInUseError` if another program holds it.
    """

    def __init__(
        self,
        port: str,
        protocol: Protocol,
        emit: Emit,
        *,
        baud: int = 9600,
        tag_map: TagMap | None = None,
        repeat_window: float = 1.0,
        retry_interval: float = 0.5,
        role: ReaderRole = "any",
        name: str = DEVICE_NAME,
    ) -> None:
        make_parser(protocol)  # validates the protocol now, not in the thread
        if retry_interval <= 0 or retry_interval > 1.0:
            raise ScannerError(f"retry interval {retry_interval!r} must be in (0, 1] seconds")
        super().__init__(emit, name)
        self.port = port
        self.protocol = protocol
        self.baud = baud
        self.tag_map = tag_map if tag_map is not None else TagMap()
        self.role: ReaderRole = role
        self._filter = RepeatFilter(repeat_window)
        self._retry_interval = retry_interval
        self._serial: serial.Serial | None = None

    # -- lifecycle ----------------------------------------------------------

    def start(self) -> None:
        """Open the port and start reading.

        A missing port is not an error here: the thread reports it and keeps
        retrying. A port held by another program raises :class:`PortInUseError`.
        """
        if self._thread is not None:
            raise ScannerError("scanner already started")
        try:
            self._serial = self._open()
        except PortInUseError:
            raise
        except (serial.SerialException, OSError) as error:
            self._report(False, f"{self.name} disconnected: {_describe(self.port, error)}")
        else:
            self._report(True, f"{self.name} connected")
        self._thread = threading.Thread(target=self._run, name="card-scanner", daemon=True)
        self._thread.start()

    # -- the thread ---------------------------------------------------------

    def _run(self) -> None:
        parser = make_parser(self.protocol)
        while not self._stop.is_set():
            if self._serial is None:
                try:
                    self._serial = self._open()
                except (serial.SerialException, OSError, PortInUseError) as error:
                    self._report(False, f"{self.name} disconnected: {_describe(self.port, error)}")
                    self._stop.wait(self._retry_interval)
                    continue
                parser = make_parser(self.protocol)  # drop half a frame from before
                self._report(True, f"{self.name} connected")
            try:
                data = self._serial.read(max(1, self._serial.in_waiting))
            except (serial.SerialException, OSError) as error:
                self._close()
                self._report(False, f"{self.name} disconnected: {_describe(self.port, error)}")
                self._stop.wait(self._retry_interval)
                continue
            if data:
                self._handle(parser.feed(data))
        self._close()

    def _handle(self, tags: list[str]) -> None:
        now = time.monotonic()
        for tag in tags:
            if self._filter.accept(tag, now):
                self._emit(CardScanned(tag, self.tag_map.lookup(tag), self.role))

    def _open(self) -> serial.Serial:
        try:
            return serial.Serial(self.port, self.baud, timeout=0.1, exclusive=True)
        except serial.SerialException as error:
            if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EBUSY):
                raise PortInUseError(
                    f"serial port {self.port} is in use by another program "
                    "(close it, e.g. another hanabi-companion or a serial console)"
                ) from None
            raise

    def _close(self) -> None:
        port, self._serial = self._serial, None
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()


def _describe(port: str, error: BaseException) -> str:
    """A short reason for a port failure: ``/dev/ttyUSB0: no such port``."""
    if isinstance(error, PortInUseError):
        return str(error)
    code = getattr(error, "errno", None)
    if code == errno.ENOENT:
        return f"{port}: no such port"
    if code == errno.EIO or "returned no data" in str(error):
        return f"{port}: device disconnected"
    if code == errno.EACCES:
        return f"{port}: permission denied (add the user to the dialout group)"
    return f"{port}: {reason_in_words(error)}"
