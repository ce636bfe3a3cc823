"""Help: the keys, the buttons and what they do, and the words the screens use.

On a wide panel each row is three columns; on a narrow one the keys and the buttons
share a line and the meaning goes under them. NEXT and PREVIOUS turn the rows.
"""

from __future__ import annotations

import pygame

from companion.core import i18n
from companion.core.controller import Controller
from companion.panel.screens.kit import ACCENT, HINT_BLUE, TEXT, Kit
from companion.panel.screens.lists import page_title
from hardware.events import InputEvent, Key, Press


def draw(kit: Kit, surface: pygame.Surface, controller: Controller) -> None:
    lang = controller.language
    w, h, pad = kit.width, kit.height, kit.pad
    inner_w = w - 2 * pad
    layout = kit.layout()
    title = page_title(kit, surface, layout, i18n.tr(lang, "help_title"))
    rows = i18n.HELP_ROWS[lang if lang in i18n.HELP_ROWS else "en"]
    bar_h = kit.bar_height(["<", ">", "OK"], inner_w)
    bar = pygame.Rect(pad, h - pad - bar_h, inner_w, bar_h)
    top, bottom = title.bottom + pad, bar.top - pad
    line = kit.line_height(kit.floor)
    keys_w, buttons_w = int(inner_w * 0.27), int(inner_w * 0.27)
    meaning_w = inner_w - keys_w - buttons_w - 2 * pad
    # three columns when every word of the keys and the buttons fits its column
    columns = all(
        kit.width_of(word, kit.floor) <= width
        for keys, buttons, _ in rows
        for text, width in ((keys, keys_w), (buttons, buttons_w))
        for word in text.split()
    )

    def height(row: tuple[str, str, str]) -> int:
        keys, buttons, meaning = row
        if columns:
            return max(
                kit.height_of(keys, kit.floor, keys_w),
                kit.height_of(buttons, kit.floor, buttons_w) if buttons else line,
                kit.height_of(meaning, kit.floor, meaning_w),
            )
        return line + kit.height_of(meaning, kit.floor, inner_w)

    first = min(controller.scroll, len(rows) - 1)
    y, shown = top, 0
    for index in range(first, len(rows)):
        keys, buttons, meaning = rows[index]
        row_h = height(rows[index])
        if y + row_h > bottom:
            break
        box = layout.place(f"row {index}", pygame.Rect(pad, y, inner_w, row_h))
        if columns:
            kit.text(surface, keys, pygame.Rect(box.left, y, keys_w, row_h), color=ACCENT)
            if buttons:
                kit.text(
                    surface,
                    buttons,
                    pygame.Rect(box.left + keys_w + pad, y, buttons_w, row_h),
                    color=HINT_BLUE,
                )
            kit.text(
                surface,
                meaning,
                pygame.Rect(box.right - meaning_w, y, meaning_w, row_h),
                color=TEXT,
            )
        else:
            keys_box = pygame.Rect(box.left, y, kit.width_of(keys, kit.floor), line)
            kit.text(surface, keys, keys_box, color=ACCENT)
            if buttons:
                rest = pygame.Rect(
                    keys_box.right + 2 * pad, y, box.right - keys_box.right - 2 * pad, line
                )
                kit.text(surface, buttons, rest, color=HINT_BLUE)
            kit.text(surface, meaning, pygame.Rect(box.left, y + line, inner_w, row_h - line))
        y += row_h + kit.gap
        shown += 1
    buttons_bar: list[tuple[str, InputEvent]] = [("OK", Press(Key.BACK))]
    if first > 0 or first + shown < len(rows):
        buttons_bar = [("<", Press(Key.PREVIOUS)), (">", Press(Key.NEXT)), *buttons_bar]
    layout.place("buttons", bar)
    kit.button_bar(surface, bar, buttons_bar)
