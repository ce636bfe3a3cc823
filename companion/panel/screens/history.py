"""The history: best and average score per table and variant, then the games, newest
first, each on two lines (when, score and rating; who played and the variant). A game
left unfinished says so; at the top of the list (NEXT, PREVIOUS) OK or a tap takes it
up again."""

from __future__ import annotations

import pygame

from companion.core import i18n
from companion.core.controller import RESUME_ROW, Controller, Info
from companion.core.words import game_lines
from companion.panel.screens.game import message_text
from companion.panel.screens.kit import ACCENT, DIM, TEXT, WARN, Kit
from companion.panel.screens.lists import page_title
from hardware.events import InputEvent, Key, Press, Select

#: The notices the history screen says (reading the history failed, a game would not
#: resume, resuming would abandon the game in play); others belong to the screen they
#: were said on.
SAID_HERE = ("history_unreadable", "game_damaged_kept_aside", "resume_keeps_the_game")


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
