"""The set-up of a game: players, seats, and the variant as data.

Variants are data: the options are one :class:`GameOptions` value, its rules one
:class:`~engine.variants.Variant` (its suits and its flags); each suit in play is
a :class:`SuitSpec` with its copies per rank; the set-up works out once what the
referee reads at every action (a hint's cost, the token limit, the cards each
clue touches); nothing in the engine tests a variant's name.

>>> setup = GameSetup(players=3)
>>> setup.hand_size, setup.deck_size, setup.initial_deck, setup.max_score
(5, 50, 35, 25)
>>> GameSetup(players=2, options=GameOptions(multicolor=Multicolor.SHORT)).max_score
30
"""

from __future__ import annotations

from functools import cache

from engine.cards import ALL_CARDS, Color
from engine.memory import clue_masks, fresh_mask, touch_masks
from engine.options import GameOptions, Multicolor, SetupError, SuitSpec
from engine.variants import Variant

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


class GameSetup:
    """A game's set-up: who plays and with which rules.

    Immutable; validated on creation; compares by the five values it is made of (the rest
    follows from them).

    A plain class, not a dataclass: a dataclass writes and compiles its methods' source when
    its module is imported, which the start pays before its first frame.
    """

    __slots__ = (
        "_suit_of",
        "alternating",
        "clue_ranks",
        "color_clues",
        "color_touches",
        "copies",
        "discard_when_tokens_full",
        "empty_color_hints",
        "empty_rank_hints",
        "first_player",
        "fresh_mask",
        "hint_cost",
        "inverted",
        "max_hints",
        "names",
        "options",
        "players",
        "rank_clues",
        "rank_touches",
        "rules",
        "started_at",
        "suits",
        "token_for_a_firework",
    )

    players: int
    first_player: int
    #: One name per seat ("Player 1", "Player 2"... when none are given).
    names: tuple[str, ...]
    options: GameOptions
    started_at: str | None
    suits: tuple[SuitSpec, ...]
    #: Copies in the deck of each card, indexed by :attr:`Card.ordinal` (0 if not in play).
    copies: tuple[int, ...]
    _suit_of: dict[Color, SuitSpec]
    #: With hand memory, what a card dealt or drawn may be: any card of the deck (its
    #: mask, see :mod:`engine.memory`).
    fresh_mask: int
    #: The variant's rules (the named one, or the printed books' the options pick).
    rules: Variant
    #: Hint tokens are counted in units: a hint costs ``hint_cost`` (2 with clue starved,
    #: where a discard gives back half a token), ``max_hints`` is 8 tokens' worth.
    hint_cost: int
    max_hints: int
    #: A completed firework gives a unit back (not when the plays go in a hole).
    token_for_a_firework: int
    #: A discard is allowed with every token available (an inverted suit).
    discard_when_tokens_full: bool
    #: A colour (a rank) hint may touch no card: the option, or a variant whose colour
    #: (rank) clues touch nothing.
    empty_color_hints: bool
    empty_rank_hints: bool
    #: By :attr:`Card.ordinal`: the card's suit is inverted (a play is a discard, and a
    #: discard a play).
    inverted: tuple[bool, ...]
    #: What a hint tells each slot, by colour and by rank (index 1 … 5): the masks
    #: (touched, missed) of :func:`engine.memory.clue_masks`.
    color_clues: tuple[tuple[int, int], ...]
    rank_clues: tuple[tuple[int, int], ...]
    #: The cards a hint really touches, by colour and by rank (:func:`~engine.memory.touch_masks`).
    color_touches: tuple[int, ...]
    rank_touches: tuple[int, ...]
    #: The ranks a hint may name; each hint names the other kind of clue than the last.
    clue_ranks: tuple[int, ...]
    alternating: bool

    def __init__(
        self,
        players: int,
        first_player: int = 0,
        names: tuple[str, ...] = (),
        options: GameOptions | None = None,
        started_at: str | None = None,
    ) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise SetupError("players", "the number of players must be a whole number from 2 to 5")
        if not 2 <= players <= 5:
            raise SetupError("players", f"Hanabi is played by 2 to 5 players, not {players}")
        if not isinstance(first_player, int) or not 0 <= first_player < players:
            raise SetupError(
                "first_player",
                f"the first player must be a seat from 0 to {players - 1}, not {first_player!r}",
            )
        names = tuple(names) or tuple(f"Player {i + 1}" for i in range(players))
        if len(names) != players or not all(isinstance(n, str) and n for n in names):
            raise SetupError("names", f"give one non-empty name per seat ({players} names)")
        if options is None:
            options = GameOptions()
        options.check()
        for name, value in (
            ("players", players),
            ("first_player", first_player),
            ("names", names),
            ("options", options),
            ("started_at", started_at),
            *_worked_out(
                options.variant, options.multicolor, options.wild_multicolor, options.empty_clues
            ),
        ):
            object.__setattr__(self, name, value)

    def _values(self) -> tuple[int, int, tuple[str, ...], GameOptions, str | None]:
        return (self.players, self.first_player, self.names, self.options, self.started_at)

    def __eq__(self, other: object) -> bool:
        if type(other) is not GameSetup:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        players, first_player, names, options, started_at = self._values()
        return (
            f"GameSetup(players={players!r}, first_player={first_player!r}, names={names!r}, "
            f"options={options!r}, started_at={started_at!r})"
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a GameSetup cannot be changed: make a new one ({name})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a GameSetup cannot be changed: make a new one ({name})")

    @property
    def hand_size(self) -> int:
        """5 cards with 2 or 3 players, 4 with 4 or 5."""
        return 5 if self.players <= 3 else 4

    @property
    def deck_size(self) -> int:
        """Cards in the whole deck: 50, 55 (short multicolor) or 60 (full), or the
        variant's count."""
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
    def empty_hints(self) -> bool:
        """Some hint may touch no card (the option, or colour or rank clues that touch
        nothing): a hint whose clue is not given may then be an empty one."""
        return self.empty_color_hints or self.empty_rank_hints

    def hint_tokens(self, units: int) -> int | float:
        """``units`` of the engine's count as hint tokens: a whole number, or a half with
        clue starved (7.5)."""
        tokens = units / self.hint_cost
        return int(tokens) if tokens.is_integer() else tokens

    @property
    def colors(self) -> tuple[Color, ...]:
        """The colours in play, in suit order."""
        return tuple(suit.color for suit in self.suits)

    def suit(self, color: Color) -> SuitSpec | None:
        """The suit of that colour, or None when it is not in this game."""
        return self._suit_of.get(color)


@cache  # one per variant and empty clues: a set-up per game reads it, hashing four values
def _worked_out(
    variant: str | None, multicolor: Multicolor, wild: bool, empty_clues: bool
) -> tuple[tuple[str, object], ...]:
    """What a set-up works out from its variant once (the fields of :class:`GameSetup`
    that its options' rules give)."""
    options = GameOptions(
        multicolor=multicolor, wild_multicolor=wild, empty_clues=empty_clues, variant=variant
    )
    rules = options.rules()
    suits = rules.specs()
    inverted = {suit.color for suit in suits if suit.suit is not None and suit.suit.inverted}
    color_clues, rank_clues = clue_masks(rules)
    color_touches, rank_touches = touch_masks(rules)
    return (
        ("suits", suits),
        ("copies", options.copies()),
        ("_suit_of", {suit.color: suit for suit in suits}),
        ("fresh_mask", fresh_mask(options)),
        ("rules", rules),
        ("hint_cost", rules.hint_cost),
        ("max_hints", MAX_HINTS * rules.hint_cost),
        ("token_for_a_firework", int(rules.completing_gives_a_token)),
        ("discard_when_tokens_full", rules.discard_when_tokens_full),
        ("empty_color_hints", empty_clues or rules.color_clues_touch_nothing),
        ("empty_rank_hints", empty_clues or rules.rank_clues_touch_nothing),
        ("inverted", tuple(card.color in inverted for card in ALL_CARDS)),
        ("color_clues", color_clues),
        ("rank_clues", rank_clues),
        ("color_touches", color_touches),
        ("rank_touches", rank_touches),
        ("clue_ranks", rules.clue_ranks),
        ("alternating", rules.alternating_clues),
    )
