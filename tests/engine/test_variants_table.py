"""The table of Hanab Live's variants: generated from its JSON, printable with a printed deck.

``engine/variants_table.json`` is written by ``benchmarks/variants_table.py`` from Hanab
Live's ``suits.json`` and ``variants.json``; it keeps the variants a printed deck can carry
(GAME-LOG.md, "Variants by name"), and every one of them must be: a test fails if an entry
cannot be played with the printed cards.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from engine.cards import Color
from engine.errors import SetupError
from engine.suits import NORMAL_COPIES, ColorTouch, Suit
from engine.variants import (
    LEFT_OUT_REASONS,
    PRINTED,
    Variant,
    family_of,
    table_source,
    variant_by_name,
    variant_names,
)

ROOT = Path(__file__).resolve().parents[2]
TABLE = json.loads((ROOT / "engine" / "variants_table.json").read_text(encoding="utf-8"))
NAMES = variant_names()


def generator():
    """``benchmarks/variants_table.py`` as a module (the benchmarks are scripts)."""
    spec = importlib.util.spec_from_file_location(
        "variants_table", ROOT / "benchmarks" / "variants_table.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_table_keeps_about_1700_of_hanab_lives_2426_variants():
    source, count, total = table_source()
    assert "github.com/Hanabi-Live/hanabi-live at " in source
    assert total == 2426 and 1650 <= count <= 1750
    assert count == len(NAMES) == len(set(NAMES)) == len(TABLE["variants"])
    assert count + len(TABLE["left_out"]) == total
    assert set(TABLE["left_out"]) & set(NAMES) == set()
    assert set(TABLE["left_out"].values()) <= set(LEFT_OUT_REASONS)


@pytest.mark.parametrize("name", NAMES)
def test_every_entry_can_be_played_with_a_printed_deck(name):
    """At most six suits, each on printed cards of its own colour (the plain ones on R Y G
    B W, one other on M), and no card with more copies than a printed suit has (3 2 2 2 1:
    a one-of-each suit takes the five-card multicolour suit, any other the ten-card one)."""
    variant = variant_by_name(name)
    assert variant.printed_deck_shortfall() is None
    letters = [suit.color for suit in variant.suits]
    assert len(letters) == len(set(letters)) <= 6
    for spec in variant.specs():
        assert all(c <= n for c, n in zip(spec.copies, NORMAL_COPIES, strict=True))
    plain = {"Red": Color.RED, "Yellow": Color.YELLOW, "Green": Color.GREEN, "Blue": Color.BLUE}
    for suit in variant.suits:
        expected = plain.get(suit.name, Color.WHITE if suit.name == "Purple" else Color.MULTICOLOR)
        assert suit.color is expected


def test_the_printable_check_fails_where_a_printed_deck_falls_short():
    """The check the test above relies on can say no: two special suits share the
    multicolour cards; a suit with three 5s has more than a printed suit."""
    red = Suit("Red", Color.RED)
    two = Variant(
        "two specials",
        (
            red,
            Suit("Rainbow", Color.MULTICOLOR, colors=ColorTouch.ALL),
            Suit("Pink", Color.MULTICOLOR),
        ),
    )
    assert two.printed_deck_shortfall() == "two of its suits need the printed M cards"
    assert PRINTED["full", True].printed_deck_shortfall() is None


def test_a_variant_left_out_is_refused_with_its_reason_and_a_wrong_name_as_none():
    with pytest.raises(
        SetupError, match="cannot be played with a printed deck: it needs two special"
    ):
        variant_by_name("Black & Rainbow (6 Suits)")
    with pytest.raises(SetupError, match="it needs START cards"):
        variant_by_name("Up or Down (5 Suits)")
    said = '"pink (6 suits)" is not the name of a Hanab Live variant (its name is "Pink (6 Suits)")'
    with pytest.raises(SetupError, match=re.escape(said)):
        variant_by_name("pink (6 suits)")  # the exact name, case included


def test_every_family_of_the_issue_is_in_the_table():
    families = {family_of(name) for name in NAMES}
    for family in (
        "No Variant",
        "Rainbow",
        "Pink",
        "White",
        "Brown",
        "Omni",
        "Null",
        "Muddy Rainbow",
        "Light Pink",
        "Prism",
        "Orange",
        "Black",
        "Dark Rainbow",
        "Gray",
        "Rainbow-Ones",
        "Pink-Fives",
        "Deceptive-Ones",
        "Critical Fours",
        "Scarce Ones",
        "Clue Starved",
        "Alternating Clues",
        "Odds and Evens",
        "Funnels",
        "Chimneys",
        "Synesthesia",
        "Throw It in a Hole",
        "Cow & Pig",
        "Duck",
        "Color Mute",
        "Number Mute",
        "Color Blind",
        "Number Blind",
        "Totally Blind",
    ):
        assert family in families, family


# -- the generator, on Hanab Live-shaped data made by hand ---------------------------------

SUITS = [
    {"name": "Red", "id": "R"},
    {"name": "Blue", "id": "B"},
    {"name": "Purple", "id": "P"},
    {"name": "Teal", "id": "T"},
    {"name": "Rainbow", "id": "Ra", "allClueColors": True},
    {
        "name": "Dark Pink",
        "id": "Pi1",
        "oneOfEach": True,
        "clueColors": ["Pink"],
        "allClueRanks": True,
    },
    {"name": "Tangerine", "id": "DRY", "clueColors": ["Red", "Yellow"]},
]
VARIANTS = [
    {"id": 0, "name": "Three", "suits": ["Red", "Blue", "Purple"]},
    {
        "id": 1,
        "name": "Rainbow-Ones (4 Suits)",
        "suits": ["Red", "Blue", "Purple", "Teal"],
        "specialRank": 1,
        "specialRankAllClueColors": True,
        "clueRanks": [2, 3, 4, 5],
    },
    {
        "id": 2,
        "name": "Dark Pink (4 Suits)",
        "suits": ["Red", "Blue", "Purple", "Dark Pink"],
        "throwItInAHole": True,
    },
    {"id": 3, "name": "Two specials", "suits": ["Red", "Rainbow", "Dark Pink"]},
    {"id": 4, "name": "Dual", "suits": ["Red", "Blue", "Tangerine"]},
    {"id": 5, "name": "Up", "suits": ["Red", "Blue"], "upOrDown": True},
    {"id": 6, "name": "Sudoku", "suits": ["Red", "Blue"], "sudoku": True},
    {"id": 7, "name": "Down", "suits": ["Red", "Rainbow Reversed"]},
    {"id": 8, "name": "Mute", "suits": ["Red", "Blue"], "clueColors": []},
]


def test_the_generator_keeps_what_a_printed_deck_carries_and_says_why_not_for_the_rest():
    text, count = generator().table_json(SUITS, VARIANTS, "abc123")
    table = json.loads(text)
    assert count == table["count"] == 4 and table["total"] == 9
    assert table["source"] == "github.com/Hanabi-Live/hanabi-live at abc123"
    assert list(table["variants"]) == [
        "Three",
        "Rainbow-Ones (4 Suits)",
        "Dark Pink (4 Suits)",
        "Mute",
    ]
    assert table["left_out"] == {
        "Two specials": "two_special_suits",
        "Dual": "shared_colors",
        "Up": "start_cards",
        "Sudoku": "copies",
        "Down": "copies",
    }
    assert table["suits"]["P"] == {"name": "Purple", "color": "W"}
    assert table["suits"]["T"] == {"name": "Teal", "color": "M"}
    assert table["suits"]["Pi1"] == {
        "name": "Dark Pink",
        "color": "M",
        "ranks": "all",
        "one_of_each": True,
    }
    assert table["variants"]["Rainbow-Ones (4 Suits)"] == {
        "suits": ["R", "B", "P", "T"],
        "special_rank": 1,
        "special_colors": "all",
        "clue_ranks": [2, 3, 4, 5],
    }
    assert table["variants"]["Dark Pink (4 Suits)"] == {
        "suits": ["R", "B", "P", "Pi1"],
        "throw_it_in_a_hole": True,
    }
    assert table["variants"]["Mute"] == {"suits": ["R", "B"], "clue_colors": []}
    assert "Tangerine" not in {suit["name"] for suit in table["suits"].values()}
