"""The story of a game in numbers: its efficiency, and its curve turn by turn.

Pure functions of a :class:`~engine.game.Game` (its set-up and actions), replayed with
the rules; the companion words them (``companion/core/story_words.py``).

- **Efficiency** (with hand memory: which cards hold a clue is known): the cards gotten
  (played, or still in a hand holding at least one clue) per clue spent (hints given,
  and clues lost: a misplay, a token a 5 or an announcement would have given back with
  all 8 in the box).
- **Future required efficiency**: the cards still to get for the highest reachable
  score, per clue still possible: the tokens in the box, one per discard the team can
  still afford before the final round, one per firework still to complete. None once
  the draw pile is empty, or when no clue is possible.
- **The curve**: after every turn the score, the highest score still reachable, the
  pace and the hint tokens; and every turn at which that highest score dropped, named
  (the last copy of a card gone, too few turns left, the end).

Decision 0116 says where these definitions come from and what they leave out.
"""

from __future__ import annotations

from msgspec import Struct

from engine.cards import Card
from engine.game import EventKind, Game


class Point(Struct, frozen=True):
    """The table after ``turn`` actions (0: the start)."""

    turn: int
    score: int
    max_score: int
    pace: int | None
    hints: int


class Drop(Struct, frozen=True):
    """A turn after which the highest reachable score was lower than before it."""

    turn: int
    player: int
    #: What the turn did (a discard, a misplay, a play, a hint) and its card, if any.
    kind: EventKind
    card: Card | None
    #: The cards whose every copy went with this turn (the last copy discarded).
    lost: tuple[Card, ...]
    before: int
    after: int
    #: The game ended at this turn: ``after`` is its final score.
    end: bool


class Story(Struct, frozen=True):
    """A game's curve (a point per turn, the start first) and its drops."""

    points: tuple[Point, ...]
    drops: tuple[Drop, ...]


def _clued_in_hands(game: Game) -> int:
    """Cards in the hands that hold at least one clue (hand memory only)."""
    return sum(
        slot.touched for seat in range(game.setup.players) for slot in game.hand_memory(seat)
    )


def cards_gotten(game: Game) -> int:
    """Cards played, and cards in a hand that hold a clue (0 for those without hand memory)."""
    return game.fireworks_total + _clued_in_hands(game)


def clues_spent(game: Game) -> int:
    """Hints given, and clues lost: a misplay, a token given back with all 8 in the box."""
    spent = 0
    for event in game.events:
        spent += event.kind is EventKind.HINT or event.fuse_burnt or event.bonus_lost
    return spent


def efficiency(game: Game) -> float | None:
    """Cards gotten per clue spent; None without hand memory or before any clue is spent."""
    if not game.setup.options.hand_memory:
        return None
    spent = clues_spent(game)
    return cards_gotten(game) / spent if spent else None


def clues_possible(game: Game) -> int | None:
    """Clues the team can still give while reaching its highest score: the tokens, one per
    discard it can afford before the final round, one per firework still to complete.
    None when the draw pile is empty or the game is over."""
    position = game.position
    pace = game.pace
    if game.is_over or pace is None or position.deck <= 0:
        return None
    discards = max(0, min(pace, position.deck))
    limits = game.firework_limits()
    completable = sum(
        1 for color, limit in limits.items() if limit == 5 and position.fireworks[color] < 5
    )
    return position.hints + discards + completable


def future_efficiency(game: Game) -> float | None:
    """Cards still to get per clue still possible; None without hand memory, once the
    draw pile is empty, or with no clue possible."""
    if not game.setup.options.hand_memory:
        return None
    possible = clues_possible(game)
    if not possible:
        return None
    return max(0, game.max_score - cards_gotten(game)) / possible


def _point(game: Game) -> Point:
    return Point(
        len(game.actions), game.fireworks_total, game.max_score, game.pace, game.position.hints
    )


def story(game: Game) -> Story:
    """The game's curve and its drops, from its actions replayed one by one."""
    replay = Game(game.setup)
    points = [_point(replay)]
    drops: list[Drop] = []
    for action in game.actions:
        before, lost_before = replay.max_score, set(replay.lost_cards())
        event = replay.apply(action)
        points.append(_point(replay))
        after = replay.max_score
        if after < before:
            lost = tuple(card for card in replay.lost_cards() if card not in lost_before)
            drops.append(
                Drop(
                    event.turn,
                    event.player,
                    event.kind,
                    event.card,
                    lost,
                    before,
                    after,
                    replay.is_over,
                )
            )
    return Story(tuple(points), tuple(drops))
