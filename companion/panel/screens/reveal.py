"""The reveal screen: the hands shown at the end, seat by seat, card by card (issue 34).

Top to bottom: whose hand (or "Show hands" while it is asked), the hand as entered so
far (each card shown, the slot asked ringed, the slots to come as the hints left them; a
tap on a card shown enters it again), what is asked and what was refused, the choices as
tiles above the six buttons that pick them (the seats, the colours, the ranks: as the
entry screen's), the buttons (Cancel; OK once every card is entered).
"""

from __future__ import annotations

import pygame

from companion.core import i18n
from companion.core.controller import SOFT_KEYS, Controller, EntryStep, Info, Refused, Shown
from companion.panel.screens import hand
from companion.panel.screens.entry import COLOR_KEYS
from companion.panel.screens.game import message_text
from companion.panel.screens.kit import ACCENT, DIM, PANEL, TEXT, Kit, Layout
from hardware.events import ChooseColor, ChooseRank, ChooseSeat, ChooseSlot, InputEvent, Key, Press

_PROMPTS = {
    EntryStep.SEAT: "reveal_pick_seat",
    EntryStep.COLOR: "reveal_pick_color",
    EntryStep.RANK: "reveal_pick_rank",
    EntryStep.CONFIRM: "reveal_confirm",
}


def _title(controller: Controller) -> str:
    game, entry, lang = controller.game, controller.reveal_entry, controller.language
    assert game is not None and entry is not None
    if entry.seat is None:
        return i18n.tr(lang, "reveal_title")
    return i18n.tr(lang, "reveal_hand_of", name=game.setup.names[entry.seat])


def _buttons(controller: Controller) -> list[tuple[str, InputEvent]]:
    lang = controller.language
    buttons: list[tuple[str, InputEvent]] = [(i18n.tr(lang, "cancel"), Press(Key.BACK))]
    if controller.reveal_step() is EntryStep.CONFIRM:
        buttons.append((i18n.tr(lang, "confirm"), Press(Key.OK)))
    return buttons


def _lines(controller: Controller) -> list[tuple[str, tuple[int, int, int]]]:
    """What is asked (the slot's colour, its rank, OK), then what was refused or done."""
    lang, step, entry = controller.language, controller.reveal_step(), controller.reveal_entry
    assert step is not None and entry is not None
    lines = [(i18n.tr(lang, _PROMPTS[step], slot=controller.reveal_slot() or 0), TEXT)]
    if entry.cards:
        lines.append((i18n.tr(lang, "reveal_tap_change"), DIM))
    message = controller.message
    if isinstance(message, Refused | Info | Shown):  # a refusal, or the last hand shown
        lines.append(message_text(controller))
    return lines


def draw(kit: Kit, surface: pygame.Surface, controller: Controller) -> None:
    game, entry = controller.game, controller.reveal_entry
    assert game is not None and entry is not None
    w, h, pad = kit.width, kit.height, kit.pad
    inner_w = w - 2 * pad
    layout = kit.layout()
    floor_line = kit.line_height(kit.floor)

    buttons = _buttons(controller)
    bar_h = kit.bar_height([label for label, _ in buttons], inner_w)
    bar = layout.place("buttons", pygame.Rect(pad, h - bar_h - pad, inner_w, bar_h))
    title = _title(controller)
    big = kit.width_of(title, kit.big) <= inner_w
    title_h = kit.line_height(kit.big) if big else kit.height_of(title, kit.floor, inner_w)
    title_box = layout.place("title", pygame.Rect(pad, pad, inner_w, title_h))
    kit.text(surface, title, title_box, size=kit.big, color=ACCENT)

    choices = controller.reveal_choices()
    top = title_box.bottom + pad
    lines = _lines(controller)
    # what was refused (else what is asked) is never cut: on a panel too small for it and
    # the hand, the hand goes (the refusal names the slot)
    must = kit.height_of(lines[-1][0], kit.floor, inner_w) + kit.gap
    # the tiles' faces a line at the large size where the panel has the room (the words
    # and the hand keep theirs), else at the floor's
    face_h = kit.line_height(kit.big) + 12
    across, tile_w, tiles_h = _grid(kit, inner_w, choices, controller, face_h)
    wanted = 3 * (floor_line + kit.gap) + hand.tile_height(kit) + pad
    if bar.top - pad - tiles_h - top < wanted:
        face_h = _face_height(kit)
        across, tile_w, tiles_h = _grid(kit, inner_w, choices, controller, face_h)
    tiles_top = bar.top - pad - tiles_h
    size = 0 if entry.seat is None else game.position.hands[entry.seat]
    if entry.seat is not None and tiles_top - top - hand.flat_tile_height(kit) - 2 * pad >= must:
        # the hand, as entered so far: as large as the room allows
        spare = tiles_top - 2 * pad - top - max(3 * (floor_line + kit.gap), must)
        row_h = max(hand.tile_height(kit), min(spare, int(kit.unit * 0.22)))
        if spare < hand.tile_height(kit) or hand.row_width(kit, size) > inner_w:
            row_h = hand.flat_tile_height(kit)
        row = layout.place("hand", pygame.Rect(pad, top, inner_w, row_h))
        _hand(kit, surface, controller, row)
        top = row.bottom + pad
    area = pygame.Rect(pad, top, inner_w, tiles_top - pad - top)
    _words(kit, surface, lines, layout, area)
    _tiles(kit, surface, controller, layout, choices, (across, tile_w, tiles_top, face_h))
    kit.button_bar(surface, bar, buttons)


def _words(
    kit: Kit,
    surface: pygame.Surface,
    lines: list[tuple[str, tuple[int, int, int]]],
    layout: Layout,
    area: pygame.Rect,
) -> None:
    """What is asked and what was refused, in ``area``: where they do not all fit, what is
    asked goes first, what was refused stays."""

    def height() -> int:
        return sum(kit.height_of(text, kit.floor, area.width) + kit.gap for text, _ in lines)

    while len(lines) > 1 and height() - kit.gap > area.height:
        lines.pop(1 if len(lines) > 2 else 0)  # the "tap a card" hint, then the prompt
    y = area.top
    for i, (text, color) in enumerate(lines):
        box_h = kit.height_of(text, kit.floor, area.width)
        box = layout.place(f"info {i}", pygame.Rect(area.left, y, area.width, box_h))
        kit.text(surface, text, box, color=color)
        y = box.bottom + kit.gap


def _hand(kit: Kit, surface: pygame.Surface, controller: Controller, row: pygame.Rect) -> None:
    """The hand in ``row``, slot 1 at the left: each card shown (a tap enters it again), the
    slot asked ringed (with the colour picked, if any), the others as the hints left them."""
    game, entry = controller.game, controller.reveal_entry
    assert game is not None and entry is not None and entry.seat is not None
    memory = game.hand_memory(entry.seat)
    colors = [suit.color for suit in game.setup.suits]
    asked = controller.reveal_slot()
    for number, box in enumerate(hand.slot_boxes(kit, row, len(memory)), start=1):
        if number <= len(entry.cards):
            card = entry.cards[number - 1]
            kit.card(surface, box, card.color, str(card.rank))
            kit.target(box, ChooseSlot(number))
        elif number == asked and (entry.color is not None or entry.rank is not None):
            rank = "?" if entry.rank is None else str(entry.rank)
            kit.card(surface, box, entry.color, rank)
            ring = max(3, kit.gap)
            pygame.draw.rect(surface, ACCENT, box, ring, border_radius=max(3, box.width // 8))
        else:
            known = memory[number - 1]
            hand.draw_slot(kit, surface, box, number, known, colors, chosen=number == asked)


def _grid(
    kit: Kit, inner_w: int, choices: list[InputEvent], controller: Controller, face_h: int
) -> tuple[int, int, int]:
    """The choice tiles: how many across (six in a row, else three, two, one: as their
    labels and faces allow), each tile's width, and their height with their labels."""
    if not choices:
        return 1, inner_w, 0
    floor_line = kit.line_height(kit.floor)
    labels = [i18n.tr(controller.language, "softkey_" + key.value) for key in SOFT_KEYS]
    faces = [_seat_label(controller, c.seat) for c in choices if isinstance(c, ChooseSeat)]
    widest = max(kit.width_of(text, kit.floor) + 8 for text in [*labels, *faces])
    for across in sorted({6, min(6, len(choices)), 3, 2, 1}, reverse=True):
        tile_w = (inner_w - kit.gap * (across - 1)) // across
        if widest <= tile_w:
            break
    rows = -(-len(choices) // across)
    return across, tile_w, rows * (face_h + floor_line) + (rows - 1) * kit.gap


def _face_height(kit: Kit) -> int:
    """A tile's face at the floor's size: the smallest panels."""
    return kit.line_height(kit.floor) + 12


def _seat_label(controller: Controller, seat: int) -> str:
    """A seat's tile: its number (the key that picks it) and the name."""
    assert controller.game is not None
    return f"{seat + 1} {controller.game.setup.names[seat]}"


def _tiles(
    kit: Kit,
    surface: pygame.Surface,
    controller: Controller,
    layout: Layout,
    choices: list[InputEvent],
    grid: tuple[int, int, int, int],
) -> None:
    """Each choice as a tile, the button that picks it named under it; a tap picks it."""
    across, tile_w, tiles_top, face_h = grid
    floor_line = kit.line_height(kit.floor)
    entry = controller.reveal_entry
    assert entry is not None
    for i, event in enumerate(choices):
        row, column = divmod(i, across)
        tile = layout.place(
            f"choice {i}",
            pygame.Rect(
                kit.pad + column * (tile_w + kit.gap),
                tiles_top + row * (face_h + floor_line + kit.gap),
                tile_w,
                face_h + floor_line,
            ),
        )
        face = pygame.Rect(tile.left, tile.top, tile.width, face_h)
        if isinstance(event, ChooseColor):
            ink = kit.card_face(surface, face, event.color)
            r = max(3, min(face.height // 2 - 4, face.width // 8))
            kit.symbol(surface, event.color, (face.left + r + 4, face.centery), r, ink)
            key_box = pygame.Rect(face.left + 2 * r + 6, face.top, face.width - 4 * r - 12, face_h)
            kit.text(surface, COLOR_KEYS[event.color], key_box, color=ink, align="center")
            if entry.color is event.color:
                pygame.draw.rect(surface, ACCENT, face, max(3, kit.gap), border_radius=6)
        else:
            text = str(event.rank) if isinstance(event, ChooseRank) else ""
            if isinstance(event, ChooseSeat):
                text = _seat_label(controller, event.seat)
            chosen = isinstance(event, ChooseRank) and entry.rank == event.rank
            pygame.draw.rect(surface, PANEL, face, border_radius=6)
            pygame.draw.rect(surface, ACCENT if chosen else TEXT, face, 2, border_radius=6)
            size = kit.big if kit.line_height(kit.big) <= face_h else kit.floor
            kit.text(surface, text, face, size=size, color=TEXT, align="center")
        label = pygame.Rect(tile.left, face.bottom, tile.width, floor_line)
        kit.text(
            surface,
            i18n.tr(controller.language, "softkey_" + SOFT_KEYS[i].value),
            label,
            color=DIM,
            align="center",
        )
        kit.target(tile, event)
