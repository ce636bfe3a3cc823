"""A USB reader typing into the real window (issue 11): one scan, not keys.

The real companion under Xvfb, as tests/shell/test_app_xvfb.py runs it; ``xdotool
type --delay 5`` types a tag and Enter at a reader's pace. The tag is spelt with
letters that are keys of the game screen (h: hint, d: discard, u: undo, p:
play): typed as keys they would record a hint and open entries. Skipped where
Xvfb or xdotool is missing, except in CI.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from support.xwindow import export, keys, start_app, wait_for_actions

from engine.cards import Card
from engine.log import parse_log
from hardware.tagmap import TagMap

pytestmark = pytest.mark.xvfb

TAG = "4HD0U1P9H"


def test_a_burst_typed_into_the_window_is_one_scan(xvfb, tmp_path: Path) -> None:
    """Without any reader configured: 9 characters 5 ms apart and Return (\\r) are R1
    ("play or discard?"), then p plays it; no hint, no discard, no undo from the letters."""
    data = tmp_path / "data"
    data.mkdir()
    TagMap({TAG: Card.from_code("R1")}).save(data / "tags.json")
    app, window = start_app(xvfb, data)
    try:
        keys(xvfb, window, "2", "Return")  # 2 players, start
        subprocess.run(
            ["xdotool", "type", "--window", window, "--delay", "5", TAG.lower() + "\r"],
            env=xvfb,
            check=True,
        )
        time.sleep(0.3)  # the loop shows "play or discard?" for the scanned card
        keys(xvfb, window, "p")
        lines = wait_for_actions(data, 1)
        time.sleep(0.5)  # anything else the letters did would be stored by now
        log = parse_log(export(data))
    finally:
        app.terminate()
        app.wait(timeout=10)
    assert [line["action"] for line in lines] == ["play"]
    assert len(log.actions) == 1  # nothing but the play: no hint, no discard, no undo
    assert log.actions[0].card == Card.from_code("R1")  # type: ignore[union-attr]
    assert log.actions[0].player == 0
    assert app.returncode == 0


def test_the_same_letters_typed_at_a_persons_pace_are_keys(xvfb, tmp_path: Path) -> None:
    """The control: h typed by a person records a hint (the count level: one press); the
    burst rule takes nothing away."""
    data, config = tmp_path / "data", tmp_path / "config.toml"
    config.write_text('[game]\nhints = "count"\n', encoding="utf-8")
    app, window = start_app(xvfb, data, "--config", str(config))
    try:
        keys(xvfb, window, "2", "Return", "h", "h")
        lines = wait_for_actions(data, 2)
    finally:
        app.terminate()
        app.wait(timeout=10)
    assert [line["action"] for line in lines] == ["hint", "hint"]


def test_quick_typing_without_a_reader_or_a_deck_is_typing(xvfb, tmp_path: Path) -> None:
    """Issue 33: keys 20 ms apart gave "Unknown card tag hhhpg1: enrol the deck first"
    and recorded nothing, on a companion with no deck enrolled and no reader configured.
    Without either, a burst is keys however fast: three hints with their colour (the
    default level, decision 0097), then a play of green 1."""
    data = tmp_path / "data"
    app, window = start_app(xvfb, data)
    try:
        keys(xvfb, window, "2", "Return")  # 2 players, start
        time.sleep(0.3)
        subprocess.run(
            ["xdotool", "type", "--window", window, "--delay", "20", "hrhbhypg1\r"],
            env=xvfb,
            check=True,
        )
        lines = wait_for_actions(data, 4)
    finally:
        app.terminate()
        app.wait(timeout=10)
    assert [line["action"] for line in lines] == ["hint", "hint", "hint", "play"]
    assert [line["color"] for line in lines[:3]] == ["red", "blue", "yellow"]
    assert lines[3]["card"] == "G1"
