"""A suit as data: which clues touch its cards, how many copies it has, its printed letter.

A :class:`Suit` is Hanab Live's kind of suit (docs/variants.md, "A Quick Overview
of Special Suits"), or one of the printed books': what colour clues touch it (its
own colour, every colour, none, or one colour per rank for a prism), what rank
clues touch it (its own rank, every rank, none), whether it has one card of each
rank, whether it plays inverted (an orange suit) and which printed cards stand
for it (GAME-LOG.md, "Variants by name"). A :class:`SuitSpec` is a suit in one
game: the suit, its copies of each rank, and whether a hint may name its colour.

>>> rainbow = Suit("Rainbow", Color.MULTICOLOR, colors=ColorTouch.ALL)
>>> rainbow.colors.value, rainbow.ranks.value, rainbow.one_of_each
('all', 'own', False)
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from msgspec import Struct

from engine.cards import Color

NORMAL_COPIES: Final = (3, 2, 2, 2, 1)
SHORT_COPIES: Final = (1, 1, 1, 1, 1)


class ColorTouch(Enum):
    """Which colour clues touch a suit's cards."""

    OWN = "own"  # the clue of its own colour
    ALL = "all"  # every colour clue (rainbow, wild multicolor)
    NONE = "none"  # no colour clue (white, null)
    PRISM = "prism"  # the colour at its rank's place in the variant's clue colours


class RankTouch(Enum):
    """Which rank clues touch a suit's cards (or a variant's special rank)."""

    OWN = "own"  # the clue of its own rank
    ALL = "all"  # every rank clue (pink)
    NONE = "none"  # no rank clue (brown)
    #: Special ranks only: the rank clue at the suit's place in the variant's clue ranks.
    DECEPTIVE = "deceptive"


class Suit(Struct, frozen=True, gc=False):
    """A kind of suit: its name, the printed cards that stand for it and its clue rules."""

    name: str
    #: The printed cards that stand for it: R Y G B W, M for any other suit.
    color: Color
    colors: ColorTouch = ColorTouch.OWN
    ranks: RankTouch = RankTouch.OWN
    #: One card of each rank (a "dark" suit, black, short multicolor).
    one_of_each: bool = False
    #: A play of one of its cards is a discard, a discard a play (Hanab Live's orange).
    inverted: bool = False


class SuitSpec(Struct, frozen=True):
    """One suit in one game: its printed colour, its copies of each rank, its rules."""

    color: Color
    copies: tuple[int, int, int, int, int] = NORMAL_COPIES
    #: A hint may name this colour (false for wild multicolor, rainbow, white…).
    named_in_hints: bool = True
    #: Every colour hint touches this suit's cards (wild multicolor, rainbow).
    touched_by_every_color_hint: bool = False
    #: The kind of suit (None: an ordinary suit of that colour).
    suit: Suit | None = None

    @property
    def name(self) -> str:
        """The suit's name: Hanab Live's ("Rainbow"), else the colour's word."""
        return self.color.label if self.suit is None else self.suit.name
