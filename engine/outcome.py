"""The end-of-game values: how a game ended, why, and its rating band.

A :class:`~engine.game.Game` reports them (docs/rules.md section 5).
"""

from __future__ import annotations

from enum import Enum


class Outcome(Enum):
    """How a game ended."""

    WON = "won"  # every firework complete
    LOST = "lost"  # storm, or a crowning-piece defeat
    FINISHED = "finished"  # the final round ended


class EndReason(Enum):
    """Why a game ended."""

    PERFECT = "perfect"
    STRIKEOUT = "strikeout"
    FINAL_ROUND = "final_round"
    CRITICAL_DISCARD = "critical_discard"
    NO_LEGAL_ACTION = "no_legal_action"

    @property
    def outcome(self) -> Outcome:
        """The outcome a game ended for this reason has.

        >>> EndReason.CRITICAL_DISCARD.outcome
        <Outcome.LOST: 'lost'>
        """
        return _OUTCOME_OF[self]


_OUTCOME_OF = {
    EndReason.PERFECT: Outcome.WON,
    EndReason.FINAL_ROUND: Outcome.FINISHED,
    EndReason.STRIKEOUT: Outcome.LOST,
    EndReason.CRITICAL_DISCARD: Outcome.LOST,
    EndReason.NO_LEGAL_ACTION: Outcome.LOST,
}


class Rating(Enum):
    """The rating bands of the rule books, lowest first."""

    HORRIBLE = "horrible"
    MEDIOCRE = "mediocre"
    HONOURABLE = "honourable"
    EXCELLENT = "excellent"
    AMAZING = "amazing"
    LEGENDARY = "legendary"
    DIVINE = "divine"


def rating_for(score: int, max_score: int) -> Rating:
    """The band of a score (docs/rules.md section 5).

    >>> rating_for(5, 25).value, rating_for(21, 25).value, rating_for(25, 25).value
    ('horrible', 'amazing', 'legendary')
    >>> rating_for(29, 30).value, rating_for(30, 30).value
    ('legendary', 'divine')
    """
    if score >= 30 and max_score >= 30:
        return Rating.DIVINE
    if score >= 25:
        return Rating.LEGENDARY
    bands = (Rating.HORRIBLE, Rating.MEDIOCRE, Rating.HONOURABLE, Rating.EXCELLENT)
    if score <= 20:
        return bands[max(score - 1, 0) // 5]
    return Rating.AMAZING
