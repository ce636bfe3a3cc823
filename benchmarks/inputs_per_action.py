"""Inputs per action at each hint level, for each input set-up (issues 14 and 33).

The levels: *count* (a hint is one press, recorded bare), *content* (the hint's colour or
rank, no slots; its receiver only at two players, where it is the other seat) and
*slots* (hand memory: receiver, clue, slots; every play and discard its slot).

Drives the real :class:`~companion.core.controller.Controller` with the input events each
set-up sends: keys through the real key table (``companion.panel.keys``), taps on what the
real renderer drew at 480x320 (resolved as the app resolves them), GPIO buttons as
soft keys under the choices shown, and card reads (a read is not counted: it is the
card being shown or placed). Each sequence must record exactly the action meant.
Prints a table; no timings.

The phone's row (issue 22) counts taps on what the page for phones drew, in a real
Chromium (Playwright) at 360x740, on the real companion in-process (its app loop, its
SQLite files, its web server: ``tests/support/phone_table.py``): each tap is a click on a
button or a card the page shows, and each action must be stored exactly as meant.
Pairing (once per phone) is not counted. Without Chromium or Playwright the row says
it was not measured.

    PYTHONPATH=. .venv/bin/python benchmarks/inputs_per_action.py
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame
from msgspec.structs import replace

from companion.core.controller import (
    MORE_CLUES,
    SOFT_KEYS,
    Controller,
    HintLevel,
    RecordAction,
    RecordUndo,
    SetupDraft,
    choice_event,
)
from companion.panel.keys import key_event
from companion.panel.screens import Renderer
from engine.actions import Action, Discard, Hint, Play
from engine.cards import Card, Color
from hardware.events import (
    CardScanned,
    ChooseColor,
    ChooseRank,
    ChooseSeat,
    ChooseSlot,
    InputEvent,
    Key,
    Press,
)

SIZE = (480, 320)
PLAYERS = 3


@dataclass(frozen=True)
class Counted:
    """What one set-up needed for one action: the inputs a person made, and reads."""

    inputs: int
    reads: int = 0

    def __str__(self) -> str:
        return f"{self.inputs}" + (f" + {self.reads} read" if self.reads else "")


class Table:
    """A controller in a game, and the inputs counted so far."""

    def __init__(self, level: HintLevel) -> None:
        draft = SetupDraft(players=PLAYERS)
        draft.choose_hint_level(level)
        self.controller = Controller(draft)
        self.controller.handle(Press(Key.OK))  # Start
        assert self.controller.hint_level is level
        self.inputs = 0
        self.reads = 0
        self.effects: list[object] = []

    @property
    def hand_memory(self) -> bool:
        return self.controller.hand_memory

    @property
    def level(self) -> HintLevel:
        return self.controller.hint_level

    def send(self, event: InputEvent, *, counted: bool = True) -> None:
        self.effects.extend(self.controller.handle(event))
        if counted:
            self.inputs += 1
        else:
            self.reads += 1

    def key(self, name: str) -> None:
        c = self.controller
        event = key_event(name, c.screen, entry_step=c.entry_step())
        assert event is not None, (name, c.screen, c.entry_step())
        self.send(event)

    def tap(self, wanted: InputEvent) -> None:
        targets = Renderer(SIZE, strict=True).draw(pygame.Surface(SIZE), self.controller)
        reachable = any(
            next(e for box, e in reversed(targets) if box.collidepoint(x, y)) == wanted
            for rect, event in targets
            if event == wanted
            for y in range(rect.top, rect.bottom, 2)
            for x in range(rect.left, rect.right, 2)
        )
        assert reachable, f"no tap gives {wanted}"
        self.send(wanted)

    def drawn(self, wanted: InputEvent) -> bool:
        """Whether the screen drew a target for ``wanted``."""
        targets = Renderer(SIZE, strict=True).draw(pygame.Surface(SIZE), self.controller)
        return any(event == wanted for _rect, event in targets)

    def button(self, choice: InputEvent) -> None:
        """The GPIO button under ``choice`` on the entry screen (a soft key)."""
        choices = [choice_event(c) for c in self.controller.soft_choices()]
        self.send(Press(SOFT_KEYS[choices.index(choice)]))

    def recorded(self) -> list[Action]:
        return [e.action for e in self.effects if isinstance(e, RecordAction)]


# What is entered: Ann hints Cy red on slot 1 (3s on slot 2; red on slots 1 and 4), then
# Bo plays R1 (or discards B4) from slot 2; the undo takes that play back.
COLOR_HINT = Hint(2, Color.RED, player=0, slots=(1,))
RANK_HINT = Hint(2, None, 3, player=0, slots=(2,))
TWO_SLOT_HINT = Hint(2, Color.RED, player=0, slots=(1, 4))
PLAY = Play(Card.from_code("R1"), player=1, slot=2)
DISCARD = Discard(Card.from_code("B4"), player=1, slot=2)


def at_level(action: Action, level: HintLevel) -> Action:
    """What the panel records of ``action`` at ``level``: all of it with hand memory; else
    no slot, and a hint bare (count) or with its clue (content; its receiver only at two
    players, where it is known)."""
    if level is HintLevel.SLOTS:
        return action
    if not isinstance(action, Hint):
        return replace(action, slot=None)
    if level is HintLevel.COUNT:
        return Hint(player=action.player)
    to = action.to if PLAYERS == 2 else None
    return Hint(to, action.color, action.rank, player=action.player)


def clue_events(table: Table, hint: Hint) -> list[InputEvent]:
    """The choices of a hint: with hand memory the receiver (not with two players), the
    clue page, the clue, then the slots."""
    events: list[InputEvent] = []
    if PLAYERS > 2 and table.hand_memory:
        events.append(ChooseSeat(hint.to or 0))
    if hint.rank is not None:
        events += [MORE_CLUES, ChooseRank(hint.rank)]
    else:
        assert hint.color is not None
        events.append(ChooseColor(hint.color))
    return events + [ChooseSlot(slot) for slot in (hint.slots or ()) if table.hand_memory]


def card_events(table: Table, action: Play | Discard) -> list[InputEvent]:
    events: list[InputEvent] = []
    if table.hand_memory:
        assert action.slot is not None
        events.append(ChooseSlot(action.slot))
    return [*events, ChooseColor(action.card.color), ChooseRank(action.card.rank)]


# -- the set-ups -------------------------------------------------------------------------


def keyboard(table: Table, action: Action) -> None:
    if isinstance(action, Hint):
        table.key("h")
        if table.level is HintLevel.COUNT:
            return
        clue = action.color.letter.lower() if action.color is not None else str(action.rank)
        if not table.hand_memory:
            table.key(clue)  # the clue records it
            return
        assert action.to is not None
        if PLAYERS > 2:
            table.key(str(action.to + 1))
        table.key(clue)
        for slot in action.slots or ():
            table.key(str(slot))
        table.key("return")
        return
    assert isinstance(action, Play | Discard)
    table.key("p" if isinstance(action, Play) else "d")
    if table.hand_memory:
        table.key(str(action.slot))
    table.key(action.card.color.letter.lower())
    table.key(str(action.card.rank))
    table.key("return")


def touch(table: Table, action: Action) -> None:
    if isinstance(action, Hint):
        table.tap(Press(Key.HINT))
        if table.level is HintLevel.CONTENT:
            events = clue_events(table, action)
            if events[0] == MORE_CLUES and table.drawn(events[1]):
                events = events[1:]  # every clue is on the screen: no page to turn
            for event in events:
                table.tap(event)
        elif table.hand_memory:
            events = clue_events(table, action)
            slots = action.slots or ()
            shortcut = ChooseSlot(slots[0], action.to) if slots and PLAYERS > 2 else None
            if shortcut is not None and table.drawn(shortcut):
                # the receiver's tile shows the hand: a tap on a slot picks both
                table.tap(shortcut)
                events = [e for e in events if e not in (ChooseSeat(action.to or 0),)]
                events.remove(ChooseSlot(slots[0]))
            for i, event in enumerate(events):
                if event == MORE_CLUES and table.drawn(events[i + 1]):
                    continue  # every clue is on the screen: no page to turn
                table.tap(event)
            table.tap(Press(Key.OK))
        return
    assert isinstance(action, Play | Discard)
    table.tap(Press(Key.PLAY if isinstance(action, Play) else Key.DISCARD))
    for event in card_events(table, action):
        table.tap(event)
    table.tap(Press(Key.OK))


def buttons(table: Table, action: Action) -> None:
    if isinstance(action, Hint):
        table.send(Press(Key.HINT))
        if table.level is not HintLevel.COUNT:
            for event in clue_events(table, action):
                table.button(event)
        if table.hand_memory:
            table.send(Press(Key.OK))
        return
    assert isinstance(action, Play | Discard)
    table.send(Press(Key.PLAY if isinstance(action, Play) else Key.DISCARD))
    for event in card_events(table, action):
        table.button(event)
    table.send(Press(Key.OK))


def buttons_and_reader(table: Table, action: Action) -> None:
    """One reader (role "any"): scan the card, press PLAY or DISCARD (then its slot)."""
    if isinstance(action, Hint):
        buttons(table, action)
        return
    assert isinstance(action, Play | Discard)
    table.send(CardScanned("0012345678", action.card), counted=False)
    table.send(Press(Key.PLAY if isinstance(action, Play) else Key.DISCARD))
    if table.hand_memory:
        assert action.slot is not None
        table.button(ChooseSlot(action.slot))


def two_pads(table: Table, action: Action) -> None:
    """A play pad and a discard pad: placing the card is the action (then its slot)."""
    if isinstance(action, Hint):
        buttons(table, action)
        return
    assert isinstance(action, Play | Discard)
    role = "play" if isinstance(action, Play) else "discard"
    table.send(CardScanned("0012345678", action.card, role=role), counted=False)
    if table.hand_memory:
        assert action.slot is not None
        table.button(ChooseSlot(action.slot))


SETUPS: dict[str, Callable[[Table, Action], None]] = {
    "keyboard": keyboard,
    "touch (480x320)": touch,
    "buttons": buttons,
    "buttons + reader": buttons_and_reader,
    "buttons + two pads": two_pads,
}


def measure(setup: Callable[[Table, Action], None], level: HintLevel) -> dict[str, Counted]:
    """Inputs for each hint, a play, a discard and an undo, at the hint ``level``."""
    counts: dict[str, Counted] = {}
    hints = (("colour hint", COLOR_HINT), ("rank hint", RANK_HINT), ("2-slot hint", TWO_SLOT_HINT))
    for name, hint in hints:
        table = Table(level)
        meant = at_level(hint, level)
        setup(table, hint)
        assert table.recorded() == [meant], (name, table.recorded(), meant)
        counts[name] = Counted(table.inputs, table.reads)
    for name, card_action in (("play", PLAY), ("discard", DISCARD)):
        table = Table(level)
        setup(table, COLOR_HINT)
        table.inputs = table.reads = 0
        table.effects.clear()
        meant = at_level(card_action, level)
        setup(table, meant)
        assert table.recorded() == [meant], (name, table.recorded(), meant)
        counts[name] = Counted(table.inputs, table.reads)
        if name == "play":  # the undo of that play: UNDO, then OK (a tap on each)
            table.inputs = 0
            table.effects.clear()
            if setup is touch:
                table.tap(Press(Key.UNDO))
                table.tap(Press(Key.OK))
            else:
                table.send(Press(Key.UNDO))
                table.send(Press(Key.OK))
            assert any(isinstance(e, RecordUndo) for e in table.effects)
            counts["undo"] = Counted(table.inputs)
    return counts


# -- the phone (issue 22) -----------------------------------------------------------------


def phone_meant(action: Action, hand_memory: bool) -> Action:
    """What the phone records: a hint always names its receiver and clue (the page asks
    them, at every level); without hand memory, no slots."""
    if hand_memory:
        return action
    if isinstance(action, Hint):
        return replace(action, slots=None)
    return replace(action, slot=None)


def phone_enter(phone: Any, action: Action, hand_memory: bool) -> None:
    """Tap ``action`` in on the page, as a player would, up to its OK."""
    if isinstance(action, Hint):
        phone.tap("[data-act=hint]")
        slots = list(action.slots or ()) if hand_memory else []
        if slots:  # the receiver's cards are drawn: a tap on one picks both
            phone.tap(f"#flow .receiver[data-seat='{action.to}'] .slot[data-slot='{slots[0]}']")
            slots.pop(0)
        elif phone.page.locator("#flow .pick.seat").count():
            phone.tap(f"#flow .pick.seat[data-seat='{action.to}']")
        if action.color is not None:
            phone.tap(f"#flow .pick.color[data-color='{action.color.letter}']")
        else:
            phone.tap(f"#flow .pick.rank[data-rank='{action.rank}']")
        for slot in slots:
            phone.tap(f"#flow .pick-hand .slot[data-slot='{slot}']")
    else:
        assert isinstance(action, Play | Discard)
        phone.tap("[data-act=play]" if isinstance(action, Play) else "[data-act=discard]")
        if hand_memory:
            phone.tap(f"#flow .pick-hand .slot[data-slot='{action.slot}']")
        phone.tap(f"#flow .pick.color[data-color='{action.card.color.letter}']")
        phone.tap(f"#flow .pick.rank[data-rank='{action.card.rank}']")
    phone.page.wait_for_selector("#flow .confirm", timeout=15_000)  # the preview said OK
    phone.tap("#flow .confirm")


def phone_measure(browser: Any, data: Path, level: HintLevel) -> dict[str, Counted]:
    """Taps on the page for each hint, a play, a discard and an undo (3 players)."""
    from support.needs import PHONE
    from support.phone_table import LiveTable, Phone

    hand_memory = level is HintLevel.SLOTS
    table = LiveTable(
        data,
        players=PLAYERS,
        hand_memory=hand_memory,
        hint_content=level is HintLevel.CONTENT,
    )
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    counts: dict[str, Counted] = {}
    try:
        phone = Phone(context.new_page(), table.url)
        phone.shows_actions(0)
        phone.pair(table.open_phones_page(), "Ann")
        table.back_to_game()

        def counted(name: str, action: Action | None, actions: int) -> None:
            phone.taps = 0
            if action is None:  # the undo: Undo, then its confirm
                phone.tap("[data-act=undo]")
                phone.tap("#flow .confirm")
            else:
                phone_enter(phone, action, hand_memory)
            phone.shows_actions(actions)
            stored = table.stored().actions
            if action is not None:
                meant = phone_meant(action, hand_memory)
                assert stored[-1] == meant, (name, stored[-1], meant)
            assert len(stored) == actions, (name, stored)
            counts[name] = Counted(phone.taps)

        hints = (
            ("colour hint", COLOR_HINT),
            ("rank hint", RANK_HINT),
            ("2-slot hint", TWO_SLOT_HINT),
        )
        for name, hint in hints:
            counted(name, hint, 1)
            counted("undo", None, 0)
        counted("colour hint", COLOR_HINT, 1)
        counted("play", PLAY, 2)
        counted("undo", None, 1)
        counted("discard", DISCARD, 2)
    finally:
        context.close()
        table.close()
    return counts


def phone_row(columns: tuple[str, ...]) -> str:
    """The phone's row of the table: measured in Chromium, or why it was not."""
    import shutil
    import tempfile

    chromium = shutil.which("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        chromium = None
    if chromium is None:
        return "| phone (360x740) | not measured: Chromium and Playwright are needed |"
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from support.needs import CHROMIUM_ARGS

    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as folder:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            counts = [phone_measure(browser, Path(folder) / lv.value, lv) for lv in HintLevel]
        finally:
            browser.close()
    return "| phone (360x740) | " + " | ".join(cells(counts, columns)) + " |"


def cells(counts: list[dict[str, Counted]], columns: tuple[str, ...]) -> list[str]:
    """Each column's counts at the levels, "count / content / slots"."""
    return [" / ".join(str(at[column]) for at in counts) for column in columns]


def main() -> None:
    pygame.font.init()
    columns = ("colour hint", "rank hint", "2-slot hint", "play", "discard", "undo")
    levels = " / ".join(level.value for level in HintLevel)
    print(
        f"Inputs per action, {PLAYERS} players, at each hint level ({levels}); a colour or "
        "a rank hint touching one slot, a colour hint touching two"
    )
    print()
    print("| set-up | " + " | ".join(columns) + " |")
    print("| --- |" + " --- |" * len(columns))
    for name, setup in SETUPS.items():
        counts = [measure(setup, level) for level in HintLevel]
        print(f"| {name} | " + " | ".join(cells(counts, columns)) + " |")
    print(phone_row(columns))


if __name__ == "__main__":
    main()
