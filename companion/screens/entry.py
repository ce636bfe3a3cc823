"""The entry screen: a play or a discard being entered, card by card choice.

Top to bottom: who plays (or the card scanned), the card so far beside what is asked
and what the entry will do, the choices as tiles above the six buttons that pick them
(one row of six, or two rows of three when the labels need the width), the buttons.
"""

from __future__ import annotations

import pygame

from companion import i18n
from companion.controller import SOFT_KEYS, Controller, EntryKind, EntryStep, Info, Refused
from companion.screens.game import message_text
from companion.screens.kit import ACCENT, DIM, GOOD, PANEL, SUIT_RGB, TEXT, WARN, Kit
from engine.cards import Color
from engine.errors import IllegalAction
from engine.game import Event, EventKind, Outcome
from hardware.events import ChooseColor, ChooseRank, InputEvent, Key, Press

COLOR_KEYS = {c: c.letter.lower() for c in Color}


def preview_text(lang: str, event: Event) -> str:
    """What confirming will do: "blue 1: fits: blue firework goes to 1"."""
    card = event.card
    assert card is not None
    color = i18n.color_name(lang, card.color)
    if event.kind is EventKind.PLAY:
        text = (
            i18n.tr(lang, "will_complete", color=color)
            if event.firework_completed
            else i18n.tr(lang, "will_fit", color=color, rank=card.rank)
        )
    elif event.kind is EventKind.MISPLAY:
        key = "will_wrong_announce" if event.announce_right is False else "will_misplay"
        text = i18n.tr(lang, key, fuses=event.fuses_after)
    else:
        text = i18n.tr(lang, "will_discard")
    if event.end is not None:
        lost = event.end.outcome is Outcome.LOST
        text += " " + i18n.tr(lang, "will_lose" if lost else "will_end")
    return f"{i18n.card_name(lang, card)} {text}"  # "blue 1 fits: …": one colon, the text's


def preview_color(event: Event) -> tuple[int, int, int]:
    """Green for what helps; the warning colour for a misplay and for what loses the game."""
    if event.kind is EventKind.MISPLAY:
        return WARN
    if event.end is not None and event.end.outcome is Outcome.LOST:
        return WARN
    return GOOD


def _title(lang: str, controller: Controller) -> str:
    game, entry = controller.game, controller.entry
    assert game is not None and entry is not None
    name = game.setup.names[game.position.current]
    if entry.kind is None and entry.card is not None:
        return i18n.tr(lang, "entry_scanned", card=i18n.card_name(lang, entry.card))
    if entry.kind is EntryKind.DISCARD:
        return i18n.tr(lang, "entry_discard", name=name)
    return i18n.tr(lang, "entry_play", name=name)


_PROMPTS = {
    EntryStep.COLOR: "entry_pick_color",
    EntryStep.ANNOUNCE: "entry_pick_announce",
    EntryStep.RANK: "entry_pick_rank",
    EntryStep.CONFIRM: "entry_confirm",
}


def _buttons(lang: str, controller: Controller) -> list[tuple[str, InputEvent]]:
    game, entry = controller.game, controller.entry
    assert game is not None and entry is not None
    step = controller.entry_step()
    cancel: tuple[str, InputEvent] = (i18n.tr(lang, "cancel"), Press(Key.BACK))
    announcing = game.setup.options.timed_display and entry.kind is EntryKind.PLAY
    if step is EntryStep.KIND:
        return [
            (i18n.tr(lang, "button_play"), Press(Key.PLAY)),
            (i18n.tr(lang, "button_discard"), Press(Key.DISCARD)),
            cancel,
        ]
    buttons: list[tuple[str, InputEvent]] = [cancel]
    if announcing and step is not EntryStep.ANNOUNCE:
        buttons.append((i18n.tr(lang, "button_announce"), Press(Key.PREVIOUS)))
    if step is EntryStep.CONFIRM:
        buttons.append((i18n.tr(lang, "confirm"), Press(Key.OK)))
    return buttons


def draw(kit: Kit, surface: pygame.Surface, controller: Controller) -> None:
    game, entry, lang = controller.game, controller.entry, controller.language
    assert game is not None and entry is not None
    w, h, pad = kit.width, kit.height, kit.pad
    inner_w = w - 2 * pad
    layout = kit.layout()
    floor_line = kit.line_height(kit.floor)

    buttons = _buttons(lang, controller)
    bar_h = kit.bar_height([label for label, _ in buttons], inner_w)
    bar = layout.place("buttons", pygame.Rect(pad, h - bar_h - pad, inner_w, bar_h))

    title = _title(lang, controller)
    title_h = (
        kit.line_height(kit.big)
        if kit.width_of(title, kit.big) <= inner_w
        else kit.height_of(title, kit.floor, inner_w)
    )
    title_box = layout.place("title", pygame.Rect(pad, pad, inner_w, title_h))
    kit.text(surface, title, title_box, size=kit.big, color=ACCENT)

    # the choices: tiles in rows, as many across as their labels allow
    choices = controller.soft_choices()
    labels = [i18n.tr(lang, "softkey_" + key.value) for key in SOFT_KEYS]
    widest = max(kit.width_of(label, kit.floor) for label in labels) + 4
    for across in (6, 3, 2):  # six in a row, else two rows of three, else three of two
        tile_w = (inner_w - kit.gap * (across - 1)) // across
        if widest <= tile_w:
            break
    rows = -(-6 // across) if choices else 0
    tile_h = floor_line + 12  # a face one line high: the symbol and the key, or the rank
    tiles_h = rows * (tile_h + floor_line) + max(0, rows - 1) * kit.gap
    tiles_top = bar.top - pad - tiles_h

    # the card and, beside it, what is asked and what the entry will do
    body_top = title_box.bottom + pad
    body_h = tiles_top - pad - body_top
    card_h = min(body_h, int(kit.unit * 0.36))
    card_box = layout.place(
        "card", pygame.Rect(2 * pad, body_top, max(int(card_h * 0.72), floor_line + 8), card_h)
    )
    rank = None if entry.rank is None else str(entry.rank)
    kit.card(surface, card_box, entry.color, rank if entry.color else (rank or "?"))
    info = pygame.Rect(card_box.right + 3 * pad, body_top, w - card_box.right - 4 * pad, body_h)
    step = controller.entry_step()
    preview = controller.preview
    prompt = i18n.tr(lang, _PROMPTS[step]) if step in _PROMPTS else ""
    if isinstance(preview, IllegalAction):
        prompt = i18n.tr(lang, "refused")
    lines: list[tuple[str, tuple[int, int, int]]] = []
    if prompt:
        lines.append((prompt, TEXT))
    message = controller.message
    if isinstance(message, Refused | Info) and not (
        isinstance(message, Refused) and message.error is preview
    ):  # refused during the entry (a colour the game has not, an unknown tag): said
        lines.append(message_text(controller))
    if isinstance(preview, IllegalAction):
        lines.append((i18n.refusal_text(lang, preview, game.setup.names), WARN))
    elif isinstance(preview, Event):
        lines.append((preview_text(lang, preview), preview_color(preview)))
    if game.setup.options.timed_display and entry.kind is EntryKind.PLAY:
        announced = (
            i18n.tr(lang, "entry_announce", color=i18n.color_name(lang, entry.announce))
            if entry.announce is not None
            else i18n.tr(lang, "entry_no_announce")
        )
        lines.append((announced, DIM))
    y = info.top
    for i, (text, color) in enumerate(lines):
        box_h = kit.height_of(text, kit.floor, info.width)
        box = layout.place(f"info {i}", pygame.Rect(info.left, y, info.width, box_h))
        kit.text(surface, text, box, color=color)
        y = box.bottom + kit.gap

    for i, choice in enumerate(choices):
        row, column = divmod(i, across)
        tile = layout.place(
            f"choice {i}",
            pygame.Rect(
                pad + column * (tile_w + kit.gap),
                tiles_top + row * (tile_h + floor_line + kit.gap),
                tile_w,
                tile_h + floor_line,
            ),
        )
        face = pygame.Rect(tile.left, tile.top, tile.width, tile_h)
        event: InputEvent
        if isinstance(choice, Color):  # the colour, its symbol and its key letter
            ink = kit.card_face(surface, face, choice)
            r = max(3, min(face.height // 2 - 4, face.width // 8))
            kit.symbol(surface, choice, (face.left + r + 4, face.centery), r, ink)
            key_box = pygame.Rect(
                face.left + 2 * r + 6, face.top, face.width - 4 * r - 12, face.height
            )
            kit.text(surface, COLOR_KEYS[choice], key_box, color=ink, align="center")
            event = ChooseColor(choice)
        else:  # the rank, outlined in the colour chosen
            outline = SUIT_RGB[entry.color] if entry.color is not None else DIM
            pygame.draw.rect(surface, PANEL, face, border_radius=6)
            pygame.draw.rect(surface, outline, face, 2, border_radius=6)
            kit.text(surface, str(choice), face, size=kit.big, color=outline, align="center")
            event = ChooseRank(int(str(choice)))
        label = pygame.Rect(tile.left, face.bottom, tile.width, floor_line)
        kit.text(surface, labels[i], label, color=DIM, align="center")
        kit.target(tile, event)

    kit.button_bar(surface, bar, buttons)
