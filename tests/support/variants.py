"""Option values the tests share."""

from __future__ import annotations

from msgspec.structs import replace

from engine.options import GameOptions, Multicolor

#: Every variant on but the crowning piece (which combines with one other variant only).
ALL_BUT_CROWNING = GameOptions(
    multicolor=Multicolor.FULL,
    wild_multicolor=True,
    timed_display=True,
    empty_clues=True,
    strikeout_keeps_score=True,
)

#: Every variant on: the config takes it; a game set-up refuses it.
EVERY_VARIANT = replace(ALL_BUT_CROWNING, crowning_piece=True)
