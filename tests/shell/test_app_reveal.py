"""Issue 34, the end reveal through the real app (in-process, SDL's dummy driver, real
SQLite): the hands shown at the end by keys, by touch at 800x480, 480x320 and 320x240, by
the button panel (gpiozero's own MockFactory) and a card reader (an RDM6300 on a real
pseudo-terminal), each hand stored as a ``reveal`` line before the screen shows it; undo
takes one back; a refusal stores nothing."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pygame
import pytest
from gpiozero.pins.mock import MockFactory
from support.reveals import STRUCK_OUT_HANDS, store_struck_out, struck_out_reveal

from companion.core import i18n
from companion.core.controller import EntryStep, Refused, Screen, SetupDraft
from companion.panel.display import open_display
from companion.shell.app import App, resume
from companion.storage import Storage
from engine.cards import Card
from engine.errors import CardExhausted
from engine.log import parse_log, replay_revealed
from engine.options import GameOptions
from engine.reveal import Reveal
from hardware.buttons import ButtonPanel, PanelPins
from hardware.events import (
    ChooseColor,
    ChooseRank,
    ChooseSeat,
    ChooseSlot,
    InputEvent,
    Key,
    Press,
    Tap,
)
from hardware.scanner import CardScanner, rdm6300_frame
from hardware.tagmap import TagMap

SIZES = [(800, 480), (480, 320), (320, 240)]


def open_app(data: Path, size: tuple[int, int] = (480, 320)) -> App:
    storage = Storage.open(data)
    draft = SetupDraft(players=2, options=GameOptions(hand_memory=True))
    controller, game_id = resume(storage, draft)
    return App(storage, open_display("dummy", size), controller, game_id)


@pytest.fixture
def finished(tmp_path: Path, headless: None) -> Iterator[Callable[..., App]]:
    """``finished(size)``: the app at the end of a stored game with hand memory."""
    data = tmp_path / "data"
    with Storage.open(data) as storage:
        store_struck_out(storage)
    opened: list[App] = []

    def make(size: tuple[int, int] = (480, 320)) -> App:
        app = open_app(data, size)
        opened.append(app)
        assert app.controller.screen is Screen.END
        return app

    yield make
    for app in opened:
        app.display.close()
        app.storage.close()


def stored_reveals(app: App) -> list[Reveal]:
    assert app.game_id is not None
    return parse_log(app.storage.export(app.game_id)).reveals


def typed(app: App, *names: str) -> None:
    for name in names:
        key = pygame.key.key_code(name)
        char = name if len(name) == 1 else ""
        app.take_pygame_event(pygame.event.Event(pygame.KEYDOWN, key=key, unicode=char))
        app.step()


def hand_keys(seat: int) -> list[str]:
    return [part for code in STRUCK_OUT_HANDS[seat] for part in (code[0].lower(), code[1])]


def test_keys_show_every_hand_and_each_is_stored_before_it_is_shown(finished) -> None:
    app = finished()
    frames: list[tuple[int, int]] = []
    original = app.draw

    def draw_and_check() -> None:
        frames.append((len(app.controller.reveals.shown), len(stored_reveals(app))))
        original()

    app.draw = draw_and_check  # type: ignore[method-assign]
    typed(app, "h", "1")  # Show hands, Ann's
    assert app.controller.screen is Screen.REVEAL
    typed(app, *hand_keys(0))
    assert stored_reveals(app) == []  # not yet: OK records it
    typed(app, "return")
    assert stored_reveals(app) == [struck_out_reveal(0)]
    typed(app, *hand_keys(1), "return")  # Bo's, the only one left: no "whose?"
    assert stored_reveals(app) == [struck_out_reveal(0), struck_out_reveal(1)]
    assert frames and all(shown == stored for shown, stored in frames)
    app.draw()
    said = " ".join(text.text for text in app.renderer.texts)
    assert "Every hand shown: the whole deal is known" in said
    game, reveals = replay_revealed(app.storage.export(app.game_id))
    assert reveals.complete and game.is_over


def test_a_refused_card_stores_nothing_and_undo_takes_a_hand_back(finished) -> None:
    app = finished()
    typed(app, "h", "2", "r", "5")  # every red 5 is seen: Ann misplayed it
    controller = app.controller
    assert controller.reveal_slot() == 1 and controller.reveal_entry.cards == ()  # type: ignore[union-attr]
    refusal = controller.message
    assert isinstance(refusal, Refused) and isinstance(refusal.error, CardExhausted)
    app.draw()
    said = "".join(text.text for text in app.renderer.texts).replace(" ", "")
    assert i18n.refusal_text("en", refusal.error, ("Ann", "Bo")).replace(" ", "") in said
    typed(app, *hand_keys(1), "return", "escape")  # Bo's, then Ann's left for later
    assert stored_reveals(app) == [struck_out_reveal(1)]
    typed(app, "u", "return")  # undo, confirmed: Bo's hand goes back
    assert stored_reveals(app) == []
    assert app.storage.load(app.game_id).status.value == "over"  # type: ignore[arg-type]
    assert controller.screen is Screen.END


def tap(app: App, event: InputEvent) -> None:
    """A finger on what the frame drew for ``event`` (a button, a tile, a card)."""
    app.draw()
    rect = next(rect for rect, drawn in reversed(app.targets) if drawn == event)
    app.dispatch(Tap(*rect.center))
    app.step()


def card_taps(app: App, code: str) -> None:
    card = Card.from_code(code)
    tap(app, ChooseColor(card.color))
    tap(app, ChooseRank(card.rank))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_touch_shows_the_hands_at_every_panel_size(finished, size) -> None:
    app = finished(size)
    tap(app, Press(Key.HINT))  # the end screen's "Show hands"
    tap(app, ChooseSeat(0))
    for code in STRUCK_OUT_HANDS[0][:2]:
        card_taps(app, code)
    tap(app, ChooseSlot(1))  # a tap on a card shown: it is entered again
    assert app.controller.reveal_slot() == 1
    for code in STRUCK_OUT_HANDS[0]:
        card_taps(app, code)
    assert app.controller.reveal_step() is EntryStep.CONFIRM
    app.draw()
    floor = app.renderer.kit.floor
    assert all(text.size >= floor and text.whole for text in app.renderer.texts)
    tap(app, Press(Key.OK))
    for code in STRUCK_OUT_HANDS[1]:
        card_taps(app, code)
    tap(app, Press(Key.OK))
    assert stored_reveals(app) == [struck_out_reveal(0), struck_out_reveal(1)]
    assert app.controller.screen is Screen.END


# -- the button panel and a card reader, wired as `run` wires them ------------------------

HINT, PLAY, DISCARD, UNDO, NEXT, OK = 5, 6, 13, 19, 26, 21
BUTTONS = (HINT, PLAY, DISCARD, UNDO, NEXT, OK)  # the soft keys, 1st to 6th tile
#: An enrolled deck: each copy of a card has a tag of its own (a card resting on the reader
#: repeats its tag, which the reader reads once).
TAGS = {
    f"0{suit}00000{rank}{copy}0": f"{letter}{rank}"
    for suit, letter in ((5, "W"), (4, "B"))
    for rank in (1, 2)
    for copy in range(1, 4)
}


class Table:
    """The real app loop with the real ButtonPanel (MockFactory) and CardScanner (a pty)."""

    def __init__(self, app: App, port: str, master: int) -> None:
        self.app, self.master = app, master
        self.factory = MockFactory()
        self.panel = ButtonPanel(
            PanelPins(), app.inbox.emit, pin_factory=self.factory, debounce=0.05, long_press=0.4
        )
        tags = TagMap({tag: Card.from_code(code) for tag, code in TAGS.items()})
        self.unread = dict(TAGS)
        self.scanner = CardScanner(
            port, "rdm6300", app.inbox.emit, tag_map=tags, retry_interval=0.1
        )
        self.scanner.start()

    def close(self) -> None:
        self.scanner.stop()
        self.panel.close()

    def pump_until(self, condition: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            self.app.step(50)
            if condition():
                return
        assert condition(), f"never happened: {what}"

    def press(self, pin: int) -> None:
        time.sleep(0.15)  # well apart from the previous press (the debounce window)
        button = self.factory.pin(pin)
        button.drive_low()
        button.drive_high()

    def scan(self, code: str) -> None:
        """A copy of ``code`` not read yet held to the reader: one frame."""
        tag = next(tag for tag, card in self.unread.items() if card == code)
        del self.unread[tag]
        os.write(self.master, rdm6300_frame(tag))


def test_buttons_and_a_reader_show_the_hands(finished, pty_port) -> None:
    app = finished()
    master, port = pty_port
    table = Table(app, port, master)
    controller = app.controller
    try:
        table.press(HINT)  # "Show hands"
        table.pump_until(lambda: controller.screen is Screen.REVEAL, "the reveal screen")
        table.press(BUTTONS[0])  # the first seat's tile: Ann
        table.pump_until(lambda: controller.reveal_slot() == 1, "Ann's first card asked")
        colors = list(controller.game.setup.colors)  # type: ignore[union-attr]
        for slot, code in enumerate(STRUCK_OUT_HANDS[0], start=1):
            card = Card.from_code(code)
            table.press(BUTTONS[colors.index(card.color)])
            table.press(BUTTONS[card.rank - 1])
            table.pump_until(
                lambda slot=slot: len(controller.reveal_entry.cards) == slot,  # type: ignore[union-attr]
                f"slot {slot} entered by buttons",
            )
        table.press(OK)
        table.pump_until(lambda: len(stored_reveals(app)) == 1, "Ann's hand stored")
        # Bo's, the only hand left: one read per card, the last read records it
        for code in STRUCK_OUT_HANDS[1]:
            table.scan(code)
            time.sleep(0.1)
        table.pump_until(lambda: len(stored_reveals(app)) == 2, "Bo's hand read and stored")
        assert stored_reveals(app) == [struck_out_reveal(0), struck_out_reveal(1)]
        assert controller.screen is Screen.END
        table.press(UNDO)  # the undo question, then OK: Bo's hand goes back
        table.pump_until(lambda: controller.screen is Screen.UNDO, "the undo question")
        table.press(OK)
        table.pump_until(lambda: len(stored_reveals(app)) == 1, "Bo's hand taken back")
        assert controller.can_show_hands()
    finally:
        table.close()
