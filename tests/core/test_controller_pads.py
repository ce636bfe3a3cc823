"""Readers with a role (issue 11): a card placed on the play pad or the discard pad is
the action, recorded at once, with the usual refusals; a reader of role "any" is
today's scanner (scan, then PLAY or DISCARD).

Pure units: the controller driven with the events the readers send.
"""

from __future__ import annotations

from support.table_stories import BACK, OK, UNDO, C, R, drive, fresh, hints, recorded, started

from companion.core.controller import (
    Beep,
    Happened,
    Info,
    RecordAction,
    RecordUndo,
    Refused,
    Screen,
)
from engine import Discard, Play
from hardware.events import CardScanned, ChooseColor


def placed(code: str, role: str, tag: str = "tag") -> CardScanned:
    return CardScanned(tag, C(code), role)  # type: ignore[arg-type]


def test_pads_a_card_on_the_play_pad_is_played_at_once_no_press():
    c = started()
    effects = drive(c, placed("R1", "play"))
    assert effects == [RecordAction(Play(C("R1"), player=0))]
    assert c.screen is Screen.GAME and c.entry is None
    assert isinstance(c.message, Happened) and c.game.position.fireworks[R] == 1


def test_pads_a_card_on_the_discard_pad_is_discarded_at_once():
    c = started()
    hints(c)  # 7 tokens: a discard is allowed
    assert recorded(drive(c, placed("G4", "discard"))) == [Discard(C("G4"), player=1)]
    assert c.screen is Screen.GAME and c.game.position.hints == 8


def test_pads_a_misplay_on_the_play_pad_burns_a_fuse_and_beeps():
    c = started()
    effects = drive(c, placed("B3", "play"))
    assert effects == [RecordAction(Play(C("B3"), player=0)), Beep("misplay")]
    assert c.game.position.fuses == 1


def test_pads_discard_with_8_tokens_is_refused_in_words_and_beeped_nothing_stored():
    c = started()
    effects = drive(c, placed("G2", "discard"))
    assert effects == [Beep("refused")]
    assert isinstance(c.message, Refused) and c.message.error.code == "hint_tokens_full"
    assert c.game.actions == [] and c.game.position == fresh(c.game)
    assert c.screen is Screen.GAME and c.entry is None  # nothing to cancel: lift the card


def test_pads_a_card_that_cannot_exist_is_refused_nothing_stored():
    c = started()
    hints(c)
    drive(c, placed("R1", "play"), placed("R1", "discard"))
    hints(c)
    drive(c, placed("R1", "discard"))
    assert len(c.game.actions) == 5  # R1 played, two R1 discarded: all three are gone
    hints(c)
    before = c.game.position.copy()
    assert drive(c, placed("R1", "discard")) == [Beep("refused")]
    assert c.message.error.code == "card_exhausted"
    assert c.game.position == before and len(c.game.actions) == 6
    # A suit the game has not (multicolor in a base game): refused too.
    assert drive(c, placed("M3", "play")) == [Beep("refused")]
    assert c.message.error.code == "suit_not_in_game" and len(c.game.actions) == 6


def test_pads_an_unknown_tag_is_refused_whatever_the_pad():
    c = started()
    for role in ("play", "discard"):
        assert drive(c, CardScanned("FEED", None, role)) == [Beep("refused")]  # type: ignore[arg-type]
        assert c.message == Info("unknown_tag", (("tag", "FEED"),))
    assert c.game.actions == [] and c.screen is Screen.GAME


def test_pads_a_card_placed_during_an_entry_replaces_it_and_is_recorded():
    c = started()
    drive(c, placed("W2", "any"))  # scanned on the "any" reader: "play or discard?"
    assert c.screen is Screen.ENTRY and c.entry_step() == "kind"
    assert recorded(drive(c, placed("W1", "play"))) == [Play(C("W1"), player=0)]
    assert c.screen is Screen.GAME and c.entry is None


def test_pads_undo_stays_one_press_and_a_confirmation():
    c = started()
    drive(c, placed("R1", "play"))
    assert drive(c, UNDO) == [] and c.screen is Screen.UNDO
    assert drive(c, OK) == [RecordUndo()]
    assert c.game.actions == [] and c.screen is Screen.GAME


def test_pads_the_any_reader_is_todays_scanner_scan_then_a_press():
    c = started()
    assert drive(c, placed("R1", "any")) == []
    assert c.screen is Screen.ENTRY and c.entry_step() == "kind"
    assert drive(c, BACK) == [] and c.game.actions == []


def test_pads_reads_outside_the_game_screens_do_nothing():
    c = started()
    drive(c, placed("R1", "play"), UNDO)  # the undo question is open
    assert drive(c, placed("R2", "play")) == [] and c.screen is Screen.UNDO
    assert len(c.game.actions) == 1
    drive(c, BACK, ChooseColor(R))  # a colour on the game screen means nothing
    assert c.screen is Screen.GAME
