"""Issue 34: the reveal's screens (the end screen's "Show hands", whose hand, a card's colour
and rank, a refusal, OK, the undo question, the deal known) in their hard cases (five
players with the longest names, six suits) at every panel size, landscape and portrait,
in every language: every text whole, inside the panel, apart, never under its floor; each
choice a tile a finger picks, above the button that picks it."""

from __future__ import annotations

import math
import os
from typing import Any

import pygame
import pytest
from support.reveals import reveal_states

from companion.core import i18n
from companion.core.controller import SOFT_KEYS, EntryStep, Screen
from companion.panel.screens import Renderer
from hardware.events import Key, Press

SIZES = [(320, 240), (480, 320), (800, 480), (240, 320), (320, 480), (480, 800)]
STATES = reveal_states()


@pytest.fixture(autouse=True, scope="module")
def headless() -> None:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.font.init()


def drawn(controller: Any, size: tuple[int, int]) -> Renderer:
    renderer = Renderer(size, strict=True)  # a layout flaw (an overlap) raises
    renderer.draw(pygame.Surface(size), controller)
    return renderer


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("state", list(STATES))
def test_every_text_is_whole_inside_apart_and_above_the_floor(state, size, lang) -> None:
    controller = STATES[state](lang)  # type: ignore[operator]
    renderer = drawn(controller, size)
    floor = math.ceil(min(size) / 18)
    bounds = pygame.Rect((0, 0), size)
    texts = renderer.texts
    assert texts, "nothing written"
    for text in texts:
        assert text.floor >= floor and text.size >= text.floor, text.text
        assert text.whole, f"{text.text!r} was cut"
        assert bounds.contains(text.rect), f"{text.text!r} at {text.rect} leaves the panel"
    for i, one in enumerate(texts):
        for other in texts[i + 1 :]:
            assert not one.rect.colliderect(other.rect), (one.text, other.text)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("state", ["reveal_seat", "reveal_colour", "reveal_refused"])
def test_every_choice_is_a_tile_above_the_button_that_picks_it(state, size) -> None:
    controller = STATES[state]("en")  # type: ignore[operator]
    assert controller.screen is Screen.REVEAL
    renderer = drawn(controller, size)
    choices = controller.reveal_choices()
    assert choices
    said = [text.text for text in renderer.texts]
    for index, choice in enumerate(choices):
        (tile,) = [rect for rect, event in renderer.targets if event == choice]
        assert tile.width >= 24 and tile.height >= 24  # a finger's
        label = i18n.tr("en", "softkey_" + SOFT_KEYS[index].value)
        assert label in said
    cancel = [rect for rect, event in renderer.targets if event == Press(Key.BACK)]
    assert len(cancel) == 1


def test_the_end_screen_says_whose_hands_are_shown_and_when_the_deal_is_known() -> None:
    offer = drawn(STATES["reveal_end_offer"]("en"), (480, 320))  # type: ignore[operator]
    said = " ".join(text.text for text in offer.texts)
    assert "Hands shown: Bernadette, Emmanuelle" in said and "Show hands" in said
    assert Press(Key.HINT) in [event for _, event in offer.targets]
    known = drawn(STATES["reveal_end_known"]("fr"), (480, 320))  # type: ignore[operator]
    said = " ".join(text.text for text in known.texts)
    assert "la donne entière est connue" in said and "Montrer les mains" not in said
    assert Press(Key.HINT) not in [event for _, event in known.targets]


def test_the_last_hand_is_asked_at_once_and_ok_records_it() -> None:
    controller = STATES["reveal_confirm"]("de")  # type: ignore[operator]
    assert controller.reveal_step() is EntryStep.CONFIRM
    renderer = drawn(controller, (320, 240))
    said = " ".join(text.text for text in renderer.texts)
    assert "Hand von Maximiliane" in said and "OK speichert die Hand" in said
    assert Press(Key.OK) in [event for _, event in renderer.targets]


def test_the_undo_question_names_the_hand_it_takes_back() -> None:
    renderer = drawn(STATES["reveal_undo"]("en"), (480, 320))  # type: ignore[operator]
    said = " ".join(text.text for text in renderer.texts)
    assert "Take back the last hand shown?" in said and "Dominique showed their hand" in said
