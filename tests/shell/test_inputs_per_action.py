"""The inputs per action meet issue 14's aims with hand memory and issue 33's at the
content level, counted by ``benchmarks/inputs_per_action.py`` on the real controller, the
real key table, taps on what the real renderer drew and the soft keys: with hand memory a
one-slot hint in at most 4 taps on touch and 6 presses on the buttons, a play at most 2
inputs more than without; at the content level a hint in 2 presses on keys (a rank one
more on buttons, behind "1-5 ›"), and one press at the count level."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from companion.core.controller import HintLevel

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "inputs_per_action.py"


@pytest.fixture(scope="module")
def counts() -> ModuleType:
    spec = importlib.util.spec_from_file_location("inputs_per_action", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    module.pygame.font.init()
    return module


def test_a_one_slot_hint_is_at_most_4_taps_on_touch(counts):
    on = counts.measure(counts.touch, HintLevel.SLOTS)
    assert on["colour hint"].inputs <= 4 and on["rank hint"].inputs <= 4


@pytest.mark.parametrize("setup", ["buttons", "buttons_and_reader", "two_pads"])
def test_a_hint_is_at_most_6_presses_on_buttons(counts, setup):
    on = counts.measure(getattr(counts, setup), HintLevel.SLOTS)
    assert max(on[name].inputs for name in ("colour hint", "rank hint", "2-slot hint")) <= 6


@pytest.mark.parametrize(
    "setup", ["keyboard", "touch", "buttons", "buttons_and_reader", "two_pads"]
)
def test_a_play_or_a_discard_takes_at_most_2_inputs_more_with_hand_memory(counts, setup):
    off, on = (
        counts.measure(getattr(counts, setup), HintLevel.CONTENT),
        counts.measure(getattr(counts, setup), HintLevel.SLOTS),
    )
    for name in ("play", "discard"):
        assert on[name].inputs - off[name].inputs <= 2, name
        assert on[name].reads == off[name].reads
    assert on["undo"] == off["undo"]


@pytest.mark.parametrize(
    ("setup", "colour", "rank"),
    [("keyboard", 2, 2), ("touch", 2, 2), ("buttons", 2, 3), ("two_pads", 2, 3)],
)
def test_a_hint_with_its_content_is_2_inputs_a_rank_on_buttons_3(counts, setup, colour, rank):
    content = counts.measure(getattr(counts, setup), HintLevel.CONTENT)
    assert (content["colour hint"].inputs, content["rank hint"].inputs) == (colour, rank)
    count = counts.measure(getattr(counts, setup), HintLevel.COUNT)
    assert count["colour hint"].inputs == count["rank hint"].inputs == 1
    for name in ("play", "discard", "undo"):  # the level changes hints only
        assert content[name] == count[name], name
