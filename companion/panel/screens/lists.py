"""The set-up screen and the menu: a title, rows of a label and a value, a footer.

A row whose label and value do not fit side by side at the floor takes two lines
(the value under its label). Rows that Return (or a tap) moves on to the next
choice show their value between ‹ and ›. When rows do not all fit, arrows at the
right say there are more above or below.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame
from msgspec import Struct

from companion.core import i18n
from companion.core.controller import SETUP_ROWS, Controller, Info, Refused, SetupDraft
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
from hardware.events import InputEvent, Select

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
    footer: str = "",
    footer_color: tuple[int, int, int] = DIM,
    footer_selected: bool = False,
) -> None:
    """The rows under the title, the focused one shown whole; the footer at the bottom,
    its first line drawn as a selection (``footer_selected``: a name the next key
    replaces)."""
    w, h, pad = kit.width, kit.height, kit.pad
    layout = kit.layout()
    title_box = page_title(kit, surface, layout, title)
    footer_h = kit.height_of(footer, kit.floor, w - 2 * pad) if footer else 0
    footer_box = pygame.Rect(pad, h - pad - footer_h, w - 2 * pad, footer_h)
    top = title_box.bottom + pad
    bottom = footer_box.top - pad if footer else h - pad
    arrows_w = kit.floor
    row_w = w - 2 * pad - arrows_w - pad
    text_w = row_w - 2 * kit.button_margin - 8
    line = kit.line_height(kit.floor)
    heights = []
    for row in rows:
        side_by_side = (
            kit.width_of(row.label, kit.floor) + line + kit.width_of(row.value, kit.floor)
        )
        lines = 1 if side_by_side <= text_w else 1 + len(kit.lines(row.value, kit.floor, text_w))
        heights.append(max(kit.button_height, lines * line + 8) + kit.gap)
    available = bottom - top
    first = max(0, focus - 2)
    while first < focus and sum(heights[first : focus + 1]) > available:
        first += 1
    while first > 0 and sum(heights[first - 1 : focus + 1]) <= available:
        # fill from above only while the rows below the focus still show
        if sum(heights[first - 1 :]) > available and focus < len(rows) - 1:
            break
        first -= 1
    y = top
    last = first - 1
    for index in range(first, len(rows)):
        if y + heights[index] - kit.gap > bottom:
            break
        last = index
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
    strip = layout.place("arrows", pygame.Rect(w - pad - arrows_w, top, arrows_w, bottom - top))
    if first > 0:
        _arrow(surface, strip, up=True)
    if last < len(rows) - 1:
        _arrow(surface, strip, up=False)
    if footer:
        layout.place("footer", footer_box)
        if footer_selected:
            first, _, footer = footer.partition("\n")
            first_box = pygame.Rect(footer_box.left, footer_box.top, footer_box.width, line)
            mark = pygame.Rect(0, 0, kit.width_of(first, kit.floor) + 2 * kit.gap, line)
            mark.center = first_box.center
            pygame.draw.rect(surface, ACCENT, mark.clip(first_box), border_radius=4)
            kit.text(surface, first, first_box, color=DARK_INK, align="center")
            footer_box.top = first_box.bottom
        kit.text(surface, footer, footer_box, color=footer_color, align="center")


def _arrow(surface: pygame.Surface, strip: pygame.Rect, *, up: bool) -> None:
    """A triangle at the top or the bottom of the strip: more rows that way."""
    half = strip.width // 2
    if up:
        tip, base = strip.top + 2, strip.top + 2 + half
    else:
        tip, base = strip.bottom - 2, strip.bottom - 2 - half
    points = [(strip.centerx, tip), (strip.left + 1, base), (strip.right - 1, base)]
    pygame.draw.polygon(surface, ACCENT, points)


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
    draw_rows(kit, surface, i18n.tr(lang, "menu"), rows, controller.menu_focus)
