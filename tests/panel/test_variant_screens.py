"""The panel in a variant by Hanab Live's name (issue 35): the special suit named where
the multicolour cards are, Clue Starved's half tokens, the clues the variant allows, the
variant search drawn."""

from __future__ import annotations

import math
import os

import pygame
import pytest
from support.screen_states import CLUE_STARVED, LONG_VARIANT, STATES
from support.table_stories import OK, drive

from companion.core.controller import Controller, Refused, Screen, SetupDraft
from companion.core.i18n import refusal_text
from companion.core.words import special_suit_text
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


#: Every panel size the companion supports, both ways round.
ALL_SIZES = [(800, 480), (480, 320), (320, 240), (480, 800), (320, 480), (240, 320)]


#: Five players with the longest names: at 320x240 their final round takes the room.
FIVE_LONG = ("Bernadette", "Christopher", "Dominique", "Emmanuelle", "Maximiliane")


#: Every size with three players; with five long names every size but 320x240.
NAMED_AT = [
    pytest.param(size, names, id=f"{size[0]}x{size[1]}-{len(names)}")
    for names in (("Ann", "Bo", "Cy"), FIVE_LONG)
    for size in ALL_SIZES
    if not (size == (320, 240) and names == FIVE_LONG)
]


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
@pytest.mark.parametrize("hand_memory", [False, True], ids=["plain", "hand memory"])
@pytest.mark.parametrize(("size", "names"), NAMED_AT)
def test_the_special_suit_is_named_on_the_table_page(size, names, hand_memory, lang) -> None:
    """Any panel: what the multicolour cards stand for (the longest name a special suit
    has) is said whole, at its floor or above, on the score line where it fits, else on
    a line of its own under it; only 320x240 with five long names leaves it to the
    set-up and the phones (decision 0123)."""
    options = GameOptions(variant=LONG_VARIANT, hand_memory=hand_memory)
    game = Game(GameSetup(players=len(names), names=names, options=options))
    draft = SetupDraft(players=len(names), names=list(names), language=lang)
    controller = Controller(draft, game)
    renderer = Renderer(size, strict=True)
    renderer.draw(pygame.Surface(size), controller)
    special = special_suit_text(lang, game)
    assert special.endswith("Muddy Rainbow")
    regions = renderer.regions
    where = "special" if "special" in regions else "score"
    said_there = [t for t in renderer.texts if regions[where].contains(t.rect)]
    words = " ".join(t.text for t in said_there).replace("\u00a0", " ")
    assert special.replace("\u00a0", " ") in words, (where, words)
    floor = math.ceil(min(size) / 18)
    assert all(t.whole and t.size >= t.floor >= floor for t in said_there)


def test_at_320x240_five_long_names_leave_the_special_suit_to_the_set_up() -> None:
    """The one set-up that cannot hold the name: the final round's two lines at 320x240;
    the score line is then as in a printed game, the regions all inside the panel."""
    options = GameOptions(variant=LONG_VARIANT)
    game = Game(GameSetup(players=5, names=FIVE_LONG, options=options))
    controller = Controller(SetupDraft(players=5, names=list(FIVE_LONG)), game)
    renderer = Renderer((320, 240), strict=True)
    renderer.draw(pygame.Surface((320, 240)), controller)
    assert "special" not in renderer.regions
    words = " ".join(t.text for t in renderer.texts)
    assert "Muddy" not in words and "Score" in words


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
