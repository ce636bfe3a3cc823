"""Inputs per action, with hand memory off and on, for each input set-up (issue 14).

Drives the real :class:`~companion.controller.Controller` with the input events each
set-up sends: keys through the real key table (``companion.keys``), taps on what the
real renderer drew at 480x320 (resolved as the app resolves them), GPIO buttons as
soft keys under the choices shown, and card reads (a read is not counted: it is the
card being shown or placed). Each sequence must record exactly the action meant.
Prints a table; no timings.

    PYTHONPATH=. .venv/bin/python benchmarks/inputs_per_action.py
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame

from companion.controller import (
    MORE_CLUES,
    SOFT_KEYS,
    Controller,
    RecordAction,
    RecordUndo,
    SetupDraft,
    choice_event,
)
from companion.keys import key_event
from companion.screens import Renderer
from engine.actions import Action, Discard, Hint, Play
from engine.cards import Card, Color
from engine.options import GameOptions
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

    def __init__(self, hand_memory: bool) -> None:
        options = GameOptions(hand_memory=hand_memory)
        self.controller = Controller(SetupDraft(players=PLAYERS, options=options))
        self.controller.handle(Press(Key.OK))  # Start
        self.inputs = 0
        self.reads = 0
        self.effects: list[object] = []

    @property
    def hand_memory(self) -> bool:
        return self.controller.hand_memory

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


def without_slots(action: Action) -> Action:
    if isinstance(action, Hint):
        return Hint(player=action.player)
    return action._replace(slot=None)


def clue_events(table: Table, hint: Hint) -> list[InputEvent]:
    """The choices of a hint: the receiver (not with two players), the clue page, the
    clue, the slots."""
    events: list[InputEvent] = []
    if PLAYERS > 2:
        events.append(ChooseSeat(hint.to or 0))
    if hint.rank is not None:
        events += [MORE_CLUES, ChooseRank(hint.rank)]
    else:
        assert hint.color is not None
        events.append(ChooseColor(hint.color))
    return events + [ChooseSlot(slot) for slot in hint.slots or ()]


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
        if not table.hand_memory:
            return
        assert action.to is not None
        if PLAYERS > 2:
            table.key(str(action.to + 1))
        table.key(action.color.letter.lower() if action.color is not None else str(action.rank))
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
        if table.hand_memory:
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
        if table.hand_memory:
            for event in clue_events(table, action):
                table.button(event)
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


def measure(setup: Callable[[Table, Action], None], hand_memory: bool) -> dict[str, Counted]:
    """Inputs for each hint, a play, a discard and an undo."""
    counts: dict[str, Counted] = {}
    hints = (("colour hint", COLOR_HINT), ("rank hint", RANK_HINT), ("2-slot hint", TWO_SLOT_HINT))
    for name, hint in hints:
        table = Table(hand_memory)
        meant = hint if hand_memory else without_slots(hint)
        setup(table, meant)
        assert table.recorded() == [meant], (name, table.recorded(), meant)
        counts[name] = Counted(table.inputs, table.reads)
    for name, card_action in (("play", PLAY), ("discard", DISCARD)):
        table = Table(hand_memory)
        setup(table, COLOR_HINT if hand_memory else without_slots(COLOR_HINT))
        table.inputs = table.reads = 0
        table.effects.clear()
        meant = card_action if hand_memory else without_slots(card_action)
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


def main() -> None:
    pygame.font.init()
    columns = ("colour hint", "rank hint", "2-slot hint", "play", "discard", "undo")
    print(
        f"Inputs per action, {PLAYERS} players, hand memory off / on; a colour or a rank "
        "hint touching one slot, a colour hint touching two"
    )
    print()
    print("| set-up | " + " | ".join(columns) + " |")
    print("| --- |" + " --- |" * len(columns))
    for name, setup in SETUPS.items():
        off, on = measure(setup, False), measure(setup, True)
        cells = [f"{off[column]} / {on[column]}" for column in columns]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
