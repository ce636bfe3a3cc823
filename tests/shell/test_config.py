"""The TOML configuration: defaults, every section, and errors with their line numbers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.variants import EVERY_VARIANT

from companion.shell.config import (
    DEFAULT_CONFIG_TOML,
    Config,
    ConfigError,
    GameConfig,
    GpioConfig,
    ScannerConfig,
    ScreenConfig,
    WebConfig,
    load_config,
    parse_config,
)
from engine.options import OPTION_NAMES
from hardware.buttons import PanelPins


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_no_file_anywhere_gives_the_built_in_defaults(tmp_path):
    config = load_config(None, default_path=tmp_path / "absent.toml")
    assert config == Config()
    assert config.source is None
    assert config.scanner is None


def test_default_path_is_read_when_no_path_is_given(tmp_path):
    default = write(tmp_path, "[game]\nplayers = 4\n")
    config = load_config(None, default_path=default)
    assert config.game.players == 4
    assert config.source == default


def test_explicit_path_wins_over_the_default_path(tmp_path):
    default = tmp_path / "default.toml"
    default.write_text("[game]\nplayers = 4\n")
    chosen = tmp_path / "chosen.toml"
    chosen.write_text("[game]\nplayers = 5\n")
    assert load_config(chosen, default_path=default).game.players == 5


def test_explicit_path_that_does_not_exist_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match=r"absent\.toml: no such configuration file"):
        load_config(tmp_path / "absent.toml", default_path=tmp_path / "x.toml")


def test_default_config_text_loads_to_the_defaults():
    """The file the installer writes is the built-in defaults, but for the page for
    phones: on in the appliance's file, off without a file (a desktop)."""
    assert parse_config(DEFAULT_CONFIG_TOML) == Config(web=WebConfig(enabled=True))
    assert Config().web.enabled is False


def test_web_section_problems_are_named_with_their_line():
    """[web]: a wrong key or value is reported with its file, line and key."""
    text = (
        '[screen]\nlanguage = "en"\n\n[web]\nenabled = "yes"\nport = 80\nbind = "lan"\nportt = 1\n'
    )
    with pytest.raises(ConfigError) as caught:
        parse_config(text, source="config.toml")
    assert caught.value.problems == [
        "config.toml:8: [web] portt: unknown key (known keys: enabled, port, bind)",
        "config.toml:5: [web] enabled: 'yes' must be true or false",
        "config.toml:6: [web] port: 80 is not a TCP port (1024-65535)",
        "config.toml:7: [web] bind: 'lan' is not an IP address like 192.168.1.20"
        ' (or "": every address)',
    ]
    web = parse_config('[web]\nport = 8765\nbind = "127.0.0.1"\n').web
    assert web == WebConfig(enabled=False, port=8765, bind="127.0.0.1")


def test_default_config_text_mentions_every_key():
    """Hand memory is said by ``hints`` (its third value): the older key is not written."""
    assert not re.search(r"^#? *hand_memory = ", DEFAULT_CONFIG_TOML, re.MULTILINE)
    for key in [
        "display", "size", "fullscreen", "language",
        "players", "hints", *(name for name in OPTION_NAMES if name != "hand_memory"),
        "pin_factory", "hint", "play", "discard", "undo", "next", "ok", "debounce",
        "long_press", "encoder_a", "encoder_b", "encoder_push", "led_bar", "fuse_leds",
        "buzzer", "port", "protocol", "baud", "repeat_window", "tag_map", "role", "device",
        "enabled", "bind",
    ]:  # fmt: skip
        assert re.search(rf"^#? *{key} = ", DEFAULT_CONFIG_TOML, re.MULTILINE), key


def test_uncommenting_every_example_in_the_default_text_is_a_valid_config():
    text = re.sub(r"^# (\[scanner\]|\w+ = .*)$", r"\1", DEFAULT_CONFIG_TOML, flags=re.MULTILINE)
    config = parse_config(text)
    assert config.gpio.pins.encoder_a == 17
    assert len(config.gpio.pins.led_bar) == 8
    assert config.scanner == ScannerConfig(
        port="/dev/serial0", tag_map=Path("/var/lib/hanabi-companion/tags.json")
    )


def test_a_full_config_is_read_into_typed_values():
    config = parse_config(
        """
[screen]
display = "fb:/dev/fb1"
size = "800x480"
fullscreen = true
language = "fr"

[game]
players = 5
multicolor = "full"
wild_multicolor = true
crowning_piece = true
timed_display = true
empty_clues = true
strikeout_keeps_score = true

[gpio]
pin_factory = "mock"
hint = 4
play = 12
discard = 16
undo = 20
next = 23
ok = 24
debounce = 0.02
long_press = 1
encoder_a = 17
encoder_b = 27
encoder_push = 22
led_bar = [0, 1, 5, 6, 13, 19, 26, 21]
fuse_leds = [9, 10, 11]
buzzer = 25

[scanner]
port = "/dev/ttyUSB0"
protocol = "line"
baud = 115200
repeat_window = 0.5
tag_map = "/srv/tags.json"
"""
    )
    assert config.screen == ScreenConfig("fb:/dev/fb1", (800, 480), True, "fr")
    assert config.game == GameConfig(
        players=5,
        options=EVERY_VARIANT,
    )
    assert config.gpio == GpioConfig(
        pin_factory="mock",
        pins=PanelPins(
            hint=4,
            play=12,
            discard=16,
            undo=20,
            next=23,
            ok=24,
            encoder_a=17,
            encoder_b=27,
            encoder_push=22,
            led_bar=(0, 1, 5, 6, 13, 19, 26, 21),
            fuse_leds=(9, 10, 11),
            buzzer=25,
        ),
        debounce=0.02,
        long_press=1.0,
    )
    assert config.scanner == ScannerConfig(
        "/dev/ttyUSB0", "line", 115200, 0.5, Path("/srv/tags.json")
    )


def test_config_values_are_frozen():
    config = Config()
    with pytest.raises(AttributeError):
        config.game.players = 4  # type: ignore[misc]


def test_scanner_section_absent_means_no_scanner_and_present_needs_a_port():
    assert parse_config("[game]\n").scanner is None
    assert parse_config('[scanner]\nport = "/dev/serial0"\n').scanner == ScannerConfig(
        "/dev/serial0"
    )
    with pytest.raises(ConfigError, match=r"^cfg:2: \[scanner\]: needs port"):
        parse_config("# scanner\n[scanner]\nbaud = 9600\n", source="cfg")


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("[gpio]\nhint = 99\n", "config.toml:2: [gpio] hint: 99 is not a BCM pin (0-27)"),
        (
            "# panel\n\n[gpio]\nplay = 6\nhint = 99\n",
            "config.toml:5: [gpio] hint: 99 is not a BCM pin (0-27)",
        ),
        ('[gpio]\nhint = "5"\n', "config.toml:2: [gpio] hint: '5' is not a BCM pin (0-27)"),
        ("[gpio]\nhint = true\n", "config.toml:2: [gpio] hint: True is not a BCM pin (0-27)"),
        (
            "[gpio]\nhint = 5\nok = 5\n",
            "config.toml:3: [gpio] ok: pin 5 is already used by hint",
        ),
        (
            "[gpio]\nbuzzer = 13\n",
            "config.toml:2: [gpio] buzzer: pin 13 is already used by discard",
        ),
        (
            "[gpio]\nled_bar = [1, 2, 3]\n",
            "config.toml:2: [gpio] led_bar: [1, 2, 3] must be a list of 8 BCM pins",
        ),
        (
            "[gpio]\nencoder_a = 17\n",
            "config.toml:2: [gpio] encoder_a: give both encoder_a and encoder_b, or neither",
        ),
        (
            '[gpio]\npin_factory = "pigpio"\n',
            "config.toml:2: [gpio] pin_factory: 'pigpio' is not one of "
            "'auto', 'lgpio', 'mock', 'none'",
        ),
        (
            "[gpio]\ndebounce = 0.5\nlong_press = 0.4\n",
            "config.toml:3: [gpio] long_press: 0.4 must be longer than debounce",
        ),
        (
            "[gpio]\nhnt = 5\n",
            "config.toml:2: [gpio] hnt: unknown key (known keys: pin_factory, hint,",
        ),
        ("[sound]\nvolume = 3\n", "config.toml:1: [sound]: unknown section"),
        ("volume = 3\n", "config.toml:1: [volume]: unknown section"),
        ("[game]\nplayers = 6\n", "config.toml:2: [game] players: 6 is not a player count (2-5)"),
        (
            '[game]\nmulticolor = "half"\n',
            "config.toml:2: [game] multicolor: 'half' is not one of 'none', 'short', 'full'",
        ),
        (
            '[game]\nempty_clues = "yes"\n',
            "config.toml:2: [game] empty_clues: 'yes' must be true or false",
        ),
        (
            '[screen]\nsize = "big"\n',
            "config.toml:2: [screen] size: 'big' must be \"WIDTHxHEIGHT\"",
        ),
        (
            '[screen]\ndisplay = "hdmi"\n',
            'config.toml:2: [screen] display: \'hdmi\' is not "auto", "window"',
        ),
        ('[screen]\nlanguage = "xx"\n', "config.toml:2: [screen] language: 'xx' is not one of"),
        (
            '[scanner]\nport = "/dev/serial0"\nprotocol = "wiegand"\n',
            "config.toml:3: [scanner] protocol: 'wiegand' is not one of 'rdm6300', 'line'",
        ),
        (
            '[scanner]\nport = "/dev/serial0"\nbaud = 9601\n',
            "config.toml:3: [scanner] baud: 9601 is not a baud rate",
        ),
        (
            '[scanner]\nport = "/dev/serial0"\nrepeat_window = -1\n',
            "config.toml:3: [scanner] repeat_window: -1 must be a number of seconds",
        ),
        ("[scanner]\nport = 3\n", "config.toml:2: [scanner] port: 3 must be a device path"),
    ],
)
def test_wrong_values_are_reported_with_file_line_and_key(tmp_path, text, error):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).startswith(f"{tmp_path}/{error}")


def test_same_key_name_in_another_section_gets_its_own_line():
    text = '[scanner]\nport = "/dev/serial0"\n\n[gpio]\nhint = 5\nport = 1\n'
    with pytest.raises(ConfigError, match=r"^c:6: \[gpio\] port: unknown key"):
        parse_config(text, source="c")


def test_every_problem_is_reported_at_once():
    text = "[game]\nplayers = 9\n[gpio]\nhint = 99\nok = -1\n"
    with pytest.raises(ConfigError) as caught:
        parse_config(text, source="c")
    assert caught.value.problems == [
        "c:2: [game] players: 9 is not a player count (2-5)",
        "c:4: [gpio] hint: 99 is not a BCM pin (0-27)",
        "c:5: [gpio] ok: -1 is not a BCM pin (0-27)",
    ]


def test_invalid_toml_reports_tomllibs_line_and_column(tmp_path):
    path = write(tmp_path, "[game]\nplayers = \n")
    with pytest.raises(ConfigError, match=r"config.toml: invalid TOML: .*line 2, column 11"):
        load_config(path)


def test_config_error_is_a_value_error():
    assert issubclass(ConfigError, ValueError)


def test_quoted_keys_are_found_too():
    with pytest.raises(ConfigError, match=r"^c:3: \[gpio\] hint"):
        parse_config('[gpio]\nplay = 6\n"hint" = 99\n', source="c")


def test_binary_file_is_a_clear_error(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ConfigError, match="not a text file"):
        load_config(path)


# -- several card readers, each with a role (issue 11) ---------------------------

TWO_PADS = """\
[screen]
language = "en"

[[scanner]]
port = "/dev/serial/by-id/usb-FTDI-if00-port0"
protocol = "rdm6300"
role = "play"

[[scanner]]
device = "/dev/input/by-id/usb-Sycreader-event-kbd"
protocol = "keyboard"
role = "discard"
"""


def test_readers_an_array_of_scanner_tables_is_several_readers_in_file_order():
    config = parse_config(TWO_PADS)
    assert config.scanners == (
        ScannerConfig(port="/dev/serial/by-id/usb-FTDI-if00-port0", role="play"),
        ScannerConfig(
            device="/dev/input/by-id/usb-Sycreader-event-kbd", protocol="keyboard", role="discard"
        ),
    )
    assert [reader.is_keyboard for reader in config.scanners] == [False, True]
    assert config.scanner == config.scanners[0]


def test_readers_a_single_scanner_section_is_one_reader_of_role_any_as_before():
    config = parse_config('[scanner]\nport = "/dev/serial0"\nprotocol = "line"\n')
    assert config.scanners == (ScannerConfig("/dev/serial0", "line"),)
    assert config.scanner is not None and config.scanner.role == "any"
    assert config.scanner.path == "/dev/serial0"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (
            '[[scanner]]\nport = "/dev/ttyUSB0"\n[[scanner]]\nport = "/dev/ttyUSB0"\n',
            "cfg:4: [[scanner]] #2 port: /dev/ttyUSB0 is already the reader of [[scanner]] #1",
        ),
        (
            '[[scanner]]\nprotocol = "keyboard"\ndevice = "/dev/input/event3"\n'
            '[[scanner]]\nprotocol = "keyboard"\ndevice = "/dev/input/event3"\n',
            "cfg:6: [[scanner]] #2 device: /dev/input/event3 is already the reader of "
            "[[scanner]] #1",
        ),
        (
            '[[scanner]]\nport = "/dev/serial0"\nrole = "hint"\n',
            "cfg:3: [[scanner]] #1 role: 'hint' is not one of 'any', 'play', 'discard'",
        ),
        (
            '[scanner]\nport = "/dev/serial0"\nrole = "fireworks"\n',
            "cfg:3: [scanner] role: 'fireworks' is not one of 'any', 'play', 'discard'",
        ),
        (
            '[[scanner]]\nprotocol = "line"\ndevice = "/dev/input/event3"\n',
            'cfg:3: [[scanner]] #1 device: device is for protocol = "keyboard"; '
            "a line reader needs port =",
        ),
        (
            '[scanner]\nprotocol = "keyboard"\nport = "/dev/ttyUSB0"\n',
            "cfg:3: [scanner] port: a keyboard reader is an input device: "
            'give device = "/dev/input/..."',
        ),
        (
            '[scanner]\nprotocol = "keyboard"\ndevice = "/dev/input/event3"\nbaud = 9600\n',
            "cfg:4: [scanner] baud: a keyboard reader has no baud rate (a serial setting)",
        ),
        (
            "".join(f'[[scanner]]\nport = "/dev/ttyUSB{n}"\n' for n in range(4)),
            "cfg:1: [scanner]: 4 readers: a table has 1 to 3",
        ),
        (
            '[[scanner]]\nport = "/dev/serial0"\ncolour = "red"\n',
            "cfg:3: [[scanner]] #1 colour: unknown key",
        ),
        (
            '[[scanner]]\nprotocol = "keyboard"\n',
            'cfg:1: [[scanner]] #1: needs device = "/dev/..."',
        ),
    ],
)
def test_readers_wrong_reader_tables_are_refused_with_file_and_line(text, error):
    """Two readers on one path, an unknown role, device with a serial protocol..."""
    with pytest.raises(ConfigError) as raised:
        parse_config(text, source="cfg")
    assert any(problem.startswith(error) for problem in raised.value.problems), (
        raised.value.problems
    )
