"""Refusals (docs/rules.md section 7: a refused action says why, in words a player understands)."""

import inspect

import pytest

from engine import errors
from engine.errors import IllegalAction

REFUSALS = [
    cls
    for _, cls in inspect.getmembers(errors, inspect.isclass)
    if issubclass(cls, IllegalAction) and cls is not IllegalAction
]


def test_7_every_refusal_is_an_illegal_action_and_a_value_error():
    assert len(REFUSALS) >= 15
    for cls in REFUSALS:
        assert issubclass(cls, IllegalAction)
        assert issubclass(cls, ValueError)


def test_7_every_refusal_has_its_own_stable_code():
    codes = [cls.code for cls in REFUSALS]
    assert len(set(codes)) == len(codes)
    assert all(code and code == code.lower() and " " not in code for code in codes)
    assert IllegalAction.code not in codes


@pytest.mark.parametrize("cls", REFUSALS, ids=lambda cls: cls.__name__)
def test_7_every_refusal_says_something_in_words(cls):
    error = cls()
    assert str(error) == error.message
    assert len(error.message.split()) >= 3


@pytest.mark.parametrize("cls", REFUSALS, ids=lambda cls: cls.__name__)
def test_7_a_refusal_may_carry_a_specific_sentence(cls):
    error = cls("Bo has no card left")
    assert error.message == "Bo has no card left"
    assert error.code == cls.code


def test_7_the_rules_example_sentence_for_discarding_with_8_tokens():
    assert str(errors.HintTokensFull()) == "All 8 hint tokens are available: you cannot discard"
    assert errors.HintTokensFull.code == "hint_tokens_full"


@pytest.mark.parametrize(
    ("cls", "code"),
    [
        (errors.GameIsOver, "game_over"),
        (errors.NotYourTurn, "not_your_turn"),
        (errors.NoSuchSeat, "no_such_seat"),
        (errors.NoHintTokens, "no_hint_tokens"),
        (errors.HintToSelf, "hint_to_self"),
        (errors.HintNamesBoth, "hint_names_both"),
        (errors.HintColorNotAllowed, "hint_color_not_allowed"),
        (errors.HintToEmptyHand, "hint_to_empty_hand"),
        (errors.NoOneToHint, "no_one_to_hint"),
        (errors.EmptyHand, "empty_hand"),
        (errors.SuitNotInGame, "suit_not_in_game"),
        (errors.CardExhausted, "card_exhausted"),
        (errors.AnnounceNotAllowed, "announce_not_allowed"),
        (errors.NothingToUndo, "nothing_to_undo"),
    ],
)
def test_7_refusal_codes_are_stable(cls, code):
    assert cls.code == code


def test_illegal_action_default_message():
    assert str(IllegalAction()) == "That action is not allowed"
