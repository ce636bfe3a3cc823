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
from engine.game import EventKind, Game

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


def discard_title(lang: str, game: Game, *, count: bool = True) -> str:
    """The pile's title, with the number of cards in it (``count``) when there are any."""
    pile = game.position.discards
    if pile and count:
        return f"{i18n.tr(lang, 'discards')} ({len(pile)})"
    return i18n.tr(lang, "discards")


class PileForm(Enum):
    """How the discard pile is drawn, the roomiest that holds every card first. Each
    suit has a row of its own (its symbol at the left, its unseen count in a column at
    the right); every tile of a plan is as wide as a marked one, so a mark that comes
    or goes moves nothing."""

    #: Cards two lines high (the symbol and the mark, the rank large), copies stacked.
    CARDS = "cards"
    #: Tiles one line high, the rank and the mark on the suit's colour, copies side by
    #: side; a row wraps, and the suits take two or three columns if need be.
    TILES = "tiles"
    #: The same tiles, the copies of a card stacked (the copy under shows its edge): a
    #: suit's row is never wider than its five ranks.
    STACKED = "stacked"


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
    #: The cards whose tiles hold room for a mark (:func:`ever_marked`): wider.
    marked: frozenset[Card] = frozenset()

    def height(self, gap: int) -> int:
        """The rows' height, the tallest column's."""
        per_column = -(-len(self.lines) // self.columns)
        tallest = max(
            sum(self.lines[start : start + per_column])
            for start in range(0, len(self.lines), per_column)
        )
        return tallest * self.tile_h + (tallest - 1) * gap

    @property
    def density(self) -> tuple[int, int, int, int]:
        """Where the plan stands from the roomiest to the densest, in the order
        :func:`plan_pile` tries them: a pile that grows never goes back down."""
        if self.form is PileForm.CARDS:
            return (0, 1, 0, -self.tile_h)
        return (1, self.columns, 0 if self.form is PileForm.TILES else 1, -self.size)

    @property
    def stacked(self) -> bool:
        """Whether the copies of a card lie on one another (only the top one whole)."""
        return self.form is not PileForm.TILES


def discards(kit: Kit, surface: pygame.Surface, game: Game, rect: pygame.Rect, lang: str) -> None:
    """The whole discard pile in ``rect``: a row per suit, in the suits' order, ranks
    ascending, copies of a card side by side (stacked on large cards and on the stacked
    tiles); at the row's right, in a column of their own, how many of the suit's cards
    nobody has seen yet (under the title's "unseen"). ``!`` marks the last copy of a
    card still needed, ``×`` a card gone for good. Never a card left out: where the
    cards do not fit, the form changes (:class:`PileForm`), never the text's floor; and
    as the pile only grows, the form only ever gets denser in a game.
    """
    title_h, count = _title_form(kit, rect.width, lang)
    line = kit.line_height(kit.floor)
    header = i18n.tr(lang, "unseen")
    header_w = kit.width_of(header, kit.floor)
    # the title, and "unseen" at the right over the rows' counts (below it if narrow)
    header_box = pygame.Rect(rect.right - header_w, rect.top + title_h - line, header_w, line)
    kit.text(surface, header, header_box, color=DIM, align="right")
    title = pygame.Rect(rect.left, rect.top, rect.width, line)
    if title_h == line:
        title.width -= header_w + kit.pad
    kit.text(surface, discard_title(lang, game, count=count), title, color=DIM)
    body = pygame.Rect(rect.left, rect.top + title_h + kit.gap, rect.width, 0)
    body.height = rect.bottom - body.top
    rows = suit_rows(game)
    critical = set(game.critical_cards())
    lost = set(game.lost_cards())
    plan = plan_pile(kit, rows, body, ever_marked(game))
    kit.pile_plan = plan
    if plan.height(_row_gap(kit)) > body.height:
        # never a card hidden without a word: a layout bug, raised in the tests
        needs = plan.height(_row_gap(kit))
        error = LayoutError(f"the discard pile needs {needs} px, has {body}")
        if kit.strict:
            raise error
        log.warning("%s", error)
    column_w = (body.width - kit.gap * (plan.columns - 1)) // plan.columns
    per_column = -(-len(rows) // plan.columns)
    y = body.top
    for i, row in enumerate(rows):
        column, place = divmod(i, per_column)
        if place == 0:
            y = body.top
        height = plan.lines[i] * plan.tile_h + (plan.lines[i] - 1) * _row_gap(kit)
        box = pygame.Rect(body.left + column * (column_w + kit.gap), y, column_w, height)
        _draw_row(kit, surface, box, row, plan, lost, critical)
        y = box.bottom + _row_gap(kit)


#: The title's count as wide as it can be: the title's height is the same all game.
_WIDEST_COUNT = 88


def _title_form(kit: Kit, width: int, lang: str) -> tuple[int, bool]:
    """The title's height and whether it says the count: one line with "unseen" beside
    it (with the count where the largest pile's still fits), else two lines. The same
    for the whole game."""
    line = kit.line_height(kit.floor)
    header = kit.width_of(i18n.tr(lang, "unseen"), kit.floor) + kit.pad
    counted = f"{i18n.tr(lang, 'discards')} ({_WIDEST_COUNT})"
    if kit.width_of(counted, kit.floor) + header <= width:
        return line, True
    if kit.width_of(i18n.tr(lang, "discards"), kit.floor) + header <= width:
        return line, False
    return 2 * line, True


def title_height(kit: Kit, width: int, lang: str) -> int:
    """The title's height in a pile ``width`` wide (:func:`_title_form`)."""
    return _title_form(kit, width, lang)[0]


def least_pile_height(kit: Kit, suits: int, width: int, lang: str, columns: int = 1) -> int:
    """The least height in which :func:`discards` shows a pile ``width`` wide with a
    row per suit on one line of tiles at the floor, in ``columns`` columns."""
    tile_h = kit.line_height(kit.floor)
    rows = -(-suits // columns)
    return title_height(kit, width, lang) + kit.gap + rows * tile_h + (rows - 1) * _row_gap(kit)


#: Plans already worked out, by the panel's sizes, the pile and the room: a frame draws
#: the pile with the same plan as the frame before until the pile changes, and the game
#: screen may draw twice a frame (roomy, then compact). The least recently used goes.
_PLANS: dict[tuple[object, ...], PilePlan] = {}
_PLANS_KEPT = 32


def plan_pile(
    kit: Kit, rows: list[SuitRow], body: pygame.Rect, marked: frozenset[Card] = frozenset()
) -> PilePlan:
    """The roomiest form in which every suit's row fits ``body``: large cards, else tiles
    as large as fit (down to the floor) in one column, else stacked tiles, then two or
    three columns. A tile that ever carried a mark keeps its room (``marked``), and a
    card only ever adds to a row: a pile that grows never gets a roomier form."""
    key = (kit.unit, tuple((row.color, row.cards) for row in rows), body.size, marked)
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
    count, gap = len(rows), _row_gap(kit)
    largest = max(kit.card_height(), min(int(kit.unit * 0.22), body.height // max(1, count)))
    for tile_h in range(largest, kit.card_height() - 1, -1):
        plan = PilePlan(PileForm.CARDS, kit.floor, tile_h, 1, (1,) * count, marked)
        if plan.height(gap) <= body.height and all(
            len(_row_places(kit, row, plan, body.width)) == 1 for row in rows
        ):
            return plan
    plan = _tiles(kit, rows, PileForm.STACKED, kit.floor, 3, body.width, marked)
    for columns in (1, 2, 3):
        for form in (PileForm.TILES, PileForm.STACKED):
            for size in range(kit.big, kit.floor - 1, -1):
                plan = _tiles(kit, rows, form, size, columns, body.width, marked)
                if plan.height(gap) <= body.height:
                    return plan
    return plan  # nothing fits: discards() says so


def _tiles(
    kit: Kit,
    rows: list[SuitRow],
    form: PileForm,
    size: int,
    columns: int,
    width: int,
    marked: frozenset[Card],
) -> PilePlan:
    column_w = (width - kit.gap * (columns - 1)) // columns
    plan = PilePlan(form, size, kit.line_height(size), columns, (), marked)
    lines = tuple(len(_row_places(kit, row, plan, column_w)) for row in rows)
    return PilePlan(form, size, plan.tile_h, columns, lines, marked)


def ever_marked(game: Game) -> frozenset[Card]:
    """The discarded cards that carry, or once carried, a mark: each discard that left
    at most one copy of a card not yet played (its last copy, "!"; none, "×"). The set
    only grows as the game goes on: a mark that goes (the last copy played) leaves its
    tile as wide, and the pile's form never gets roomier for it."""
    copies = game.setup.copies
    fireworks = dict.fromkeys(game.setup.colors, 0)
    discarded: Counter[Card] = Counter()
    marked = set()
    for event in game.events:
        card = event.card
        if card is None:
            continue
        if event.kind is EventKind.PLAY:
            fireworks[card.color] = card.rank
            continue
        discarded[card] += 1
        if discarded[card] >= copies[card.ordinal] - 1 and fireworks[card.color] < card.rank:
            marked.add(card)
    return frozenset(marked)


def _row_gap(kit: Kit) -> int:
    """The room between two lines of the pile (two suits' rows, a row's two lines)."""
    return max(2, kit.gap // 2)


def _chip_width(kit: Kit) -> int:
    """The suit's symbol at a row's left."""
    return kit.line_height(kit.floor) - 4


def _unseen_width(kit: Kit) -> int:
    """The column of the unseen counts, at the rows' right: two digits."""
    return kit.width_of("10", kit.floor) + kit.gap


def _card_width(kit: Kit, plan: PilePlan, card: Card) -> int:
    """A card's width in the pile (the top copy's, in a stack): room for a mark where the
    card ever carried one."""
    if plan.form is PileForm.CARDS:
        narrowest = kit.width_of("×", kit.floor) + kit.line_height(kit.floor) + 8
        return max(int(plan.tile_h * CARD_RATIO), narrowest)
    mark = _mark_width(kit, plan.size) if card in plan.marked else 0
    return kit.width_of("5", plan.size) + mark + 8


def _mark_width(kit: Kit, size: int) -> int:
    """The dark badge of a mark on a tile: the widest mark, and a margin."""
    return max(kit.width_of(mark, size) for mark in ("×", "!")) + 4


def _step(card_w: int) -> int:
    """How much of a stacked copy shows under the next one."""
    return max(8, card_w // 4)


def _row_places(
    kit: Kit, row: SuitRow, plan: PilePlan, width: int
) -> list[list[tuple[int, Card, bool]]]:
    """Where a suit's cards go in a row ``width`` wide, line by line: each card's left
    edge (from the row's left) and whether another copy lies on it. Large cards stay on
    one line (the caller checks); tiles wrap (stacked tiles: a card with its copies)."""
    gap = kit.gap
    start = _chip_width(kit) + gap
    right = width - _unseen_width(kit) - gap
    lines: list[list[tuple[int, Card, bool]]] = [[]]
    x = start
    for card, copies in row.cards:
        card_w = _card_width(kit, plan, card)
        if plan.stacked:
            stack_w = (copies - 1) * _step(card_w) + card_w
            if x + stack_w > right and (x > start or plan.form is PileForm.CARDS):
                lines.append([])  # large cards: does not fit, the plan is refused
                x = start
            for copy in range(copies):
                lines[-1].append((x, card, copy < copies - 1))
                x += _step(card_w) if copy < copies - 1 else card_w + gap
            continue
        for copy in range(copies):
            if x + card_w > right and x > start:
                lines.append([])
                x = start
            lines[-1].append((x, card, False))
            x += card_w + (2 if copy < copies - 1 else gap)
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
    gap, line, tile_h = _row_gap(kit), kit.line_height(kit.floor), plan.tile_h
    # the chip: the suit's symbol in its colour, so an empty row still names its suit
    chip = pygame.Rect(box.left, box.top + (tile_h - line) // 2, _chip_width(kit), line)
    kit.symbol(surface, row.color, chip.center, max(3, line // 2 - 2), SUIT_RGB[row.color])
    # the unseen count in its column at the right, level with the row's first line
    unseen = pygame.Rect(box.right - _unseen_width(kit), box.top, _unseen_width(kit), tile_h)
    kit.text(surface, str(row.unseen), unseen, color=DIM, align="right")
    for number, places in enumerate(_row_places(kit, row, plan, box.width)):
        y = box.top + number * (tile_h + gap)
        for x, card, stacked in places:
            card_w = _card_width(kit, plan, card)
            tile = pygame.Rect(box.left + x, y, card_w, tile_h)
            mark = _mark(card, lost, critical)
            kit.pile.append((card.code(), mark or "", tile.move(kit.origin)))
            if plan.form is PileForm.CARDS:  # a copy under another shows its band only
                label = None if stacked else str(card.rank)
                kit.card(surface, tile, card.color, label, mark=None if stacked else mark)
            else:
                if stacked:  # a copy under another: its colour's edge only
                    kit.card_face(surface, tile, card.color)
                else:
                    _small_tile(kit, surface, tile, card, mark, plan.size)
            if stacked:  # a copy under the next one: its edge stays seen
                edge = tile.left + _step(card_w) - 1
                pygame.draw.line(surface, BACKGROUND, (edge, y + 3), (edge, y + tile_h - 4), 2)


def _small_tile(
    kit: Kit, surface: pygame.Surface, rect: pygame.Rect, card: Card, mark: str | None, size: int
) -> None:
    """A card one line high: the rank on the suit's colour, the mark on a dark badge at
    the right (a tile that lost its mark keeps its width: the rank centred in it)."""
    ink = kit.card_face(surface, rect, card.color)
    face = rect.copy()
    if mark:
        # the badge inside the tile, framed by the suit's colour; its mark on a line as
        # high as the tile's (the glyph is shorter than its line)
        badge_w = _mark_width(kit, size)
        line = pygame.Rect(rect.right - badge_w - 2, rect.top, badge_w, rect.height)
        pygame.draw.rect(surface, DARK_INK, line.inflate(0, -4), border_radius=3)
        kit.text(surface, mark, line, size=size, color=WARN, align="center")
        face.width = line.left - rect.left
    kit.text(surface, str(card.rank), face, size=size, color=ink, align="center")


def _mark(card: Card, lost: set[Card], critical: set[Card]) -> str | None:
    if card in lost:
        return "×"
    return "!" if card in critical else None
