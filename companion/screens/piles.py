"""The fireworks and the discard pile, as the game and end screens show them."""

from __future__ import annotations

import pygame

from companion import i18n
from companion.screens.kit import DIM, Kit
from engine.cards import Card
from engine.game import Game

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


def discards(kit: Kit, surface: pygame.Surface, game: Game, rect: pygame.Rect, lang: str) -> None:
    """The discard pile, suit by suit and rank by rank, as large as ``rect`` allows.

    ``!`` marks the last copy of a card still needed, ``×`` a card gone for good.
    """
    title_h = kit.line_height(kit.floor)
    title = pygame.Rect(rect.left, rect.top, rect.width, title_h)
    kit.text(surface, discard_title(lang, game), title, color=DIM)
    body = pygame.Rect(rect.left, title.bottom + kit.gap, rect.width, rect.bottom - title.bottom)
    body.height -= kit.gap
    order = {suit.color: i for i, suit in enumerate(game.setup.suits)}
    pile = sorted(game.position.discards, key=lambda card: (order[card.color], card.rank))
    if not pile:
        kit.text(surface, i18n.tr(lang, "no_discards"), body.copy(), color=DIM)
        return
    critical = set(game.critical_cards())
    lost = set(game.lost_cards())
    shown, card_w, card_h, per_row = _grid(kit, len(pile), body)
    gap = kit.gap
    for i, card in enumerate(pile[:shown]):
        row, column = divmod(i, per_row)
        box = pygame.Rect(
            body.left + column * (card_w + gap), body.top + row * (card_h + gap), card_w, card_h
        )
        kit.card(surface, box, card.color, str(card.rank), mark=_mark(card, lost, critical))
    if shown < len(pile):  # never silent: how many more there are
        row, column = divmod(shown, per_row)
        box = pygame.Rect(
            body.left + column * (card_w + gap), body.top + row * (card_h + gap), card_w, card_h
        )
        kit.text(surface, f"+{len(pile) - shown}", box, color=DIM, align="center")


def holds_all(kit: Kit, game: Game, rect: pygame.Rect) -> bool:
    """Whether :func:`discards` in ``rect`` shows every card (no "+N")."""
    title_h = kit.line_height(kit.floor)
    body = pygame.Rect(rect.left, rect.top + title_h + kit.gap, rect.width, rect.height)
    body.height = rect.bottom - body.top
    count = len(game.position.discards)
    return count == 0 or _grid(kit, count, body)[0] == count


def _mark(card: Card, lost: set[Card], critical: set[Card]) -> str | None:
    if card in lost:
        return "×"
    return "!" if card in critical else None


def _grid(kit: Kit, count: int, body: pygame.Rect) -> tuple[int, int, int, int]:
    """How many cards show, their size and how many per row: the largest cards with which
    all fit (up to 0.28 of the panel high), else the smallest legible ones."""
    gap = kit.gap
    smallest = kit.card_height()
    narrowest = kit.width_of("×", kit.floor) + kit.line_height(kit.floor) + 8
    largest = max(smallest, min(body.height, int(kit.unit * 0.28)))
    for card_h in range(largest, smallest - 1, -1):
        card_w = max(int(card_h * CARD_RATIO), narrowest)
        per_row = max(1, (body.width + gap) // (card_w + gap))
        rows = max(0, (body.height + gap) // (card_h + gap))
        if per_row * rows >= count:
            return count, card_w, card_h, per_row
    capacity = max(0, per_row * rows - 1)  # the last place says how many more
    return capacity, card_w, card_h, per_row
