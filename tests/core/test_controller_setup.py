"""The set-up screen, told as stories of a table (docs/rules.md sections 2 and 6).

Choosing players, names and options with the keyboard and the buttons, what Start
refuses, and the choices remembered for the next game.
"""

from __future__ import annotations

import pytest
from support.table_stories import (
    BACK,
    HELP,
    MENU,
    NEXT,
    OK,
    PREVIOUS,
    UNDO,
    drive,
    focus,
    started,
)
from support.variants import ALL_BUT_CROWNING

from companion.core.controller import (
    SETUP_ROWS,
    Beep,
    Controller,
    Info,
    SaveSettings,
    Screen,
    SetupDraft,
    StartGame,
)
from companion.core.i18n import LANGUAGES, tr
from companion.panel.keys import key_event
from engine import (
    Multicolor,
)
from engine.options import GameOptions
from hardware.events import (
    ChooseNumber,
    Key,
    Press,
    Select,
    TypeText,
)

# -- section 2: the set-up screen ----------------------------------------------


def test_2_keys_digits_choose_2_to_5_players_and_ignore_others():
    c = Controller(SetupDraft(players=3, first_player=2))
    for number in (2, 3, 4, 5):
        assert drive(c, ChooseNumber(number)) == [] and c.draft.players == number
    drive(c, ChooseNumber(7), ChooseNumber(1), ChooseNumber(0))
    assert c.draft.players == 5
    c = Controller(SetupDraft(players=4, first_player=3))
    drive(c, ChooseNumber(2))
    assert 0 <= c.draft.first_player < 2  # the first player stays a seat at the table


def test_2_focus_starts_on_start_and_next_previous_wrap():
    c = Controller(SetupDraft())
    start = SETUP_ROWS.index("start")
    assert c.focus == start
    drive(c, *[NEXT] * len(SETUP_ROWS))
    assert c.focus == start  # a full turn
    drive(c, PREVIOUS)
    assert c.focus == (start - 1) % len(SETUP_ROWS)
    c.focus = len(SETUP_ROWS) - 1
    drive(c, NEXT)
    assert c.focus == 0
    drive(c, PREVIOUS)
    assert c.focus == len(SETUP_ROWS) - 1


def test_keys_a_digit_then_return_starts_a_game():
    """The quick path of the keyboard contract: ``3``, Return."""
    c = Controller(SetupDraft(players=2))
    effects = drive(c, ChooseNumber(3), OK)
    assert isinstance(effects[-1], StartGame) and effects[-1].setup.players == 3


def test_2_ok_on_players_cycles_2_to_5():
    c = Controller(SetupDraft(players=3))
    focus(c, "players")
    seen = []
    for _ in range(4):
        drive(c, OK)
        seen.append(c.draft.players)
    assert seen == [4, 5, 2, 3]


def test_2_ok_on_first_player_cycles_the_seats():
    c = Controller(SetupDraft(players=3))
    focus(c, "first_player")
    seen = []
    for _ in range(3):
        drive(c, OK)
        seen.append(c.draft.first_player)
    assert seen == [1, 2, 0]


def test_6_ok_on_multicolor_cycles_none_short_full():
    c = Controller(SetupDraft())
    focus(c, "multicolor")
    seen = []
    for _ in range(3):
        drive(c, OK)
        seen.append(c.draft.options.multicolor)
    assert seen == [Multicolor.SHORT, Multicolor.FULL, Multicolor.NONE]


@pytest.mark.parametrize(
    "row",
    ["wild_multicolor", "crowning_piece", "timed_display", "empty_clues", "strikeout_keeps_score"],
)
def test_6_ok_on_an_option_toggles_it(row):
    c = Controller(SetupDraft())
    focus(c, row)
    drive(c, OK)
    assert c.draft.options.value(row) is True
    drive(c, OK)
    assert c.draft.options.value(row) is False


def test_ok_on_language_cycles_the_languages():
    c = Controller(SetupDraft())
    focus(c, "language")
    seen = []
    for _ in LANGUAGES:
        drive(c, OK)
        seen.append(c.language)
    assert sorted(seen) == sorted(LANGUAGES) and seen[-1] == "en"


def test_2_a_tap_on_a_row_focuses_and_changes_it():
    c = Controller(SetupDraft(players=2))
    assert drive(c, Select("timed_display")) == []
    assert c.draft.options.timed_display and SETUP_ROWS[c.focus] == "timed_display"
    assert drive(c, Select("nowhere")) == [] and SETUP_ROWS[c.focus] == "timed_display"
    effects = drive(c, Select("start"))
    assert isinstance(effects[-1], StartGame) and effects[-1].setup.options.timed_display


def test_6_crowning_piece_with_two_other_variants_is_refused_no_game():
    c = Controller(
        SetupDraft(
            players=2,
            options=GameOptions(
                crowning_piece=True, multicolor=Multicolor.SHORT, timed_display=True
            ),
        )
    )
    effects = drive(c, OK)
    assert effects == [Beep("refused")]
    assert c.message == Info("crowning_one_variant")
    assert "crowning" in tr("en", c.message.key)
    assert c.game is None and c.screen is Screen.SETUP


def test_7_a_refused_set_up_says_why_in_french():
    c = Controller(
        SetupDraft(
            players=2,
            language="fr",
            options=GameOptions(
                crowning_piece=True, multicolor=Multicolor.SHORT, timed_display=True
            ),
        )
    )
    drive(c, OK)
    assert isinstance(c.message, Info)
    assert "bouquet" in tr("fr", c.message.key).lower()


def test_6_crowning_piece_with_one_other_variant_starts():
    c = started(crowning_piece=True, multicolor=Multicolor.SHORT)
    assert c.game.setup.options.crowning_piece and c.game.setup.max_score == 30


def test_6_wild_without_a_multicolor_suit_is_dropped_not_refused():
    c = started(wild_multicolor=True)
    assert not c.game.setup.options.wild_multicolor


def test_2_names_are_typed_erased_and_used_in_the_game():
    c = Controller(SetupDraft(players=2))
    drive(c, Select("names"))
    assert c.wants_text() and c.editing_name == 0
    drive(c, TypeText("Annx"), UNDO)  # BackSpace erases a character
    assert c.draft.names[0] == "Ann"
    drive(c, MENU, HELP, ChooseNumber(4))  # typing: no menu, no help, no player count
    assert c.screen is Screen.SETUP and c.draft.players == 2
    drive(c, OK)  # Return: the next name
    assert c.editing_name == 1
    drive(c, TypeText("Bo\x07\n"), OK)  # control characters are dropped
    assert not c.wants_text() and c.draft.names == ["Ann", "Bo"]
    focus(c, "start")
    effects = drive(c, OK)
    assert effects[-1].setup.names == ("Ann", "Bo")
    assert c.names == ("Ann", "Bo")


def test_2_a_name_typed_over_a_remembered_one_replaces_it():
    """Issue 33: the names an earlier table typed are remembered; typing "Cy" over "Ann"
    gave "AnnCy". Each name starts selected, as a text field's is: the first character
    replaces it, the next ones add; BackSpace first erases it whole; Return moves on to
    the next name, itself selected; a name left alone stays as it was."""
    c = Controller(SetupDraft(players=3, names=["Ann", "Bo", "Dee"]))
    drive(c, Select("names"))
    assert c.name_selected
    drive(c, TypeText("C"), TypeText("y"))  # one character at a time, as typed
    assert c.draft.names[0] == "Cy" and not c.name_selected
    drive(c, UNDO)  # once typing: one character
    assert c.draft.names[0] == "C"
    drive(c, OK)  # Bo's seat, selected
    assert c.editing_name == 1 and c.name_selected
    drive(c, UNDO)  # selected: erased whole
    assert c.draft.names[1] == "" and not c.name_selected
    drive(c, TypeText("Di"), OK, OK)  # Dee left alone
    assert not c.wants_text() and c.draft.names == ["C", "Di", "Dee"]


def test_2_names_are_capped_and_blank_names_get_a_default():
    c = Controller(SetupDraft(players=3))
    focus(c, "names")
    drive(c, OK, TypeText("Bartholomew the Great"), OK, TypeText("   "), BACK)
    assert c.draft.names[0] == "Bartholomew the Great"[:12]
    assert not c.wants_text()
    focus(c, "start")
    setup = drive(c, OK)[-1].setup
    assert setup.names[1:] == ("Player 2", "Player 3")


def test_settings_are_saved_with_the_draft_and_round_trip():
    draft = SetupDraft(
        players=4,
        names=["Ann", "Bo", "Cy", "Di"],
        first_player=3,
        language="fr",
        options=ALL_BUT_CROWNING,
    )
    c = Controller(draft)
    effects = drive(c, OK)
    assert effects[0] == SaveSettings(draft.to_settings())
    assert SetupDraft.from_settings(effects[0].settings) == draft


@pytest.mark.parametrize(
    "garbage",
    [
        {"players": 9},
        {"players": "3"},
        {"players": None},
        {"first_player": 7},
        {"first_player": -1},
        {"names": "Ann"},
        {"names": ["Ann", 3]},
        {"multicolor": "rainbow"},
        {"multicolor": [1]},
        {"multicolor": None},
        {"crowning_piece": "yes"},
        {"timed_display": 1},
        {"language": "xx"},
        {"language": ["fr"]},
        {"unknown": 1},
    ],
)
def test_settings_garbage_keeps_the_defaults(garbage):
    default = SetupDraft(players=3, names=["A"], first_player=1, language="fr")
    assert SetupDraft.from_settings(garbage, default) == default
    assert default == SetupDraft(players=3, names=["A"], first_player=1, language="fr")


def test_settings_long_lists_of_names_are_cut():
    draft = SetupDraft.from_settings({"names": ["x" * 40] * 9})
    assert draft.names == ["x" * 12] * 5


def test_settings_a_boolean_is_not_a_seat():
    assert SetupDraft.from_settings({"first_player": True}).first_player == 0


def test_settings_the_first_player_stays_a_seat_at_the_table():
    draft = SetupDraft.from_settings({"players": 2}, SetupDraft(players=5, first_player=4))
    assert draft.players == 2 and draft.first_player < 2


@pytest.mark.parametrize(
    ("lang", "default"), [("en", "Player 2"), ("fr", "Joueur 2"), ("de", "Spieler 2")]
)
def test_2_a_blank_name_is_the_seat_in_the_tables_language(lang, default):
    """A German table reads "Spieler 2", not the English "Player 2"."""
    c = Controller(SetupDraft(players=2, language=lang))
    focus(c, "start")
    setup = drive(c, OK)[-1].setup
    assert setup.names[1] == default


# -- issue 20, defect 5: the set-up's arrows ---------------------------------------------


def arrow(c: Controller, name: str) -> list:
    """An arrow key on the keyboard, through the real key table."""
    event = key_event(name, c.screen, entry_step=None)
    assert event is not None
    return c.handle(event)


def test_issue20_5_left_right_change_the_value_up_down_move_between_rows():
    """Issue 20, defect 5: the rows show ‹ value ›, so Left and Right move the value
    (back, on; round the choices as OK does) and Up and Down move between the rows."""
    c = Controller(SetupDraft(players=3))
    c.focus = SETUP_ROWS.index("players")
    arrow(c, "right")
    assert c.draft.players == 4 and SETUP_ROWS[c.focus] == "players"
    arrow(c, "left")
    arrow(c, "left")
    assert c.draft.players == 2
    arrow(c, "left")
    assert c.draft.players == 5  # round, as OK goes 5 → 2
    arrow(c, "down")
    arrow(c, "down")
    assert SETUP_ROWS[c.focus] == "first_player" and c.draft.players == 5
    arrow(c, "left")
    assert c.draft.first_player == 4  # back from the first seat: the last
    arrow(c, "up")
    assert SETUP_ROWS[c.focus] == "start"


def test_issue20_5_left_on_an_option_goes_back_through_its_choices():
    """The multicolor row: Right none → short, Left back to none, Left again full (the
    choice before none, round). Language too."""
    c = Controller(SetupDraft())
    c.focus = SETUP_ROWS.index("multicolor")
    arrow(c, "right")
    assert c.draft.options.multicolor is Multicolor.SHORT
    arrow(c, "left")
    arrow(c, "left")
    assert c.draft.options.multicolor is Multicolor.FULL
    c.focus = SETUP_ROWS.index("language")
    arrow(c, "left")
    assert c.draft.language == LANGUAGES[-1]


def test_issue20_5_left_right_do_nothing_on_start_and_on_the_names():
    """Start is a button and the names are typed: no value to move, nothing starts."""
    c = Controller(SetupDraft(players=3))
    for row in ("start", "names"):
        c.focus = SETUP_ROWS.index(row)
        assert arrow(c, "right") == [] and arrow(c, "left") == []
        assert c.game is None and c.editing_name is None and c.draft.players == 3


def test_issue20_5_the_six_buttons_still_set_up_a_game_next_moves_ok_changes():
    """The GPIO buttons have no Left/Right: NEXT moves down the rows, OK moves the value
    on, OK on Start starts (hold OK is the menu)."""
    c = Controller(SetupDraft(players=3))
    assert c.handle(Press(Key.PREVIOUS)) == [] and SETUP_ROWS[c.focus] == "players"
    c.handle(Press(Key.OK))
    assert c.draft.players == 4
    c.handle(Press(Key.NEXT))
    assert [type(e) for e in c.handle(Press(Key.OK))] == [SaveSettings, StartGame]
    assert c.game is not None and c.game.setup.players == 4


def test_issue20_5_menu_left_right_change_the_language_row_only():
    """The menu's language row shows ‹ language ›: Left/Right change it (and save it);
    on other rows they do nothing; Up/Down move."""
    c = Controller(SetupDraft(language="en"))
    c.handle(Press(Key.MENU))
    assert arrow(c, "right") == [] and c.draft.language == "en"  # "resume" row
    while c.menu_rows()[c.menu_focus] != "language":
        arrow(c, "down")
    effects = arrow(c, "right")
    assert c.draft.language == LANGUAGES[1]
    assert effects == [SaveSettings(c.draft.to_settings())]
    arrow(c, "left")
    assert c.draft.language == "en" and c.screen is Screen.MENU
