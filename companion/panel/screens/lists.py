"""The set-up screen and the menu: a title, rows of a label and a value, a footer.

A row whose label and value do not fit side by side at the floor takes two lines
(the value under its label). Rows that Return (or a tap) moves on to the next
choice show their value between ‹ and ›. When rows do not all fit, a line above or
below names those out of sight ("▼ More below: Hand memory, …"); a tap on it moves on.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame
from msgspec import Struct

from companion.core import i18n
from companion.core.controller import (
    HINT_LEVEL_ROW,
    SETUP_ROWS,
    Controller,
    Info,
    Refused,
    SetupDraft,
)
from companion.panel.screens.game import message_text
from companion.panel.screens.kit import (
    ACCENT,
    DARK_INK,
    DIM,
    PANEL,
    PANEL_LIGHT,
    TEXT,
    Kit,
    Layout,
)
from hardware.events import InputEvent, Key, Press, Select

#: Set-up rows that do not cycle: the names are typed, Start starts.
NOT_CYCLED = ("names", "start")


class Row(Struct, frozen=True):
    label: str
    value: str
    event: InputEvent


def setup_value(draft: SetupDraft, row: str, lang: str) -> str:
    if row == "players":
        return str(draft.players)
    if row == "first_player":
        return draft.name(draft.first_player % draft.players)
    if row == "names":
        return ", ".join(draft.name(seat) for seat in range(draft.players))
    if row == "language":
        return i18n.LANGUAGE_NAMES[draft.language]
    if row == "start":
        return "»"
    if row == HINT_LEVEL_ROW:
        return i18n.tr(lang, f"{row}_{draft.hint_level.value}")
    return i18n.option_value(lang, row, draft.options.value(row))


def page_title(kit: Kit, surface: pygame.Surface, layout: Layout, title: str) -> pygame.Rect:
    """A page's title at the top, in the accent colour; returns its box."""
    width = kit.width - 2 * kit.pad
    height = (
        kit.line_height(kit.big)
        if kit.width_of(title, kit.big) <= width
        else kit.height_of(title, kit.floor, width)
    )
    box = layout.place("title", pygame.Rect(kit.pad, kit.pad, width, height))
    kit.text(surface, title, box, size=kit.big, color=ACCENT)
    return box


def draw_rows(
    kit: Kit,
    surface: pygame.Surface,
    title: str,
    rows: Sequence[Row],
    focus: int,
    *,
    lang: str,
    footer: str = "",
    footer_color: tuple[int, int, int] = DIM,
    footer_selected: bool = False,
) -> None:
    """The rows under the title, the focused one shown whole; the rows out of sight named
    on a line of their own above or below ("▼ More below: Hand memory, …", a tap there
    moves on); the footer at the bottom, its first line drawn as a selection
    (``footer_selected``: a name the next key replaces)."""
    w, h, pad = kit.width, kit.height, kit.pad
    layout = kit.layout()
    title_box = page_title(kit, surface, layout, title)
    footer_h = kit.height_of(footer, kit.floor, w - 2 * pad) if footer else 0
    footer_box = pygame.Rect(pad, h - pad - footer_h, w - 2 * pad, footer_h)
    top = title_box.bottom + pad
    bottom = footer_box.top - pad if footer else h - pad
    row_w = w - 2 * pad
    text_w = row_w - 2 * kit.button_margin - 8
    line = kit.line_height(kit.floor)
    heights = []
    for row in rows:
        side_by_side = (
            kit.width_of(row.label, kit.floor) + line + kit.width_of(row.value, kit.floor)
        )
        lines = 1 if side_by_side <= text_w else 1 + len(kit.lines(row.value, kit.floor, text_w))
        heights.append(max(kit.button_height, lines * line + 8) + kit.gap)
    # every row if they fit; else the rows out of sight are named on a line above or
    # below (the first of these four that agrees with the rows it leaves out)
    more_h = max(line, kit.button_height) + kit.gap  # a tap target: a finger's height
    for above, below in ((False, False), (False, True), (True, False), (True, True)):
        room = bottom - top - more_h * (above + below)
        first, last = _window(heights, focus, room, kit.gap)
        if (first > 0) == above and (last < len(rows) - 1) == below:
            break
    y = top
    if first > 0:
        labels = [row.label for row in rows[:first]]
        box = layout.place("more above", pygame.Rect(pad, y, row_w, more_h - kit.gap))
        kit.text(surface, _more(kit, lang, "rows_above", labels, box), box, color=ACCENT)
        kit.target(box, Press(Key.PREVIOUS))
        y = box.bottom + kit.gap
    for index in range(first, last + 1):
        row = rows[index]
        rect = layout.place(f"row {index}", pygame.Rect(pad, y, row_w, heights[index] - kit.gap))
        highlight = index == focus
        pygame.draw.rect(surface, PANEL_LIGHT if highlight else PANEL, rect, border_radius=6)
        if highlight:
            pygame.draw.rect(surface, ACCENT, rect, 2, border_radius=6)
        inner = rect.inflate(-2 * kit.button_margin - 8, -8)
        value_color = ACCENT if highlight else TEXT
        if rect.height - 8 >= 2 * line and row.value:  # the value under its label
            label_box = pygame.Rect(inner.left, inner.top, inner.width, line)
            value_box = pygame.Rect(
                inner.left, label_box.bottom, inner.width, inner.bottom - label_box.bottom
            )
            kit.text(surface, row.label, label_box)
            kit.text(surface, row.value, value_box, color=value_color, align="right")
        else:
            value_w = kit.width_of(row.value, kit.floor)
            label_box = pygame.Rect(
                inner.left, inner.top, inner.width - value_w - line, inner.height
            )
            kit.text(surface, row.label, label_box)
            if row.value:
                value_box = pygame.Rect(inner.right - value_w, inner.top, value_w, inner.height)
                kit.text(surface, row.value, value_box, color=value_color, align="right")
        kit.target(rect, row.event)
        y += heights[index]
    if last < len(rows) - 1:  # the line below takes the room the rows leave
        labels = [row.label for row in rows[last + 1 :]]
        box = layout.place("more below", pygame.Rect(pad, y, row_w, max(bottom - y, more_h)))
        text = _more(kit, lang, "rows_below", labels, box)
        kit.text(surface, text, box, color=ACCENT)
        kit.target(box, Press(Key.NEXT))
    if footer:
        layout.place("footer", footer_box)
        if footer_selected:
            first_line, _, footer = footer.partition("\n")
            first_box = pygame.Rect(footer_box.left, footer_box.top, footer_box.width, line)
            mark = pygame.Rect(0, 0, kit.width_of(first_line, kit.floor) + 2 * kit.gap, line)
            mark.center = first_box.center
            pygame.draw.rect(surface, ACCENT, mark.clip(first_box), border_radius=4)
            kit.text(surface, first_line, first_box, color=DARK_INK, align="center")
            footer_box.top = first_box.bottom
        kit.text(surface, footer, footer_box, color=footer_color, align="center")


def _window(heights: Sequence[int], focus: int, room: int, gap: int) -> tuple[int, int]:
    """The first and the last row shown in ``room`` (each height with its gap below):
    the focus and up to two rows above it, then as many below as fit."""
    first = max(0, focus - 2)
    while first < focus and sum(heights[first : focus + 1]) > room:
        first += 1
    while first > 0 and sum(heights[first - 1 : focus + 1]) <= room:
        # fill from above only while the rows below the focus still show
        if sum(heights[first - 1 :]) > room and focus < len(heights) - 1:
            break
        first -= 1
    last, used = first - 1, 0
    for index in range(first, len(heights)):
        if used + heights[index] - gap > room:
            break
        last, used = index, used + heights[index]
    return first, last


def _more(kit: Kit, lang: str, key: str, labels: Sequence[str], box: pygame.Rect) -> str:
    """The words naming the rows out of sight, as many of them as ``box`` holds ("▼ More
    below: Multicolor suit, Wild multicolor, …")."""
    arrow = "▲" if key == "rows_above" else "▼"
    for count in range(len(labels), 0, -1):
        named = ", ".join(labels[:count]) + ("" if count == len(labels) else ", …")
        text = f"{arrow} {i18n.tr(lang, key, rows=named)}"
        if kit.fits(text, kit.floor, box):
            return text
    return f"{arrow} {i18n.tr(lang, key, rows='…')}"


def draw_setup(kit: Kit, surface: pygame.Surface, controller: Controller) -> None:
    draft, lang = controller.draft, controller.language
    rows = []
    for row in SETUP_ROWS:
        value = setup_value(draft, row, lang)
        if row not in NOT_CYCLED:
            value = f"‹ {value} ›"
        rows.append(Row(i18n.tr(lang, row), value, Select(row)))
    footer, color, selected = "", DIM, False
    if controller.editing_name is not None:
        seat = controller.editing_name
        typed = draft.names[seat] if seat < len(draft.names) else ""
        selected = controller.name_selected and bool(typed)  # the next key replaces it
        shown = typed if selected else f"{typed}_"
        footer = f"{shown}\n{i18n.tr(lang, 'edit_name', n=seat + 1)}"
    elif isinstance(controller.message, Refused | Info):  # a refused Start, a notice:
        # always said; what just happened in the game belongs to the game screen
        footer, color = message_text(controller)
    draw_rows(
        kit,
        surface,
        i18n.tr(lang, "setup_title"),
        rows,
        controller.focus,
        lang=lang,
        footer=footer,
        footer_color=color,
        footer_selected=selected,
    )


def draw_menu(kit: Kit, surface: pygame.Surface, controller: Controller) -> None:
    lang = controller.language
    rows = []
    for row in controller.menu_rows():
        value = f"‹ {i18n.LANGUAGE_NAMES[lang]} ›" if row == "language" else ""
        rows.append(Row(i18n.tr(lang, row), value, Select(row)))
    draw_rows(kit, surface, i18n.tr(lang, "menu"), rows, controller.menu_focus, lang=lang)
