"""The keyboard: key names to input events, as the README's key table says.

Pure (key names as pygame spells them, no pygame import), so USB keypads and
tests rely on one table.

>>> from companion.controller import EntryStep, Screen
>>> key_event("p", Screen.GAME, entry_step=None)
Press(key=<Key.PLAY: 'play'>)
>>> key_event("r", Screen.ENTRY, entry_step=EntryStep.COLOR)
ChooseColor(color=<Color.RED: 0>)
>>> key_event("3", Screen.SETUP, entry_step=None)
ChooseNumber(number=3)
"""

from __future__ import annotations

from companion.controller import EntryStep, Screen
from engine.cards import Color
from hardware.events import ChooseColor, ChooseNumber, ChooseRank, InputEvent, Key, Press

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
    if screen is Screen.ENTRY:
        if name in COLOR_LETTERS and entry_step is not None and entry_step is not EntryStep.KIND:
            return ChooseColor(COLOR_LETTERS[name])
        if name in ("1", "2", "3", "4", "5"):
            return ChooseRank(int(name))
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
    if screen in (Screen.HISTORY, Screen.HELP, Screen.MENU) and name == "backspace":
        return Press(Key.BACK)
    return COMMON.get(name)


#: While a name is typed: the characters come as text; these keys edit it.
TEXT_EDITING = {
    "return": Press(Key.OK),  # next name
    "enter": Press(Key.OK),
    "keypad enter": Press(Key.OK),
    "escape": Press(Key.BACK),  # done
    "backspace": Press(Key.UNDO),  # erase a character
}


def text_key_event(name: str) -> InputEvent | None:
    """The event of a key press while a name is typed (None: the key is a character)."""
    return TEXT_EDITING.get(name.lower())
