"""The keyboard table (README "Keys"): fixed, because tests and USB keypads rely on it."""

from __future__ import annotations

import pytest

from companion.core.controller import EntryStep, Screen
from companion.panel.keys import key_event, text_key_event
from engine.cards import Color
from hardware.events import ChooseColor, ChooseNumber, ChooseRank, Key, Press


@pytest.mark.parametrize("digit", ["2", "3", "4", "5", "[4]"])
def test_setup_digits_choose_the_player_count(digit):
    assert key_event(digit, Screen.SETUP, entry_step=None) == ChooseNumber(int(digit.strip("[]")))


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("h", Key.HINT),
        ("p", Key.PLAY),
        ("d", Key.DISCARD),
        ("u", Key.UNDO),
        ("backspace", Key.UNDO),
        ("return", Key.OK),
        ("escape", Key.BACK),
        ("m", Key.MENU),
    ],
)
def test_game_keys(name, key):
    assert key_event(name, Screen.GAME, entry_step=None) == Press(key)


@pytest.mark.parametrize("letter", ["r", "y", "g", "b", "w", "m"])
def test_entry_colour_letters(letter):
    """ "m" is multicolor while entering a card, not the menu."""
    expected = ChooseColor(Color.from_letter(letter))
    assert key_event(letter, Screen.ENTRY, entry_step=EntryStep.COLOR) == expected


@pytest.mark.parametrize("rank", ["1", "2", "3", "4", "5"])
def test_entry_ranks(rank):
    assert key_event(rank, Screen.ENTRY, entry_step=EntryStep.RANK) == ChooseRank(int(rank))


def test_entry_return_confirms_and_escape_cancels():
    assert key_event("return", Screen.ENTRY, entry_step=EntryStep.CONFIRM) == Press(Key.OK)
    assert key_event("escape", Screen.ENTRY, entry_step=EntryStep.CONFIRM) == Press(Key.BACK)
    assert key_event("backspace", Screen.ENTRY, entry_step=EntryStep.RANK) == Press(Key.ERASE)
    assert key_event("u", Screen.ENTRY, entry_step=EntryStep.RANK) == Press(Key.BACK)


def test_entry_game_keys_are_not_soft_keys():
    """While a card is entered, h does nothing: it must not pick a soft-key choice."""
    assert key_event("h", Screen.ENTRY, entry_step=EntryStep.COLOR) is None


def test_scanned_card_p_or_d_says_what_was_done():
    assert key_event("p", Screen.ENTRY, entry_step=EntryStep.KIND) == Press(Key.PLAY)
    assert key_event("d", Screen.ENTRY, entry_step=EntryStep.KIND) == Press(Key.DISCARD)


def test_undo_works_from_the_end_screen_and_return_confirms():
    assert key_event("u", Screen.END, entry_step=None) == Press(Key.UNDO)
    assert key_event("return", Screen.UNDO, entry_step=None) == Press(Key.OK)


def test_unknown_keys_mean_nothing():
    assert key_event("f7", Screen.GAME, entry_step=None) is None
    assert key_event("x", Screen.ENTRY, entry_step=EntryStep.COLOR) is None


def test_typing_a_name_return_next_escape_done_backspace_erases():
    assert text_key_event("return") == Press(Key.OK)
    assert text_key_event("escape") == Press(Key.BACK)
    assert text_key_event("backspace") == Press(Key.UNDO)
    assert text_key_event("a") is None  # a character: it arrives as text
