"""The history: best and average score per table and variant, then the games, newest
first, each on two lines (when, score and rating; who played and the variant). A game
left unfinished says so; at the top of the list (NEXT, PREVIOUS) OK or a tap takes it
up again."""

from __future__ import annotations

from datetime import datetime

import pygame

from companion.core import i18n
from companion.core.controller import RESUME_ROW, Controller, Info
from companion.panel.screens.game import message_text
from companion.panel.screens.kit import ACCENT, DIM, TEXT, WARN, Kit
from companion.panel.screens.lists import page_title
from companion.vocabulary.records import HistoryRow
from hardware.events import InputEvent, Key, Press, Select

#: The notices the history screen says (reading the history failed, a game would not
#: resume, resuming would abandon the game in play); others belong to the screen they
#: were said on.
SAID_HERE = ("history_unreadable", "game_damaged_kept_aside", "resume_abandons_the_game")


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
    if row.resumable:
        result = i18n.tr(lang, "history_unfinished")
    else:
        result = i18n.rating_title(lang, row.rating) if row.rating else i18n.tr(lang, "lost")
    first = f"{when}  ·  {row.score}/{row.max_score}  ·  {result}"  # 9/30: the variant's most
    second = f"{', '.join(row.names)}  ·  {i18n.variant_name(lang, row.options)}"
    return first, second


def draw(kit: Kit, surface: pygame.Surface, controller: Controller) -> None:
    lang = controller.language
    w, h, pad = kit.width, kit.height, kit.pad
    inner_w = w - 2 * pad
    layout = kit.layout()
    title = page_title(kit, surface, layout, i18n.tr(lang, "history"))
    games, stats = controller.history or ([], [])
    focused = controller.history_focus()
    back = (i18n.tr(lang, "resume") if controller.game else "OK", Press(Key.BACK))
    buttons: list[tuple[str, InputEvent]] = [("<", Press(Key.PREVIOUS)), (">", Press(Key.NEXT))]
    if focused is not None and focused.resumable:  # OK takes the game at the top up again
        buttons.append((i18n.tr(lang, "history_resume", game=focused.id), Press(Key.OK)))
    else:
        buttons.append(back)
    bar_h = kit.bar_height([label for label, _ in buttons], inner_w)
    bar = layout.place("buttons", pygame.Rect(pad, h - pad - bar_h, inner_w, bar_h))
    kit.button_bar(surface, bar, buttons)

    blocks: list[tuple[str, tuple[int, int, int], bool]] = []  # text, colour, focused
    message = controller.message
    if isinstance(message, Info) and message.key in SAID_HERE:
        blocks.append((*message_text(controller), False))
    if stats:
        blocks.append((i18n.tr(lang, "stats"), DIM, False))
        for stat in stats:
            variant = i18n.variant_name(lang, stat.options)
            text = f"{stat.players}P · {variant}: {stat.best} / {stat.average:.1f} ({stat.games})"
            blocks.append((text, TEXT, False))
    if not games:
        blocks.append((i18n.tr(lang, "history_empty"), DIM, False))
    for row in games[controller.scroll :]:
        first, second = game_lines(lang, row)
        top = row is focused and row.resumable
        blocks.append((first, WARN if row.damaged else (ACCENT if top else TEXT), top))
        if second:
            blocks.append((second, DIM, top))
    y = title.bottom + pad
    for i, (text, color, is_focused) in enumerate(blocks):
        box_h = kit.height_of(text, kit.floor, inner_w)
        if y + box_h > bar.top - pad:
            break
        box = layout.place(f"line {i}", pygame.Rect(pad, y, inner_w, box_h))
        kit.text(surface, text, box, color=color)
        if is_focused:  # a tap on the game at the top takes it up again
            kit.target(box, Select(RESUME_ROW))
        y = box.bottom + (pad if color is DIM else 0)
