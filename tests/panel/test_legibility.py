"""Legible from across the table, by construction (issue 9, section 1).

For every screen in its hard cases (tests/support/screen_states.py: five long names, six
suits, the final round, the timed display, the crowning piece, a long discard pile,
a device notice, a long history) at every panel size, landscape and portrait, in
every language:

- no text is drawn below the floor: 1/18 of the panel's shorter side (18 px on a
  480x320 and on a 320x480), whose turn, the score and the final round 1/13;
- every text is whole (the layout made room; nothing was cut), but for the game screen's
  last action, shortened with "…" to its box of two lines (issue 33);
- every text lies inside the panel, and no two overlap (a badge never covers a rank).
"""

from __future__ import annotations

import math
import os

import pygame
import pytest
from support.screen_states import STATES

from companion.core import i18n
from companion.core.controller import Controller
from companion.core.words import score_text, turn_text
from companion.panel.screens import Renderer

SIZES = [(320, 240), (480, 320), (800, 480), (240, 320), (320, 480), (480, 800)]


@pytest.fixture(autouse=True, scope="module")
def headless() -> None:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.font.init()


def drawn(controller: Controller, size: tuple[int, int]) -> Renderer:
    renderer = Renderer(size, strict=True)
    renderer.draw(pygame.Surface(size), controller)
    return renderer


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("state", list(STATES))
def test_every_text_is_whole_inside_apart_and_above_the_floor(state, size, lang):
    controller = STATES[state](lang)
    renderer = drawn(controller, size)
    floor = math.ceil(min(size) / 18)
    bounds = pygame.Rect((0, 0), size)
    texts = renderer.texts
    assert texts, "nothing written"
    for text in texts:
        assert text.floor >= floor, f"{text.text!r}'s floor {text.floor} < {floor}"
        assert text.size >= text.floor, f"{text.text!r} shrunk to {text.size} px"
        # only the last action's box of two lines shortens a text, with "…"
        assert text.whole or text.shortened, f"{text.text!r} was cut"
        assert bounds.contains(text.rect), f"{text.text!r} at {text.rect} leaves the panel"
    for i, one in enumerate(texts):
        for other in texts[i + 1 :]:
            assert not one.rect.colliderect(other.rect), (
                f"{one.text!r} {one.rect} overlaps {other.text!r} {other.rect}"
            )


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_turn_score_and_final_round_stand_at_a_thirteenth(size, lang):
    """Whose turn, the score line and the final round: at least 1/13 of the shorter side."""
    controller = STATES["final_round_five"](lang)
    game = controller.game
    assert game is not None
    renderer = drawn(controller, size)
    big = math.ceil(min(size) / 13)
    said = " ".join(text.text for text in renderer.texts)
    turn = next(
        (
            text
            for text in (turn_text(lang, game), turn_text(lang, game, short=True))
            if text in said
        ),
        None,
    )
    assert turn is not None, f"whose turn and the final round are not on the screen: {said}"
    score = score_text(lang, game)
    assert score in said
    lines = [text for text in renderer.texts if len(text.text) > 2 and text.text in turn + score]
    assert lines
    for text in lines:
        assert text.size >= big, f"{text.text!r} at {text.size} px < {big}"


@pytest.mark.parametrize("size", [(200, 320), (320, 200), (239, 400)])
def test_a_panel_too_small_for_the_floor_is_refused_at_start(size):
    """Only a panel that cannot hold the floor is refused, in one sentence."""
    import argparse

    from companion.shell.cli import parse_size

    with pytest.raises(argparse.ArgumentTypeError, match="too small"):
        parse_size(f"{size[0]}x{size[1]}")
