"""The inputs per action with hand memory meet issue 14's aims, counted by
``benchmarks/inputs_per_action.py`` on the real controller, the real key table, taps on
what the real renderer drew and the soft keys: a one-slot hint in at most 4 taps on touch
and 6 presses on the buttons, a play at most 2 inputs more than without hand memory."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

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
    on = counts.measure(counts.touch, True)
    assert on["colour hint"].inputs <= 4 and on["rank hint"].inputs <= 4


@pytest.mark.parametrize("setup", ["buttons", "buttons_and_reader", "two_pads"])
def test_a_hint_is_at_most_6_presses_on_buttons(counts, setup):
    on = counts.measure(getattr(counts, setup), True)
    assert max(on[name].inputs for name in ("colour hint", "rank hint", "2-slot hint")) <= 6


@pytest.mark.parametrize(
    "setup", ["keyboard", "touch", "buttons", "buttons_and_reader", "two_pads"]
)
def test_a_play_or_a_discard_takes_at_most_2_inputs_more_with_hand_memory(counts, setup):
    off, on = (
        counts.measure(getattr(counts, setup), False),
        counts.measure(getattr(counts, setup), True),
    )
    for name in ("play", "discard"):
        assert on[name].inputs - off[name].inputs <= 2, name
        assert on[name].reads == off[name].reads
    assert on["undo"] == off["undo"]
