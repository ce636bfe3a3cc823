"""Hand memory: what the hints have told a player about each card in their hand.

A hand is a row of **slots** numbered from 1 at the left end; slot 1 holds the
newest card. When a card leaves slot k, the cards in slots 1 … k−1 move one
slot right and the card drawn takes slot 1 (GAME-LOG.md, "Hand memory").

Each slot remembers what it may still be, from the hints alone: a colour hint
that touched it keeps that colour (and, with wild multicolor, multicolor); one
that did not removes them. Rank hints the same way. It never knows more than
the table was told.

>>> from engine.options import GameOptions
>>> fresh = SlotKnowledge.fresh(GameOptions())
>>> (red, not_red), possible = after_hint((fresh, fresh), Color.RED, {1}, wild=False)
>>> red.color, sorted(red.ranks), red.touched, possible
(<Color.RED: 0>, [1, 2, 3, 4, 5], True, True)
>>> [c.label for c in not_red.colors], not_red.touched
(['yellow', 'green', 'blue', 'white'], False)
>>> after_hint((red,), Color.RED, frozenset(), wild=False)[1]  # red, and not red: impossible
False
>>> red.allows(Card.from_code("R3")), red.allows(Card.from_code("B3"))
(True, False)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import TypeVar

import msgspec

from engine.cards import Card, Color
from engine.options import GameOptions

RANKS: frozenset[int] = frozenset((1, 2, 3, 4, 5))

Clue = Color | int
"""What a hint names: a colour or a rank."""

T = TypeVar("T", Color, int)


class SlotKnowledge(msgspec.Struct, frozen=True, gc=False):
    """What one card may still be, from the hints about it.

    A frozen msgspec Struct, not a named tuple: the referee builds a few per hint, and a
    Struct is built for a third of the cost and read by attribute without unpacking a tuple
    subclass (its fields hold no container that could make a cycle, so no GC tracking).
    """

    colors: frozenset[Color]
    ranks: frozenset[int]
    #: The clues that touched this card, in the order they were given.
    clues: tuple[Clue, ...] = ()

    @classmethod
    def fresh(cls, options: GameOptions) -> SlotKnowledge:
        """A card nobody has hinted yet: any colour in play, any rank."""
        colors = frozenset(suit.color for suit in options.suits())
        return cls(_COLOR_SUBSETS[colors], _RANK_SUBSETS[RANKS])

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


#: What a colour hint touches, by colour and by wild multicolor (off, on).
_ANSWERS: dict[tuple[Color, bool], frozenset[Color]] = {
    (color, wild): frozenset((color, Color.MULTICOLOR)) if wild else frozenset((color,))
    for color in Color
    for wild in (False, True)
}
_RANK_SETS: dict[int, frozenset[int]] = {rank: frozenset((rank,)) for rank in RANKS}


def _one_of_each(universe: Iterable[T]) -> dict[frozenset[T], frozenset[T]]:
    """Every subset of ``universe``, each mapped to itself: one object per value."""
    items = sorted(universe)
    subsets = (
        frozenset(item for bit, item in enumerate(items) if mask >> bit & 1)
        for mask in range(1 << len(items))
    )
    return {subset: subset for subset in subsets}


_COLOR_SUBSETS = _one_of_each(Color)
_RANK_SUBSETS = _one_of_each(RANKS)


def _splits(
    answers: frozenset[T], subsets: dict[frozenset[T], frozenset[T]]
) -> dict[frozenset[T], tuple[frozenset[T], frozenset[T]]]:
    """For every set of possibilities a slot may have: what it keeps when a clue with these
    ``answers`` touches it, and when the clue misses it (the very same set when the clue
    could not touch it anyway)."""
    return {
        subset: (
            subsets[subset & answers],
            subset if subset.isdisjoint(answers) else subsets[subset - answers],
        )
        for subset in subsets
    }


# A hint is then a look-up per slot in these tables, and no set is built while refereeing
# (building one costs as much as the rest of a slot's update). The slots hold the tables'
# own sets (a fresh slot too), so each look-up finds its key by identity.
_COLOR_SPLITS = {answers: _splits(answers, _COLOR_SUBSETS) for answers in set(_ANSWERS.values())}
_RANK_SPLITS = {rank: _splits(answers, _RANK_SUBSETS) for rank, answers in _RANK_SETS.items()}


def color_answers(color: Color, wild: bool) -> frozenset[Color]:
    """The colours of the cards a hint naming ``color`` touches."""
    return _ANSWERS[color, wild]


def after_hint(
    hand: tuple[SlotKnowledge, ...], clue: Clue, slots: Collection[int], wild: bool
) -> tuple[tuple[SlotKnowledge, ...], bool]:
    """The hand after a hint naming ``clue`` touched ``slots`` (numbers from 1), and whether
    every slot can still hold a card (the caller refuses the hint if not).

    A touched slot keeps only what the clue answers and remembers the clue; a missed one
    loses what the clue answers, and stays the very same value when it could not be that
    anyway (most slots, late in a game: nothing is built for them).
    """
    after = list(hand)  # a slot the hint does not change stays the very same value
    possible = True
    # One loop per kind of clue: a colour hint changes colours, a rank hint ranks.
    if type(clue) is Color:
        color_splits = _COLOR_SPLITS[_ANSWERS[clue, wild]]
        for number, slot in enumerate(hand, start=1):
            colors = slot.colors
            kept, left = color_splits[colors]
            if number in slots:
                after[number - 1] = SlotKnowledge(kept, slot.ranks, (*slot.clues, clue))
                if not kept:
                    possible = False
            elif left is not colors:
                after[number - 1] = SlotKnowledge(left, slot.ranks, slot.clues)
                if not left:
                    possible = False
    else:
        rank_splits = _RANK_SPLITS[clue]
        for number, slot in enumerate(hand, start=1):
            ranks = slot.ranks
            kept_ranks, left_ranks = rank_splits[ranks]
            if number in slots:
                after[number - 1] = SlotKnowledge(slot.colors, kept_ranks, (*slot.clues, clue))
                if not kept_ranks:
                    possible = False
            elif left_ranks is not ranks:
                after[number - 1] = SlotKnowledge(slot.colors, left_ranks, slot.clues)
                if not left_ranks:
                    possible = False
    return tuple(after), possible


def after_leaving(
    hand: tuple[SlotKnowledge, ...], slot: int, drawn: SlotKnowledge | None
) -> tuple[SlotKnowledge, ...]:
    """The hand after the card in ``slot`` left it and ``drawn`` (if any) took slot 1.

    >>> a, b, c = (SlotKnowledge(frozenset(), frozenset({n})) for n in (1, 2, 3))
    >>> new = SlotKnowledge(frozenset(), frozenset({5}))
    >>> [s.rank for s in after_leaving((a, b, c), 2, new)]
    [5, 1, 3]
    """
    if drawn is None:
        return hand[: slot - 1] + hand[slot:]
    return (drawn, *hand[: slot - 1], *hand[slot:])
