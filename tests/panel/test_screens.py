"""Every screen drawn headless (SDL dummy driver) at the three sizes, in both languages.

Set ``HANABI_SCREENSHOTS=DIR`` to keep the PNGs and look at them.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pygame
import pytest

from companion.core import i18n
from companion.core.controller import (
    Controller,
    GamePage,
    Happened,
    Info,
    PanelLayout,
    Refused,
    Screen,
    SetupDraft,
    Undone,
)
from companion.core.words import final_round_text
from companion.panel import screens
from companion.panel.screens import HINT_BLUE, SUIT_RGB, Renderer, drawer
from companion.storage import HistoryRow, StatsRow
from engine import Card, Color, Discard, GameSetup, Hint, Multicolor, Play
from engine.errors import HintTokensFull
from engine.game import EventKind, Game
from engine.options import GameOptions
from engine.outcome import EndReason, Outcome, Rating
from engine.table import SimulatedTable
from hardware.events import ChooseColor, ChooseRank, Key, Press

SIZES = [(320, 240), (480, 320), (800, 480)]
#: Portrait panels: many 3.5" SPI screens are 320x480 natively, DSI ones 480x800.
PORTRAIT_SIZES = [(240, 320), (320, 480), (480, 800)]
LANGUAGES = list(i18n.LANGUAGES)
NAMES = ("Ann", "Bo", "Cy")


@pytest.fixture(autouse=True, scope="module")
def headless() -> None:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.font.init()


def mid_game(seed: int = 5, turns: int = 38) -> Game:
    setup = GameSetup(players=3, names=NAMES, options=GameOptions(multicolor=Multicolor.SHORT))
    table = SimulatedTable(setup, random.Random(seed), skill=0.93)
    for _ in range(turns):
        if table.game.is_over:
            break
        table.step()
    return table.game


def finished(outcome: str) -> Game:
    for seed in range(200):
        game = SimulatedTable(
            GameSetup(players=2, names=NAMES[:2]), random.Random(seed), skill=0.97
        ).play_out()
        if game.end_reason is not None and game.end_reason.value == outcome:
            return game
    raise AssertionError(f"no seed gives a {outcome} game")


def final_round_game() -> Game:
    game = finished("final_round")
    game.undo()  # the last turn of the final round: still running
    return game


def controller_for(screen: str, lang: str) -> Controller:
    draft = SetupDraft(players=3, names=list(NAMES), language=lang)
    if screen == "setup":
        return Controller(draft)
    if screen == "end_final_round":
        return Controller(draft, finished("final_round"))
    if screen == "end_storm":
        return Controller(draft, finished("strikeout"))
    if screen == "final_round":
        return Controller(draft, final_round_game())
    game = mid_game()
    c = Controller(draft, game)
    c.message = Happened(game.events[-1])
    if screen == "discards":
        c.page = GamePage.DISCARDS
    elif screen == "entry_color":
        c.handle(Press(Key.PLAY))
    elif screen == "entry_rank":
        c.handle(Press(Key.DISCARD))
        c.handle(ChooseColor(Color.MULTICOLOR))
    elif screen == "entry_confirm":
        c.handle(Press(Key.PLAY))
        c.handle(ChooseColor(Color.BLUE))
        c.handle(ChooseRank(1))
    elif screen == "refused":
        c.message = Refused(HintTokensFull())
    elif screen == "undo":
        c.handle(Press(Key.UNDO))
    elif screen == "menu":
        c.handle(Press(Key.MENU))
    elif screen == "help":
        c.handle(Press(Key.HELP))
    elif screen == "history":
        c.screen = Screen.HISTORY
        c.history = (
            [
                HistoryRow(
                    2,
                    "2026-11-20T20:00:00+00:00",
                    "2026-11-20T20:40:00+00:00",
                    3,
                    NAMES,
                    GameOptions(),
                    23,
                    25,
                    Rating.AMAZING,
                    Outcome.FINISHED,
                    EndReason.FINAL_ROUND,
                ),
                HistoryRow(
                    1,
                    "2026-11-19T20:00:00+00:00",
                    "2026-11-19T20:20:00+00:00",
                    2,
                    NAMES[:2],
                    GameOptions(multicolor=Multicolor.SHORT),
                    0,
                    30,
                    None,
                    Outcome.LOST,
                    EndReason.STRIKEOUT,
                ),
            ],
            [
                StatsRow(3, GameOptions(), 4, 23, 19.5),
                StatsRow(2, GameOptions(multicolor=Multicolor.SHORT), 1, 0, 0.0),
            ],
        )
    return c


SCREENS = [
    "setup",
    "game",
    "discards",
    "final_round",
    "entry_color",
    "entry_rank",
    "entry_confirm",
    "refused",
    "undo",
    "end_final_round",
    "end_storm",
    "menu",
    "help",
    "history",
]


def render(screen: str, size: tuple[int, int], lang: str) -> tuple[pygame.Surface, Renderer]:
    controller = controller_for(screen, lang)
    surface = pygame.Surface(size)
    renderer = Renderer(size, strict=True)
    renderer.draw(surface, controller)
    keep = os.environ.get("HANABI_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        pygame.image.save(surface, str(Path(keep) / f"{screen}-{size[0]}x{size[1]}-{lang}.png"))
    return surface, renderer


def color_extent(surface: pygame.Surface, rgb: tuple[int, int, int]) -> int:
    """Height in pixels of the area holding pixels of exactly this colour."""
    rows = [
        y
        for y in range(surface.get_height())
        if any(surface.get_at((x, y))[:3] == rgb for x in range(0, surface.get_width(), 2))
    ]
    return (rows[-1] - rows[0] + 1) if rows else 0


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", SIZES + PORTRAIT_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("screen", SCREENS)
def test_every_screen_draws_inside_its_size(screen, size, lang):
    """Section 2: every screen at 320x240, 480x320 and 800x480, and on portrait panels
    (which crashed the game screen before), both languages: the frame has the screen's
    size, every tap target lies inside it, and something is written. (Where the texts
    land and how large: tests/panel/test_legibility.py.)"""
    surface, renderer = render(screen, size, lang)
    assert surface.get_size() == size
    bounds = surface.get_rect()
    assert renderer.texts, "the screen shows no text"
    for rect, _event in renderer.targets:
        assert bounds.contains(rect), f"tap target {rect} leaves the screen"


def said(renderer: Renderer) -> str:
    """Everything the frame says, its lines joined: a sentence wrapped on two lines reads whole."""
    return " ".join(drawn.text for drawn in renderer.texts)


@pytest.mark.parametrize(
    "screen", ["game", "entry_color", "entry_confirm", "end_storm", "undo", "setup", "menu"]
)
def test_touch_targets_are_40px_at_480x320(screen):
    """Section 3: every action by tapping, targets at least 40 px at 480x320."""
    _surface, renderer = render(screen, (480, 320), "en")
    assert renderer.targets
    for rect, event in renderer.targets:
        assert min(rect.width, rect.height) >= 40, f"{event} target is {rect.size}"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_key_figures_are_a_tenth_of_the_screen_high(size):
    """Section 2: tokens, fuses, draw pile and fireworks at least a tenth of the screen high."""
    surface, renderer = render("game", size, "en")
    tenth = size[1] / 10
    assert color_extent(surface, HINT_BLUE) >= tenth  # the hint tokens
    assert color_extent(surface, SUIT_RGB[Color.RED]) >= tenth  # the red firework
    game = controller_for("game", "en").game
    assert game is not None
    deck = [d.rect for d in renderer.texts if d.text == str(game.position.deck)]
    assert deck and deck[0].height >= tenth  # the draw pile's count


def test_fuses_are_drawn_as_tokens():
    """Section 2: the fuses as tokens, not only numbers: one more burnt fuse, more red."""
    game = Game(GameSetup(players=2))
    c = Controller(SetupDraft(players=2), game)
    surface = pygame.Surface((480, 320))
    renderer = Renderer((480, 320), strict=True)
    renderer.draw(surface, c)
    before = pygame.transform.average_color(surface)
    game.apply(Play(Card.from_code("R3")))  # a misplay: fuse 1 of 3
    renderer.draw(surface, c)
    assert pygame.transform.average_color(surface) != before
    from companion.panel.screens.kit import FUSE_RED

    assert color_extent(surface, FUSE_RED) > 0


@pytest.mark.parametrize("lang", LANGUAGES)
def test_end_screen_shows_score_rating_sentence_and_reason(lang):
    """Section 5: the rating appears by itself, in the chosen language, with the reason."""
    c = controller_for("end_final_round", lang)
    game = c.game
    assert game is not None and c.screen is Screen.END
    surface = pygame.Surface((480, 320))
    renderer = Renderer((480, 320), strict=True)
    renderer.draw(surface, c)
    words = said(renderer)
    rating = game.rating
    assert isinstance(rating, Rating)
    for word in i18n.rating_sentence(lang, rating).split():
        assert word in words
    assert str(game.score) in words
    assert i18n.tr(lang, "end_final_round") in words


@pytest.mark.parametrize("lang", LANGUAGES)
def test_end_screen_figures_use_plurals(lang):
    """ "1 misplay", not "1 misplays" (French: "1 erreur"): a game with exactly one."""
    game = next(
        game
        for seed in range(500)
        if (game := SimulatedTable(GameSetup(2, names=NAMES[:2]), random.Random(seed)).play_out())
        and [event.kind for event in game.events].count(EventKind.MISPLAY) == 1
    )
    renderer = Renderer((480, 320), strict=True)
    renderer.draw(pygame.Surface((480, 320)), Controller(SetupDraft(language=lang), game))
    figures = [d.text for d in renderer.texts if " · " in d.text]
    assert any(i18n.counted(lang, "misplays", 1) in text for text in figures), figures
    plural_with_1 = i18n.counted(lang, "misplays", 2).replace("2", "1")
    if plural_with_1 != i18n.counted(lang, "misplays", 1):  # German: 1 Fehler, 2 Fehler
        assert not any(plural_with_1 in text for text in figures)


def test_storm_end_screen_says_lost_not_a_band():
    """Section 5: a game lost to the storm shows "lost" with its reason, not a band."""
    _surface, renderer = render("end_storm", (480, 320), "en")
    words = said(renderer)
    assert "Lost" in words and "third fuse" in words
    for rating in Rating:
        assert i18n.rating_title("en", rating) not in words


def test_final_round_line_names_who_still_plays():
    """Section 2: during the final round, who still plays, in order, and who plays last."""
    c = controller_for("final_round", "en")
    game = c.game
    assert game is not None
    order = game.final_round_order()
    assert order
    _surface, renderer = render("final_round", (480, 320), "en")
    line = final_round_text("en", game)
    current, last = game.setup.names[order[0]], game.setup.names[order[-1]]
    assert line.startswith(f"Final round: {current}")
    assert line.endswith(last) or line.endswith(f"{last} plays last")
    assert line in said(renderer)


def test_discard_pile_marks_critical_cards():
    """Section 2: the discard pile grouped by suit with critical cards marked."""
    game = Game(GameSetup(players=2, names=("Ann", "Bo")))
    game.apply(Hint())
    game.apply(Discard(Card.from_code("G4")))  # the other G4 is now the last copy
    c = Controller(SetupDraft(players=2), game)
    c.page = GamePage.DISCARDS
    surface = pygame.Surface((480, 320))
    renderer = Renderer((480, 320), strict=True)
    renderer.draw(surface, c)
    assert Card.from_code("G4") in game.critical_cards()
    assert "!" in [d.text for d in renderer.texts]


def test_refusal_is_shown_in_words():
    """Section 3: a refused action shows the engine's reason on screen."""
    _surface, renderer = render("refused", (480, 320), "fr")
    words = said(renderer)
    assert "Les 8 indices sont disponibles" in words


def test_setup_screen_draws_options_that_do_not_combine_yet():
    """The set-up screen is drawn while options are being chosen: crowning piece with two
    other variants is refused when the game starts, not by crashing the screen."""
    draft = SetupDraft(
        options=GameOptions(crowning_piece=True, multicolor=Multicolor.SHORT, timed_display=True)
    )
    surface = pygame.Surface((480, 320))
    renderer = Renderer((480, 320), strict=True)
    renderer.draw(surface, Controller(draft))
    assert "Player 1, Player 2, Player 3" in said(renderer)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refused_start_is_said_on_the_set_up_screen(lang):
    """Start with options the rules refuse (crowning piece + multicolor + timed display)
    starts nothing and says why, on the set-up screen itself."""
    draft = SetupDraft(
        language=lang,
        options=GameOptions(crowning_piece=True, multicolor=Multicolor.SHORT, timed_display=True),
    )
    controller = Controller(draft)
    controller.handle(Press(Key.OK))  # the focus starts on Start
    assert controller.game is None and controller.screen is Screen.SETUP
    renderer = Renderer((480, 320), strict=True)
    renderer.draw(pygame.Surface((480, 320)), controller)
    sentence = i18n.tr(lang, "crowning_one_variant")
    assert sentence in said(renderer)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refused_discard_is_said_on_the_game_screen(lang):
    """DISCARD with all 8 hint tokens: refused at once, the reason on the game screen."""
    controller = controller_for("setup", lang)
    controller.handle(Press(Key.OK))
    controller.handle(Press(Key.DISCARD))
    renderer = Renderer((480, 320), strict=True)
    renderer.draw(pygame.Surface((480, 320)), controller)
    sentence = i18n.refusal_text(lang, HintTokensFull())
    assert controller.screen is Screen.GAME
    assert sentence in said(renderer)


@pytest.mark.parametrize("size", [(240, 320), (320, 480)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_portrait_game_screen_draws_as_its_landscape_twin(size):
    """A portrait panel's game screen: whose turn on its own row, and the fireworks at
    least as tall as on the landscape panel of the same pixels (sizes follow the shorter
    side; the landscape one keeps its final round's second line from the first turn)."""
    portrait, renderer = render("game", size, "en")
    landscape, _ = render("game", (size[1], size[0]), "en")

    def fireworks(surface: pygame.Surface) -> pygame.Surface:
        """The rows above the hint tokens (a tall panel shows red discards lower down)."""
        tokens_top = next(
            y
            for y in range(surface.get_height())
            if any(surface.get_at((x, y))[:3] == HINT_BLUE for x in range(surface.get_width()))
        )
        return surface.subsurface((0, 0, surface.get_width(), tokens_top))

    red = SUIT_RGB[Color.RED]
    assert color_extent(fireworks(portrait), red) >= color_extent(fireworks(landscape), red)
    turn = [d.rect for d in renderer.texts if d.text.endswith("to play")]
    deck = [d.rect for d in renderer.texts if d.text == "12"]
    assert turn and deck and turn[0].bottom <= deck[0].top  # two rows, not one squeezed


def test_a_tall_portrait_panel_shows_the_discard_pile_on_the_game_screen():
    """480x800 has room for the discard pile on the game screen itself, between the
    tokens and the status: no page to turn."""
    _surface, renderer = render("game", (480, 800), "en")
    pile = [d.rect for d in renderer.texts if d.text.startswith("Discard pile")]
    status = [d.rect for d in renderer.texts if d.text.startswith("Score\u00a0")]
    assert pile and status and pile[0].bottom < status[0].top
    # one pile view, not two: NEXT turns from the table to the actions
    c = Controller(SetupDraft(players=3), mid_game())
    tall = Renderer((480, 800), strict=True)
    tall.draw(pygame.Surface((480, 800)), c)
    c.handle(PanelLayout(tall.pile_on_table))  # as the app tells it after a frame
    assert GamePage.DISCARDS not in c.pages
    c.handle(Press(Key.NEXT))
    assert c.page is GamePage.ACTIONS


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_announce_step_asks_for_an_announcement_not_a_card_colour(lang):
    """Timed display: the prompt says what it asks ("Announce which colour?")."""
    game = Game(GameSetup(players=2, names=NAMES[:2], options=GameOptions(timed_display=True)))
    c = Controller(SetupDraft(language=lang), game)
    for event in (Press(Key.PLAY), ChooseColor(Color.RED), ChooseRank(1), Press(Key.PREVIOUS)):
        c.handle(event)
    renderer = Renderer((480, 320), strict=True)
    renderer.draw(pygame.Surface((480, 320)), c)
    texts = [d.text for d in renderer.texts]
    assert i18n.tr(lang, "entry_pick_announce") in texts
    assert i18n.tr(lang, "entry_pick_color") not in texts


@pytest.mark.parametrize("lang", LANGUAGES)
def test_soft_key_labels_are_in_the_screens_language(lang):
    """The entry's soft keys name the buttons in the table's language (INDICE under the
    red tile, whose key, r, is on the tile)."""
    _surface, renderer = render("entry_color", (480, 320), lang)
    texts = [d.text for d in renderer.texts]
    assert i18n.tr(lang, "softkey_hint") in texts and "r" in texts
    if lang == "fr":
        assert not any(text.startswith("HINT") for text in texts)


def _message_cases():
    """Every kind of message, on every screen it can occur on, as the table meets it."""
    from engine.errors import IllegalAction

    def game_screen(message):
        def build(lang):
            c = controller_for("game", lang)
            c.message = message(c)
            return c

        return build

    def entry_screen(message):
        def build(lang):
            c = controller_for("entry_color", lang)
            c.message = message(c)
            return c

        return build

    def setup_screen(message):
        def build(lang):
            c = controller_for("setup", lang)
            c.message = message(c)
            return c

        return build

    happened = lambda c: Happened(c.game.events[-1])  # noqa: E731
    undone = lambda c: Undone(c.game.events[-1])  # noqa: E731
    refused = lambda c: Refused(HintTokensFull())  # noqa: E731
    info = lambda c: Info("unknown_tag", (("tag", "0012345678"),))  # noqa: E731
    engine_text = lambda c: Refused(IllegalAction("a rule the table broke"))  # noqa: E731
    return {
        "happened-on-game": game_screen(happened),
        "undone-on-game": game_screen(undone),
        "refused-on-game": game_screen(refused),
        "info-on-game": game_screen(info),
        "refused-on-entry": entry_screen(refused),
        "info-on-entry": entry_screen(info),
        "refused-on-setup": setup_screen(engine_text),
        "info-on-setup": setup_screen(lambda c: Info("start_keeps_the_game")),
    }


MESSAGE_CASES = _message_cases()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("case", list(MESSAGE_CASES))
def test_every_message_kind_reaches_every_screen_it_can_occur_on(case, lang):
    """Nothing silent: whatever the controller says (an action, an undo, a refusal, a
    notice line) is written on the screen the table is looking at."""
    from companion.panel.screens.game import message_text

    controller = MESSAGE_CASES[case](lang)
    text, _color = message_text(controller)
    assert text
    renderer = Renderer((480, 320), strict=True)
    renderer.draw(pygame.Surface((480, 320)), controller)
    assert text in said(renderer)


def test_a_colour_the_game_has_not_is_said_on_the_entry_screen():
    """`m` in a base game is refused at once, and the entry screen says why."""
    game = Game(GameSetup(players=2, names=NAMES[:2]))
    c = Controller(SetupDraft(players=2), game)
    c.handle(Press(Key.PLAY))
    c.handle(ChooseColor(Color.MULTICOLOR))
    assert isinstance(c.message, Refused) and c.screen is Screen.ENTRY
    renderer = Renderer((480, 320), strict=True)
    renderer.draw(pygame.Surface((480, 320)), c)
    assert i18n.refusal_text("en", c.message.error) in said(renderer)


def test_ok_on_a_refusal_shows_the_last_action_again():
    """The refusal on the game screen is acknowledged with OK (it ignored OK before)."""
    c = controller_for("refused", "en")
    game = c.game
    assert game is not None
    c.handle(Press(Key.OK))
    assert c.message == Happened(game.events[-1])


def test_set_up_rows_that_return_cycles_show_it_and_more_rows_are_named():
    """Set-up: a row Return moves on shows its value between ‹ and › (the names row,
    typed, and Start do not); when rows overflow, a line names those below (issue 33:
    a small arrow was all, and hand memory out of sight)."""
    _surface, renderer = render("setup", (320, 240), "en")
    texts = [d.text for d in renderer.texts]
    assert "‹ 3 ›" in texts  # players
    assert "‹ Ann ›" in texts  # first player
    assert "Ann, Bo, Cy" in texts  # names: typed, not cycled
    assert any(text.startswith("▼ More below: Hints") for text in texts)


def test_crowning_piece_a_discard_that_loses_is_previewed_as_lost_in_the_warning_colour():
    """Crowning piece: discarding a last copy loses the game; the preview says "loses the
    game" in the warning colour, as the storm's preview does."""
    from support.screen_states import crowning_losing_discard

    from companion.panel.screens.kit import WARN

    c = crowning_losing_discard("en")
    preview = c.preview
    assert preview.end is not None and preview.end.outcome is Outcome.LOST
    renderer = Renderer((480, 320), strict=True)
    surface = pygame.Surface((480, 320))
    renderer.draw(surface, c)
    assert "and loses the game" in said(renderer)
    assert color_extent(surface, WARN) > 0


# -- issue 20, the smaller defects of the set-up, entry and history screens ---------------


def _five_with_eight_tokens(lang: str) -> Controller:
    """Red 1 to 4 played, all 8 hint tokens there: red 5 is being confirmed."""
    setup = GameSetup(players=2, names=NAMES[:2])
    game = Game.replay(setup, [Play(Card.from_code(f"R{rank}")) for rank in range(1, 5)])
    assert game.position.hints == 8
    c = Controller(SetupDraft(players=2, language=lang), game)
    c.handle(Press(Key.PLAY))
    c.handle(ChooseColor(Color.RED))
    c.handle(ChooseRank(5))
    return c


@pytest.mark.parametrize("lang", LANGUAGES)
def test_issue20_2_the_preview_of_a_5_with_8_tokens_says_the_bonus_is_lost_as_the_result(lang):
    """Issue 20, defect 2: the confirmation said "(+1 hint)" where the result says the
    bonus is lost; both now say it in the same words (one wording source)."""
    from companion.panel.screens.game import message_text

    c = _five_with_eight_tokens(lang)
    renderer = Renderer((480, 320), strict=True)
    renderer.draw(pygame.Surface((480, 320)), c)
    extras = i18n.token_change_text(lang, c.preview)
    assert i18n.tr(lang, "ev_bonus_lost") in extras
    assert extras in said(renderer)
    assert i18n.tr(lang, "ev_tokens_gained", n=1) not in said(renderer)
    c.handle(Press(Key.OK))
    assert isinstance(c.message, Happened) and c.message.event.bonus_lost
    assert extras in message_text(c)[0]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_issue20_2_a_token_won_back_is_previewed_as_the_result_says_it(lang):
    """A discard (and a 5 with a token missing) gives one back: "+1 hint" both times."""
    from companion.core.i18n import preview_text
    from companion.panel.screens.game import message_text

    c = Controller(SetupDraft(players=3, language=lang), mid_game())
    c.handle(Press(Key.DISCARD))
    c.handle(ChooseColor(Color.BLUE))
    c.handle(ChooseRank(1))
    gained = i18n.tr(lang, "ev_tokens_gained", n=1)
    assert gained in preview_text(lang, c.preview)
    c.handle(Press(Key.OK))
    assert gained in message_text(c)[0]


def test_issue20_3_after_cancel_the_game_screen_shows_the_last_action_not_the_refusal():
    """Issue 20, defect 3: a refused colour (multicolor in a base game), then Cancel:
    the game screen says what last happened again, not the refusal's red line."""
    game = Game.replay(GameSetup(players=2, names=NAMES[:2]), [Play(Card.from_code("R1"))])
    c = Controller(SetupDraft(players=2), game)
    last = i18n.describe_event("en", game.events[-1], c.names)
    c.handle(Press(Key.PLAY))
    c.handle(ChooseColor(Color.MULTICOLOR))
    assert isinstance(c.message, Refused)
    refusal = i18n.refusal_text("en", c.message.error, c.names)
    c.handle(Press(Key.BACK))
    renderer = Renderer((480, 320), strict=True)
    renderer.draw(pygame.Surface((480, 320)), c)
    assert c.screen is Screen.GAME
    assert last in said(renderer) and refusal not in said(renderer)


def test_issue20_3_the_last_action_line_is_not_on_the_set_up_screen():
    """Issue 20, defect 3: Menu, New game: the set-up shows its rows, not the game's
    last action; a line of its own (Start asks first) is still said."""
    c = controller_for("game", "en")
    last = i18n.describe_event("en", c.game.events[-1], c.names)
    c.handle(Press(Key.MENU))
    c.choose_menu("new_game")
    renderer = Renderer((480, 320), strict=True)
    renderer.draw(pygame.Surface((480, 320)), c)
    assert c.screen is Screen.SETUP and last not in said(renderer)
    c.handle(Press(Key.OK))  # Start: the game in play would be abandoned
    renderer.draw(pygame.Surface((480, 320)), c)
    assert i18n.tr("en", "start_keeps_the_game") in said(renderer)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_issue20_8_the_history_shows_a_score_out_of_the_variants_most(lang):
    """Issue 20, defect 8: "0 · unfinished" said nothing of the scale: "0/25", and
    "23/25", "0/30" for a six-suit game."""
    from companion.storage import GameStatus

    c = controller_for("history", lang)
    assert c.history is not None
    games = c.history[0]
    games.insert(
        0,
        HistoryRow(
            3, "2026-11-21T20:00:00+00:00", None, 3, NAMES, GameOptions(), 0, 25, None,
            None, None, status=GameStatus.ABANDONED,
        ),
    )  # fmt: skip
    renderer = Renderer((480, 320), strict=True)
    renderer.draw(pygame.Surface((480, 320)), c)
    text = said(renderer)
    unfinished = i18n.tr(lang, "history_unfinished")
    assert f"0/25  ·  {unfinished}" in text
    assert "23/25  ·  " in text and "0/30  ·  " in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_issue20_6_the_history_says_what_resuming_would_abandon(lang):
    """Issue 20, defect 6: OK on another unfinished game while one is in play: the
    history screen says the game in play would be abandoned."""
    from companion.storage import GameStatus

    c = controller_for("game", lang)
    c.handle(Press(Key.MENU))
    c.choose_menu("history")
    c.history = (
        [
            HistoryRow(
                3, "2026-11-21T20:00:00+00:00", None, 3, NAMES, GameOptions(), 4, 25, None,
                None, None, status=GameStatus.ABANDONED,
            )
        ],
        [],
    )  # fmt: skip
    assert c.handle(Press(Key.OK)) == []
    renderer = Renderer((480, 320), strict=True)
    renderer.draw(pygame.Surface((480, 320)), c)
    assert i18n.tr(lang, "resume_keeps_the_game") in said(renderer)


def test_every_screen_has_a_drawer_in_its_own_module():
    """Each screen is drawn by a function of the module SCREENS names for it."""
    for screen, (module, function) in screens.SCREENS.items():
        draw = drawer(screen)
        assert callable(draw), screen
        assert (draw.__module__, draw.__name__) == (f"companion.panel.screens.{module}", function)
