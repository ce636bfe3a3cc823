"""The hand being shown at the end (issue 34): the :class:`RevealEntry` value.

What it asks and its keys are :class:`~companion.core.revealing.RevealFlow`'s.
"""

from __future__ import annotations

from msgspec import Struct

from engine.cards import Card, Color


class RevealEntry(Struct):
    """A seat's hand being entered, slot 1 first: the cards entered so far, and the colour
    or the rank picked of the next one."""

    seat: int | None  # None: "whose hand is shown?"
    cards: tuple[Card, ...] = ()
    color: Color | None = None
    rank: int | None = None
