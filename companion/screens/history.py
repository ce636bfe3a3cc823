"""The history: best and average score per table and variant, then the games, newest
first, each on two lines (when, score and rating; who played and the variant)."""

from __future__ import annotations

from datetime import datetime

import pygame

from companion import i18n
from companion.controller import Controller, Info
from companion.screens.game import message_text
from companion.screens.kit import DIM, TEXT, WARN, Kit
from companion.screens.lists import page_title
from companion.storage import HistoryRow
from hardware.events import InputEvent, Key, Press


def short_date(stamp: str | None) -> str:
    """``20/11 20:40``; what it can of a stamp it cannot read.

    >>> short_date("2026-11-20T20:40:00+00:00"), short_date(None)
    ('20/11 20:40', '?')
    """
    if not stamp:
        return "?"
    try:
        return datetime.fromisoformat(stamp).strftime("%d/%m %H:%M")
    except ValueError:
        return stamp[:16]


def game_lines(lang: str, row: HistoryRow) -> tuple[str, str]:
    when = short_date(row.finished_at or row.started_at)
    if row.damaged:  # its log no longer replays: a row that says so, nothing made up
        return f"{when}  ·  {i18n.tr(lang, 'history_damaged', game=row.id)}", ""
    rating = i18n.rating_title(lang, row.rating) if row.rating else i18n.tr(lang, "lost")
    first = f"{when}  ·  {row.score}  ·  {rating}"
    second = f"{', '.join(row.names)}  ·  {i18n.variant_name(lang, row.options)}"
    return first, second


def draw(kit: Kit, surface: pygame.Surface, controller: Controller) -> None:
    lang = controller.language
    w, h, pad = kit.width, kit.height, kit.pad
    inner_w = w - 2 * pad
    layout = kit.layout()
    title = page_title(kit, surface, layout, i18n.tr(lang, "history"))
    games, stats = controller.history or ([], [])
    buttons: list[tuple[str, InputEvent]] = [
        ("<", Press(Key.PREVIOUS)),
        (">", Press(Key.NEXT)),
        (i18n.tr(lang, "resume") if controller.game else "OK", Press(Key.BACK)),
    ]
    bar_h = kit.bar_height([label for label, _ in buttons], inner_w)
    bar = layout.place("buttons", pygame.Rect(pad, h - pad - bar_h, inner_w, bar_h))
    kit.button_bar(surface, bar, buttons)

    blocks: list[tuple[str, tuple[int, int, int]]] = []
    if isinstance(controller.message, Info):  # the history could not be read: said
        blocks.append(message_text(controller))
    if stats:
        blocks.append((i18n.tr(lang, "stats"), DIM))
        for stat in stats:
            variant = i18n.variant_name(lang, stat.options)
            text = f"{stat.players}P · {variant}: {stat.best} / {stat.average:.1f} ({stat.games})"
            blocks.append((text, TEXT))
    if not games:
        blocks.append((i18n.tr(lang, "history_empty"), DIM))
    for row in games[controller.scroll :]:
        first, second = game_lines(lang, row)
        blocks.append((first, WARN if row.damaged else TEXT))
        if second:
            blocks.append((second, DIM))
    y = title.bottom + pad
    for i, (text, color) in enumerate(blocks):
        box_h = kit.height_of(text, kit.floor, inner_w)
        if y + box_h > bar.top - pad:
            break
        box = layout.place(f"line {i}", pygame.Rect(pad, y, inner_w, box_h))
        kit.text(surface, text, box, color=color)
        y = box.bottom + (pad if color is DIM else 0)
