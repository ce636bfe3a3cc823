"""The ``render`` command: the screen the companion shows after a log, drawn into a PNG."""

from __future__ import annotations

import argparse
import os
import sys
from datetime import UTC, datetime
from pathlib import Path

import pygame

from companion.core.controller import (
    Controller,
    GamePage,
    PanelLayout,
    PlayLinked,
    Screen,
    SetupDraft,
)
from companion.panel.screens import Renderer
from companion.shell.commands.choices import RENDER_PAGES
from companion.shell.commands.replay import replay_file
from hardware.events import Key, Press


def turn_to_page(controller: Controller, name: str, size: tuple[int, int]) -> str | None:
    """Turn ``controller`` to the page ``name`` (one of :data:`RENDER_PAGES`), as NEXT
    would; or say in one sentence why this game has no such page on this panel."""
    game = controller.game
    assert game is not None
    # the hands are a page of the game screen and, once the game is over, of the end's
    at_end = name.startswith("end") or (name == "hands" and game.is_over)
    if at_end and not game.is_over:
        return f"--page {name}: the game is not over (its pages: game, discards, actions, hands)"
    if not at_end and game.is_over:
        return (
            f"--page {name}: the game is over"
            " (its pages: end, end-discards, end-actions, hands, end-story, end-bgstats,"
            " end-replay)"
        )
    page = GamePage(RENDER_PAGES[name])
    assert controller.screen is (Screen.END if at_end else Screen.GAME)  # the game's screen
    controller.handle(PanelLayout(Renderer(size).shows_pile(controller)))
    if page not in controller.pages:
        if page is GamePage.HANDS:
            return "--page hands: this game does not keep hand memory"
        if page is GamePage.REPLAY:
            return "--page end-replay: not every hand is shown at the end (its reveal lines)"
        width, height = size
        return (
            f"--page discards: at {width}x{height} the discard pile is on the game page"
            " (--page game)"
        )
    while controller.page is not page:  # as a player turns to it: NEXT, page after page
        controller.handle(Press(Key.NEXT))
    return None


def render_command(args: argparse.Namespace) -> int:
    """Draw the screen the companion shows after a log, into a PNG, without a display."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    replayed = replay_file(args.log)
    if isinstance(replayed, int):
        return replayed
    game, reveals = replayed
    folder = Path(args.out).parent
    if not folder.is_dir():
        print(
            f"hanabi-companion: cannot write {args.out}: the folder {folder} does not exist",
            file=sys.stderr,
        )
        return 1
    pygame.font.init()
    surface = pygame.Surface(args.size)
    controller = Controller(SetupDraft(language=args.lang), game)
    # the hands shown at the end; some still to show: the reveal screen, as after a restart
    controller.restore_reveals(tuple(reveals.shown), resume=args.page is None)
    if game.is_over:  # the end's BG Stats page: the link of the log, as if stored now
        from companion.core.bgstats import PlayFacts, bgstats_link

        started = game.setup.started_at or datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        link = bgstats_link(game, PlayFacts(0, started, None), args.lang)
        controller.handle(PlayLinked(link, len(game.actions)))
    if args.page is not None:
        problem = turn_to_page(controller, args.page, args.size)
        if problem:
            print(f"hanabi-companion: {problem}", file=sys.stderr)
            return 2
    Renderer(args.size).draw(surface, controller)
    try:
        pygame.image.save(surface, str(args.out))
    except (OSError, pygame.error) as error:  # unwritable, a full disk, an unknown suffix
        print(f"hanabi-companion: cannot write {args.out}: {error}", file=sys.stderr)
        return 1
    return 0
