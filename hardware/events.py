"""The one vocabulary of input events that every input source feeds.

Keyboard, touch screen, GPIO buttons and the card scanner all turn what
happens at the table into these values; the controller turns them into
engine actions. Nothing here knows a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

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


@dataclass(frozen=True, slots=True)
class Press:
    """A button was pressed (keyboard key, GPIO button, on-screen button)."""

    key: Key


@dataclass(frozen=True, slots=True)
class ChooseColor:
    """A colour was picked (keyboard letter, on-screen colour)."""

    color: Color


@dataclass(frozen=True, slots=True)
class ChooseRank:
    """A rank 1-5 was picked."""

    rank: int


@dataclass(frozen=True, slots=True)
class ChooseSlot:
    """A slot of a hand was picked (hand memory): 1 is the newest card, at the left.

    In a hint's entry it toggles whether the hint touched that slot; in a play's or a
    discard's, it says where the card came from. ``seat``: whose hand (a tap on another
    player's hand while a hint's receiver is asked picks the receiver too).
    """

    slot: int
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class ChooseSeat:
    """A player was picked by seat (0 first): the receiver of a hint (hand memory)."""

    seat: int


@dataclass(frozen=True, slots=True)
class ChooseNumber:
    """A digit was typed where a number is asked (e.g. player count 2-5)."""

    number: int


@dataclass(frozen=True, slots=True)
class TypeText:
    """Characters typed on a keyboard where text is asked (a player's name)."""

    text: str


@dataclass(frozen=True, slots=True)
class CardScanned:
    """A reader read a tag. ``card`` is None when the tag is not enrolled.

    ``role`` is the reader's: ``"any"`` (the players say next whether the card was
    played or discarded), ``"play"`` or ``"discard"`` (placing the card was the action).
    """

    tag: str
    card: Card | None
    role: ReaderRole = "any"


@dataclass(frozen=True, slots=True)
class Tap:
    """A touch or click at a screen position, resolved later by the layout."""

    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Select:
    """A tap resolved by the layout to a named on-screen target (a set-up or menu row)."""

    target: str


@dataclass(frozen=True, slots=True)
class DeviceStatus:
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
