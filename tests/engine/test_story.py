"""Issue 34: the story of a game in numbers (engine/story.py) and in words.

Efficiency and future required efficiency by their definitions on games built action by
action; the curve's points; every drop of the highest reachable score found and named
(the last copy discarded or misplayed, too few turns left, the end).
"""

from __future__ import annotations

import random

import pytest
from support.games import C, new

from companion.core.story_words import drop_words, efficiency_text
from engine import Discard, GameSetup, Hint, Play
from engine.game import EventKind
from engine.story import (
    cards_gotten,
    clues_possible,
    clues_spent,
    efficiency,
    future_efficiency,
    story,
)
from engine.table import SimulatedTable


def test_efficiency_counts_cards_gotten_per_clue_spent() -> None:
    game = new(2, names=("Ann", "Bo"), hand_memory=True)
    assert efficiency(game) is None and clues_spent(game) == 0  # no clue spent yet
    game.apply(Hint(to=1, color=None, rank=1, slots=(1, 2)))  # Ann: Bo's slots 1, 2 are 1s
    assert (cards_gotten(game), clues_spent(game)) == (2, 1)  # two cards hold a clue
    assert efficiency(game) == 2.0
    game.apply(Play(C("R1"), slot=1))  # Bo plays a clued 1: still gotten, now played
    assert (cards_gotten(game), clues_spent(game), efficiency(game)) == (2, 1, 2.0)
    game.apply(Play(C("R3"), slot=1))  # Ann misplays: a clue lost
    assert clues_spent(game) == 2
    assert efficiency(game) == pytest.approx(1.0)
    words = efficiency_text("en", game)
    assert words.startswith("Eff.\u00a01.00 · Needed\u00a0")


def test_a_five_played_with_8_tokens_is_a_clue_lost() -> None:
    game = new(2, hand_memory=True)
    for rank in range(1, 6):
        game.apply(Play(C(f"R{rank}"), slot=1))
    assert game.events[-1].bonus_lost and game.position.hints == 8
    assert clues_spent(game) == 1 and efficiency(game) == 5.0


def test_future_efficiency_is_cards_to_get_per_clue_still_possible() -> None:
    game = new(2, hand_memory=True)
    # at the start: 25 to get; 8 tokens, every discard the pace allows, 5 fives to play
    assert game.pace is not None and game.position.deck == 40
    possible = 8 + min(game.pace, 40) + 5
    assert clues_possible(game) == possible
    assert future_efficiency(game) == pytest.approx(25 / possible)
    assert future_efficiency(new(2)) is None and efficiency(new(2)) is None  # no memory
    assert efficiency_text("en", new(2)) == ""


def test_future_efficiency_ends_with_the_draw_pile() -> None:
    game = SimulatedTable(GameSetup(players=3), random.Random(2)).play_out()
    replay = new(3, hand_memory=False)
    for action in game.actions:
        replay.apply(action)
        if replay.position.deck == 0:
            break
    assert clues_possible(replay) is None


def test_the_curve_has_a_point_per_turn_and_the_drops_are_named() -> None:
    game = new(2, names=("Ann", "Bo"))
    for action in (
        Hint(),
        Discard(C("B5")),  # Bo discards the only blue 5: max 24
        Hint(),
        Discard(C("G2")),
        Play(C("Y5")),  # Ann misplays the only yellow 5: max 23
        Hint(),
        Discard(C("G2")),  # Ann discards the second green 2: green stops at 1
    ):
        game.apply(action)
    told = story(game)
    assert [p.turn for p in told.points] == list(range(8))
    assert [p.max_score for p in told.points] == [25, 25, 24, 24, 24, 23, 23, 19]
    assert [p.hints for p in told.points] == [8, 7, 8, 7, 8, 8, 7, 8]
    assert told.points[-1].score == 0 and told.points[0].pace == game.setup.players + 40 - 25
    words = [drop_words("en", drop, game) for drop in told.drops]
    assert words == [
        "turn 2: Bo discarded the last blue 5: max 24",
        "turn 5: Ann misplayed the last yellow 5: max 23",
        "turn 7: Ann discarded the last green 2: max 19",
    ]
    assert told.drops[1].kind is EventKind.MISPLAY
    assert told.drops[2].lost == (C("G2"),) and told.drops[2].before - told.drops[2].after == 4


def test_the_end_and_too_few_turns_are_named() -> None:
    storm = new(3, names=("Ann", "Bo", "Cy"), strikeout_keeps_score=True)
    storm.apply(Play(C("R1")))
    for code in ("B2", "G2", "Y2"):
        storm.apply(Play(C(code)))
    (drop,) = story(storm).drops
    assert drop.end and drop.after == 1
    assert drop_words("en", drop, storm) == "turn 4: Lost: the third fuse burnt: 1"
    # a discard that leaves too few turns for every card the fireworks still need
    game = SimulatedTable(
        GameSetup(players=2, names=("Ann", "Bo")), random.Random(0), skill=0.97, play_bias=0.1
    ).play_out()
    turns = [d for d in story(game).drops if not d.lost and not d.end]
    assert turns, "seed 0 has such a drop (found by search)"
    words = drop_words("en", turns[0], game)
    assert words == f"turn {turns[0].turn}: too few turns left after Ann's turn: max 24"
