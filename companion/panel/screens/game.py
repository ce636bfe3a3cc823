"""The game screen: whose turn, fuses, draw pile, fireworks, hint tokens, what just
happened, score/max/pace, the final round, the discard pile, the buttons.

Top to bottom: whose turn (with the fuses and the draw pile beside it when they fit
on one row, else at the right of the tokens), the fireworks, the hand strip (hand
memory), the hint tokens, what just happened, the score line, the buttons; a wide
panel shows the discard pile on the right, a tall one under the tokens; otherwise it
is a page of its own (NEXT, or a tap on the fireworks). Every region keeps its place
and size for the whole game (:mod:`~companion.panel.screens.table`).
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
from companion.core.story_words import efficiency_text
from companion.core.words import score_words, special_suit_text, turn_text, turn_words
from companion.panel.screens import actions, hand, piles, table
from companion.panel.screens.kit import (
    ACCENT,
    DARK_INK,
    DIM,
    PANEL,
    PANEL_LIGHT,
    RGB,
    TEXT,
    WARN,
    Kit,
    Layout,
)
from companion.panel.screens.table import pile_on_table
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
    keys = (Key.HINT, Key.PLAY, Key.DISCARD, Key.UNDO, Key.MENU)
    return [(label, Press(key)) for label, key in zip(table.buttons(lang), keys, strict=True)]


def table_layout(kit: Kit, controller: Controller) -> table.TableLayout | None:
    """The table page's regions for the game on show (None: no game)."""
    game = controller.game
    if game is None:
        return None
    setup = game.setup
    return table.table_layout(
        kit,
        setup.names,
        len(setup.suits),
        setup.hand_size,
        hand_memory=controller.hand_memory,
        lang=controller.language,
        special=special_suit_text(controller.language, game),
    )


def shows_pile(kit: Kit, controller: Controller) -> bool:
    """Whether the table page shows the discard pile (then it has no page of its own):
    a wide or a tall panel's, unless the game's set-up leaves a tall one too little room."""
    plan = table_layout(kit, controller)
    if plan is None:
        return pile_on_table((kit.width, kit.height))
    return plan.pile is not None


def draw(kit: Kit, surface: pygame.Surface, controller: Controller) -> None:
    page = controller.page
    kit.regions = {}
    if controller.hand_memory and page is GamePage.HANDS:
        draw_hands_page(kit, surface, controller)
        return
    plan = table_layout(kit, controller)
    game, lang = controller.game, controller.language
    assert game is not None and plan is not None
    if page is GamePage.DISCARDS and plan.pile is not None:
        page = GamePage.TABLE  # the table shows the pile: one pile view, not two
    layout = kit.layout()
    bar = layout.place("buttons", plan.buttons)
    kit.button_bar(surface, bar, buttons(lang))
    if plan.beside or page is GamePage.TABLE:
        # the fuses and the draw pile: on a page, where they share the turn's row (else
        # the page takes the tokens' row with the rest: they are a NEXT away)
        kit.fuses(surface, layout.place("fuses", plan.fuses), game.position.fuses)
        _draw_deck(kit, surface, layout.place("deck", plan.deck), game.position.deck)
    if page is not GamePage.TABLE:
        _draw_page(kit, surface, controller, page, plan, layout)
        return
    turn = turn_text(lang, game, short=plan.short_names)
    _top_lines(kit, surface, turn, layout.place("turn", plan.turn), kit.big, ACCENT)

    regions = plan.regions()
    kit.regions = {name: rect.move(kit.origin) for name, rect in regions.items()}
    piles.fireworks(kit, surface, game, layout.place("fireworks", plan.fireworks))
    if plan.hand is not None:
        _draw_hand(kit, surface, layout.place("hand", plan.hand), game, plan)
    kit.tokens(
        surface, layout.place("tokens", plan.tokens), game.position.hints, game.setup.hint_cost
    )
    if plan.pile is not None:
        pile = layout.place("pile", plan.pile)
        pygame.draw.rect(surface, PANEL, pile, border_radius=8)
        piles.discards(kit, surface, game, table.pile_body(kit, pile), lang)
    message_box = layout.place("message", plan.message)
    score_box = layout.place("score", plan.score)
    if not _draw_status(kit, surface, controller, message_box, score_box):
        score = score_words(
            lang,
            game.score,
            game.max_score,
            game.pace,
            efficiency_text(lang, game) if plan.efficiency else "",
            special_suit_text(lang, game) if plan.special else "",
        )
        _top_lines(kit, surface, score, score_box, plan.score_size, DIM)
    if plan.special_line is not None:  # what the multicolour cards stand for, apart
        special = special_suit_text(lang, game)
        _top_lines(
            kit, surface, special, layout.place("special", plan.special_line), kit.floor, DIM
        )
    # the fireworks' area turns the page when tapped
    main = plan.fireworks.union(plan.tokens)
    kit.target(pygame.Rect(0, main.top, main.right + kit.pad, main.height), Press(Key.NEXT))


def _draw_page(
    kit: Kit,
    surface: pygame.Surface,
    controller: Controller,
    page: GamePage,
    plan: table.TableLayout,
    layout: Layout,
) -> None:
    """A page of its own (the discard pile, the recent actions): under whose turn (the
    final round's order where it fits; a notice in its place while there is one), the
    whole width down to the buttons, the same for the whole game; a tap turns it."""
    game, lang = controller.game, controller.language
    assert game is not None
    pad = kit.pad
    band = plan.page_turn
    turn = turn_text(lang, game, short=plan.short_names)
    if len(kit.lines(turn, kit.big, band.width)) * kit.line_height(kit.big) > band.height:
        turn = turn_words(lang, game.setup.names, game.position.current, None)
    notice = controller.notice
    if notice:
        _draw_notice(kit, surface, controller, notice, layout.place("notice", band))
    else:
        _top_lines(kit, surface, turn, layout.place("turn", band), kit.big, ACCENT)
    top = band.bottom + pad
    if plan.beside:
        top = max(top, plan.fuses.bottom + pad)
    area = pygame.Rect(pad, top, kit.width - 2 * pad, plan.buttons.top - pad - top)
    area = layout.place(page.value, area)
    if page is GamePage.DISCARDS:
        piles.discards(kit, surface, game, area, lang)
    else:
        actions.draw_list(kit, surface, game, area, lang)
    kit.target(area, Press(Key.NEXT))


def _draw_status(
    kit: Kit,
    surface: pygame.Surface,
    controller: Controller,
    box: pygame.Rect,
    score: pygame.Rect,
) -> bool:
    """The last action's box, two lines: a refusal or a notice line (the answer to a
    key) first, else the notice (a device, a finding: a tap on it is its OK), else what
    just happened; shortened with "…" where it does not fit, never smaller. A notice
    longer than the box takes the score line's place too (it is drawn again once the
    notice goes): return whether it did."""
    message = controller.message
    notice = controller.notice
    if notice and not isinstance(message, Refused | Info):
        inner = box.width - 2 * kit.pad
        lines = len(kit.lines(notice, kit.floor, inner))
        if lines * kit.line_height(kit.floor) > box.height:
            _draw_notice(kit, surface, controller, notice, box.union(score))
            return True
        _draw_notice(kit, surface, controller, notice, box)
        return False
    words, color = message_text(controller)
    if words:
        _top_lines(kit, surface, words, box, kit.floor, color, shorten=True)
    return False


def _draw_notice(
    kit: Kit, surface: pygame.Surface, controller: Controller, notice: str, box: pygame.Rect
) -> None:
    """A notice on a band of the warning colour, in a box of fixed lines."""
    pygame.draw.rect(surface, WARN, box, border_radius=4)
    inner = box.inflate(-2 * kit.pad, 0)
    _top_lines(kit, surface, notice, inner, kit.floor, DARK_INK, shorten=True)
    if controller.findings:  # a tap on the band is its OK: the finding was seen
        kit.target(box, Press(Key.OK))


def _top_lines(
    kit: Kit,
    surface: pygame.Surface,
    text: str,
    box: pygame.Rect,
    size: int,
    color: RGB,
    *,
    shorten: bool = False,
) -> None:
    """``text`` at ``size`` (never smaller), from the top of ``box``: as many lines as
    it takes, and as ``box`` holds (``shorten``: the rest cut with "…")."""
    line_h = kit.line_height(size)
    rows = min(len(kit.lines(text, size, box.width)), max(1, box.height // line_h))
    lines_box = pygame.Rect(box.left, box.top, box.width, rows * line_h)
    kit.text(surface, text, lines_box, size=size, floor=size, color=color, shorten=shorten)


def _draw_deck(kit: Kit, surface: pygame.Surface, rect: pygame.Rect, cards: int) -> None:
    """The draw pile: a card back and the number of cards left."""
    back = pygame.Rect(rect.left, rect.top, int(rect.height * 0.72), rect.height)
    pygame.draw.rect(surface, PANEL_LIGHT, back, border_radius=4)
    pygame.draw.rect(surface, DIM, back, 2, border_radius=4)
    number = pygame.Rect(
        back.right + kit.pad, rect.top, rect.right - back.right - kit.pad, rect.height
    )
    kit.text(surface, str(cards), number, size=kit.figure, floor=kit.figure)


def _draw_hand(
    kit: Kit, surface: pygame.Surface, rect: pygame.Rect, game: Game, plan: table.TableLayout
) -> None:
    """The hand memory of the player to act, their name at its left in a column of its
    own (in the turn line's colour, shortened where the slots need the room), or on a
    line above the slots where even its beginning does not fit beside them."""
    seat = game.position.current
    memory = game.hand_memory(seat)
    names = game.setup.names
    column = plan.hand_name_w
    if not column:  # the name on a line above the slots
        line = kit.line_height(kit.floor)
        kit.text(
            surface, names[seat], pygame.Rect(rect.left, rect.top, rect.width, line), color=ACCENT
        )
        slots = pygame.Rect(rect.left, rect.top + line, rect.width, rect.height - line)
        hand.draw_row(kit, surface, slots, memory, _colors(game))
        return
    label = next(
        (
            label
            for label in table.name_labels(names[seat], names)
            if kit.width_of(label, kit.floor) <= column
        ),
        names[seat][:3],
    )
    label_box = pygame.Rect(rect.left, rect.top, column, rect.height)
    kit.text(surface, label, label_box, color=ACCENT)
    slots = pygame.Rect(
        label_box.right + kit.pad, rect.top, rect.right - label_box.right - kit.pad, rect.height
    )
    hand.draw_row(kit, surface, slots, memory, _colors(game))


def _colors(game: Game) -> list[Color]:
    return [suit.color for suit in game.setup.suits]


def draw_hands_page(kit: Kit, surface: pygame.Surface, controller: Controller) -> None:
    """Every player's hand memory, under a title where the slots keep two lines with it
    (a notice above, while there is one); a tap anywhere (or NEXT) turns back to the
    table."""
    game, lang = controller.game, controller.language
    assert game is not None
    w, h, pad = kit.width, kit.height, kit.pad
    layout = kit.layout()
    names = game.setup.names
    hands = [game.hand_memory(seat) for seat in range(game.setup.players)]
    widest = max(len(memory) for memory in hands)
    kit.target(pygame.Rect(0, 0, w, h), Press(Key.NEXT))  # under the notice's OK, if any
    top = pad
    notice = controller.notice
    if notice:  # a notice above the hands, on a line of its own (no banner over them)
        band = pygame.Rect(pad, pad, w - 2 * pad, kit.line_height(kit.floor))
        _draw_notice(kit, surface, controller, notice, layout.place("notice", band))
        top = band.bottom + pad
    title_h = kit.line_height(kit.big) + pad
    area = pygame.Rect(pad, top + title_h, w - 2 * pad, h - top - title_h - pad)
    if not hand.hands_fit(kit, area, names, widest):
        area = pygame.Rect(pad, top, w - 2 * pad, h - top - pad)  # no title: room for the slots
    else:
        title_box = layout.place("title", pygame.Rect(pad, top, w - 2 * pad, title_h - pad))
        kit.text(surface, i18n.tr(lang, "hands"), title_box, size=kit.big, color=ACCENT)
    hand.draw_hands(kit, surface, layout, area, names, hands, _colors(game), game.current_player)
