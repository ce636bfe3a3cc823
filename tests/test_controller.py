"""The controller, told as stories of a table (docs/rules.md sections 2-7 and the input contract).

Each test drives a :class:`Controller` with the input events the keyboard, the
GPIO buttons or the scanner would send, and checks the screens and the effects
the app must carry out. A test's name says the rule or the contract it checks:
``test_3_...`` is docs/rules.md section 3, ``test_keys_...`` the keyboard contract,
``test_buttons_...`` the GPIO soft keys, ``test_scanner_...`` the card scanner.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import event as note
from hypothesis import strategies as st

from companion.controller import (
    MENU_ROWS,
    SETUP_ROWS,
    SOFT_KEYS,
    Beep,
    Controller,
    EntryKind,
    FinishGame,
    Happened,
    Info,
    LoadHistory,
    RecordAction,
    RecordUndo,
    Refused,
    SaveSettings,
    Screen,
    SetupDraft,
    StartGame,
    Undone,
)
from companion.i18n import LANGUAGES, describe_event, refusal_text, tr
from engine import (
    ALL_CARDS,
    Discard,
    EndReason,
    Event,
    EventKind,
    Game,
    GameSetup,
    Hint,
    Multicolor,
    Outcome,
    Play,
    Rating,
)
from engine.cards import Card, Color
from engine.errors import IllegalAction
from engine.game import Position
from engine.options import GameOptions
from engine.table import SimulatedTable
from hardware.events import (
    CardScanned,
    ChooseColor,
    ChooseNumber,
    ChooseRank,
    DeviceStatus,
    Key,
    Press,
    Select,
    Tap,
    TypeText,
)

R, Y, G, B, W, M = Color
OK, BACK, NEXT, PREVIOUS = (Press(Key.OK), Press(Key.BACK), Press(Key.NEXT), Press(Key.PREVIOUS))
HINT, PLAY, DISCARD, UNDO = (Press(Key.HINT), Press(Key.PLAY), Press(Key.DISCARD), Press(Key.UNDO))
MENU, HELP = Press(Key.MENU), Press(Key.HELP)


# -- helpers ------------------------------------------------------------------


def C(code: str) -> Card:
    return Card.from_code(code)


def drive(controller: Controller, *events) -> list:
    """Feed the events one by one; return every effect, in order."""
    effects = []
    for event in events:
        effects.extend(controller.handle(event))
    return effects


def started(players: int = 2, **options) -> Controller:
    """A table that pressed Return on the set-up screen (focus starts on "start")."""
    controller = Controller(SetupDraft(players=players, options=GameOptions(**options)))
    effects = drive(controller, OK)
    assert [type(e) for e in effects] == [SaveSettings, StartGame]
    assert controller.screen is Screen.GAME
    return controller


def card_keys(key: Key, code: str, announce: Color | None = None) -> list:
    """The keyboard: ``p``/``d``, a colour letter, a rank, [announce], Return."""
    card = C(code)
    events = [Press(key), ChooseColor(card.color), ChooseRank(card.rank)]
    if announce is not None:
        events += [PREVIOUS, ChooseColor(announce)]
    return [*events, OK]


def play(controller: Controller, code: str, announce: Color | None = None) -> list:
    return drive(controller, *card_keys(Key.PLAY, code, announce))


def discard(controller: Controller, code: str) -> list:
    return drive(controller, *card_keys(Key.DISCARD, code))


def hints(controller: Controller, count: int = 1) -> list:
    return drive(controller, *[HINT] * count)


def recorded(effects: list) -> list:
    return [effect.action for effect in effects if isinstance(effect, RecordAction)]


def replayed(game: Game) -> Position:
    """What storage would rebuild: the set-up and the recorded actions, folded again."""
    return Game.replay(game.setup, list(game.actions)).position


def fresh(game: Game) -> Position:
    return Game(game.setup).position


def soft_key(controller: Controller, choice: object) -> Press:
    """The GPIO button under ``choice`` on the entry screen."""
    choices = controller.soft_choices()
    assert choice in choices, (choice, choices)
    return Press(SOFT_KEYS[choices.index(choice)])


def events_for(action) -> list:
    """The keyboard events a table would type for an engine action."""
    if isinstance(action, Hint):
        return [HINT]
    key = Key.PLAY if isinstance(action, Play) else Key.DISCARD
    announce = action.announce if isinstance(action, Play) else None
    return card_keys(key, action.card.code(), announce)


def storm(controller: Controller) -> list:
    """Three misplays on empty fireworks."""
    return play(controller, "R2") + play(controller, "R3") + play(controller, "R4")


# -- section 3: every action, and what it records ------------------------------


def test_3_keys_h_records_a_hint_at_once():
    c = started()
    effects = hints(c)
    assert effects == [RecordAction(Hint(player=0))]
    assert c.screen is Screen.GAME
    assert c.game.position.hints == 7 and c.game.position.current == 1
    assert isinstance(c.message, Happened) and c.message.event.kind is EventKind.HINT


def test_3_play_that_fits_goes_on_its_firework():
    c = started()
    assert drive(c, PLAY) == [] and c.screen is Screen.ENTRY and c.entry.kind is EntryKind.PLAY
    assert c.entry_step() == "color"
    drive(c, ChooseColor(R))
    assert c.entry_step() == "rank"
    drive(c, ChooseRank(1))
    assert c.entry_step() == "confirm"
    assert isinstance(c.preview, Event) and c.preview.kind is EventKind.PLAY  # shown before OK
    assert c.game.actions == []  # nothing recorded before OK
    effects = drive(c, OK)
    assert effects == [RecordAction(Play(C("R1"), player=0))]
    assert c.game.position.fireworks[R] == 1
    assert c.screen is Screen.GAME and c.entry is None and c.preview is None
    assert isinstance(c.message, Happened) and c.message.event.kind is EventKind.PLAY


def test_3_play_completing_a_firework_gives_a_hint_token_back():
    c = started()
    hints(c)
    for rank in range(1, 5):
        play(c, f"R{rank}")
    effects = play(c, "R5")
    assert [type(e) for e in effects] == [RecordAction]
    event = c.message.event
    assert event.firework_completed and event.hints_change == 1
    assert c.game.position.hints == 8 and c.game.position.fireworks[R] == 5


def test_3_misplay_burns_a_fuse_and_beeps_after_recording():
    c = started()
    effects = play(c, "R2")
    assert effects == [RecordAction(Play(C("R2"), player=0)), Beep("misplay")]
    assert c.game.position.fuses == 1 and c.game.position.discards == [C("R2")]
    assert c.message.event.kind is EventKind.MISPLAY
    assert c.screen is Screen.GAME


def test_3_discard_gives_a_hint_token_back():
    c = started()
    hints(c)
    effects = discard(c, "B3")
    assert effects == [RecordAction(Discard(C("B3"), player=1))]
    assert c.game.position.hints == 8 and c.game.position.discards == [C("B3")]
    assert c.message.event.kind is EventKind.DISCARD


def test_4_the_action_is_recorded_before_the_game_is_finished():
    c = started()
    play(c, "R2")
    play(c, "R3")
    effects = play(c, "R4")
    assert effects == [RecordAction(Play(C("R4"), player=0)), Beep("misplay"), FinishGame()]


# -- section 7: refusals reach the table, and change nothing ------------------


def test_3_7_discard_with_all_8_tokens_is_refused_and_nothing_recorded():
    c = started()
    drive(c, DISCARD, ChooseColor(R), ChooseRank(1))
    assert isinstance(c.preview, IllegalAction) and c.preview.code == "hint_tokens_full"
    effects = drive(c, OK)
    assert effects == [Beep("refused")]
    assert isinstance(c.message, Refused) and c.message.error.code == "hint_tokens_full"
    assert c.game.actions == [] and c.game.position == fresh(c.game)
    assert c.screen is Screen.ENTRY and c.entry is not None  # the table can fix it or cancel


def test_3_7_hint_with_no_token_left_is_refused():
    c = started()
    hints(c, 8)
    before = c.game.position.copy()
    effects = hints(c)
    assert effects == [Beep("refused")]
    assert c.message.error.code == "no_hint_tokens"
    assert c.game.position == before and len(c.game.actions) == 8


def test_7_a_fourth_red_1_cannot_exist_shown_before_ok_and_ok_keeps_the_entry():
    c = started()
    hints(c)
    play(c, "R1")
    discard(c, "R1")
    hints(c)
    discard(c, "R1")
    before, actions = c.game.position.copy(), len(c.game.actions)
    drive(c, PLAY, ChooseColor(R), ChooseRank(1))
    assert isinstance(c.preview, IllegalAction) and c.preview.code == "card_exhausted"
    effects = drive(c, OK)
    assert effects == [Beep("refused")]
    assert c.message.error.code == "card_exhausted"
    assert c.screen is Screen.ENTRY and c.entry_step() == "confirm"
    assert c.game.position == before and len(c.game.actions) == actions
    drive(c, ChooseRank(2))  # the table fixes the rank: R2 fits
    assert isinstance(c.preview, Event) and c.preview.kind is EventKind.PLAY
    assert recorded(drive(c, OK)) == [Play(C("R2"), player=c.game.actions[-1].player)]


def test_7_a_suit_not_in_the_game_is_refused_multicolor_in_a_base_game():
    c = started()
    drive(c, PLAY, ChooseColor(M), ChooseRank(3))
    assert isinstance(c.preview, IllegalAction) and c.preview.code == "suit_not_in_game"
    assert drive(c, OK) == [Beep("refused")]
    assert c.message.error.code == "suit_not_in_game"
    assert c.screen is Screen.ENTRY and c.game.actions == []


def test_keys_escape_cancels_an_entry_at_every_step():
    c = started()
    for prefix in ([PLAY], [PLAY, ChooseColor(R)], [DISCARD, ChooseColor(R), ChooseRank(2)]):
        assert drive(c, *prefix, BACK) == []
        assert c.screen is Screen.GAME and c.entry is None and c.preview is None
    assert c.game.actions == []


def test_keys_a_colour_or_rank_can_be_changed_before_ok():
    c = started()
    drive(c, PLAY, ChooseColor(Y), ChooseRank(3), ChooseColor(R), ChooseRank(1))
    assert recorded(drive(c, OK)) == [Play(C("R1"), player=0)]


def test_keys_garbage_ranks_are_ignored_in_an_entry():
    c = started()
    drive(c, PLAY, ChooseColor(R), ChooseRank(9), ChooseRank(0))
    assert c.entry_step() == "rank"
    assert drive(c, OK) == [] and c.screen is Screen.ENTRY


# -- GPIO buttons: soft keys on the entry screen --------------------------------


def test_buttons_soft_keys_show_the_colours_then_the_ranks():
    c = started(multicolor=Multicolor.SHORT)
    drive(c, PLAY)
    assert c.soft_choices() == [R, Y, G, B, W, M]
    drive(c, Press(Key.HINT))  # first button: first colour
    assert c.entry.color is R and c.soft_choices() == [1, 2, 3, 4, 5]
    drive(c, Press(Key.NEXT))  # fifth button: rank 5
    assert c.entry.rank == 5 and c.soft_choices() == []


@pytest.mark.parametrize("multicolor", list(Multicolor), ids=lambda m: m.value)
@pytest.mark.parametrize("key", [Key.PLAY, Key.DISCARD], ids=["play", "discard"])
def test_buttons_any_card_takes_at_most_6_presses(multicolor, key):
    """Buttons only: PLAY/DISCARD, colour, rank, OK; six suits included."""
    setup = SetupDraft(players=2, options=GameOptions(multicolor=multicolor)).to_setup()
    for color in setup.colors:
        for rank in range(1, 6):
            c = started(multicolor=multicolor)
            hints(c)  # a token to give back, so that a discard is allowed
            player = c.game.position.current
            presses = [Press(key)]
            drive(c, presses[-1])
            for choice in (color, rank):
                presses.append(soft_key(c, choice))
                drive(c, presses[-1])
            presses.append(OK)
            effects = drive(c, OK)
            assert len(presses) <= 6 and all(isinstance(p, Press) for p in presses)
            card = Card(color, rank)
            expected = Play(card, player=player) if key is Key.PLAY else Discard(card, player)
            assert recorded(effects) == [expected]


def test_buttons_undo_is_a_soft_key_during_an_entry_not_an_undo():
    c = started()
    hints(c)
    drive(c, PLAY)
    assert drive(c, UNDO) == []
    assert c.screen is Screen.ENTRY and c.entry.color is B  # the fourth colour
    assert drive(c, UNDO) == [] and c.entry.rank == 4
    assert drive(c, UNDO) == [] and c.screen is Screen.ENTRY  # confirm step: nothing
    assert len(c.game.actions) == 1


def nexts_to(c: Controller, row: str) -> list:
    """The NEXT presses that move the set-up focus to ``row`` (it wraps around)."""
    return [NEXT] * ((SETUP_ROWS.index(row) - c.focus) % len(SETUP_ROWS))


def test_buttons_only_set_up_of_a_six_suit_game():
    """NEXT moves the focus (wrapping), OK changes the row or starts."""
    c = Controller(SetupDraft(players=2))
    assert SETUP_ROWS[c.focus] == "start"
    drive(c, *nexts_to(c, "multicolor"), OK)
    assert c.draft.options.multicolor is Multicolor.SHORT
    drive(c, *nexts_to(c, "start"))
    effects = drive(c, OK)
    assert isinstance(effects[-1], StartGame) and effects[-1].setup.max_score == 30


# -- the scanner --------------------------------------------------------------


def test_scanner_scan_then_play_records_with_one_press():
    c = started()
    assert drive(c, CardScanned("04A1", C("R1"))) == []
    assert c.screen is Screen.ENTRY and c.entry_step() == "kind"
    assert isinstance(c.preview, Event) and c.preview.kind is EventKind.PLAY
    assert drive(c, PLAY) == [RecordAction(Play(C("R1"), player=0))]
    assert c.screen is Screen.GAME and c.game.position.fireworks[R] == 1


def test_scanner_scan_then_discard_refused_records_nothing_and_stays():
    c = started()
    drive(c, CardScanned("04A1", C("G2")))
    assert drive(c, DISCARD) == [Beep("refused")]
    assert c.message.error.code == "hint_tokens_full"
    assert c.screen is Screen.ENTRY and c.entry.card == C("G2") and c.game.actions == []
    assert drive(c, BACK) == [] and c.screen is Screen.GAME


def test_scanner_scan_then_discard_refused_asks_play_or_discard_again():
    c = started()
    drive(c, CardScanned("04A1", C("G2")))
    assert drive(c, DISCARD) == [Beep("refused")]
    assert c.screen is Screen.ENTRY and c.entry_step() == "kind"
    assert recorded(drive(c, PLAY)) == [Play(C("G2"), player=0)]  # a misplay, in fact
    assert c.game.position.fuses == 1


def test_scanner_play_then_scan_then_ok():
    c = started()
    drive(c, PLAY, CardScanned("04B2", C("B1")))
    assert c.entry_step() == "confirm"
    assert drive(c, OK) == [RecordAction(Play(C("B1"), player=0))]


def test_scanner_a_second_scan_replaces_the_card():
    c = started()
    drive(c, PLAY, CardScanned("a", C("B2")), CardScanned("b", C("B1")))
    assert recorded(drive(c, OK)) == [Play(C("B1"), player=0)]


def test_scanner_unknown_tag_says_so_and_beeps():
    c = started()
    assert drive(c, CardScanned("DEADBEEF", None)) == [Beep("refused")]
    assert c.message == Info("unknown_tag", (("tag", "DEADBEEF"),))
    assert c.screen is Screen.GAME and c.game.actions == []
    drive(c, PLAY, ChooseColor(R))
    assert drive(c, CardScanned("CAFE", None)) == [Beep("refused")]
    assert c.screen is Screen.ENTRY and c.entry.color is R  # the entry is kept


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


def final_round_game(players: int = 3) -> tuple[GameSetup, list]:
    """The actions of a simulated game that ends with the final round."""
    for seed in range(100):
        setup = GameSetup(players=players)
        table = SimulatedTable(setup, random.Random(seed), skill=1.0)
        game = table.play_out()
        if game.end_reason is EndReason.FINAL_ROUND:
            return setup, list(game.actions)
    raise AssertionError("no simulated game reached the final round")


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


def focus(c: Controller, row: str) -> None:
    c.focus = SETUP_ROWS.index(row)


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
        options=GameOptions(
            multicolor=Multicolor.FULL,
            wild_multicolor=True,
            timed_display=True,
            empty_clues=True,
            strikeout_keeps_score=True,
        ),
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
        {"language": "de"},
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


# -- menu, history, help, devices ------------------------------------------------


def test_menu_from_the_game_history_and_back():
    c = started()
    hints(c)
    assert drive(c, MENU) == [] and c.screen is Screen.MENU and c.menu_focus == 0
    drive(c, *[NEXT] * MENU_ROWS.index("history"))
    assert MENU_ROWS[c.menu_focus] == "history"
    assert drive(c, OK) == [LoadHistory()] and c.screen is Screen.HISTORY
    drive(c, NEXT, NEXT, PREVIOUS)
    assert c.scroll == 1
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
    c = started()
    effects = drive(c, MENU, Select("language"))
    assert c.language == "fr" and effects == [SaveSettings(c.draft.to_settings())]


def test_menu_new_game_then_back_returns_to_the_game():
    c = started()
    hints(c)
    drive(c, MENU, Select("new_game"))
    assert c.screen is Screen.SETUP and SETUP_ROWS[c.focus] == "start"
    drive(c, BACK)
    assert c.screen is Screen.GAME and len(c.game.actions) == 1
    drive(c, MENU, Select("new_game"))
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
    c = started()
    drive(c, NEXT)
    assert c.page == 1
    drive(c, PREVIOUS)
    assert c.page == 0


# -- section 6: timed display ---------------------------------------------------


def test_6_timed_display_right_colour_announced_with_soft_keys_gives_a_hint_back():
    c = started(timed_display=True)
    hints(c)
    drive(c, PLAY)
    drive(c, soft_key(c, R))
    drive(c, soft_key(c, 1))
    assert c.entry_step() == "confirm" and c.entry.announce is None
    drive(c, PREVIOUS)
    assert c.entry_step() == "announce" and c.soft_choices() == list(c.game.setup.colors)
    drive(c, soft_key(c, R))
    assert c.entry.announce is R and c.entry_step() == "confirm"
    assert c.preview.announce_right is True and c.preview.hints_change == 1
    effects = drive(c, OK)
    assert effects == [RecordAction(Play(C("R1"), R, player=1))]
    event = c.message.event
    assert isinstance(c.message, Happened) and event.announce_right and event.hints_change == 1
    assert c.game.position.hints == 8


def test_6_timed_display_wrong_colour_is_a_misplay():
    c = started(timed_display=True)
    effects = play(c, "R1", announce=Y)
    assert effects == [RecordAction(Play(C("R1"), Y, player=0)), Beep("misplay")]
    assert c.message.event.announce_right is False and c.game.position.fuses == 1


def test_6_timed_display_next_takes_the_announce_back():
    c = started(timed_display=True)
    drive(c, PLAY, ChooseColor(R), ChooseRank(1), PREVIOUS, ChooseColor(Y), NEXT)
    assert c.entry.announce is None
    assert recorded(drive(c, OK)) == [Play(C("R1"), player=0)]


def test_6_7_announcing_a_colour_not_in_the_game_is_refused():
    c = started(timed_display=True)
    drive(c, PLAY, ChooseColor(R), ChooseRank(1), PREVIOUS, ChooseColor(M))
    assert isinstance(c.preview, IllegalAction) and c.preview.code == "suit_not_in_game"
    assert drive(c, OK) == [Beep("refused")]
    assert c.screen is Screen.ENTRY and c.game.actions == []


def test_6_without_timed_display_there_is_no_announce_step():
    c = started()
    drive(c, PLAY, ChooseColor(R), ChooseRank(1), PREVIOUS)
    assert c.entry_step() == "confirm" and c.entry.announce is None


def test_6_timed_display_a_discard_has_no_announce_step():
    c = started(timed_display=True)
    hints(c)
    drive(c, DISCARD, ChooseColor(R), ChooseRank(1), PREVIOUS)
    assert c.entry_step() == "confirm"


# -- property: any input is safe, and storage can rebuild the game ---------------

KEYS = st.builds(Press, st.sampled_from(list(Key)))
GAME_KEYS = st.builds(
    Press,
    st.sampled_from([Key.OK, Key.HINT, Key.PLAY, Key.DISCARD, Key.UNDO, Key.OK, Key.BACK]),
)
INPUTS = st.one_of(
    KEYS,
    GAME_KEYS,
    GAME_KEYS,
    st.builds(ChooseColor, st.sampled_from(list(Color))),
    st.builds(ChooseRank, st.integers(-1, 9)),
    st.builds(ChooseNumber, st.integers(0, 9)),
    st.builds(TypeText, st.text(max_size=4)),
    st.builds(
        CardScanned,
        st.sampled_from(["04A1", ""]),
        st.one_of(st.none(), st.sampled_from(ALL_CARDS)),
    ),
    st.builds(Tap, st.integers(-5, 500), st.integers(-5, 500)),
    st.builds(Select, st.sampled_from([*SETUP_ROWS, *MENU_ROWS, "nowhere"])),
    st.builds(DeviceStatus, st.just("scanner"), st.booleans(), st.just("gone")),
)


def say(c: Controller) -> None:
    """Every message must be sayable in every language."""
    message = c.message
    for lang in LANGUAGES:
        if isinstance(message, Happened | Undone):
            describe_event(lang, message.event, c.names)
        elif isinstance(message, Refused):
            refusal_text(lang, message.error, c.names)
        elif isinstance(message, Info):
            tr(lang, message.key, **dict(message.params))


def typed(key: Key, card: Card) -> list:
    return [Press(key), ChooseColor(card.color), ChooseRank(card.rank), OK]


def turn(c: Controller, kind: str, pick: int) -> list:
    """A whole turn typed at the table; ``pick`` chooses the card among those that make sense."""
    stuck = c.screen in (Screen.ENTRY, Screen.MENU, Screen.HELP, Screen.HISTORY, Screen.UNDO)
    back = [BACK] if stuck and pick % 4 != 3 else []  # usually the table backs out first
    if kind == "hint":
        return [*back, HINT]
    if kind == "undo":
        return [*back, UNDO, OK]
    game = c.game
    cards = list(ALL_CARDS)
    if game is not None and kind in ("fit", "spare"):
        position, copies = game.position, game.setup.copies
        possible = [card for card in cards if position.seen[card.ordinal] < copies[card.ordinal]]
        fitting = [card for card in possible if card.rank == position.fireworks[card.color] + 1]
        cards = (fitting if kind == "fit" else possible) or cards
        if kind == "spare" and position.hints == 8 and c.screen is Screen.GAME:
            back.append(HINT)  # a token to give back first
    card = cards[pick % len(cards)]
    if kind == "scan":
        return [*back, CardScanned("t", card), PLAY if pick % 2 else DISCARD]
    return back + typed(Key.DISCARD if kind in ("spare", "discard") else Key.PLAY, card)


TURNS = st.tuples(
    st.sampled_from(["fit"] * 5 + ["spare"] * 4 + ["play", "discard", "scan", "hint"]),
    st.integers(0, 59),
)
#: Mostly whole turns (long games, final rounds, storms), some raw inputs and undos.
STEPS = st.integers(0, 14).flatmap(
    lambda roll: INPUTS if roll < 2 else st.just(("undo", 0)) if roll == 2 else TURNS
)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.integers(2, 5),
    st.sampled_from(list(Multicolor)),
    st.booleans(),
    st.integers(0, 200).flatmap(lambda n: st.lists(STEPS, min_size=n, max_size=n)),
)
def test_property_any_input_is_safe_and_the_effects_rebuild_the_game(
    players, multicolor, timed, steps
):
    """Never raises; the game is always its replay; the recorded effects rebuild its actions."""
    options = GameOptions(multicolor=multicolor, timed_display=timed)
    c = Controller(SetupDraft(players=players, options=options))
    stored: list | None = None  # what storage holds: the recorded actions of the game
    stored_setup = None
    screens = set()
    for step in [OK, *steps]:
        for event_ in turn(c, *step) if isinstance(step, tuple) else [step]:
            effects = c.handle(event_)
            for effect in effects:
                if isinstance(effect, StartGame):
                    stored, stored_setup = [], effect.setup
                elif isinstance(effect, RecordAction):
                    stored.append(effect.action)
                elif isinstance(effect, RecordUndo):
                    stored.pop()
            assert effects.count(FinishGame()) <= 1
            if FinishGame() in effects:
                assert c.game.is_over and c.screen is Screen.END
            game = c.game
            if game is not None:
                assert stored == game.actions and stored_setup == game.setup
                assert len(game.events) == len(game.actions)
                assert replayed(game) == game.position
            if c.screen is Screen.ENTRY:
                assert c.entry is not None
            screens.add(c.screen)
            say(c)
    if c.game is not None:
        note(f"actions: {len(c.game.actions) // 20 * 20}+")
        note(f"ended: {c.game.end_reason}")
        note(f"final round seen: {any(e.final_round_started for e in c.game.events)}")
    for screen in screens:
        note(f"visited {screen.value}")
