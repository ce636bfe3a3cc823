"""The panel's small frictions a new table met (issue 33): a name typed over an earlier
one, the set-up's options out of sight, the actions page stuck at the newest few.

Each screen is drawn by the real renderer at the panel sizes, strict (a layout flaw
fails), and read back from what it drew: the lines of text, their boxes, their pixels.
"""

from __future__ import annotations

import os
import re

import pygame
import pytest
from support.screen_states import LONG_NAMES, STATES

from companion.core import i18n
from companion.core.controller import SETUP_ROWS, Controller, GamePage, PanelLayout, SetupDraft
from companion.core.draft import HINT_LEVEL_ROW
from companion.panel.screens import Renderer
from companion.panel.screens.kit import ACCENT
from engine import GameSetup, Multicolor
from engine.game import Game
from engine.options import GameOptions
from hardware.events import Key, Press, TypeText

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


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_set_up_row_is_shown_or_named_whatever_the_focus(size, lang):
    """Issue 33: at 480x320 hand memory and the other options sat below the fold behind a
    small ▼. Whatever row has the focus, every row of the set-up is drawn, or named on the
    line above or below the rows ("▼ More below: Hints, …"), whole; what a hint records
    (the row that stands for hand memory) comes first of the options; a tap on that line
    moves the focus that way."""
    controller = Controller(SetupDraft(players=5, names=list(LONG_NAMES), language=lang))
    labels = [i18n.tr(lang, row) for row in SETUP_ROWS]
    assert SETUP_ROWS.index(HINT_LEVEL_ROW) == SETUP_ROWS.index("names") + 1
    for focus in range(len(SETUP_ROWS)):
        controller.focus = focus
        renderer, _ = drawn(controller, size)
        assert all(text.whole for text in renderer.texts)
        words = " ".join(text.text for text in renderer.texts)
        named = {text.text for text in renderer.texts}  # the rows' labels
        for rect in (r for r, e in renderer.targets if e in (Press(Key.NEXT), Press(Key.PREVIOUS))):
            said = " ".join(t.text for t in renderer.texts if rect.contains(t.rect))
            named |= set(re.split(r":\s", said, maxsplit=1)[1].split(", "))  # its rows
        missing = [label for label in labels if label not in named]
        assert not missing or "…" in named, (focus, missing)  # all, or as many as it holds
        below = [event for _, event in renderer.targets if event == Press(Key.NEXT)]
        above = [event for _, event in renderer.targets if event == Press(Key.PREVIOUS)]
        assert bool(below) == ("▼" in words) and bool(above) == ("▲" in words)
    controller.focus = SETUP_ROWS.index("start")
    renderer, _ = drawn(controller, size)
    words = " ".join(text.text for text in renderer.texts)
    if "▼" in words:  # the options out of sight: the hints row named first
        assert i18n.tr(lang, HINT_LEVEL_ROW) in words
        more = next(rect for rect, event in renderer.targets if event == Press(Key.NEXT))
        assert min(more.size) >= 30  # a finger's
        controller.handle(Press(Key.NEXT))
        assert SETUP_ROWS[controller.focus] == "first_player"


def long_game(players: int = 5, turns: int = 45) -> Game:
    """A game of ``turns`` actions (hints and discards in turn), six suits, long names."""
    import random

    from engine.table import SimulatedTable

    setup = GameSetup(
        players=players,
        names=LONG_NAMES[:players],
        options=GameOptions(multicolor=Multicolor.FULL),
    )
    table = SimulatedTable(setup, random.Random(7), skill=0.6)
    while len(table.game.actions) < turns and not table.game.is_over:
        table.step()
    return table.game


def turns_drawn(renderer: Renderer) -> list[int]:
    return [int(t.text[:-1]) for t in renderer.texts if t.text[:-1].isdigit() and t.text[-1] == "."]


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_actions_page_goes_back_to_the_first_action(size, lang):
    """Issue 33: the panel's actions page showed the newest 4 to 6 actions and could not go
    further back (the phone shows all). NEXT now goes back a page at a time (as many as
    the page held, told by the panel) until the first action, every action shown once,
    newest first; then NEXT turns to the next page; PREVIOUS comes back to the newest."""
    game = long_game()
    controller = Controller(SetupDraft(language=lang), game)
    controller.page = GamePage.ACTIONS
    seen: list[int] = []
    for _ in range(len(game.events) + 1):
        renderer, _ = drawn(controller, size)
        assert all(text.whole for text in renderer.texts)
        seen += turns_drawn(renderer)
        controller.handle(PanelLayout(renderer.pile_on_table, renderer.actions_shown))
        controller.handle(Press(Key.NEXT))
        if controller.page is not GamePage.ACTIONS:
            break
    assert seen == list(range(len(game.events), 0, -1))  # each once, down to the first
    assert controller.page is controller.pages[0]  # then the next page: the table, round
    controller.page = GamePage.ACTIONS
    for _ in range(3):
        controller.handle(Press(Key.NEXT))
    assert controller.actions_back > 0
    while controller.actions_back:
        controller.handle(Press(Key.PREVIOUS))
        assert controller.page is GamePage.ACTIONS
    renderer, _ = drawn(controller, size)
    assert turns_drawn(renderer)[0] == len(game.events)  # the newest again
