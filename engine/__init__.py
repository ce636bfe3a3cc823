"""The Hanabi rules engine: pure, deterministic, no I/O.

It knows only what the table reveals (played and discarded cards, hints
given) and decides whether each action is legal and what it does.
"""

from engine.actions import Action, Discard, Hint, Play
from engine.cards import ALL_CARDS, Card, CardFormatError, Color
from engine.errors import IllegalAction
from engine.game import Event, EventKind, Game, Position
from engine.options import OPTION_NAMES, GameOptions, Multicolor, SetupError, SuitSpec
from engine.outcome import EndReason, Outcome, Rating, rating_for
from engine.setup import MAX_FUSES, MAX_HINTS, GameSetup

__all__ = [
    "ALL_CARDS",
    "MAX_FUSES",
    "MAX_HINTS",
    "OPTION_NAMES",
    "Action",
    "Card",
    "CardFormatError",
    "Color",
    "Discard",
    "EndReason",
    "Event",
    "EventKind",
    "Game",
    "GameOptions",
    "GameSetup",
    "Hint",
    "IllegalAction",
    "Multicolor",
    "Outcome",
    "Play",
    "Position",
    "Rating",
    "SetupError",
    "SuitSpec",
    "rating_for",
]
