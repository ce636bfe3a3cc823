"""A log's header names a Hanab Live variant (GAME-LOG.md, "Variants by name"; issue 35)."""

from __future__ import annotations

import json
import re

import pytest

from engine.cards import Color
from engine.log import LogFormatError, format_log, parse_log, replay_log, summary
from engine.options import GameOptions
from engine.setup import GameSetup, SetupError

HEADER = {"format": "hanabi-log/1", "players": 3}


def log(*lines: dict) -> str:
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def header(**keys: object) -> str:
    return log({**HEADER, **keys})


def test_a_variant_by_name_brings_its_suits_in_hanab_lives_order_on_the_printed_cards():
    parsed = parse_log(header(variant="Rainbow (4 Suits)"))
    setup = parsed.setup
    assert setup.options.variant == "Rainbow (4 Suits)"
    assert setup.colors == (Color.RED, Color.GREEN, Color.BLUE, Color.MULTICOLOR)
    assert [suit.name for suit in setup.suits] == ["Red", "Green", "Blue", "Rainbow"]
    assert (setup.deck_size, setup.max_score) == (40, 20)
    out = summary(replay_log(header(variant="Rainbow (4 Suits)")))
    assert list(out["fireworks"]) == ["red", "green", "blue", "multicolor"]
    assert out["max_score"] == 20 and out["deck"] == 40 - 15


def test_no_variant_by_name_is_the_base_game():
    """GAME-LOG.md: "No Variant" is the base game (purple on the white cards)."""
    named = summary(replay_log(header(variant="No Variant")))
    plain = summary(replay_log(header()))
    assert named == plain


def test_a_header_with_a_variant_is_written_back_with_it_first_among_the_options():
    setup = GameSetup(
        players=2, options=GameOptions(variant="Pink-Ones (6 Suits)", empty_clues=True)
    )
    text = format_log(setup, [])
    first = json.loads(text.split("\n")[0])
    assert list(first)[3:] == ["variant", "empty_clues"]
    assert parse_log(text).setup == setup


@pytest.mark.parametrize("key", ["multicolor", "wild_multicolor"])
@pytest.mark.parametrize("value", ["none", "full", False, True])
def test_a_variant_with_multicolor_or_wild_multicolor_present_is_an_invalid_header(key, value):
    with pytest.raises(
        LogFormatError, match='with "variant", "multicolor" and "wild_multicolor" must be absent'
    ):
        parse_log(header(variant="Rainbow (5 Suits)", **{key: value}))


@pytest.mark.parametrize(
    ("variant", "said"),
    [
        ("Pinky", '"Pinky" is not the name of a Hanab Live variant'),
        ("rainbow (5 suits)", '(its name is "Rainbow (5 Suits)")'),
        ("Up or Down (5 Suits)", "cannot be played with a printed deck: it needs START cards"),
        ("Black & Rainbow (6 Suits)", "it needs two special suits, and a printed deck has one"),
        ("Sudoku (5 Suits)", "it needs more copies of a card than a printed suit has"),
        ("Dual-Color (6 Suits)", "cannot be played with a printed deck"),
        ("Reversed (5 Suits)", "it needs more copies of a card than a printed suit has"),
        ("Black Reversed (5 Suits)", "one of its suits is played downwards, from 5 to 1"),
        (5, "variant must be a Hanab Live variant's name"),
        (None, "variant must be a Hanab Live variant's name"),
    ],
)
def test_an_unknown_or_unplayable_variant_is_an_invalid_header_said_in_one_sentence(variant, said):
    with pytest.raises(LogFormatError) as info:
        parse_log(header(variant=variant))
    assert info.value.line == 1
    assert said in info.value.reason and "\n" not in info.value.reason


@pytest.mark.parametrize(
    "options",
    [
        {"empty_clues": True},
        {"timed_display": True},
        {"crowning_piece": True},
        {"strikeout_keeps_score": True},
        {"hand_memory": True},
        {"empty_clues": True, "timed_display": True, "hand_memory": True},
    ],
)
def test_our_other_options_combine_with_a_variant(options):
    setup = parse_log(header(variant="Muddy Rainbow (6 Suits)", **options)).setup
    assert all(setup.options.value(name) is value for name, value in options.items())
    assert setup.suits[-1].name == "Muddy Rainbow"


def test_the_crowning_piece_combines_with_one_other_variant_only_a_named_one_counts():
    with pytest.raises(
        LogFormatError, match="the crowning piece combines with one other variant only"
    ):
        parse_log(header(variant="Pink (5 Suits)", crowning_piece=True, timed_display=True))
    parse_log(header(variant="No Variant", crowning_piece=True, timed_display=True))


def test_clue_starved_hints_are_counted_in_halves_in_the_summary():
    text = log(
        {**HEADER, "variant": "Clue Starved (5 Suits)"},
        {"action": "hint", "to": 1, "rank": 1},
        {"action": "discard", "card": "R1"},
    )
    assert summary(replay_log(text))["hints"] == 7.5


def test_an_old_header_is_read_as_before():
    setup = parse_log(header(multicolor="short", wild_multicolor=True)).setup
    assert setup.options.variant is None and setup.options.rules().name == "wild short multicolor"
    with pytest.raises(SetupError):
        GameSetup(players=2, options=GameOptions(variant="Pinky"))


def test_the_options_code_keeps_the_variant_for_the_games_database():
    options = GameOptions(variant="Cow & Pig (4 Suits)", hand_memory=True)
    assert options.code() == "variant=Cow_&_Pig_(4_Suits) hand_memory"
    assert GameOptions.from_code(options.code()) == options
    assert re.fullmatch(r"\S+( \S+)*", options.code())
