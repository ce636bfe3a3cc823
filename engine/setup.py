"""The set-up of a game: players, seats, and the variant as data.

Variants are data: each suit in play is a :class:`SuitSpec` with its copies
per rank and two flags; nothing in the engine tests a variant's name.

>>> setup = GameSetup(players=3)
>>> setup.hand_size, setup.deck_size, setup.initial_deck, setup.max_score
(5, 50, 35, 25)
>>> GameSetup(players=2, multicolor=Multicolor.SHORT).max_score
30
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import cache

from engine.cards import ALL_CARDS, Card, Color

MAX_HINTS = 8
MAX_FUSES = 3
NORMAL_COPIES = (3, 2, 2, 2, 1)
SHORT_COPIES = (1, 1, 1, 1, 1)


class SetupError(ValueError):
    """A set-up the rules do not allow (player count, seats, variant mix)."""


class Multicolor(Enum):
    """The sixth suit: none, short (one card per rank) or full (ten cards)."""

    NONE = "none"
    SHORT = "short"
    FULL = "full"


@dataclass(frozen=True, slots=True)
class SuitSpec:
    """One suit in play, as data."""

    color: Color
    copies: tuple[int, int, int, int, int] = NORMAL_COPIES
    #: A hint may name this colour (false for wild multicolor).
    named_in_hints: bool = True
    #: Every colour hint touches this suit's cards (wild multicolor).
    touched_by_every_color_hint: bool = False


@dataclass(frozen=True)
class GameSetup:
    """Who plays and with which rules. Immutable; validated on creation."""

    players: int
    first_player: int = 0
    names: tuple[str, ...] = ()
    multicolor: Multicolor = Multicolor.NONE
    wild_multicolor: bool = False
    crowning_piece: bool = False
    timed_display: bool = False
    empty_clues: bool = False
    strikeout_keeps_score: bool = False
    started_at: str | None = None

    suits: tuple[SuitSpec, ...] = field(init=False, repr=False, compare=False)
    #: Copies in the deck of each card, indexed by :attr:`Card.index` (0 if not in play).
    copies: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _suit_of: dict[Color, SuitSpec] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise SetupError("the number of players must be a whole number from 2 to 5")
        if not 2 <= self.players <= 5:
            raise SetupError(f"Hanabi is played by 2 to 5 players, not {self.players}")
        if not isinstance(self.first_player, int) or not 0 <= self.first_player < self.players:
            raise SetupError(
                f"the first player must be a seat from 0 to {self.players - 1}, "
                f"not {self.first_player!r}"
            )
        names = tuple(self.names) or tuple(f"Player {i + 1}" for i in range(self.players))
        if len(names) != self.players or not all(isinstance(n, str) and n for n in names):
            raise SetupError(f"give one non-empty name per seat ({self.players} names)")
        object.__setattr__(self, "names", names)
        if self.wild_multicolor and self.multicolor is Multicolor.NONE:
            raise SetupError("wild multicolor needs a multicolor suit (short or full)")
        other_variants = (self.multicolor is not Multicolor.NONE) + self.timed_display
        if self.crowning_piece and other_variants > 1:
            raise SetupError("the crowning piece combines with one other variant only")
        suits, copies, suit_of = _deck(self.multicolor, self.wild_multicolor)
        object.__setattr__(self, "suits", suits)
        object.__setattr__(self, "copies", copies)
        object.__setattr__(self, "_suit_of", suit_of)

    @property
    def hand_size(self) -> int:
        """5 cards with 2 or 3 players, 4 with 4 or 5."""
        return 5 if self.players <= 3 else 4

    @property
    def deck_size(self) -> int:
        """Cards in the whole deck: 50, 55 (short multicolor) or 60 (full)."""
        return sum(self.copies)

    @property
    def initial_deck(self) -> int:
        """Cards in the draw pile after the deal."""
        return self.deck_size - self.players * self.hand_size

    @property
    def max_score(self) -> int:
        """5 per suit: 25, or 30 with six suits."""
        return 5 * len(self.suits)

    @property
    def colors(self) -> tuple[Color, ...]:
        """The colours in play, in suit order."""
        return tuple(suit.color for suit in self.suits)

    def suit(self, color: Color) -> SuitSpec | None:
        """The suit of that colour, or None when it is not in this game."""
        return self._suit_of.get(color)

    def variant_name(self) -> str:
        """A short English description, e.g. ``"short multicolor, timed display"``."""
        parts = []
        if self.multicolor is not Multicolor.NONE:
            parts.append(
                ("wild " if self.wild_multicolor else "") + self.multicolor.value + " multicolor"
            )
        for flag, label in (
            (self.crowning_piece, "crowning piece"),
            (self.timed_display, "timed display"),
            (self.empty_clues, "empty clues"),
            (self.strikeout_keeps_score, "strikeout keeps score"),
        ):
            if flag:
                parts.append(label)
        return ", ".join(parts) or "base game"


@cache
def _deck(
    multicolor: Multicolor, wild: bool
) -> tuple[tuple[SuitSpec, ...], tuple[int, ...], dict[Color, SuitSpec]]:
    """The suits in play, the copies of each card and a colour index (one per variant)."""
    suits = [SuitSpec(color) for color in Color if color is not Color.MULTICOLOR]
    if multicolor is not Multicolor.NONE:
        suits.append(
            SuitSpec(
                Color.MULTICOLOR,
                SHORT_COPIES if multicolor is Multicolor.SHORT else NORMAL_COPIES,
                named_in_hints=not wild,
                touched_by_every_color_hint=wild,
            )
        )
    copies = [0] * len(ALL_CARDS)
    for suit in suits:
        for rank, count in enumerate(suit.copies, start=1):
            copies[Card(suit.color, rank).index] = count
    return tuple(suits), tuple(copies), {suit.color: suit for suit in suits}
