"""The keyboard: key names to input events, as the README's key table says.

Pure (key names as pygame spells them, no pygame import), so USB keypads and
tests rely on one table.

>>> from companion.core.controller import EntryStep, Screen
>>> key_event("p", Screen.GAME, entry_step=None)
Press(key=<Key.PLAY: 'play'>)
>>> key_event("r", Screen.ENTRY, entry_step=EntryStep.COLOR)
ChooseColor(color=<Color.RED: 0>)
>>> key_event("3", Screen.SETUP, entry_step=None)
ChooseNumber(number=3)
>>> [key_event(name, Screen.SETUP, entry_step=None) for name in ("right", "down")]
[Select(target='next_value'), Press(key=<Key.NEXT: 'next'>)]
>>> key_event("3", Screen.ENTRY, entry_step=EntryStep.SLOTS)
ChooseSlot(slot=3, seat=None)
"""

from __future__ import annotations

from typing import Generic, TypeVar

from msgspec import Struct

from companion.core.controller import NEXT_VALUE, PREVIOUS_VALUE, EntryStep, Screen
from engine.cards import Color
from hardware.events import (
    ChooseColor,
    ChooseNumber,
    ChooseRank,
    ChooseSeat,
    ChooseSlot,
    InputEvent,
    Key,
    Press,
    Select,
)

T = TypeVar("T")

COLOR_LETTERS = {color.letter.lower(): color for color in Color}

#: Keys that mean the same on every screen.
COMMON = {
    "return": Press(Key.OK),
    "enter": Press(Key.OK),
    "keypad enter": Press(Key.OK),
    "escape": Press(Key.BACK),
    "tab": Press(Key.NEXT),
    "down": Press(Key.NEXT),
    "right": Press(Key.NEXT),
    "up": Press(Key.PREVIOUS),
    "left": Press(Key.PREVIOUS),
    "f1": Press(Key.HELP),
    "?": Press(Key.HELP),
    "m": Press(Key.MENU),
}

#: The lists whose rows show ‹ value › (the set-up, the menu): Left and Right move the
#: value, Up and Down (as everywhere) the rows.
LISTS: dict[str, Select] = {"left": PREVIOUS_VALUE, "right": NEXT_VALUE}

GAME = {
    "h": Press(Key.HINT),
    "p": Press(Key.PLAY),
    "d": Press(Key.DISCARD),
    "u": Press(Key.UNDO),
    "backspace": Press(Key.UNDO),
}


def key_event(name: str, screen: Screen, *, entry_step: EntryStep | None) -> InputEvent | None:
    """The input event of a key press on ``screen`` (None: the key means nothing there)."""
    name = name.lower()
    if name.startswith("[") and name.endswith("]"):  # keypad digits: "[3]"
        name = name[1:-1]
    if screen in (Screen.ENTRY, Screen.REVEAL):  # the reveal: a seat, then card by card
        digit = int(name) if name in ("1", "2", "3", "4", "5") else None
        if digit is not None and entry_step in (EntryStep.SLOT, EntryStep.SLOTS):
            return ChooseSlot(digit)  # hand memory: the slot, 1 the newest at the left
        if digit is not None and entry_step in (EntryStep.RECEIVER, EntryStep.SEAT):
            return ChooseSeat(digit - 1)  # the seat's number, as the tiles show
        if name in COLOR_LETTERS and entry_step is not None and entry_step is not EntryStep.KIND:
            return ChooseColor(COLOR_LETTERS[name])
        if digit is not None and entry_step is not EntryStep.KIND:  # not a read card's rank
            return ChooseRank(digit)
        if name == "a":  # announce a colour (timed display)
            return Press(Key.PREVIOUS)
        if name == "backspace":
            return Press(Key.ERASE)
        if name == "u":
            return Press(Key.BACK)
        if entry_step is EntryStep.KIND and name in ("p", "d"):
            return GAME[name]
        if name == "m":
            return None  # "m" is multicolor while entering a card
    if screen in (Screen.GAME, Screen.END, Screen.UNDO) and name in GAME:
        return GAME[name]
    if screen is Screen.SETUP and name.isdigit():
        return ChooseNumber(int(name))
    if screen in (Screen.SETUP, Screen.MENU) and name in LISTS:
        return LISTS[name]
    if screen in (Screen.HISTORY, Screen.HELP, Screen.MENU, Screen.PHONES) and name == "backspace":
        return Press(Key.BACK)
    return COMMON.get(name)


#: While a name is typed: the characters come as text; these keys edit it.
TEXT_EDITING = {
    "return": Press(Key.OK),  # next name
    "enter": Press(Key.OK),
    "keypad enter": Press(Key.OK),
    "escape": Press(Key.BACK),  # done
    "backspace": Press(Key.UNDO),  # erase a character
    "down": Press(Key.NEXT),  # the variant search: the next variant left
    "up": Press(Key.PREVIOUS),
}


def text_key_event(name: str) -> InputEvent | None:
    """The event of a key press while a name is typed (None: the key is a character)."""
    return TEXT_EDITING.get(name.lower())


# -- a USB reader typing into the window ----------------------------------------

BURST_MIN_KEYS = 6
"""Characters a burst needs before its Enter to be a reader's read (see
docs/decisions/0019-key-burst-is-a-scan.md)."""
BURST_MAX_GAP = 0.050
"""Seconds: each character of a burst comes at most this long after the one before."""


class TypedScan(Struct, frozen=True):
    """A line typed far faster than a person types: a reader's read, not keys."""

    text: str


class KeyBurst(Generic[T]):
    """Tells a keyboard-type reader typing into the window from a person typing.

    A reader types its tag and Enter in a burst: at least :data:`BURST_MIN_KEYS`
    characters, each within :data:`BURST_MAX_GAP` seconds of the one before,
    then Enter (or Tab) as fast. A person never keeps that pace for six keys.

    The window's key events (any type ``T``) go through :meth:`feed` in order,
    with the time they were seen. A character key may start a burst, so it and
    whatever follows it are held back while the pace lasts (a person's key is
    late by at most the gap); then they are released as they came, or, ended
    by Enter, replaced by one :class:`TypedScan`. :meth:`expire`, called when
    the loop wakes up, releases what the pace no longer covers; :meth:`deadline`
    says when to wake up for it. Pure: the clock is passed in.

    >>> burst: KeyBurst[str] = KeyBurst()
    >>> burst.feed("p", 0.0, char="p")
    []
    >>> burst.expire(1.0)
    ['p']
    >>> [burst.feed(c, i * 0.01, char=c) for i, c in enumerate("001234")][-1]
    []
    >>> burst.feed("Return", 0.06, ends_line=True)
    [TypedScan(text='001234')]
    """

    def __init__(self, min_keys: int = BURST_MIN_KEYS, max_gap: float = BURST_MAX_GAP) -> None:
        self.min_keys = min_keys
        self.max_gap = max_gap
        self._held: list[T] = []
        self._chars: list[str] = []
        self._last_char_at = 0.0

    def feed(
        self, item: T, now: float, *, char: str | None = None, ends_line: bool = False
    ) -> list[T | TypedScan]:
        """One key event seen at ``now``: ``char`` if it types a character, ``ends_line``
        for Enter or Tab. Returns what to handle now, in order."""
        out: list[T | TypedScan] = list(self.expire(now))
        if char is not None:
            self._held.append(item)
            self._chars.append(char)
            self._last_char_at = now
        elif not self._held:
            out.append(item)
        elif ends_line:
            if len(self._chars) >= self.min_keys:
                out.append(TypedScan("".join(self._chars)))
                self._held.clear()
                self._chars.clear()
            else:
                out.extend(self._release())
                out.append(item)
        else:
            self._held.append(item)  # shift, the character's text, key releases
        return out

    def expire(self, now: float) -> list[T]:
        """Release the held keys if the pace of a reader stopped before ``now``."""
        if self._held and now - self._last_char_at > self.max_gap:
            return self._release()
        return []

    def deadline(self) -> float | None:
        """When :meth:`expire` would release the held keys (None: nothing held)."""
        return self._last_char_at + self.max_gap if self._held else None

    def _release(self) -> list[T]:
        held = self._held
        self._held = []
        self._chars.clear()
        return held
