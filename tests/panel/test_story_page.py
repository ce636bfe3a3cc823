"""Issue 34: the end screen's story page, drawn at 800x480, 480x320 and 320x240 (strict
layout, text at its floor, whole): the chart where it has room, every drop in words."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pygame
import pytest

from companion.core.controller import Controller, GamePage, SetupDraft
from companion.core.story_words import drop_words
from companion.panel.screens import Renderer
from engine import GameOptions, GameSetup
from engine.story import story
from engine.table import SimulatedTable
from hardware.events import Key, Press

SIZES = [(800, 480), (480, 320), (320, 240), (240, 320)]


def lost_game():
    """Four players keep the score of a storm: one last copy discarded, then the storm."""
    setup = GameSetup(
        players=4,
        names=("Ann", "Bo", "Cy", "Di"),
        options=GameOptions(hand_memory=True, strikeout_keeps_score=True),
    )
    return SimulatedTable(setup, random.Random(1), skill=0.7).play_out()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_story_page_draws_the_curve_and_names_every_drop(size, tmp_path: Path) -> None:
    game = lost_game()
    drops = story(game).drops
    assert len(drops) == 2
    controller = Controller(SetupDraft(), game)
    while controller.page is not GamePage.STORY:  # after the result, the pile, the actions
        controller.handle(Press(Key.NEXT))
    surface = pygame.Surface(size)
    renderer = Renderer(size, strict=True)
    renderer.draw(surface, controller)
    keep = os.environ.get("HANABI_SCREENSHOTS")
    if keep:
        pygame.image.save(surface, str(Path(keep) / f"end-story-{size[0]}x{size[1]}.png"))
    kit = renderer.kit
    assert all(t.whole and t.size >= kit.floor for t in kit.texts)
    shown = " ".join(t.text for t in kit.texts)
    for drop in drops:
        assert drop_words("en", drop, game) in shown.replace("\n", " ") or all(
            word in shown for word in drop_words("en", drop, game).split()
        )
    assert drop_words("en", drops[0], game) == "turn 30: Bo discarded the last yellow 4: max 23"
    # the chart: the four series in their colours where there is room for them
    colours = {
        surface.get_at((x, y))[:3] for x in range(0, size[0], 2) for y in range(0, size[1], 2)
    }
    assert (255, 196, 60) in colours and (70, 150, 255) in colours
    assert (110, 220, 140) in colours  # the pace's line


def test_a_game_whose_best_score_never_dropped_says_so() -> None:
    setup = GameSetup(players=3)
    for seed in range(40):
        game = SimulatedTable(setup, random.Random(seed), skill=1.0).play_out()
        if game.score == setup.max_score:
            break
    assert not story(game).drops
    controller = Controller(SetupDraft(), game)
    controller.page = GamePage.STORY
    renderer = Renderer((480, 320), strict=True)
    renderer.draw(pygame.Surface((480, 320)), controller)
    assert "The highest score never dropped." in [t.text for t in renderer.kit.texts]
