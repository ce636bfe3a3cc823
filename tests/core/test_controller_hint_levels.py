"""Hints at three levels (issue 33): count only, content (colour or rank, no slots), slots.

Each level is reached from every input of the panel: the keyboard through the real key
table, the touch screen by taps on what the real renderer drew (at each panel size), and
the GPIO buttons as soft keys under the choices shown. What a content-level hint said is
on the last-action line and the actions page, drawn by the real renderer, in every
language; the set-up's Hints row cycles the three levels, and the draft remembers it.
"""

from __future__ import annotations

import os

import pygame
import pytest
from support.table_stories import HINT, R, Y, drive, recorded, soft_key

from companion.core import i18n
from companion.core.controller import (
    HINT_LEVEL_ROW,
    MORE_CLUES,
    SETUP_ROWS,
    Beep,
    Controller,
    EntryKind,
    EntryStep,
    GamePage,
    Happened,
    HintLevel,
    Info,
    NotStored,
    Refused,
    SaveSettings,
    Screen,
    SetupDraft,
    StartGame,
    message_words,
)
from companion.panel.keys import key_event
from companion.panel.screens import Renderer
from companion.vocabulary.phone import PairedPhone, PhoneMove, hash_token
from engine import Hint
from engine.cards import Color
from engine.game import Game
from engine.options import GameOptions, Multicolor
from hardware.events import ChooseColor, ChooseRank, ChooseSeat, ChooseSlot, InputEvent, Key, Press

SIZES = [(800, 480), (480, 320), (320, 240)]


@pytest.fixture(autouse=True, scope="module")
def headless() -> None:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.font.init()


def table(level: HintLevel, players: int = 3, lang: str = "en") -> Controller:
    """A table whose set-up chose ``level`` and pressed Start (Ann, Bo, Cy…)."""
    draft = SetupDraft(players=players, names=["Ann", "Bo", "Cy", "Di", "Ed"], language=lang)
    draft.choose_hint_level(level)
    c = Controller(draft)
    effects = drive(c, Press(Key.OK))
    assert effects == [SaveSettings(draft.to_settings()), StartGame(draft.to_setup(), level)]
    assert c.hint_level is level
    return c


def keys(c: Controller, *names: str) -> list:
    """Keys typed, through the real key table; each must mean something where typed."""
    effects = []
    for name in names:
        event = key_event(name, c.screen, entry_step=c.entry_step())
        assert event is not None, f"{name!r} means nothing on {c.screen} {c.entry_step()}"
        effects.extend(c.handle(event))
    return effects


def drawn(c: Controller, size: tuple[int, int] = (480, 320)) -> Renderer:
    renderer = Renderer(size, strict=True)
    renderer.draw(pygame.Surface(size), c)
    return renderer


def tap(c: Controller, wanted: InputEvent, size: tuple[int, int] = (480, 320)) -> list:
    """A tap on what the screen drew for ``wanted`` (the last target under the finger
    wins, as the app resolves it)."""
    targets = drawn(c, size).targets
    reachable = any(
        next(event for box, event in reversed(targets) if box.collidepoint(x, y)) == wanted
        for rect, event in targets
        if event == wanted
        for y in range(rect.top, rect.bottom, 2)
        for x in range(rect.left, rect.right, 2)
    )
    assert reachable, f"no tap gives {wanted} on {c.screen} {c.entry_step()} at {size}"
    return c.handle(wanted)


def said(c: Controller, size: tuple[int, int] = (480, 320)) -> str:
    return " | ".join(text.text for text in drawn(c, size).texts)


# -- the count level: one press, as before ------------------------------------------------


def test_count_keys_touch_and_buttons_record_a_bare_hint_in_one_input():
    c = table(HintLevel.COUNT)
    assert recorded(keys(c, "h")) == [Hint(player=0)]
    assert recorded(tap(c, HINT)) == [Hint(player=1)]
    assert recorded(c.handle(HINT)) == [Hint(player=2)]  # the HINT button
    assert c.screen is Screen.GAME and c.entry is None
    assert message_words("en", c.message, c.names) == "Cy gave a hint"


# -- the content level: two presses ------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "meant"),
    [(("h", "r"), Hint(color=R, player=0)), (("h", "3"), Hint(rank=3, player=0))],
)
def test_content_keys_h_then_a_colour_letter_or_a_rank_digit(typed, meant):
    c = table(HintLevel.CONTENT)
    assert keys(c, typed[0]) == [] and c.screen is Screen.ENTRY
    assert c.entry is not None and c.entry.kind is EntryKind.HINT
    assert c.entry_step() is EntryStep.CLUE and c.game.actions == []  # nothing yet
    assert recorded(keys(c, typed[1])) == [meant]
    assert c.screen is Screen.GAME and c.entry is None
    assert c.game.position.hints == 7 and c.game.position.current == 1


def test_content_at_two_players_names_the_receiver_the_only_one():
    c = table(HintLevel.CONTENT, players=2)
    assert recorded(keys(c, "h", "y")) == [Hint(1, Y, player=0)]
    assert message_words("en", c.message, c.names) == "Ann told Bo: yellow"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("clue", [ChooseColor(Color.BLUE), ChooseRank(5)], ids=["blue", "5"])
def test_content_touch_the_hint_button_then_the_clue(size, clue):
    """Two taps where the screen shows every clue; a rank behind the colours' page is
    one tap more ("1-5 ›") where it does not."""
    c = table(HintLevel.CONTENT)
    tap(c, HINT, size)
    assert c.entry_step() is EntryStep.CLUE
    taps = 2
    if not any(event == clue for _rect, event in drawn(c, size).targets):
        tap(c, MORE_CLUES, size)
        taps += 1
    effects = tap(c, clue, size)
    color = clue.color if isinstance(clue, ChooseColor) else None
    rank = clue.rank if isinstance(clue, ChooseRank) else None
    assert recorded(effects) == [Hint(color=color, rank=rank, player=0)]
    assert taps <= 3 and (taps == 2 or size == (320, 240))


def test_content_buttons_hint_then_the_soft_key_of_the_clue():
    """The six buttons pick the tiles above them: red is under HINT (two presses of
    HINT), a rank is on the next page of clues (HINT, OK "1-5 ›", the rank's button)."""
    c = table(HintLevel.CONTENT)
    assert c.handle(HINT) == [] and c.soft_choices()[0] == ChooseColor(R)
    assert recorded(c.handle(HINT)) == [Hint(color=R, player=0)]  # the button under red
    c.handle(HINT)
    assert soft_key(c, MORE_CLUES) == Press(Key.OK)  # the sixth button, under "1-5 ›"
    c.handle(Press(Key.OK))
    assert soft_key(c, ChooseRank(4)) == Press(Key.UNDO)
    assert recorded(c.handle(Press(Key.UNDO))) == [Hint(rank=4, player=1)]


def test_content_six_suits_every_clue_within_four_presses():
    """Six suits: five colours on the first page of buttons, multicolor on the next,
    then the ranks; at most four presses for any clue."""
    clues: list[ChooseColor | ChooseRank] = [ChooseColor(color) for color in Color]
    for clue in [*clues, *(ChooseRank(rank) for rank in range(1, 6))]:
        draft = SetupDraft(players=3, options=GameOptions(multicolor=Multicolor.SHORT))
        c = Controller(draft)
        drive(c, Press(Key.OK))
        presses = 1
        c.handle(HINT)
        while clue not in c.soft_choices():
            c.handle(soft_key(c, MORE_CLUES))
            presses += 1
        effects = c.handle(soft_key(c, clue))
        color = clue.color if isinstance(clue, ChooseColor) else None
        rank = clue.rank if isinstance(clue, ChooseRank) else None
        assert recorded(effects) == [Hint(color=color, rank=rank, player=0)], clue
        assert presses + 1 <= 4, (clue, presses + 1)


def test_content_no_token_left_is_refused_at_the_first_press():
    c = table(HintLevel.CONTENT)
    for _ in range(8):
        keys(c, "h", "r")
    assert c.game.position.hints == 0
    effects = keys(c, "h")
    assert effects == [Beep("refused")] and c.screen is Screen.GAME
    assert isinstance(c.message, Refused) and c.message.error.code == "no_hint_tokens"


def test_content_a_colour_the_game_has_not_is_refused_and_the_entry_stays():
    c = table(HintLevel.CONTENT)
    keys(c, "h")
    assert keys(c, "m") == [Beep("refused")]  # multicolor, in a base game
    assert isinstance(c.message, Refused) and c.screen is Screen.ENTRY
    assert c.game.actions == []
    assert recorded(keys(c, "g")) == [Hint(color=Color.GREEN, player=0)]


@pytest.mark.parametrize("leave", ["escape", "backspace", "u"])
def test_content_the_entry_is_left_without_recording(leave):
    c = table(HintLevel.CONTENT)
    keys(c, "h", leave)
    assert c.screen is Screen.GAME and c.entry is None and c.game.actions == []


def test_content_a_slot_or_a_seat_means_nothing_there():
    """A tap that could only mean a slot or a receiver (hand memory's) records nothing."""
    c = table(HintLevel.CONTENT)
    keys(c, "h")
    assert c.handle(ChooseSlot(2, 1)) == [] and c.handle(ChooseSeat(1)) == []
    assert c.game.actions == [] and c.entry_step() is EntryStep.CLUE


def test_content_a_phone_recording_during_the_entry_makes_it_stale():
    """One turn, one action: a phone recorded the turn while the panel's hint was typed;
    the clue typed after it records nothing and says so."""
    c = table(HintLevel.CONTENT)
    token = hash_token("phone-of-di")
    c.paired = {token: PairedPhone(1, "Di")}
    keys(c, "h")
    c.handle(PhoneMove("request-000000000001", "1", 0, Hint(1, R), token_hash=token))
    assert len(c.game.actions) == 1
    effects = keys(c, "y")
    assert recorded(effects) == [] and effects == [Beep("refused")]
    assert isinstance(c.message, Info) and c.message.key == "phone_moved_on"
    assert len(c.game.actions) == 1 and c.screen is Screen.GAME


# -- the slots level: hand memory, as before ---------------------------------------------


def test_slots_keys_touch_and_buttons_still_ask_receiver_clue_slots_ok():
    c = table(HintLevel.SLOTS)
    assert recorded(keys(c, "h", "2", "r", "1", "return")) == [Hint(1, R, player=0, slots=(1,))]
    tap(c, HINT)
    assert c.entry_step() is EntryStep.RECEIVER
    for event in (ChooseSeat(0), ChooseColor(Color.BLUE), ChooseSlot(2)):
        tap(c, event)
    assert recorded(tap(c, Press(Key.OK))) == [Hint(0, Color.BLUE, player=1, slots=(2,))]
    c.handle(HINT)
    for choice in (ChooseSeat(0), ChooseColor(Color.GREEN), ChooseSlot(3)):
        c.handle(soft_key(c, choice))
    assert recorded(c.handle(Press(Key.OK))) == [Hint(0, Color.GREEN, player=2, slots=(3,))]


# -- what the panel says ----------------------------------------------------------------


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_content_the_last_action_line_and_the_actions_page_say_the_clue(lang, size):
    c = table(HintLevel.CONTENT, lang=lang)
    keys(c, "h", "r")
    keys(c, "h", "4")
    red = i18n.tr(lang, "ev_hint_clue_only", name="Ann", clue=i18n.color_name(lang, R))
    fours = i18n.tr(lang, "ev_hint_clue_only", name="Bo", clue=i18n.tr(lang, "clue_rank", rank=4))
    assert isinstance(c.message, Happened)
    assert message_words(lang, c.message, c.names) == fours
    assert fours in said(c, size)  # the last-action line
    c.page = GamePage.ACTIONS
    page = [text.text for text in drawn(c, size).texts]
    assert fours in page and red in page
    assert i18n.tr(lang, "ev_hint", name="Ann") not in page  # never the bare words


def test_the_words_of_each_level_in_english():
    c = table(HintLevel.CONTENT)
    keys(c, "h", "w")
    assert message_words("en", c.message, c.names) == "Ann hinted white"
    keys(c, "h", "1")
    assert message_words("en", c.message, c.names) == "Bo hinted 1s"


# -- the set-up: one row, three values, remembered -----------------------------------------


def test_setup_the_hints_row_cycles_count_content_slots_and_says_each_value():
    c = Controller(SetupDraft(players=3))
    assert c.draft.hint_level is HintLevel.CONTENT  # the default
    c.focus = SETUP_ROWS.index(HINT_LEVEL_ROW)
    seen = []
    for _ in range(3):
        seen.append(c.draft.hint_level)
        row = [t.text for t in drawn(c).texts if t.text.startswith("‹")]
        assert f"‹ {i18n.tr('en', f'hint_level_{c.draft.hint_level.value}')} ›" in row
        c.handle(Press(Key.OK))
    assert seen == [HintLevel.CONTENT, HintLevel.SLOTS, HintLevel.COUNT]
    assert c.draft.hint_level is HintLevel.CONTENT  # round
    c.handle(Press(Key.OK))
    assert c.message == Info("hand_memory_how_to_hold")  # slots: how to hold the cards


@pytest.mark.parametrize("level", list(HintLevel))
def test_setup_the_level_is_remembered_with_the_other_choices(level):
    draft = SetupDraft(players=4)
    draft.choose_hint_level(level)
    again = SetupDraft.from_settings(draft.to_settings())
    assert again.hint_level is level
    assert again.options.hand_memory is (level is HintLevel.SLOTS)


def test_setup_settings_from_before_the_levels_keep_the_default_or_hand_memory():
    older = SetupDraft().to_settings()
    del older[HINT_LEVEL_ROW]
    assert SetupDraft.from_settings(older).hint_level is HintLevel.CONTENT
    older["hand_memory"] = True
    assert SetupDraft.from_settings(older).hint_level is HintLevel.SLOTS
    assert SetupDraft.from_settings({HINT_LEVEL_ROW: "loud"}).hint_level is HintLevel.CONTENT


def test_a_game_in_play_keeps_its_level_when_the_set_up_changes():
    """The level belongs to the game: changing the set-up's row and going back to the
    game does not change what a hint records."""
    c = table(HintLevel.COUNT)
    c.handle(Press(Key.MENU))
    c.choose_menu("new_game")
    c.change_setup_row(HINT_LEVEL_ROW)  # count -> content, for the next game
    c.handle(Press(Key.BACK))
    assert c.screen is Screen.GAME and c.draft.hint_level is HintLevel.CONTENT
    assert recorded(keys(c, "h")) == [Hint(player=0)]


def test_a_game_given_without_a_level_is_at_the_count_level():
    """A game stored without one (before the levels, or imported) records one press."""
    game = Game(SetupDraft(players=3).to_setup())
    c = Controller(SetupDraft(players=3), game)
    assert c.hint_level is HintLevel.COUNT
    assert Controller(SetupDraft(), game, hint_level=HintLevel.CONTENT).hint_level is (
        HintLevel.CONTENT
    )


def test_a_game_taken_back_after_a_refused_store_comes_back_at_its_own_level():
    """A new game the card could not store (full): the game in play before is shown
    again, at the level stored with it, not the new game's."""
    c = table(HintLevel.COUNT)
    before = c.game
    c.handle(Press(Key.MENU))
    c.choose_menu("new_game")
    c.change_setup_row(HINT_LEVEL_ROW)  # count -> content
    drive(c, Press(Key.OK), Press(Key.OK))  # Start; leave the game in play: yes
    assert c.hint_level is HintLevel.CONTENT and c.game is not before
    c.handle(NotStored(before, Info("storage_full"), HintLevel.COUNT))
    assert c.game is before and c.hint_level is HintLevel.COUNT
    c.handle(NotStored(before, Info("storage_full")))  # none said: the level stays
    assert c.hint_level is HintLevel.COUNT
