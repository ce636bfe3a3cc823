"""Hand memory: what the hints have told a player about each card in their hand.

A hand is a row of **slots** numbered from 1 at the left end; slot 1 holds the
newest card. When a card leaves slot k, the cards in slots 1 … k−1 move one
slot right and the card drawn takes slot 1 (GAME-LOG.md, "Hand memory").

Each slot remembers which cards it may still be, from the hints alone: a hint
that touched it keeps only the cards that hint touches; one that did not removes
them. Which cards a hint touches is the variant's rule
(:meth:`engine.variants.Variant.touches`: a red hint touches red cards, and
multicolor ones with wild multicolor, and a pink 1 in Pink-Ones…). It never
knows more than the table was told.

The referee keeps a slot's possibilities as one whole number, a **mask**, one bit
per card (:attr:`Card.ordinal`), so that a hint is a bitwise "and" per slot (with
the masks of :func:`clue_masks`; a mask of 0 is a contradiction);
:class:`SlotKnowledge` is the same knowledge as a value, for everyone else: the
colours and the ranks left, and the cards left when they are fewer than every
pair of those.

A red hint (no wild multicolor) that touched slot 1 of two fresh slots:

>>> from engine.options import GameOptions
>>> rules = GameOptions().rules()
>>> fresh = fresh_mask(GameOptions())
>>> touched, missed = clue_masks(rules)[0][Color.RED]
>>> red, not_red = fresh & touched, fresh & missed
>>> knowledge(red).color, sorted(knowledge(red).ranks), red == 0
(<Color.RED: 0>, [1, 2, 3, 4, 5], False)
>>> [c.label for c in knowledge(not_red).colors]
['yellow', 'green', 'blue', 'white']
>>> red & missed  # red, and then not red: a contradiction
0
>>> knowledge(red).allows(Card.from_code("R3")), knowledge(red).allows(Card.from_code("B3"))
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import TypeVar

import msgspec

from engine.cards import ALL_CARDS, Card, Color
from engine.options import GameOptions
from engine.variants import Variant

RANKS: frozenset[int] = frozenset((1, 2, 3, 4, 5))

Clue = Color | int
"""What a hint names: a colour or a rank."""

T = TypeVar("T", Color, int)
T_slot = TypeVar("T_slot")


class SlotKnowledge(msgspec.Struct, frozen=True, gc=False):
    """What one card may still be, from the hints about it."""

    colors: frozenset[Color]
    ranks: frozenset[int]
    #: The clues that touched this card, in the order they were given.
    clues: tuple[Clue, ...] = ()
    #: The cards it may be, when the hints leave fewer than every colour with every rank
    #: (a special suit's or a special rank's rules); None: ``colors`` × ``ranks``.
    cards: frozenset[Card] | None = None

    @classmethod
    def fresh(cls, options: GameOptions) -> SlotKnowledge:
        """A card nobody has hinted yet: any colour in play, any rank."""
        return knowledge(fresh_mask(options))

    @property
    def color(self) -> Color | None:
        """The colour when only one is left, else None."""
        return next(iter(self.colors)) if len(self.colors) == 1 else None

    @property
    def rank(self) -> int | None:
        """The rank when only one is left, else None."""
        return next(iter(self.ranks)) if len(self.ranks) == 1 else None

    @property
    def touched(self) -> bool:
        """A hint has touched this card (the table's "clued card")."""
        return bool(self.clues)

    def allows(self, card: Card) -> bool:
        """Whether ``card`` can be in this slot."""
        if self.cards is not None:
            return card in self.cards
        return card.color in self.colors and card.rank in self.ranks

    def possible_cards(self) -> frozenset[Card]:
        """Every card this slot may be."""
        if self.cards is not None:
            return self.cards
        return frozenset(Card(color, rank) for color in self.colors for rank in self.ranks)

    def was_hinted(self, clue: Clue) -> bool:
        """A hint naming ``clue`` touched this card."""
        return any(type(given) is type(clue) and given == clue for given in self.clues)


# -- the referee's masks ----------------------------------------------------------------
#
# Bit ``card.ordinal`` (colour × 5 + rank − 1) is set while the card may be that card. A
# hint is then one "and" per slot, no set and no object is built while refereeing, and a
# mask is a small int: the hand is a plain list.

#: The bit of each card, by :attr:`Card.ordinal`: a card fits a mask that has it.
CARD_BITS: tuple[int, ...] = tuple(1 << card.ordinal for card in ALL_CARDS)
#: Every card's bit.
ALL_BITS = (1 << len(ALL_CARDS)) - 1
_RANK_BITS = 0b11111


def mask_of(colors: Iterable[Color], ranks: Iterable[int], /) -> int:
    """The mask of a slot that may be any of ``colors`` with any of ``ranks``.

    >>> bin(mask_of([Color.RED, Color.BLUE], [1, 5]))
    '0b10001000000000010001'
    """
    rank_bits = sum(1 << (rank - 1) for rank in set(ranks))
    return sum(rank_bits << (5 * color) for color in set(colors))


def cards_mask(cards: Iterable[Card]) -> int:
    """The mask of a slot that may be any of ``cards``."""
    mask = 0
    for card in cards:
        mask |= CARD_BITS[card.ordinal]
    return mask


def fresh_mask(options: GameOptions) -> int:
    """A card nobody has hinted yet: any card of the deck."""
    return _fresh_mask_of(options.copies())


@cache  # a handful of decks; every game's set-up asks for one
def _fresh_mask_of(copies: tuple[int, ...]) -> int:
    return cards_mask(card for card in ALL_CARDS if copies[card.ordinal])


@cache  # one pair of tables per variant
def clue_masks(
    rules: Variant,
) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """What a hint does to a slot, by colour (indexed by :class:`Color`) and by rank
    (indexed 0 … 5, 0 unused): the masks (touched, missed) to "and" with the slot's when
    the hint touched it and when it missed it. A touched slot keeps the cards the clue
    touches, a missed one the others; a hint whose clue the receiver does not hear (cow &
    pig, duck) tells no slot anything."""
    if not rules.clues_heard:
        return ((ALL_BITS, ALL_BITS),) * len(Color), ((ALL_BITS, ALL_BITS),) * 6
    colors = tuple(_split(cards_mask(rules.touched_cards(color))) for color in Color)
    ranks = (
        (ALL_BITS, ALL_BITS),
        *(_split(cards_mask(rules.touched_cards(rank))) for rank in range(1, 6)),
    )
    return colors, ranks


@cache  # one per variant
def touch_masks(rules: Variant) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The cards a hint really touches, by colour and by rank (indexed 0 … 5), whether
    the receiver hears its clue or not: what a table that sees the cards points at."""
    colors = tuple(cards_mask(rules.touched_cards(color)) for color in Color)
    ranks = (0, *(cards_mask(rules.touched_cards(rank)) for rank in range(1, 6)))
    return colors, ranks


def _split(touched: int) -> tuple[int, int]:
    return touched, ALL_BITS & ~touched


def _subsets(universe: Iterable[T], bit: dict[T, int]) -> dict[int, frozenset[T]]:
    """Every subset of ``universe`` by the bits of its members (one object per value)."""
    items = sorted(universe)
    return {
        sum(bit[item] for item in subset): frozenset(subset)
        for subset in (
            [item for index, item in enumerate(items) if mask >> index & 1]
            for mask in range(1 << len(items))
        )
    }


_COLOR_SETS = _subsets(Color, {color: 1 << color for color in Color})
_RANK_SETS = _subsets(RANKS, {rank: 1 << (rank - 1) for rank in RANKS})


def knowledge(mask: int, clues: tuple[Clue, ...] = ()) -> SlotKnowledge:
    """The :class:`SlotKnowledge` of a mask (and the clues that touched the slot)."""
    colors = ranks = product = 0
    for color in range(len(Color)):
        chunk = mask >> (5 * color) & _RANK_BITS
        if chunk:
            colors |= 1 << color
            ranks |= chunk
    for color in range(len(Color)):
        if colors >> color & 1:
            product |= ranks << (5 * color)
    cards = None
    if product != mask:
        cards = frozenset(card for card in ALL_CARDS if mask & CARD_BITS[card.ordinal])
    return SlotKnowledge(_COLOR_SETS[colors], _RANK_SETS[ranks], clues, cards)


def leave_slot(seat: list[T_slot], slot: int, drew: bool, fresh: T_slot) -> None:
    """A card leaves ``slot`` of a hand (what is known of each slot, slot 1 first): the
    cards in the slots before it move one slot right, and the card drawn, if any, takes
    slot 1 as ``fresh`` (GAME-LOG.md, "Hand memory"). The referee moves its masks with it,
    :meth:`Game.hand_memory` the clues.

    >>> seat = ["a", "b", "c"]
    >>> leave_slot(seat, 2, True, "new")
    >>> seat
    ['new', 'a', 'c']
    """
    del seat[slot - 1]
    if drew:
        seat.insert(0, fresh)
