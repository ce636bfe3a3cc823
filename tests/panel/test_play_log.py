"""Issue 34: the end screen's BG Stats page, its QR code read back by a real decoder.

The real app links the game it stores finished; the page is drawn at 800x480, 480x320 and
320x240 (strict layout: no overlap, text at its floor) into PNG files, and ``zbarimg``
(zbar-tools) must read back exactly the link from each code it draws.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pygame
import pytest
from support.needs import need_tool

from companion.core.bgstats import PlayFacts, bgstats_link
from companion.core.controller import Controller, GamePage, PlayLinked, Screen, SetupDraft
from companion.panel.screens import Renderer
from companion.panel.screens.phones import QUIET_ZONE
from companion.panel.screens.play_log import MIN_MODULE, link_matrix
from companion.storage import Storage
from engine import Card, GameSetup
from engine.actions import Play
from engine.cards import Color
from engine.game import Game
from engine.log import replay_log
from hardware.events import ChooseColor, ChooseRank, Key, Press

LOGS = Path(__file__).resolve().parents[1] / "logs"
SIZES = [(800, 480), (480, 320), (320, 240)]


def read_codes(png: Path) -> list[str]:
    """Every QR code zbarimg finds in ``png``, as text."""
    zbarimg = need_tool("zbarimg")
    found = subprocess.run(
        [zbarimg, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(png)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert found.returncode in (0, 4), found.stderr  # 4: no code found
    return [line for line in found.stdout.splitlines() if line]


def end_page(log: str, link: str | None) -> Controller:
    game = replay_log((LOGS / log).read_text())
    controller = Controller(SetupDraft(), game)
    if link is not None:
        controller.handle(PlayLinked(link, len(game.actions)))
    return controller


def drawn(controller: Controller, size: tuple[int, int], png: Path) -> Renderer:
    surface = pygame.Surface(size)
    renderer = Renderer(size, strict=True)
    renderer.draw(surface, controller)
    pygame.image.save(surface, str(png))
    keep = os.environ.get("HANABI_SCREENSHOTS")
    if keep:
        pygame.image.save(surface, str(Path(keep) / png.name))
    return renderer


def link_of(log: str) -> str:
    game = replay_log((LOGS / log).read_text())
    facts = PlayFacts(12, "2026-03-01T18:00:00Z", "2026-03-01T18:52:00Z", "The kitchen")
    return bgstats_link(game, facts)


def test_the_page_comes_after_the_actions_once_the_link_is_made() -> None:
    without = end_page("storm.jsonl", None)
    assert without.screen is Screen.END
    assert GamePage.PLAY_LOG not in without.pages
    controller = end_page("storm.jsonl", link_of("storm.jsonl"))
    assert controller.pages[-1] is GamePage.PLAY_LOG
    for _ in range(4):  # the result, the pile, the actions, the story, then the code
        controller.handle(Press(Key.NEXT))
    assert controller.page is GamePage.PLAY_LOG
    controller.handle(Press(Key.NEXT))
    assert controller.page is GamePage.TABLE  # round, back to the result
    # a link made for another length of the game is not this game's
    stale = end_page("storm.jsonl", None)
    stale.handle(PlayLinked(link_of("storm.jsonl"), 2))
    assert stale.end_link() is None and GamePage.PLAY_LOG not in stale.pages


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("log", ["storm.jsonl", "perfect_six_suits.jsonl"])
def test_the_code_reads_back_as_the_link(tmp_path: Path, size: tuple[int, int], log: str) -> None:
    link = link_of(log)
    controller = end_page(log, link)
    while controller.page is not GamePage.PLAY_LOG:
        controller.handle(Press(Key.NEXT))
    png = tmp_path / f"end-bgstats-{log.split('.')[0]}-{size[0]}x{size[1]}.png"
    renderer = drawn(controller, size, png)
    kit = renderer.kit
    assert all(text.whole for text in kit.texts), [t.text for t in kit.texts if not t.whole]
    assert all(t.size >= kit.floor for t in kit.texts)
    assert read_codes(png) == [link]
    modules = len(link_matrix(link)) + 2 * QUIET_ZONE
    if size == (320, 240):  # the code alone on the panel; a tap on it turns the page
        assert kit.texts == []
        assert [event for _, event in renderer.targets] == [Press(Key.NEXT)]
        assert modules * MIN_MODULE <= 240
    else:  # the words and the buttons too
        assert "Scan to log this game in BG Stats" in " ".join(t.text for t in kit.texts)
        assert Press(Key.OK) in [event for _, event in renderer.targets]


def test_a_code_too_large_for_the_panel_is_said(tmp_path: Path) -> None:
    """Five players with long names and a long location: 320x240 cannot show the code
    at 2 px a module; the page says where it is instead of drawing what no camera reads."""
    names = tuple(f"{name}-Marguerite" for name in ("Ann", "Bo", "Cy", "Di", "Ed"))
    five = Game(GameSetup(players=5, names=names))
    for code in ("R2", "B2", "G2"):  # three misplays: the storm
        five.apply(Play(Card.from_code(code)))
    assert five.is_over
    link = bgstats_link(five, PlayFacts(1, "2026-03-01T18:00:00Z", None, "x" * 60))
    controller = Controller(SetupDraft(), five)
    controller.handle(PlayLinked(link, len(five.actions)))
    controller.page = GamePage.PLAY_LOG
    png = tmp_path / "end-bgstats-too-large-320x240.png"
    renderer = drawn(controller, (320, 240), png)
    assert read_codes(png) == []
    assert any("too large for this panel" in t.text for t in renderer.kit.texts)
    assert all(t.whole for t in renderer.kit.texts)
    png = tmp_path / "end-bgstats-long-480x320.png"
    drawn(controller, (480, 320), png)
    assert read_codes(png) == [link]


def test_the_app_links_the_game_it_stores_finished(tmp_path: Path, make_app) -> None:
    """The real app: the last misplay ends the game, the app stores it finished and hands
    the controller the link of the stored game (its stored times, the stored location)."""
    game = replay_log((LOGS / "storm.jsonl").read_text())
    with Storage.open(tmp_path / "data") as storage:
        game_id = storage.new_game(game.setup)
        for action in game.actions[:-1]:
            storage.append_action(game_id, action)
        storage.set_setting("location", "The kitchen")
    app = make_app((480, 320))
    assert app.controller.end_link() is None
    last = game.actions[-1]
    assert last.card is not None and last.card.color is Color.WHITE
    for event in (Press(Key.PLAY), ChooseColor(Color.WHITE), ChooseRank(3), Press(Key.OK)):
        app.dispatch(event)
        app.step()
    assert app.controller.screen is Screen.END
    link = app.controller.end_link()
    assert link is not None
    stored = app.storage.load(game_id)
    facts = PlayFacts(game_id, stored.started_at, stored.finished_at, "The kitchen")
    assert link == bgstats_link(stored.replay(), facts)
