"""The recent actions, newest first, each in the words of the last-action line: a page
of the game screen and of the end screen.

The page holds as many actions as fit, from the newest; NEXT goes back a page at a time
to the first action (the controller's ``actions_back``, handed over in the kit), and the
title says which turns are shown ("12–7 / 40"). How many the page held is told back to
the controller (:class:`~companion.core.results.PanelLayout`): the page's size, decided
here, once, for the panel's size and the words shown.
"""

from __future__ import annotations

import pygame

from companion.core import i18n
from companion.panel.screens.kit import DIM, TEXT, Kit
from engine.game import Game


def draw_list(kit: Kit, surface: pygame.Surface, game: Game, rect: pygame.Rect, lang: str) -> None:
    """A title, then as many of the actions as fit ``rect`` after the ``kit.actions_back``
    newest, newest first, each after its turn number; a line that needs more room than is
    left is not begun. ``kit.actions_shown`` says how many were drawn."""
    line = kit.line_height(kit.floor)
    title = pygame.Rect(rect.left, rect.top, rect.width, line)
    events = game.events
    kit.text(surface, i18n.tr(lang, "recent_actions"), title, color=DIM)
    top = title.bottom + kit.gap
    if not events:
        kit.actions_shown = 0
        kit.text(
            surface,
            i18n.tr(lang, "no_actions"),
            pygame.Rect(rect.left, top, rect.width, line),
            color=DIM,
        )
        return
    back = min(kit.actions_back, len(events) - 1)
    number_w = kit.width_of(f"{len(events)}.", kit.floor) + kit.pad
    text_w = rect.width - number_w
    shown = 0
    for event in reversed(events[: len(events) - back]):
        text = i18n.describe_event(lang, event, game.setup.names)
        height = kit.height_of(text, kit.floor, text_w)
        if top + height > rect.bottom:
            break
        number = pygame.Rect(rect.left, top, number_w - kit.pad, line)
        kit.text(surface, f"{event.turn}.", number, color=DIM, align="right")
        kit.text(surface, text, pygame.Rect(rect.left + number_w, top, text_w, height), color=TEXT)
        top += height + kit.gap
        shown += 1
    kit.actions_shown = max(1, shown)  # a page moves on by one at least
    if shown < len(events):  # which turns, of how many: there are more (NEXT)
        newest = events[len(events) - 1 - back].turn
        oldest = events[len(events) - back - max(1, shown)].turn
        where = f"{newest}–{oldest} / {len(events)}"
        width = kit.width_of(where, kit.floor)
        if width + kit.width_of(i18n.tr(lang, "recent_actions"), kit.floor) + kit.pad <= rect.width:
            box = pygame.Rect(rect.right - width, rect.top, width, line)
            kit.text(surface, where, box, color=DIM, align="right")
