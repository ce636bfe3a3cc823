"""The table's whole picture on the panel (issue 20): the discard pile whole on every
panel, the recent actions, the hint's content, hand memory legible from a chair, and
``render --page``.

Each test draws with the real renderer (strict: an overlap or a box off the screen
raises) and reads back what was drawn: the texts, the pile's cards, the pixels.
"""

from __future__ import annotations

import functools
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pygame
import pytest

from companion.core import i18n
from companion.core.controller import Controller, GamePage, PanelLayout, Screen, SetupDraft
from companion.panel.screens import SUIT_RGB, Renderer, hand
from companion.panel.screens.kit import DARK_INK, Kit
from engine import Card, Color, GameSetup, Hint, Multicolor
from engine.game import Game
from engine.log import replay_log
from engine.memory import SlotKnowledge
from engine.options import GameOptions
from engine.table import SimulatedTable
from hardware.events import Key, Press

#: Every panel size the companion supports, both ways round, and the tall one.
SIZES = [(240, 320), (320, 240), (480, 320), (320, 480), (800, 480), (480, 800)]
LONG_NAMES = ("Bernadette", "Christopher", "Dominique", "Emmanuelle", "Maximiliane")
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


@functools.cache
def discarding_game(players: int, options: GameOptions, discards: int) -> Game:
    """A simulated game stopped once ``discards`` cards lie in the pile (misplays too)."""
    setup = GameSetup(players=players, names=LONG_NAMES[:players], options=options)
    for seed in range(500):
        table = SimulatedTable(setup, random.Random(seed), skill=0.7, play_bias=0.05)
        while not table.game.is_over:
            if len(table.game.position.discards) >= discards:
                return table.game
            table.step()
    raise AssertionError(f"no seed reaches {discards} discards")


GAMES = {
    "3 players, 20 discards": lambda: discarding_game(3, GameOptions(), 20),
    "5 players, six suits, 20 discards": lambda: discarding_game(
        5, GameOptions(multicolor=Multicolor.SHORT), 20
    ),
    "4 players, hand memory, 16 discards (docs/examples/long-pile.jsonl)": lambda: replay_log(
        (EXAMPLES / "long-pile.jsonl").read_text()
    ),
}


def show_pile(game: Game, size: tuple[int, int], lang: str = "en") -> tuple[Renderer, Kit]:
    """Draw the pile where a player finds it: its own page, or the table page of a
    panel that shows it there."""
    controller = Controller(SetupDraft(players=game.setup.players, language=lang), game)
    renderer = Renderer(size, strict=True)
    controller.pile_on_table = renderer.shows_pile(controller)  # as the app tells it
    if GamePage.DISCARDS in controller.pages:
        controller.page = GamePage.DISCARDS
    surface = pygame.Surface(size)
    renderer.draw(surface, controller)
    renderer.surface = surface  # type: ignore[attr-defined]
    return renderer, renderer.kit


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("which", list(GAMES))
def test_every_discarded_card_is_on_the_panel_with_its_mark_and_no_plus_n(which, size):
    """The pile is whole: each discarded card drawn once (copies too), marked "!" when it
    is the last copy of a card still needed and "×" when gone for good; no "+N"."""
    game = GAMES[which]()
    renderer, kit = show_pile(game, size)
    drawn = Counter(code for code, _mark, _rect in kit.pile)
    assert drawn == Counter(card.code() for card in game.position.discards)
    critical = {card.code() for card in game.critical_cards()}
    lost = {card.code() for card in game.lost_cards()}
    for code, mark, rect in kit.pile:
        assert mark == ("×" if code in lost else "!" if code in critical else ""), code
        assert pygame.Rect((0, 0), size).contains(rect), (code, rect)
    assert critical & set(drawn) or lost & set(drawn), "the game shows no mark to check"
    assert not [d.text for d in renderer.texts if d.text.startswith("+")]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_piles_cards_stand_apart_in_their_suits_colour(size):
    """Two different cards never overlap (only copies of one card are stacked), and each
    card shows its suit's colour where it is not covered."""
    game = GAMES["3 players, 20 discards"]()
    renderer, kit = show_pile(game, size)
    surface = renderer.surface  # type: ignore[attr-defined]
    for i, (code, _mark, rect) in enumerate(kit.pile):
        for other, _other_mark, other_rect in kit.pile[i + 1 :]:
            if other != code:
                assert not rect.colliderect(other_rect), (code, other)
        color = Card.from_code(code).color
        assert surface.get_at((rect.left + 1, rect.centery))[:3] == SUIT_RGB[color], code


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_pile_says_how_many_cards_of_each_suit_nobody_has_seen(size):
    """Per suit, the cards not yet played nor discarded (what players count late in a
    game): each suit's count is drawn, under the title's "unseen"."""
    game = GAMES["3 players, 20 discards"]()
    renderer, _kit = show_pile(game, size)
    texts = [d.text for d in renderer.texts]
    assert "unseen" in texts
    expected = Counter(str(game.unseen(suit.color)) for suit in game.setup.suits)
    assert not expected - Counter(texts)
    total = sum(game.unseen(suit.color) for suit in game.setup.suits)
    in_hands = sum(game.position.hands)
    assert total == game.position.deck + in_hands  # unseen = the hands and the draw pile


def test_a_wide_panel_shows_one_pile_not_two():
    """At 800x480 the pile stands beside the fireworks: NEXT goes to the actions, and the
    pile is drawn once."""
    game = GAMES["3 players, 20 discards"]()
    controller = Controller(SetupDraft(players=3), game)
    renderer = Renderer((800, 480), strict=True)
    surface = pygame.Surface((800, 480))
    renderer.draw(surface, controller)
    controller.handle(PanelLayout(renderer.pile_on_table))  # as the app tells it
    assert len(renderer.kit.pile) == len(game.position.discards)
    controller.handle(pygame_next())
    assert controller.page is GamePage.ACTIONS
    renderer.draw(surface, controller)
    assert renderer.kit.pile == []
    assert "Recent actions" in [d.text for d in renderer.texts]


def pygame_next():
    from hardware.events import Key, Press

    return Press(Key.NEXT)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_the_actions_page_lists_the_latest_actions_newest_first_in_the_lines_words(size, lang):
    """The actions page: newest first, each after its turn number, in the words of the
    last-action line, as many as fit (never a cut one)."""
    game = GAMES["3 players, 20 discards"]()
    controller = Controller(SetupDraft(players=3, language=lang), game)
    controller.page = GamePage.ACTIONS
    renderer = Renderer(size, strict=True)
    renderer.draw(pygame.Surface(size), controller)
    texts = [d.text for d in renderer.texts]
    numbers = [int(text[:-1]) for text in texts if text[:-1].isdigit() and text.endswith(".")]
    newest = len(game.events)
    assert numbers == list(range(newest, newest - len(numbers), -1))
    assert len(numbers) >= (2 if min(size) < 320 else 4)
    words = " ".join(texts)
    for turn in numbers:
        line = i18n.describe_event(lang, game.events[turn - 1], game.setup.names)
        assert " ".join(line.split()) in " ".join(words.split())


def test_the_end_screen_turns_to_the_pile_then_the_actions():
    """The end screen's NEXT: the discard pile, then the actions, the story of the game
    (issue 34), then the result."""
    game = replay_log((EXAMPLES / "finished.jsonl").read_text())
    controller = Controller(SetupDraft(players=game.setup.players), game)
    assert controller.screen is Screen.END
    seen = []
    for _ in range(4):
        controller.handle(pygame_next())
        seen.append(controller.page)
    assert seen == [GamePage.DISCARDS, GamePage.ACTIONS, GamePage.STORY, GamePage.TABLE]


# -- hand memory from a chair ------------------------------------------------------------


def draw_one_slot(color: Color, *, chosen: bool, rank: int | None = None):
    kit = Kit((480, 320), strict=True)
    surface = pygame.Surface((200, 120))
    surface.fill((16, 21, 34))
    rect = pygame.Rect(20, 20, 90, hand.tile_height(kit))
    ranks = frozenset({rank}) if rank else frozenset({1, 2, 3, 4, 5})
    known = SlotKnowledge(frozenset({color}), ranks)
    hand.draw_slot(kit, surface, rect, 2, known, list(Color)[:5], chosen=chosen)
    return kit, surface, rect


@pytest.mark.parametrize("color", [Color.YELLOW, Color.WHITE, Color.RED, Color.BLUE])
def test_a_chosen_slot_is_ringed_dark_on_every_suits_colour(color):
    """While picking slots, the chosen one shows on a yellow or a white slot too: a dark
    ring inside the light one, where an unchosen slot shows its colour."""
    kit, plain, rect = draw_one_slot(color, chosen=False)
    _kit, chosen, _rect = draw_one_slot(color, chosen=True)
    ring = max(3, kit.gap)
    probe = (rect.left + ring + 1, rect.centery + 6)
    assert plain.get_at(probe)[:3] == SUIT_RGB[color]
    assert chosen.get_at(probe)[:3] == DARK_INK


def test_a_rank_the_hints_fixed_is_large():
    """A fixed rank is drawn at the big size (a thirteenth of the panel), not the floor."""
    kit, _surface, _rect = draw_one_slot(Color.RED, chosen=False, rank=4)
    (four,) = [d for d in kit.texts if d.text == "4"]
    assert four.size == kit.big > kit.floor


def test_the_strip_says_whose_hand_it_is():
    """The hand strip under the fireworks names the player to act, beside the slots."""
    setup = GameSetup(players=3, names=("Ann", "Bo", "Cy"), options=GameOptions(hand_memory=True))
    game = Game(setup)
    game.apply(Hint(to=1, color=Color.RED, slots=(1,)))
    controller = Controller(SetupDraft(players=3), game)
    renderer = Renderer((480, 320), strict=True)
    renderer.draw(pygame.Surface((480, 320)), controller)
    names = [d for d in renderer.texts if d.text == "Bo"]
    badges = [d for d in renderer.texts if d.text == "1" and d.rect.top > names[0].rect.top - 30]
    assert names and badges and names[0].rect.right < min(b.rect.left for b in badges)


# -- render --page -----------------------------------------------------------------------


def render(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", "render", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy"},
        check=False,
    )


@pytest.mark.parametrize("page", ["game", "discards", "actions", "hands"])
def test_render_draws_every_page_of_a_game_in_progress(page, tmp_path):
    out = tmp_path / f"{page}.png"
    done = render(str(EXAMPLES / "hand-memory.jsonl"), "--page", page, "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert pygame.image.load(str(out)).get_size() == (480, 320)


@pytest.mark.parametrize("page", ["end", "end-discards", "end-actions"])
def test_render_draws_every_page_of_the_end_screen(page, tmp_path):
    out = tmp_path / f"{page}.png"
    done = render(str(EXAMPLES / "finished.jsonl"), "--page", page, "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert out.exists()


def finished_with_hand_memory(folder: Path) -> Path:
    """A game kept with hand memory and over (three misplays, each from its slot 1)."""
    from engine import Play
    from engine.log import format_log

    setup = GameSetup(players=2, names=("Ann", "Bo"), options=GameOptions(hand_memory=True))
    actions = [
        Hint(to=1, color=Color.RED, slots=(2, 5)),
        *(Play(Card.from_code(code), slot=1) for code in ("Y4", "R3", "B2")),
    ]
    path = folder / "finished-hands.jsonl"
    path.write_text(format_log(setup, actions), encoding="utf-8")
    assert replay_log(path.read_text(encoding="utf-8")).is_over
    return path


@pytest.mark.parametrize("size", ["800x480", "480x320", "320x240"])
def test_render_draws_the_hands_of_a_finished_game(size, tmp_path):
    """Issue 33: ``render --page hands`` was refused for a finished game; the end screen
    now turns to every player's hand after the actions (NEXT), as the game screen does,
    and ``render`` draws it."""
    log = finished_with_hand_memory(tmp_path)
    out = tmp_path / f"hands-{size}.png"
    done = render(str(log), "--page", "hands", "--size", size, "--out", str(out))
    assert done.returncode == 0, done.stderr
    width, height = (int(n) for n in size.split("x"))
    assert pygame.image.load(str(out)).get_size() == (width, height)
    controller = Controller(SetupDraft(), replay_log(log.read_text(encoding="utf-8")))
    assert controller.screen is Screen.END
    pages = controller.pages
    assert pages[pages.index(GamePage.ACTIONS) + 1] is GamePage.HANDS  # after the actions
    renderer = Renderer((width, height), strict=True)
    for _ in pages[1 : pages.index(GamePage.HANDS) + 1]:
        controller.handle(Press(Key.NEXT))
    assert controller.page is GamePage.HANDS
    renderer.draw(pygame.Surface((width, height)), controller)
    assert {"Ann", "Bo"} <= {drawn.text for drawn in renderer.texts}


@pytest.mark.parametrize(
    ("log", "page", "size", "said"),
    [
        ("mid-game.jsonl", "end", "480x320", "the game is not over"),
        ("finished.jsonl", "actions", "480x320", "the game is over"),
        ("mid-game.jsonl", "hands", "480x320", "does not keep hand memory"),
        ("mid-game.jsonl", "discards", "800x480", "the discard pile is on the game page"),
    ],
)
def test_render_refuses_a_page_the_panel_has_not_in_one_line(log, page, size, said, tmp_path):
    out = tmp_path / "x.png"
    done = render(str(EXAMPLES / log), "--page", page, "--size", size, "--out", str(out))
    assert done.returncode == 2
    assert said in done.stderr and done.stderr.count("\n") == 1
    assert not out.exists()
