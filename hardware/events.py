"""The one vocabulary of input events that every input source feeds.

Keyboard, touch screen, GPIO buttons and the card scanner all turn what
happens at the table into these values; the controller turns them into
engine actions. Nothing here knows a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

from msgspec import Struct

from engine.cards import Card, Color
from hardware.wiring import ReaderRole


class Key(Enum):
    """A semantic button: what the player means, whatever device sent it."""

    HINT = "hint"
    PLAY = "play"
    DISCARD = "discard"
    UNDO = "undo"
    OK = "ok"
    BACK = "back"
    NEXT = "next"
    PREVIOUS = "previous"
    MENU = "menu"
    ERASE = "erase"  # step back one choice in an entry (a keyboard's BackSpace)
    HELP = "help"


class Press(Struct, frozen=True):
    """A button was pressed (keyboard key, GPIO button, on-screen button)."""

    key: Key


class ChooseColor(Struct, frozen=True):
    """A colour was picked (keyboard letter, on-screen colour)."""

    color: Color


class ChooseRank(Struct, frozen=True):
    """A rank 1-5 was picked."""

    rank: int


class ChooseSlot(Struct, frozen=True):
    """A slot of a hand was picked (hand memory): 1 is the newest card, at the left.

    In a hint's entry it toggles whether the hint touched that slot; in a play's or a
    discard's, it says where the card came from. ``seat``: whose hand (a tap on another
    player's hand while a hint's receiver is asked picks the receiver too).
    """

    slot: int
    seat: int | None = None


class ChooseSeat(Struct, frozen=True):
    """A player was picked by seat (0 first): the receiver of a hint (hand memory)."""

    seat: int


class ChooseNumber(Struct, frozen=True):
    """A digit was typed where a number is asked (e.g. player count 2-5)."""

    number: int


class TypeText(Struct, frozen=True):
    """Characters typed on a keyboard where text is asked (a player's name)."""

    text: str


class CardScanned(Struct, frozen=True):
    """A reader read a tag. ``card`` is None when the tag is not enrolled.

    ``role`` is the reader's: ``"any"`` (the players say next whether the card was
    played or discarded), ``"play"`` or ``"discard"`` (placing the card was the action).
    """

    tag: str
    card: Card | None
    role: ReaderRole = "any"


class Tap(Struct, frozen=True):
    """A touch or click at a screen position, resolved later by the layout."""

    x: int
    y: int


class Select(Struct, frozen=True):
    """A tap resolved by the layout to a named on-screen target (a set-up or menu row)."""

    target: str


class DeviceStatus(Struct, frozen=True):
    """An input device came or went ("scanner disconnected")."""

    device: str
    connected: bool
    message: str


InputEvent = (
    Press
    | ChooseColor
    | ChooseRank
    | ChooseSlot
    | ChooseSeat
    | ChooseNumber
    | TypeText
    | CardScanned
    | Tap
    | Select
    | DeviceStatus
)

Emit = Callable[[InputEvent], None]
"""Where a device sends its input events: a thread-safe callable (the app's inbox)."""
