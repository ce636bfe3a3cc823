"""The history: best and average score per table and variant, then the games, newest
first, each on two lines (when, score and rating; who played and the variant). A game
left unfinished says so; at the top of the list (NEXT, PREVIOUS) OK or a tap takes it
up again."""

from __future__ import annotations

import pygame

from companion.core import i18n
from companion.core.controller import RESUME_ROW, Controller, Info
from companion.core.stats_words import figures_short, setup_label
from companion.core.words import game_lines
from companion.panel.screens.game import message_text
from companion.panel.screens.kit import ACCENT, DIM, TEXT, WARN, Kit
from companion.panel.screens.lists import page_title
from hardware.events import InputEvent, Key, Press, Select

#: The notices the history screen says (reading the history failed, a game would not
#: resume, resuming would abandon the game in play); others belong to the screen they
#: were said on.
SAID_HERE = ("history_unreadable", "game_damaged_kept_aside", "resume_keeps_the_game")


#: The players whose figures the History shows after its last game (most games first;
#: the phone shows them all).
PLAYERS_SHOWN = 3


def draw(kit: Kit, surface: pygame.Surface, controller: Controller) -> None:
    lang = controller.language
    w, h, pad = kit.width, kit.height, kit.pad
    inner_w = w - 2 * pad
    layout = kit.layout()
    title = page_title(kit, surface, layout, i18n.tr(lang, "history"))
    games, stats = controller.history or ([], [])
    focused = controller.history_focus()
    back = (i18n.tr(lang, "resume") if controller.game else "OK", Press(Key.BACK))
    buttons: list[tuple[str, InputEvent]] = [("<", Press(Key.PREVIOUS)), (">", Press(Key.NEXT))]
    if focused is not None and focused.resumable:  # OK takes the game at the top up again
        buttons.append((i18n.tr(lang, "history_resume", game=focused.id), Press(Key.OK)))
    else:
        buttons.append(back)
    bar_h = kit.bar_height([label for label, _ in buttons], inner_w)
    bar = layout.place("buttons", pygame.Rect(pad, h - pad - bar_h, inner_w, bar_h))
    kit.button_bar(surface, bar, buttons)

    blocks: list[tuple[str, tuple[int, int, int], bool]] = []  # text, colour, focused
    message = controller.message
    if isinstance(message, Info) and message.key in SAID_HERE:
        blocks.append((*message_text(controller), False))
    if stats:
        blocks.append((i18n.tr(lang, "stats_columns"), DIM, False))
        for stat in stats:
            blocks.append((figures_short(setup_label(lang, stat), stat), TEXT, False))
    if not games:
        blocks.append((i18n.tr(lang, "history_empty"), DIM, False))
    first_game = len(blocks)  # where the games' lines begin
    for row in games[controller.scroll :]:
        first, second = game_lines(lang, row)
        top = row is focused and row.resumable
        blocks.append((first, WARN if row.damaged else (ACCENT if top else TEXT), top))
        if second:
            blocks.append((second, DIM, top))
    y = title.bottom + pad
    if controller.scroll == 0 and games:  # the players most seen, where the first game stays
        lines = 2 if game_lines(lang, games[0])[1] else 1
        before = [kit.height_of(text, kit.floor, inner_w) + pad for text, _, _ in blocks]
        room = bar.top - pad - y - sum(before[: first_game + lines])  # through the first game
        players: list[tuple[str, tuple[int, int, int], bool]] = []
        for player in [None, *controller.player_stats[:PLAYERS_SHOWN]]:
            text = (
                i18n.tr(lang, "stats_players")
                if player is None
                else figures_short(player.name, player)
            )
            room -= kit.height_of(text, kit.floor, inner_w) + pad
            if room < 0:
                break
            players.append((text, DIM if player is None else TEXT, False))
        if len(players) > 1:  # a heading with no player under it says nothing
            blocks[first_game:first_game] = players
    for i, (text, color, is_focused) in enumerate(blocks):
        box_h = kit.height_of(text, kit.floor, inner_w)
        if y + box_h > bar.top - pad:
            break
        box = layout.place(f"line {i}", pygame.Rect(pad, y, inner_w, box_h))
        kit.text(surface, text, box, color=color)
        if is_focused:  # a tap on the game at the top takes it up again
            kit.target(box, Select(RESUME_ROW))
        y = box.bottom + (pad if color is DIM else 0)
