"""The colours and the cards: small value types with a parse/format round trip.

>>> Card.from_code("r3")
Card(color=<Color.RED: 0>, rank=3)
>>> Card.from_code("M5").code()
'M5'
>>> Color.from_name("white").letter
'W'
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from engine.errors import CompanionError


class CardFormatError(CompanionError, ValueError):
    """A card or colour that is not spelt as the log format says."""


class Color(IntEnum):
    """The six colours, in the order the rules list them (R Y G B W M)."""

    RED = 0
    YELLOW = 1
    GREEN = 2
    BLUE = 3
    WHITE = 4
    MULTICOLOR = 5

    @property
    def letter(self) -> str:
        """The one-letter code used on cards: ``R Y G B W M``."""
        return "RYGBWM"[self]

    @property
    def label(self) -> str:
        """The lower-case word used in logs: ``red`` … ``multicolor``."""
        return self.name.lower()

    @classmethod
    def from_letter(cls, letter: str) -> Color:
        """Parse a suit letter, case-insensitive."""
        try:
            return _COLOR_BY_LETTER[letter.upper()]
        except (KeyError, AttributeError):
            raise CardFormatError(f"{letter!r} is not a suit letter (R Y G B W M)") from None

    @classmethod
    def from_name(cls, name: str) -> Color:
        """Parse a colour word as the log writes it (``red`` … ``multicolor``)."""
        try:
            return _COLOR_BY_NAME[name]
        except (KeyError, TypeError):
            raise CardFormatError(
                f"{name!r} is not a colour (red yellow green blue white multicolor)"
            ) from None


_COLOR_BY_LETTER = {c.letter: c for c in Color}
_COLOR_BY_NAME = {c.label: c for c in Color}

RANKS = (1, 2, 3, 4, 5)


class Card(NamedTuple):
    """A revealed card: a colour and a rank from 1 to 5."""

    color: Color
    rank: int

    @classmethod
    def from_code(cls, code: str) -> Card:
        """Parse ``R3`` (case-insensitive) into a card."""
        try:
            return _CARD_BY_CODE[code.upper()]
        except (KeyError, AttributeError):
            raise CardFormatError(
                f"{code!r} is not a card: a suit letter R Y G B W M and a rank 1-5, like R3"
            ) from None

    def code(self) -> str:
        """The card as the log writes it: ``R3``."""
        return f"{self.color.letter}{self.rank}"

    @property
    def ordinal(self) -> int:
        """A dense index 0..29 (colour-major), handy for counting tables."""
        return self.color * 5 + self.rank - 1


ALL_CARDS: tuple[Card, ...] = tuple(Card(c, r) for c in Color for r in RANKS)
_CARD_BY_CODE = {card.code(): card for card in ALL_CARDS}
