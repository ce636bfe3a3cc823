"""Cards and colours (docs/rules.md section 1; GAME-LOG.md "Actions": card spelling)."""

import pytest

from engine.cards import ALL_CARDS, RANKS, Card, CardFormatError, Color


def test_1_six_colours_in_rule_order_with_their_letters_and_words():
    assert [c.letter for c in Color] == list("RYGBWM")
    assert [c.label for c in Color] == ["red", "yellow", "green", "blue", "white", "multicolor"]


def test_1_ranks_are_one_to_five():
    assert RANKS == (1, 2, 3, 4, 5)


def test_1_all_cards_one_per_colour_and_rank():
    assert len(ALL_CARDS) == 30
    assert len(set(ALL_CARDS)) == 30
    assert {card.rank for card in ALL_CARDS} == {1, 2, 3, 4, 5}


@pytest.mark.parametrize("card", ALL_CARDS, ids=lambda c: c.code())
def test_log_card_code_round_trip(card):
    assert Card.from_code(card.code()) == card
    assert Card.from_code(card.code().lower()) == card
    assert card.code() == card.code().upper()


def test_log_card_input_is_case_insensitive():
    assert Card.from_code("r3") == Card(Color.RED, 3) == Card.from_code("R3")
    assert Card.from_code("m5") == Card(Color.MULTICOLOR, 5)


@pytest.mark.parametrize(
    "bad", ["", "R", "3", "R0", "R6", "X1", "R33", " R3", "RR", "3R", "r-1", None, 3, ["R3"]]
)
def test_log_bad_card_is_a_card_format_error(bad):
    with pytest.raises(CardFormatError):
        Card.from_code(bad)


def test_log_card_format_error_is_a_value_error():
    assert issubclass(CardFormatError, ValueError)


@pytest.mark.parametrize("color", list(Color), ids=lambda c: c.label)
def test_log_colour_word_and_letter_round_trip(color):
    assert Color.from_name(color.label) is color
    assert Color.from_letter(color.letter) is color
    assert Color.from_letter(color.letter.lower()) is color


@pytest.mark.parametrize("bad", ["", "rouge", "purple", "R", "multi", None, 0, ["red"], {}])
def test_log_unknown_colour_word_is_refused(bad):
    with pytest.raises(CardFormatError):
        Color.from_name(bad)


@pytest.mark.parametrize("bad", ["", "X", "RY", None, 1])
def test_log_unknown_suit_letter_is_refused(bad):
    with pytest.raises(CardFormatError):
        Color.from_letter(bad)


def test_card_index_is_dense_and_colour_major():
    assert [card.ordinal for card in ALL_CARDS] == list(range(30))
    assert Card(Color.YELLOW, 1).ordinal == 5
    assert Card(Color.MULTICOLOR, 5).ordinal == 29


def test_log_cards_sort_by_suit_order_then_rank():
    codes = ["M1", "W2", "R5", "B1", "Y4", "G3", "R1", "M5", "Y1"]
    assert [c.code() for c in sorted(map(Card.from_code, codes))] == [
        "R1", "R5", "Y1", "Y4", "G3", "B1", "W2", "M1", "M5",
    ]  # fmt: skip
