"""The three actions of a turn, as the table reports them.

The companion sees only what the table reveals: a hint may come without its
receiver or what it named, a play or a discard comes with the card revealed.

>>> Play(Card.from_code("R3"))
Play(card=Card(color=<Color.RED: 0>, rank=3), announce=None, player=None, at=None, slot=None)
"""

from __future__ import annotations

from typing import NamedTuple, final

from engine.cards import Card, Color

# Named tuples: immutable values, and the cheapest objects to build (the engine
# builds one per replayed action). Their field counts differ (6, 5, 4), so two
# actions of different kinds never compare equal. Final: the engine tells them apart
# with ``type(action) is Hint``, cheaper than isinstance, and mypy narrows on it.


@final
class Hint(NamedTuple):
    """Give a hint. ``to``, ``color`` and ``rank`` are optional at a real table."""

    to: int | None = None
    color: Color | None = None
    rank: int | None = None
    player: int | None = None
    at: str | None = None
    #: With hand memory: the slots the hint touched (1 = the newest card, at the left).
    slots: tuple[int, ...] | None = None


@final
class Play(NamedTuple):
    """Play a card; ``announce`` is the colour named first (timed display)."""

    card: Card
    announce: Color | None = None
    player: int | None = None
    at: str | None = None
    #: With hand memory: the slot the card came from.
    slot: int | None = None


@final
class Discard(NamedTuple):
    """Discard a card."""

    card: Card
    player: int | None = None
    at: str | None = None
    #: With hand memory: the slot the card came from.
    slot: int | None = None


Action = Hint | Play | Discard
