"""Hand memory at the table (issue 14, docs/rules.md section 8), told as stories.

With the option on, a hint is entered as its receiver, its colour or rank, the slots it
touched (each pick toggles one), then OK; a play or a discard says its slot (slot 1 is
the newest card, at the left). Each test drives a :class:`Controller` with what a
keyboard (through the real key table), the touch screen (taps on what the real
renderer drew), the GPIO buttons (soft keys) or a card reader would send.
"""

from __future__ import annotations

import os

import pygame
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import event as note
from hypothesis import strategies as st
from support.table_stories import (
    DISCARD,
    HINT,
    NEXT,
    OK,
    PLAY,
    UNDO,
    C,
    R,
    drive,
    recorded,
    replayed,
    soft_key,
    started,
)

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
    HintLevel,
    Info,
    RecordAction,
    RecordUndo,
    Refused,
    Screen,
    SetupDraft,
    StartGame,
    choice_event,
)
from companion.panel.keys import key_event
from companion.panel.screens import Renderer
from engine import Discard, Hint, Play
from engine.cards import ALL_CARDS, Color
from engine.errors import IllegalAction
from engine.options import GameOptions, Multicolor
from hardware.events import (
    CardScanned,
    ChooseColor,
    ChooseRank,
    ChooseSeat,
    ChooseSlot,
    InputEvent,
    Key,
    Press,
)

B = Color.BLUE


@pytest.fixture(autouse=True, scope="module")
def headless() -> None:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.font.init()


def table(players: int = 3, **options: object) -> Controller:
    """A game with hand memory, just started (Ann, then Bo, then Cy…)."""
    return started(players=players, hand_memory=True, **options)


def keys(c: Controller, *names: str) -> list:
    """Keys typed on the keyboard, through the real key table."""
    effects = []
    for name in names:
        event = key_event(name, c.screen, entry_step=c.entry_step())
        assert event is not None, f"{name!r} means nothing on {c.screen} {c.entry_step()}"
        effects.extend(c.handle(event))
    return effects


def tap(c: Controller, wanted: InputEvent, size: tuple[int, int] = (480, 320)) -> list:
    """A tap on what the screen drew for ``wanted``, resolved as the app resolves it
    (the last target drawn under the finger wins)."""
    targets = Renderer(size, strict=True).draw(pygame.Surface(size), c)
    point = next(
        (
            (x, y)
            for rect, event in reversed(targets)
            if event == wanted
            for y in range(rect.top, rect.bottom, 2)
            for x in range(rect.left, rect.right, 2)
            if under((x, y), targets) == wanted
        ),
        None,
    )
    assert point is not None, f"no tap gives {wanted} on {c.screen} {c.entry_step()}"
    return c.handle(wanted)


def under(point: tuple[int, int], targets: list) -> InputEvent | None:
    """What a tap there means: the last target drawn under it, as the app resolves it."""
    return next((event for box, event in reversed(targets) if box.collidepoint(point)), None)


def press(c: Controller, choice: object) -> list:
    """The GPIO button under ``choice`` on the entry screen."""
    return c.handle(soft_key(c, choice))


def memory(c: Controller, seat: int) -> list[tuple[Color | None, int | None]]:
    assert c.game is not None
    return [(slot.color, slot.rank) for slot in c.game.hand_memory(seat)]


# -- the option -------------------------------------------------------------------------


def test_hand_memory_is_off_by_default_and_a_hint_at_the_count_level_stays_one_press():
    assert not SetupDraft().options.hand_memory
    assert SetupDraft().hint_level is HintLevel.CONTENT  # the default: colour or rank
    c = started(players=3)  # the stories' count level
    assert not c.hand_memory
    assert recorded(drive(c, HINT)) == [Hint(player=0)]


def test_one_option_a_setup_row_a_config_key_a_log_header_key_and_a_variant_name():
    """Hand memory is the third value of the set-up's Hints row and of the config's
    ``hints`` (``hand_memory = true`` still reads), the log header's ``hand_memory``."""
    from companion.shell.config import parse_config
    from engine import GameSetup
    from engine.log import format_log, parse_log

    assert HINT_LEVEL_ROW in SETUP_ROWS and "hand_memory" not in SETUP_ROWS
    assert parse_config('[game]\nhints = "slots"\n').game.options.hand_memory
    assert parse_config("[game]\nhand_memory = true\n").game.hints is HintLevel.SLOTS
    setup = GameSetup(players=3, options=GameOptions(hand_memory=True))
    assert '"hand_memory": true' in format_log(setup, [])
    assert parse_log(format_log(setup, [])).setup.options.hand_memory
    for lang in i18n.LANGUAGES:
        assert i18n.variant_name(lang, GameOptions(hand_memory=True)) == i18n.tr(
            lang, "hand_memory"
        )


def test_choosing_hand_memory_says_once_how_to_hold_the_cards():
    c = Controller(SetupDraft(players=3))
    c.change_setup_row(HINT_LEVEL_ROW)  # content, then slots: hand memory
    assert c.draft.options.hand_memory and c.draft.hint_level is HintLevel.SLOTS
    assert c.message == Info("hand_memory_how_to_hold")
    c.change_setup_row(HINT_LEVEL_ROW)  # round to the count level: nothing to say
    assert not c.draft.options.hand_memory and c.draft.hint_level is HintLevel.COUNT
    assert c.message is None


# -- keyboard ---------------------------------------------------------------------------


def test_keys_a_hint_is_h_the_receivers_seat_a_colour_the_slots_then_return():
    c = table()
    keys(c, "h")
    assert c.entry_step() is EntryStep.RECEIVER
    keys(c, "2", "r")
    assert c.entry_step() is EntryStep.SLOTS
    effects = keys(c, "1", "4", "return")
    assert recorded(effects) == [Hint(1, R, player=0, slots=(1, 4))]
    assert memory(c, 1)[0] == (R, None) and memory(c, 1)[3] == (R, None)
    assert R not in c.game.hand_memory(1)[1].colors


def test_keys_a_digit_toggles_a_slot_and_a_second_press_takes_it_back():
    c = table()
    keys(c, "h", "2", "3", "2", "5", "2")
    assert c.entry.touched == (5,)
    assert recorded(keys(c, "return")) == [Hint(1, None, 3, player=0, slots=(5,))]


def test_keys_a_play_says_its_slot_first_then_the_card():
    c = table()
    keys(c, "p")
    assert c.entry_step() is EntryStep.SLOT
    keys(c, "3")
    assert c.entry_step() is EntryStep.COLOR
    effects = keys(c, "r", "1", "return")
    assert recorded(effects) == [Play(C("R1"), player=0, slot=3)]


def test_keys_backspace_steps_back_slot_clue_and_receiver_then_leaves():
    c = table()
    keys(c, "h", "3", "b", "2")
    for step in (EntryStep.SLOTS, EntryStep.CLUE, EntryStep.RECEIVER):
        keys(c, "backspace")
        assert c.entry_step() is step
    keys(c, "backspace")
    assert c.screen is Screen.GAME and c.entry is None


def test_two_players_a_hint_needs_no_receiver():
    c = table(players=2)
    keys(c, "h")
    assert c.entry.to == 1 and c.entry_step() is EntryStep.CLUE


# -- touch ------------------------------------------------------------------------------


def test_touch_a_tap_on_a_slot_of_a_players_hand_picks_the_receiver_and_the_slot():
    """A one-slot hint in four taps: HINT, the slot on the receiver's hand, the clue, OK."""
    c = table()
    tap(c, Press(Key.HINT))
    tap(c, ChooseSlot(3, seat=2))
    assert c.entry.to == 2 and c.entry.touched == (3,)
    tap(c, ChooseColor(B))
    assert recorded(tap(c, Press(Key.OK))) == [Hint(2, B, player=0, slots=(3,))]


def test_touch_a_hint_is_taps_on_hint_the_receiver_the_colour_the_drawn_slots_and_ok():
    c = table()
    tap(c, Press(Key.HINT))
    tap(c, ChooseSeat(2))
    tap(c, ChooseColor(B))
    tap(c, ChooseSlot(2))
    tap(c, ChooseSlot(5))
    tap(c, ChooseSlot(2))  # a second tap takes it back
    assert recorded(tap(c, Press(Key.OK))) == [Hint(2, B, player=0, slots=(5,))]
    assert memory(c, 2)[4] == (B, None)


@pytest.mark.parametrize("size", [(480, 320), (320, 480), (320, 240), (240, 320)])
def test_touch_a_play_taps_the_slot_on_the_drawn_hand_then_the_card(size):
    c = table()
    tap(c, Press(Key.PLAY), size)
    tap(c, ChooseSlot(4), size)
    tap(c, ChooseColor(R), size)
    tap(c, ChooseRank(1), size)
    assert recorded(tap(c, Press(Key.OK), size)) == [Play(C("R1"), player=0, slot=4)]


def test_touch_every_clue_is_one_tap_away_where_the_panel_has_room():
    c = table()
    for event in (Press(Key.HINT), ChooseSeat(1), ChooseRank(5), ChooseSlot(1)):
        tap(c, event)
    assert recorded(tap(c, Press(Key.OK))) == [Hint(1, None, 5, player=0, slots=(1,))]


# -- GPIO buttons ----------------------------------------------------------------------


def test_buttons_a_hint_is_hint_a_soft_key_per_choice_then_ok():
    c = table()
    drive(c, HINT)
    press(c, ChooseSeat(1))
    press(c, ChooseColor(R))
    press(c, ChooseSlot(1))
    assert len(c.soft_choices()) == 5  # the sixth key, OK, records
    assert recorded(drive(c, OK)) == [Hint(1, R, player=0, slots=(1,))]


def test_buttons_the_sixth_soft_key_turns_to_the_ranks():
    c = table()
    drive(c, HINT)
    press(c, ChooseSeat(1))
    assert c.soft_choices()[5] == MORE_CLUES
    drive(c, Press(Key.OK))  # the sixth button: the other page
    assert c.entry_step() is EntryStep.CLUE
    assert [choice_event(x) for x in c.soft_choices()[:5]] == [ChooseRank(r) for r in range(1, 6)]
    press(c, ChooseRank(2))
    press(c, ChooseSlot(3))
    assert recorded(drive(c, OK)) == [Hint(1, None, 2, player=0, slots=(3,))]


def test_buttons_a_discard_is_discard_the_slot_the_colour_the_rank_ok():
    c = table()
    keys(c, "h", "2", "r", "1", "return")  # Ann spends a token, so Bo may discard
    drive(c, DISCARD)
    press(c, ChooseSlot(5))
    press(c, B)
    press(c, 4)
    assert recorded(drive(c, OK)) == [Discard(C("B4"), player=1, slot=5)]


# -- card readers ---------------------------------------------------------------------


def test_reader_scan_then_play_then_one_slot_press_records_it():
    c = table()
    drive(c, CardScanned("0012345678", C("R1")))
    assert c.entry_step() is EntryStep.KIND
    assert drive(c, PLAY) == [] and c.entry_step() is EntryStep.SLOT
    effects = press(c, ChooseSlot(2))
    assert recorded(effects) == [Play(C("R1"), player=0, slot=2)]
    assert c.screen is Screen.GAME


def test_reader_a_digit_or_a_letter_typed_after_a_read_never_changes_the_card_read():
    """A slot typed too early ("2", then p) must not turn the R3 read into an R2."""
    c = table()
    drive(c, CardScanned("0012345678", C("R3")))
    assert key_event("2", c.screen, entry_step=c.entry_step()) is None  # at "play or discard?"
    assert key_event("b", c.screen, entry_step=c.entry_step()) is None
    assert drive(c, ChooseRank(2), ChooseColor(Color.BLUE)) == []  # from any device
    assert c.entry is not None and c.entry.card == C("R3")
    keys(c, "p")
    assert c.entry_step() is EntryStep.SLOT
    effects = keys(c, "2")
    assert recorded(effects) == [Play(C("R3"), player=0, slot=2)]


def test_pad_placing_the_card_asks_only_its_slot_one_press_or_tap():
    c = table()
    assert drive(c, CardScanned("0012345678", C("G1"), role="play")) == []
    assert c.entry.kind is EntryKind.PLAY and c.entry_step() is EntryStep.SLOT
    assert recorded(tap(c, ChooseSlot(3))) == [Play(C("G1"), player=0, slot=3)]


def test_pad_a_card_its_slot_cannot_hold_is_refused_and_the_slot_asked_again():
    c = table()
    keys(c, "h", "2", "r", "1", "4", "return")  # Bo: slots 1 and 4 are red
    drive(c, CardScanned("0012345678", C("B1"), role="play"))
    effects = press(c, ChooseSlot(1))
    assert Beep("refused") in effects and not recorded(effects)
    assert isinstance(c.message, Refused) and c.message.error.code == "card_not_in_slot"
    assert c.entry_step() is EntryStep.SLOT and len(c.game.actions) == 1
    assert recorded(press(c, ChooseSlot(2))) == [Play(C("B1"), player=1, slot=2)]


def test_pad_a_card_refused_whatever_its_slot_leaves_no_entry():
    c = table()
    effects = drive(c, CardScanned("0012345678", C("R1"), role="discard"))  # 8 tokens
    assert Beep("refused") in effects and c.entry is None and c.screen is Screen.GAME


def test_pad_a_card_the_game_cannot_have_is_refused_at_once_before_its_slot():
    c = table()  # no multicolor suit; with hand memory as without, refused on the pad
    effects = drive(c, CardScanned("0012345678", C("M1"), role="play"))
    assert Beep("refused") in effects and c.entry is None and c.screen is Screen.GAME
    assert isinstance(c.message, Refused) and c.message.error.code == "suit_not_in_game"


def test_reader_a_card_the_game_cannot_have_is_refused_on_play_not_after_its_slot():
    c = table()
    drive(c, CardScanned("0012345678", C("M1")))
    effects = drive(c, PLAY)
    assert Beep("refused") in effects and c.entry_step() is EntryStep.KIND
    assert isinstance(c.message, Refused) and c.message.error.code == "suit_not_in_game"


# -- refusals change nothing -----------------------------------------------------------


def test_a_slot_beyond_the_hand_is_refused_at_once_and_changes_nothing():
    c = table(players=4)  # four cards each
    keys(c, "p")
    effects = keys(c, "5")
    assert Beep("refused") in effects
    assert c.message.error.code == "no_such_slot"
    assert c.entry.slot is None and c.entry_step() is EntryStep.SLOT


def test_a_hint_that_contradicts_an_earlier_one_is_refused_and_changes_nothing():
    c = table()
    keys(c, "h", "2", "r", "1", "4", "return")  # Bo: slots 1 and 4 red
    keys(c, "p", "2", "b", "1", "return")  # Bo plays from slot 2: red moves to 2 and 4
    assert [s.color for s in c.game.hand_memory(1)][1:4:2] == [R, R]
    before = (list(c.game.actions), c.game.hand_memory(1))
    keys(c, "h", "2", "r", "2")
    effects = keys(c, "return")
    assert Beep("refused") in effects and not recorded(effects)
    assert c.message.error.code == "hint_must_touch"
    assert (list(c.game.actions), c.game.hand_memory(1)) == before
    assert c.screen is Screen.ENTRY  # the table fixes the slots, or cancels
    assert recorded(keys(c, "4", "return")) == [Hint(1, R, player=2, slots=(2, 4))]


def test_no_hint_token_left_is_refused_on_hint_before_any_choice():
    c = table(players=2)
    for _ in range(8):
        keys(c, "h", "r", "1", "return")
    effects = keys(c, "h")
    assert Beep("refused") in effects and c.entry is None
    assert c.message.error.code == "no_hint_tokens"


# -- undo ------------------------------------------------------------------------------


def test_undo_restores_the_hand_memory_exactly():
    c = table()
    keys(c, "h", "2", "r", "1", "4", "return")
    before = [c.game.hand_memory(seat) for seat in range(3)]
    keys(c, "p", "2", "b", "1", "return")
    keys(c, "h", "1", "5", "3", "return")
    assert [c.game.hand_memory(seat) for seat in range(3)] != before
    drive(c, UNDO, OK, UNDO, OK)
    assert [c.game.hand_memory(seat) for seat in range(3)] == before


# -- the pages -------------------------------------------------------------------------


def test_next_turns_the_game_screen_to_the_discards_the_actions_every_hand_then_back():
    c = table()
    pages = []
    for _ in range(4):
        drive(c, NEXT)
        pages.append(c.page)
    assert pages == [GamePage.DISCARDS, GamePage.ACTIONS, GamePage.HANDS, GamePage.TABLE]


# (240x320, 320x240 and 800x480 keep room for the final round's line and the pile: the
# hand is on the hands page there, tests/panel/test_stable_layout.py)
@pytest.mark.parametrize("size", [(480, 320), (320, 480)])
def test_the_game_screen_shows_the_hand_of_the_player_to_act_slot_1_at_the_left(size):
    c = table()
    keys(c, "h", "2", "r", "1", "4", "return")  # Bo to act: slots 1 and 4 red
    renderer = Renderer(size, strict=True)
    renderer.draw(pygame.Surface(size), c)
    badges = {text.text: text.rect for text in renderer.texts if text.text in "12345"}
    assert sorted(badges) == ["1", "2", "3", "4", "5"]  # the slot numbers, nothing else
    lefts = [badges[number].left for number in "12345"]
    assert lefts == sorted(lefts) and len({badges[n].top for n in "12345"}) == 1


def test_the_hands_page_shows_every_players_name_and_the_slots_never_a_card():
    c = table()
    keys(c, "h", "2", "r", "1", "4", "return")
    drive(c, NEXT, NEXT, NEXT)  # the discards, the actions, the hands
    renderer = Renderer((480, 320), strict=True)
    renderer.draw(pygame.Surface((480, 320)), c)
    said = [text.text for text in renderer.texts]
    for name in c.game.setup.names:
        assert name in said
    assert said.count("1") >= 3 and said.count("5") >= 3  # the slot numbers, each hand
    cards = {i18n.card_name("en", card) for card in ALL_CARDS}
    assert not cards & set(said)  # no card is named: the hints only


def test_the_slot_tiles_show_what_each_button_picks():
    c = table()
    drive(c, PLAY)
    assert [choice_event(x) for x in c.soft_choices()] == [ChooseSlot(n) for n in range(1, 6)]
    drive(c, Press(Key.OK))  # the sixth button: there is no sixth slot
    assert c.entry.slot is None


def test_a_card_scanned_during_a_hint_replaces_it_with_play_or_discard():
    c = table()
    keys(c, "h", "2")
    drive(c, CardScanned("0012345678", C("Y2")))
    assert c.entry.kind is None and c.entry_step() is EntryStep.KIND
    assert drive(c, PLAY) == [] and c.entry_step() is EntryStep.SLOT
    assert recorded(keys(c, "2")) == [Play(C("Y2"), player=0, slot=2)]


# -- property: any input is safe with hand memory ------------------------------------------

#: Mostly the soft choice shown at a place (as a tap picks it; OK where none is), so that
#: hints, plays and discards get recorded; some raw, odd or out-of-place inputs.
SOFT_CHOICE = st.integers(0, 5)
HM_INPUTS = st.one_of(
    *[SOFT_CHOICE] * 6,
    st.sampled_from([Press(Key.HINT), Press(Key.PLAY), Press(Key.DISCARD)]),
    st.builds(
        Press,
        st.sampled_from([Key.OK, Key.UNDO, Key.BACK, Key.ERASE, Key.NEXT, Key.PREVIOUS]),
    ),
    st.builds(ChooseSlot, st.integers(0, 6), st.one_of(st.none(), st.integers(-1, 5))),
    st.builds(ChooseSeat, st.integers(-1, 5)),
    st.builds(ChooseColor, st.sampled_from(list(Color))),
    st.builds(ChooseRank, st.integers(0, 6)),
    st.builds(
        CardScanned,
        st.just("0012345678"),
        st.one_of(st.none(), st.sampled_from(ALL_CARDS)),
        st.sampled_from(["any", "any", "play", "discard"]),
    ),
    st.just(MORE_CLUES),
)


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.integers(2, 5),
    st.sampled_from(
        [
            {},
            {"multicolor": Multicolor.SHORT, "wild_multicolor": True},
            {"multicolor": Multicolor.FULL, "timed_display": True},
            {"empty_clues": True, "timed_display": True},
            {"crowning_piece": True},
        ]
    ),
    st.lists(HM_INPUTS, min_size=30, max_size=150),
)
def test_property_any_input_is_safe_with_hand_memory_and_only_records_change_the_game(
    players, options, inputs
):
    """Never raises; the game changes only by a recorded action or undo; the recorded
    effects rebuild it; every refusal is sayable in every language."""
    c = table(players, **options)
    stored = []
    for item in inputs:
        event = item
        if isinstance(item, int):
            choices = c.soft_choices() if c.screen is Screen.ENTRY else []
            event = choice_event(choices[item]) if item < len(choices) else Press(Key.OK)
        before = c.game.position.copy()
        effects = c.handle(event)
        changed = False
        for effect in effects:
            if isinstance(effect, RecordAction):
                stored.append(effect.action)
                changed = True
            elif isinstance(effect, RecordUndo):
                stored.pop()
                changed = True
            elif isinstance(effect, StartGame):  # the end, OK, Start: a new game
                stored = []
                changed = True
        assert changed or c.game.position == before, event
        assert stored == c.game.actions
        assert replayed(c.game) == c.game.position
        if c.screen is Screen.ENTRY:
            assert c.entry is not None
            c.soft_choices()
        for lang in i18n.LANGUAGES:
            if isinstance(c.message, Refused):
                i18n.refusal_text(lang, c.message.error, c.names)
            if isinstance(c.preview, IllegalAction):
                i18n.refusal_text(lang, c.preview, c.names)
    note(f"actions recorded: {min(len(stored), 5)}+")


# -- issue 20, the smaller defects -------------------------------------------------------


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_issue20_7_a_hint_to_ones_own_seat_or_a_seat_the_table_has_not_says_why(lang):
    """Issue 20, defect 7: at "to whom?", key 1 (Ann's own seat) and key 4 at three
    players were silently ignored: each is said in one sentence, beeped, and the
    receiver is still asked; the sentence is on the entry screen."""
    c = table()
    c.draft.language = lang
    keys(c, "h")
    assert keys(c, "1") == [Beep("refused")]
    assert isinstance(c.message, Refused) and c.message.error.code == "hint_to_self"
    assert c.entry.to is None and c.entry_step() is EntryStep.RECEIVER
    renderer = Renderer((480, 320), strict=True)
    renderer.draw(pygame.Surface((480, 320)), c)
    said = " ".join(drawn.text for drawn in renderer.texts)
    assert i18n.refusal_text(lang, c.message.error, c.names) in said
    assert keys(c, "4") == [Beep("refused")]
    assert c.message == Info("entry_no_such_seat", (("n", 4), ("players", 3)))
    assert c.entry.to is None and c.entry_step() is EntryStep.RECEIVER
    renderer.draw(pygame.Surface((480, 320)), c)
    sentence = i18n.tr(lang, "entry_no_such_seat", n=4, players=3)
    assert "4" in sentence and "3" in sentence
    assert sentence in " ".join(drawn.text for drawn in renderer.texts)
    keys(c, "2")  # a seat of the table: the sentence has been read
    assert c.entry.to == 1 and not isinstance(c.message, Refused | Info)


def test_issue20_4_ok_on_a_refused_hint_offers_no_ok_and_changes_nothing():
    """Issue 20, defect 4: a hint refused as it stands (it contradicts an earlier one)
    is at its slots already, the choice to change: no OK is drawn (touch), Return and
    the OK button beep and leave the slots as they are."""
    c = table()
    keys(c, "h", "2", "r", "1", "4", "return")  # Bo: slots 1 and 4 red
    keys(c, "p", "2", "b", "1", "return")  # Bo's red cards move to slots 2 and 4
    keys(c, "h", "2", "r", "2")
    assert c.entry_refusal() is not None and c.entry_refusal().code == "hint_must_touch"
    targets = Renderer((480, 320), strict=True).draw(pygame.Surface((480, 320)), c)
    assert Press(Key.OK) not in [event for _rect, event in targets]
    for ok in (key_event("return", c.screen, entry_step=c.entry_step()), Press(Key.OK)):
        assert c.handle(ok) == [Beep("refused")]
        assert c.entry.touched == (2,) and c.entry_step() is EntryStep.SLOTS
    assert recorded(keys(c, "4", "return")) == [Hint(1, R, player=2, slots=(2, 4))]


def test_issue20_4_ok_on_a_play_its_slot_cannot_hold_asks_the_slot_again():
    """Issue 20, defect 4: the card cannot be in the slot said (it was hinted red): OK
    (Return, the OK button, the "Change" button drawn in its place) asks the slot
    again, keeps the card; the refusal stays said until the slot is picked."""
    c = table()
    keys(c, "h", "2", "r", "1", "4", "return")  # Bo: slots 1 and 4 are red
    keys(c, "p", "1", "b", "1")
    assert c.entry_refusal() is not None and c.entry_refusal().code == "card_not_in_slot"
    renderer = Renderer((480, 320), strict=True)
    targets = renderer.draw(pygame.Surface((480, 320)), c)
    assert Press(Key.OK) in [event for _rect, event in targets]
    assert i18n.tr("en", "entry_change") in [drawn.text for drawn in renderer.texts]
    assert tap(c, Press(Key.OK)) == [Beep("refused")]
    assert c.entry_step() is EntryStep.SLOT and c.entry.card == C("B1")
    assert c.message.error.code == "card_not_in_slot"
    assert recorded(keys(c, "2", "return")) == [Play(C("B1"), player=1, slot=2)]
