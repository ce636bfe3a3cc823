"""Hand memory: what the hints have told a player about each card in their hand.

A hand is a row of **slots** numbered from 1 at the left end; slot 1 holds the
newest card. When a card leaves slot k, the cards in slots 1 … k−1 move one
slot right and the card drawn takes slot 1 (GAME-LOG.md, "Hand memory").

Each slot remembers what it may still be, from the hints alone: a colour hint
that touched it keeps that colour (and, with wild multicolor, multicolor); one
that did not removes them. Rank hints the same way. It never knows more than
the table was told.

The referee keeps a slot's possibilities as one whole number, a **mask** (one bit
per colour, one per rank: :func:`mask_of`), so that a hint is a bitwise "and" per
slot (with :data:`COLOR_CLUES` or :data:`RANK_CLUES`; a mask in :data:`IMPOSSIBLE` is
a contradiction); :class:`SlotKnowledge` is the same knowledge as a value, for
everyone else.

A red hint (no wild multicolor) that touched slot 1 of two fresh slots:

>>> from engine.options import GameOptions
>>> fresh = fresh_mask(GameOptions())
>>> touched, missed = COLOR_CLUES[False][Color.RED]
>>> red, not_red = fresh & touched, fresh & missed
>>> knowledge(red).color, sorted(knowledge(red).ranks), red in IMPOSSIBLE
(<Color.RED: 0>, [1, 2, 3, 4, 5], False)
>>> [c.label for c in knowledge(not_red).colors]
['yellow', 'green', 'blue', 'white']
>>> red & missed in IMPOSSIBLE  # red, and then not red: a contradiction
True
>>> knowledge(red).allows(Card.from_code("R3")), knowledge(red).allows(Card.from_code("B3"))
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import TypeVar

import msgspec

from engine.cards import ALL_CARDS, Card, Color
from engine.options import GameOptions, SuitSpec

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
        return card.color in self.colors and card.rank in self.ranks

    def was_hinted(self, clue: Clue) -> bool:
        """A hint naming ``clue`` touched this card."""
        return any(type(given) is type(clue) and given == clue for given in self.clues)


# -- the referee's masks ----------------------------------------------------------------
#
# Bit ``color`` (0 … 5) is set while the card may be of that colour, bit ``RANK_SHIFT +
# rank - 1`` while it may be of that rank. A hint is then one "and" per slot, no set and
# no object is built while refereeing, and a mask is a small int: the hand is a plain list.

RANK_SHIFT = 8
#: Every colour's bit, every rank's bit.
COLOR_BITS = (1 << len(Color)) - 1
RANK_BITS = 0b11111 << RANK_SHIFT


def _rank_bit(rank: int) -> int:
    return 1 << (RANK_SHIFT + rank - 1)


def mask_of(colors: Iterable[Color], ranks: Iterable[int], /) -> int:
    """The mask of a slot that may be any of ``colors`` and any of ``ranks``.

    >>> bin(mask_of([Color.RED, Color.BLUE], [1, 5]))
    '0b1000100001001'
    """
    mask = 0
    for color in colors:
        mask |= 1 << color
    for rank in ranks:
        mask |= _rank_bit(rank)
    return mask


def fresh_mask(options: GameOptions) -> int:
    """A card nobody has hinted yet: any colour in play, any rank."""
    return _fresh_mask_of(options.suits())


@cache  # a handful of suit sets; every game's set-up asks for one
def _fresh_mask_of(suits: tuple[SuitSpec, ...]) -> int:
    return mask_of((suit.color for suit in suits), RANKS)


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
_RANK_SETS = _subsets(RANKS, {rank: _rank_bit(rank) for rank in RANKS})


def knowledge(mask: int, clues: tuple[Clue, ...] = ()) -> SlotKnowledge:
    """The :class:`SlotKnowledge` of a mask (and the clues that touched the slot)."""
    return SlotKnowledge(_COLOR_SETS[mask & COLOR_BITS], _RANK_SETS[mask & RANK_BITS], clues)


#: The masks no card can match: no colour or no rank left (a contradiction).
IMPOSSIBLE: frozenset[int] = frozenset(
    colors | ranks for colors in _COLOR_SETS for ranks in _RANK_SETS if not (colors and ranks)
)
#: The bits a card sets, by :attr:`Card.ordinal`: it fits a mask that has them all.
CARD_BITS: tuple[int, ...] = tuple(1 << card.color | _rank_bit(card.rank) for card in ALL_CARDS)


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


def color_answers(color: Color, wild: bool) -> frozenset[Color]:
    """The colours of the cards a hint naming ``color`` touches."""
    return frozenset((color, Color.MULTICOLOR)) if wild else frozenset((color,))


# What a hint does to a slot: the masks (touched, missed) to "and" with the slot's when the
# hint touched it and when it missed it. A colour clue keeps (or drops) the colours it
# answers and every rank; a rank clue the same with its rank.

#: By colour, without wild multicolor (``COLOR_CLUES[False]``) and with it (``[True]``).
COLOR_CLUES: tuple[dict[Color, tuple[int, int]], ...] = tuple(
    {
        color: (
            mask_of(color_answers(color, wild), RANKS),
            ~mask_of(color_answers(color, wild), ()),
        )
        for color in Color
    }
    for wild in (False, True)
)
#: By rank.
RANK_CLUES: dict[int, tuple[int, int]] = {
    rank: (mask_of(Color, (rank,)), ~_rank_bit(rank)) for rank in RANKS
}
