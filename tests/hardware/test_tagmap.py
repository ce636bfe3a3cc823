"""The tag map: tag → card, card codes naming themselves, the JSON file."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import ALL_CARDS, Card
from hardware.tagmap import TagMap, TagMapError, card_code_of, normalise_tag

R3 = Card.from_code("R3")
Y1 = Card.from_code("Y1")


def test_card_code_tags_need_no_enrolment():
    tags = TagMap()
    assert tags.lookup("R3") == R3
    assert tags.lookup("r3") == R3
    assert tags.lookup(" m5 ") == Card.from_code("M5")


def test_unknown_tag_is_none():
    assert TagMap().lookup("0A1B2C3D4E") is None
    assert TagMap().lookup("R6") is None


def test_enrolled_tag_maps_to_its_card_whatever_the_case():
    tags = TagMap()
    tags.enrol("0a1b2c3d4e", R3)
    assert tags.lookup("0A1B2C3D4E") == R3
    assert tags.lookup("0a1b2c3d4e") == R3
    assert "0a1b2c3d4e" in tags
    assert len(tags) == 1


def test_enrolling_a_tag_twice_is_refused_and_says_what_it_is():
    tags = TagMap({"0A1B2C3D4E": R3})
    with pytest.raises(TagMapError, match="0A1B2C3D4E is already enrolled as R3"):
        tags.enrol("0a1b2c3d4e", Y1)
    assert tags.lookup("0A1B2C3D4E") == R3


def test_a_card_code_cannot_be_enrolled():
    with pytest.raises(TagMapError, match="is a card code"):
        TagMap().enrol("Y1", R3)


@pytest.mark.parametrize("tag", ["", "   ", "x" * 65, "caf\u00e9", "tab\there"])
def test_bad_tags_are_refused(tag):
    with pytest.raises(TagMapError, match="is not a tag"):
        normalise_tag(tag)


def test_forget_card_removes_every_tag_of_that_card_only():
    tags = TagMap({"AAAAAAAAAA": R3, "BBBBBBBBBB": Y1, "CCCCCCCCCC": R3})
    assert tags.forget_card(R3) == ["AAAAAAAAAA", "CCCCCCCCCC"]
    assert tags.lookup("AAAAAAAAAA") is None
    assert tags.lookup("BBBBBBBBBB") == Y1


def test_forget_unknown_tag_is_an_error():
    with pytest.raises(TagMapError, match="not enrolled"):
        TagMap().forget("AAAAAAAAAA")


def test_counts_and_tags_of():
    tags = TagMap({"AAAAAAAAAA": R3, "BBBBBBBBBB": Y1, "CCCCCCCCCC": R3})
    assert tags.counts()[R3] == 2
    assert tags.tags_of(Y1) == ["BBBBBBBBBB"]


def test_save_then_load_round_trips(tmp_path):
    path = tmp_path / "state" / "tags.json"  # the directory is created
    tags = TagMap({"0A1B2C3D4E": R3, "scanner-42": Y1})
    tags.save(path)
    assert TagMap.load(path) == tags
    assert json.loads(path.read_text())["tags"]["0A1B2C3D4E"] == "R3"


def test_save_replaces_atomically_and_leaves_no_temporary_file(tmp_path):
    path = tmp_path / "tags.json"
    TagMap({"AAAAAAAAAA": R3}).save(path)
    inode_before = os.stat(path).st_ino
    TagMap({"BBBBBBBBBB": Y1}).save(path)
    assert os.listdir(tmp_path) == ["tags.json"]
    assert os.stat(path).st_ino != inode_before  # a new file renamed over the old one
    assert TagMap.load(path).lookup("BBBBBBBBBB") == Y1


def test_missing_file_is_an_empty_map_unless_required(tmp_path):
    assert len(TagMap.load(tmp_path / "none.json")) == 0
    with pytest.raises(TagMapError, match="no such tag map file"):
        TagMap.load(tmp_path / "none.json", missing_ok=False)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "invalid JSON"),
        ("[]", "not a tag map"),
        ('{"version": 1}', "not a tag map"),
        ('{"version": 2, "tags": {}}', "version 2 is not 1"),
        ('{"version": 1, "tags": {"AAAAAAAAAA": "R6"}}', "'AAAAAAAAAA'.*'R6' is not a card"),
        ('{"version": 1, "tags": {"AAAAAAAAAA": 3}}', "3 is not a card code"),
        ('{"version": 1, "tags": {"R3": "Y1"}}', "is a card code"),
        ('{"version": 1, "tags": {"": "Y1"}}', "is not a tag"),
        ('{"version": 1, "tags": {"aaaaaaaaaa": "Y1", "AAAAAAAAAA": "R3"}}', "already"),
    ],
)
def test_corrupt_file_is_a_clear_error_naming_the_file(tmp_path, text, message):
    path = tmp_path / "tags.json"
    path.write_text(text)
    with pytest.raises(TagMapError, match=message) as caught:
        TagMap.load(path)
    assert str(path) in str(caught.value)


def test_binary_garbage_file_is_a_clear_error(tmp_path):
    path = tmp_path / "tags.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(TagMapError, match="not a tag map"):
        TagMap.load(path)


@given(st.sampled_from(ALL_CARDS), st.booleans())
def test_every_card_code_names_itself(card, lower):
    code = card.code().lower() if lower else card.code()
    assert card_code_of(code) == card
    assert TagMap().lookup(code) == card


@given(
    st.dictionaries(
        st.text(alphabet="0123456789ABCDEF", min_size=10, max_size=10),
        st.sampled_from(ALL_CARDS),
        max_size=60,
    )
)
def test_json_round_trip_property(cards):
    tags = TagMap(cards)
    assert TagMap.from_json(tags.to_json()) == tags
