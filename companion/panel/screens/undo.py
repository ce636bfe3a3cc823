"""The undo question, over the game screen: what would be taken back, Cancel / OK."""

from __future__ import annotations

import pygame

from companion.core import i18n
from companion.core.controller import Controller
from companion.panel.screens.kit import ACCENT, PANEL, Kit
from hardware.events import Key, Press


def draw(kit: Kit, surface: pygame.Surface, controller: Controller, veil: pygame.Surface) -> None:
    lang = controller.language
    w, h, pad = kit.width, kit.height, kit.pad
    surface.blit(veil, (0, 0))
    kit.targets.clear()  # only the dialog answers taps
    kit.texts.clear()  # and only the dialog is read: the game is veiled behind it
    kit.pile.clear()
    box_w = int(w * 0.9)
    inner_w = box_w - 4 * pad
    last = controller.last_event()
    per_token = controller.game.setup.hint_cost if controller.game is not None else 1
    what = "" if last is None else i18n.describe_event(lang, last, controller.names, per_token)
    title = i18n.tr(lang, "undo_title")
    if controller.game is not None and controller.reveals.shown:  # undo takes it back first
        title = i18n.tr(lang, "undo_reveal_title")
        what = i18n.reveal_text(lang, controller.reveals.shown[-1], controller.names)
    buttons = [
        (i18n.tr(lang, "cancel"), Press(Key.BACK)),
        (i18n.tr(lang, "confirm"), Press(Key.OK)),
    ]
    title_h = kit.height_of(title, kit.floor, inner_w)
    if kit.width_of(title, kit.big) <= inner_w:
        title_h = kit.line_height(kit.big)
    what_h = kit.height_of(what, kit.floor, inner_w) if what else 0
    bar_h = kit.bar_height([label for label, _ in buttons], inner_w)
    box_h = min(h - 2 * pad, title_h + what_h + bar_h + 6 * pad)
    box = pygame.Rect(0, 0, box_w, box_h)
    box.center = (w // 2, h // 2)
    pygame.draw.rect(surface, PANEL, box, border_radius=10)
    pygame.draw.rect(surface, ACCENT, box, 2, border_radius=10)
    layout = kit.layout(box)
    left = box.left + 2 * pad
    title_box = layout.place("title", pygame.Rect(left, box.top + 2 * pad, inner_w, title_h))
    kit.text(surface, title, title_box, size=kit.big, color=ACCENT, align="center")
    if what:
        what_box = layout.place("what", pygame.Rect(left, title_box.bottom + pad, inner_w, what_h))
        kit.text(surface, what, what_box, align="center")
    bar = layout.place("buttons", pygame.Rect(left, box.bottom - 2 * pad - bar_h, inner_w, bar_h))
    kit.button_bar(surface, bar, buttons)
