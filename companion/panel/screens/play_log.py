"""The end screen's link pages: the QR code of the BG Stats link that logs the play, and
of the Hanab Live link that replays the game once every hand is shown (one drawing).

A page of its own (decision 0114): the link is long (800 to 1,000 characters for three
to five players), so its code has about 100 modules, which no panel holds beside the
rating at 2 px a module. In landscape the words stand at the left and the code takes the
height left by the buttons; in portrait the words are above it. The code is drawn in
whole pixels per module, never fewer than :data:`MIN_MODULE`, with its quiet zone. Where
it fits only on the whole panel (320x240), it is drawn alone, and a tap on it (or NEXT)
turns the page; where even that is too small, the page says where the code is.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import pygame

from companion.core import i18n
from companion.core.controller import Controller
from companion.panel.screens.kit import ACCENT, DIM, Kit, Layout
from companion.panel.screens.phones import QUIET_ZONE, draw_qr
from hardware.events import InputEvent, Key, Press

#: The smallest module drawn, in pixels: a phone's camera reads 2 px modules on a panel.
MIN_MODULE = 2


@functools.lru_cache(maxsize=2)
def link_matrix(link: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code of ``link``: rows of dark (True) modules, without the quiet zone.
    Error correction L, raised by segno where the same size allows (a lit panel has no
    stain or fold; a long link stays as small as it can)."""
    import segno

    code = segno.make(link, error="l", boost_error=True, micro=False)
    return tuple(tuple(bool(module) for module in row) for row in code.matrix)


def code_side(matrix: tuple[tuple[bool, ...], ...], room: pygame.Rect) -> int:
    """The side of the code with its quiet zone in ``room`` (whole pixels a module);
    0 if it does not fit at :data:`MIN_MODULE`."""
    modules = len(matrix) + 2 * QUIET_ZONE
    module = min(room.width, room.height) // modules
    return module * modules if module >= MIN_MODULE else 0


class LinkPage(NamedTuple):
    """What a link page shows: the link ("": none, then ``too_small`` alone says why), the
    sentence above its code, and what the page says where the code does not fit."""

    link: str
    title: str
    too_small: str


def play_log_page(controller: Controller) -> LinkPage:
    """The BG Stats page of the game on screen."""
    lang = controller.language
    link = controller.end_link()
    assert link is not None
    return LinkPage(link, i18n.tr(lang, "play_log_scan"), i18n.tr(lang, "play_log_too_small"))


def replay_page(controller: Controller) -> LinkPage:
    """The Hanab Live page of the game on screen (every hand shown)."""
    lang, end = controller.language, controller.replay_end()
    assert end is not None
    if not end.link:  # no code: the page's name, and why
        return LinkPage("", i18n.tr(lang, "replay"), end.why_not)
    return LinkPage(end.link, i18n.tr(lang, "replay_scan"), i18n.tr(lang, "replay_too_small"))


def draw(
    kit: Kit,
    surface: pygame.Surface,
    controller: Controller,
    buttons: list[tuple[str, InputEvent]],
    page: LinkPage,
) -> None:
    """The page: the code above the end screen's buttons, with its words; where it fits
    only on the whole panel (a small one), the code alone, a tap on it turning the page."""
    layout = kit.layout()
    pad, inner_w = kit.pad, kit.width - 2 * kit.pad
    if not page.link:  # no code: the sentence saying why
        bar_h = kit.bar_height([label for label, _ in buttons], inner_w)
        bar = pygame.Rect(pad, kit.height - pad - bar_h, inner_w, bar_h)
        kit.button_bar(surface, layout.place("buttons", bar), buttons)
        above = pygame.Rect(pad, pad, inner_w, bar.top - 2 * pad)
        _words(kit, surface, layout, above, page.title, page.too_small)
        return
    link = page.link
    matrix = link_matrix(link)
    pad, inner_w = kit.pad, kit.width - 2 * kit.pad
    bar_h = kit.bar_height([label for label, _ in buttons], inner_w)
    bar = pygame.Rect(pad, kit.height - pad - bar_h, inner_w, bar_h)
    whole = pygame.Rect(0, 0, kit.width, kit.height)
    above = pygame.Rect(pad, pad, inner_w, bar.top - 2 * pad)
    if not code_side(matrix, above) and code_side(matrix, whole):
        box = layout.place("qr", draw_qr(surface, whole, matrix))
        kit.target(box, Press(Key.NEXT))
        return
    kit.button_bar(surface, layout.place("buttons", bar), buttons)
    _page(kit, surface, controller, layout, above, page)


def _page(
    kit: Kit,
    surface: pygame.Surface,
    controller: Controller,
    layout: Layout,
    area: pygame.Rect,
    page: LinkPage,
) -> None:
    """The page in ``area`` (above the buttons): the sentence, the score, the code."""
    game = controller.game
    assert game is not None
    pad = kit.pad
    matrix = link_matrix(page.link)
    title = page.title
    score = f"{game.score} / {game.setup.max_score} · {', '.join(game.setup.names)}"
    landscape = area.width > area.height
    if landscape:  # the code at the right, the height of the area; the words at its left
        side = code_side(matrix, area)
        words_w = area.width - side - pad
        if side and words_w >= 4 * kit.floor:
            code_box = pygame.Rect(area.right - side, area.top, side, area.height)
            words = pygame.Rect(area.left, area.top, words_w, area.height)
            _words(kit, surface, layout, words, title, score)
            layout.place("qr", draw_qr(surface, code_box, matrix))
            return
    title_h = kit.height_of(title, kit.floor, area.width)
    below = pygame.Rect(area.left, area.top + title_h + pad, area.width, 0)
    below.height = area.bottom - below.top
    side = code_side(matrix, below)
    if not side:
        _words(kit, surface, layout, area, title, page.too_small)
        return
    box = layout.place("title", pygame.Rect(area.left, area.top, area.width, title_h))
    kit.text(surface, title, box, color=ACCENT, align="center")
    layout.place("qr", draw_qr(surface, below, matrix))


def _words(
    kit: Kit, surface: pygame.Surface, layout: Layout, room: pygame.Rect, title: str, rest: str
) -> None:
    """The sentence and a second line, centred in ``room`` as a block."""
    title_h = kit.height_of(title, kit.big, room.width)
    rest_h = kit.height_of(rest, kit.floor, room.width)
    top = room.top + max(0, (room.height - title_h - kit.pad - rest_h) // 2)
    box = layout.place("title", pygame.Rect(room.left, top, room.width, title_h))
    kit.text(surface, title, box, size=kit.big, color=ACCENT, align="center")
    below = pygame.Rect(room.left, box.bottom + kit.pad, room.width, 0)
    below.height = min(rest_h, room.bottom - below.top)
    kit.text(surface, rest, layout.place("words", below), color=DIM, align="center")
