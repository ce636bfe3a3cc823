"""The set-up of a game: players, seats, and the variant as data.

Variants are data: the options are one :class:`GameOptions` value, each suit
in play is a :class:`SuitSpec` with its copies per rank and two flags;
nothing in the engine tests a variant's name.

>>> setup = GameSetup(players=3)
>>> setup.hand_size, setup.deck_size, setup.initial_deck, setup.max_score
(5, 50, 35, 25)
>>> GameSetup(players=2, options=GameOptions(multicolor=Multicolor.SHORT)).max_score
30
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import Color
from engine.memory import fresh_mask
from engine.options import GameOptions, Multicolor, SetupError, SuitSpec

__all__ = [
    "MAX_FUSES",
    "MAX_HINTS",
    "GameOptions",
    "GameSetup",
    "Multicolor",
    "SetupError",
    "SuitSpec",
]

MAX_HINTS = 8
MAX_FUSES = 3


@dataclass(frozen=True)
class GameSetup:
    """Who plays and with which rules. Immutable; validated on creation."""

    players: int
    first_player: int = 0
    names: tuple[str, ...] = ()
    options: GameOptions = field(default_factory=GameOptions)
    started_at: str | None = None

    suits: tuple[SuitSpec, ...] = field(init=False, repr=False, compare=False)
    #: Copies in the deck of each card, indexed by :attr:`Card.ordinal` (0 if not in play).
    copies: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _suit_of: dict[Color, SuitSpec] = field(init=False, repr=False, compare=False)
    #: With hand memory, what a card dealt or drawn may be: any colour in play, any rank
    #: (its mask, see :mod:`engine.memory`).
    fresh_mask: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise SetupError("players", "the number of players must be a whole number from 2 to 5")
        if not 2 <= self.players <= 5:
            raise SetupError("players", f"Hanabi is played by 2 to 5 players, not {self.players}")
        if not isinstance(self.first_player, int) or not 0 <= self.first_player < self.players:
            raise SetupError(
                "first_player",
                f"the first player must be a seat from 0 to {self.players - 1}, "
                f"not {self.first_player!r}",
            )
        names = tuple(self.names) or tuple(f"Player {i + 1}" for i in range(self.players))
        if len(names) != self.players or not all(isinstance(n, str) and n for n in names):
            raise SetupError("names", f"give one non-empty name per seat ({self.players} names)")
        object.__setattr__(self, "names", names)
        self.options.check()
        suits = self.options.suits()
        object.__setattr__(self, "suits", suits)
        object.__setattr__(self, "copies", self.options.copies())
        object.__setattr__(self, "_suit_of", {suit.color: suit for suit in suits})
        object.__setattr__(self, "fresh_mask", fresh_mask(self.options))

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
