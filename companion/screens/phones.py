"""The Phones page (the menu): the QR code of the table's page for phones and its URL
in words, and a button for a new table code (the old links then stop working).

The QR code is made by ``segno`` (pure Python) and drawn module by module, black on
white with its quiet zone, as large as the page allows. The URL is said in two lines,
the address and the code, each whole (a URL has no space to wrap at).
"""

from __future__ import annotations

import pygame

from companion import i18n
from companion.controller import NEW_CODE, Controller
from companion.screens.kit import ACCENT, TEXT, Kit
from companion.screens.lists import page_title
from hardware.events import InputEvent, Key, Press

#: Modules of white around the code, as the QR standard asks (readers need it).
QUIET_ZONE = 4


def url_lines(url: str) -> list[str]:
    """The URL as whole lines: the address, then the query with the code.

    >>> url_lines("http://192.168.1.20:8080/?code=abcd2345")
    ['http://192.168.1.20:8080/', '?code=abcd2345']
    """
    address, mark, query = url.partition("?")
    return [address, mark + query] if mark else [address]


def qr_matrix(text: str) -> list[list[bool]]:
    """The QR code of ``text``: rows of dark (True) and light modules, without the quiet
    zone. Error correction M (15 %): a phone held at an angle to a glossy panel."""
    import segno

    code = segno.make(text, error="m", micro=False)
    return [[bool(module) for module in row] for row in code.matrix]


def draw_qr(surface: pygame.Surface, rect: pygame.Rect, matrix: list[list[bool]]) -> pygame.Rect:
    """The code, centred in ``rect``, whole modules of whole pixels; returns its box."""
    modules = len(matrix) + 2 * QUIET_ZONE
    size = max(1, min(rect.width, rect.height) // modules)
    side = size * modules
    box = pygame.Rect(0, 0, side, side)
    box.center = rect.center
    pygame.draw.rect(surface, (255, 255, 255), box)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                module = pygame.Rect(
                    box.left + (x + QUIET_ZONE) * size,
                    box.top + (y + QUIET_ZONE) * size,
                    size,
                    size,
                )
                pygame.draw.rect(surface, (0, 0, 0), module)
    return box


def draw(kit: Kit, surface: pygame.Surface, controller: Controller) -> None:
    lang = controller.language
    w, h, pad = kit.width, kit.height, kit.pad
    inner_w = w - 2 * pad
    layout = kit.layout()
    title = page_title(kit, surface, layout, i18n.tr(lang, "phones"))
    url = controller.phones_url
    buttons: list[tuple[str, InputEvent]] = [("OK", Press(Key.BACK))]
    if url is not None:
        buttons.insert(0, (i18n.tr(lang, "phones_new_code"), NEW_CODE))
    bar_h = kit.bar_height([label for label, _ in buttons], inner_w)
    bar = layout.place("buttons", pygame.Rect(pad, h - pad - bar_h, inner_w, bar_h))
    kit.button_bar(surface, bar, buttons)
    top, bottom = title.bottom + pad, bar.top - pad
    if url is None:
        box = layout.place("off", pygame.Rect(pad, top, inner_w, bottom - top))
        kit.text(surface, i18n.tr(lang, "phones_off"), box)
        return
    how = i18n.tr(lang, "phones_how")
    lines = url_lines(url)
    line_h = kit.line_height(kit.floor)
    matrix = qr_matrix(url)
    if w > h:  # landscape: the code at the left, the words at the right, the URL whole
        widest = max(kit.width_of(line, kit.floor) for line in lines)
        words_w = max(widest, int(inner_w * 0.4))
        side = min(bottom - top, inner_w - words_w - pad)
        qr_area = pygame.Rect(pad, top, side, side)
        words = pygame.Rect(qr_area.right + pad, top, w - qr_area.right - 2 * pad, bottom - top)
    else:  # portrait: the code above the words
        words_h = kit.height_of(how, kit.floor, inner_w) + len(lines) * line_h + pad
        side = min(inner_w, bottom - top - words_h)
        qr_area = pygame.Rect(pad, top, inner_w, side)
        words = pygame.Rect(pad, qr_area.bottom + pad, inner_w, bottom - qr_area.bottom - pad)
    layout.place("qr", draw_qr(surface, qr_area, matrix))
    how_h = kit.height_of(how, kit.floor, words.width)
    text_h = how_h + pad + len(lines) * line_h
    y = words.top + max(0, (words.height - text_h) // 2)
    how_box = layout.place("how", pygame.Rect(words.left, y, words.width, how_h))
    kit.text(surface, how, how_box, color=TEXT)
    y = how_box.bottom + pad
    for number, line in enumerate(lines):
        box = layout.place(f"url {number}", pygame.Rect(words.left, y, words.width, line_h))
        kit.text(surface, line, box, color=ACCENT)
        y += line_h
