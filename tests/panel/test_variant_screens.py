"""The panel in a variant by Hanab Live's name (issue 35): the special suit named where
the multicolour cards are, Clue Starved's half tokens, the clues the variant allows, the
variant search drawn."""

from __future__ import annotations

import os

import pygame
import pytest
from support.screen_states import CLUE_STARVED, LONG_VARIANT, STATES
from support.table_stories import OK, drive

from companion.core.controller import Controller, Refused, Screen, SetupDraft
from companion.core.i18n import refusal_text
from companion.panel.screens import Renderer
from engine import Color, Game, GameSetup
from engine.options import GameOptions
from hardware.events import ChooseColor, ChooseRank, Key, Press

SIZES = [(800, 480), (480, 320), (320, 240)]


@pytest.fixture(autouse=True, scope="module")
def headless() -> None:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.font.init()


def said(controller: Controller, size: tuple[int, int]) -> str:
    renderer = Renderer(size, strict=True)
    renderer.draw(pygame.Surface(size), controller)
    return " ".join(text.text for text in renderer.texts)


@pytest.mark.parametrize("size", SIZES[1:], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_special_suit_is_named_beside_the_score(size) -> None:
    """Three players: the score line names what the multicolour cards stand for. Not yet
    at 800x480, whose stable layout keeps the score line in the left column's two lines
    (issue 35 stays open for it); five long names may give it up at any size."""
    setup = GameSetup(
        players=3, names=("Ann", "Bo", "Cy"), options=GameOptions(variant=LONG_VARIANT)
    )
    controller = Controller(SetupDraft(players=3, names=["Ann", "Bo", "Cy"]), Game(setup))
    words = said(controller, size).replace("\u00a0", " ")
    assert "Multicolor = Muddy Rainbow" in words
    assert LONG_VARIANT.startswith("Light-Pink-Ones & Muddy Rainbow")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_clue_starved_tokens_read_as_half_tokens_not_units(size) -> None:
    controller = STATES["clue_starved_half_token"]("en")
    game = controller.game
    assert game is not None and game.setup.options.variant == CLUE_STARVED
    units = game.position.hints
    assert units % 2 == 1  # a half token left
    words = said(controller, size).split()
    shown = f"{units // 2}½" if units > 1 else "½"
    assert shown in words or f"{shown}/8" in words, words
    assert str(units) not in words  # never the units (15 for 7½)
    assert "(+½ hint)" in " ".join(words)  # the discard that left the half token said so


def _in_hint(variant: str) -> Controller:
    draft = SetupDraft(players=3, hint_content=True, options=GameOptions(variant=variant))
    c = Controller(draft)
    drive(c, OK)
    assert c.screen is Screen.GAME
    drive(c, Press(Key.HINT))
    assert c.screen is Screen.ENTRY
    return c


def test_a_rainbow_suit_is_not_offered_and_refused_in_words_when_typed() -> None:
    c = _in_hint("Rainbow (6 Suits)")
    offered = [e for page in c.clue_pages() for e in page if isinstance(e, ChooseColor)]
    assert ChooseColor(Color.MULTICOLOR) not in offered and len(offered) == 5
    drive(c, ChooseColor(Color.MULTICOLOR))  # "m" on the keyboard
    assert isinstance(c.message, Refused)
    words = refusal_text("en", c.message.error)
    assert words == (
        "In this variant a hint cannot name multicolor: every colour hint touches those cards"
    )
    assert words in said(c, (480, 320))


def test_odds_and_evens_offer_odd_and_even_only_and_refuse_a_three() -> None:
    c = _in_hint("Odds and Evens (5 Suits)")
    ranks = [e for page in c.clue_pages() for e in page if isinstance(e, ChooseRank)]
    assert ranks == [ChooseRank(1), ChooseRank(2)]
    drive(c, ChooseRank(3))
    assert isinstance(c.message, Refused)
    assert refusal_text("en", c.message.error) == "In this variant a hint cannot name 3"


def test_a_color_mute_offers_no_colour_and_says_so_when_one_is_typed() -> None:
    c = _in_hint("Color Mute (5 Suits)")
    assert all(not isinstance(e, ChooseColor) for page in c.clue_pages() for e in page)
    drive(c, ChooseColor(Color.RED))
    assert isinstance(c.message, Refused)
    assert "never names a colour" in refusal_text("en", c.message.error)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_search_shows_the_letters_and_how_many_are_left(size) -> None:
    words = said(STATES["setup_variant_search"]("en"), size)
    assert "pink_" in words and "3 of" in words and "Pink (4 Suits)" in words
    assert "Keine" in said(STATES["setup_variant_no_match"]("de"), size)
