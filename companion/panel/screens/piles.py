"""The fireworks and the discard pile, as the game and end screens show them."""

from __future__ import annotations

import logging
from collections import Counter
from enum import Enum

import pygame
from msgspec import Struct

from companion.core import i18n
from companion.panel.screens.kit import BACKGROUND, DARK_INK, DIM, SUIT_RGB, WARN, Kit, LayoutError
from engine.cards import Card, Color
from engine.game import Game

log = logging.getLogger(__name__)

#: A card is this wide for its height (a real card's proportions, a little wider).
CARD_RATIO = 0.72


def fireworks(kit: Kit, surface: pygame.Surface, game: Game, rect: pygame.Rect) -> None:
    """One card per suit: its top rank (– before its 1); × once it can never be completed."""
    suits = game.setup.suits
    gap = max(4, rect.width // 60)
    width = (rect.width - gap * (len(suits) - 1)) // len(suits)
    if rect.height >= kit.card_height():  # a card's proportions; flat cards take the width
        width = min(width, int(rect.height * 0.8))
    total = width * len(suits) + gap * (len(suits) - 1)
    left = rect.left + (rect.width - total) // 2
    dead = set(game.dead_fireworks())
    for i, suit in enumerate(suits):
        top = game.position.fireworks[suit.color]
        card = pygame.Rect(left + i * (width + gap), rect.top, width, rect.height)
        mark = "×" if suit.color in dead and top < 5 else None
        kit.card(surface, card, suit.color, str(top) if top else "–", empty=top == 0, mark=mark)


def discard_title(lang: str, game: Game) -> str:
    pile = game.position.discards
    return f"{i18n.tr(lang, 'discards')} ({len(pile)})" if pile else i18n.tr(lang, "discards")


class PileForm(Enum):
    """How the discard pile is drawn, the roomiest that holds every card first."""

    #: Cards two lines high (the symbol and the mark, the rank large), copies stacked.
    CARDS = "cards"
    #: Tiles one line high, the rank and the mark on the suit's colour (the suit's
    #: symbol starts the row); a row wraps, and the suits take two columns if need be.
    TILES = "tiles"
    #: The same tiles, every suit after the other on lines the whole width (a suit's
    #: symbol, its unseen count, its cards): the form of a short, narrow space.
    FLOW = "flow"


class SuitRow(Struct, frozen=True):
    """One suit's line of the pile: its discarded cards, rank by rank, and how many of
    its cards nobody has seen yet."""

    color: Color
    #: Each card discarded, with how many copies of it, in rank order.
    cards: tuple[tuple[Card, int], ...]
    unseen: int


def suit_rows(game: Game) -> list[SuitRow]:
    """The pile grouped by suit, in the suits' order, ranks ascending."""
    rows = []
    for suit in game.setup.suits:
        counts = Counter(card for card in game.position.discards if card.color is suit.color)
        cards = tuple(sorted(counts.items(), key=lambda item: item[0].rank))
        rows.append(SuitRow(suit.color, cards, game.unseen(suit.color)))
    return rows


class PilePlan(Struct, frozen=True):
    """How the pile is drawn: the form, the text size on the tiles, the tiles' height,
    the columns of suits, and the lines each suit's row takes."""

    form: PileForm
    size: int
    tile_h: int
    columns: int
    lines: tuple[int, ...]
    #: The cards that carry a mark (``!`` or ``×``): their tiles are wider.
    marked: frozenset[Card] = frozenset()

    def height(self, gap: int) -> int:
        """The rows' height, the tallest column's."""
        per_column = -(-len(self.lines) // self.columns)
        tallest = max(
            sum(self.lines[start : start + per_column])
            for start in range(0, len(self.lines), per_column)
        )
        return tallest * self.tile_h + (tallest - 1) * gap


def discards(kit: Kit, surface: pygame.Surface, game: Game, rect: pygame.Rect, lang: str) -> None:
    """The whole discard pile in ``rect``: a row per suit, in the suits' order, ranks
    ascending, copies of a card side by side (stacked on large cards); at the row's
    right, how many of the suit's cards nobody has seen yet (under the title's
    "unseen"). ``!`` marks the last copy of a card still needed, ``×`` a card gone for
    good. Never a card left out: where the cards do not fit, the form changes
    (:class:`PileForm`), never the text's floor.
    """
    title_h = _title_height(kit, game, rect.width, lang)
    line = kit.line_height(kit.floor)
    header = i18n.tr(lang, "unseen")
    header_w = kit.width_of(header, kit.floor)
    # the title, and "unseen" at the right over the rows' counts (below it if narrow)
    header_box = pygame.Rect(rect.right - header_w, rect.top + title_h - line, header_w, line)
    kit.text(surface, header, header_box, color=DIM, align="right")
    title = pygame.Rect(rect.left, rect.top, rect.width, line)
    if title_h == line:
        title.width -= header_w + kit.pad
    kit.text(surface, discard_title(lang, game), title, color=DIM)
    body = pygame.Rect(rect.left, rect.top + title_h + kit.gap, rect.width, 0)
    body.height = rect.bottom - body.top
    rows = suit_rows(game)
    critical = set(game.critical_cards())
    lost = set(game.lost_cards())
    plan = plan_pile(kit, rows, body, _marked(game))
    if plan.height(kit.gap) > body.height:
        # never a card hidden without a word: a layout bug, raised in the tests
        error = LayoutError(f"the discard pile needs {plan.height(kit.gap)} px, has {body}")
        if kit.strict:
            raise error
        log.warning("%s", error)
    if plan.form is PileForm.FLOW:
        _draw_flow(kit, surface, body, rows, plan, lost, critical)
        return
    column_w = (body.width - kit.gap * (plan.columns - 1)) // plan.columns
    per_column = -(-len(rows) // plan.columns)
    y = body.top
    for i, row in enumerate(rows):
        column, place = divmod(i, per_column)
        if place == 0:
            y = body.top
        height = plan.lines[i] * plan.tile_h + (plan.lines[i] - 1) * kit.gap
        box = pygame.Rect(body.left + column * (column_w + kit.gap), y, column_w, height)
        _draw_row(kit, surface, box, row, plan, lost, critical)
        y = box.bottom + kit.gap


def _title_height(kit: Kit, game: Game, width: int, lang: str) -> int:
    """One line for the title and "unseen" beside it, or two where they do not fit."""
    line = kit.line_height(kit.floor)
    both = kit.width_of(discard_title(lang, game), kit.floor) + kit.pad
    both += kit.width_of(i18n.tr(lang, "unseen"), kit.floor)
    return line if both <= width else 2 * line


#: Plans already worked out, by the panel's sizes, the pile and the room: a frame draws
#: the pile with the same plan as the frame before until the pile changes, and the game
#: screen may draw twice a frame (roomy, then compact). The least recently used goes.
_PLANS: dict[tuple[object, ...], PilePlan] = {}
_PLANS_KEPT = 32


def plan_pile(
    kit: Kit, rows: list[SuitRow], body: pygame.Rect, marked: frozenset[Card] = frozenset()
) -> PilePlan:
    """The roomiest form in which every suit's row fits ``body``: large cards, else tiles
    as large as fit (down to the floor), in one column, else two or three."""
    key = (kit.unit, tuple(rows), body.size, marked)
    plan = _PLANS.pop(key, None)
    if plan is None:
        plan = _plan_pile(kit, rows, body, marked)
        if len(_PLANS) >= _PLANS_KEPT:
            del _PLANS[next(iter(_PLANS))]
    _PLANS[key] = plan
    return plan


def _plan_pile(
    kit: Kit, rows: list[SuitRow], body: pygame.Rect, marked: frozenset[Card]
) -> PilePlan:
    count, gap = len(rows), kit.gap
    largest = max(kit.card_height(), min(int(kit.unit * 0.22), body.height // max(1, count)))
    for tile_h in range(largest, kit.card_height() - 1, -1):
        plan = PilePlan(PileForm.CARDS, kit.floor, tile_h, 1, (1,) * count, marked)
        if plan.height(gap) <= body.height and all(
            len(_row_places(kit, row, plan, body.width)) == 1 for row in rows
        ):
            return plan
    plan = _tiles(kit, rows, kit.floor, 1, body.width, marked)
    for columns in (1, 2, 3):
        for size in range(kit.big, kit.floor - 1, -1):
            plan = _tiles(kit, rows, size, columns, body.width, marked)
            if plan.height(gap) <= body.height:
                return plan
    for size in range(kit.big, kit.floor - 1, -1):
        tile_h = kit.line_height(size) + 2
        flow = PilePlan(PileForm.FLOW, size, tile_h, 1, (), marked)
        flow = PilePlan(
            PileForm.FLOW,
            size,
            tile_h,
            1,
            (len(_flow_places(kit, rows, flow, body.width)),),
            marked,
        )
        if flow.height(gap) <= body.height:
            return flow
    return flow  # nothing fits: discards() says so


FlowItem = tuple[int, "Color | Card | int"]


def _flow_places(kit: Kit, rows: list[SuitRow], plan: PilePlan, width: int) -> list[list[FlowItem]]:
    """Every suit after the other, line after line: each item's left edge and what it
    is (a suit's colour: its symbol; a card; a number: the suit's unseen count). A suit
    with no card discarded shows its symbol and count all the same."""
    gap = kit.gap
    lines: list[list[FlowItem]] = [[]]
    x = 0
    for row in rows:
        chip = _chip_width(kit) + kit.width_of(str(row.unseen), plan.size) + gap
        items: list[tuple[int, Color | Card | int]] = [(chip, row.color)]
        for card, copies in row.cards:
            items += [(_card_width(kit, plan, card), card)] * copies
        for number, (item_w, what) in enumerate(items):
            # a suit's symbol never ends a line: it goes on with its first card
            keep = item_w + (items[1][0] + gap if number == 0 and len(items) > 1 else 0)
            if x and x + keep > width:
                lines.append([])
                x = 0
            lines[-1].append((x, what))
            x += item_w + gap
        x += gap  # a little more room between two suits
    return lines


def _draw_flow(
    kit: Kit,
    surface: pygame.Surface,
    body: pygame.Rect,
    rows: list[SuitRow],
    plan: PilePlan,
    lost: set[Card],
    critical: set[Card],
) -> None:
    line, tile_h = kit.line_height(kit.floor), plan.tile_h
    unseen = {row.color: row.unseen for row in rows}
    for number, items in enumerate(_flow_places(kit, rows, plan, body.width)):
        y = body.top + number * (tile_h + kit.gap)
        for x, what in items:
            left = body.left + x
            if isinstance(what, Card):
                tile = pygame.Rect(left, y, _card_width(kit, plan, what), tile_h)
                mark = _mark(what, lost, critical)
                kit.pile.append((what.code(), mark or "", tile.move(kit.origin)))
                _small_tile(kit, surface, tile, what, mark, plan.size)
            elif isinstance(what, Color):
                center = (left + line // 2, y + tile_h // 2)
                kit.symbol(surface, what, center, max(3, line // 2 - 2), SUIT_RGB[what])
                count = str(unseen[what])
                box = pygame.Rect(left + line, y, kit.width_of(count, plan.size), tile_h)
                kit.text(surface, count, box, size=plan.size, color=DIM)


def pile_height(kit: Kit, game: Game, width: int, lang: str) -> int:
    """The least height in which :func:`discards` shows the whole pile ``width`` wide:
    small tiles in one column."""
    plan = _tiles(kit, suit_rows(game), kit.floor, 1, width, _marked(game))
    return _title_height(kit, game, width, lang) + kit.gap + plan.height(kit.gap)


def _tiles(
    kit: Kit, rows: list[SuitRow], size: int, columns: int, width: int, marked: frozenset[Card]
) -> PilePlan:
    column_w = (width - kit.gap * (columns - 1)) // columns
    plan = PilePlan(PileForm.TILES, size, kit.line_height(size) + 2, columns, (), marked)
    lines = tuple(len(_row_places(kit, row, plan, column_w)) for row in rows)
    return PilePlan(PileForm.TILES, size, plan.tile_h, columns, lines, marked)


def _marked(game: Game) -> frozenset[Card]:
    return frozenset(game.critical_cards()) | frozenset(game.lost_cards())


def _chip_width(kit: Kit) -> int:
    return kit.line_height(kit.floor)


def _unseen_width(kit: Kit) -> int:
    return kit.width_of("10", kit.floor) + kit.pad


def _card_width(kit: Kit, plan: PilePlan, card: Card) -> int:
    """A card's width in the pile (the top copy's, in a stack)."""
    if plan.form is PileForm.CARDS:
        narrowest = kit.width_of("×", kit.floor) + kit.line_height(kit.floor) + 8
        return max(int(plan.tile_h * CARD_RATIO), narrowest)
    mark = kit.width_of("×", plan.size) + 4 if card in plan.marked else 0
    return kit.width_of(str(card.rank), plan.size) + mark + 8


def _row_places(
    kit: Kit, row: SuitRow, plan: PilePlan, width: int
) -> list[list[tuple[int, Card, bool]]]:
    """Where a suit's cards go in a row ``width`` wide, line by line: each card's left
    edge (from the row's left) and whether another copy lies on it. Large cards stay on
    one line (the caller checks); tiles wrap."""
    gap = kit.gap
    start = _chip_width(kit) + gap
    right = width - _unseen_width(kit) - gap
    lines: list[list[tuple[int, Card, bool]]] = [[]]
    x = start
    for card, copies in row.cards:
        card_w = _card_width(kit, plan, card)
        for copy in range(copies):
            under = copy < copies - 1
            stacked = under and plan.form is PileForm.CARDS
            step = max(8, card_w // 3) if stacked else card_w + (2 if under else gap)
            if plan.form is PileForm.TILES and x + card_w > right and x > start:
                lines.append([])
                x = start
            elif plan.form is PileForm.CARDS and x + card_w > right:
                lines.append([])  # does not fit: the plan is refused
            lines[-1].append((x, card, stacked))
            x += step
    return lines


def _draw_row(
    kit: Kit,
    surface: pygame.Surface,
    box: pygame.Rect,
    row: SuitRow,
    plan: PilePlan,
    lost: set[Card],
    critical: set[Card],
) -> None:
    gap, line, tile_h = kit.gap, kit.line_height(kit.floor), plan.tile_h
    # the chip: the suit's symbol in its colour, so an empty row still names its suit
    chip = pygame.Rect(box.left, box.top + (tile_h - line) // 2, _chip_width(kit), line)
    kit.symbol(surface, row.color, chip.center, max(3, line // 2 - 2), SUIT_RGB[row.color])
    unseen = pygame.Rect(box.right - _unseen_width(kit), box.top, _unseen_width(kit), tile_h)
    kit.text(surface, str(row.unseen), unseen, color=DIM, align="right")
    for number, places in enumerate(_row_places(kit, row, plan, box.width)):
        y = box.top + number * (tile_h + gap)
        for x, card, stacked in places:
            tile = pygame.Rect(box.left + x, y, _card_width(kit, plan, card), tile_h)
            mark = _mark(card, lost, critical)
            kit.pile.append((card.code(), mark or "", tile.move(kit.origin)))
            if plan.form is PileForm.CARDS:  # a copy under another shows its band only
                label = None if stacked else str(card.rank)
                kit.card(surface, tile, card.color, label, mark=None if stacked else mark)
            else:
                _small_tile(kit, surface, tile, card, mark, plan.size)
            if stacked:  # a copy under the next one: its edge stays seen
                edge = tile.left + max(8, tile.width // 3) - 1
                pygame.draw.line(surface, BACKGROUND, (edge, y + 3), (edge, y + tile_h - 4), 2)


def _small_tile(
    kit: Kit, surface: pygame.Surface, rect: pygame.Rect, card: Card, mark: str | None, size: int
) -> None:
    """A card one line high: the rank on the suit's colour, the mark on a dark badge."""
    ink = kit.card_face(surface, rect, card.color)
    face = rect.copy()
    if mark:
        badge_w = kit.width_of(mark, size) + 4
        badge = pygame.Rect(rect.right - badge_w - 1, rect.top + 1, badge_w, rect.height - 2)
        pygame.draw.rect(surface, DARK_INK, badge, border_radius=3)
        kit.text(surface, mark, badge, size=size, color=WARN, align="center")
        face.width = badge.left - rect.left
    kit.text(surface, str(card.rank), face, size=size, color=ink, align="center")


def _mark(card: Card, lost: set[Card], critical: set[Card]) -> str | None:
    if card in lost:
        return "×"
    return "!" if card in critical else None
