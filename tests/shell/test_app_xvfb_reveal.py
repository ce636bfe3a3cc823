"""Issue 34: the real companion in a real X window (Xvfb), typed into with xdotool, killed
with -9 in the middle of the hands shown at the end: the hands recorded are on disk, the
hand being typed is not, and the companion started again takes the reveal up where it
was (the reveal screen, at the hand left)."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import pytest
from support.reveals import STRUCK_OUT_HANDS, struck_out_reveal
from support.xwindow import COMMAND, export, keys, start_app, wait_for_actions

from engine.log import parse_log

pytestmark = pytest.mark.xvfb


def hand_keys(seat: int) -> list[str]:
    return [part for code in STRUCK_OUT_HANDS[seat] for part in (code[0].lower(), code[1])]


def wait_for_reveals(data: Path, count: int) -> list[object]:
    deadline = time.monotonic() + 10
    reveals: list[object] = []
    while time.monotonic() < deadline:
        reveals = list(parse_log(export(data)).reveals)
        if len(reveals) >= count:
            return reveals
        time.sleep(0.1)
    pytest.fail(f"expected {count} hands shown, found {len(reveals)}")


def test_a_reveal_survives_kill_9_and_is_taken_up_again(
    xvfb: dict[str, str], tmp_path: Path
) -> None:
    data, config = tmp_path / "data", tmp_path / "config.toml"
    config.write_text("[game]\nplayers = 2\nhand_memory = true\n", encoding="utf-8")
    app, window = start_app(xvfb, data, "--config", str(config))
    try:
        keys(xvfb, window, "Return")  # start: two players, hand memory
        for card in ("r 5", "y 5", "g 5"):  # three misplays from slot 1: the game is over
            keys(xvfb, window, "p", "1", *card.split(), "Return")
        wait_for_actions(data, 3)
        keys(xvfb, window, "h", "1", *hand_keys(0), "Return")  # Show hands: Ann's
        assert wait_for_reveals(data, 1) == [struck_out_reveal(0)]
        keys(xvfb, window, *hand_keys(1)[:5])  # Bo's, typed but not recorded
        time.sleep(0.3)
    finally:
        app.send_signal(signal.SIGKILL)
        app.wait(timeout=10)
    assert app.returncode == -signal.SIGKILL
    log = parse_log(export(data))
    assert log.reveals == [struck_out_reveal(0)] and len(log.actions) == 3

    app, window = start_app(xvfb, data, "--config", str(config))
    try:
        # the reveal screen at Bo's hand, the only one left: his cards, then OK
        keys(xvfb, window, *hand_keys(1), "Return")
        assert wait_for_reveals(data, 2) == [struck_out_reveal(0), struck_out_reveal(1)]
    finally:
        app.terminate()
        app.wait(timeout=10)
    assert app.returncode == 0, app.stderr.read().decode() if app.stderr else ""
    exported = tmp_path / "game.jsonl"
    exported.write_text(export(data), encoding="utf-8")
    replayed = subprocess.run(
        [*COMMAND, "replay", str(exported)], capture_output=True, text=True, check=True
    )
    assert json.loads(replayed.stdout)["revealed"] == [0, 1]
