"""A USB keyboard-type card reader (issue 11): input_event bytes in, card reads out.

The kernel here has no uinput, so no virtual input device can be made: the
decoder is fed ``struct input_event`` records exactly as the kernel writes
them for a USB HID keyboard (an ``EV_MSC``/``MSC_SCAN``, the ``EV_KEY``, an
``EV_SYN`` per key change; 24 bytes each on a 64-bit kernel), through a real
pipe into the real reading thread. Only the opening and grabbing of the
device (python-evdev) is left out of those tests; it is tried on things that
are not input devices.
"""

from __future__ import annotations

import errno
import os
import queue
import struct
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import Card
from hardware.events import CardScanned, DeviceStatus, InputEvent
from hardware.keyboard import (
    EV_KEY,
    EV_MSC,
    EV_SYN,
    EVENT_SIZE,
    KEY_CHARACTERS,
    KEY_ENTER,
    KEY_KPENTER,
    KEY_LEFTSHIFT,
    KEY_TAB,
    DeviceGrabbedError,
    InputDeviceHandle,
    KeyboardReader,
    KeyLineDecoder,
    NotAnInputDeviceError,
    input_event,
    open_input_device,
)
from hardware.scanner import ScannerError
from hardware.tagmap import TagMap

MSC_SCAN, SYN_REPORT = 4, 0
CODE_OF = {plain: code for code, (plain, _) in KEY_CHARACTERS.items() if not 71 <= code <= 83}
HID_USAGE = 0x70004  # any scan code: the decoder ignores EV_MSC


class Clock:
    """The timestamps of a recording: a reader types a key every 8 ms (one USB poll)."""

    def __init__(self) -> None:
        self.micros = 1_732_400_000 * 1_000_000

    def event(self, kind: int, code: int, value: int) -> bytes:
        self.micros += 4_000
        seconds, micros = divmod(self.micros, 1_000_000)
        return input_event(kind, code, value, seconds, micros)


def key_change(clock: Clock, code: int, value: int) -> bytes:
    """One key change as a USB HID keyboard reports it: scan code, key, report end."""
    return (
        clock.event(EV_MSC, MSC_SCAN, HID_USAGE)
        + clock.event(EV_KEY, code, value)
        + clock.event(EV_SYN, SYN_REPORT, 0)
    )


def typed(text: str, end: int = KEY_ENTER, clock: Clock | None = None) -> bytes:
    """What the kernel delivers while a reader types ``text`` then ``end``."""
    clock = clock or Clock()
    out = b""
    for char in text:
        shifted = char.isupper()
        if shifted:
            out += key_change(clock, KEY_LEFTSHIFT, 1)
        code = CODE_OF[char.lower()]
        out += key_change(clock, code, 1) + key_change(clock, code, 0)
        if shifted:
            out += key_change(clock, KEY_LEFTSHIFT, 0)
    return out + key_change(clock, end, 1) + key_change(clock, end, 0)


# -- the decoder --------------------------------------------------------------


def test_decoder_records_are_the_kernels_struct_input_event():
    """24 bytes on a 64-bit kernel: timeval (two longs), type, code, value."""
    assert struct.calcsize("llHHi") == EVENT_SIZE
    record = input_event(EV_KEY, KEY_ENTER, 1, 1732400000, 123456)
    assert struct.unpack("llHHi", record) == (1732400000, 123456, EV_KEY, KEY_ENTER, 1)


def test_decoder_a_125khz_reader_typing_a_tag_gives_the_tag():
    assert KeyLineDecoder().feed(typed("0012345678")) == ["0012345678"]


def test_decoder_shift_gives_capitals_a_barcode_card_code():
    recording = typed("R3") + typed("Y5", end=KEY_TAB) + typed("0A1B2C3D4E", end=KEY_KPENTER)
    assert KeyLineDecoder().feed(recording) == ["R3", "Y5", "0A1B2C3D4E"]


def test_decoder_the_key_codes_are_the_kernels():
    """The table is <linux/input-event-codes.h>, as python-evdev knows it."""
    from evdev import ecodes

    for char in "0123456789abcdefghijklmnopqrstuvwxyz":
        assert CODE_OF[char] == getattr(ecodes, f"KEY_{char.upper()}"), char
    assert (KEY_ENTER, KEY_KPENTER, KEY_TAB, KEY_LEFTSHIFT) == (
        ecodes.KEY_ENTER,
        ecodes.KEY_KPENTER,
        ecodes.KEY_TAB,
        ecodes.KEY_LEFTSHIFT,
    )
    assert (EV_SYN, EV_KEY, EV_MSC) == (ecodes.EV_SYN, ecodes.EV_KEY, ecodes.EV_MSC)
    keypad = {getattr(ecodes, f"KEY_KP{digit}"): digit for digit in "0123456789"}
    assert all(KEY_CHARACTERS[code] == (digit, digit) for code, digit in keypad.items())


def test_decoder_auto_repeat_releases_and_unknown_keys_add_nothing():
    clock = Clock()
    one = CODE_OF["1"]
    recording = (
        key_change(clock, one, 1)
        + key_change(clock, one, 2)  # auto-repeat: not a second "1"
        + key_change(clock, one, 0)
        + key_change(clock, 58, 1)  # caps lock: no character
        + key_change(clock, KEY_ENTER, 1)
    )
    assert KeyLineDecoder().feed(recording) == ["1"]


def test_decoder_empty_and_too_long_lines_are_dropped():
    decoder = KeyLineDecoder()
    assert decoder.feed(typed("") + typed("7" * 65) + typed("7" * 64)) == ["7" * 64]


@given(st.text(alphabet="0123456789abcdefghijklmnopqrstuvwxyzABCDEFXYZ", min_size=1, max_size=64))
def test_decoder_property_any_typed_line_comes_back(text):
    assert KeyLineDecoder().feed(typed(text)) == [text]


@given(
    st.lists(st.text(alphabet="0123456789ABCDEFrgbwy", min_size=1, max_size=12), max_size=5),
    st.lists(st.integers(min_value=0, max_value=2000), max_size=8),
)
def test_decoder_property_records_cut_anywhere_give_the_same_lines(lines, cuts):
    recording = b"".join(typed(line) for line in lines)
    decoder = KeyLineDecoder()
    got: list[str] = []
    start = 0
    for cut in sorted(min(cut, len(recording)) for cut in cuts):
        got += decoder.feed(recording[start:cut])
        start = cut
        assert decoder.buffered < EVENT_SIZE
    got += decoder.feed(recording[start:])
    assert got == lines and decoder.buffered == 0


@given(st.binary(max_size=2000))
def test_decoder_property_garbage_never_raises_and_buffers_less_than_a_record(data):
    decoder = KeyLineDecoder()
    lines = decoder.feed(data)
    assert all(len(line) <= KeyLineDecoder.MAX_LINE for line in lines)
    assert decoder.buffered < EVENT_SIZE


# -- the reading thread, on a real pipe ---------------------------------------


class PipeDevice:
    """Stands for the device file: each open is a new pipe; closing the writer unplugs."""

    def __init__(self) -> None:
        self.write_fd: int | None = None
        self.plugged = True
        self.opened = 0

    def open(self, path: str) -> InputDeviceHandle:
        if not self.plugged:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)
        read_fd, self.write_fd = os.pipe()
        self.opened += 1
        return InputDeviceHandle(read_fd, lambda: os.close(read_fd))

    def write(self, data: bytes) -> None:
        assert self.write_fd is not None
        os.write(self.write_fd, data)

    def unplug(self) -> None:
        self.plugged = False
        assert self.write_fd is not None
        os.close(self.write_fd)
        self.write_fd = None

    def close(self) -> None:
        if self.write_fd is not None:
            os.close(self.write_fd)


@pytest.fixture
def pipe_device() -> Iterator[PipeDevice]:
    device = PipeDevice()
    yield device
    device.close()


def next_event(events: queue.Queue[InputEvent]) -> InputEvent:
    return events.get(timeout=5)


def test_reader_reads_tags_to_cards_with_its_role_through_a_pipe(pipe_device):
    events: queue.Queue[InputEvent] = queue.Queue()
    tags = TagMap({"0012345678": Card.from_code("R1")})
    reader = KeyboardReader(
        "/dev/input/by-id/usb-reader-event-kbd",
        events.put,
        tag_map=tags,
        role="discard",
        name="scanner discard",
        open_device=pipe_device.open,
    )
    with reader:
        assert next_event(events) == DeviceStatus(
            "scanner discard", True, "scanner discard connected"
        )
        recording = typed("0012345678") + typed("R3") + typed("0099999999")
        for start in range(0, len(recording), 50):  # in pieces, as reads come
            pipe_device.write(recording[start : start + 50])
        assert next_event(events) == CardScanned("0012345678", Card.from_code("R1"), "discard")
        assert next_event(events) == CardScanned("R3", Card.from_code("R3"), "discard")
        assert next_event(events) == CardScanned("0099999999", None, "discard")
    assert not reader.running


def test_reader_a_card_read_again_at_once_is_one_read(pipe_device):
    events: queue.Queue[InputEvent] = queue.Queue()
    with KeyboardReader("kbd", events.put, open_device=pipe_device.open):
        next_event(events)  # connected
        pipe_device.write(typed("R3") * 3 + typed("Y3"))
        assert next_event(events) == CardScanned("R3", Card.from_code("R3"), "any")
        assert next_event(events) == CardScanned("Y3", Card.from_code("Y3"), "any")


def test_reader_survives_unplug_and_replug(pipe_device):
    events: queue.Queue[InputEvent] = queue.Queue()
    reader = KeyboardReader(
        "/dev/input/by-id/usb-reader-event-kbd",
        events.put,
        open_device=pipe_device.open,
        retry_interval=0.05,
    )
    with reader:
        assert next_event(events).connected  # type: ignore[union-attr]
        pipe_device.write(typed("R1")[:100])  # unplugged in the middle of a read
        pipe_device.unplug()
        gone = next_event(events)
        assert gone == DeviceStatus(
            "scanner",
            False,
            "scanner disconnected: /dev/input/by-id/usb-reader-event-kbd: device disconnected",
        )
        pipe_device.plugged = True
        assert next_event(events) == DeviceStatus("scanner", True, "scanner connected")
        pipe_device.write(typed("B2"))
        assert next_event(events) == CardScanned("B2", Card.from_code("B2"), "any")
    assert pipe_device.opened >= 2


def test_reader_missing_at_start_is_reported_then_read_when_plugged(pipe_device):
    events: queue.Queue[InputEvent] = queue.Queue()
    pipe_device.plugged = False
    with KeyboardReader("/dev/input/nothing", events.put, open_device=pipe_device.open,
                        retry_interval=0.05):  # fmt: skip
        status = next_event(events)
        assert status == DeviceStatus(
            "scanner", False, "scanner disconnected: /dev/input/nothing: no such device"
        )
        pipe_device.plugged = True
        assert next_event(events) == DeviceStatus("scanner", True, "scanner connected")


# -- the thin layer: opening and grabbing with python-evdev --------------------


@pytest.mark.parametrize("path", ["/dev/null", __file__])
def test_open_something_not_an_input_device_is_one_clear_line(path):
    with pytest.raises(NotAnInputDeviceError) as raised:
        open_input_device(path)
    message = str(raised.value)
    assert message == (
        f"{path} is not an input device (a keyboard reader is /dev/input/by-id/usb-...-event-kbd)"
    )
    assert "\n" not in message
    reader = KeyboardReader(path, [].append)
    with pytest.raises(NotAnInputDeviceError):
        reader.start()
    assert not reader.running


def test_open_a_missing_device_is_the_oserror_the_reader_retries():
    with pytest.raises(FileNotFoundError):
        open_input_device("/dev/input/by-id/no-such-reader-event-kbd")


def test_errors_of_the_keyboard_reader_are_scanner_errors_and_builtins():
    assert issubclass(NotAnInputDeviceError, ScannerError) and issubclass(
        NotAnInputDeviceError, ValueError
    )
    assert issubclass(DeviceGrabbedError, ScannerError) and issubclass(DeviceGrabbedError, OSError)
