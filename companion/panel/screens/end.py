"""The end screen: the score, the rating and its sentence, why the game ended, who
played, the hands shown (the whole deal known, once every hand is), the fireworks, the
figures; NEXT (or the Discard pile button) shows the figures and the discard pile as a
page of its own, then the actions, and with hand memory every player's hand as the game
left them. With hand memory, "Show hands" (HINT) opens the reveal screen until every hand
is shown."""

from __future__ import annotations

import pygame

from companion.core import i18n
from companion.core.controller import Controller, GamePage
from companion.panel.screens import actions, piles, play_log, story
from companion.panel.screens.game import draw_hands_page as hands_page
from companion.panel.screens.kit import ACCENT, DIM, TEXT, Kit
from engine.game import EventKind, Game
from engine.outcome import Outcome
from hardware.events import InputEvent, Key, Press

#: The end screen's NEXT button names the page it turns to.
_PAGE_LABEL = {
    GamePage.TABLE: "back_to_score",
    GamePage.DISCARDS: "discards",
    GamePage.ACTIONS: "recent_actions",
    GamePage.HANDS: "hands",
    GamePage.STORY: "story",
    GamePage.PLAY_LOG: "play_log",
    GamePage.REPLAY: "replay",
}


def _buttons(controller: Controller) -> list[tuple[str, InputEvent]]:
    lang, page, pages = controller.language, controller.page, controller.pages
    following = pages[(pages.index(page) + 1) % len(pages)] if page in pages else pages[0]
    toggle = i18n.tr(lang, _PAGE_LABEL.get(following, "back_to_score"))
    show: list[tuple[str, InputEvent]] = []
    if controller.can_show_hands():  # HINT, the first of the buttons
        show = [(i18n.tr(lang, "show_hands"), Press(Key.HINT))]
    return [
        *show,
        (i18n.tr(lang, "button_undo"), Press(Key.UNDO)),
        (toggle, Press(Key.NEXT)),
        (i18n.tr(lang, "new_game"), Press(Key.OK)),
    ]


def figures(lang: str, game: Game) -> str:
    kinds = [event.kind for event in game.events]
    return " · ".join(
        [
            i18n.counted(lang, "turns", len(game.events)),
            i18n.counted(lang, "hints", kinds.count(EventKind.HINT)),
            i18n.counted(lang, "discards", kinds.count(EventKind.DISCARD)),
            i18n.counted(lang, "misplays", kinds.count(EventKind.MISPLAY)),
        ]
    )


def draw(kit: Kit, surface: pygame.Surface, controller: Controller) -> None:
    game, lang = controller.game, controller.language
    assert game is not None
    if controller.hand_memory and controller.page is GamePage.HANDS:
        hands_page(kit, surface, controller)  # as the game screen's: a tap turns it
        return
    w, h, pad = kit.width, kit.height, kit.pad
    inner_w = w - 2 * pad
    layout = kit.layout()
    buttons = _buttons(controller)
    if controller.page is GamePage.PLAY_LOG and controller.end_link() is not None:
        play_log.draw(kit, surface, controller, buttons, play_log.play_log_page(controller))
        return
    if controller.page is GamePage.REPLAY and controller.replay_end() is not None:
        play_log.draw(kit, surface, controller, buttons, play_log.replay_page(controller))
        return
    if controller.page is GamePage.STORY:
        story.draw(kit, surface, controller, buttons)
        return
    bar_h = kit.bar_height([label for label, _ in buttons], inner_w)
    bar = layout.place("buttons", pygame.Rect(pad, h - pad - bar_h, inner_w, bar_h))
    kit.button_bar(surface, bar, buttons)
    figures_text = figures(lang, game)
    figures_h = kit.height_of(figures_text, kit.floor, inner_w)
    if controller.page in (GamePage.DISCARDS, GamePage.ACTIONS):
        # the figures, then the discard pile or the actions
        figures_box = layout.place("figures", pygame.Rect(pad, pad, inner_w, figures_h))
        kit.text(surface, figures_text, figures_box, color=DIM, align="center")
        top = figures_box.bottom + pad
        area = layout.place("page", pygame.Rect(pad, top, inner_w, bar.top - pad - top))
        if controller.page is GamePage.DISCARDS:
            piles.discards(kit, surface, game, area, lang)
        else:
            actions.draw_list(kit, surface, game, area, lang)
        return

    # the score, large, with "/ 25" under it; the rating and its sentence beside it
    score_h = int(kit.unit * 0.28)
    out_of = f"/ {game.setup.max_score}"
    score_w = max(kit.width_of("25", score_h), kit.width_of(out_of, kit.floor)) + 2 * pad
    score_box = layout.place("score", pygame.Rect(pad, pad, score_w, score_h))
    kit.text(surface, str(game.score), score_box, size=score_h, color=ACCENT, align="center")
    floor_line = kit.line_height(kit.floor)
    out_box = layout.place("out of", pygame.Rect(pad, score_box.bottom, score_w, floor_line))
    kit.text(surface, out_of, out_box, color=DIM, align="center")

    rating, reason = game.rating, game.end_reason
    assert reason is not None
    reason_text = i18n.end_reason_text(lang, reason, game.setup.names[game.position.current])
    if rating is not None:
        title, sentence = i18n.rating_title(lang, rating), i18n.rating_sentence(lang, rating)
    else:
        won = game.outcome is Outcome.WON
        title = i18n.tr(lang, "end_perfect") if won else i18n.tr(lang, "lost")
        sentence = reason_text
    right_w = w - score_box.right - 2 * pad
    title_h = kit.height_of(title, kit.big, right_w)
    title_box = layout.place("rating", pygame.Rect(score_box.right + pad, pad, right_w, title_h))
    kit.text(surface, title, title_box, size=kit.big, floor=kit.big, color=TEXT)
    sentence_h = kit.height_of(sentence, kit.floor, right_w)
    sentence_box = layout.place(
        "sentence", pygame.Rect(title_box.left, title_box.bottom, right_w, sentence_h)
    )
    kit.text(surface, sentence, sentence_box, color=DIM)

    # then, full width: why it ended, who played, the fireworks, the figures
    y = max(out_box.bottom, sentence_box.bottom) + pad
    lines = []
    if rating is not None:  # otherwise the reason is already the sentence
        lines.append(("reason", reason_text, ACCENT))
    lines.append(("names", ", ".join(game.setup.names), TEXT))
    shown = controller.reveal_words()
    if shown:  # the Hanab Live replay's link comes beside it once the deal is known
        lines.append(("revealed", shown, ACCENT if controller.reveals.complete else DIM))
        # where the fireworks would have no room left, the names go (the pages name them)
        below = sum(kit.height_of(text, kit.floor, inner_w) + pad for _, text, _ in lines)
        if y + below + kit.flat_card_height() + pad > bar.top:
            lines = [line for line in lines if line[0] != "names"]
    for name, text, color in lines:
        box_h = kit.height_of(text, kit.floor, inner_w)
        box = layout.place(name, pygame.Rect(pad, y, inner_w, box_h))
        kit.text(surface, text, box, color=color, align="center")
        y = box.bottom + pad
    # the figures above the buttons, where there is room (they head the discard page too)
    figures_box = pygame.Rect(pad, bar.top - pad - figures_h, inner_w, figures_h)
    if figures_box.top - pad - y >= kit.flat_card_height():
        layout.place("figures", figures_box)
        kit.text(surface, figures_text, figures_box, color=DIM, align="center")
    else:
        figures_box.top = bar.top
    # the fireworks in the room left: cards, or flat cards on the smallest panels
    room = min(figures_box.top - pad - y, int(kit.unit * 0.25))
    fireworks_h = max(kit.flat_card_height(), room)
    box = layout.place("fireworks", pygame.Rect(pad, y, inner_w, fireworks_h))
    piles.fireworks(kit, surface, game, box)
