"""The game screen: whose turn, fuses, draw pile, fireworks, hint tokens, what just
happened, score/max/pace, the final round, the discard pile, the buttons.

Top to bottom: whose turn (with the fuses and the draw pile beside it when they fit
on one row), the fireworks, the hint tokens, what just happened, the score line, the
final round, the buttons. The fireworks take the height left; a wide panel shows the
discard pile on the right, a tall one below the score; otherwise it is a page of its
own (NEXT, or a tap on the fireworks) in place of the fireworks and the last action.
"""

from __future__ import annotations

import pygame

from companion.core import i18n
from companion.core.controller import (
    Controller,
    GamePage,
    Info,
    Refused,
    Shown,
    Undone,
    message_words,
)
from companion.core.words import score_text, short_names, turn_text
from companion.panel.screens import actions, hand, piles
from companion.panel.screens.kit import (
    ACCENT,
    BACKGROUND,
    DIM,
    MENU_ICON,
    PANEL,
    PANEL_LIGHT,
    RGB,
    TEXT,
    WARN,
    Kit,
)
from engine.cards import Color
from engine.game import Game
from hardware.events import InputEvent, Key, Press


def message_text(controller: Controller) -> tuple[str, RGB]:
    """The status line: what just happened, a refusal, an undo, a notice."""
    message = controller.message
    per_token = controller.game.setup.hint_cost if controller.game is not None else 1
    words = message_words(controller.language, message, controller.names, per_token)
    if isinstance(message, Refused | Info):
        return words, WARN
    if isinstance(message, Undone) or (isinstance(message, Shown) and message.undone):
        return words, ACCENT
    return words, TEXT


def buttons(lang: str) -> list[tuple[str, InputEvent]]:
    return [
        (i18n.tr(lang, "button_hint"), Press(Key.HINT)),
        (i18n.tr(lang, "button_play"), Press(Key.PLAY)),
        (i18n.tr(lang, "button_discard"), Press(Key.DISCARD)),
        (i18n.tr(lang, "button_undo"), Press(Key.UNDO)),
        (MENU_ICON, Press(Key.MENU)),
    ]


def pile_on_table(size: tuple[int, int]) -> bool:
    """Whether a panel shows the discard pile on the table page: beside the fireworks
    on a wide one (700 px and more across), below them on a tall one (700 px and more
    high). Elsewhere the pile is a page of its own."""
    width, height = size
    return max(width, height) >= 700 and width != height


def draw(kit: Kit, surface: pygame.Surface, controller: Controller) -> None:
    page = controller.page
    if controller.hand_memory and page is GamePage.HANDS:
        draw_hands_page(kit, surface, controller)
        return
    if page is GamePage.DISCARDS and pile_on_table((kit.width, kit.height)):
        page = GamePage.TABLE  # the table shows the pile: one pile view, not two
    # The roomy layout first; on a panel where the fireworks would not fit (five long
    # names in the final round at 320x240), the compact one: the fuses and the draw
    # pile join the tokens' row, the players after the current one are shortened, and
    # the fireworks may be flat cards.
    if not _draw(kit, surface, controller, page, compact=False):
        surface.fill(BACKGROUND)
        kit.texts.clear()
        kit.targets.clear()
        kit.pile.clear()
        _draw(kit, surface, controller, page, compact=True)


def _draw(
    kit: Kit, surface: pygame.Surface, controller: Controller, page: GamePage, *, compact: bool
) -> bool:
    """Draw the game screen; False (and nothing sure) when the fireworks do not fit."""
    game, lang = controller.game, controller.language
    assert game is not None
    w, h, pad = kit.width, kit.height, kit.pad
    portrait = h > w
    wide = not portrait and pile_on_table((w, h))
    pile_below = portrait and pile_on_table((w, h))
    main_w = int(w * 0.6) if wide else w
    inner_w = main_w - 2 * pad
    # a wide panel: the turn row spans both columns, the discard pile is the right one
    full_w = w - 2 * pad if wide else inner_w
    layout = kit.layout()
    big_line, floor_line = kit.line_height(kit.big), kit.line_height(kit.floor)
    # the top row: whose turn, the fuses, the draw pile's count as high as a key figure
    row_h = max(big_line, kit.line_height(kit.figure))

    bar_buttons = buttons(lang)
    bar_h = kit.bar_height([label for label, _ in bar_buttons], w - 2 * pad)
    bar = layout.place("buttons", pygame.Rect(pad, h - bar_h - pad, w - 2 * pad, bar_h))

    # whose turn (in the final round: and who after); the fuses and the draw pile beside
    # it, on a row below when it is long, in the tokens' row when compact
    turn = turn_text(lang, game, short=compact)
    fuses_w = int(row_h * 3.3)
    deck_w = int(row_h * 0.72) + pad + kit.width_of("50", kit.figure)
    beside = full_w - fuses_w - deck_w - 4 * pad
    if not portrait and kit.width_of(turn, kit.big) <= beside:
        turn_box = layout.place("turn", pygame.Rect(pad, pad, beside, row_h))
        fuses = pygame.Rect(turn_box.right + 2 * pad, pad, fuses_w, row_h)
    else:
        turn_h = kit.height_of(turn, kit.big, full_w)
        turn_box = layout.place("turn", pygame.Rect(pad, pad, full_w, turn_h))
        fuses = pygame.Rect(pad, turn_box.bottom + pad, fuses_w, row_h)
    kit.text(surface, turn, turn_box, size=kit.big, floor=kit.big, color=ACCENT)
    deck = pygame.Rect(fuses.right + 2 * pad, fuses.top, deck_w, row_h)

    if page is not GamePage.TABLE:
        # a page of its own (the discard pile, the recent actions): under whose turn,
        # the whole width down to the buttons; the fuses and the draw pile where they
        # share the turn's row (else the page takes their row: they are a NEXT away);
        # a tap on the page turns it
        top = turn_box.bottom + pad
        if fuses.top == turn_box.top:
            layout.place("fuses", fuses)
            kit.fuses(surface, fuses, game.position.fuses)
            layout.place("deck", deck)
            _draw_deck(kit, surface, deck, game.position.deck)
        area = layout.place(page.value, pygame.Rect(pad, top, w - 2 * pad, bar.top - pad - top))
        if page is GamePage.DISCARDS:
            piles.discards(kit, surface, game, area, lang)
        else:
            actions.draw_list(kit, surface, game, area, lang)
        kit.button_bar(surface, bar, bar_buttons)
        kit.target(area, Press(Key.NEXT))
        return True

    top = turn_box.bottom + pad if compact else fuses.bottom + pad

    # the bottom of the main column, from the buttons up
    bottom = bar.top - pad
    score = score_text(lang, game)
    score_h = kit.height_of(score, kit.big, inner_w)
    message, message_color = message_text(controller)
    message_h = kit.height_of(message, kit.floor, inner_w) if message else floor_line
    tokens_h = row_h if compact else max(row_h, int(kit.unit * 0.11))
    score_box = pygame.Rect(pad, bottom - score_h, inner_w, score_h)
    message_box = pygame.Rect(pad, score_box.top - pad - message_h, inner_w, message_h)
    tokens_box = pygame.Rect(pad, message_box.top - pad - tokens_h, inner_w, tokens_h)
    if compact:  # the fuses and the draw pile at the right of the tokens
        deck = pygame.Rect(tokens_box.right - deck_w, tokens_box.top, deck_w, tokens_h)
        fuses = pygame.Rect(deck.left - 2 * pad - fuses_w, tokens_box.top, fuses_w, tokens_h)
        tokens_box.width = fuses.left - 2 * pad - tokens_box.left

    # with hand memory, the hand of the player to act: under the fireworks, or on a wide
    # panel at the top of the right-hand column, above the discard pile
    # (compact: the slots one line high)
    tile_h = hand.flat_tile_height(kit) if compact else hand.tile_height(kit)
    side_hand_h = tile_h + pad if controller.hand_memory and wide else 0
    hand_h = tile_h + pad if controller.hand_memory and not wide else 0
    # the fireworks take what is left, up to 0.3 of the panel; on a tall panel the
    # pile takes the rest, under the tokens
    room = tokens_box.top - pad - top - hand_h
    if room < kit.card_height() and not compact:
        return False
    # compact: the fireworks may be flat cards, the symbol and the rank on one line
    least = kit.flat_card_height() if compact else kit.card_height()
    if room < least and hand_h:
        # the tightest case (five long names in the final round and a refusal on a
        # 240x320): the hand stays on the hands page, a NEXT away
        room += hand_h
        hand_h = 0
    fireworks_h = max(least, min(room, int(kit.unit * 0.3)))
    if pile_below:  # the pile's share first: it is shown whole
        pile_need = _pile_height(kit, game, inner_w, lang)
        if room - pile_need < least and not compact:
            return False  # the compact layout leaves the pile more room
        fireworks_h = max(least, min(fireworks_h, room - pile_need))
    fireworks_box = pygame.Rect(pad, top, inner_w, fireworks_h)
    surplus = room - fireworks_h
    if not pile_below and surplus > 0:
        # the tokens under the fireworks and the status under them: the room left
        # stays above the buttons, where nothing is to be read
        for box in (tokens_box,) if wide else (tokens_box, message_box, score_box):
            box.move_ip(0, -surplus)
        if compact:
            fuses.move_ip(0, -surplus)
            deck.move_ip(0, -surplus)
    if pile_below:
        tokens_box.top = fireworks_box.bottom + hand_h + pad
        if compact:  # the fuses and the draw pile stay in the tokens' row
            fuses.top = deck.top = tokens_box.top
    layout.place("fuses", fuses)
    kit.fuses(surface, fuses, game.position.fuses)
    layout.place("deck", deck)
    _draw_deck(kit, surface, deck, game.position.deck)
    if pile_below:
        pile_top = tokens_box.bottom + pad
        pile_box = pygame.Rect(pad, pile_top, inner_w, message_box.top - pad - pile_top)
        layout.place("pile", pile_box)
        pygame.draw.rect(surface, PANEL, pile_box, border_radius=8)
        piles.discards(kit, surface, game, pile_box.inflate(-2 * pad, -2 * pad), lang)
    layout.place("fireworks", fireworks_box)
    piles.fireworks(kit, surface, game, fireworks_box)
    if hand_h:
        hand_box = pygame.Rect(pad, fireworks_box.bottom + pad, inner_w, hand_h - pad)
        _draw_hand(kit, surface, layout.place("hand", hand_box), game, lang)
    side_top = top + side_hand_h
    side = pygame.Rect(main_w + pad, side_top, w - main_w - 2 * pad, bar.top - pad - side_top)
    if side_hand_h:
        hand_box = pygame.Rect(side.left, top, side.width, side_hand_h - pad)
        _draw_hand(kit, surface, layout.place("hand", hand_box), game, lang)
    layout.place("tokens", tokens_box)
    kit.tokens(surface, tokens_box, game.position.hints, game.setup.hint_cost)
    if wide:
        layout.place("side", side)
        pygame.draw.rect(surface, PANEL, side, border_radius=8)
        piles.discards(kit, surface, game, side.inflate(-2 * pad, -2 * pad), lang)

    if message:
        layout.place("message", message_box)
        kit.text(surface, message, message_box, color=message_color)
    layout.place("score", score_box)
    kit.text(surface, score, score_box, size=kit.big, floor=kit.big, color=DIM)

    kit.button_bar(surface, bar, bar_buttons)
    # the fireworks' area turns the page when tapped
    kit.target(pygame.Rect(0, top, main_w, tokens_box.bottom - top), Press(Key.NEXT))
    return True


def _pile_height(kit: Kit, game: Game, width: int, lang: str) -> int:
    """The height the discard pile needs below the fireworks (a tall panel): its panel's
    margins, and the gap above it."""
    inner = width - 2 * kit.pad
    return piles.pile_height(kit, game, inner, lang) + 4 * kit.pad + kit.gap


def _draw_deck(kit: Kit, surface: pygame.Surface, rect: pygame.Rect, cards: int) -> None:
    """The draw pile: a card back and the number of cards left."""
    back = pygame.Rect(rect.left, rect.top, int(rect.height * 0.72), rect.height)
    pygame.draw.rect(surface, PANEL_LIGHT, back, border_radius=4)
    pygame.draw.rect(surface, DIM, back, 2, border_radius=4)
    number = pygame.Rect(
        back.right + kit.pad, rect.top, rect.right - back.right - kit.pad, rect.height
    )
    kit.text(surface, str(cards), number, size=kit.figure, floor=kit.figure)


def _draw_hand(kit: Kit, surface: pygame.Surface, rect: pygame.Rect, game: Game, lang: str) -> None:
    """The hand memory of the player to act, their name at its left (in the turn line's
    colour, shortened where the slots need the room)."""
    seat = game.position.current
    memory = game.hand_memory(seat)
    name = game.setup.names[seat]
    room = rect.width - hand.row_width(kit, len(memory)) - kit.pad
    for label in (name, *short_names([name], game.setup.names), name[:3]):
        if kit.width_of(label, kit.floor) <= room:
            label_box = pygame.Rect(
                rect.left, rect.top, kit.width_of(label, kit.floor), rect.height
            )
            kit.text(surface, label, label_box, color=ACCENT)
            rect = pygame.Rect(
                label_box.right + kit.pad,
                rect.top,
                rect.right - label_box.right - kit.pad,
                rect.height,
            )
            break
    hand.draw_row(kit, surface, rect, memory, _colors(game))


def _colors(game: Game) -> list[Color]:
    return [suit.color for suit in game.setup.suits]


def draw_hands_page(kit: Kit, surface: pygame.Surface, controller: Controller) -> None:
    """Every player's hand memory, under a title where the slots keep two lines with it;
    a tap anywhere (or NEXT) turns back to the table."""
    game, lang = controller.game, controller.language
    assert game is not None
    w, h, pad = kit.width, kit.height, kit.pad
    layout = kit.layout()
    names = game.setup.names
    hands = [game.hand_memory(seat) for seat in range(game.setup.players)]
    widest = max(len(memory) for memory in hands)
    title_h = kit.line_height(kit.big) + pad
    area = pygame.Rect(pad, pad + title_h, w - 2 * pad, h - title_h - 2 * pad)
    if not hand.hands_fit(kit, area, names, widest):
        area = pygame.Rect(pad, pad, w - 2 * pad, h - 2 * pad)  # no title: room for the slots
    else:
        title_box = layout.place("title", pygame.Rect(pad, pad, w - 2 * pad, title_h - pad))
        kit.text(surface, i18n.tr(lang, "hands"), title_box, size=kit.big, color=ACCENT)
    hand.draw_hands(kit, surface, layout, area, names, hands, _colors(game), game.current_player)
    kit.target(pygame.Rect(0, 0, w, h), Press(Key.NEXT))
