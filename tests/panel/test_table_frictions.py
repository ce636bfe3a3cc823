"""The panel's small frictions a new table met (issue 33): a name typed over an earlier
one, the set-up's options out of sight, the actions page stuck at the newest few.

Each screen is drawn by the real renderer at the panel sizes, strict (a layout flaw
fails), and read back from what it drew: the lines of text, their boxes, their pixels.
"""

from __future__ import annotations

import os

import pygame
import pytest
from support.screen_states import STATES

from companion.core.controller import Controller
from companion.panel.screens import Renderer
from companion.panel.screens.kit import ACCENT
from hardware.events import TypeText

SIZES = [(800, 480), (480, 320), (320, 240), (240, 320)]


@pytest.fixture(autouse=True)
def headless() -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.font.init()


def drawn(controller: Controller, size: tuple[int, int]) -> tuple[Renderer, pygame.Surface]:
    renderer = Renderer(size, strict=True)
    surface = pygame.Surface(size)
    renderer.draw(surface, controller)
    return renderer, surface


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_name_to_type_is_shown_selected_then_typed(size):
    """Issue 33 ("AnnCy"): the name an earlier table typed is shown selected (on the
    accent colour, no cursor) while the next key replaces it; once typing, it is the
    text with its cursor."""
    controller = STATES["setup_typing_a_name"]("en")
    first = controller.draft.names[0]
    renderer, surface = drawn(controller, size)
    (line,) = [text for text in renderer.texts if text.text == first]
    left_of_the_word = (line.rect.left - 2, line.rect.centery)
    assert surface.get_at(left_of_the_word)[:3] == ACCENT
    controller.handle(TypeText("Cy"))
    renderer, surface = drawn(controller, size)
    assert "Cy_" in [text.text for text in renderer.texts]
    assert first not in [text.text for text in renderer.texts]
