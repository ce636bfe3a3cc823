"""The real companion in a real X window (Xvfb), typed into with xdotool, killed with -9.

Skipped where Xvfb or xdotool is missing, except in CI (``CI`` set), where
their absence fails: ``.ci/run`` installs them.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.xwindow import export, keys, start_app, wait_for_actions

from engine.cards import Color
from engine.log import parse_log, replay_log

pytestmark = pytest.mark.xvfb
COMMAND = [sys.executable, "-m", "companion"]


def test_typed_game_survives_kill_9_and_resumes(xvfb: dict[str, str], tmp_path: Path) -> None:
    """Section 4 (storage): every confirmed action is on disk before it is shown; an
    unfinished game resumes exactly where it was after a power cut (kill -9), at the hint
    level it was started with (issue 33: the default, a hint's colour or rank), though
    the restarted companion's config now says "count"."""
    data, config = tmp_path / "data", tmp_path / "config.toml"
    app, window = start_app(xvfb, data)
    try:
        keys(xvfb, window, "4", "Return")  # 4 players, start
        keys(xvfb, window, "h", "g")  # seat 0 gives a hint: green
        keys(xvfb, window, "p", "r", "1", "Return")  # seat 1 plays R1
        keys(xvfb, window, "d", "b", "2", "Return")  # seat 2 discards B2
        keys(xvfb, window, "p", "g", "3", "Return")  # seat 3 misplays G3
        stored = wait_for_actions(data, 4)
        keys(xvfb, window, "p", "y", "1")  # entered but not confirmed
        time.sleep(0.3)
    finally:
        app.send_signal(signal.SIGKILL)
        app.wait(timeout=10)

    log = parse_log(export(data))
    assert log.setup.players == 4
    assert [line["action"] for line in stored] == ["hint", "play", "discard", "play"]
    assert stored[0] == {"action": "hint", "player": 0, "color": "green"}
    assert [a.card.code() for a in log.actions[1:]] == ["R1", "B2", "G3"]  # type: ignore[union-attr]
    game = replay_log(export(data))
    assert game.position.fuses == 1 and game.position.hints == 8  # hint -1, discard +1
    assert game.current_player == 0

    # Restart: the game resumes at its level; the next action continues it.
    config.write_text('[game]\nhints = "count"\n', encoding="utf-8")
    app, window = start_app(xvfb, data, "--config", str(config))
    try:
        keys(xvfb, window, "h", "4")
        lines = wait_for_actions(data, 5)
        assert lines[4] == {"action": "hint", "player": 0, "rank": 4}
        keys(xvfb, window, "u", "Return")  # undo the hint, confirmed
        deadline = time.monotonic() + 10
        while len(parse_log(export(data)).actions) != 4 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(parse_log(export(data)).actions) == 4
    finally:
        app.terminate()
        app.wait(timeout=10)
    assert app.returncode == 0, app.stderr.read().decode() if app.stderr else ""


def test_hand_memory_survives_kill_9_slot_for_slot(xvfb: dict[str, str], tmp_path: Path) -> None:
    """Issue 14 (RULES.md section 8): with hand memory, the slots typed at the table are
    on disk before they are shown; after a power cut (kill -9) the companion resumes with
    every player's hand memory exactly as it was, and the next hint is checked against it."""
    data, config = tmp_path / "data", tmp_path / "config.toml"
    config.write_text("[game]\nplayers = 3\nhand_memory = true\n", encoding="utf-8")
    app, window = start_app(xvfb, data, "--config", str(config))
    try:
        keys(xvfb, window, "Return")  # start: 3 players, hand memory on
        keys(xvfb, window, "h", "2", "r", "1", "4", "Return")  # Bo: slots 1 and 4 are red
        keys(xvfb, window, "p", "2", "b", "1", "Return")  # Bo plays B1 from his slot 2
        stored = wait_for_actions(data, 2)
        keys(xvfb, window, "h", "1", "5", "3")  # entered but not confirmed
        time.sleep(0.3)
    finally:
        app.send_signal(signal.SIGKILL)
        app.wait(timeout=10)

    assert stored[0]["slots"] == [1, 4] and stored[1]["slot"] == 2
    before = replay_log(export(data))
    bo = before.hand_memory(1)
    # Bo played slot 2: his slot 1 moved right, a new card took slot 1, 3 to 5 stayed.
    assert [slot.color for slot in bo] == [None, Color.RED, None, Color.RED, None]

    app, window = start_app(xvfb, data, "--config", str(config))
    try:
        # Cy hints Bo red on his slot 1 only: slot 2 was hinted red, so it is refused.
        keys(xvfb, window, "h", "2", "r", "1", "Return")
        keys(xvfb, window, "Escape")  # the refused entry is kept until it is cancelled
        # The same hint on the right slots goes through.
        keys(xvfb, window, "h", "2", "r", "2", "4", "Return")
        lines = wait_for_actions(data, 3)
        assert lines[2]["action"] == "hint" and lines[2]["slots"] == [2, 4]
    finally:
        app.terminate()
        app.wait(timeout=10)
    assert app.returncode == 0, app.stderr.read().decode() if app.stderr else ""
    after = replay_log(export(data))
    assert after.actions[:2] == before.actions
    assert after.hand_memory(0) == before.hand_memory(0)


def test_refused_discard_changes_nothing(xvfb: dict[str, str], tmp_path: Path) -> None:
    """Section 3: a discard with all 8 hint tokens is refused and nothing is stored."""
    data = tmp_path / "data"
    app, window = start_app(xvfb, data)
    try:
        keys(xvfb, window, "2", "Return", "d", "r", "1", "Return", "Escape", "h", "w")
        lines = wait_for_actions(data, 1)
        assert [line["action"] for line in lines] == ["hint"]
        assert lines[0]["player"] == 0  # the refused discard did not pass the turn
    finally:
        app.terminate()
        app.wait(timeout=10)


def test_run_without_any_screen_says_so_and_fails(tmp_path: Path) -> None:
    """Without a desktop or a KMS screen, ``run`` says why in one line and exits non-zero."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("SDL_VIDEODRIVER", None)
    done = subprocess.run(
        [*COMMAND, "run", "--data-dir", str(tmp_path), "--gpio", "none"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert "display" in lines[0] or "screen" in lines[0]
