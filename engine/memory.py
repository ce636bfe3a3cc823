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
>>> red = touched_by_color(fresh, Color.RED, wild=False)
>>> red.color, sorted(red.ranks), red.touched
(<Color.RED: 0>, [1, 2, 3, 4, 5], True)
>>> not_red = missed_by_color(fresh, Color.RED, wild=False)
>>> [c.label for c in not_red.colors], not_red.touched
(['yellow', 'green', 'blue', 'white'], False)
>>> red.allows(Card.from_code("R3")), red.allows(Card.from_code("B3"))
(True, False)
"""

from __future__ import annotations

from typing import NamedTuple

from engine.cards import Card, Color
from engine.options import GameOptions

RANKS: frozenset[int] = frozenset((1, 2, 3, 4, 5))

Clue = Color | int
"""What a hint names: a colour or a rank."""


class SlotKnowledge(NamedTuple):
    """What one card may still be, from the hints about it."""

    colors: frozenset[Color]
    ranks: frozenset[int]
    #: The clues that touched this card, in the order they were given.
    clues: tuple[Clue, ...] = ()

    @classmethod
    def fresh(cls, options: GameOptions) -> SlotKnowledge:
        """A card nobody has hinted yet: any colour in play, any rank."""
        return cls(frozenset(suit.color for suit in options.suits()), RANKS)

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


# Slots are built with tuple.__new__ and every field, as namedtuple's own _make does: the
# referee builds a few per hint, and SlotKnowledge(...) or _replace cost two to three times
# as much.
_new_tuple = tuple.__new__

#: What a colour hint touches, by colour and by wild multicolor (off, on).
_ANSWERS: dict[tuple[Color, bool], frozenset[Color]] = {
    (color, wild): frozenset((color, Color.MULTICOLOR)) if wild else frozenset((color,))
    for color in Color
    for wild in (False, True)
}
_RANK_SETS: dict[int, frozenset[int]] = {rank: frozenset((rank,)) for rank in RANKS}


def color_answers(color: Color, wild: bool) -> frozenset[Color]:
    """The colours of the cards a hint naming ``color`` touches."""
    return _ANSWERS[color, wild]


def touched_by_color(slot: SlotKnowledge, color: Color, *, wild: bool) -> SlotKnowledge:
    """``slot`` after a hint naming ``color`` touched it."""
    colors, ranks, clues = slot
    return _new_tuple(SlotKnowledge, (colors & _ANSWERS[color, wild], ranks, (*clues, color)))


def missed_by_color(slot: SlotKnowledge, color: Color, *, wild: bool) -> SlotKnowledge:
    """``slot`` after a hint naming ``color`` did not touch it (the same slot if it could not
    be that colour anyway)."""
    colors, ranks, clues = slot
    answers = _ANSWERS[color, wild]
    if colors.isdisjoint(answers):
        return slot
    return _new_tuple(SlotKnowledge, (colors - answers, ranks, clues))


def touched_by_rank(slot: SlotKnowledge, rank: int) -> SlotKnowledge:
    """``slot`` after a hint naming ``rank`` touched it."""
    colors, ranks, clues = slot
    return _new_tuple(SlotKnowledge, (colors, ranks & _RANK_SETS[rank], (*clues, rank)))


def missed_by_rank(slot: SlotKnowledge, rank: int) -> SlotKnowledge:
    """``slot`` after a hint naming ``rank`` did not touch it (the same slot if it could not
    be that rank anyway)."""
    colors, ranks, clues = slot
    if rank not in ranks:
        return slot
    return _new_tuple(SlotKnowledge, (colors, ranks - _RANK_SETS[rank], clues))


def after_hint(
    hand: tuple[SlotKnowledge, ...], clue: Clue, slots: frozenset[int], *, wild: bool
) -> tuple[SlotKnowledge, ...]:
    """The hand after a hint naming ``clue`` touched ``slots`` (numbers from 1).

    Slots may be left with nothing possible: the caller refuses such a hint.
    """
    if isinstance(clue, Color):
        return tuple(
            [
                touched_by_color(slot, clue, wild=wild)
                if number in slots
                else missed_by_color(slot, clue, wild=wild)
                for number, slot in enumerate(hand, start=1)
            ]
        )
    return tuple(
        [
            touched_by_rank(slot, clue) if number in slots else missed_by_rank(slot, clue)
            for number, slot in enumerate(hand, start=1)
        ]
    )


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
