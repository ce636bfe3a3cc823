"""Entering actions, told as stories of a table (docs/rules.md sections 3, 6 and 7).

Each test drives a :class:`Controller` with what the keyboard, the GPIO buttons or the
scanner would send while a hint, a play or a discard is entered, and checks the
screens and the effects. ``test_3_...`` is docs/rules.md section 3, ``test_keys_...``
the keyboard contract, ``test_buttons_...`` the GPIO soft keys, ``test_scanner_...``
the card scanner.
"""

from __future__ import annotations

import pytest
from support.table_stories import (
    BACK,
    DISCARD,
    NEXT,
    OK,
    PLAY,
    PREVIOUS,
    UNDO,
    B,
    C,
    G,
    M,
    R,
    W,
    Y,
    discard,
    drive,
    fresh,
    hints,
    nexts_to,
    play,
    recorded,
    soft_key,
    started,
)

from companion.core.controller import (
    SETUP_ROWS,
    Beep,
    Controller,
    EntryKind,
    FinishGame,
    Happened,
    Info,
    RecordAction,
    Refused,
    Screen,
    SetupDraft,
    StartGame,
)
from companion.core.i18n import refusal_text
from engine import (
    Discard,
    Event,
    EventKind,
    Game,
    GameSetup,
    Hint,
    Multicolor,
    Play,
)
from engine.cards import Card
from engine.errors import IllegalAction
from engine.options import GameOptions
from hardware.events import (
    CardScanned,
    ChooseColor,
    ChooseRank,
    Key,
    Press,
)

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


def test_3_7_discard_with_all_8_tokens_is_refused_at_once_and_nothing_recorded():
    """Refused whatever the card: said on DISCARD, before the table picks a card."""
    c = started()
    effects = drive(c, DISCARD)
    assert effects == [Beep("refused")]
    assert isinstance(c.message, Refused) and c.message.error.code == "hint_tokens_full"
    assert c.game.actions == [] and c.game.position == fresh(c.game)
    assert c.screen is Screen.GAME and c.entry is None
    # A scanned card, then DISCARD: refused too, and the card stays "play or discard?".
    drive(c, CardScanned("R1", C("R1")), DISCARD)
    assert c.message.error.code == "hint_tokens_full" and c.game.actions == []
    assert c.screen is Screen.ENTRY and c.entry is not None


def test_3_7_hint_with_no_token_left_is_refused():
    c = started()
    hints(c, 8)
    before = c.game.position.copy()
    effects = hints(c)
    assert effects == [Beep("refused")]
    assert c.message.error.code == "no_hint_tokens"
    assert c.game.position == before and len(c.game.actions) == 8


def test_7_a_fourth_red_1_cannot_exist_shown_before_ok_and_ok_asks_the_card_again():
    """Issue 20, defect 4: OK on a refused entry is not a dead key: it takes the card
    back (the refusal said until the next choice), the entry stays open."""
    c = started()
    hints(c)
    play(c, "R1")
    discard(c, "R1")
    hints(c)
    discard(c, "R1")
    before, actions = c.game.position.copy(), len(c.game.actions)
    drive(c, PLAY, ChooseColor(R), ChooseRank(1))
    assert isinstance(c.preview, IllegalAction) and c.preview.code == "card_exhausted"
    assert c.entry_refusal() is c.preview
    effects = drive(c, OK)
    assert effects == [Beep("refused")]
    assert c.message.error.code == "card_exhausted"
    assert c.screen is Screen.ENTRY and c.entry_step() == "color"
    assert c.entry.card is None and c.preview is None and c.entry_refusal() is None
    assert c.game.position == before and len(c.game.actions) == actions
    drive(c, ChooseColor(R))  # the next choice: the refusal has been read
    assert isinstance(c.message, Happened)
    drive(c, ChooseRank(2))  # the table fixes the card: R2 fits
    assert isinstance(c.preview, Event) and c.preview.kind is EventKind.PLAY
    assert recorded(drive(c, OK)) == [Play(C("R2"), player=c.game.actions[-1].player)]


def test_7_a_refused_card_can_still_be_fixed_in_place_before_ok():
    """Without OK, a new rank replaces the refused one (the keyboard's way)."""
    c = started()
    hints(c)
    play(c, "R1")
    discard(c, "R1")
    hints(c)
    discard(c, "R1")
    drive(c, PLAY, ChooseColor(R), ChooseRank(1))
    assert c.preview.code == "card_exhausted"
    drive(c, ChooseRank(2))
    assert isinstance(c.preview, Event) and c.entry_refusal() is None


def test_issue20_4_ok_on_a_refused_read_card_asks_it_typed():
    """Issue 20, defect 4: a reader's card refused at OK (scanned, then Play): the card
    cannot be that; OK asks the card again, and typed keys now choose it."""
    c = started()
    hints(c)
    play(c, "R1")
    discard(c, "R1")
    hints(c)
    discard(c, "R1")
    player = c.game.position.current
    drive(c, PLAY, CardScanned("tag", C("R1")))
    assert c.entry_refusal() is not None and c.entry.from_reader
    assert drive(c, OK) == [Beep("refused")]
    assert c.entry_step() == "color" and not c.entry.from_reader
    drive(c, ChooseColor(R), ChooseRank(2))
    assert recorded(drive(c, OK)) == [Play(C("R2"), player=player)]


def test_7_a_suit_not_in_the_game_is_refused_multicolor_in_a_base_game():
    """Said when the colour is picked (``m``), not after the rank: the colour stays open."""
    c = started()
    assert drive(c, PLAY, ChooseColor(M)) == [Beep("refused")]
    assert c.message.error.code == "suit_not_in_game"
    assert c.screen is Screen.ENTRY and c.entry.color is None and c.game.actions == []
    drive(c, ChooseColor(R), ChooseRank(1), OK)
    assert c.game.actions == [Play(C("R1"), player=0)]
    # A scanned card of a suit not in the game is still refused when it is recorded.
    c = started()
    drive(c, CardScanned("M3", C("M3")), PLAY)
    assert c.message.error.code == "suit_not_in_game" and c.game.actions == []


def test_keys_escape_cancels_an_entry_at_every_step():
    c = started()
    for prefix in ([PLAY], [PLAY, ChooseColor(R)], [PLAY, ChooseColor(R), ChooseRank(2)]):
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
    """Said when the colour is announced, and the announce stays open."""
    c = started(timed_display=True)
    drive(c, PLAY, ChooseColor(R), ChooseRank(1), PREVIOUS)
    assert drive(c, ChooseColor(M)) == [Beep("refused")]
    assert c.message.error.code == "suit_not_in_game"
    assert c.screen is Screen.ENTRY and c.entry.announce is None and c.game.actions == []


def test_6_without_timed_display_there_is_no_announce_step():
    c = started()
    drive(c, PLAY, ChooseColor(R), ChooseRank(1), PREVIOUS)
    assert c.entry_step() == "confirm" and c.entry.announce is None


def test_6_timed_display_a_discard_has_no_announce_step():
    c = started(timed_display=True)
    hints(c)
    drive(c, DISCARD, ChooseColor(R), ChooseRank(1), PREVIOUS)
    assert c.entry_step() == "confirm"


def test_keys_backspace_steps_back_one_choice_then_leaves_the_entry():
    """BackSpace undoes the last choice (rank, then colour), then leaves; Escape leaves
    at once."""
    c = started()
    drive(c, PLAY, ChooseColor(R), ChooseRank(2))
    assert c.entry.card == C("R2")
    drive(c, Press(Key.ERASE))
    assert c.screen is Screen.ENTRY and c.entry.color is R and c.entry.rank is None
    drive(c, Press(Key.ERASE))
    assert c.screen is Screen.ENTRY and c.entry.color is None
    drive(c, ChooseColor(Y), ChooseRank(1), OK)  # the entry goes on after stepping back
    assert c.game.actions == [Play(C("Y1"), player=0)]
    drive(c, PLAY, Press(Key.ERASE))
    assert c.screen is Screen.GAME and c.entry is None and len(c.game.actions) == 1


# -- issue 20, defect 3: a refusal lasts as long as its entry ----------------------------


def test_issue20_3_after_cancel_the_game_screen_shows_the_last_action_again():
    """Issue 20, defect 3: a refusal said during an entry (multicolor in a base game,
    a card that cannot exist) is the entry's: Escape, or BackSpace to the end, and the
    status line says what last happened again, not the refusal."""
    c = started()
    play(c, "R1")
    last = c.game.events[-1]
    drive(c, PLAY, ChooseColor(M))
    assert isinstance(c.message, Refused) and c.screen is Screen.ENTRY
    drive(c, BACK)
    assert c.screen is Screen.GAME and c.message == Happened(last)
    drive(c, PLAY, ChooseColor(M), Press(Key.ERASE))  # BackSpace with nothing chosen: out
    assert c.screen is Screen.GAME and c.message == Happened(last)


def test_issue20_3_a_refusal_is_read_once_the_next_choice_is_made():
    """The colour refused, then a colour of the game: the refusal line gives way."""
    c = started()
    drive(c, PLAY, ChooseColor(M))
    assert isinstance(c.message, Refused)
    drive(c, ChooseColor(R))
    assert c.message is None  # nothing happened yet in this game: nothing to say


def test_issue20_3_a_card_refused_on_a_pad_is_still_said_on_the_game_screen():
    """A pad's card is the action: refused, it is said on the game screen (the entry it
    opened is closed at once, the refusal is not the entry's)."""
    c = started()
    drive(c, CardScanned("t", C("R1"), role="discard"))  # all 8 tokens: no discard
    assert c.screen is Screen.GAME and c.entry is None
    assert c.message.error.code == "hint_tokens_full"


# -- issue 33: a phone refuses at the first tap where the panel refuses at the first key --


@pytest.mark.parametrize("hand_memory", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_the_panel_and_the_phones_refuse_the_same_actions_at_once_in_the_same_words(
    seed, hand_memory
):
    """Issue 33: a discard at 8 hint tokens was refused at the panel's first key, on a
    phone only after slot, colour and rank (4 taps). One check now: at every position of
    whole games, the panel's first key of a hint, a play or a discard is refused exactly
    when the phone's snapshot lists that action as refused, in the same sentence; and the
    server refuses the phone's action too, in those words, whatever card it names."""
    import random

    from companion.core.entry import KEY_KINDS
    from companion.vocabulary.phone import PairedPhone, PhoneMove
    from companion.web.snapshot import build_snapshot
    from engine.table import SimulatedTable

    setup = GameSetup(
        players=2 + seed % 4,
        names=("Ann", "Bo", "Cy", "Di", "Eve")[: 2 + seed % 4],
        options=GameOptions(hand_memory=hand_memory),
    )
    table = SimulatedTable(setup, random.Random(seed), skill=0.5)
    seen: set[str] = set()
    while True:
        game = table.game
        snapshot = build_snapshot(Controller(SetupDraft(), Game.replay(setup, game.actions)))
        refused = dict(snapshot.to_json()["refused"])
        current = game.position.current
        held = table.hands[current][0] if table.hands[current] else C("R1")
        for key, kind in KEY_KINDS.items():
            panel = Controller(SetupDraft(), Game.replay(setup, game.actions))
            before = len(panel.game.actions)
            if not game.is_over:  # at the end the panel's keys begin nothing
                effects = panel.handle(Press(key))
                said = isinstance(panel.message, Refused)
                assert said == (kind.value in refused), (key, game.position)
                if not said:
                    continue
                error = panel.message.error
                assert refusal_text("en", error, setup.names) == refused[kind.value]
                assert effects == [Beep("refused")] and len(panel.game.actions) == before
            elif kind.value not in refused:
                raise AssertionError(f"{kind.value} not refused in a game that is over")
            action = {
                "hint": Hint(to=(current + 1) % setup.players, rank=1),
                "play": Play(held),
                "discard": Discard(held),
            }[kind.value]
            if hand_memory and kind.value != "hint" and table.hands[current]:
                action = table.with_slots(action)
            panel.paired[b"t" * 32] = PairedPhone(1, "Ann")
            move = PhoneMove("a" * 16, "1", before, action, token_hash=b"t" * 32)
            (reply,) = panel.handle(move)
            assert not reply.ok and len(panel.game.actions) == before  # the server refuses
            assert isinstance(reply.message, Refused)
            seen.add(reply.message.error.code)
            assert refusal_text("en", reply.message.error, setup.names) == refused[kind.value]
        if game.is_over:
            break
        table.step()
    assert {"hint_tokens_full", "game_over"} <= seen
    spent = Game.replay(GameSetup(players=3), [Hint()] * 8)  # no hint token left
    refused = dict(build_snapshot(Controller(SetupDraft(), spent)).to_json()["refused"])
    panel = Controller(SetupDraft(), Game.replay(spent.setup, spent.actions))
    assert panel.handle(Press(Key.HINT)) == [Beep("refused")]
    assert isinstance(panel.message, Refused) and panel.message.error.code == "no_hint_tokens"
    assert refused == {"hint": refusal_text("en", panel.message.error, spent.setup.names)}
