"""The recent actions, newest first, each in the words of the last-action line: a page
of the game screen and of the end screen."""

from __future__ import annotations

import pygame

from companion.core import i18n
from companion.panel.screens.kit import DIM, TEXT, Kit
from engine.game import Game


def draw_list(kit: Kit, surface: pygame.Surface, game: Game, rect: pygame.Rect, lang: str) -> None:
    """A title, then as many of the latest actions as fit ``rect``, newest first, each
    after its turn number; a line that needs more room than is left is not begun."""
    line = kit.line_height(kit.floor)
    title = pygame.Rect(rect.left, rect.top, rect.width, line)
    kit.text(surface, i18n.tr(lang, "recent_actions"), title, color=DIM)
    top = title.bottom + kit.gap
    if not game.events:
        kit.text(
            surface,
            i18n.tr(lang, "no_actions"),
            pygame.Rect(rect.left, top, rect.width, line),
            color=DIM,
        )
        return
    number_w = kit.width_of(f"{len(game.events)}.", kit.floor) + kit.pad
    text_w = rect.width - number_w
    for event in reversed(game.events):
        text = i18n.describe_event(lang, event, game.setup.names)
        height = kit.height_of(text, kit.floor, text_w)
        if top + height > rect.bottom:
            break
        number = pygame.Rect(rect.left, top, number_w - kit.pad, line)
        kit.text(surface, f"{event.turn}.", number, color=DIM, align="right")
        kit.text(surface, text, pygame.Rect(rect.left + number_w, top, text_w, height), color=TEXT)
        top += height + kit.gap
