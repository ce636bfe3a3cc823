"""The three actions of a turn, as the table reports them.

The companion sees only what the table reveals: a hint may come without its
receiver or what it named, a play or a discard comes with the card revealed.

>>> Play(Card.from_code("R3"))
Play(card=Card(color=<Color.RED: 0>, rank=3), announce=None, player=None, at=None, slot=None)
"""

from __future__ import annotations

from typing import final

import msgspec

from engine.cards import Card, Color

# Frozen msgspec Structs: immutable values, compared by type and fields (a hint never
# equals a play), the cheapest objects to build and to read by attribute (the engine builds
# one per replayed action and reads its fields in the referee); gc=False, as their fields
# hold no container that could make a cycle. Final: the engine tells them apart with
# ``type(action) is Hint``, cheaper than isinstance, and mypy narrows on it.


@final
class Hint(msgspec.Struct, frozen=True, gc=False):
    """A hint given. ``to``, ``color`` and ``rank`` are optional at a real table."""

    to: int | None = None
    color: Color | None = None
    rank: int | None = None
    player: int | None = None
    at: str | None = None
    #: With hand memory: the slots the hint touched (1 = the newest card, at the left).
    slots: tuple[int, ...] | None = None


@final
class Play(msgspec.Struct, frozen=True, gc=False):
    """A card played; ``announce`` is the colour named first (timed display)."""

    card: Card
    announce: Color | None = None
    player: int | None = None
    at: str | None = None
    #: With hand memory: the slot the card came from.
    slot: int | None = None


@final
class Discard(msgspec.Struct, frozen=True, gc=False):
    """A card discarded."""

    card: Card
    player: int | None = None
    at: str | None = None
    #: With hand memory: the slot the card came from.
    slot: int | None = None


Action = Hint | Play | Discard
