"""The card scanner: pure parsers and repeat filter, then the reader thread over real ptys.

Ports are real pseudo-terminals (``os.openpty()``), and ``socat`` for
unplugging and replugging: a pty symlink that disappears when socat is
killed and comes back when it is started again, like a USB adapter's
``/dev/serial/by-id/...`` link.
"""

from __future__ import annotations

import itertools
import os
import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card
from hardware.events import CardScanned, DeviceStatus
from hardware.scanner import (
    CardScanner,
    LineParser,
    PortInUseError,
    Rdm6300Parser,
    RepeatFilter,
    ScannerError,
    make_parser,
    rdm6300_frame,
)
from hardware.tagmap import TagMap

TAG = "0A1B2C3D4E"
OTHER_TAG = "1234567890"
R3 = Card.from_code("R3")


def wait_until(condition, timeout: float = 5.0) -> bool:
    """Poll ``condition`` until true or the (generous) deadline passes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def scans(events) -> list[CardScanned]:
    return [event for event in events if isinstance(event, CardScanned)]


def statuses(events) -> list[tuple[bool, str]]:
    return [(e.connected, e.message) for e in events if isinstance(e, DeviceStatus)]


def bad_checksum(frame: bytes) -> bytes:
    checksum = int(frame[11:13], 16) ^ 0x01
    return frame[:11] + b"%02X" % checksum + frame[13:]


# -- RDM6300 parser ----------------------------------------------------------


def test_rdm6300_valid_frame_gives_its_tag():
    assert Rdm6300Parser().feed(rdm6300_frame(TAG)) == [TAG]


def test_rdm6300_noise_and_boot_banner_before_a_frame_are_skipped():
    banner = b"\r\nRDM6300 v1.2 ready\r\n\x00\xff\x03garbage"
    assert Rdm6300Parser().feed(banner + rdm6300_frame(TAG)) == [TAG]


def test_rdm6300_stray_stx_in_noise_does_not_hide_the_next_frame():
    assert Rdm6300Parser().feed(b"\x02\x02AB\x02" + rdm6300_frame(TAG)) == [TAG]


def test_rdm6300_frame_cut_across_feeds():
    frame = rdm6300_frame(TAG)
    parser = Rdm6300Parser()
    assert [parser.feed(frame[i : i + 1]) for i in range(13)] == [[]] * 13
    assert parser.feed(frame[13:]) == [TAG]


def test_rdm6300_two_frames_in_one_feed():
    stream = rdm6300_frame(TAG) + rdm6300_frame(OTHER_TAG)
    assert Rdm6300Parser().feed(stream) == [TAG, OTHER_TAG]


def test_rdm6300_lower_case_hex_is_reported_upper_case():
    frame = rdm6300_frame("ABCDEF0123")
    assert Rdm6300Parser().feed(frame.lower()) == ["ABCDEF0123"]


@pytest.mark.parametrize(
    "frame",
    [
        bad_checksum(rdm6300_frame(TAG)),
        rdm6300_frame(TAG)[:-1] + b"\x04",  # no ETX
        b"\x02" + b"0A1B2C3D4G" + rdm6300_frame(TAG)[11:],  # not hex
        b"\x02" + b"0A1B2C3D" + rdm6300_frame("0A1B2C3D00")[11:],  # too short
        rdm6300_frame(TAG)[:12] + b"0" + rdm6300_frame(TAG)[12:],  # too long
        b"\x02 A1B2C3D4E" + rdm6300_frame(TAG)[11:],  # space: bytes.fromhex would accept it
    ],
)
def test_rdm6300_bad_frames_are_dropped(frame):
    parser = Rdm6300Parser()
    assert parser.feed(frame) == []
    assert parser.feed(rdm6300_frame(OTHER_TAG)) == [OTHER_TAG]  # and it resyncs


def test_rdm6300_buffer_stays_bounded():
    parser = Rdm6300Parser()
    parser.feed(b"x" * 10_000)
    assert parser.buffered == 0
    parser.feed(b"\x02" + b"A" * 10_000)
    assert parser.buffered <= 13


def test_rdm6300_frame_needs_a_ten_digit_tag():
    with pytest.raises(ScannerError, match="10 hex digits"):
        rdm6300_frame("ABC")
    with pytest.raises(ScannerError, match="10 hex digits"):
        rdm6300_frame("0A1B2C3D4 ")


# -- line parser -------------------------------------------------------------


@pytest.mark.parametrize("ending", [b"\r\n", b"\n", b"\r"])
def test_line_parser_accepts_every_line_ending(ending):
    assert LineParser().feed(b"R3" + ending + b"scanner-42" + ending) == ["R3", "scanner-42"]


def test_line_parser_strips_and_skips_empty_lines():
    assert LineParser().feed(b"\r\n\r\n  R3 \t\r\n\n") == ["R3"]


def test_line_parser_keeps_an_unfinished_line_for_later():
    parser = LineParser()
    assert parser.feed(b"Y") == []
    assert parser.feed(b"5\n") == ["Y5"]


def test_line_parser_drops_unprintable_lines():
    assert LineParser().feed(b"R\x003\n\xffR3\nG2\n") == ["G2"]


def test_line_parser_drops_an_over_long_line_and_keeps_the_next():
    parser = LineParser()
    assert parser.feed(b"A" * 64 + b"\n") == ["A" * 64]
    assert parser.feed(b"B" * 10_000) == []
    assert parser.buffered <= LineParser.MAX_LINE
    assert parser.feed(b"BBB\nR3\n") == ["R3"]


def test_make_parser_refuses_unknown_protocols():
    assert isinstance(make_parser("line"), LineParser)
    with pytest.raises(ScannerError, match=r"'wiegand' is not a serial protocol \(rdm6300, line\)"):
        make_parser("wiegand")
    with pytest.raises(ScannerError, match="'keyboard' is not a serial protocol"):
        make_parser("keyboard")  # an input device: read by hardware.keyboard, not a port


# -- parser fuzzing ----------------------------------------------------------

FRAME_PATTERN = re.compile(rb"\x02([0-9A-Fa-f]{10})([0-9A-Fa-f]{2})\x03")


def valid_frames_in(stream: bytes) -> list[str]:
    """The reference: every complete frame in the stream whose checksum verifies."""
    tags = []
    for match in FRAME_PATTERN.finditer(stream):
        data = bytes.fromhex(match.group(1).decode())
        checksum = 0
        for byte in data:
            checksum ^= byte
        if checksum == int(match.group(2), 16):
            tags.append(match.group(1).decode().upper())
    return tags


def lines_in(stream: bytes) -> list[str]:
    """The reference: terminated lines, stripped, printable, not empty, <= 64 bytes."""
    lines = []
    for raw in re.split(rb"[\r\n]", stream)[:-1]:
        text = raw.strip()
        if len(raw) <= 64 and text and all(0x20 <= c <= 0x7E for c in text):
            lines.append(text.decode())
    return lines


def feed_in_chunks(parser, stream: bytes, cuts: list[int]) -> list[str]:
    results: list[str] = []
    positions = sorted({min(cut, len(stream)) for cut in cuts} | {0, len(stream)})
    for start, end in itertools.pairwise(positions):
        results += parser.feed(stream[start:end])
    return results


tags = st.text(alphabet="0123456789ABCDEF", min_size=10, max_size=10)
noise = st.binary(max_size=40)
cuts = st.lists(st.integers(min_value=0, max_value=2000), max_size=20)


@st.composite
def frame_streams(draw) -> tuple[bytes, list[str]]:
    """Valid frames with noise between them, and the tags they carry."""
    chosen = draw(st.lists(tags, max_size=6))
    parts = [draw(noise.filter(lambda b: 2 not in b))]
    for tag in chosen:
        parts += [rdm6300_frame(tag), draw(noise.filter(lambda b: 2 not in b))]
    return b"".join(parts), chosen


@st.composite
def mutated(draw, stream: bytes) -> bytes:
    """The stream with a few bytes flipped, inserted, deleted, or cut short."""
    data = bytearray(stream)
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        kind = draw(st.sampled_from(["flip", "insert", "delete", "truncate"]))
        at = draw(st.integers(min_value=0, max_value=max(len(data) - 1, 0)))
        if kind == "flip" and data:
            data[at] ^= draw(st.integers(min_value=1, max_value=255))
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=3))
        elif kind == "delete" and data:
            del data[at]
        elif kind == "truncate":
            del data[at:]
    return bytes(data)


@given(st.binary(max_size=600), cuts)
def test_fuzz_rdm6300_random_bytes_yield_only_verified_frames(stream, cut_points):
    found = feed_in_chunks(Rdm6300Parser(), stream, cut_points)
    assert found == valid_frames_in(stream)


@given(frame_streams(), cuts)
def test_fuzz_rdm6300_every_valid_frame_is_found_however_it_is_cut(stream_and_tags, cut_points):
    stream, expected = stream_and_tags
    assert feed_in_chunks(Rdm6300Parser(), stream, cut_points) == expected


@given(st.data(), cuts)
def test_fuzz_rdm6300_mutated_frames_never_give_a_bad_tag(data, cut_points):
    stream, _ = data.draw(frame_streams())
    damaged = data.draw(mutated(stream))
    parser = Rdm6300Parser()
    found = feed_in_chunks(parser, damaged, cut_points)
    assert found == valid_frames_in(damaged)
    assert parser.buffered <= 13


@given(st.binary(max_size=600), cuts)
def test_fuzz_line_parser_random_bytes(stream, cut_points):
    parser = LineParser()
    assert feed_in_chunks(parser, stream, cut_points) == lines_in(stream)
    assert parser.buffered <= LineParser.MAX_LINE


@given(st.lists(st.sampled_from(["R3", "y1", "scanner-42", "", "  M5  "]), max_size=8), st.data())
def test_fuzz_line_parser_mutated_lines(lines, data):
    stream = b"".join(line.encode() + b"\r\n" for line in lines)
    damaged = data.draw(mutated(stream))
    assert feed_in_chunks(LineParser(), damaged, data.draw(cuts)) == lines_in(damaged)


# -- repeat filter -----------------------------------------------------------


def test_repeat_filter_reports_a_resting_card_once():
    seen = RepeatFilter(1.0)
    reads = [seen.accept(TAG, 0.1 * step) for step in range(30)]  # 3 s of repeats
    assert reads == [True] + [False] * 29


def test_repeat_filter_counts_a_read_after_a_gap_again():
    seen = RepeatFilter(1.0)
    assert seen.accept(TAG, 10.0)
    assert not seen.accept(TAG, 10.9)
    assert seen.accept(TAG, 11.9)  # 1.0 s since its *last* read


def test_repeat_filter_is_per_tag():
    seen = RepeatFilter(1.0)
    assert seen.accept(TAG, 0.0)
    assert seen.accept(OTHER_TAG, 0.1)
    assert not seen.accept(TAG, 0.2)


def test_repeat_filter_forgets_old_tags_but_still_filters_recent_ones():
    seen = RepeatFilter(1.0)
    for number in range(1000):
        seen.accept(f"T{number}", float(number))
    assert len(seen._last_read) <= 300
    assert not seen.accept("T999", 999.5)


def test_repeat_filter_window_zero_accepts_everything():
    seen = RepeatFilter(0)
    assert all(seen.accept(TAG, 0.0) for _ in range(3))


def test_repeat_filter_refuses_negative_window():
    with pytest.raises(ScannerError, match="repeat window"):
        RepeatFilter(-1)


@given(st.lists(st.floats(min_value=0, max_value=100, allow_nan=False), max_size=50))
def test_repeat_filter_property_accepts_exactly_reads_after_a_gap(offsets):
    times = sorted(offsets)
    seen = RepeatFilter(1.0)
    accepted = [seen.accept(TAG, now) for now in times]
    expected = [i == 0 or times[i] - times[i - 1] >= 1.0 for i in range(len(times))]
    assert accepted == expected


# -- the reader thread over a pty --------------------------------------------


@pytest.fixture
def start_scanner():
    started: list[CardScanner] = []

    def start(port: str, protocol: str = "rdm6300", **options) -> tuple[CardScanner, list]:
        events: list = []
        options.setdefault("retry_interval", 0.1)
        scanner = CardScanner(port, protocol, events.append, **options)
        scanner.start()
        started.append(scanner)
        return scanner, events

    yield start
    for scanner in started:
        scanner.stop()


def test_valid_frame_gives_one_card_scanned(pty_port, start_scanner):
    master, port = pty_port
    tag_map = TagMap({TAG: R3})
    _, events = start_scanner(port, tag_map=tag_map)
    os.write(master, rdm6300_frame(TAG))
    assert wait_until(lambda: scans(events))
    time.sleep(0.2)
    assert scans(events) == [CardScanned(TAG, R3)]
    assert statuses(events) == [(True, "scanner connected")]


def test_unknown_tag_is_scanned_with_no_card(pty_port, start_scanner):
    master, port = pty_port
    _, events = start_scanner(port)
    os.write(master, rdm6300_frame(OTHER_TAG))
    assert wait_until(lambda: scans(events))
    assert scans(events) == [CardScanned(OTHER_TAG, None)]


def test_noise_and_banner_then_frame(pty_port, start_scanner):
    master, port = pty_port
    _, events = start_scanner(port)
    os.write(master, b"\x00\xffRDM6300 booting...\r\n\x02\x02junk")
    os.write(master, rdm6300_frame(TAG))
    assert wait_until(lambda: scans(events))
    assert scans(events) == [CardScanned(TAG, None)]


def test_frame_split_in_two_writes_with_a_pause(pty_port, start_scanner):
    master, port = pty_port
    _, events = start_scanner(port)
    frame = rdm6300_frame(TAG)
    os.write(master, frame[:6])
    time.sleep(0.3)  # several read timeouts pass in between
    os.write(master, frame[6:])
    assert wait_until(lambda: scans(events))
    assert scans(events) == [CardScanned(TAG, None)]


def test_bad_checksum_frame_is_dropped(pty_port, start_scanner):
    master, port = pty_port
    _, events = start_scanner(port)
    os.write(master, bad_checksum(rdm6300_frame(TAG)) + rdm6300_frame(OTHER_TAG))
    assert wait_until(lambda: scans(events))
    time.sleep(0.2)
    assert scans(events) == [CardScanned(OTHER_TAG, None)]


def test_card_resting_on_the_reader_is_reported_once(pty_port, start_scanner):
    master, port = pty_port
    # A window far longer than the test: even a stalled machine sees one read.
    _, events = start_scanner(port, repeat_window=30.0)
    for _ in range(6):  # a frame every 100 ms for 0.5 s
        os.write(master, rdm6300_frame(TAG))
        time.sleep(0.1)
    assert wait_until(lambda: scans(events))
    time.sleep(0.2)
    assert scans(events) == [CardScanned(TAG, None)]


def test_same_card_again_after_the_window_counts_again(pty_port, start_scanner):
    master, port = pty_port
    _, events = start_scanner(port, repeat_window=0.3)
    os.write(master, rdm6300_frame(TAG))
    assert wait_until(lambda: len(scans(events)) == 1)
    time.sleep(0.6)  # > window since the last read
    os.write(master, rdm6300_frame(TAG))
    assert wait_until(lambda: len(scans(events)) == 2)
    assert scans(events) == [CardScanned(TAG, None)] * 2


def test_line_protocol_reads_card_codes_without_enrolment(pty_port, start_scanner):
    master, port = pty_port
    _, events = start_scanner(port, "line")
    os.write(master, b"R3\r\n")
    assert wait_until(lambda: scans(events))
    assert scans(events) == [CardScanned("R3", R3)]


def test_port_in_use_is_a_clear_error(pty_port, start_scanner):
    master, port = pty_port
    _, events = start_scanner(port)
    second = CardScanner(port, "rdm6300", [].append)
    with pytest.raises(PortInUseError, match=f"serial port {port} is in use"):
        second.start()
    assert not second.running
    os.write(master, rdm6300_frame(TAG))  # the first one still reads
    assert wait_until(lambda: scans(events))


def test_stop_ends_the_thread_promptly(pty_port, start_scanner):
    _, port = pty_port
    scanner, _ = start_scanner(port)
    assert scanner.running
    scanner.stop()
    assert not scanner.running


def test_unknown_protocol_is_refused_before_any_thread():
    with pytest.raises(ScannerError, match="not a serial protocol"):
        CardScanner("/dev/null", "morse", [].append)  # type: ignore[arg-type]


# -- unplug and replug with socat --------------------------------------------


def test_unplug_and_replug(cable, start_scanner):
    cable.plug()
    _, events = start_scanner(cable.port, retry_interval=0.1)
    cable.write(rdm6300_frame(TAG))
    assert wait_until(lambda: scans(events))

    cable.unplug()
    assert wait_until(lambda: len(statuses(events)) == 2)
    connected, message = statuses(events)[1]
    assert not connected
    assert message.startswith("scanner disconnected")

    time.sleep(0.5)  # several failed retries: still one notice
    assert len(statuses(events)) == 2

    cable.plug()
    assert wait_until(lambda: len(statuses(events)) == 3)
    assert statuses(events)[2] == (True, "scanner connected")
    cable.write(rdm6300_frame(OTHER_TAG))
    assert wait_until(lambda: len(scans(events)) == 2)
    assert scans(events) == [CardScanned(TAG, None), CardScanned(OTHER_TAG, None)]
    assert events.index(CardScanned(OTHER_TAG, None)) > events.index(
        DeviceStatus("scanner", True, "scanner connected"), 1
    )


def test_port_missing_at_start_is_reported_then_picked_up(cable, start_scanner):
    _, events = start_scanner(cable.port, retry_interval=0.5)
    assert statuses(events) == [(False, f"scanner disconnected: {cable.port}: no such port")]
    time.sleep(1.2)  # a few retries fail: no repeated notice
    assert len(statuses(events)) == 1

    cable.plug()
    assert wait_until(lambda: len(statuses(events)) == 2)
    assert statuses(events)[1] == (True, "scanner connected")
    cable.write(rdm6300_frame(TAG))
    assert wait_until(lambda: scans(events))
    assert scans(events) == [CardScanned(TAG, None)]


def test_retry_interval_must_be_at_most_a_second():
    with pytest.raises(ScannerError, match="retry interval"):
        CardScanner("/dev/null", "rdm6300", [].append, retry_interval=5.0)


@settings(deadline=None)
@given(st.lists(tags, min_size=1, max_size=5, unique=True))
def test_rdm6300_frame_round_trips_through_the_parser(tag_list):
    stream = b"".join(rdm6300_frame(tag) for tag in tag_list)
    assert Rdm6300Parser().feed(stream) == tag_list
