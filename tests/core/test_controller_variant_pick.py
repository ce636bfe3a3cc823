"""The set-up's variant by Hanab Live's name, told as stories of a table (issue 35).

The Variant row opens a search: letters typed narrow the list, NEXT and PREVIOUS step,
OK or a tap picks; the buttons alone walk the families; a named variant leaves the
multicolor rows out in one sentence; the choice is remembered (a real SQLite file) and
a whole game is played at the panel in it.
"""

from __future__ import annotations

import random

from support.table_stories import (
    BACK,
    NEXT,
    OK,
    PREVIOUS,
    UNDO,
    drive,
    events_for,
    focus,
    recorded,
)

from companion.core.controller import (
    NEXT_VALUE,
    PREVIOUS_VALUE,
    SETUP_ROWS,
    VARIANT_PICK,
    Beep,
    Controller,
    Info,
    SaveSettings,
    Screen,
    SetupDraft,
    StartGame,
)
from companion.core.i18n import tr
from companion.core.variant_pick import variant_choices
from companion.core.words import token_count
from companion.storage import Storage
from engine import Multicolor
from engine.game import Game
from engine.options import GameOptions
from engine.table import SimulatedTable
from engine.variants import family_of, search
from hardware.events import Key, Press, Select, TypeText


def _searching() -> Controller:
    controller = Controller(SetupDraft())
    focus(controller, "variant")
    drive(controller, OK)
    assert controller.variant_search == "" and controller.wants_text()
    return controller


def test_letters_narrow_the_list_next_steps_and_return_picks() -> None:
    c = _searching()
    drive(c, TypeText("null"), TypeText(" rain"))
    assert c.variant_search == "null rain"
    assert variant_choices("null rain") == tuple(search("null rain"))
    drive(c, NEXT, NEXT, PREVIOUS)
    assert c.variant_pick == 1
    effects = drive(c, OK)
    assert effects == [] and c.variant_search is None and not c.wants_text()
    assert c.draft.options.variant == search("null rain")[1] == "Rainbow-Ones & Null (5 Suits)"


def test_backspace_widens_the_search_and_back_leaves_the_variant_as_it_was() -> None:
    c = _searching()
    drive(c, TypeText("pinkx"))
    assert variant_choices("pinkx") == ()
    assert drive(c, OK) == [Beep("refused")] and c.variant_search == "pinkx"  # nothing picked
    drive(c, UNDO)
    assert c.variant_search == "pink" and c.variant_pick == 0
    drive(c, BACK)
    assert c.variant_search is None and c.draft.options.variant is None


def test_a_tap_on_a_variant_picks_it_and_on_no_variant_clears_it() -> None:
    c = _searching()
    drive(c, TypeText("clue starved"))
    drive(c, Select(VARIANT_PICK + "Clue Starved & Pink (5 Suits)"))
    assert c.draft.options.variant == "Clue Starved & Pink (5 Suits)"
    drive(c, Select("variant"), Select(VARIANT_PICK))  # the row again, then "No variant"
    assert c.draft.options.variant is None


def test_the_buttons_alone_walk_the_families_from_no_variant() -> None:
    """The six GPIO buttons: NEXT moves to the row, OK opens the search, NEXT walks the
    families (one variant each), OK picks."""
    c = Controller(SetupDraft())
    presses = 0
    while SETUP_ROWS[c.focus] != "variant":
        drive(c, NEXT)
        presses += 1
    assert presses == SETUP_ROWS.index("variant") - SETUP_ROWS.index("start")
    drive(c, OK)
    choices = variant_choices("")
    assert choices[0] is None and len({family_of(name) for name in choices[1:]}) == len(choices) - 1
    drive(c, NEXT, NEXT)
    drive(c, OK)
    assert c.draft.options.variant == choices[2] == "Rainbow (6 Suits)"


def test_left_and_right_step_the_families_without_a_search() -> None:
    c = Controller(SetupDraft())
    focus(c, "variant")
    drive(c, NEXT_VALUE)
    assert c.draft.options.variant == "Black (6 Suits)" and c.variant_search is None
    drive(c, PREVIOUS_VALUE, PREVIOUS_VALUE)
    assert c.draft.options.variant == variant_choices("")[-1]


def test_a_named_variant_turns_multicolor_off_and_refuses_it_in_one_sentence() -> None:
    draft = SetupDraft(options=GameOptions(multicolor=Multicolor.FULL, wild_multicolor=True))
    c = Controller(draft)
    focus(c, "variant")
    drive(c, OK, TypeText("pink (6"), OK)
    assert c.draft.options.variant == "Pink (6 Suits)"
    assert c.draft.options.multicolor is Multicolor.NONE and not c.draft.options.wild_multicolor
    for row in ("multicolor", "wild_multicolor"):
        c.message = None
        drive(c, Select(row))
        assert c.message == Info("variant_with_multicolor")
        assert c.draft.options.multicolor is Multicolor.NONE
    assert tr("en", "variant_with_multicolor").count(".") <= 1


def test_the_keys_typed_in_the_search_are_letters_not_the_menu_or_help() -> None:
    c = _searching()
    drive(c, Press(Key.MENU), Press(Key.HELP))
    assert c.screen is Screen.SETUP and c.variant_search == ""


def test_the_remembered_set_up_keeps_the_variant_in_a_real_database(tmp_path) -> None:
    c = Controller(SetupDraft(players=4))
    focus(c, "variant")
    drive(c, OK, TypeText("pink-ones (5"), OK)
    focus(c, "start")
    effects = drive(c, OK)
    saved = next(e for e in effects if isinstance(e, SaveSettings))
    start = next(e for e in effects if isinstance(e, StartGame))
    assert start.setup.options.variant == "Pink-Ones (5 Suits)"
    with Storage.open(tmp_path) as storage:
        storage.set_setting("setup", saved.settings)
    with Storage.open(tmp_path) as storage:
        remembered = storage.get_setting("setup", {})
    config_default = SetupDraft(options=GameOptions(variant="Rainbow (6 Suits)"))
    again = SetupDraft.from_settings(remembered, default=config_default)
    assert again.options.variant == "Pink-Ones (5 Suits)" and again.players == 4
    # no variant chosen is remembered as such, over a config's variant
    c.draft.choose_variant(None)
    cleared = SetupDraft.from_settings(c.draft.to_settings(), default=config_default)
    assert cleared.options.variant is None
    # a settings file from before variants by name keeps the default; a bad name too
    older = {k: v for k, v in c.draft.to_settings().items() if k != "variant"}
    assert SetupDraft.from_settings(older, default=config_default).options.variant == (
        "Rainbow (6 Suits)"
    )
    broken = {**older, "variant": "Pink (9 Suits)"}
    assert SetupDraft.from_settings(broken, default=config_default).options.variant == (
        "Rainbow (6 Suits)"
    )


def _play_whole_game(variant: str, seed: int) -> Controller:
    """A game started at the panel in ``variant`` and played to its end with the panel's
    keys (a simulated table's choices typed: ``p``/``d``, colour, rank, Return; a hint
    one press at the count level), each recorded action applied to the table's copy."""
    c = Controller(SetupDraft(players=3, hint_content=False))
    focus(c, "variant")
    drive(c, OK, TypeText(variant), OK)
    assert c.draft.options.variant == variant
    focus(c, "start")
    drive(c, OK)
    assert c.screen is Screen.GAME and c.game is not None
    table = SimulatedTable(c.game.setup, random.Random(seed), skill=0.8)
    while not table.game.is_over:
        effects = drive(c, *events_for(table.step()))
        assert len(recorded(effects)) == 1, (effects, c.message)
        played, typed = table.game.position, c.game.position
        assert (typed.hints, typed.fuses, typed.fireworks, typed.discards) == (
            played.hints,
            played.fuses,
            played.fireworks,
            played.discards,
        )
    assert c.game.is_over
    return c


def test_whole_games_in_special_variants_played_with_the_keys() -> None:
    for variant in ("Pink (6 Suits)", "Rainbow-Ones & Null (5 Suits)", "Clue Starved (6 Suits)"):
        c = _play_whole_game(variant, 7)
        game = c.game
        assert game is not None and game.is_over and c.screen is Screen.END
        assert game.setup.options.variant == variant
        assert Game.replay(game.setup, list(game.actions)).position == game.position


def test_clue_starved_tokens_in_words() -> None:
    assert [token_count(n, 2) for n in (16, 15, 1, 0)] == ["8", "7½", "½", "0"]
    assert token_count(7) == "7"
