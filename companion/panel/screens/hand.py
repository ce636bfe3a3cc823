"""Hand memory on the screen: what the hints told about each card of a hand.

A hand is a row of slots, slot 1 (the newest card) at the left, as the players hold
their cards. Each slot is a tile two lines high:

- its top line: the slot number, then the colour: the suit's symbol when the hints
  leave one colour (the tile is then that suit's colour), else the symbols of the
  colours it cannot be, each crossed out;
- its second line: the rank, large, when the hints leave one; else the ranks it
  cannot be, struck through.

Nothing else: a card's identity is never shown before it is revealed, only what
every player heard.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import pygame

from companion.panel.screens.kit import (
    ACCENT,
    DARK_INK,
    DIM,
    PANEL,
    PANEL_LIGHT,
    RGB,
    SUIT_RGB,
    TEXT,
    Kit,
    Layout,
)
from engine.cards import Color
from engine.memory import SlotKnowledge
from hardware.events import ChooseSlot


def tile_height(kit: Kit) -> int:
    """A slot's height: a line at the floor (the number, the colours), a line at the big
    size (the rank, large when the hints fixed it), and a margin."""
    return kit.line_height(kit.floor) + kit.line_height(kit.big) + 4


def flat_tile_height(kit: Kit) -> int:
    """A flat slot: everything on one line (a crowded entry screen)."""
    return kit.line_height(kit.floor) + 6


def least_tile_width(kit: Kit) -> int:
    """The narrowest slot that still says everything: four ranks struck out, at the floor."""
    return kit.width_of("1234", kit.floor) + 10


def least_flat_width(kit: Kit) -> int:
    """The narrowest flat slot: its number beside four ranks struck out."""
    return least_tile_width(kit) + kit.width_of("5", kit.floor) + 6


def row_width(kit: Kit, slots: int, *, flat: bool = False) -> int:
    """The narrowest row of ``slots`` slots."""
    width = least_flat_width(kit) if flat else least_tile_width(kit)
    return slots * width + (slots - 1) * kit.gap


def slot_boxes(kit: Kit, rect: pygame.Rect, slots: int) -> list[pygame.Rect]:
    """Where each slot goes in ``rect``, slot 1 at the left; as wide as a card's
    proportions allow, centred."""
    gap = kit.gap
    if slots == 0:
        return []
    width = (rect.width - gap * (slots - 1)) // slots
    if rect.height >= tile_height(kit):  # a flat slot takes the width it is given
        width = min(width, int(rect.height * 1.6))
    total = slots * width + (slots - 1) * gap
    left = rect.left + (rect.width - total) // 2
    return [
        pygame.Rect(left + i * (width + gap), rect.top, width, rect.height) for i in range(slots)
    ]


def draw_row(
    kit: Kit,
    surface: pygame.Surface,
    rect: pygame.Rect,
    hand: Sequence[SlotKnowledge],
    colors: Sequence[Color],
    *,
    chosen: Collection[int] = (),
    tappable: bool = False,
) -> list[pygame.Rect]:
    """A hand's slots in ``rect`` (slot 1 at the left); ``chosen`` slots are outlined.
    ``tappable``: a tap on a slot picks it. Returns each slot's box."""
    boxes = slot_boxes(kit, rect, len(hand))
    for number, (box, known) in enumerate(zip(boxes, hand, strict=True), start=1):
        draw_slot(kit, surface, box, number, known, colors, chosen=number in chosen)
        if tappable:
            kit.target(box, ChooseSlot(number))
    return boxes


def draw_slot(
    kit: Kit,
    surface: pygame.Surface,
    rect: pygame.Rect,
    number: int,
    known: SlotKnowledge,
    colors: Sequence[Color],
    *,
    chosen: bool = False,
) -> None:
    """One slot: its number, its colour or the colours it cannot be, its rank (large)
    or the ranks it cannot be; a chosen slot ringed light and dark, so that the ring
    shows on every suit's colour, yellow and white included."""
    radius = max(3, rect.width // 10)
    color = known.color
    if color is not None:
        ink = kit.card_face(surface, rect, color)
    else:
        pygame.draw.rect(surface, PANEL_LIGHT if chosen else PANEL, rect, border_radius=radius)
        ink = TEXT
    if chosen:
        ring = max(3, kit.gap)
        pygame.draw.rect(surface, ACCENT, rect, ring, border_radius=radius)
        inner_ring = rect.inflate(-2 * ring, -2 * ring)
        pygame.draw.rect(surface, DARK_INK, inner_ring, ring, border_radius=radius)
    else:
        pygame.draw.rect(surface, DIM, rect, 1, border_radius=radius)
    line = kit.line_height(kit.floor)
    inner = rect.inflate(-6, -4)
    top = pygame.Rect(inner.left, inner.top, inner.width, line)
    # the slot number on a dark badge (on the accent colour when chosen), so it never
    # reads as a rank
    number_w = kit.width_of(str(number), kit.floor) + 6
    badge = pygame.Rect(top.left, top.top, number_w, line)
    pygame.draw.rect(surface, ACCENT if chosen else DARK_INK, badge, border_radius=3)
    kit.text(surface, str(number), badge, color=DARK_INK if chosen else TEXT, align="center")
    rank = known.rank
    ruled_out = sorted(set(range(1, 6)) - set(known.ranks))
    crossed = [c for c in colors if c not in known.colors] if color is None else []
    extra = pygame.Rect(0, 0, 0, 0)
    if rect.height < tile_height(kit):  # flat, one line: the rank part at the right
        text = str(rank) if rank is not None else "".join(map(str, ruled_out))
        rank_w = kit.width_of(text, kit.floor) + 4 if text else 0
        bottom = pygame.Rect(top.right - rank_w, top.top, rank_w, line)
        marks = pygame.Rect(badge.right + 2, top.top, bottom.left - badge.right - 4, line)
    else:
        bottom = pygame.Rect(inner.left, top.bottom, inner.width, inner.bottom - top.bottom)
        marks = pygame.Rect(badge.right + 2, top.top, top.right - badge.right - 2, line)
        # crossed colours that do not fit the top line go on at the bottom line's left,
        # closer together where the ranks need the rest of the line
        over = len(crossed) - marks.width // _mark_step(kit)
        if over > 0:
            ranks = str(rank) if rank is not None else "".join(map(str, ruled_out))
            need = kit.width_of(ranks, kit.big if rank is not None else kit.floor) + 4
            extra_w = min(over * _mark_step(kit), max(0, bottom.width - need))
            extra = pygame.Rect(bottom.left, bottom.top, extra_w, bottom.height)
            bottom = pygame.Rect(extra.right, bottom.top, bottom.right - extra.right, bottom.height)
    if color is not None:
        r = max(3, min(line // 2 - 2, marks.width // 2))
        kit.symbol(surface, color, (marks.right - r - 1, marks.centery), r, ink)
    elif extra.width or len(crossed) * _mark_step(kit) <= marks.width:
        room = max(0, marks.width // _mark_step(kit))
        _crossed_colors(kit, surface, marks, crossed[:room])
        _crossed_colors(kit, surface, extra, crossed[room:])
    else:  # a flat slot, or no room left under: every one, closer together
        _crossed_colors(kit, surface, marks, crossed)
    if rank is not None:
        size = kit.floor if rect.height < tile_height(kit) else kit.big
        kit.text(surface, str(rank), bottom, size=size, color=ink, align="center")
    else:
        _struck_ranks(kit, surface, bottom, ruled_out, ink if color is not None else DIM)


def _mark_step(kit: Kit) -> int:
    """The width a crossed-out colour takes: a symbol at the floor's size, and a gap."""
    return kit.line_height(kit.floor) - 2


def _crossed_colors(
    kit: Kit, surface: pygame.Surface, rect: pygame.Rect, colors: Sequence[Color]
) -> None:
    """The colours a slot cannot be: each suit's symbol in its colour, crossed out, at
    the floor's size, from the right (closer together where ``rect`` is short of room)."""
    if not colors or rect.width <= 0:
        return
    step = _mark_step(kit)
    r = max(3, step // 2 - 1)
    if len(colors) * step > rect.width and len(colors) > 1:
        # more than the room holds side by side: closer, overlapping a little, never
        # one left out (a symbol is no text: it has no floor to keep)
        step = max(2, (rect.width - step) // (len(colors) - 1))
    for i, color in enumerate(colors):
        cx = rect.right - _mark_step(kit) // 2 - i * step
        cy = rect.centery
        kit.symbol(surface, color, (cx, cy), r, SUIT_RGB[color])
        pygame.draw.line(surface, DARK_INK, (cx - r - 1, cy + r + 1), (cx + r + 1, cy - r - 1), 3)
        pygame.draw.line(surface, ACCENT, (cx - r, cy + r), (cx + r, cy - r), 1)


def _struck_ranks(
    kit: Kit, surface: pygame.Surface, rect: pygame.Rect, ranks: Sequence[int], ink: RGB
) -> None:
    """The ranks a slot cannot be, struck through."""
    if not ranks:
        return
    text = "".join(str(rank) for rank in ranks)
    kit.text(surface, text, rect, color=ink, align="center")
    width = kit.width_of(text, kit.floor)
    y = rect.centery
    pygame.draw.line(
        surface, ACCENT, (rect.centerx - width // 2 - 1, y), (rect.centerx + width // 2 + 1, y), 2
    )


def draw_hands(
    kit: Kit,
    surface: pygame.Surface,
    layout: Layout,
    rect: pygame.Rect,
    names: Sequence[str],
    hands: Sequence[Sequence[SlotKnowledge]],
    colors: Sequence[Color],
    current: int | None,
) -> None:
    """Every player's hand memory in ``rect``, one row per seat: the name beside the
    slots where both fit, else above them; flat slots (one line) where two-line ones
    would not all fit; the player to act in the accent colour."""
    line = kit.line_height(kit.floor)
    widest_hand = max((len(hand) for hand in hands), default=0)
    name_w = max(kit.width_of(name, kit.floor) for name in names) + kit.pad
    beside = rect.width - name_w - kit.pad >= row_width(kit, widest_hand)
    rows = len(names)
    for tile_h in (tile_height(kit), flat_tile_height(kit)):
        row_h = tile_h if beside else line + tile_h
        if rows * row_h <= rect.height:
            break
    gap = min(kit.gap, (rect.height - rows * row_h) // max(1, rows - 1))
    y = rect.top
    for seat, (name, hand) in enumerate(zip(names, hands, strict=True)):
        row = layout.place(f"hand {seat}", pygame.Rect(rect.left, y, rect.width, row_h))
        if beside:
            name_box = pygame.Rect(row.left, row.top, name_w, tile_h)
            slots = pygame.Rect(name_box.right, row.top, row.right - name_box.right, tile_h)
        else:
            name_box = pygame.Rect(row.left, row.top, row.width, line)
            slots = pygame.Rect(row.left, name_box.bottom, row.width, tile_h)
        kit.text(surface, name, name_box, color=ACCENT if seat == current else TEXT)
        if hand:
            draw_row(kit, surface, slots, hand, colors)
        y += row_h + gap


def hands_fit(kit: Kit, rect: pygame.Rect, names: Sequence[str], widest_hand: int) -> bool:
    """Whether :func:`draw_hands` in ``rect`` draws two-line slots (not flat ones)."""
    line = kit.line_height(kit.floor)
    name_w = max(kit.width_of(name, kit.floor) for name in names) + kit.pad
    beside = rect.width - name_w - kit.pad >= row_width(kit, widest_hand)
    row_h = tile_height(kit) if beside else line + tile_height(kit)
    return len(names) * row_h <= rect.height
