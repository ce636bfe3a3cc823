"""Moving around the companion: undo, the end of a game, menu, history, help, devices
(docs/rules.md section 4 for the end of the game)."""

from __future__ import annotations

import pytest
from support.table_stories import (
    BACK,
    DISCARD,
    HELP,
    HINT,
    MENU,
    NEXT,
    OK,
    PLAY,
    PREVIOUS,
    UNDO,
    C,
    G,
    W,
    discard,
    drive,
    events_for,
    final_round_game,
    fresh,
    hints,
    play,
    recorded,
    replayed,
    started,
    storm,
)

from companion.core.controller import (
    MENU_ROWS,
    SETUP_ROWS,
    Beep,
    Controller,
    FinishGame,
    GamePage,
    Happened,
    Info,
    LoadHistory,
    RecordAction,
    RecordUndo,
    SaveSettings,
    Screen,
    SetupDraft,
    StartGame,
    Undone,
)
from companion.core.i18n import LANGUAGES, tr
from engine import (
    EndReason,
    Game,
    GameSetup,
    Hint,
    Outcome,
    Play,
    Rating,
)
from engine.cards import Card
from hardware.events import (
    CardScanned,
    ChooseColor,
    DeviceStatus,
    Select,
    Tap,
)

# -- undo -----------------------------------------------------------------------


def test_undo_nothing_to_undo_at_the_start():
    c = started()
    assert drive(c, UNDO) == [Beep("refused")]
    assert c.message == Info("undo_nothing")
    assert c.screen is Screen.GAME


@pytest.mark.parametrize(
    "script",
    [
        ["hint"],
        ["hint", "play R1"],
        ["hint", "play R1", "discard Y1"],
        ["play R2"],
        ["hint", "play R1", "play R2", "play R3", "play R4", "play R5"],
    ],
    ids=lambda s: " / ".join(s),
)
def test_undo_ok_restores_the_position_before_the_last_action(script):
    c = started()
    positions = [c.game.position.copy()]
    for step in script:
        if step == "hint":
            hints(c)
        else:
            verb, code = step.split()
            (play if verb == "play" else discard)(c, code)
        positions.append(c.game.position.copy())
    last = c.game.events[-1]
    assert drive(c, UNDO) == [] and c.screen is Screen.UNDO
    assert drive(c, OK) == [RecordUndo()]
    assert c.message == Undone(last)
    assert c.screen is Screen.GAME
    assert c.game.position == positions[-2] == replayed(c.game)
    assert len(c.game.actions) == len(script) - 1


def test_undo_back_cancels_the_undo():
    c = started()
    hints(c)
    before = c.game.position.copy()
    assert drive(c, UNDO, BACK) == []
    assert c.screen is Screen.GAME and c.game.position == before and len(c.game.actions) == 1


def test_undo_works_back_to_the_start_of_the_game():
    c = started()
    hints(c)
    play(c, "R1")
    discard(c, "Y3")
    play(c, "G2")
    effects = drive(c, *[UNDO, OK] * 4)
    assert effects == [RecordUndo()] * 4
    assert c.game.actions == [] and c.game.position == fresh(c.game)
    assert drive(c, UNDO) == [Beep("refused")] and c.message == Info("undo_nothing")


def test_undo_after_the_end_screen_goes_back_into_the_game():
    c = started()
    storm(c)
    assert c.screen is Screen.END and c.game.is_over
    assert drive(c, UNDO) == [] and c.screen is Screen.UNDO
    effects = drive(c, OK)
    assert effects == [RecordUndo()]  # FinishGame is not repeated
    assert c.screen is Screen.GAME and not c.game.is_over
    assert c.game.position.fuses == 2 and c.game.position == replayed(c.game)
    assert recorded(hints(c)) == [Hint(player=c.game.actions[-1].player)]  # the game goes on
    assert play(c, "W4")[-1] == FinishGame()  # and can end again


def test_undo_back_from_the_end_screen_returns_to_the_end():
    c = started()
    storm(c)
    drive(c, UNDO, BACK)
    assert c.screen is Screen.END and c.game.is_over


def test_undo_cancelled_after_a_menu_visit_from_the_end_returns_to_the_end():
    c = started()
    storm(c)
    drive(c, UNDO, MENU, BACK)
    assert c.screen is Screen.UNDO
    drive(c, BACK)
    assert c.screen is Screen.END


# -- section 4: the end of the game, shown by itself ---------------------------


@pytest.mark.parametrize("players", [2, 3, 5])
def test_4_final_round_every_player_once_then_the_end_screen(players):
    """The drawer of the last card plays last; the END screen comes by itself."""
    setup, actions = final_round_game(players)
    c = started(players)
    drawer = order = None
    for index, action in enumerate(actions):
        if order is not None:
            assert c.game.position.current == order[0]
        effects = drive(c, *events_for(action))
        assert len(recorded(effects)) == 1
        event = c.game.events[-1]
        last = index == len(actions) - 1
        if event.final_round_started:
            drawer = event.player
            assert c.game.position.deck == 0
        if drawer is not None and not last:
            order = c.game.final_round_order()
            assert order is not None and order[-1] == drawer
            if event.final_round_started:
                assert order == [(drawer + k) % players for k in range(1, players + 1)]
        assert (FinishGame() in effects) == last
        assert (c.screen is Screen.END) == last
    assert event.player == drawer and c.game.end_reason is EndReason.FINAL_ROUND
    assert c.game.final_round_order() is None
    assert c.game.position == Game.replay(setup, actions).position
    assert c.game.rating is not None


def test_4_undo_of_the_last_draw_leaves_the_final_round():
    setup, actions = final_round_game(3)
    start = next(
        i for i, e in enumerate(Game.replay(setup, actions).events) if e.final_round_started
    )
    c = started(3)
    for action in actions[: start + 1]:
        drive(c, *events_for(action))
    assert c.game.final_round_order() is not None and c.game.position.deck == 0
    assert drive(c, UNDO, OK) == [RecordUndo()]
    assert c.game.final_round_order() is None and c.game.position.deck == 1
    assert c.game.position == Game.replay(setup, actions[:start]).position


def test_4_storm_third_misplay_shows_the_end_screen():
    c = started()
    effects = storm(c)
    assert effects.count(FinishGame()) == 1 and effects[-1] == FinishGame()
    assert c.screen is Screen.END
    assert c.game.end_reason is EndReason.STRIKEOUT and c.game.outcome is Outcome.LOST
    assert c.game.score == 0


def test_4_perfect_display_shows_the_end_screen():
    c = started()
    cards = [Card(color, rank) for rank in range(1, 6) for color in c.game.setup.colors]
    for card in cards[:-1]:
        assert FinishGame() not in play(c, card.code())
    effects = play(c, cards[-1].code())
    assert effects == [RecordAction(Play(cards[-1], player=c.game.events[-1].player)), FinishGame()]
    assert c.screen is Screen.END and c.game.end_reason is EndReason.PERFECT
    assert c.game.score == 25 and c.game.rating is Rating.LEGENDARY


def test_4_end_screen_ignores_game_keys_and_ok_goes_to_a_new_set_up():
    c = started()
    storm(c)
    actions = list(c.game.actions)
    assert drive(c, HINT, PLAY, DISCARD, NEXT, CardScanned("x", C("R1"))) == []
    assert c.screen is Screen.END and c.game.actions == actions
    assert drive(c, OK) == [] and c.screen is Screen.SETUP
    assert SETUP_ROWS[c.focus] == "start"
    effects = drive(c, OK)
    assert [type(e) for e in effects] == [SaveSettings, StartGame]
    assert c.screen is Screen.GAME and c.game.actions == [] and c.message is None


def test_a_controller_resumes_a_stored_game_or_its_end_screen():
    setup = GameSetup(players=2)
    running = Game.replay(setup, [Hint(), Play(C("R1"))])
    assert Controller(SetupDraft(), running).screen is Screen.GAME
    over = Game.replay(setup, [Play(C("R2")), Play(C("R3")), Play(C("R4"))])
    assert Controller(SetupDraft(), over).screen is Screen.END


def test_a_resumed_game_shows_its_last_action_as_before_the_restart():
    """After a crash the table sees the screen it saw before: the last action in words
    (the system test compares the restarted app's screen with `render`, pixel for pixel)."""
    setup = GameSetup(players=2)
    running = Game.replay(setup, [Hint(), Play(C("R1"))])
    assert Controller(SetupDraft(), running).message == Happened(running.events[-1])
    assert Controller(SetupDraft(), Game.replay(setup, [])).message is None


# -- menu, history, help, devices ------------------------------------------------


def test_menu_from_the_game_history_and_back():
    c = started()
    hints(c)
    assert drive(c, MENU) == [] and c.screen is Screen.MENU and c.menu_focus == 0
    drive(c, *[NEXT] * MENU_ROWS.index("history"))
    assert MENU_ROWS[c.menu_focus] == "history"
    assert drive(c, OK) == [LoadHistory()] and c.screen is Screen.HISTORY
    drive(c, NEXT, NEXT, PREVIOUS)
    assert c.scroll == 0  # the history is not loaded here: nothing to scroll through
    drive(c, BACK)
    assert c.screen is Screen.GAME and len(c.game.actions) == 1


def test_menu_back_and_resume_return_to_an_open_entry():
    c = started()
    drive(c, PLAY, ChooseColor(G), MENU)
    assert c.screen is Screen.MENU
    drive(c, BACK)
    assert c.screen is Screen.ENTRY and c.entry.color is G
    drive(c, MENU, Select("resume"))
    assert c.screen is Screen.ENTRY


def test_menu_language_switches_and_saves():
    """The menu's language entry goes to the next language (companion.core.i18n.LANGUAGES)."""
    c = started()
    effects = drive(c, MENU, Select("language"))
    assert c.language == LANGUAGES[1] and effects == [SaveSettings(c.draft.to_settings())]


def test_menu_new_game_then_back_returns_to_the_game():
    c = started()
    hints(c)
    drive(c, MENU, Select("new_game"))
    assert c.screen is Screen.SETUP and SETUP_ROWS[c.focus] == "start"
    drive(c, BACK)
    assert c.screen is Screen.GAME and len(c.game.actions) == 1
    drive(c, MENU, Select("new_game"))
    assert drive(c, OK) == [] and len(c.game.actions) == 1  # asked first: it is unfinished
    effects = drive(c, OK)
    assert isinstance(effects[-1], StartGame) and c.game.actions == []


def test_menu_from_the_end_screen_returns_to_it():
    c = started()
    storm(c)
    drive(c, MENU, BACK)
    assert c.screen is Screen.END


def test_help_from_the_game_and_back():
    c = started()
    assert drive(c, HELP) == [] and c.screen is Screen.HELP
    drive(c, BACK)
    assert c.screen is Screen.GAME
    drive(c, MENU, Select("help"))
    assert c.screen is Screen.HELP
    drive(c, OK)
    assert c.screen is Screen.GAME


def test_help_during_an_entry_returns_to_it():
    c = started()
    drive(c, PLAY, ChooseColor(W), HELP)
    assert c.screen is Screen.HELP
    drive(c, BACK)
    assert c.screen is Screen.ENTRY and c.entry.color is W


def test_taps_are_resolved_by_the_layout_not_here():
    c = started()
    assert drive(c, Tap(10, 10)) == [] and c.screen is Screen.GAME


def test_menu_and_help_before_any_game_return_to_the_set_up():
    c = Controller(SetupDraft())
    drive(c, MENU, Select("resume"))
    assert c.screen is Screen.SETUP
    drive(c, HELP, BACK)
    assert c.screen is Screen.SETUP


def test_device_status_sets_and_clears_the_notice():
    c = started()
    drive(c, DeviceStatus("scanner", False, "Scanner disconnected"))
    assert c.notice == "Scanner disconnected"
    drive(c, DeviceStatus("scanner", True, "Scanner connected"))
    assert c.notice is None


def test_next_previous_on_the_game_screen_turn_the_page():
    """NEXT turns to the discard pile, then the recent actions, then the table again;
    PREVIOUS goes back."""
    c = started()
    drive(c, NEXT)
    assert c.page is GamePage.DISCARDS
    drive(c, NEXT)
    assert c.page is GamePage.ACTIONS
    drive(c, NEXT)
    assert c.page is GamePage.TABLE
    drive(c, PREVIOUS)
    assert c.page is GamePage.ACTIONS


def test_a_panel_that_shows_the_pile_on_the_table_has_no_pile_page():
    """One pile view, not two: where the table page shows the pile (a wide or tall
    panel), NEXT goes from the table straight to the actions."""
    c = started()
    c.pile_on_table = True
    drive(c, NEXT)
    assert c.page is GamePage.ACTIONS
    drive(c, NEXT)
    assert c.page is GamePage.TABLE


@pytest.mark.parametrize("screen", list(Screen), ids=lambda s: s.value)
def test_every_screen_answers_input(screen):
    """The {Screen: handler} table covers every screen: a new screen without a handler fails."""
    c = started()
    if screen is Screen.ENTRY:
        drive(c, PLAY)  # the entry screen needs an entry under way
    else:
        c.screen = screen
    assert c.screen is screen
    effects = c.handle(NEXT)
    assert isinstance(effects, list)


def test_start_while_a_game_is_unfinished_asks_first():
    """Menu, New game, Start: the unfinished game is kept, to resume from the history;
    Start says so and needs a second press; anything else in between drops the question."""
    c = started()
    hints(c)
    running = c.game
    c.choose_menu("new_game")
    assert c.screen is Screen.SETUP and SETUP_ROWS[c.focus] == "start"
    assert drive(c, OK) == []
    assert c.game is running and c.message == Info("start_keeps_the_game")
    drive(c, NEXT, PREVIOUS)  # something else: the question is dropped
    assert drive(c, OK) == [] and c.game is running
    effects = drive(c, OK)  # asked, and confirmed
    assert [type(e) for e in effects] == [SaveSettings, StartGame]
    assert c.game is not running and c.screen is Screen.GAME


@pytest.mark.parametrize("lang", LANGUAGES)
def test_new_game_tells_the_truth_and_asks_nothing_for_a_game_without_an_action(lang):
    """Issue 33: New game said the game in progress "will be abandoned" while it is kept
    and resumable: the sentence says it is kept, and where to resume it (the menu's
    History); a game with no action is not kept (not listed), so Start starts at once."""
    c = started()
    c.draft.language = lang
    c.choose_menu("new_game")
    effects = drive(c, OK)  # the game in progress has no action: nothing to keep
    assert [type(e) for e in effects] == [SaveSettings, StartGame]
    hints(c)
    c.choose_menu("new_game")
    assert drive(c, OK) == [] and c.message == Info("start_keeps_the_game")
    said = tr(lang, "start_keeps_the_game")
    assert tr(lang, "history") in said and tr(lang, "start") in said
    assert not any(word in said.lower() for word in ("abandon", "abgebrochen"))


def test_start_after_a_finished_game_asks_nothing():
    c = started()
    storm(c)
    assert c.game.is_over
    c.choose_menu("new_game")
    effects = drive(c, OK)
    assert [type(e) for e in effects] == [SaveSettings, StartGame]


def test_history_ok_on_an_unfinished_game_asks_the_app_to_resume_it_else_goes_back():
    """The game at the top of the history (NEXT moves down): OK resumes it when it was
    left unfinished; on a finished game OK goes back, as before."""
    from companion.core.controller import ResumeGame
    from companion.storage import GameStatus, HistoryRow
    from engine.options import GameOptions

    def row(game_id: int, status: GameStatus) -> HistoryRow:
        return HistoryRow(
            game_id, "2026-11-20T20:00:00+00:00", None, 2, ("Ann", "Bo"), GameOptions(),
            3, 25, None, None, None, status=status,
        )  # fmt: skip

    c = Controller(SetupDraft(players=2))
    c.screen = Screen.HISTORY
    c.history = ([row(3, GameStatus.OVER), row(2, GameStatus.ABANDONED)], [])
    assert drive(c, NEXT) == [] and c.history_focus().id == 2
    assert drive(c, NEXT) == [] and c.history_focus().id == 2  # the last stays in view
    assert drive(c, OK) == [ResumeGame(2)]
    game = Game(GameSetup(players=2))
    c.take_up(game)
    assert c.screen is Screen.GAME and c.game is game
    c.screen = Screen.HISTORY
    drive(c, PREVIOUS)
    assert c.history_focus().id == 3 and drive(c, OK) == [] and c.screen is Screen.GAME


# -- issue 20, the smaller defects of the controller -------------------------------------


def history_row(game_id: int, status: str):
    from companion.storage import GameStatus, HistoryRow
    from engine.options import GameOptions

    return HistoryRow(
        game_id, "2026-11-20T20:00:00+00:00", None, 2, ("Ann", "Bo"), GameOptions(),
        3, 25, None, None, None, status=GameStatus(status),
    )  # fmt: skip


def history_of(c: Controller, *rows) -> None:
    """The history screen, opened from the menu, as the app fills it."""
    c.handle(MENU)
    assert c.choose_menu("history") == [LoadHistory()]
    c.history = (list(rows), [])


def test_issue20_6_resuming_from_the_history_asks_before_abandoning_the_game_in_play():
    """Issue 20, defect 6: New game asks before abandoning the game in play; resuming
    another game from the history asks the same way: OK says so, a second OK resumes,
    anything else in between drops the question."""
    from companion.core.controller import ResumeGame

    c = started()
    hints(c)
    running = c.game
    history_of(c, history_row(2, "playing"), history_row(1, "abandoned"))
    drive(c, NEXT)
    assert c.history_focus().id == 1
    assert drive(c, OK) == [] and c.message == Info("resume_keeps_the_game")
    assert c.game is running and c.screen is Screen.HISTORY
    drive(c, PREVIOUS, NEXT)  # something else: the question is dropped, and unsaid
    assert c.message == Happened(running.events[-1])
    assert drive(c, OK) == [] and c.message == Info("resume_keeps_the_game")
    assert drive(c, OK) == [ResumeGame(1)]  # asked, and confirmed


def test_issue20_6_a_tap_on_the_resume_button_asks_too():
    from companion.core.controller import RESUME_ROW, ResumeGame

    c = started()
    hints(c)
    history_of(c, history_row(2, "abandoned"))
    assert drive(c, Select(RESUME_ROW)) == [] and c.message == Info("resume_keeps_the_game")
    assert drive(c, Select(RESUME_ROW)) == [ResumeGame(2)]


def test_issue20_6_nothing_to_abandon_nothing_asked():
    """No game, a game over, or the game in play itself at the top: resumed at once."""
    from companion.core.controller import ResumeGame

    c = Controller(SetupDraft(players=2))
    history_of(c, history_row(4, "abandoned"))
    assert drive(c, OK) == [ResumeGame(4)]
    c = started()
    storm(c)
    assert c.game.is_over
    history_of(c, history_row(4, "abandoned"))
    assert drive(c, OK) == [ResumeGame(4)]
    c = started()
    hints(c)
    history_of(c, history_row(5, "playing"))
    assert drive(c, OK) == [ResumeGame(5)]


def test_issue20_3_the_set_up_reached_from_a_game_does_not_carry_its_lines():
    """Issue 20, defect 3: Menu, New game: a refusal said on the game screen is not the
    set-up's (the set-up shows only its own lines); the game's last action stays the
    game's."""
    c = started()
    hints(c)
    c.handle(CardScanned("0012", None))  # an unknown tag: said on the game screen
    assert c.message == Info("unknown_tag", (("tag", "0012"),))
    c.handle(MENU)
    c.choose_menu("new_game")
    assert c.screen is Screen.SETUP and c.message == Happened(c.game.events[-1])


def test_issue20_3_the_end_screen_ok_leaves_no_line_for_the_set_up():
    c = started()
    storm(c)
    c.message = Info("unknown_tag", (("tag", "0012"),))
    drive(c, OK)
    assert c.screen is Screen.SETUP and isinstance(c.message, Happened)
