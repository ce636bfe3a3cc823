"""A panel that stands still (issue 33): at a given panel size and game set-up, every
region of the game screen's table page keeps its place and size from the first turn
to the last, whatever its texts say.

Long games (five players with the longest names, six suits, 20 and more discards, the
final round) are played through the real controller, key by key, in English, French
and German, one with hand memory. Every turn is drawn at every panel size the
companion supports, landscape and portrait, with a strict renderer (two boxes that
overlap raise), as it is and with the status box at its fullest: the longest last
action (undone, entered on a phone), a refusal, a notice. For every frame:

- the regions (``Renderer.regions``) are those of the first turn;
- every text lies inside a region, above its floor, apart from the others, and whole,
  but for the last action's box (two lines, shortened with "…" beyond);
- the discard pile is whole and its form only ever gets denser (on the table page and
  on its own page).
"""

from __future__ import annotations

import math
import os
from typing import NamedTuple

import pygame
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.long_games import controller_turns
from support.screen_states import LONG_NAMES, LONG_VARIANT

from companion.core import i18n
from companion.core.controller import (
    Controller,
    FindingsOpen,
    GamePage,
    PanelLayout,
    Refused,
    Screen,
    Undone,
    message_words,
)
from companion.panel.screens import Renderer
from companion.panel.screens.kit import WARN
from companion.vocabulary.records import Finding
from engine import Color, Hint, Multicolor
from engine.errors import HintTokensFull, IllegalAction
from engine.game import Event, EventKind
from engine.options import GameOptions
from hardware.events import DeviceStatus, Key, Press

#: Every panel size the companion supports, both ways round, the tall and the wide one.
SIZES = [(800, 480), (480, 320), (320, 240), (480, 800), (320, 480), (240, 320)]

SIX_SUITS = GameOptions(multicolor=Multicolor.SHORT)
WITH_HAND_MEMORY = GameOptions(multicolor=Multicolor.SHORT, hand_memory=True)

#: (language, options, seed, skill, play bias): the seeds give long games (checked below).
GAMES: dict[str, tuple[str, GameOptions, int, float, float]] = {
    "en": ("en", SIX_SUITS, 13, 0.5, 0.02),
    "de": ("de", SIX_SUITS, 24, 0.6, 0.05),
    "fr, hand memory": ("fr", WITH_HAND_MEMORY, 2, 0.5, 0.02),
    # a variant by name: what the multicolour cards stand for has its place too (0123)
    "en, Muddy Rainbow": ("en", GameOptions(variant=LONG_VARIANT), 0, 0.5, 0.02),
    "fr, Muddy Rainbow, hand memory": (
        "fr",
        GameOptions(variant=LONG_VARIANT, hand_memory=True),
        1,
        0.5,
        0.02,
    ),
}

#: A device's notice as long as they come (a reader's path by id, the system's reason).
LONG_NOTICE = (
    "scanner disconnected: /dev/serial/by-id/usb-1a86_USB_Serial-if00-port0"
    " (device reports readiness to read but returned no data)"
)

#: The name a phone-entered action ends with: the longest.
LONGEST = max(LONG_NAMES, key=len)


@pytest.fixture(autouse=True, scope="module")
def headless() -> None:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.font.init()


def longest_message(controller: Controller) -> Undone | None:
    """The last action said at its longest: with a hint's content where it had none,
    entered on a phone, then undone ("Undone: … (Maximiliane's phone)")."""
    game = controller.game
    assert game is not None
    if not game.events:
        return None
    event: Event = game.events[-1]
    if event.kind is EventKind.HINT and isinstance(event.action, Hint) and event.action.to is None:
        # what a phone's hint would say: its receiver and a clue (the longest colour)
        seat = (event.player + len(LONG_NAMES) - 1) % len(LONG_NAMES)
        action = Hint(seat, Color.MULTICOLOR, player=event.player)
        event = event._replace(action=action)
    return Undone(event, by=LONGEST)


def status_variants(controller: Controller, turn: int) -> list[str]:
    """What the status box shows in this turn's frames: as the controller has it, and one
    of its fullest (in turn, so that each is drawn many times in a game)."""
    return ["as it is", ("longest", "refusal", "notice")[turn % 3]]


def set_variant(controller: Controller, variant: str) -> None:
    if variant == "longest":
        controller.message = longest_message(controller)
    elif variant == "refusal":
        error: IllegalAction = HintTokensFull()
        controller.message = Refused(error)
    elif variant == "notice":  # longer than the last action's box: the score's room too
        controller.device_notices["scanner"] = LONG_NOTICE


def check_texts(renderer: Renderer, size: tuple[int, int], regions: dict[str, pygame.Rect]):
    """The legibility rules (tests/panel/test_legibility.py) on one frame, and every text
    inside a region; only the last action's box shortens a text."""
    floor = math.ceil(min(size) / 18)
    texts = renderer.texts
    assert texts, "nothing written"
    # a long notice takes the score line's place too: the two as one status box
    boxes = {**regions, "status": regions["message"].union(regions["score"])}
    for text in texts:
        assert text.floor >= floor, f"{text.text!r}'s floor {text.floor} < {floor}"
        assert text.size >= text.floor, f"{text.text!r} shrunk to {text.size} px"
        where = [name for name, rect in boxes.items() if rect.contains(text.rect)]
        assert where, f"{text.text!r} at {text.rect} lies in no region"
        if not text.whole:
            assert text.shortened and "status" in where, f"{text.text!r} was cut"
    for i, one in enumerate(texts):
        for other in texts[i + 1 :]:
            assert not one.rect.colliderect(other.rect), (
                f"{one.text!r} {one.rect} overlaps {other.text!r} {other.rect}"
            )


def check_pile(renderer: Renderer, controller: Controller, densest: list[tuple[int, ...]]):
    """The pile drawn whole, in a form no roomier than the densest drawn before."""
    game = controller.game
    assert game is not None
    kit = renderer.kit
    assert sorted(code for code, _mark, _rect in kit.pile) == sorted(
        card.code() for card in game.position.discards
    )
    plan = kit.pile_plan
    assert plan is not None, "no pile drawn"
    density = plan.density  # type: ignore[attr-defined]
    if densest:
        assert density >= densest[-1], f"the pile went back from {densest[-1]} to {density}"
    densest.append(density)


class Played(NamedTuple):
    """What a game checked turn by turn was: how many turns, the final round reached,
    the pile at the end."""

    turns: int
    final_round: bool
    discards: int


def check_game(lang: str, options: GameOptions, seed: int, skill: float, bias: float) -> Played:
    """Play a game through the controller and draw every turn at every size (module
    docstring); the checks fail at the first frame that breaks a rule."""
    renderers = {size: Renderer(size, strict=True) for size in SIZES}
    surfaces = {size: pygame.Surface(size) for size in SIZES}
    first: dict[tuple[int, int], dict[str, pygame.Rect]] = {}
    table_piles: dict[tuple[int, int], list[tuple[int, ...]]] = {size: [] for size in SIZES}
    page_piles: dict[tuple[int, int], list[tuple[int, ...]]] = {size: [] for size in SIZES}
    turns = 0
    final_round = False
    pile = -1
    for controller in controller_turns(
        LONG_NAMES, options, lang, seed, skill=skill, play_bias=bias
    ):
        game = controller.game
        assert game is not None and controller.screen is Screen.GAME
        final_round = final_round or bool(game.final_round_order())
        saved = controller.message, dict(controller.device_notices)
        for variant in status_variants(controller, turns):
            set_variant(controller, variant)
            for size in SIZES:
                renderer, surface = renderers[size], surfaces[size]
                controller.handle(PanelLayout(renderer.shows_pile(controller)))
                renderer.draw(surface, controller)
                regions = renderer.regions
                assert regions, "the table page said no region"
                if size not in first:
                    first[size] = dict(regions)
                assert regions == first[size], (
                    f"turn {turns + 1} ({variant}) at {size}: "
                    + ", ".join(
                        f"{name} {first[size].get(name)} -> {rect}"
                        for name, rect in regions.items()
                        if first[size].get(name) != rect
                    )
                )
                check_texts(renderer, size, regions)
                if "pile" in regions and variant == "as it is":
                    check_pile(renderer, controller, table_piles[size])
            controller.message, controller.device_notices = saved[0], dict(saved[1])
        if len(game.position.discards) != pile:  # the pile grew: its page, where it has one
            pile = len(game.position.discards)
            for size in SIZES:
                if renderers[size].shows_pile(controller):
                    continue
                controller.page = GamePage.DISCARDS
                renderers[size].draw(surfaces[size], controller)
                controller.page = GamePage.TABLE
                check_pile(renderers[size], controller, page_piles[size])
        turns += 1
    for size in SIZES:
        assert table_piles[size] or page_piles[size], f"no pile drawn at {size}"
    return Played(turns, final_round, pile)


@pytest.mark.parametrize("game_name", list(GAMES))
def test_every_region_keeps_its_place_and_size_from_the_first_turn_to_the_last(game_name):
    played = check_game(*GAMES[game_name])
    # the game was long: the final round, 20 discards and more
    assert played.final_round and played.turns >= 55, played
    assert played.discards >= 20, played


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    lang=st.sampled_from(i18n.LANGUAGES),
    hand_memory=st.booleans(),
)
def test_any_game_keeps_its_regions(seed, lang, hand_memory):
    """The same rule for games hypothesis picks (tables that discard a lot)."""
    options = WITH_HAND_MEMORY if hand_memory else SIX_SUITS
    check_game(lang, options, seed, 0.5, 0.02)


def test_the_status_box_holds_two_lines_and_shortens_the_rest_at_the_floor():
    """The last action's box: a text longer than two lines is cut to two, ending in "…",
    at the floor (never smaller); the box is as high with one line or with none."""
    size = (320, 240)
    renderer = Renderer(size, strict=True)
    kit = renderer.kit
    surface = pygame.Surface(size)
    for controller in controller_turns(LONG_NAMES, SIX_SUITS, "de", 24, skill=0.6):
        message = longest_message(controller)
        words = message_words("de", message, LONG_NAMES)
        if message is not None and len(kit.lines(words, kit.floor, size[0] - 2 * kit.pad)) > 2:
            break
    else:
        raise AssertionError("no action said in more than two lines")
    controller.message = message
    renderer.draw(surface, controller)
    box = renderer.regions["message"]
    lines = [text for text in renderer.texts if box.contains(text.rect)]
    assert len(lines) == 2
    assert lines[-1].text.endswith("…") and all(text.shortened for text in lines)
    assert all(text.size == text.floor == kit.floor for text in lines)
    assert " ".join(text.text for text in lines)[:-1] in words
    controller.message = None
    renderer.draw(surface, controller)
    assert renderer.regions["message"] == box


def long_game_at(turn: int, lang: str = "en", options: GameOptions = SIX_SUITS) -> Controller:
    """The "en" long game (20 and more discards) as it stands before ``turn``."""
    for number, controller in enumerate(
        controller_turns(LONG_NAMES, options, lang, 13, skill=0.5, play_bias=0.02), start=1
    ):
        if number == turn:
            return controller
    raise AssertionError(f"the game ended before turn {turn}")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_notice_that_comes_and_goes_moves_nothing_and_is_said_in_the_status_box(size):
    """A device's notice on the game screen: said in the last action's box, on the
    warning colour; every region where it was; gone, the last action again."""
    controller = long_game_at(30)
    renderer = Renderer(size, strict=True)
    surface = pygame.Surface(size)
    controller.handle(PanelLayout(renderer.shows_pile(controller)))
    renderer.draw(surface, controller)
    before = dict(renderer.regions)
    last = [text.text for text in renderer.texts if before["message"].contains(text.rect)]
    notice = "scanner: /dev/ttyUSB0 disconnected"
    controller.handle(DeviceStatus("scanner", False, notice))
    renderer.draw(surface, controller)
    assert renderer.regions == before
    said = [text for text in renderer.texts if before["message"].contains(text.rect)]
    assert notice.startswith(said[0].text.rstrip("…"))
    box = before["message"]
    assert surface.get_at((box.left + 1, box.centery))[:3] == WARN  # the warning band
    assert not any(text.rect.top < before["turn"].top for text in renderer.texts)
    controller.handle(DeviceStatus("scanner", True, ""))
    renderer.draw(surface, controller)
    assert renderer.regions == before
    assert [text.text for text in renderer.texts if box.contains(text.rect)] == last


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_unseen_counts_stand_in_a_column_of_their_own_right_aligned(size):
    """A suit's unseen count is never between its symbol and its cards: each count ends
    at its column's right edge, and every card of the pile lies left of the column."""
    controller = long_game_at(60)
    renderer = Renderer(size, strict=True)
    surface = pygame.Surface(size)
    if not renderer.shows_pile(controller):
        controller.handle(PanelLayout(False))
        controller.page = GamePage.DISCARDS
    renderer.draw(surface, controller)
    game = controller.game
    assert game is not None and len(game.position.discards) >= 20
    header = next(text.rect for text in renderer.texts if text.text == "unseen")
    cards = [rect for _code, _mark, rect in renderer.kit.pile]
    counts = [
        text.rect
        for text in renderer.texts
        if text.text.isdigit() and text.rect.right == header.right and text.size == text.floor
    ]
    rows = len(game.setup.suits)
    plan = renderer.kit.pile_plan
    columns = plan.columns  # type: ignore[attr-defined]
    if columns == 1:
        assert len(counts) == rows, counts  # one per suit, in one right-aligned column
    assert len(counts) >= -(-rows // columns)
    column_left = min(rect.left for rect in counts)
    for card in cards:
        if card.top < max(rect.bottom for rect in counts) and card.right > column_left:
            assert card.right <= column_left - renderer.kit.gap or columns > 1, card


@pytest.mark.parametrize(
    "size", [(480, 320), (320, 480), (480, 800)], ids=lambda s: f"{s[0]}x{s[1]}"
)
def test_the_hand_strip_names_its_player_at_its_left_and_its_slots_stay_put(size):
    """Hand memory: the strip of the player to act begins with their name (whole, or its
    beginning), in a column as wide for every player: the slots do not move."""
    renderer = Renderer(size, strict=True)
    surface = pygame.Surface(size)
    slots_at = set()
    for turn in range(1, 7):
        controller = long_game_at(turn, options=GameOptions(hand_memory=True))
        renderer.draw(surface, controller)
        strip = renderer.regions.get("hand")
        assert strip is not None, f"no hand strip at {size}"
        game = controller.game
        assert game is not None
        name = game.setup.names[game.position.current]
        inside = sorted(
            (text for text in renderer.texts if strip.contains(text.rect)),
            key=lambda text: text.rect.left,
        )
        first = inside[0]
        assert name.startswith(first.text.rstrip(".")) and len(first.text) >= 3, first
        assert first.rect.left == strip.left
        slots_at.add(min(text.rect.left for text in inside[1:]))
    assert len(slots_at) == 1, slots_at


@pytest.mark.parametrize(
    "page", [GamePage.TABLE, GamePage.DISCARDS, GamePage.ACTIONS, GamePage.HANDS]
)
def test_a_finding_is_said_on_every_page_of_the_game_screen_and_a_tap_on_it_is_its_ok(page):
    """No banner over the game screen: on the table page the finding is in the last
    action's box, on a page above it; a tap there is OK (the finding seen)."""
    size = (480, 320)
    controller = long_game_at(20, options=GameOptions(hand_memory=True))
    controller.handle(FindingsOpen((Finding("f1", "database_emptied", {"games": 4}, "now"),)))
    renderer = Renderer(size, strict=True)
    controller.handle(PanelLayout(renderer.shows_pile(controller)))
    controller.page = page
    surface = pygame.Surface(size)
    targets = renderer.draw(surface, controller)
    notice = controller.notice
    assert notice
    said = [text for text in renderer.texts if notice.startswith(text.text.rstrip("…"))]
    assert said, [text.text for text in renderer.texts]
    x, y = said[0].rect.center
    tapped = next(event for rect, event in reversed(targets) if rect.collidepoint(x, y))
    assert tapped == Press(Key.OK)
    assert surface.get_at((said[0].rect.left - 2, said[0].rect.centery))[:3] == WARN


@pytest.mark.parametrize(
    "size", [(240, 320), (320, 240), (800, 480)], ids=lambda s: f"{s[0]}x{s[1]}"
)
def test_where_the_table_keeps_no_hand_strip_every_hand_is_on_the_hands_page(size):
    """A panel whose table page cannot hold the hand strip for the whole game (the final
    round's line, the pile) shows no part of it there; NEXT turns to every hand."""
    names = ("Ann", "Bo", "Cy")
    turns = controller_turns(names, GameOptions(hand_memory=True), "en", 1)
    controller = next(c for number, c in enumerate(turns, start=1) if number == 8)
    renderer = Renderer(size, strict=True)
    surface = pygame.Surface(size)
    controller.handle(PanelLayout(renderer.shows_pile(controller)))
    renderer.draw(surface, controller)
    assert "hand" not in renderer.regions
    assert GamePage.HANDS in controller.pages
    controller.page = GamePage.HANDS
    renderer.draw(surface, controller)
    said = [text.text for text in renderer.texts]
    assert all(name in said for name in names)
    assert said.count("1") >= len(names) and said.count("5") >= len(names)  # every slot
