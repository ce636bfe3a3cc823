"""End to end: the real app loop driven only by the button panel and the card scanner.

Everything that runs at the table runs here: the real :class:`~companion.shell.app.App`
loop on SDL's dummy video driver, the real SQLite storage, the real
:class:`~hardware.buttons.ButtonPanel` on gpiozero's own ``MockFactory`` (passed
per device: the process-wide ``Device.pin_factory`` is never set), and the real
:class:`~hardware.scanner.CardScanner` reading RDM6300 frames from a real
pseudo-terminal (and from ``socat`` for the unplug test). Nothing of ours is
mocked. The loop is pumped with ``app.step(50)`` until the expected state
arrives, with a generous deadline: no test asserts a duration.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.core import i18n
from companion.core.controller import HINT_LEVEL_ROW, SETUP_ROWS, HintLevel, Screen, SetupDraft
from companion.panel.display import open_display
from companion.shell.app import App, resume
from companion.storage import Storage, end_line
from engine.actions import Action, Discard, Hint, Play
from engine.cards import Card, Color
from engine.log import format_log, parse_log, replay_log
from engine.outcome import EndReason, Outcome
from hardware.buttons import BEEP_PATTERNS, ButtonPanel, PanelPins
from hardware.scanner import CardScanner, rdm6300_frame
from hardware.tagmap import TagMap

REPO = Path(__file__).resolve().parents[2]

# The default button pins of PanelPins, plus the LEDs and the buzzer.
HINT, PLAY, DISCARD, UNDO, NEXT, OK = 5, 6, 13, 19, 26, 21
LED_BAR = (4, 12, 16, 18, 20, 23, 24, 25)
FUSE_LEDS = (9, 10, 11)
BUZZER = 7
PINS = PanelPins(led_bar=LED_BAR, fuse_leds=FUSE_LEDS, buzzer=BUZZER)
DEBOUNCE = 0.05
LONG_PRESS = 0.4
#: Between two presses of the same button, more than the debounce window.
PRESS_GAP = 3 * DEBOUNCE
DEADLINE = 5.0

# RDM6300 tags (10 hex digits) enrolled to cards, and one that is not.
CARDS = {
    "R1": "0100000001",
    "R2": "0100000002",
    "R3": "0100000003",
    "Y3": "0200000003",
    "B3": "0400000003",
    "B4": "0400000004",
    "G1": "0300000001",
    "W1": "0500000001",
}
UNKNOWN_TAG = "0FEEDBEEF0"


def card(code: str) -> Card:
    return Card.from_code(code)


def tag_map() -> TagMap:
    return TagMap({tag: card(code) for code, tag in CARDS.items()})


# -- the table: app, panel and scanner, wired as companion.shell.commands.run wires them


def spaceless(text: str) -> str:
    return text.replace(" ", "")


class Table:
    """The companion at the table: the real app loop, buttons, LEDs, buzzer and scanner."""

    def __init__(
        self,
        data_dir: Path,
        port: str | None,
        write: Callable[[bytes], None] | None = None,
        *,
        hint_content: bool = False,
    ) -> None:
        """``hint_content``: a hint records its colour or rank (else one press, counted)."""
        self.data_dir = data_dir
        self.port = port
        self._write = write
        self.presses = 0
        self._last_edge: dict[int, float] = {}
        self.factory = MockFactory()
        self.storage: Storage | None = None
        self.display = None
        self.panel: ButtonPanel | None = None
        self.scanner: CardScanner | None = None
        try:
            self.storage = Storage.open(data_dir)
            controller, game_id = resume(
                self.storage, SetupDraft(players=2, names=["Ann", "Bo"], hint_content=hint_content)
            )
            if self.storage.notice:  # as companion.shell.commands.run does
                controller.notice = self.storage.notice
            self.display = open_display("dummy", (480, 320))
            self.app = App(self.storage, self.display, controller, game_id)
            self.panel = ButtonPanel(
                PINS,
                self.app.inbox.emit,
                pin_factory=self.factory,
                debounce=DEBOUNCE,
                long_press=LONG_PRESS,
            )
            self.app.on_tokens = self.panel.show_tokens
            self.app.on_beep = self.panel.beep
            if port is not None:  # None: no scanner configured
                self.scanner = CardScanner(
                    port, "rdm6300", self.app.inbox.emit, tag_map=tag_map(), retry_interval=0.1
                )
                self.scanner.start()
        except BaseException:
            self.close()
            raise

    @property
    def controller(self):
        return self.app.controller

    def close(self) -> None:
        """Stop the scanner, release the pins, close the display and the storage (idempotent)."""
        if self.scanner is not None:
            self.scanner.stop()
            self.scanner = None
        if self.panel is not None:
            self.panel.close()
            self.panel = None
        if self.display is not None:
            self.display.close()
            self.display = None
        if self.storage is not None:
            self.storage.close()
            self.storage = None

    # the loop

    def pump_until(self, condition: Callable[[], bool], what: str) -> None:
        """Turn the app loop until ``condition`` holds; fail after a generous deadline."""
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            self.app.step(50)
            if condition():
                return
        self.app.step(0)
        assert condition(), f"never happened: {what} (screen {self.controller.screen})"

    def pump_for(self, seconds: float) -> None:
        """Turn the loop for a while (to let something that must not happen show up)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.app.step(20)

    # the hardware

    def _edge_gap(self, pin: int) -> None:
        wait = self._last_edge.get(pin, -1e9) + PRESS_GAP - time.monotonic()
        if wait > 0:
            time.sleep(wait)

    def press(self, pin: int) -> None:
        """A short, clean press of a button (well apart from its previous one)."""
        self._edge_gap(pin)
        button = self.factory.pin(pin)
        button.drive_low()
        button.drive_high()
        self._last_edge[pin] = time.monotonic()
        self.presses += 1

    def bouncy_press(self, pin: int) -> None:
        """A worn contact: low, high, low within microseconds, then released."""
        self._edge_gap(pin)
        button = self.factory.pin(pin)
        button.drive_low()
        button.drive_high()
        button.drive_low()
        button.drive_high()
        self._last_edge[pin] = time.monotonic()
        self.presses += 1

    def hold(self, pin: int, until: Callable[[], bool], what: str) -> None:
        """Hold a button down (the loop running) until ``until`` holds, then release it."""
        self._edge_gap(pin)
        button = self.factory.pin(pin)
        button.drive_low()
        try:
            self.pump_until(until, what)
        finally:
            button.drive_high()
            self._last_edge[pin] = time.monotonic()
            self.presses += 1

    def scan(self, tag: str) -> None:
        """A card held to the reader once: one RDM6300 frame."""
        assert self._write is not None, "no scanner at this table"
        self._write(rdm6300_frame(tag))

    def pin_states(self, pin: int) -> list[bool]:
        return [state.state for state in self.factory.pin(pin).states]

    # what is stored and shown

    def stored(self) -> list[Action]:
        assert self.storage is not None and self.app.game_id is not None
        return self.storage.load(self.app.game_id).actions

    def texts(self) -> list[str]:
        return [drawn.text for drawn in self.app.renderer.texts]

    def said(self) -> str:
        """The frame's lines joined without their spaces: a sentence wrapped on two
        lines (a long path broken anywhere) reads whole; compare with :func:`spaceless`."""
        return "".join(self.texts()).replace(" ", "")

    def start_game(self) -> None:
        """The set-up screen's focus starts on "start": one OK press starts the game."""
        assert self.controller.screen is Screen.SETUP
        self.press(OK)
        self.pump_until(
            lambda: self.app.game_id is not None and self.controller.screen is Screen.GAME,
            "the game starts",
        )
        assert self.stored() == []

    def record(self, do: Callable[[], None], action: Action, what: str) -> None:
        """Do something at the table; wait until exactly ``action`` is stored next."""
        before = self.stored()
        do()
        self.pump_until(lambda: len(self.stored()) > len(before), what)
        assert self.stored() == [*before, action], what
        assert self.controller.screen in (Screen.GAME, Screen.END)


@pytest.fixture
def sdl_dummy(monkeypatch) -> None:
    """SDL without a screen; both variables open_display touches are restored afterwards."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_FRAMEBUFFER_ACCELERATION", "0")
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)


@pytest.fixture
def table(sdl_dummy, pty_port, tmp_path) -> Iterator[Table]:
    master, port = pty_port
    table = Table(tmp_path / "data", port, lambda data: os.write(master, data))
    try:
        yield table
    finally:
        table.close()


def export_cli(data_dir: Path) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).parent / "hanabi-companion"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "companion"]
    return subprocess.run(
        [*command, "export", "--data-dir", str(data_dir)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=30,
        check=False,
    )


# -- 1. a whole short game, hardware only -----------------------------------------


def test_short_game_by_buttons_and_scanner_is_stored_exported_and_replays(table):
    """Every hardware flow once, in the real loop; export (API and CLI) shows exactly them."""
    controller = table.controller
    table.start_game()
    colors = controller.game.setup.colors
    assert table.pin_states(LED_BAR[0])[-1] is True  # the bar shows 8 tokens at once

    # HINT: one press records a hint at once.
    table.record(lambda: table.press(HINT), Hint(player=0), "HINT press")

    # Scan with nothing pending: "play or discard?", then the PLAY press records it.
    table.scan(CARDS["R1"])
    table.pump_until(lambda: controller.entry_step() == "kind", "play or discard? after a scan")
    table.record(lambda: table.press(PLAY), Play(card("R1"), player=1), "scan, then PLAY")

    # PLAY, then the scan fills the card, then OK confirms.
    table.press(PLAY)
    table.pump_until(lambda: controller.screen is Screen.ENTRY, "PLAY opens the entry")
    table.scan(CARDS["R2"])
    table.pump_until(lambda: controller.entry_step() == "confirm", "the scan fills the card")
    table.record(lambda: table.press(OK), Play(card("R2"), player=0), "PLAY, scan, OK")

    # DISCARD with the soft keys only: DISCARD, colour, rank, OK.
    start = table.presses
    table.press(DISCARD)
    table.pump_until(lambda: controller.entry_step() == "color", "DISCARD asks the colour")
    table.press(DISCARD)  # the third soft key: the third colour
    table.pump_until(lambda: controller.entry_step() == "rank", "the colour is picked")
    table.press(PLAY)  # the second soft key: rank 2
    table.pump_until(lambda: controller.entry_step() == "confirm", "the rank is picked")
    discarded = Card(colors[2], 2)
    table.record(lambda: table.press(OK), Discard(discarded, player=1), "soft-key discard")
    soft_key_presses = table.presses - start
    assert soft_key_presses == 4 <= 6

    # A bouncing HINT contact is one hint.
    table.record(lambda: table.bouncy_press(HINT), Hint(player=0), "bouncing HINT")
    table.pump_for(0.2)
    assert len(table.stored()) == 5, "the bounce gave a second hint"

    # A misplay: the buzzer sounds the misplay pattern.
    buzzer_before = len(table.pin_states(BUZZER))
    table.scan(CARDS["B3"])
    table.pump_until(lambda: controller.entry_step() == "kind", "play or discard? for B3")
    table.record(lambda: table.press(PLAY), Play(card("B3"), player=1), "misplay")
    assert controller.game.position.fuses == 1
    beeps = BEEP_PATTERNS["misplay"].count
    table.pump_until(
        lambda: len(table.pin_states(BUZZER)) >= buzzer_before + 2 * beeps, "the misplay beeps"
    )
    table.pump_for(0.1)
    assert table.pin_states(BUZZER)[buzzer_before:] == [True, False] * beeps

    # An unknown tag: nothing recorded, the screen says so (and the buzzer blips once).
    buzzer_before = len(table.pin_states(BUZZER))
    table.scan(UNKNOWN_TAG)
    table.pump_until(lambda: spaceless(UNKNOWN_TAG) in table.said(), "the unknown tag shown")
    assert spaceless(f"Unknown card tag {UNKNOWN_TAG}: enrol the deck first") in table.said()
    assert controller.screen is Screen.GAME and controller.entry is None
    assert len(table.stored()) == 6
    table.pump_until(lambda: len(table.pin_states(BUZZER)) >= buzzer_before + 2, "the refusal blip")
    assert table.pin_states(BUZZER)[buzzer_before:] == [True, False]

    # A card resting on the reader repeats its frame every 100 ms: one read, one play.
    resting = threading.Event()

    def rest_card() -> None:
        for _ in range(10):
            table.scan(CARDS["G1"])
            time.sleep(0.1)
        resting.set()

    writer = threading.Thread(target=rest_card, daemon=True)
    writer.start()
    try:
        table.pump_until(lambda: controller.entry_step() == "kind", "the resting card read")
        table.record(lambda: table.press(PLAY), Play(card("G1"), player=0), "resting card")
        table.pump_until(resting.is_set, "the card is lifted")
        table.pump_for(0.2)
    finally:
        writer.join(5)
    assert controller.screen is Screen.GAME and controller.entry is None, "a repeat was read"
    assert len(table.stored()) == 7

    # UNDO, then OK: the last action is taken back.
    table.press(UNDO)
    table.pump_until(lambda: controller.screen is Screen.UNDO, "UNDO asks to confirm")
    table.press(OK)
    table.pump_until(lambda: len(table.stored()) == 6, "OK undoes")
    assert controller.screen is Screen.GAME
    assert controller.game.position.fireworks[Color.GREEN] == 0

    # A long press on UNDO is BACK: it cancels the entry under way, nothing stored.
    table.press(PLAY)
    table.pump_until(lambda: controller.screen is Screen.ENTRY, "PLAY opens the entry")
    table.press(HINT)  # soft key: the first colour
    table.pump_until(lambda: controller.entry_step() == "rank", "the colour is picked")
    table.hold(UNDO, lambda: controller.screen is Screen.GAME, "long UNDO cancels the entry")
    table.pump_for(0.2)  # the release after the long press must say nothing
    assert controller.screen is Screen.GAME and controller.entry is None
    assert len(table.stored()) == 6

    # The game goes on: PLAY, scan, OK.
    table.press(PLAY)
    table.pump_until(lambda: controller.screen is Screen.ENTRY, "PLAY opens the entry")
    table.scan(CARDS["W1"])
    table.pump_until(lambda: controller.entry_step() == "confirm", "the scan fills the card")
    table.record(lambda: table.press(OK), Play(card("W1"), player=0), "PLAY, scan, OK again")

    expected = [
        Hint(player=0),
        Play(card("R1"), player=1),
        Play(card("R2"), player=0),
        Discard(discarded, player=1),
        Hint(player=0),
        Play(card("B3"), player=1),
        Play(card("W1"), player=0),
    ]
    game = controller.game
    assert game.actions == expected
    assert (game.position.hints, game.position.fuses) == (7, 1)

    # The LEDs show the tokens: 7 hint LEDs of 8, 1 burnt fuse of 3.
    assert [table.factory.pin(pin).state for pin in LED_BAR] == [True] * 7 + [False]
    assert [table.factory.pin(pin).state for pin in FUSE_LEDS] == [True, False, False]

    # The export is exactly the game, and replays to the position the app shows.
    game_id = table.app.game_id
    exported = table.storage.export(game_id)
    assert exported == format_log(game.setup, expected)
    assert parse_log(exported).actions == expected
    assert replay_log(exported).position == game.position

    # `hanabi-companion export` prints the same, once the app has let go of the database.
    table.close()
    result = export_cli(table.data_dir)
    assert result.returncode == 0, result.stderr
    assert result.stdout == exported + end_line(game_id, exported)  # and the line that vouches


# -- 2. to the end of a game, hardware only ----------------------------------------


def test_storm_by_scans_and_play_presses_ends_the_game_by_itself(table):
    """Three misplays (scan + PLAY each): the END screen comes alone; the game is stored lost."""
    controller = table.controller
    table.start_game()
    misplays = [("R3", 0), ("Y3", 1), ("B4", 0)]
    for code, player in misplays:
        table.scan(CARDS[code])
        table.pump_until(lambda: controller.entry_step() == "kind", f"scan of {code}")
        table.record(lambda: table.press(PLAY), Play(card(code), player=player), f"misplay {code}")

    assert controller.screen is Screen.END  # no press needed to get there
    table.pump_for(0.1)
    assert controller.screen is Screen.END
    assert controller.game.is_over
    assert [table.factory.pin(pin).state for pin in FUSE_LEDS] == [True, True, True]

    game_id = table.app.game_id
    assert table.storage.load(game_id).status == "over"
    history = table.storage.history()
    assert [row.id for row in history] == [game_id]
    assert (history[0].outcome, history[0].end_reason, history[0].score) == (
        Outcome.LOST,
        EndReason.STRIKEOUT,
        0,
    )
    exported = table.storage.export(game_id)
    assert replay_log(exported).position == controller.game.position


# -- 3. the scanner unplugged and plugged back mid-game ------------------------------


def test_scanner_unplugged_mid_game_is_shown_then_cleared_and_reads_again(
    sdl_dummy, cable, tmp_path
):
    """Pulling the scanner's cable shows a notice; plugging it back clears it; scans work."""
    cable.plug()
    table = Table(tmp_path / "data", cable.port, cable.write)
    try:
        controller = table.controller
        table.pump_until(lambda: controller.notice is None, "connected at start")
        table.start_game()
        table.scan(CARDS["R1"])
        table.pump_until(lambda: controller.entry_step() == "kind", "scan before unplugging")
        table.record(lambda: table.press(PLAY), Play(card("R1"), player=0), "first play")

        cable.unplug()
        table.pump_until(lambda: controller.notice is not None, "the disconnection notice")
        notice = controller.notice
        assert notice.startswith("scanner disconnected"), notice
        table.pump_until(lambda: spaceless(notice) in table.said(), "the notice drawn")
        assert controller.screen is Screen.GAME

        cable.plug()
        table.pump_until(lambda: controller.notice is None, "the notice cleared on replug")
        table.pump_until(lambda: spaceless(notice) not in table.said(), "the banner gone")

        table.scan(CARDS["R2"])
        table.pump_until(lambda: controller.entry_step() == "kind", "a scan after replugging")
        table.record(lambda: table.press(PLAY), Play(card("R2"), player=1), "play after replug")
        assert table.stored() == [Play(card("R1"), player=0), Play(card("R2"), player=1)]
    finally:
        table.close()


# -- notices that must outlive the scanner's "connected" -------------------------------


def test_storage_notice_survives_the_scanner_connecting(sdl_dummy, pty_port, tmp_path):
    """A damaged database moved aside at start is still on screen once the scanner is up."""
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / Storage.DEFAULT_NAME).write_bytes(b"not a database, just junk" * 100)
    master, port = pty_port
    table = Table(data_dir, port, lambda data: os.write(master, data))
    try:
        assert table.storage is not None
        notice = table.storage.notice
        assert notice and "moved aside" in notice
        # The scanner's "connected" is in the inbox already; a few turns handle it.
        table.pump_for(0.3)
        assert table.controller.notice == notice
        assert spaceless(notice) in table.said()
    finally:
        table.close()


def test_led_bar_shows_a_resumed_games_tokens_before_any_press(sdl_dummy, tmp_path):
    """Power back after a cut mid-game (buttons, no scanner): the LEDs show the stored tokens."""
    data_dir = tmp_path / "data"
    first = Table(data_dir, None)
    try:
        first.start_game()
        first.record(lambda: first.press(HINT), Hint(player=0), "HINT press")
        first.record(lambda: first.press(HINT), Hint(player=1), "HINT press")
    finally:
        first.close()

    again = Table(data_dir, None)
    try:
        assert again.controller.screen is Screen.GAME
        assert again.controller.game.position.hints == 6
        again.pump_for(0.3)  # the first frames, no input
        assert [again.factory.pin(pin).state for pin in LED_BAR] == [True] * 6 + [False] * 2
    finally:
        again.close()


# -- issue 33: the hint levels, with the buttons alone ------------------------------------


@pytest.mark.parametrize("level", list(HintLevel))
def test_the_buttons_choose_each_hint_level_and_give_hints_at_it(sdl_dummy, tmp_path, level):
    """The set-up's Hints row chosen with NEXT and OK, then hints given with the buttons:
    count, one press; content, HINT then the button under the clue (the first colour is
    under HINT; OK turns to the ranks); slots, the clue then the slots, OK (two players:
    no "to whom?"). The level is stored with the game: a restart keeps it."""
    data_dir = tmp_path / "data"
    table = Table(data_dir, None, hint_content=True)
    controller = table.controller
    try:
        start = SETUP_ROWS.index("start")
        for _ in range(SETUP_ROWS.index(HINT_LEVEL_ROW) - start):
            table.press(NEXT)
        table.pump_until(lambda: SETUP_ROWS[controller.focus] == HINT_LEVEL_ROW, "Hints row")
        while controller.draft.hint_level is not level:
            table.press(OK)  # content -> slots -> count
            table.pump_for(0.1)
        for _ in range(len(SETUP_ROWS) - SETUP_ROWS.index(HINT_LEVEL_ROW) + start):
            table.press(NEXT)  # round to "start"
        table.pump_until(lambda: SETUP_ROWS[controller.focus] == "start", "Start focused")
        table.start_game()
        assert controller.hint_level is level
        if level is HintLevel.COUNT:
            table.record(lambda: table.press(HINT), Hint(player=0), "HINT")
        elif level is HintLevel.CONTENT:

            def red() -> None:
                table.press(HINT)
                table.pump_until(lambda: controller.entry_step() == "clue", "the clues")
                table.press(HINT)  # the button under the first colour: red

            table.record(red, Hint(1, Color.RED, player=0), "HINT, HINT")

            def threes() -> None:
                table.press(HINT)
                table.pump_until(lambda: controller.entry_step() == "clue", "the clues")
                table.press(OK)  # under "1-5 ›"
                table.pump_until(lambda: controller.entry.clue_page == 1, "the ranks")
                table.press(DISCARD)  # the third button: 3

            table.record(threes, Hint(0, None, 3, player=1), "HINT, OK, DISCARD")
            words = [i18n.describe_event("en", e, ("Ann", "Bo")) for e in controller.game.events]
            assert words == ["Ann told Bo: red", "Bo told Ann: 3s"]
        else:

            def slot_one_red() -> None:
                table.press(HINT)
                table.pump_until(lambda: controller.entry_step() == "clue", "the clues")
                table.press(HINT)  # red
                table.pump_until(lambda: controller.entry_step() == "slots", "the slots")
                table.press(HINT)  # the button under slot 1
                table.pump_until(lambda: controller.entry.touched == (1,), "slot 1 picked")
                table.press(OK)

            table.record(slot_one_red, Hint(1, Color.RED, player=0, slots=(1,)), "slots")
    finally:
        table.close()
    again = Table(data_dir, None, hint_content=level is HintLevel.COUNT)  # the other default
    try:
        assert again.controller.hint_level is level
    finally:
        again.close()
