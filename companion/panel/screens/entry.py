"""The entry screen: a play or a discard being entered, card by card choice.

Top to bottom: who plays (or the card scanned), the card so far beside what is asked
and what the entry will do, the choices as tiles above the six buttons that pick them
(one row of six, or two rows of three when the labels need the width), the buttons.
"""

from __future__ import annotations

import pygame

from companion.core import i18n
from companion.core.controller import (
    SOFT_KEYS,
    Controller,
    EntryKind,
    EntryStep,
    Info,
    Refused,
    choice_event,
)
from companion.panel.screens import hand
from companion.panel.screens.game import message_text
from companion.panel.screens.kit import ACCENT, DIM, GOOD, PANEL, SUIT_RGB, TEXT, WARN, Kit
from engine.cards import Color
from engine.errors import IllegalAction
from engine.game import Event, EventKind
from engine.outcome import Outcome
from hardware.events import (
    ChooseColor,
    ChooseRank,
    ChooseSeat,
    ChooseSlot,
    InputEvent,
    Key,
    Press,
)

COLOR_KEYS = {c: c.letter.lower() for c in Color}


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
    if entry.kind is EntryKind.HINT:
        return i18n.tr(lang, "entry_hint", name=name)
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
    EntryStep.RECEIVER: "entry_pick_receiver",
    EntryStep.CLUE: "entry_pick_clue",
    EntryStep.SLOTS: "entry_pick_slots",
    EntryStep.SLOT: "entry_pick_slot",
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
    refused = controller.entry_refusal() is not None
    if step is EntryStep.CONFIRM:  # refused as it stands, OK asks the choice again
        buttons.append((i18n.tr(lang, "entry_change" if refused else "confirm"), Press(Key.OK)))
    elif step is EntryStep.SLOTS and not refused:  # refused, the slots are the choice
        buttons.append((i18n.tr(lang, "confirm"), Press(Key.OK)))
    return buttons


def _card_shown(controller: Controller) -> tuple[Color | None, str | None]:
    """The card box: the card so far ("?" for what is not chosen yet)."""
    entry = controller.entry
    assert entry is not None
    rank = None if entry.rank is None else str(entry.rank)
    return entry.color, rank if entry.color else (rank or "?")


def _info_lines(lang: str, controller: Controller) -> list[tuple[str, tuple[int, int, int]]]:
    """What is asked, what was refused, what the entry will do."""
    game, entry = controller.game, controller.entry
    assert game is not None and entry is not None
    step = controller.entry_step()
    preview = controller.preview
    prompt = i18n.tr(lang, _PROMPTS[step]) if step in _PROMPTS else ""
    if isinstance(preview, IllegalAction) and entry.kind is not EntryKind.HINT:
        prompt = i18n.tr(lang, "refused")
    if step is EntryStep.SLOTS and entry.touched:
        prompt = ""  # the sentence, or why it cannot be, says it now
    lines: list[tuple[str, tuple[int, int, int]]] = []
    if prompt:
        lines.append((prompt, TEXT))
    if entry.slot is not None and step is not EntryStep.SLOT:
        lines.append((i18n.tr(lang, "entry_slot", slot=entry.slot), DIM))
    message = controller.message
    if isinstance(message, Refused | Info) and not (
        isinstance(message, Refused) and message.error is preview
    ):  # refused during the entry (a colour the game has not, an unknown tag): said
        lines.append(message_text(controller))
    if (
        entry.kind is EntryKind.HINT
        and entry.to is not None
        and entry.clue is not None
        and not isinstance(preview, IllegalAction)
    ):
        size = game.position.hands[entry.to]
        name = game.setup.names[entry.to]
        said = i18n.hint_text(lang, name, entry.clue, entry.touched, size)
        lines.append((said, GOOD if entry.touched else DIM))
    if isinstance(preview, IllegalAction):
        lines.append((i18n.refusal_text(lang, preview, game.setup.names), WARN))
    elif isinstance(preview, Event) and entry.kind is not EntryKind.HINT:
        said = i18n.preview_text(lang, preview, game.setup.hint_cost)
        lines.append((said, preview_color(preview)))
    if game.setup.options.timed_display and entry.kind is EntryKind.PLAY:
        announced = (
            i18n.tr(lang, "entry_announce", color=i18n.color_name(lang, entry.announce))
            if entry.announce is not None
            else i18n.tr(lang, "entry_no_announce")
        )
        lines.append((announced, DIM))
    return lines


def _seat_label(controller: Controller, seat: int) -> str:
    """A receiver's tile: the seat's number (the key that picks it) and the name."""
    assert controller.game is not None
    return f"{seat + 1} {controller.game.setup.names[seat]}"


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
    choices = [choice_event(choice) for choice in controller.soft_choices()]
    labels = [i18n.tr(lang, "softkey_" + key.value) for key in SOFT_KEYS]
    slots = any(isinstance(choice, ChooseSlot) for choice in choices)
    receivers = [choice.seat for choice in choices if isinstance(choice, ChooseSeat)]
    # a receiver's tile shows the hand too where it fits (a tap on a slot picks both)
    room = bar.top - pad - (title_box.bottom + pad + floor_line + pad)
    grid = _grid(kit, inner_w, choices, labels, controller, with_hands=bool(receivers))
    if grid[3] > room:
        grid = _grid(kit, inner_w, choices, labels, controller, with_hands=False)
    across, tile_w, tile_h, tiles_h = grid
    with_hands = bool(receivers) and tile_h > floor_line + 12
    tiles_top = bar.top - pad - tiles_h
    # a hint's other clues in a row above, without soft keys, where they fit: a tap
    # picks any clue at once, the buttons turn the pages
    others: list[ChooseColor | ChooseRank] = []
    lines = _info_lines(lang, controller)
    if controller.entry_step() is EntryStep.CLUE:
        others = [
            event
            for page in controller.clue_pages()
            for event in page
            if event not in choices and isinstance(event, ChooseColor | ChooseRank)
        ]
        others_h = -(-len(others) // across) * (tile_h + kit.gap)
        # what is asked or refused, full width (a hint has no card box), stays readable
        info_h = sum(kit.height_of(text, kit.floor, inner_w) + kit.gap for text, _ in lines)
        if tiles_top - others_h < title_box.bottom + 2 * pad + max(floor_line, info_h - kit.gap):
            others = []
        else:
            tiles_top -= others_h
            for i, other in enumerate(others):
                row, column = divmod(i, across)
                face = layout.place(
                    f"other clue {i}",
                    pygame.Rect(
                        pad + column * (tile_w + kit.gap),
                        tiles_top + row * (tile_h + kit.gap),
                        tile_w,
                        tile_h,
                    ),
                )
                _clue_face(kit, surface, face, other, controller)
                kit.target(face, other)
            tiles_top += others_h

    # the card and, beside it, what is asked and what the entry will do
    body_top = title_box.bottom + pad
    body_h = tiles_top - pad - body_top
    card_h = min(body_h, int(kit.unit * 0.36))
    card_w = max(int(card_h * 0.72), floor_line + 8)
    beside = pygame.Rect(2 * pad + card_w + 3 * pad, body_top, w - card_w - 6 * pad, body_h)

    def lines_height(width: int) -> int:
        return sum(kit.height_of(text, kit.floor, width) + kit.gap for text, _ in lines) - kit.gap

    # no card beside the words when they need the width (a long refusal on a narrow
    # panel): the card is named in them, and the words matter more
    if entry.kind is EntryKind.HINT or lines_height(beside.width) > body_h:
        info = pygame.Rect(pad, body_top, inner_w, body_h)
        while len(lines) > 1 and lines_height(info.width) > body_h:
            lines.pop(0)  # what is asked goes before what was refused or will happen
    else:
        card_box = layout.place("card", pygame.Rect(2 * pad, body_top, card_w, card_h))
        kit.card(surface, card_box, *_card_shown(controller))
        info = beside
    y = info.top
    for i, (text, color) in enumerate(lines):
        box_h = kit.height_of(text, kit.floor, info.width)
        box = layout.place(f"info {i}", pygame.Rect(info.left, y, info.width, box_h))
        kit.text(surface, text, box, color=color)
        y = box.bottom + kit.gap

    seat = controller.entry_hand()
    memory = game.hand_memory(seat) if slots and seat is not None else ()
    chosen = set(entry.touched) | ({entry.slot} if entry.slot is not None else set())
    colors = [suit.color for suit in game.setup.suits]
    for i, event in enumerate(choices):
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
        if isinstance(event, ChooseColor | ChooseRank):
            _clue_face(kit, surface, face, event, controller)
        elif isinstance(event, ChooseSlot):  # the slot as the hints left it
            hand.draw_slot(
                kit,
                surface,
                face,
                event.slot,
                memory[event.slot - 1],
                colors,
                chosen=event.slot in chosen,
            )
        elif isinstance(event, ChooseSeat):  # the receiver's seat number, name, hand
            pygame.draw.rect(surface, PANEL, face, border_radius=6)
            pygame.draw.rect(surface, TEXT, face, 2, border_radius=6)
            name_box = pygame.Rect(face.left, face.top + 2, face.width, floor_line)
            if not with_hands:
                name_box = face
            kit.text(surface, _seat_label(controller, event.seat), name_box, align="center")
            if with_hands:
                slots_box = pygame.Rect(face.left + 4, name_box.bottom, face.width - 8, 0)
                slots_box.height = face.bottom - 4 - slots_box.top
                kit.target(tile, event)  # the name and the label; the slots above it
                memory_of = game.hand_memory(event.seat)
                for slot, box in enumerate(
                    hand.draw_row(kit, surface, slots_box, memory_of, colors),
                    start=1,
                ):
                    kit.target(box, ChooseSlot(slot, event.seat))
                label = pygame.Rect(tile.left, face.bottom, tile.width, floor_line)
                kit.text(surface, labels[i], label, color=DIM, align="center")
                continue
        else:  # the next page of clues
            _more_tile(kit, surface, face, controller)
        label = pygame.Rect(tile.left, face.bottom, tile.width, floor_line)
        kit.text(surface, labels[i], label, color=DIM, align="center")
        kit.target(tile, event)

    kit.button_bar(surface, bar, buttons)


def _clue_face(
    kit: Kit,
    surface: pygame.Surface,
    face: pygame.Rect,
    event: ChooseColor | ChooseRank,
    controller: Controller,
) -> None:
    """A colour's tile (its symbol and its key letter), or a rank's, outlined in the
    colour chosen."""
    entry = controller.entry
    assert entry is not None
    if isinstance(event, ChooseColor):
        ink = kit.card_face(surface, face, event.color)
        r = max(3, min(face.height // 2 - 4, face.width // 8))
        kit.symbol(surface, event.color, (face.left + r + 4, face.centery), r, ink)
        key_box = pygame.Rect(face.left + 2 * r + 6, face.top, face.width - 4 * r - 12, face.height)
        kit.text(surface, COLOR_KEYS[event.color], key_box, color=ink, align="center")
        return
    outline = SUIT_RGB[entry.color] if entry.color is not None else DIM
    if entry.kind is EntryKind.HINT:
        outline = TEXT
    pygame.draw.rect(surface, PANEL, face, border_radius=6)
    pygame.draw.rect(surface, outline, face, 2, border_radius=6)
    kit.text(surface, str(event.rank), face, size=kit.big, color=outline, align="center")


def _grid(
    kit: Kit,
    inner_w: int,
    choices: list[InputEvent],
    labels: list[str],
    controller: Controller,
    *,
    with_hands: bool,
) -> tuple[int, int, int, int]:
    """The choice tiles: how many across, each tile's width and face height, and the
    height of them all with their labels. Six in a row (or all of them), else two rows
    of three, else three of two…; a slot's face two lines high, one when the slots take
    two rows; a receiver's, a line for the name and (``with_hands``) the hand, flat."""
    floor_line = kit.line_height(kit.floor)
    widest = max(kit.width_of(label, kit.floor) for label in labels) + 4
    faces = [_seat_label(controller, c.seat) for c in choices if isinstance(c, ChooseSeat)]
    widest_face = max((kit.width_of(face, kit.floor) + 8 for face in faces), default=0)
    slots = any(isinstance(choice, ChooseSlot) for choice in choices)
    game = controller.game
    assert game is not None
    if slots:
        widest_face = hand.least_tile_width(kit)
    if with_hands:
        cards = max(game.position.hands[c.seat] for c in choices if isinstance(c, ChooseSeat))
        widest_face = max(widest_face, hand.row_width(kit, cards, flat=True) + 8)
    for across in sorted({6, min(6, max(1, len(choices))), 3, 2, 1}, reverse=True):
        tile_w = (inner_w - kit.gap * (across - 1)) // across
        if max(widest, widest_face) <= tile_w:
            break
    rows = -(-len(choices) // across)
    tile_h = floor_line + 12
    if slots:
        tile_h = hand.tile_height(kit) if rows == 1 else hand.flat_tile_height(kit)
    if with_hands:
        tile_h = floor_line + hand.flat_tile_height(kit) + 6
    tiles_h = rows * (tile_h + floor_line) + max(0, rows - 1) * kit.gap
    return across, tile_w, tile_h, tiles_h


def _more_tile(
    kit: Kit, surface: pygame.Surface, face: pygame.Rect, controller: Controller
) -> None:
    """The tile that turns to the other clues: "1-5 ›", or the colours' symbols and "›"."""
    entry = controller.entry
    assert entry is not None
    pages = controller.clue_pages()
    following = pages[(entry.clue_page + 1) % len(pages)]
    pygame.draw.rect(surface, PANEL, face, border_radius=6)
    pygame.draw.rect(surface, DIM, face, 2, border_radius=6)
    if isinstance(following[0], ChooseRank):
        kit.text(surface, "1-5 ›", face, color=TEXT, align="center")
        return
    arrow_w = kit.width_of("›", kit.floor) + 4
    kit.text(
        surface,
        "›",
        pygame.Rect(face.right - arrow_w - 2, face.top, arrow_w, face.height),
        color=TEXT,
        align="center",
    )
    colors = [event.color for event in following if isinstance(event, ChooseColor)]
    room = face.width - arrow_w - 8
    step = max(4, room // max(1, len(colors)))
    r = max(2, min(face.height // 4, step // 2 - 1))
    for i, color in enumerate(colors):
        center = (face.left + 4 + step * i + step // 2, face.centery)
        kit.symbol(surface, color, center, r, SUIT_RGB[color])
